// Embind surface of the wasm module; the contract is API.md beside this file. This file only
// converts between JS values and the engine's types (native/validation/block_validation.h,
// native/validation/chain_validation.h, native/verify/batch_verify.h).
#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include "primitives/hex.h"
#include "secp256k1/ecmult_tables.h"
#include "util/error.h"
#include "undo/block_undo.h"
#include "util/stage_times.h"
#include "validation/block_check.h"
#include "validation/block_validation.h"
#include "validation/chain_validation.h"
#include "validation/spent_outputs.h"
#include "verify/batch_verify.h"
#include "verify/single_verify.h"

namespace {

using emscripten::val;

/** Copies a JS Uint8Array into wasm memory with one TypedArray.set (no per-byte calls). */
std::vector<uint8_t> CopyIn(const val& bytes) {
    const size_t n = bytes["length"].as<size_t>();
    std::vector<uint8_t> out(n);
    if (n > 0) val(emscripten::typed_memory_view(n, out.data())).call<void>("set", bytes);
    return out;
}

/** A JS-owned copy of `n` elements at `data` (new Uint8Array(view) / new Uint32Array(view)
 *  copies), so the result survives memory growth and frees of the C++ side. */
template <typename T>
val CopyOut(const char* array_type, const T* data, size_t n) {
    if (n == 0) return val::global(array_type).new_(0);
    return val::global(array_type).new_(emscripten::typed_memory_view(n, data));
}

/** { ok: false, error, reason, rejectReason, stage, blockHash, txIndex, inputIndex,
 *  outputIndex, byteOffset }; -1 (or "" for the strings) where unknown. int64 fields become JS
 *  numbers (exact below 2^53). */
val Failure(const std::string& message, const std::string& reason, const ibd::Location& where,
            const std::string& reject_reason = "", const std::string& stage = "") {
    val r = val::object();
    r.set("ok", false);
    r.set("error", message);
    r.set("reason", reason);
    r.set("rejectReason", reject_reason);
    r.set("stage", stage);
    r.set("blockHash", where.block_hash);
    r.set("txIndex", static_cast<double>(where.tx_index));
    r.set("inputIndex", static_cast<double>(where.input_index));
    r.set("outputIndex", static_cast<double>(where.output_index));
    r.set("byteOffset", static_cast<double>(where.byte_offset));
    return r;
}

/** [{ rule, reason }] of RulesNotChecked (validation/block_rules.h). */
val NotCheckedArray(const std::vector<ibd::NotChecked>& list) {
    val out = val::array();
    for (const ibd::NotChecked& n : list) {
        val o = val::object();
        o.set("rule", n.rule);
        o.set("reason", n.reason);
        out.call<void>("push", o);
    }
    return out;
}

/** A failure naming a wrong argument: reason = message. */
val ArgumentFailure(const std::string& message) { return Failure(message, message, ibd::Location{}); }

/** Spent outputs as spent_outputs.json's entries: [{ txid (display hex), vout, value
 *  (satoshis), scriptPubKey (hex) }]. */
val SpentArray(const std::vector<ibd::SpentOutputEntry>& entries) {
    val spent = val::array();
    for (const ibd::SpentOutputEntry& e : entries) {
        val x = val::object();
        x.set("txid", ibd::HexEncodeReversed(e.prevout.txid));
        x.set("vout", e.prevout.n);
        x.set("value", static_cast<double>(e.out.value));
        x.set("scriptPubKey", ibd::HexEncode(e.out.script_pubkey));
        spent.call<void>("push", x);
    }
    return spent;
}

/** `height` must be a JS number holding an integer in [0, 2^31 - 1]: sets `height`, or sets
 *  `failure` and returns false. */
bool CheckHeight(const val& height_val, int32_t& height, val& failure) {
    if (!height_val.isNumber()) {
        failure = Failure("height must be a number (the block's height)", "height must be a number (the block's height)",
                          ibd::Location{});
        return false;
    }
    const double h = height_val.as<double>();
    if (!(h >= 0 && h <= 2147483647.0) || h != static_cast<double>(static_cast<int64_t>(h))) {
        char shown[32];
        std::snprintf(shown, sizeof shown, "%.17g", h);
        const std::string msg = std::string("height must be an integer in [0, 2147483647], got ") + shown;
        failure = Failure(msg, msg, ibd::Location{});
        return false;
    }
    height = static_cast<int32_t>(h);
    return true;
}

/** ParseSpentOutputsJson, with running out of memory reported as a failure like the others
 *  (any ibd::Error is let through to the caller). Returns false and sets `failure` then. */
bool ParseSpentOutputs(const std::string& json, std::vector<ibd::SpentOutputEntry>& spent, val& failure) {
    try {
        spent = ibd::ParseSpentOutputsJson(json);
        return true;
    } catch (const std::bad_alloc&) {
        const std::string msg = "out of memory while parsing spent outputs (" + std::to_string(json.size()) + " bytes)";
        failure = Failure(msg, msg, ibd::Location{});
        return false;
    }
}

/** Origins as a JS-owned Uint32Array of [tx, input] pairs. */
val OriginsArray(const std::vector<ibd::CheckOrigin>& origins) {
    std::vector<uint32_t> flat;
    flat.reserve(origins.size() * 2);
    for (const ibd::CheckOrigin& o : origins) {
        flat.push_back(o.tx_index);
        flat.push_back(o.input_index);
    }
    return CopyOut("Uint32Array", flat.data(), flat.size());
}

/** Throws `new Error(message)` into JS. The throw unwinds the wasm stack WITHOUT running C++
 *  destructors, so callers pass a JS string (a val: an Emval handle, no wasm heap memory) and
 *  hold no C++ object that owns wasm heap memory (std::string, std::vector) when they call it. */
[[noreturn]] void ThrowJs(const val& message) { val::global("Error").new_(message).throw_(); }

/** A JS string from a C string literal (no std::string alive across a throw). */
val StringJs(const char* text) { return val(text); }

/** What a non-Uint8Array argument is, for error messages: "null", "undefined", the constructor
 *  name of an object ("Array", "Uint16Array", ...) or the typeof ("string", "number", ...). */
val Describe(const val& v) {
    if (v.isNull()) return val("null");
    if (v.isUndefined()) return val("undefined");
    const val type = v.typeOf();
    if (type.strictlyEquals(val("object")) || type.strictlyEquals(val("function"))) {
        const val ctor = v["constructor"];
        if (!ctor.isUndefined() && !ctor.isNull()) {
            const val name = ctor["name"];
            if (name.typeOf().strictlyEquals(val("string"))) return name;
        }
    }
    return type;
}

/** Describe as a C++ string (for messages built before any C++ object could leak). */
std::string DescribeString(const val& v) { return Describe(v).as<std::string>(); }

/** options[name], when present, must be a boolean: sets `out`, or sets `failure` (naming
 *  "options.<name>") and returns false. */
bool BoolOption(const val& options, const char* name, bool& out, val& failure) {
    const val v = options[name];
    if (v.isUndefined()) return true;
    if (!v.typeOf().strictlyEquals(val("boolean"))) {
        failure = ArgumentFailure(std::string("options.") + name + " must be a boolean, got " + DescribeString(v));
        return false;
    }
    out = v.as<bool>();
    return true;
}

/** The options each entry point reads (wasm/API.md), in the order its documentation gives them. */
const std::vector<std::string> kBlockValidationOptions = {"medianTimePast", "skipProofOfWork"};
const std::vector<std::string> kValidateBlockOptions = {"medianTimePast", "skipProofOfWork", "txBegin", "txEnd",
                                                        "blockRules",     "verify",          "schnorrBatch"};
const std::vector<std::string> kChainValidationOptions = {"skipProofOfWork", "maxCoinsBytes"};

/** `options` (an object) has only keys of `known`: each of its own enumerable string keys
 *  (Object.keys; no getter runs) must be one, whatever its value, so that a misspelt option
 *  ({ verfy: false }) is refused rather than ignored with its default used. Else sets `failure`
 *  to "options.<key> is not an option of <call> (known: <known, comma-separated>)" (the key as a
 *  JSON string in brackets when it is not an identifier) and returns false. */
bool KnownOptionsOnly(const val& options, const char* call, const std::vector<std::string>& known, val& failure) {
    const val keys = val::global("Object").call<val>("keys", options);
    const size_t count = keys["length"].as<size_t>();
    for (size_t k = 0; k < count; ++k) {
        const std::string key = keys[k].as<std::string>();
        if (std::find(known.begin(), known.end(), key) != known.end()) continue;
        const bool identifier = !key.empty() && !std::isdigit(static_cast<unsigned char>(key[0])) &&
                                std::all_of(key.begin(), key.end(), [](char c) {
                                    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
                                });
        std::string list;
        for (const std::string& name : known) list += (list.empty() ? "" : ", ") + name;
        failure = ArgumentFailure(
            "options" + (identifier ? "." + key : "[" + val::global("JSON").call<std::string>("stringify", keys[k]) + "]") +
            " is not an option of " + call + " (known: " + list + ")");
        return false;
    }
    return true;
}

/** `options` (the constructor's 5th argument, validateBlock's too): undefined / null, or an
 *  object with only the keys of `known` (KnownOptionsOnly: `call` names the entry point) whose
 *  `medianTimePast` is undefined or an integer number of seconds in [0, 2^53) and whose
 *  `skipProofOfWork` is undefined or a boolean (true only for blocks mutated from real ones:
 *  ChainContext::skip_proof_of_work). Sets `context`, or sets `failure` and returns false. */
bool ParseOptions(const val& options, const char* call, const std::vector<std::string>& known, ibd::ChainContext& context,
                  val& failure) {
    if (options.isUndefined() || options.isNull()) return true;
    if (!options.typeOf().strictlyEquals(val("object"))) {
        failure = ArgumentFailure("options must be an object such as { medianTimePast }, got " + DescribeString(options));
        return false;
    }
    if (!KnownOptionsOnly(options, call, known, failure)) return false;
    if (!BoolOption(options, "skipProofOfWork", context.skip_proof_of_work, failure)) return false;
    const val mtp = options["medianTimePast"];
    if (mtp.isUndefined()) return true;
    const double t = mtp.isNumber() ? mtp.as<double>() : -1;
    if (!mtp.isNumber() || !(t >= 0 && t < 9007199254740992.0) || t != static_cast<double>(static_cast<int64_t>(t))) {
        failure = ArgumentFailure("options.medianTimePast must be an integer number of seconds >= 0, got " +
                                  (mtp.isNumber() ? val::global("String")(mtp).as<std::string>() : DescribeString(mtp)));
        return false;
    }
    context.median_time_past = static_cast<int64_t>(t);
    return true;
}

/** A BlockValidationResult as the JS result object (wasm/API.md, BlockValidation.result()). */
val ResultObject(const ibd::BlockValidationResult& res) {
    val r = val::object();
    r.set("ok", true);
    r.set("hash", res.hash_hex);
    r.set("txCount", res.tx_count);
    r.set("inputs", res.inputs);
    r.set("valid", res.valid);
    r.set("scriptError", res.script_error);
    r.set("error", res.error);
    r.set("blockHash", res.hash_hex);
    r.set("txIndex", static_cast<double>(res.tx_index));
    r.set("inputIndex", static_cast<double>(res.input_index));
    r.set("byteOffset", static_cast<double>(res.byte_offset));
    r.set("outputIndex", static_cast<double>(res.output_index));
    r.set("inputType", res.input_type);
    r.set("failedInputs", res.failed_inputs);
    r.set("rejectReason", res.reject_reason);
    r.set("stage", res.stage);
    // Satoshis as JS numbers: exact, since every amount is at most 21e14 < 2^53.
    r.set("fee", static_cast<double>(res.fee));
    r.set("subsidy", static_cast<double>(res.subsidy));
    r.set("sigopCost", static_cast<double>(res.sigop_cost));
    r.set("notChecked", NotCheckedArray(res.not_checked));
    val input_failures = val::array();
    for (const ibd::InputFailure& f : res.input_failures) {
        val o = val::object();
        o.set("tx", f.tx);
        o.set("input", f.input);
        o.set("type", f.input_type);
        o.set("scriptError", f.script_error);
        input_failures.call<void>("push", o);
    }
    r.set("inputFailures", input_failures);
    r.set("inputVerdicts", CopyOut("Uint8Array", res.input_verdicts.data(), res.input_verdicts.size()));
    val coverage = val::object();
    for (const auto& [name, c] : res.coverage) {
        val o = val::object();
        o.set("inputs", c.inputs);
        o.set("evaluated", c.evaluated);
        o.set("checks", c.checks);
        o.set("scriptBytes", static_cast<double>(c.script_bytes));
        coverage.set(name, o);
    }
    r.set("coverage", coverage);
    r.set("checks", CopyOut("Uint8Array", res.checks.data(), res.checks.size()));
    r.set("origins", OriginsArray(res.origins));
    r.set("verdicts", CopyOut("Uint8Array", res.verdicts.data(), res.verdicts.size()));
    r.set("ecdsa", res.ecdsa_checks);
    r.set("schnorr", res.schnorr_checks);
    r.set("rounds", res.rounds);
    r.set("evaluations", res.evaluations);
    r.set("verifiedRecords", res.verified_records);
    r.set("blockRulesChecked", res.block_rules_checked);
    r.set("txBegin", res.tx_begin);
    r.set("txEnd", res.tx_end);
    val times = val::object();
    times.set("parseMs", static_cast<double>(res.times.parse_ns) / 1e6);
    times.set("sighashMs", static_cast<double>(res.times.sighash_ns) / 1e6);
    times.set("scriptMs", static_cast<double>(res.times.script_ns) / 1e6);
    times.set("verifyMs", static_cast<double>(res.times.verify_ns) / 1e6);
    // sighashMs by kind (precomputation included) and scriptMs by input script type (as in
    // coverage): what the cost model's per-kind and per-type costs are measured from.
    val sighash_by_kind = val::object();
    const char* kind_names[3] = {"legacy", "bip143", "bip341"};
    for (int k = 0; k < 3; ++k) {
        sighash_by_kind.set(kind_names[k], static_cast<double>(res.times.sighash_kind_ns[k]) / 1e6);
    }
    times.set("sighashMsByKind", sighash_by_kind);
    val script_by_type = val::object();
    for (const auto& [name, ns] : res.script_ns_by_type) script_by_type.set(name, static_cast<double>(ns) / 1e6);
    times.set("scriptMsByType", script_by_type);
    r.set("times", times);
    // The sighash workload: sighashes computed by kind and the bytes of their messages
    // (sighash.h), and the bytes of the per-transaction precomputation.
    val sighash = val::object();
    const char* kinds[3] = {"legacy", "bip143", "bip341"};
    for (int k = 0; k < 3; ++k) {
        val kind = val::object();
        kind.set("count", res.sighash_counts.count[k]);
        kind.set("bytes", static_cast<double>(res.sighash_counts.bytes[k]));
        kind.set("hashedBytes", static_cast<double>(res.sighash_counts.hashed[k]));
        sighash.set(kinds[k], kind);
    }
    sighash.set("precomputeBip143Bytes", static_cast<double>(res.precompute_bytes[0]));
    sighash.set("precomputeBip341Bytes", static_cast<double>(res.precompute_bytes[1]));
    r.set("sighash", sighash);
    return r;
}

/** new BlockValidation(block, spentOutputsJson, expectedHashHex, height[, options]):
 *  BlockValidation (native/validation/block_validation.h) behind Embind. The constructor never
 *  throws: a wrong argument (type or value, any argument count from 0 to 5) or a block that
 *  cannot be parsed or breaks a rule before ConnectBlock is reported by status() / result() as
 *  the failure object (Failure). */
class BlockValidationJs {
public:
    BlockValidationJs() : BlockValidationJs(val::undefined()) {}
    explicit BlockValidationJs(val a) : BlockValidationJs(a, val::undefined()) {}
    BlockValidationJs(val a, val b) : BlockValidationJs(a, b, val::undefined()) {}
    BlockValidationJs(val a, val b, val c) : BlockValidationJs(a, b, c, val::undefined()) {}
    BlockValidationJs(val a, val b, val c, val d) : BlockValidationJs(a, b, c, d, val::undefined()) {}
    BlockValidationJs(val block, val spent_json_val, val expected_hash_val, val height_val, val options) {
        failure_ = val::null();
        try {
            if (!block.instanceof(val::global("Uint8Array"))) {
                failure_ = ArgumentFailure("block must be a Uint8Array (the block's bytes), got " + DescribeString(block));
                return;
            }
            if (!spent_json_val.isString()) {
                failure_ = ArgumentFailure("spentOutputsJson must be a string (spent_outputs.json's text), got " +
                                           DescribeString(spent_json_val));
                return;
            }
            if (!expected_hash_val.isString()) {
                failure_ = ArgumentFailure("expectedHashHex must be a string (64 hex digits, or \"\" for no check), got " +
                                           DescribeString(expected_hash_val));
                return;
            }
            int32_t height = 0;
            if (!CheckHeight(height_val, height, failure_)) return;
            ibd::ChainContext context;
            if (!ParseOptions(options, "new BlockValidation", kBlockValidationOptions, context, failure_)) return;
            const std::string spent_outputs_json = spent_json_val.as<std::string>();
            const std::string expected_hash_hex = expected_hash_val.as<std::string>();
            const std::vector<uint8_t> raw = CopyIn(block);
            std::vector<ibd::SpentOutputEntry> spent;
            if (!ParseSpentOutputs(spent_outputs_json, spent, failure_)) return;
            v_ = std::make_unique<ibd::BlockValidation>(raw.data(), raw.size(), spent, expected_hash_hex, height, context);
        } catch (const ibd::BlockRejected& e) {
            failure_ = Failure(e.what(), e.reason(), e.where(), e.reject_reason(), e.stage());
            failure_.set("notChecked", NotCheckedArray(e.not_checked()));
        } catch (const ibd::Error& e) {
            failure_ = Failure(e.what(), e.reason(), e.where(), e.reject_reason(), e.stage());
        } catch (const std::bad_alloc&) {
            const std::string msg = "out of memory while validating the block (block " +
                                    std::to_string(static_cast<uint64_t>(block["length"].as<double>())) + " bytes)";
            failure_ = Failure(msg, msg, ibd::Location{});
        } catch (const std::exception& e) {
            failure_ = Failure(e.what(), e.what(), ibd::Location{});
        }
    }

