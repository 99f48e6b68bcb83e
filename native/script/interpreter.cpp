// Implementation of interpreter.h: Bitcoin Core's script interpreter (src/script/interpreter.cpp)
// rewritten from the BIPs and Core's observable behaviour. Comments name the BIP or the Core
// function whose rule a line implements.
#include "script/interpreter.h"

#include <algorithm>
#include <climits>
#include <cstring>

#include <secp256k1.h>

#include "crypto/ripemd160.h"
#include "crypto/sha1.h"
#include "crypto/sha256.h"
#include "script/script.h"
#include "script/taproot.h"
#include "verify/ecdsa_lax_der.h"

namespace ibd {

namespace {

bool SetError(ScriptError* serror, ScriptError err) {
    if (serror) *serror = err;
    return err == ScriptError::OK;
}

bool Fail(ScriptError* serror, ScriptError err) {
    if (serror) *serror = err;
    return false;
}

const StackElement kFalse{};
const StackElement kTrue{1};

/** Core's ConditionStack: the OP_IF nesting as a size and the position of the first false
 *  entry (only whether every entry is true matters for execution). */
class ConditionStack {
public:
    bool empty() const { return size_ == 0; }
    bool all_true() const { return first_false_ == kNoFalse; }
    void push_back(bool v) {
        if (first_false_ == kNoFalse && !v) first_false_ = size_;
        ++size_;
    }
    /** Requires !empty(). */
    void pop_back() {
        --size_;
        if (first_false_ == size_) first_false_ = kNoFalse;
    }
    /** OP_ELSE: flips the top entry. Requires !empty(). */
    void toggle_top() {
        if (first_false_ == kNoFalse) {
            first_false_ = size_ - 1;  // top was true, becomes the first false
        } else if (first_false_ == size_ - 1) {
            first_false_ = kNoFalse;  // top was the only false one
        }
        // Otherwise an entry below is false and the top stays unobservable.
    }

private:
    static constexpr uint32_t kNoFalse = UINT32_MAX;
    uint32_t size_ = 0;
    uint32_t first_false_ = kNoFalse;
};

bool IsCompressedOrUncompressedPubKey(const StackElement& k) {
    if (k.size() < 33) return false;
    if (k[0] == 0x04) return k.size() == 65;
    if (k[0] == 0x02 || k[0] == 0x03) return k.size() == 33;
    return false;
}

bool IsCompressedPubKey(const StackElement& k) {
    return k.size() == 33 && (k[0] == 0x02 || k[0] == 0x03);
}

/** Core's IsLowDERSignature: strict DER and S <= n/2 (CPubKey::CheckLowS: lax parse, then
 *  secp256k1_ecdsa_signature_normalize reports whether S was high). */
bool IsLowDERSignature(const StackElement& sig, ScriptError* serror) {
    if (!IsValidSignatureEncoding(sig.data(), sig.size())) return Fail(serror, ScriptError::SIG_DER);
    secp256k1_ecdsa_signature parsed;
    // The hash_type byte is not part of the DER signature.
    if (!EcdsaSignatureParseDerLax(sig.data(), sig.size() - 1, &parsed)) return Fail(serror, ScriptError::SIG_HIGH_S);
    if (secp256k1_ecdsa_signature_normalize(secp256k1_context_static, nullptr, &parsed)) {
        return Fail(serror, ScriptError::SIG_HIGH_S);
    }
    return true;
}

/** Core's IsDefinedHashtypeSignature: hash_type without ANYONECANPAY is ALL, NONE or SINGLE. */
bool IsDefinedHashtypeSignature(const StackElement& sig) {
    if (sig.empty()) return false;
    const uint8_t t = sig.back() & uint8_t(~0x80);
    return t >= 0x01 && t <= 0x03;
}

/** Core's EvalChecksigPreTapscript (BASE and WITNESS_V0). `script_code` is the script from
 *  after the last executed OP_CODESEPARATOR. Sets `success`; false only on a script error. */
bool EvalChecksigPreTapscript(const StackElement& sig, const StackElement& pubkey, const uint8_t* code_begin,
                              const uint8_t* code_end, uint32_t flags, const SignatureChecker& checker,
                              SigVersion sigversion, ScriptError* serror, bool& success) {
    std::vector<uint8_t> script_code(code_begin, code_end);
    // Legacy scripts: the signature cannot sign itself, so its push is removed from the
    // scriptCode (FindAndDelete); segwit scripts do not do this (BIP143).
    if (sigversion == SigVersion::BASE) {
        const std::vector<uint8_t> push = SerializePush(sig.data(), sig.size());
        const int found = FindAndDelete(script_code, push);
        if (found > 0 && (flags & SCRIPT_VERIFY_CONST_SCRIPTCODE)) return Fail(serror, ScriptError::SIG_FINDANDDELETE);
    }
    if (!CheckSignatureEncoding(sig, flags, serror) || !CheckPubKeyEncoding(pubkey, flags, sigversion, serror)) {
        return false;
    }
    success = checker.CheckECDSASignature(sig, pubkey, script_code, sigversion);
    // BIP146 NULLFAIL: a failing check must have had an empty signature.
    if (!success && (flags & SCRIPT_VERIFY_NULLFAIL) && !sig.empty()) return Fail(serror, ScriptError::SIG_NULLFAIL);
    return true;
}

/** Core's EvalChecksigTapscript (BIP342 "Rules for signature opcodes"). The order is
 *  consensus: the budget is charged for any non-empty signature (even with an unknown key
 *  type), an empty key fails, a 32-byte key with a non-empty signature must verify, other key
 *  sizes succeed (upgradable) unless discouraged. */
bool EvalChecksigTapscript(const StackElement& sig, const StackElement& pubkey, ScriptExecutionData& execdata,
                           uint32_t flags, const SignatureChecker& checker, SigVersion sigversion,
                           ScriptError* serror, bool& success) {
    success = !sig.empty();
    if (success) {
        execdata.validation_weight_left -= kValidationWeightPerSigopPassed;
        if (execdata.validation_weight_left < 0) return Fail(serror, ScriptError::TAPSCRIPT_VALIDATION_WEIGHT);
    }
    if (pubkey.empty()) return Fail(serror, ScriptError::PUBKEYTYPE);
    if (pubkey.size() == 32) {
        if (success && !checker.CheckSchnorrSignature(sig, pubkey, sigversion, execdata, serror)) return false;
    } else if (flags & SCRIPT_VERIFY_DISCOURAGE_UPGRADABLE_PUBKEYTYPE) {
        return Fail(serror, ScriptError::DISCOURAGE_UPGRADABLE_PUBKEYTYPE);
    }
    return true;
}

bool EvalChecksig(const StackElement& sig, const StackElement& pubkey, const uint8_t* code_begin,
                  const uint8_t* code_end, ScriptExecutionData& execdata, uint32_t flags,
                  const SignatureChecker& checker, SigVersion sigversion, ScriptError* serror, bool& success) {
    if (sigversion == SigVersion::TAPSCRIPT) {
        return EvalChecksigTapscript(sig, pubkey, execdata, flags, checker, sigversion, serror, success);
    }
    return EvalChecksigPreTapscript(sig, pubkey, code_begin, code_end, flags, checker, sigversion, serror, success);
}

bool IsDisabledOpcode(uint8_t op) {
    // CVE-2010-5137: these fail wherever they appear, executed or not.
    switch (op) {
        case OP_CAT: case OP_SUBSTR: case OP_LEFT: case OP_RIGHT:
        case OP_INVERT: case OP_AND: case OP_OR: case OP_XOR:
        case OP_2MUL: case OP_2DIV: case OP_MUL: case OP_DIV: case OP_MOD:
        case OP_LSHIFT: case OP_RSHIFT:
            return true;
        default:
            return false;
    }
}

/** CompactSize length of `n` (Bitcoin serialization). */
size_t CompactSizeLen(uint64_t n) { return n < 0xfd ? 1 : n <= 0xffff ? 3 : n <= 0xffffffffULL ? 5 : 9; }

/** Core's ExecuteWitnessScript: `stack` is the witness stack without the script (and for
 *  taproot without control block and annex). */
bool ExecuteWitnessScript(Stack stack, const std::vector<uint8_t>& exec_script, uint32_t flags,
                          SigVersion sigversion, const SignatureChecker& checker, ScriptExecutionData& execdata,
                          ScriptError* serror) {
    if (sigversion == SigVersion::TAPSCRIPT) {
        // BIP342: an OP_SUCCESSx anywhere in the script (found by decoding it all before
        // execution) makes the spend valid, overriding every other rule; a truncated push
        // before one is BAD_OPCODE.
        const uint8_t* pc = exec_script.data();
        const uint8_t* end = pc + exec_script.size();
        while (pc < end) {
            uint8_t op;
            if (!GetScriptOp(pc, end, op)) return Fail(serror, ScriptError::BAD_OPCODE);
            if (IsOpSuccess(op)) {
                if (flags & SCRIPT_VERIFY_DISCOURAGE_OP_SUCCESS) return Fail(serror, ScriptError::DISCOURAGE_OP_SUCCESS);
                return SetError(serror, ScriptError::OK);
            }
        }
        // BIP342: the initial stack may not exceed 1,000 elements.
        if (stack.size() > kMaxStackSize) return Fail(serror, ScriptError::STACK_SIZE);
    }
    // BIP141 / BIP342: no witness stack element above 520 bytes.
    for (const StackElement& e : stack) {
        if (e.size() > kMaxScriptElementSize) return Fail(serror, ScriptError::PUSH_SIZE);
    }
    if (!EvalScript(stack, exec_script, flags, checker, sigversion, execdata, serror)) return false;
    // Witness scripts must leave exactly one element, and it must be true (BIP141 implicit
    // cleanstack).
    if (stack.size() != 1) return Fail(serror, ScriptError::CLEANSTACK);
    if (!CastToBool(stack.back().data(), stack.back().size())) return Fail(serror, ScriptError::EVAL_FALSE);
    return true;
}

/** Core's VerifyWitnessProgram. `witness` is the input's whole witness stack. */
bool VerifyWitnessProgram(const Stack& witness, int version, const uint8_t* program, size_t program_len,
                          uint32_t flags, const SignatureChecker& checker, ScriptError* serror, bool is_p2sh) {
    ScriptExecutionData execdata;
    if (version == 0) {
        if (program_len == 32) {
            // BIP141 P2WSH: the last witness element is the script, SHA256(script) == program.
            if (witness.empty()) return Fail(serror, ScriptError::WITNESS_PROGRAM_WITNESS_EMPTY);
            const std::vector<uint8_t>& script = witness.back();
            const Hash32 h = Sha256Hash(script.data(), script.size());
            if (std::memcmp(h.data(), program, 32) != 0) return Fail(serror, ScriptError::WITNESS_PROGRAM_MISMATCH);
            Stack stack(witness.begin(), witness.end() - 1);
            return ExecuteWitnessScript(std::move(stack), script, flags, SigVersion::WITNESS_V0, checker, execdata,
                                        serror);
        }
        if (program_len == 20) {
            // BIP141 P2WPKH: exactly <sig> <pubkey>, run as DUP HASH160 <program> EQUALVERIFY
            // CHECKSIG.
            if (witness.size() != 2) return Fail(serror, ScriptError::WITNESS_PROGRAM_MISMATCH);
            std::vector<uint8_t> script = {OP_DUP, OP_HASH160, 20};
            script.insert(script.end(), program, program + 20);
            script.push_back(OP_EQUALVERIFY);
            script.push_back(OP_CHECKSIG);
            return ExecuteWitnessScript(witness, script, flags, SigVersion::WITNESS_V0, checker, execdata, serror);
        }
        return Fail(serror, ScriptError::WITNESS_PROGRAM_WRONG_LENGTH);
    }
    if (version == 1 && program_len == 32 && !is_p2sh) {
        // BIP341: 32-byte witness v1 outside P2SH is taproot.
        if (!(flags & SCRIPT_VERIFY_TAPROOT)) return SetError(serror, ScriptError::OK);
        if (witness.empty()) return Fail(serror, ScriptError::WITNESS_PROGRAM_WITNESS_EMPTY);
        size_t n = witness.size();
        // BIP341: with at least two elements, a last one starting with 0x50 is the annex.
        if (n >= 2 && !witness.back().empty() && witness.back()[0] == kAnnexTag) {
            const std::vector<uint8_t>& annex = witness.back();
            Sha256 h;
            uint8_t cs[9];
            size_t cs_len = CompactSizeLen(annex.size());
            uint64_t len = annex.size();
            if (cs_len == 1) {
                cs[0] = uint8_t(len);
            } else {
                cs[0] = cs_len == 3 ? 0xfd : cs_len == 5 ? 0xfe : 0xff;
                for (size_t i = 1; i < cs_len; ++i) cs[i] = uint8_t(len >> (8 * (i - 1)));
            }
            h.Write(cs, cs_len).Write(annex.data(), annex.size());
            execdata.annex_hash = h.Finalize();
            execdata.annex_present = true;
            --n;
        } else {
            execdata.annex_present = false;
        }
        execdata.annex_init = true;
        if (n == 1) {
            // Key path: one Schnorr signature for the output key itself.
            const StackElement key(program, program + 32);
            if (serror) *serror = ScriptError::UNKNOWN_ERROR;
            if (!checker.CheckSchnorrSignature(witness[0], key, SigVersion::TAPROOT, execdata, serror)) return false;
            return SetError(serror, ScriptError::OK);
        }
        // Script path: ... <script> <control block> [annex].
        const std::vector<uint8_t>& control = witness[n - 1];
        const std::vector<uint8_t>& script = witness[n - 2];
        if (!IsValidControlBlockSize(control.size())) return Fail(serror, ScriptError::TAPROOT_WRONG_CONTROL_SIZE);
        const uint8_t leaf_version = control[0] & kTaprootLeafMask;
        execdata.tapleaf_hash = ComputeTapleafHash(leaf_version, script.data(), script.size());
        if (!VerifyTaprootCommitment(control.data(), control.size(), program, execdata.tapleaf_hash)) {
            return Fail(serror, ScriptError::WITNESS_PROGRAM_MISMATCH);
        }
        execdata.tapleaf_hash_init = true;
        if (leaf_version == kTaprootLeafTapscript) {
            // BIP342 "Resource limits": budget = serialized size of the whole witness (count,
            // then each element with its CompactSize length, annex and control block
            // included) + 50.
            int64_t size = int64_t(CompactSizeLen(witness.size()));
            for (const auto& e : witness) size += int64_t(CompactSizeLen(e.size()) + e.size());
            execdata.validation_weight_left = size + kValidationWeightOffset;
            execdata.validation_weight_left_init = true;
            Stack stack(witness.begin(), witness.begin() + (n - 2));
            return ExecuteWitnessScript(std::move(stack), script, flags, SigVersion::TAPSCRIPT, checker, execdata,
                                        serror);
        }
        // Unknown leaf versions are upgrade hooks: valid.
        if (flags & SCRIPT_VERIFY_DISCOURAGE_UPGRADABLE_TAPROOT_VERSION) {
            return Fail(serror, ScriptError::DISCOURAGE_UPGRADABLE_TAPROOT_VERSION);
        }
        return SetError(serror, ScriptError::OK);
    }
    // Other versions and sizes (and v1 inside P2SH) are anyone-can-spend for future soft forks.
    // Core 28+ also exempts pay-to-anchor (OP_1 <4e73>) from the DISCOURAGE flag (policy only).
    if (!is_p2sh && version == 1 && program_len == 2 && program[0] == 0x4e && program[1] == 0x73) return true;
    if (flags & SCRIPT_VERIFY_DISCOURAGE_UPGRADABLE_WITNESS_PROGRAM) {
        return Fail(serror, ScriptError::DISCOURAGE_UPGRADABLE_WITNESS_PROGRAM);
    }
    return true;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Names, helpers

const char* ScriptErrorName(ScriptError err) {
    switch (err) {
        case ScriptError::OK: return "OK";
        case ScriptError::UNKNOWN_ERROR: return "UNKNOWN_ERROR";
        case ScriptError::EVAL_FALSE: return "EVAL_FALSE";
        case ScriptError::OP_RETURN: return "OP_RETURN";
        case ScriptError::SCRIPT_SIZE: return "SCRIPT_SIZE";
        case ScriptError::PUSH_SIZE: return "PUSH_SIZE";
        case ScriptError::OP_COUNT: return "OP_COUNT";
        case ScriptError::STACK_SIZE: return "STACK_SIZE";
        case ScriptError::SIG_COUNT: return "SIG_COUNT";
        case ScriptError::PUBKEY_COUNT: return "PUBKEY_COUNT";
        case ScriptError::VERIFY: return "VERIFY";
        case ScriptError::EQUALVERIFY: return "EQUALVERIFY";
        case ScriptError::CHECKMULTISIGVERIFY: return "CHECKMULTISIGVERIFY";
        case ScriptError::CHECKSIGVERIFY: return "CHECKSIGVERIFY";
        case ScriptError::NUMEQUALVERIFY: return "NUMEQUALVERIFY";
        case ScriptError::BAD_OPCODE: return "BAD_OPCODE";
        case ScriptError::DISABLED_OPCODE: return "DISABLED_OPCODE";
        case ScriptError::INVALID_STACK_OPERATION: return "INVALID_STACK_OPERATION";
        case ScriptError::INVALID_ALTSTACK_OPERATION: return "INVALID_ALTSTACK_OPERATION";
        case ScriptError::UNBALANCED_CONDITIONAL: return "UNBALANCED_CONDITIONAL";
        case ScriptError::NEGATIVE_LOCKTIME: return "NEGATIVE_LOCKTIME";
        case ScriptError::UNSATISFIED_LOCKTIME: return "UNSATISFIED_LOCKTIME";
        case ScriptError::SIG_HASHTYPE: return "SIG_HASHTYPE";
        case ScriptError::SIG_DER: return "SIG_DER";
        case ScriptError::MINIMALDATA: return "MINIMALDATA";
        case ScriptError::SIG_PUSHONLY: return "SIG_PUSHONLY";
        case ScriptError::SIG_HIGH_S: return "SIG_HIGH_S";
        case ScriptError::SIG_NULLDUMMY: return "SIG_NULLDUMMY";
        case ScriptError::PUBKEYTYPE: return "PUBKEYTYPE";
        case ScriptError::CLEANSTACK: return "CLEANSTACK";
        case ScriptError::MINIMALIF: return "MINIMALIF";
        case ScriptError::SIG_NULLFAIL: return "NULLFAIL";  // as script_tests.json spells it
        case ScriptError::DISCOURAGE_UPGRADABLE_NOPS: return "DISCOURAGE_UPGRADABLE_NOPS";
        case ScriptError::DISCOURAGE_UPGRADABLE_WITNESS_PROGRAM: return "DISCOURAGE_UPGRADABLE_WITNESS_PROGRAM";
        case ScriptError::DISCOURAGE_UPGRADABLE_TAPROOT_VERSION: return "DISCOURAGE_UPGRADABLE_TAPROOT_VERSION";
        case ScriptError::DISCOURAGE_OP_SUCCESS: return "DISCOURAGE_OP_SUCCESS";
        case ScriptError::DISCOURAGE_UPGRADABLE_PUBKEYTYPE: return "DISCOURAGE_UPGRADABLE_PUBKEYTYPE";
        case ScriptError::WITNESS_PROGRAM_WRONG_LENGTH: return "WITNESS_PROGRAM_WRONG_LENGTH";
        case ScriptError::WITNESS_PROGRAM_WITNESS_EMPTY: return "WITNESS_PROGRAM_WITNESS_EMPTY";
        case ScriptError::WITNESS_PROGRAM_MISMATCH: return "WITNESS_PROGRAM_MISMATCH";
        case ScriptError::WITNESS_MALLEATED: return "WITNESS_MALLEATED";
        case ScriptError::WITNESS_MALLEATED_P2SH: return "WITNESS_MALLEATED_P2SH";
        case ScriptError::WITNESS_UNEXPECTED: return "WITNESS_UNEXPECTED";
        case ScriptError::WITNESS_PUBKEYTYPE: return "WITNESS_PUBKEYTYPE";
        case ScriptError::SCHNORR_SIG_SIZE: return "SCHNORR_SIG_SIZE";
        case ScriptError::SCHNORR_SIG_HASHTYPE: return "SCHNORR_SIG_HASHTYPE";
        case ScriptError::SCHNORR_SIG: return "SCHNORR_SIG";
        case ScriptError::TAPROOT_WRONG_CONTROL_SIZE: return "TAPROOT_WRONG_CONTROL_SIZE";
        case ScriptError::TAPSCRIPT_VALIDATION_WEIGHT: return "TAPSCRIPT_VALIDATION_WEIGHT";
        case ScriptError::TAPSCRIPT_CHECKMULTISIG: return "TAPSCRIPT_CHECKMULTISIG";
        case ScriptError::TAPSCRIPT_MINIMALIF: return "TAPSCRIPT_MINIMALIF";
        case ScriptError::OP_CODESEPARATOR: return "OP_CODESEPARATOR";
        case ScriptError::SIG_FINDANDDELETE: return "SIG_FINDANDDELETE";
        case ScriptError::ERROR_COUNT: break;
    }
    return "UNKNOWN_ERROR";
}

bool IsOpSuccess(uint8_t op) {
    return op == 80 || op == 98 || (op >= 126 && op <= 129) || (op >= 131 && op <= 134) || (op >= 137 && op <= 138) ||
           (op >= 141 && op <= 142) || (op >= 149 && op <= 153) || (op >= 187 && op <= 254);
}

bool CheckMinimalPush(const uint8_t* data, size_t len, uint8_t opcode) {
    if (len == 0) return opcode == OP_0;
    if (len == 1 && data[0] >= 1 && data[0] <= 16) return false;  // OP_1..OP_16
    if (len == 1 && data[0] == 0x81) return false;                // OP_1NEGATE
    if (len <= 75) return opcode == len;                          // direct push
    if (len <= 255) return opcode == OP_PUSHDATA1;
    if (len <= 65535) return opcode == OP_PUSHDATA2;
    return true;
}

bool IsPushOnly(const std::vector<uint8_t>& script) {
    const uint8_t* pc = script.data();
    const uint8_t* end = pc + script.size();
    while (pc < end) {
        uint8_t op;
        if (!GetScriptOp(pc, end, op)) return false;
        if (op > OP_16) return false;
    }
    return true;
}

bool CheckSignatureEncoding(const StackElement& sig, uint32_t flags, ScriptError* serror) {
    // The empty signature is not DER but allowed: a compact way to make CHECK(MULTI)SIG fail.
    if (sig.empty()) return true;
    if ((flags & (SCRIPT_VERIFY_DERSIG | SCRIPT_VERIFY_LOW_S | SCRIPT_VERIFY_STRICTENC)) &&
        !IsValidSignatureEncoding(sig.data(), sig.size())) {
        return Fail(serror, ScriptError::SIG_DER);
    }
    if ((flags & SCRIPT_VERIFY_LOW_S) && !IsLowDERSignature(sig, serror)) return false;
    if ((flags & SCRIPT_VERIFY_STRICTENC) && !IsDefinedHashtypeSignature(sig)) {
        return Fail(serror, ScriptError::SIG_HASHTYPE);
    }
    return true;
}

bool CheckPubKeyEncoding(const StackElement& pubkey, uint32_t flags, SigVersion sigversion, ScriptError* serror) {
    if ((flags & SCRIPT_VERIFY_STRICTENC) && !IsCompressedOrUncompressedPubKey(pubkey)) {
        return Fail(serror, ScriptError::PUBKEYTYPE);
    }
    // Segwit v0 policy: compressed keys only.
    if ((flags & SCRIPT_VERIFY_WITNESS_PUBKEYTYPE) && sigversion == SigVersion::WITNESS_V0 &&
        !IsCompressedPubKey(pubkey)) {
        return Fail(serror, ScriptError::WITNESS_PUBKEYTYPE);
    }
    return true;
}

// ---------------------------------------------------------------------------------------------
// ScriptNum (Core's CScriptNum)

bool ScriptNum::Decode(const StackElement& bytes, bool require_minimal, size_t max_size, ScriptNum& out) {
    if (bytes.size() > max_size) return false;  // "script number overflow"
    if (require_minimal && !bytes.empty()) {
        // Minimal: the top byte, sign bit aside, is non-zero, unless it only carries the sign
        // because the byte below has its top bit set (e.g. 0xff00 = 255). Rejects 0x80 (-0).
        if ((bytes.back() & 0x7f) == 0) {
            if (bytes.size() <= 1 || (bytes[bytes.size() - 2] & 0x80) == 0) return false;
        }
    }
    if (bytes.empty()) {
        out = ScriptNum(0);
        return true;
    }
    uint64_t mag = 0;
    for (size_t i = 0; i < bytes.size(); ++i) mag |= uint64_t(bytes[i]) << (8 * i);
    const size_t top = bytes.size() - 1;
    if (bytes[top] & 0x80) {
        mag &= ~(uint64_t(0x80) << (8 * top));
        out = ScriptNum(-int64_t(mag));
    } else {
        out = ScriptNum(int64_t(mag));
    }
    return true;
}

int32_t ScriptNum::getint() const {
    if (value_ > INT32_MAX) return INT32_MAX;
    if (value_ < INT32_MIN) return INT32_MIN;
    return int32_t(value_);
}

StackElement ScriptNum::serialize() const {
    StackElement out;
    if (value_ == 0) return out;
    const bool neg = value_ < 0;
    uint64_t mag = neg ? uint64_t(0) - uint64_t(value_) : uint64_t(value_);
    while (mag) {
        out.push_back(uint8_t(mag & 0xff));
        mag >>= 8;
    }
    // The top bit of the last byte is the sign: add a byte when the magnitude uses it.
    if (out.back() & 0x80) {
        out.push_back(neg ? 0x80 : 0x00);
    } else if (neg) {
        out.back() |= 0x80;
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// Default checker (Core's BaseSignatureChecker): nothing verifies.

bool SignatureChecker::CheckECDSASignature(const StackElement&, const StackElement&, const std::vector<uint8_t>&,
                                           SigVersion) const {
    return false;
}

bool SignatureChecker::CheckSchnorrSignature(const StackElement&, const StackElement&, SigVersion,
                                             const ScriptExecutionData&, ScriptError*) const {
    return false;
}

bool SignatureChecker::CheckLockTime(const ScriptNum&) const { return false; }

bool SignatureChecker::CheckSequence(const ScriptNum&) const { return false; }

// ---------------------------------------------------------------------------------------------
// EvalScript

bool EvalScript(Stack& stack, const std::vector<uint8_t>& script, uint32_t flags, const SignatureChecker& checker,
                SigVersion sigversion, ScriptExecutionData& execdata, ScriptError* serror) {
    const bool legacy_limits = sigversion == SigVersion::BASE || sigversion == SigVersion::WITNESS_V0;
    const uint8_t* pc = script.data();
    const uint8_t* const pend = pc + script.size();
    const uint8_t* pbegincodehash = pc;
    ConditionStack vfexec;
    Stack altstack;
    SetError(serror, ScriptError::UNKNOWN_ERROR);
    if (legacy_limits && script.size() > kMaxScriptSize) return Fail(serror, ScriptError::SCRIPT_SIZE);
    int op_count = 0;
    const bool require_minimal = (flags & SCRIPT_VERIFY_MINIMALDATA) != 0;
    uint32_t opcode_pos = 0;
    execdata.codeseparator_pos = 0xffffffff;
    execdata.codeseparator_pos_init = true;

    auto top = [&stack](int i) -> StackElement& { return stack[stack.size() + i]; };  // i < 0
    auto pop = [&stack]() { stack.pop_back(); };
    // A CScriptNum that fails to decode throws in Core; EvalScript reports UNKNOWN_ERROR.
    auto num = [&](const StackElement& e, size_t max_size, ScriptNum& out) {
        if (ScriptNum::Decode(e, require_minimal, max_size, out)) return true;
        return Fail(serror, ScriptError::UNKNOWN_ERROR);
    };

    for (; pc < pend; ++opcode_pos) {
        const bool exec = vfexec.all_true();
        uint8_t opcode;
        const uint8_t* push = nullptr;
        size_t push_len = 0;
        if (!GetScriptOp(pc, pend, opcode, &push, &push_len)) return Fail(serror, ScriptError::BAD_OPCODE);
        if (push_len > kMaxScriptElementSize) return Fail(serror, ScriptError::PUSH_SIZE);
        // OP_COUNT: every opcode above OP_16 counts, executed or not (OP_RESERVED does not).
        if (legacy_limits && opcode > OP_16 && ++op_count > kMaxOpsPerScript) {
            return Fail(serror, ScriptError::OP_COUNT);
        }
        if (IsDisabledOpcode(opcode)) return Fail(serror, ScriptError::DISABLED_OPCODE);
        // CONST_SCRIPTCODE: OP_CODESEPARATOR in a legacy script fails even when not executed.
        if (opcode == OP_CODESEPARATOR && sigversion == SigVersion::BASE && (flags & SCRIPT_VERIFY_CONST_SCRIPTCODE)) {
            return Fail(serror, ScriptError::OP_CODESEPARATOR);
        }

        if (exec && opcode <= OP_PUSHDATA4) {
            if (require_minimal && !CheckMinimalPush(push, push_len, opcode)) {
                return Fail(serror, ScriptError::MINIMALDATA);
            }
            stack.emplace_back(push, push + push_len);
        } else if (exec || (opcode >= OP_IF && opcode <= OP_ENDIF)) {
            // Unexecuted branches still track IF/NOTIF/ELSE/ENDIF, and reach OP_VERIF /
            // OP_VERNOTIF (which lie in that range): those fail as BAD_OPCODE anyway.
            switch (opcode) {
                case OP_1NEGATE:
                case OP_1: case OP_2: case OP_3: case OP_4: case OP_5: case OP_6: case OP_7: case OP_8:
                case OP_9: case OP_10: case OP_11: case OP_12: case OP_13: case OP_14: case OP_15: case OP_16:
                    stack.push_back(ScriptNum(int(opcode) - int(OP_1 - 1)).serialize());
                    break;

                case OP_NOP:
                    break;

                case OP_CHECKLOCKTIMEVERIFY: {
                    // BIP65; OP_NOP2 without the flag.
                    if (!(flags & SCRIPT_VERIFY_CHECKLOCKTIMEVERIFY)) break;
                    if (stack.empty()) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);
                    // 5-byte operand: lock times reach 2^32 - 1. Not popped.
                    ScriptNum lock_time(0);
                    if (!num(top(-1), 5, lock_time)) return false;
                    if (lock_time.value() < 0) return Fail(serror, ScriptError::NEGATIVE_LOCKTIME);
                    if (!checker.CheckLockTime(lock_time)) return Fail(serror, ScriptError::UNSATISFIED_LOCKTIME);
                    break;
                }

                case OP_CHECKSEQUENCEVERIFY: {
                    // BIP112; OP_NOP3 without the flag.
                    if (!(flags & SCRIPT_VERIFY_CHECKSEQUENCEVERIFY)) break;
                    if (stack.empty()) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);
                    ScriptNum sequence(0);
                    if (!num(top(-1), 5, sequence)) return false;
                    if (sequence.value() < 0) return Fail(serror, ScriptError::NEGATIVE_LOCKTIME);
                    // BIP112: with the disable flag (bit 31) set in the operand, a NOP.
                    if (sequence.value() & (int64_t(1) << 31)) break;
                    if (!checker.CheckSequence(sequence)) return Fail(serror, ScriptError::UNSATISFIED_LOCKTIME);
                    break;
                }

                case OP_NOP1: case OP_NOP4: case OP_NOP5: case OP_NOP6: case OP_NOP7: case OP_NOP8: case OP_NOP9:
                case OP_NOP10:
                    if (flags & SCRIPT_VERIFY_DISCOURAGE_UPGRADABLE_NOPS) {
                        return Fail(serror, ScriptError::DISCOURAGE_UPGRADABLE_NOPS);
                    }
                    break;

                case OP_IF:
                case OP_NOTIF: {
                    bool value = false;
                    if (exec) {
                        if (stack.empty()) return Fail(serror, ScriptError::UNBALANCED_CONDITIONAL);
                        const StackElement& v = top(-1);
                        // BIP342: in tapscript the argument must be exactly empty or 0x01
                        // (consensus); in witness v0 the same rule is MINIMALIF policy.
                        if (sigversion == SigVersion::TAPSCRIPT) {
                            if (v.size() > 1 || (v.size() == 1 && v[0] != 1)) {
                                return Fail(serror, ScriptError::TAPSCRIPT_MINIMALIF);
                            }
                        }
                        if (sigversion == SigVersion::WITNESS_V0 && (flags & SCRIPT_VERIFY_MINIMALIF)) {
                            if (v.size() > 1 || (v.size() == 1 && v[0] != 1)) {
                                return Fail(serror, ScriptError::MINIMALIF);
                            }
                        }
                        value = CastToBool(v.data(), v.size());
                        if (opcode == OP_NOTIF) value = !value;
                        pop();
                    }
                    vfexec.push_back(value);
                    break;
                }

                case OP_ELSE:
                    if (vfexec.empty()) return Fail(serror, ScriptError::UNBALANCED_CONDITIONAL);
                    vfexec.toggle_top();
                    break;

                case OP_ENDIF:
                    if (vfexec.empty()) return Fail(serror, ScriptError::UNBALANCED_CONDITIONAL);
                    vfexec.pop_back();
                    break;

                case OP_VERIFY: {
                    if (stack.empty()) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);
                    if (!CastToBool(top(-1).data(), top(-1).size())) return Fail(serror, ScriptError::VERIFY);
                    pop();
                    break;
                }

                case OP_RETURN:
                    return Fail(serror, ScriptError::OP_RETURN);

                // Stack operations.
                case OP_TOALTSTACK:
                    if (stack.empty()) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);
                    altstack.push_back(std::move(top(-1)));
                    pop();
                    break;

                case OP_FROMALTSTACK:
                    if (altstack.empty()) return Fail(serror, ScriptError::INVALID_ALTSTACK_OPERATION);
                    stack.push_back(std::move(altstack.back()));
                    altstack.pop_back();
                    break;

                case OP_2DROP:
                    // (x1 x2 -- )
                    if (stack.size() < 2) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);
                    pop();
                    pop();
                    break;

                case OP_2DUP: {
                    // (x1 x2 -- x1 x2 x1 x2)
                    if (stack.size() < 2) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);
                    StackElement a = top(-2), b = top(-1);
                    stack.push_back(std::move(a));
                    stack.push_back(std::move(b));
                    break;
                }

                case OP_3DUP: {
                    // (x1 x2 x3 -- x1 x2 x3 x1 x2 x3)
                    if (stack.size() < 3) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);
                    StackElement a = top(-3), b = top(-2), c = top(-1);
                    stack.push_back(std::move(a));
                    stack.push_back(std::move(b));
                    stack.push_back(std::move(c));
                    break;
                }

