// Signature verification, per signature, on the final checks of every fixture block (the checks
// Core would perform, as ValidateBlock found them; CHECKMULTISIG trial checks that fail included).
//
//   BM_EcdsaVerify/secp256k1    secp256k1_ecdsa_verify alone, one signature per iteration, on
//                               keys and signatures parsed and low-S normalized beforehand (the
//                               last step of Core's CPubKey::Verify)
//   BM_SchnorrVerify/secp256k1  secp256k1_schnorrsig_verify alone, x-only keys parsed beforehand
//   BM_EcmultComputeTables      libsecp256k1's tables of multiples of G computed (ecmult_tables.h),
//                               both, per iteration (ms)
//   BM_VerifyBatch/<type>/<N>   the batch shim VerifyBatch (batch_verify.h) on N packed records
//                               per iteration: record walk, key and signature parsing,
//                               normalization and verify (batch size 1 = Core's whole
//                               CPubKey::Verify / XOnlyPubKey::VerifySchnorr path per signature)
//
// Rates: items_per_second = signatures/s; per_sig = time per signature. The sets cycle: an
// iteration takes the next signature (or next N records, wrapping around the set), so every
// check of the fixtures is timed, not one hot cache line. Not measured: sighash, script
// evaluation, threads (one core), the wasm build (see ibd_verify_checks and npm run bench).
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <secp256k1.h>
#include <secp256k1_extrakeys.h>
#include <secp256k1_schnorrsig.h>

#include "benchmarks.h"
#include "secp256k1/ecmult_tables.h"
#include "verify/batch_verify.h"
#include "verify/check_buffer.h"
#include "verify/ecdsa_lax_der.h"