    /** { ok: true, pending } or the failure object. */
    val Status() const {
        if (!v_) return failure_;
        val r = val::object();
        r.set("ok", true);
        r.set("pending", v_->PendingCount());
        return r;
    }

    /** { checks: Uint8Array, origins: Uint32Array, count }: the current round's pending checks
     *  (empty when done or when the block failed to load). */
    val Pending() const {
        val r = val::object();
        if (!v_) {
            r.set("checks", CopyOut<uint8_t>("Uint8Array", nullptr, 0));
            r.set("origins", CopyOut<uint32_t>("Uint32Array", nullptr, 0));
            r.set("count", 0);
            return r;
        }
        r.set("checks", CopyOut("Uint8Array", v_->PendingChecks().data(), v_->PendingChecks().size()));
        r.set("origins", OriginsArray(v_->PendingOrigins()));
        r.set("count", v_->PendingCount());
        return r;
    }

    /** resolve(verdicts: Uint8Array) -> true when no check is pending any more. Throws a JS
     *  Error when the block failed to load, `verdicts` is not a Uint8Array, or its length is not
     *  the pending count. Everything is checked on the JS value BEFORE any copy into wasm memory,
     *  and no C++ object with a destructor is alive when ThrowJs runs (a JS throw unwinds without
     *  running C++ destructors: whatever is alive then leaks). */
    bool Resolve(val verdicts) {
        if (!v_) {
            ThrowJs(StringJs("BlockValidation.resolve: the block failed to load: ").call<val>("concat", failure_["error"]));
        }
        if (!verdicts.instanceof(val::global("Uint8Array"))) {
            ThrowJs(StringJs("BlockValidation.resolve: verdicts must be a Uint8Array, got ").call<val>("concat", Describe(verdicts)));
        }
        const double n = verdicts["length"].as<double>();
        const uint32_t pending = v_->PendingCount();
        if (n != static_cast<double>(pending)) {
            ThrowJs(StringJs("BlockValidation.resolve: ")
                        .call<val>("concat", val(n), val(" verdicts for "), val(pending), val(" pending checks")));
        }
        bool done = false;
        val error = val::undefined();
        {
            // Inner scope: the copy and any message are destroyed before a throw.
            try {
                const std::vector<uint8_t> bytes = CopyIn(verdicts);
                done = v_->Resolve(bytes.data(), bytes.size());
            } catch (const ibd::Error& e) {
                error = val(std::string(e.what()));
            } catch (const std::exception& e) {
                error = val(std::string("BlockValidation.resolve: ") + e.what());
            }
        }
        if (!error.isUndefined()) ThrowJs(error);
        return done;
    }