                case OP_2OVER: {
                    // (x1 x2 x3 x4 -- x1 x2 x3 x4 x1 x2)
                    if (stack.size() < 4) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);
                    StackElement a = top(-4), b = top(-3);
                    stack.push_back(std::move(a));
                    stack.push_back(std::move(b));
                    break;
                }

                case OP_2ROT: {
                    // (x1 x2 x3 x4 x5 x6 -- x3 x4 x5 x6 x1 x2)
                    if (stack.size() < 6) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);
                    StackElement a = std::move(top(-6)), b = std::move(top(-5));
                    stack.erase(stack.end() - 6, stack.end() - 4);
                    stack.push_back(std::move(a));
                    stack.push_back(std::move(b));
                    break;
                }

                case OP_2SWAP:
                    // (x1 x2 x3 x4 -- x3 x4 x1 x2)
                    if (stack.size() < 4) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);
                    std::swap(top(-4), top(-2));
                    std::swap(top(-3), top(-1));
                    break;

                case OP_IFDUP: {
                    // (x -- x x) if x is true
                    if (stack.empty()) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);
                    if (CastToBool(top(-1).data(), top(-1).size())) {
                        StackElement a = top(-1);
                        stack.push_back(std::move(a));
                    }
                    break;
                }

                case OP_DEPTH:
                    stack.push_back(ScriptNum(int64_t(stack.size())).serialize());
                    break;

                case OP_DROP:
                    if (stack.empty()) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);
                    pop();
                    break;

                case OP_DUP: {
                    if (stack.empty()) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);
                    StackElement a = top(-1);
                    stack.push_back(std::move(a));
                    break;
                }

                case OP_NIP:
                    // (x1 x2 -- x2)
                    if (stack.size() < 2) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);
                    stack.erase(stack.end() - 2);
                    break;

                case OP_OVER: {
                    // (x1 x2 -- x1 x2 x1)
                    if (stack.size() < 2) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);
                    StackElement a = top(-2);
                    stack.push_back(std::move(a));
                    break;
                }

                case OP_PICK:
                case OP_ROLL: {
                    // (xn ... x2 x1 x0 n -- xn ... x2 x1 x0 xn)  PICK copies, ROLL moves.
                    if (stack.size() < 2) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);
                    ScriptNum sn(0);
                    if (!num(top(-1), 4, sn)) return false;
                    const int n = sn.getint();
                    pop();
                    if (n < 0 || size_t(n) >= stack.size()) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);
                    StackElement v = top(-n - 1);
                    if (opcode == OP_ROLL) stack.erase(stack.end() - n - 1);
                    stack.push_back(std::move(v));
                    break;
                }

                case OP_ROT:
                    // (x1 x2 x3 -- x2 x3 x1)
                    if (stack.size() < 3) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);
                    std::swap(top(-3), top(-2));
                    std::swap(top(-2), top(-1));
                    break;

                case OP_SWAP:
                    if (stack.size() < 2) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);
                    std::swap(top(-2), top(-1));
                    break;

                case OP_TUCK: {
                    // (x1 x2 -- x2 x1 x2)
                    if (stack.size() < 2) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);
                    StackElement v = top(-1);
                    stack.insert(stack.end() - 2, std::move(v));
                    break;
                }

                case OP_SIZE:
                    // (in -- in size)
                    if (stack.empty()) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);
                    stack.push_back(ScriptNum(int64_t(top(-1).size())).serialize());
                    break;

                // Bitwise logic.
                case OP_EQUAL:
                case OP_EQUALVERIFY: {
                    if (stack.size() < 2) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);
                    const bool equal = top(-2) == top(-1);
                    pop();
                    pop();
                    stack.push_back(equal ? kTrue : kFalse);
                    if (opcode == OP_EQUALVERIFY) {
                        if (!equal) return Fail(serror, ScriptError::EQUALVERIFY);
                        pop();
                    }
                    break;
                }

                // Numeric, one operand.
                case OP_1ADD: case OP_1SUB: case OP_NEGATE: case OP_ABS: case OP_NOT: case OP_0NOTEQUAL: {
                    if (stack.empty()) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);
                    ScriptNum sn(0);
                    if (!num(top(-1), 4, sn)) return false;
                    int64_t v = sn.value();
                    switch (opcode) {
                        case OP_1ADD: v += 1; break;
                        case OP_1SUB: v -= 1; break;
                        case OP_NEGATE: v = -v; break;
                        case OP_ABS: if (v < 0) v = -v; break;
                        case OP_NOT: v = (v == 0); break;
                        default: v = (v != 0); break;  // OP_0NOTEQUAL
                    }
                    pop();
                    stack.push_back(ScriptNum(v).serialize());
                    break;
                }

                // Numeric, two operands.
                case OP_ADD: case OP_SUB: case OP_BOOLAND: case OP_BOOLOR: case OP_NUMEQUAL: case OP_NUMEQUALVERIFY:
                case OP_NUMNOTEQUAL: case OP_LESSTHAN: case OP_GREATERTHAN: case OP_LESSTHANOREQUAL:
                case OP_GREATERTHANOREQUAL: case OP_MIN: case OP_MAX: {
                    if (stack.size() < 2) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);
                    ScriptNum sa(0), sb(0);
                    if (!num(top(-2), 4, sa) || !num(top(-1), 4, sb)) return false;
                    const int64_t a = sa.value(), b = sb.value();
                    int64_t r = 0;
                    switch (opcode) {
                        case OP_ADD: r = a + b; break;
                        case OP_SUB: r = a - b; break;
                        case OP_BOOLAND: r = (a != 0 && b != 0); break;
                        case OP_BOOLOR: r = (a != 0 || b != 0); break;
                        case OP_NUMEQUAL: case OP_NUMEQUALVERIFY: r = (a == b); break;
                        case OP_NUMNOTEQUAL: r = (a != b); break;
                        case OP_LESSTHAN: r = (a < b); break;
                        case OP_GREATERTHAN: r = (a > b); break;
                        case OP_LESSTHANOREQUAL: r = (a <= b); break;
                        case OP_GREATERTHANOREQUAL: r = (a >= b); break;
                        case OP_MIN: r = std::min(a, b); break;
                        default: r = std::max(a, b); break;  // OP_MAX
                    }
                    pop();
                    pop();
                    stack.push_back(ScriptNum(r).serialize());
                    if (opcode == OP_NUMEQUALVERIFY) {
                        if (!CastToBool(top(-1).data(), top(-1).size())) {
                            return Fail(serror, ScriptError::NUMEQUALVERIFY);
                        }
                        pop();
                    }
                    break;
                }

                case OP_WITHIN: {
                    // (x min max -- out): min <= x < max
                    if (stack.size() < 3) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);
                    ScriptNum x(0), lo(0), hi(0);
                    if (!num(top(-3), 4, x) || !num(top(-2), 4, lo) || !num(top(-1), 4, hi)) return false;
                    const bool in = lo.value() <= x.value() && x.value() < hi.value();
                    pop();
                    pop();
                    pop();
                    stack.push_back(in ? kTrue : kFalse);
                    break;
                }

                // Crypto.
                case OP_RIPEMD160: case OP_SHA1: case OP_SHA256: case OP_HASH160: case OP_HASH256: {
                    if (stack.empty()) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);
                    const StackElement& in = top(-1);
                    StackElement out;
                    if (opcode == OP_RIPEMD160) {
                        const Hash20 h = Ripemd160Hash(in.data(), in.size());
                        out.assign(h.begin(), h.end());
                    } else if (opcode == OP_SHA1) {
                        const Sha1Digest h = Sha1Hash(in.data(), in.size());
                        out.assign(h.begin(), h.end());
                    } else if (opcode == OP_SHA256) {
                        const Hash32 h = Sha256Hash(in.data(), in.size());
                        out.assign(h.begin(), h.end());
                    } else if (opcode == OP_HASH160) {
                        const Hash20 h = Hash160(in.data(), in.size());
                        out.assign(h.begin(), h.end());
                    } else {
                        const Hash32 h = Sha256d(in.data(), in.size());
                        out.assign(h.begin(), h.end());
                    }
                    pop();
                    stack.push_back(std::move(out));
                    break;
                }

                case OP_CODESEPARATOR:
                    // Signatures cover the script from after the last executed separator
                    // (BASE / WITNESS_V0); tapscript commits to its opcode position (BIP342).
                    pbegincodehash = pc;
                    execdata.codeseparator_pos = opcode_pos;
                    break;

                case OP_CHECKSIG:
                case OP_CHECKSIGVERIFY: {
                    // (sig pubkey -- bool)
                    if (stack.size() < 2) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);
                    bool success = true;
                    if (!EvalChecksig(top(-2), top(-1), pbegincodehash, pend, execdata, flags, checker, sigversion,
                                      serror, success)) {
                        return false;
                    }
                    pop();
                    pop();
                    stack.push_back(success ? kTrue : kFalse);
                    if (opcode == OP_CHECKSIGVERIFY) {
                        if (!success) return Fail(serror, ScriptError::CHECKSIGVERIFY);
                        pop();
                    }
                    break;
                }

                case OP_CHECKSIGADD: {
                    // BIP342: (sig n pubkey -- n + success); tapscript only.
                    if (legacy_limits) return Fail(serror, ScriptError::BAD_OPCODE);
                    if (stack.size() < 3) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);
                    ScriptNum n(0);
                    if (!num(top(-2), 4, n)) return false;
                    bool success = true;
                    if (!EvalChecksig(top(-3), top(-1), pbegincodehash, pend, execdata, flags, checker, sigversion,
                                      serror, success)) {
                        return false;
                    }
                    pop();
                    pop();
                    pop();
                    stack.push_back(ScriptNum(n.value() + (success ? 1 : 0)).serialize());
                    break;
                }

                case OP_CHECKMULTISIG:
                case OP_CHECKMULTISIGVERIFY: {
                    // ([dummy] [sig ...] nsigs [pubkey ...] nkeys -- bool)
                    if (sigversion == SigVersion::TAPSCRIPT) return Fail(serror, ScriptError::TAPSCRIPT_CHECKMULTISIG);
                    int i = 1;  // stack depth of the next item to read (top = 1)
                    if (int(stack.size()) < i) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);
                    ScriptNum sn(0);
                    if (!num(top(-i), 4, sn)) return false;
                    int keys_count = sn.getint();
                    if (keys_count < 0 || keys_count > kMaxPubkeysPerMultisig) {
                        return Fail(serror, ScriptError::PUBKEY_COUNT);
                    }
                    // Each key counts as an opcode (Core's nOpCount += nKeysCount), also in
                    // witness v0 and also when the walk stops early.
                    op_count += keys_count;
                    if (op_count > kMaxOpsPerScript) return Fail(serror, ScriptError::OP_COUNT);
                    int ikey = ++i;
                    // Depth of the last key: below it, every item is cleared by the NULLFAIL
                    // check on failure.
                    int ikey2 = keys_count + 2;
                    i += keys_count;
                    if (int(stack.size()) < i) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);
                    if (!num(top(-i), 4, sn)) return false;
                    int sigs_count = sn.getint();
                    if (sigs_count < 0 || sigs_count > keys_count) return Fail(serror, ScriptError::SIG_COUNT);
                    int isig = ++i;
                    i += sigs_count;
                    if (int(stack.size()) < i) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);

                    std::vector<uint8_t> script_code(pbegincodehash, pend);
                    // Legacy: remove every signature's push from the scriptCode first.
                    if (sigversion == SigVersion::BASE) {
                        for (int k = 0; k < sigs_count; ++k) {
                            const StackElement& s = top(-isig - k);
                            const int found = FindAndDelete(script_code, SerializePush(s.data(), s.size()));
                            if (found > 0 && (flags & SCRIPT_VERIFY_CONST_SCRIPTCODE)) {
                                return Fail(serror, ScriptError::SIG_FINDANDDELETE);
                            }
                        }
                    }

                    // Walk: the top-most remaining signature against the top-most remaining
                    // key; a key is consumed each step, a signature only when it verifies.
                    bool success = true;
                    while (success && sigs_count > 0) {
                        const StackElement& s = top(-isig);
                        const StackElement& k = top(-ikey);
                        // Encodings are checked lazily, pair by pair (observable with STRICTENC).
                        if (!CheckSignatureEncoding(s, flags, serror) ||
                            !CheckPubKeyEncoding(k, flags, sigversion, serror)) {
                            return false;
                        }
                        if (checker.CheckECDSASignature(s, k, script_code, sigversion)) {
                            ++isig;
                            --sigs_count;
                        }
                        ++ikey;
                        --keys_count;
                        // More signatures left than keys: cannot succeed; stop early.
                        if (sigs_count > keys_count) success = false;
                    }

                    // Pop the arguments; on failure, NULLFAIL (BIP146) wants every signature
                    // empty (items below the keys and counts, i.e. once ikey2 reaches 0).
                    while (i-- > 1) {
                        if (!success && (flags & SCRIPT_VERIFY_NULLFAIL) && ikey2 == 0 && !top(-1).empty()) {
                            return Fail(serror, ScriptError::SIG_NULLFAIL);
                        }
                        if (ikey2 > 0) --ikey2;
                        pop();
                    }
                    // The extra item consumed by the original off-by-one; BIP147 NULLDUMMY
                    // requires it empty.
                    if (stack.empty()) return Fail(serror, ScriptError::INVALID_STACK_OPERATION);
                    if ((flags & SCRIPT_VERIFY_NULLDUMMY) && !top(-1).empty()) {
                        return Fail(serror, ScriptError::SIG_NULLDUMMY);
                    }
                    pop();
                    stack.push_back(success ? kTrue : kFalse);
                    if (opcode == OP_CHECKMULTISIGVERIFY) {
                        if (!success) return Fail(serror, ScriptError::CHECKMULTISIGVERIFY);
                        pop();
                    }
                    break;
                }

                default:
                    // OP_RESERVED, OP_VER, OP_VERIF, OP_VERNOTIF, OP_RESERVED1/2, 0xbb..0xff
                    // (and OP_SUCCESSx reached by a direct call in tapscript).
                    return Fail(serror, ScriptError::BAD_OPCODE);
            }
        }

        if (stack.size() + altstack.size() > kMaxStackSize) return Fail(serror, ScriptError::STACK_SIZE);
    }

    if (!vfexec.empty()) return Fail(serror, ScriptError::UNBALANCED_CONDITIONAL);
    return SetError(serror, ScriptError::OK);
}

