// libFuzzer target: the script interpreter (interpreter.h) on arbitrary scripts, witnesses and
// flags, with a signature checker whose verdicts the input chooses.
//
// Input (fuzz/seed_corpus.cpp writes the seeds in this layout from Core's script_tests.json and the
// btcd taproot script assets):
//
//   offset  size  field
//   0       4     flags, uint32 LE (SCRIPT_VERIFY_*)
//   4       4     flip, uint32 LE: flags the monotonicity check removes / adds (below)
//   8       1     mode: bits 0-1  0 VerifyScript with the witness, 1 VerifyScript without one
//                                 (nullptr), 2-3 EvalScript of the scriptPubKey on the witness
//                                 items as the initial stack;
//                       bits 2-3  EvalScript's SigVersion: 0 BASE, 1 WITNESS_V0, 2-3 TAPSCRIPT
//   9       1     checker: bits 0-1 ECDSA verdict, bits 2-3 Schnorr verdict (0 fail, 1 pass,
//                 2-3 a hash of signature, key and `seed`); bit 4 CheckLockTime; bit 5
//                 CheckSequence; bit 6 run the monotonicity check
//   10      1     seed
//   11      2+n   scriptSig: length uint16 LE, bytes
//   ...     2+n   scriptPubKey: length uint16 LE, bytes
//   ...     1     witness item count, then each item: length uint16 LE, bytes
//
// Missing bytes read as zero / empty. Contracts checked (any violation aborts, which libFuzzer
// reports as a crash; so does any exception, since the interpreter throws none):
//   * the result agrees with the error: true <=> ScriptError::OK (Core's fuzz target script_flags);
//   * the checker is only asked ECDSA in BASE / WITNESS_V0 and Schnorr with a 32-byte key in
//     TAPROOT / TAPSCRIPT;
//   * soft-fork monotonicity (Core's script_flags): with verdicts that depend only on the
//     signature and key, a VerifyScript that passes still passes with the `flip` flags removed,
//     and one that fails still fails with them added (for valid flag combinations: WITNESS needs
//     P2SH, CLEANSTACK needs both).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "script/interpreter.h"

namespace {

using ibd::ScriptError;
using ibd::SigVersion;

struct Input {
    const uint8_t* p;
    size_t n;
    size_t pos = 0;
    uint64_t LE(size_t bytes) {
        uint64_t v = 0;
        for (size_t i = 0; i < bytes && pos < n; ++i) v |= uint64_t(p[pos++]) << (8 * i);
        return v;
    }
    std::vector<uint8_t> Bytes() {
        const size_t want = static_cast<size_t>(LE(2));
        const size_t got = want < n - pos ? want : n - pos;
        std::vector<uint8_t> out(p + pos, p + pos + got);
        pos += got;
        return out;
    }
};

[[noreturn]] void Fail(const char* what, uint32_t a = 0, uint32_t b = 0) {
    std::fprintf(stderr, "script_eval_fuzz: contract violated: %s (0x%08x 0x%08x)\n", what, a, b);
    std::abort();
}

/** Verdicts chosen by the input; with mode 2-3 a deterministic function of signature and key,
 *  so that a flag change cannot change the verdict of one check. */
class FuzzChecker : public ibd::SignatureChecker {
public:
    FuzzChecker(uint8_t bits, uint8_t seed) : bits_(bits), seed_(seed) {}

    bool CheckECDSASignature(const ibd::StackElement& sig, const ibd::StackElement& pubkey,
                             const std::vector<uint8_t>& /*script_code*/, SigVersion sigversion) const override {
        if (sigversion != SigVersion::BASE && sigversion != SigVersion::WITNESS_V0) {
            Fail("ECDSA check outside BASE / WITNESS_V0", static_cast<uint32_t>(sigversion));
        }
        if (sig.empty()) return false;  // Core: an empty signature never verifies
        return Verdict(bits_ & 3, sig, pubkey);
    }

    bool CheckSchnorrSignature(const ibd::StackElement& sig, const ibd::StackElement& pubkey32, SigVersion sigversion,
                               const ibd::ScriptExecutionData& /*execdata*/, ScriptError* serror) const override {
        if (sigversion != SigVersion::TAPROOT && sigversion != SigVersion::TAPSCRIPT) {
            Fail("Schnorr check outside TAPROOT / TAPSCRIPT", static_cast<uint32_t>(sigversion));
        }
        if (pubkey32.size() != 32) Fail("Schnorr check with a key that is not 32 bytes", uint32_t(pubkey32.size()));
        // Core's GenericTransactionSignatureChecker::CheckSchnorrSignature, then the verdict.
        if (sig.size() != 64 && sig.size() != 65) return Set(serror, ScriptError::SCHNORR_SIG_SIZE);
        if (sig.size() == 65) {
            const uint8_t hash_type = sig[64];
            const bool known = hash_type <= 0x03 || (hash_type >= 0x81 && hash_type <= 0x83);
            if (hash_type == 0x00 || !known) return Set(serror, ScriptError::SCHNORR_SIG_HASHTYPE);
        }
        if (!Verdict((bits_ >> 2) & 3, sig, pubkey32)) return Set(serror, ScriptError::SCHNORR_SIG);
        return true;
    }