    /** The block's result (wasm/API.md), or the failure object; throws a JS Error while checks
     *  are pending. */
    val Result() const {
        if (!v_) return failure_;
        if (!v_->Done()) {
            // No std::string alive across the throw (see ThrowJs).
            ThrowJs(StringJs("BlockValidation.result: ")
                        .call<val>("concat", val(v_->PendingCount()), val(" checks are still pending")));
        }
        return ResultObject(v_->Result());
    }

private:
    std::unique_ptr<ibd::BlockValidation> v_;
    val failure_ = val::null();
};

/** validateBlock's own options beyond ParseOptions': txBegin / txEnd (integers >= 0; the
 *  BlockScope range), blockRules (boolean), verify ("synchronous", the default, or "rounds"),
 *  schnorrBatch (boolean, default true: ValidationOptions::batch_schnorr).
 *  Sets `options`, or sets `failure` and returns false. */
bool ParseJobOptions(const val& o, ibd::ValidationOptions& options, val& failure) {
    options.verify = ibd::VerifyMode::kSynchronous;
    if (o.isUndefined() || o.isNull()) return true;
    int given = 0;  // bit 0: txBegin, bit 1: txEnd
    for (const char* name : {"txBegin", "txEnd"}) {
        const val v = o[name];
        if (v.isUndefined()) continue;
        given |= name[2] == 'B' ? 1 : 2;
        const double d = v.isNumber() ? v.as<double>() : -1;
        if (!v.isNumber() || !(d >= 0 && d <= 4294967295.0) || d != static_cast<double>(static_cast<int64_t>(d))) {
            failure = ArgumentFailure(std::string("options.") + name + " must be an integer in [0, 4294967295], got " +
                                      (v.isNumber() ? val::global("String")(v).as<std::string>() : DescribeString(v)));
            return false;
        }
        (name[2] == 'B' ? options.scope.tx_begin : options.scope.tx_end) = static_cast<uint32_t>(d);
    }
    if (given == 3 && options.scope.tx_end < options.scope.tx_begin) {
        failure = ArgumentFailure("options.txEnd (" + std::to_string(options.scope.tx_end) + ") must be at least options.txBegin (" +
                                  std::to_string(options.scope.tx_begin) + "): an empty range validates nothing");
        return false;
    }
    if (!BoolOption(o, "blockRules", options.scope.block_rules, failure)) return false;
    if (!BoolOption(o, "schnorrBatch", options.batch_schnorr, failure)) return false;
    const val verify = o["verify"];
    if (!verify.isUndefined()) {
        const std::string mode = verify.isString() ? verify.as<std::string>() : "";
        if (mode == "rounds") {
            options.verify = ibd::VerifyMode::kRounds;
        } else if (mode != "synchronous") {
            failure = ArgumentFailure("options.verify must be \"synchronous\" or \"rounds\", got " +
                                      (verify.isString() ? "\"" + mode + "\"" : DescribeString(verify)));
            return false;
        }
    }
    return true;
}

/** validateBlock(block, spentOutputs, expectedHashHex, height[, options]) -> the result object
 *  of BlockValidation.result() plus blockRulesChecked, txBegin, txEnd and times, or the
 *  failure object; never throws (wasm/API.md). One call validates the block (or its range)
 *  end to end in this instance: parse, rules, sighash, scripts, and every signature verified
 *  here (ValidateBlock, block_validation.h). `spentOutputs` is the binary form
 *  (ParseSpentOutputsBinary, spent_outputs.h) as a Uint8Array, or the JSON text. */
val ValidateBlockJs(val block, val spent_val, val expected_hash_val, val height_val, val options_val) {
    std::string about;  // "<expected hash> (block N bytes)" once the arguments are known, for out of memory
    try {
        if (!block.instanceof(val::global("Uint8Array"))) {
            return ArgumentFailure("block must be a Uint8Array (the block's bytes), got " + DescribeString(block));
        }
        const bool binary = spent_val.instanceof(val::global("Uint8Array"));
        if (!binary && !spent_val.isString()) {
            return ArgumentFailure("spentOutputs must be a Uint8Array (the binary form) or a string (spent_outputs.json's "
                                   "text), got " + DescribeString(spent_val));
        }
        if (!expected_hash_val.isString()) {
            return ArgumentFailure("expectedHashHex must be a string (64 hex digits, or \"\" for no check), got " +
                                   DescribeString(expected_hash_val));
        }
        val failure = val::null();
        int32_t height = 0;
        if (!CheckHeight(height_val, height, failure)) return failure;
        about = expected_hash_val.as<std::string>() + " (block " +
                std::to_string(static_cast<uint64_t>(block["length"].as<double>())) + " bytes)";
        ibd::ChainContext context;
        if (!ParseOptions(options_val, "validateBlock", kValidateBlockOptions, context, failure)) return failure;
        ibd::ValidationOptions options;
        if (!ParseJobOptions(options_val, options, failure)) return failure;
        // What the call costs beyond the engine's stages, added to `times` (wasm/API.md):
        // copyInMs (both arguments' bytes into wasm memory), spentMs (decoding the spent outputs:
        // the engine's spent_ns for the binary form, this function's JSON parse for the text),
        // resultMs (building this result object). Plain clock reads, as StageTimes (stage_times.h).
        int64_t copy_ns = 0;
        int64_t json_ns = 0;
        int64_t t = ibd::MonotonicNanos();
        const std::string hash = expected_hash_val.as<std::string>();
        ibd::BlockValidationResult res;
        if (binary) {
            // The engine reads the list itself: a range keeps only its own entries (BlockScope).
            const std::vector<uint8_t> bytes = CopyIn(spent_val);
            const std::vector<uint8_t> raw = CopyIn(block);
            copy_ns += ibd::MonotonicNanos() - t;
            res = ibd::ValidateBlock(raw.data(), raw.size(), bytes.data(), bytes.size(), hash, height, context, options);
        } else {
            std::vector<ibd::SpentOutputEntry> spent;
            if (!ParseSpentOutputs(spent_val.as<std::string>(), spent, failure)) return failure;
            json_ns = ibd::MonotonicNanos() - t;
            t = ibd::MonotonicNanos();
            const std::vector<uint8_t> raw = CopyIn(block);
            copy_ns += ibd::MonotonicNanos() - t;
            res = ibd::ValidateBlock(raw.data(), raw.size(), spent, hash, height, context, options);
        }
        t = ibd::MonotonicNanos();
        val r = ResultObject(res);
        val times = r["times"];
        times.set("resultMs", static_cast<double>(ibd::MonotonicNanos() - t) / 1e6);
        times.set("copyInMs", static_cast<double>(copy_ns) / 1e6);
        times.set("spentMs", static_cast<double>(binary ? res.times.spent_ns : json_ns) / 1e6);
        return r;
    } catch (const ibd::BlockRejected& e) {
        val f = Failure(e.what(), e.reason(), e.where(), e.reject_reason(), e.stage());
        f.set("notChecked", NotCheckedArray(e.not_checked()));
        return f;
    } catch (const ibd::Error& e) {
        return Failure(e.what(), e.reason(), e.where(), e.reject_reason(), e.stage());
    } catch (const std::bad_alloc&) {
        const std::string msg = "out of memory while validating the block" + (about.empty() ? "" : " " + about);
        return Failure(msg, msg, ibd::Location{});
    } catch (const std::exception& e) {
        return Failure(e.what(), e.what(), ibd::Location{});
    }
}

/** One ChainBlockResult (chain_validation.h) as API.md's chain block object: the result object
 *  of its BlockValidationResult (ResultObject) with the chain's fields. */
val ChainBlockObject(const ibd::ChainBlockResult& b) {
    const ibd::BlockValidationResult& r = b.result;
    val o = ResultObject(r);
    o.set("ok", b.error.empty());
    o.set("height", b.height);
    o.set("prevHash", b.prev_hash_hex);
    o.set("connected", b.connected);
    if (!b.error.empty()) o.set("error", b.error);
    o.set("valid", b.error.empty() && r.valid);
    o.set("fileOffset", static_cast<double>(b.file_offset));
    o.set("sighashes", r.sighashes);
    o.set("spent", SpentArray(b.spent));
    o.set("spendsFromView", b.spends_from_view);
    o.set("spendsInBlock", b.spends_in_block);
    o.set("coinsAdded", b.coins_added);
    o.set("coinsSpent", b.coins_spent);
    o.set("coinsInView", static_cast<double>(b.coins_in_view));
    o.set("medianTimePast", static_cast<double>(b.median_time_past));
    o.set("proofOfWorkChecked", b.proof_of_work_checked);
    o.set("linkChecked", b.link_checked);
    return o;
}

/** `options` of new ChainValidation: undefined / null, or an object with only those keys
 *  (KnownOptionsOnly) whose `skipProofOfWork` is undefined or a boolean and whose `maxCoinsBytes`
 *  is undefined or an integer in [1, 2147483647]. Sets `chain_options`, or sets `failure` and
 *  returns false. */
bool ParseChainOptions(const val& options, ibd::ChainOptions& chain_options, val& failure) {
    if (options.isUndefined() || options.isNull()) return true;
    if (!options.typeOf().strictlyEquals(val("object"))) {
        failure = ArgumentFailure("options must be an object such as { skipProofOfWork, maxCoinsBytes }, got " +
                                  DescribeString(options));
        return false;
    }
    if (!KnownOptionsOnly(options, "new ChainValidation", kChainValidationOptions, failure)) return false;
    if (!BoolOption(options, "skipProofOfWork", chain_options.skip_proof_of_work, failure)) return false;
    const val max = options["maxCoinsBytes"];
    if (max.isUndefined()) return true;
    const double m = max.isNumber() ? max.as<double>() : -1;
    if (!max.isNumber() || !(m >= 1 && m <= 2147483647.0) || m != static_cast<double>(static_cast<int64_t>(m))) {
        failure = ArgumentFailure("options.maxCoinsBytes must be an integer from 1 to 2147483647, got " +
                                  (max.isNumber() ? val::global("String")(max).as<std::string>() : DescribeString(max)));
        return false;
    }
    chain_options.max_coins_bytes = static_cast<size_t>(m);
    return true;
}

/** new ChainValidation([options]): ChainValidation (native/validation/chain_validation.h)
 *  behind Embind, from mainnet's genesis. The constructor never throws: bad options are the
 *  failure object of status(), and connectBlock / connectBlockFile then throw. */
class ChainValidationJs {
public:
    ChainValidationJs() : ChainValidationJs(val::undefined()) {}
    explicit ChainValidationJs(val options) {
        failure_ = val::null();
        try {
            ibd::ChainOptions chain_options;
            if (!ParseChainOptions(options, chain_options, failure_)) return;
            chain_ = std::make_unique<ibd::ChainValidation>(chain_options);
        } catch (const std::exception& e) {
            failure_ = Failure(e.what(), e.what(), ibd::Location{});
        }
    }