// ---------------------------------------------------------------------------------------------
// VerifyScript

bool VerifyScript(const std::vector<uint8_t>& script_sig, const std::vector<uint8_t>& script_pubkey,
                  const Stack* witness, uint32_t flags, const SignatureChecker& checker, ScriptError* serror) {
    static const Stack kEmptyWitness;
    if (witness == nullptr) witness = &kEmptyWitness;
    bool had_witness = false;
    SetError(serror, ScriptError::UNKNOWN_ERROR);

    if ((flags & SCRIPT_VERIFY_SIGPUSHONLY) && !IsPushOnly(script_sig)) return Fail(serror, ScriptError::SIG_PUSHONLY);

    // scriptSig and scriptPubKey run one after the other on the same stack, never concatenated
    // (CVE-2010-5141).
    Stack stack, stack_copy;
    {
        ScriptExecutionData execdata;
        if (!EvalScript(stack, script_sig, flags, checker, SigVersion::BASE, execdata, serror)) return false;
    }
    if (flags & SCRIPT_VERIFY_P2SH) stack_copy = stack;
    {
        ScriptExecutionData execdata;
        if (!EvalScript(stack, script_pubkey, flags, checker, SigVersion::BASE, execdata, serror)) return false;
    }
    if (stack.empty()) return Fail(serror, ScriptError::EVAL_FALSE);
    if (!CastToBool(stack.back().data(), stack.back().size())) return Fail(serror, ScriptError::EVAL_FALSE);

    int version = 0;
    const uint8_t* program = nullptr;
    size_t program_len = 0;
    // Native witness program (BIP141).
    if ((flags & SCRIPT_VERIFY_WITNESS) && IsWitnessProgram(script_pubkey, version, program, program_len)) {
        had_witness = true;
        // The scriptSig must be exactly empty, or it would be malleable.
        if (!script_sig.empty()) return Fail(serror, ScriptError::WITNESS_MALLEATED);
        if (!VerifyWitnessProgram(*witness, version, program, program_len, flags, checker, serror, false)) {
            return false;
        }
        // The stack is irrelevant now; keep one element so that CLEANSTACK passes.
        stack.resize(1);
    }

    // BIP16 P2SH: the last scriptSig push is the redeem script.
    if ((flags & SCRIPT_VERIFY_P2SH) && IsPayToScriptHash(script_pubkey)) {
        if (!IsPushOnly(script_sig)) return Fail(serror, ScriptError::SIG_PUSHONLY);
        std::swap(stack, stack_copy);
        // Not empty: HASH160 <h> EQUAL succeeded on this stack.
        const std::vector<uint8_t> redeem = std::move(stack.back());
        stack.pop_back();
        {
            ScriptExecutionData execdata;
            if (!EvalScript(stack, redeem, flags, checker, SigVersion::BASE, execdata, serror)) return false;
        }
        if (stack.empty()) return Fail(serror, ScriptError::EVAL_FALSE);
        if (!CastToBool(stack.back().data(), stack.back().size())) return Fail(serror, ScriptError::EVAL_FALSE);

        // P2SH-wrapped witness program (BIP141).
        if ((flags & SCRIPT_VERIFY_WITNESS) && IsWitnessProgram(redeem, version, program, program_len)) {
            had_witness = true;
            // The scriptSig must be exactly one push of the redeem script.
            if (script_sig != SerializePush(redeem.data(), redeem.size())) {
                return Fail(serror, ScriptError::WITNESS_MALLEATED_P2SH);
            }
            if (!VerifyWitnessProgram(*witness, version, program, program_len, flags, checker, serror, true)) {
                return false;
            }
            stack.resize(1);
        }
    }

    // CLEANSTACK (policy) after P2SH and witness evaluation. Core asserts that P2SH and WITNESS
    // are set with it (a soft-fork safety rule on flag combinations); the check is made here
    // regardless.
    if ((flags & SCRIPT_VERIFY_CLEANSTACK) && stack.size() != 1) return Fail(serror, ScriptError::CLEANSTACK);

    // A witness given to an input that does not use it (Core asserts P2SH with WITNESS).
    if ((flags & SCRIPT_VERIFY_WITNESS) && !had_witness && !witness->empty()) {
        return Fail(serror, ScriptError::WITNESS_UNEXPECTED);
    }
    return SetError(serror, ScriptError::OK);
}

}  // namespace ibd