    bool CheckLockTime(const ibd::ScriptNum&) const override { return bits_ & 0x10; }
    bool CheckSequence(const ibd::ScriptNum&) const override { return bits_ & 0x20; }

private:
    static bool Set(ScriptError* serror, ScriptError e) {
        if (serror) *serror = e;
        return false;
    }
    bool Verdict(int mode, const ibd::StackElement& sig, const ibd::StackElement& key) const {
        if (mode < 2) return mode == 1;
        uint32_t h = 2166136261u ^ seed_;  // FNV-1a
        for (uint8_t b : sig) h = (h ^ b) * 16777619u;
        for (uint8_t b : key) h = (h ^ b) * 16777619u;
        return (h >> 7) & 1;
    }

    uint8_t bits_;
    uint8_t seed_;
};

bool ValidFlagCombination(uint32_t flags) {
    if ((flags & ibd::SCRIPT_VERIFY_CLEANSTACK) &&
        (~flags & (ibd::SCRIPT_VERIFY_P2SH | ibd::SCRIPT_VERIFY_WITNESS))) {
        return false;
    }
    if ((flags & ibd::SCRIPT_VERIFY_WITNESS) && (~flags & ibd::SCRIPT_VERIFY_P2SH)) return false;
    return true;
}

bool Verify(const std::vector<uint8_t>& sig, const std::vector<uint8_t>& spk, const ibd::Stack* witness,
            uint32_t flags, const FuzzChecker& checker) {
    ScriptError err = ScriptError::UNKNOWN_ERROR;
    const bool ok = ibd::VerifyScript(sig, spk, witness, flags, checker, &err);
    if (ok != (err == ScriptError::OK)) Fail("VerifyScript's result and ScriptError disagree", ok, uint32_t(err));
    (void)ibd::ScriptErrorName(err);
    return ok;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Input in{data, size};
    const uint32_t flags = static_cast<uint32_t>(in.LE(4));
    const uint32_t flip = static_cast<uint32_t>(in.LE(4));
    const uint8_t mode = static_cast<uint8_t>(in.LE(1));
    const uint8_t checker_bits = static_cast<uint8_t>(in.LE(1));
    const uint8_t seed = static_cast<uint8_t>(in.LE(1));
    const std::vector<uint8_t> script_sig = in.Bytes();
    const std::vector<uint8_t> script_pubkey = in.Bytes();
    ibd::Stack witness(static_cast<size_t>(in.LE(1)));
    for (auto& item : witness) item = in.Bytes();

    const FuzzChecker checker(checker_bits, seed);

    if (mode & 2) {
        // EvalScript as its callers use it: initial stack elements within 520 bytes (Core checks
        // the witness stack before ExecuteWitnessScript), and for tapscript the execution data
        // that ExecuteWitnessScript sets up.
        for (auto& item : witness) {
            if (item.size() > 520) item.resize(520);
        }
        const int sv = (mode >> 2) & 3;
        const SigVersion sigversion = sv == 0 ? SigVersion::BASE : sv == 1 ? SigVersion::WITNESS_V0 : SigVersion::TAPSCRIPT;
        ibd::ScriptExecutionData execdata;
        if (sigversion == SigVersion::TAPSCRIPT) {
            execdata.tapleaf_hash_init = true;
            execdata.codeseparator_pos_init = true;
            execdata.codeseparator_pos = 0xffffffff;
            execdata.annex_init = true;
            execdata.annex_present = (seed & 1) != 0;
            execdata.validation_weight_left_init = true;
            execdata.validation_weight_left = static_cast<int64_t>(ibd::kValidationWeightOffset + 8 * seed + size);
        }
        ibd::Stack stack = witness;
        ScriptError err = ScriptError::UNKNOWN_ERROR;
        const bool ok = ibd::EvalScript(stack, script_pubkey, flags, checker, sigversion, execdata, &err);
        if (ok != (err == ScriptError::OK)) Fail("EvalScript's result and ScriptError disagree", ok, uint32_t(err));
        return 0;
    }

    const ibd::Stack* wit = (mode & 1) ? nullptr : &witness;
    const bool ok = Verify(script_sig, script_pubkey, wit, flags, checker);

    // Soft-fork monotonicity; only meaningful when verdicts do not depend on call order, which
    // they never do here (fixed or a function of signature and key).
    if ((checker_bits & 0x40) && ValidFlagCombination(flags)) {
        uint32_t other = ok ? (flags & ~flip) : (flags | flip);
        if (ok) {
            // Dropping P2SH or WITNESS drops what depends on it, to stay a valid combination.
            if (!(other & ibd::SCRIPT_VERIFY_P2SH)) other &= ~uint32_t(ibd::SCRIPT_VERIFY_WITNESS);
            if (!(other & ibd::SCRIPT_VERIFY_WITNESS)) other &= ~uint32_t(ibd::SCRIPT_VERIFY_CLEANSTACK);
        } else {
            if (other & ibd::SCRIPT_VERIFY_CLEANSTACK) other |= ibd::SCRIPT_VERIFY_WITNESS;
            if (other & ibd::SCRIPT_VERIFY_WITNESS) other |= ibd::SCRIPT_VERIFY_P2SH;
        }
        if (other != flags && Verify(script_sig, script_pubkey, wit, other, checker) != ok) {
            Fail(ok ? "passes with flags A but fails with fewer flags B" : "fails with flags A but passes with more flags B",
                 flags, other);
        }
    }
    return 0;
}