    /** { ok: true, height, hash, medianTimePast, coins, coinsBytes, coinsMaxBytes } of the tip,
     *  or the failure object. */
    val Status() const {
        if (!chain_) return failure_;
        val r = val::object();
        r.set("ok", true);
        r.set("height", chain_->TipHeight());
        r.set("hash", ibd::HexEncodeReversed(chain_->TipHash()));
        r.set("medianTimePast", static_cast<double>(chain_->TipMedianTimePast()));
        r.set("coins", static_cast<double>(chain_->Coins().GetCacheSize()));
        r.set("coinsBytes", static_cast<double>(chain_->Coins().DynamicMemoryUsage()));
        r.set("coinsMaxBytes", static_cast<double>(chain_->Coins().MaxBytes()));
        return r;
    }

    /** connectBlock(block: Uint8Array) -> the chain block object. Throws a JS Error (before any
     *  copy into wasm memory; no C++ object alive at the throw, see ThrowJs) when the chain
     *  failed to start or `block` is not a Uint8Array. */
    val ConnectBlock(val block) {
        CheckArgument(block, "connectBlock", "block");
        val out = val::undefined();
        val error = val::undefined();
        {
            try {
                const std::vector<uint8_t> raw = CopyIn(block);
                out = ChainBlockObject(chain_->ConnectBlock(raw.data(), raw.size()));
            } catch (const std::exception& e) {
                error = val(std::string("ChainValidation.connectBlock: ") + e.what());
            }
        }
        if (!error.isUndefined()) ThrowJs(error);
        return out;
    }