namespace ibd::bench {
namespace {

/** One record of a packed check buffer (layout: check_buffer.h) and the engine's verdict. */
struct Record {
    const uint8_t* bytes;  // the record's first byte
    size_t size;           // kCheckHeaderSize + pubkey_len + sig_len
    uint8_t verdict;
};

/** The final checks of every loaded block of one CheckType, in block order. */
std::vector<Record> RecordsOfType(const std::vector<FixtureBlock>& blocks, CheckType type) {
    std::vector<Record> out;
    for (const FixtureBlock& b : blocks) {
        if (!b.error.empty()) continue;
        const std::vector<uint8_t>& buf = b.validation.checks;
        size_t offset = 0;
        for (uint8_t verdict : b.validation.verdicts) {
            const uint8_t* rec = buf.data() + offset;
            const size_t sig_len = static_cast<size_t>(rec[2]) | (static_cast<size_t>(rec[3]) << 8);
            const size_t size = kCheckHeaderSize + rec[1] + sig_len;
            if (rec[0] == static_cast<uint8_t>(type)) out.push_back({rec, size, verdict});
            offset += size;
        }
    }
    return out;
}

struct ParsedEcdsa {
    secp256k1_pubkey pubkey;
    secp256k1_ecdsa_signature sig;  // normalized to low S
    const uint8_t* msg32;
};

struct ParsedSchnorr {
    secp256k1_xonly_pubkey pubkey;
    const uint8_t* sig64;
    const uint8_t* msg32;
};

/** Checks that a direct verdict equals the engine's for record `i` of `what`. */
void ExpectVerdict(bool ok, const Record& r, size_t i, const char* what) {
    if (ok != (r.verdict == static_cast<uint8_t>(Verdict::kValid))) {
        throw std::runtime_error(std::string(what) + " check " + std::to_string(i) +
                                 ": libsecp256k1 called directly disagrees with the engine's verdict");
    }
}

/** The ECDSA records parsed as CPubKey::Verify does before secp256k1_ecdsa_verify; a record
 *  whose key or signature does not parse is left out (it never reaches the verify call). */
std::vector<ParsedEcdsa> ParseEcdsa(const std::vector<Record>& records) {
    std::vector<ParsedEcdsa> out;
    for (size_t i = 0; i < records.size(); ++i) {
        const uint8_t* rec = records[i].bytes;
        const size_t pubkey_len = rec[1], sig_len = records[i].size - kCheckHeaderSize - pubkey_len;
        ParsedEcdsa p;
        p.msg32 = rec + 4;
        if (!secp256k1_ec_pubkey_parse(secp256k1_context_static, &p.pubkey, rec + kCheckHeaderSize, pubkey_len) ||
            !EcdsaSignatureParseDerLax(rec + kCheckHeaderSize + pubkey_len, sig_len, &p.sig)) {
            continue;
        }
        secp256k1_ecdsa_signature_normalize(secp256k1_context_static, &p.sig, &p.sig);
        ExpectVerdict(secp256k1_ecdsa_verify(secp256k1_context_static, &p.sig, p.msg32, &p.pubkey) == 1, records[i],
                      i, "ECDSA");
        out.push_back(p);
    }
    return out;
}

/** The Schnorr records with their x-only keys parsed (BIP340 lift_x); unparseable keys left out. */
std::vector<ParsedSchnorr> ParseSchnorr(const std::vector<Record>& records) {
    std::vector<ParsedSchnorr> out;
    for (size_t i = 0; i < records.size(); ++i) {
        const uint8_t* rec = records[i].bytes;
        ParsedSchnorr p;
        p.msg32 = rec + 4;
        p.sig64 = rec + kCheckHeaderSize + 32;
        if (!secp256k1_xonly_pubkey_parse(secp256k1_context_static, &p.pubkey, rec + kCheckHeaderSize)) continue;
        ExpectVerdict(secp256k1_schnorrsig_verify(secp256k1_context_static, p.sig64, p.msg32, 32, &p.pubkey) == 1,
                      records[i], i, "Schnorr");
        out.push_back(p);
    }
    return out;
}

/** The records cut into batches of exactly `n` packed records each, the last batch wrapping
 *  around to the set's start; ceil(size / n) batches. batch b is bytes[starts[b]..starts[b+1]). */
struct Batches {
    std::vector<uint8_t> bytes;
    std::vector<size_t> starts;
    uint32_t n = 0;
};

Batches MakeBatches(const std::vector<Record>& records, uint32_t n) {
    Batches out;
    out.n = n;
    const size_t count = (records.size() + n - 1) / n;
    for (size_t k = 0; k < count * n; ++k) {
        if (k % n == 0) out.starts.push_back(out.bytes.size());
        const Record& r = records[k % records.size()];
        out.bytes.insert(out.bytes.end(), r.bytes, r.bytes + r.size);
    }
    out.starts.push_back(out.bytes.size());
    return out;
}

/** Sets the per-signature counters: items_per_second (signatures/s) and per_sig (s/signature). */
void SetSignatureCounters(benchmark::State& state, int64_t signatures, size_t set_size) {
    state.SetItemsProcessed(signatures);
    state.counters["per_sig"] =
        benchmark::Counter(static_cast<double>(signatures), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
    state.SetLabel(std::to_string(set_size) + " fixture checks");
}

void RegisterBatches(const std::vector<Record>& records, const char* type_name, std::vector<uint32_t> sizes) {
    for (uint32_t n : sizes) {
        auto batches = std::make_shared<Batches>(MakeBatches(records, n));
        const size_t set_size = records.size();
        const std::string name = std::string("BM_VerifyBatch/") + type_name + "/" + std::to_string(n);
        benchmark::RegisterBenchmark(name.c_str(), [batches, set_size](benchmark::State& state) {
            std::vector<uint8_t> verdicts(batches->n);
            const size_t count = batches->starts.size() - 1;
            size_t b = 0;
            for (auto _ : state) {
                const size_t start = batches->starts[b];
                const BatchStatus status = VerifyBatch(batches->bytes.data() + start, batches->starts[b + 1] - start,
                                                       batches->n, verdicts.data());
                if (status.error != 0) {
                    state.SkipWithError("VerifyBatch reported a malformed record");
                    break;
                }
                benchmark::DoNotOptimize(verdicts.data());
                if (++b == count) b = 0;
            }
            SetSignatureCounters(state, state.iterations() * batches->n, set_size);
        });
    }
}

/** Registers `name`: one `verify(parsed[i])` call per iteration, cycling through `parsed`. */
template <typename Parsed, typename Verify>
void RegisterDirect(const char* name, std::vector<Parsed> parsed, Verify verify) {
    if (parsed.empty()) throw std::runtime_error(std::string(name) + ": no fixture key and signature parse");
    auto set = std::make_shared<std::vector<Parsed>>(std::move(parsed));
    benchmark::RegisterBenchmark(name, [set, verify](benchmark::State& state) {
        size_t i = 0;
        for (auto _ : state) {
            benchmark::DoNotOptimize(verify((*set)[i]));
            if (++i == set->size()) i = 0;
        }
        SetSignatureCounters(state, state.iterations(), set->size());
    });
}

}  // namespace

void RegisterVerifyBenchmarks(const std::vector<FixtureBlock>& blocks) {
    const std::vector<Record> ecdsa = RecordsOfType(blocks, CheckType::kEcdsa);
    const std::vector<Record> schnorr = RecordsOfType(blocks, CheckType::kSchnorr);

    if (!ecdsa.empty()) {
        RegisterDirect("BM_EcdsaVerify/secp256k1", ParseEcdsa(ecdsa), [](const ParsedEcdsa& p) {
            return secp256k1_ecdsa_verify(secp256k1_context_static, &p.sig, p.msg32, &p.pubkey);
        });
        RegisterBatches(ecdsa, "ecdsa", {1, 16, 256, 4096});
    }
    if (!schnorr.empty()) {
        RegisterDirect("BM_SchnorrVerify/secp256k1", ParseSchnorr(schnorr), [](const ParsedSchnorr& p) {
            return secp256k1_schnorrsig_verify(secp256k1_context_static, p.sig64, p.msg32, 32, &p.pubkey);
        });
        RegisterBatches(schnorr, "schnorr", {1, 16, 256, 4096});
    }
    // What the wasm variants do once as their module starts (ecmult_tables.h): both tables of
    // multiples of G, 2 x 512 KiB, here with the native build's field (the wasm's 10x26 field
    // takes about 3 times as long; docs/performance.md, "Download and start-up").
    benchmark::RegisterBenchmark("BM_EcmultComputeTables", [](benchmark::State& state) {
        std::vector<unsigned char> g(ibd_ecmult_table_bytes()), g128(ibd_ecmult_table_bytes());
        for (auto _ : state) {
            ibd_ecmult_compute_tables(g.data(), g128.data());
            benchmark::DoNotOptimize(g.data());
        }
    })->Unit(benchmark::kMillisecond);
}

}  // namespace ibd::bench