    /** connectBlockFile(file: Uint8Array) -> { frames, blocks, notValidated, fileError }
     *  (ConnectBlockFile); throws as connectBlock. */
    val ConnectBlockFile(val file) {
        CheckArgument(file, "connectBlockFile", "file");
        val out = val::undefined();
        val error = val::undefined();
        {
            try {
                const std::vector<uint8_t> bytes = CopyIn(file);
                const ibd::ChainFileResult res = ibd::ConnectBlockFile(*chain_, bytes.data(), bytes.size());
                out = val::object();
                out.set("frames", static_cast<double>(res.frames));
                out.set("notValidated", static_cast<double>(res.not_validated));
                val blocks = val::array();
                for (const ibd::ChainBlockResult& b : res.blocks) blocks.call<void>("push", ChainBlockObject(b));
                out.set("blocks", blocks);
                if (res.file_error) {
                    out.set("fileError", Failure(res.file_error->what(), res.file_error->reason(), res.file_error->where()));
                } else {
                    out.set("fileError", val::null());
                }
            } catch (const std::exception& e) {
                error = val(std::string("ChainValidation.connectBlockFile: ") + e.what());
            }
        }
        if (!error.isUndefined()) ThrowJs(error);
        return out;
    }

private:
    /** Throws the JS Error of a call on a chain that failed to start, or of a non-Uint8Array. */
    void CheckArgument(const val& bytes, const char* method, const char* name) const {
        if (!chain_) {
            ThrowJs(val("ChainValidation.").call<val>("concat", val(method), val(": the chain failed to start: "),
                                                       failure_["error"]));
        }
        if (!bytes.instanceof(val::global("Uint8Array"))) {
            ThrowJs(val("ChainValidation.").call<val>("concat", val(method), val(": "), val(name),
                                                       val(" must be a Uint8Array, got "), Describe(bytes)));
        }
    }

    std::unique_ptr<ibd::ChainValidation> chain_;
    val failure_ = val::null();
};

/** The module's memory in bytes now (it may grow between calls). */
double MemoryBytes() { return static_cast<double>(__builtin_wasm_memory_size(0)) * 65536.0; }

}  // namespace

/** Where the heap starts (wasm-ld's symbol): below it lie the module's static data and stack,
 *  which no caller's buffer (from _malloc) can hold. */
extern "C" unsigned char __heap_base;

namespace {

/** The heap's first byte (__heap_base), as a JS number. */
double HeapBase() { return static_cast<double>(reinterpret_cast<uintptr_t>(&__heap_base)); }

/** Whether [ptr, ptr + len) lies in the heap: from __heap_base to the end of the module's memory
 *  now. An empty region passes anywhere in memory (nothing is read or written), a null pointer
 *  (0) with len > 0 does not. */
bool InHeap(double ptr, double len) {
    if (len == 0) return ptr <= MemoryBytes();
    return ptr >= HeapBase() && ptr + len <= MemoryBytes();
}

/** verifyBatch(checksPtr, checksLen, count, verdictsPtr) -> { error, errorOffset, errorRecord }.
 *  Pointers are offsets into the module's memory (from _malloc). The arguments are JS numbers
 *  checked here, before anything is read or written: each an integer >= 0, the checks
 *  [checksPtr, checksPtr + checksLen) and the `count` verdict bytes from verdictsPtr inside the
 *  module's heap (InHeap: not null, not the static data) and not overlapping; otherwise a JS
 *  Error naming the argument (Embind's own uint32 conversion
 *  would wrap -1 to 4294967295, 2^32 + 5 to 5 and 1.7 to 1, and a verdict region past the end
 *  would be written until the module traps). */
val VerifyBatch(double checks_ptr, double checks_len, double count, double verdicts_ptr) {
    const double memory = MemoryBytes();
    const auto whole = [](double x) { return x >= 0 && x <= 4294967295.0 && x == static_cast<double>(static_cast<uint64_t>(x)); };
    const char* bad = !whole(checks_ptr) ? "checksPtr" : !whole(checks_len) ? "checksLen" : !whole(count) ? "count"
                    : !whole(verdicts_ptr) ? "verdictsPtr" : nullptr;
    char message[200];  // no C++ object with a destructor may be alive when ThrowJs runs
    if (bad != nullptr) {
        std::snprintf(message, sizeof(message), "verifyBatch: %s must be an integer from 0 to 4294967295", bad);
        ThrowJs(val(static_cast<const char*>(message)));
    }
    const bool checks_in = InHeap(checks_ptr, checks_len);
    if (!checks_in || !InHeap(verdicts_ptr, count)) {
        std::snprintf(message, sizeof(message),
                      "verifyBatch: %s is not in the module's heap [%.0f, %.0f): checks [%.0f, %.0f), verdicts [%.0f, %.0f)",
                      !checks_in ? "the checks region" : "the verdicts region",
                      HeapBase(), memory, checks_ptr,
                      checks_ptr + checks_len, verdicts_ptr, verdicts_ptr + count);
        ThrowJs(val(static_cast<const char*>(message)));
    }
    if (count > 0 && checks_len > 0 && verdicts_ptr < checks_ptr + checks_len && checks_ptr < verdicts_ptr + count) {
        std::snprintf(message, sizeof(message), "verifyBatch: the verdicts [%.0f, %.0f) overlap the checks [%.0f, %.0f)",
                      verdicts_ptr, verdicts_ptr + count, checks_ptr, checks_ptr + checks_len);
        ThrowJs(val(static_cast<const char*>(message)));
    }
    const ibd::BatchStatus st = ibd::VerifyBatch(reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(checks_ptr)),
                                                 static_cast<size_t>(checks_len), static_cast<uint32_t>(count),
                                                 reinterpret_cast<uint8_t*>(static_cast<uintptr_t>(verdicts_ptr)));
    val r = val::object();
    r.set("error", st.error);
    r.set("errorOffset", static_cast<double>(st.error_offset));
    r.set("errorRecord", st.error_record);
    return r;
}

/** verifySingle(ptr, kind, pubkeyLen, strict) -> 0 invalid, 1 valid, 2 bad point: one
 *  signature or key with tiny-secp256k1's semantics (native/verify/single_verify.h), for the
 *  package's drop-in calls (wasm/drop-in.mjs). At `ptr` in the module's memory: kind 1 (ECDSA)
 *  msg32 (32 bytes) | pubkey (pubkeyLen: 33 or 65) | compact signature (64), `strict` refusing
 *  a high S; kind 2 (BIP340) msg32 | x-only pubkey (32) | signature (64); kind 3 a public key
 *  (pubkeyLen bytes) to parse, kind 4 an x-only key (32): 1 valid, 0 not. Throws a JS Error for
 *  a kind, length or pointer out of range: kind not an integer 1..4, pubkeyLen not an integer
 *  0..65, the bytes not in the module's heap (InHeap). */
int VerifySingle(double ptr, double kind_arg, double pubkey_len_arg, bool strict) {
    char message[200];  // no C++ object with a destructor may be alive when ThrowJs runs
    const bool whole = ptr >= 0 && ptr <= 4294967295.0 && ptr == static_cast<double>(static_cast<uint64_t>(ptr));
    // Doubles, not ints: Embind's int conversion would wrap 2^32 + 1 to 1 and truncate 1.9.
    const int kind = kind_arg >= 1 && kind_arg <= 4 && kind_arg == static_cast<int>(kind_arg) ? static_cast<int>(kind_arg) : 0;
    const int pubkey_len = pubkey_len_arg >= 0 && pubkey_len_arg <= 65 && pubkey_len_arg == static_cast<int>(pubkey_len_arg)
                               ? static_cast<int>(pubkey_len_arg) : -1;
    const int key_len = kind == 2 || kind == 4 ? 32 : pubkey_len;
    const double bytes = (kind <= 2 ? 32.0 + 64.0 : 0.0) + key_len;
    if (kind == 0 || key_len < 0 || !whole || !InHeap(ptr, bytes)) {
        std::snprintf(message, sizeof(message),
                      "verifySingle: kind %g, pubkeyLen %g at %.0f: out of range (kind 1..4, pubkeyLen 0..65, the bytes in the heap [%.0f, %.0f))",
                      kind_arg, pubkey_len_arg, ptr, HeapBase(), MemoryBytes());
        ThrowJs(val(static_cast<const char*>(message)));
    }
    const uint8_t* at = reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(ptr));
    switch (kind) {
        case 1: return static_cast<int>(ibd::VerifyEcdsaCompact(at, at + 32, key_len, at + 32 + key_len, strict));
        case 2: return static_cast<int>(ibd::VerifySchnorrSingle(at, at + 32, at + 64));
        case 3: return ibd::IsValidPubKey(at, key_len) ? 1 : 0;
        default: return ibd::IsValidXOnlyPubKey(at) ? 1 : 0;
    }
}

/** engineInfo() -> { variant, secp256k1, field, simd, ecmultTables, ecmultWindow }: ecmultWindow
 *  is the window of libsecp256k1's tables of multiples of G verification uses now (computed
 *  tables start at 12 and grow to 15 within the first 48 verifications: ecmult_tables.h). */
val EngineInfo() {
    val r = val::object();
    r.set("variant", std::string(IBD_VARIANT));
    r.set("secp256k1", std::string(IBD_SECP256K1_VERSION));
    r.set("field", std::string(IBD_SECP256K1_FIELD));
    r.set("ecmultTables", std::string(ibd_ecmult_tables_computed() ? "computed" : "shipped"));
    r.set("ecmultWindow", ibd_ecmult_tables_window());
#ifdef __wasm_simd128__
    r.set("simd", true);
#else
    r.set("simd", false);
#endif
    return r;
}

}  // namespace

/** decodeSpentOutputs(block, spentOutputs) -> { ok: true, spent: [{ txid, vout, value,
 *  scriptPubKey }] } (spent_outputs.json's entries, one per non-coinbase input in block order:
 *  txid display hex, value in satoshis, scriptPubKey hex) or the failure object. `spentOutputs`
 *  is any binary form validateBlock takes: "IBS1", a rev record, or an "IBT1" spenttxouts body
 *  (wasm/API.md). For writing fixture folders from a node (npm start -- --save). Never throws. */
val DecodeSpentOutputsJs(val block, val spent_val) {
    try {
        if (!block.instanceof(val::global("Uint8Array")) || !spent_val.instanceof(val::global("Uint8Array"))) {
            return ArgumentFailure("decodeSpentOutputs(block, spentOutputs) takes two Uint8Arrays");
        }
        const std::vector<uint8_t> raw = CopyIn(block);
        std::vector<uint8_t> bytes = CopyIn(spent_val);
        if (bytes.size() >= 4 && std::memcmp(bytes.data(), ibd::kSpentTxOutsMagic, 4) == 0) {
            bytes = ibd::SpentOutputsFromSpentTxOuts(raw.data(), raw.size(), bytes.data(), bytes.size());
        } else if (ibd::LooksLikeUndoRecord(bytes.data(), bytes.size())) {
            bytes = ibd::SpentOutputsFromUndoRecord(raw.data(), raw.size(), bytes.data(), bytes.size());
        }
        val r = val::object();
        r.set("ok", true);
        r.set("spent", SpentArray(ibd::ParseSpentOutputsBinary(bytes.data(), bytes.size())));
        return r;
    } catch (const ibd::Error& e) {
        return Failure(e.what(), e.reason(), e.where());
    } catch (const std::exception& e) {
        return Failure(e.what(), e.what(), ibd::Location{});
    }
}

EMSCRIPTEN_BINDINGS(ibd) {
    emscripten::function("decodeSpentOutputs", &DecodeSpentOutputsJs);
    emscripten::function("verifyBatch", &VerifyBatch);
    emscripten::function("verifySingle", &VerifySingle);
    emscripten::function("engineInfo", &EngineInfo);
    emscripten::function("validateBlock", &ValidateBlockJs);
    emscripten::class_<BlockValidationJs>("BlockValidation")
        .constructor<>()
        .constructor<val>()
        .constructor<val, val>()
        .constructor<val, val, val>()
        .constructor<val, val, val, val>()
        .constructor<val, val, val, val, val>()
        .function("status", &BlockValidationJs::Status)
        .function("pending", &BlockValidationJs::Pending)
        .function("resolve", &BlockValidationJs::Resolve)
        .function("result", &BlockValidationJs::Result);
    emscripten::class_<ChainValidationJs>("ChainValidation")
        .constructor<>()
        .constructor<val>()
        .function("status", &ChainValidationJs::Status)
        .function("connectBlock", &ChainValidationJs::ConnectBlock)
        .function("connectBlockFile", &ChainValidationJs::ConnectBlockFile);
}

// ---------------------------------------------------------------------------------------------
// Micro-benchmark surface (bench/quadratic/quadratic.mjs), kept apart from the validation API
// above: the engine's SHA-256 timed in wasm against the native build (ibd_quadratic sha256).
namespace {

/** sha256Chain(bytes, reps) -> digest hex: SHA-256 of a `bytes`-byte buffer (byte i =
 *  i * 131 + 7 mod 256), `reps` times, each digest written over the buffer's first 32 bytes
 *  before the next; the last digest, hex. The caller times the call (performance.now). The same
 *  chain as `ibd_quadratic sha256`, so the digests must match (parity). Throws a JS Error for
 *  bytes outside 32..2^30 or reps outside 1..10^6. */
std::string Sha256Chain(double bytes, double reps) {
    if (!(bytes >= 32 && bytes <= 1073741824.0) || bytes != static_cast<double>(static_cast<uint64_t>(bytes)) ||
        !(reps >= 1 && reps <= 1e6) || reps != static_cast<double>(static_cast<uint64_t>(reps))) {
        ThrowJs(val("sha256Chain: bytes must be an integer in 32..2^30 and reps in 1..10^6"));
    }
    std::vector<uint8_t> buf(static_cast<size_t>(bytes));
    for (size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<uint8_t>(i * 131 + 7);
    ibd::Hash32 d{};
    for (uint64_t r = 0; r < static_cast<uint64_t>(reps); ++r) {
        d = ibd::Sha256Hash(buf.data(), buf.size());
        for (size_t i = 0; i < d.size(); ++i) buf[i] = d[i];
    }
    return ibd::HexEncode(d.data(), d.size());
}

/** schnorrBatchVerify(checksPtr, checksLen, count) -> 1 | 0: one raw BIP340 batch verification
 *  of `count` Schnorr records at checksPtr in the module's memory (ibd::VerifySchnorrBatchOnce,
 *  batch_verify.h: no grouping, no fallback), for the per-signature cost curve of
 *  bench/compare/schnorr-batch.mjs. 1 when every signature verifies, 0 otherwise. Throws a JS
 *  Error naming the record that is not a well-formed Schnorr record, for checksLen or count
 *  not an integer in range (a count of 2.5 is not 2), or for checks not in the module's heap
 *  (InHeap). */
int SchnorrBatchVerify(double checks_ptr, double checks_len, double count) {
    if (!(checks_len >= 0 && checks_len <= 4294967295.0) || checks_len != static_cast<double>(static_cast<uint64_t>(checks_len)) ||
        !(count >= 0 && count <= 1e6) || count != static_cast<double>(static_cast<uint64_t>(count))) {
        ThrowJs(val("schnorrBatchVerify: checksLen must be an integer in 0..2^32-1 and count in 0..10^6"));
    }
    if (!(checks_ptr >= 0 && checks_ptr <= 4294967295.0) || checks_ptr != static_cast<double>(static_cast<uint64_t>(checks_ptr)) ||
        !InHeap(checks_ptr, checks_len)) {
        ThrowJs(val("schnorrBatchVerify: the checks [checksPtr, checksPtr + checksLen) are not in the module's heap"));
    }
    const uintptr_t checks = static_cast<uintptr_t>(checks_ptr);
    uint32_t bad = 0;
    const int r = ibd::VerifySchnorrBatchOnce(reinterpret_cast<const uint8_t*>(checks), static_cast<size_t>(checks_len),
                                              static_cast<uint32_t>(count), &bad);
    if (r < 0) {
        char message[120];  // no C++ object with a destructor may be alive when ThrowJs runs
        std::snprintf(message, sizeof(message),
                      "schnorrBatchVerify: record %u is not a 32-byte-key, 64-byte-signature Schnorr record", bad);
        ThrowJs(val(static_cast<const char*>(message)));
    }
    return r;
}

/** ecmultTablesSha256() -> hex: SHA-256 of libsecp256k1's two tables of multiples of G as
 *  verification reads them (ecmult_tables.h: the odd multiples of G, then of 2^128*G, 64 bytes
 *  per point), for the test that the tables computed at start are the shipped ones. Completes
 *  them first (ibd_ecmult_tables_complete). */
std::string EcmultTablesSha256() {
    ibd_ecmult_tables_complete();
    if (ibd_ecmult_table(0) == nullptr) ThrowJs(val("ecmultTablesSha256: the tables could not be completed (out of memory)"));
    const size_t n = ibd_ecmult_table_bytes();
    std::vector<uint8_t> both(ibd_ecmult_table(0), ibd_ecmult_table(0) + n);
    both.insert(both.end(), ibd_ecmult_table(1), ibd_ecmult_table(1) + n);
    const ibd::Hash32 d = ibd::Sha256Hash(both.data(), both.size());
    return ibd::HexEncode(d.data(), d.size());
}

}  // namespace

EMSCRIPTEN_BINDINGS(ibd_bench) {
    emscripten::function("sha256Chain", &Sha256Chain);
    emscripten::function("ecmultTablesSha256", &EcmultTablesSha256);
    emscripten::function("schnorrBatchVerify", &SchnorrBatchVerify);
}
