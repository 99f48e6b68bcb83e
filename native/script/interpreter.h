// The script interpreter: Bitcoin Core's EvalScript / VerifyScript (script/interpreter.cpp),
// written from the BIPs and Core's behaviour, with signature checks behind an interface so that
// they can be verified later, in batches (see SignatureChecker and script_checks.h).
//
// Conventions follow Core: a stack element is a byte vector (bottom of the stack first); a
// script is its serialized bytes; every failure sets a ScriptError and returns false.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "crypto/sha256.h"

namespace ibd {

using StackElement = std::vector<uint8_t>;
using Stack = std::vector<StackElement>;

/** Script verification flags. Bit values equal Core's SCRIPT_VERIFY_* (script/interpreter.h),
 *  so flag strings of Core's test vectors map one to one. Consensus flags by height are chosen
 *  by GetBlockScriptVerifyFlags (consensus_flags.h); the others are policy, used only by the test vectors. */
enum ScriptVerifyFlag : uint32_t {
    SCRIPT_VERIFY_NONE = 0,
    SCRIPT_VERIFY_P2SH = 1U << 0,                    // BIP16
    SCRIPT_VERIFY_STRICTENC = 1U << 1,               // policy: key and hash_type encodings
    SCRIPT_VERIFY_DERSIG = 1U << 2,                  // BIP66
    SCRIPT_VERIFY_LOW_S = 1U << 3,                   // policy: BIP62 rule 5
    SCRIPT_VERIFY_NULLDUMMY = 1U << 4,               // BIP147 (consensus with segwit)
    SCRIPT_VERIFY_SIGPUSHONLY = 1U << 5,             // policy: BIP62 rule 2
    SCRIPT_VERIFY_MINIMALDATA = 1U << 6,             // policy: BIP62 rules 3 and 4
    SCRIPT_VERIFY_DISCOURAGE_UPGRADABLE_NOPS = 1U << 7,
    SCRIPT_VERIFY_CLEANSTACK = 1U << 8,              // policy (consensus inside witness scripts)
    SCRIPT_VERIFY_CHECKLOCKTIMEVERIFY = 1U << 9,     // BIP65
    SCRIPT_VERIFY_CHECKSEQUENCEVERIFY = 1U << 10,    // BIP112
    SCRIPT_VERIFY_WITNESS = 1U << 11,                // BIP141, BIP143
    SCRIPT_VERIFY_DISCOURAGE_UPGRADABLE_WITNESS_PROGRAM = 1U << 12,
    SCRIPT_VERIFY_MINIMALIF = 1U << 13,              // policy (consensus in tapscript)
    SCRIPT_VERIFY_NULLFAIL = 1U << 14,               // policy: BIP146
    SCRIPT_VERIFY_WITNESS_PUBKEYTYPE = 1U << 15,     // policy: compressed keys in segwit v0
    SCRIPT_VERIFY_CONST_SCRIPTCODE = 1U << 16,       // policy: no OP_CODESEPARATOR / FindAndDelete hits
    SCRIPT_VERIFY_TAPROOT = 1U << 17,                // BIP341, BIP342
    SCRIPT_VERIFY_DISCOURAGE_UPGRADABLE_TAPROOT_VERSION = 1U << 18,
    SCRIPT_VERIFY_DISCOURAGE_OP_SUCCESS = 1U << 19,
    SCRIPT_VERIFY_DISCOURAGE_UPGRADABLE_PUBKEYTYPE = 1U << 20,
};

/** Why a script failed (Core's ScriptError_t, script/script_error.h). ScriptErrorName gives
 *  the name used by Core's test vectors ("OK", "EVAL_FALSE", "SIG_DER", ...). */
enum class ScriptError {
    OK = 0, UNKNOWN_ERROR, EVAL_FALSE, OP_RETURN,
    // Max sizes
    SCRIPT_SIZE, PUSH_SIZE, OP_COUNT, STACK_SIZE, SIG_COUNT, PUBKEY_COUNT,
    // Failed verify operations
    VERIFY, EQUALVERIFY, CHECKMULTISIGVERIFY, CHECKSIGVERIFY, NUMEQUALVERIFY,
    // Logical / format / canonical errors
    BAD_OPCODE, DISABLED_OPCODE, INVALID_STACK_OPERATION, INVALID_ALTSTACK_OPERATION,
    UNBALANCED_CONDITIONAL,
    // CHECKLOCKTIMEVERIFY and CHECKSEQUENCEVERIFY
    NEGATIVE_LOCKTIME, UNSATISFIED_LOCKTIME,
    // Malleability
    SIG_HASHTYPE, SIG_DER, MINIMALDATA, SIG_PUSHONLY, SIG_HIGH_S, SIG_NULLDUMMY, PUBKEYTYPE,
    CLEANSTACK, MINIMALIF, SIG_NULLFAIL,
    // Softfork safeness
    DISCOURAGE_UPGRADABLE_NOPS, DISCOURAGE_UPGRADABLE_WITNESS_PROGRAM,
    DISCOURAGE_UPGRADABLE_TAPROOT_VERSION, DISCOURAGE_OP_SUCCESS, DISCOURAGE_UPGRADABLE_PUBKEYTYPE,
    // Segregated witness
    WITNESS_PROGRAM_WRONG_LENGTH, WITNESS_PROGRAM_WITNESS_EMPTY, WITNESS_PROGRAM_MISMATCH,
    WITNESS_MALLEATED, WITNESS_MALLEATED_P2SH, WITNESS_UNEXPECTED, WITNESS_PUBKEYTYPE,
    // Taproot
    SCHNORR_SIG_SIZE, SCHNORR_SIG_HASHTYPE, SCHNORR_SIG, TAPROOT_WRONG_CONTROL_SIZE,
    TAPSCRIPT_VALIDATION_WEIGHT, TAPSCRIPT_CHECKMULTISIG, TAPSCRIPT_MINIMALIF,
    // Constant scriptCode
    OP_CODESEPARATOR, SIG_FINDANDDELETE,
    ERROR_COUNT
};
/** "OK", "EVAL_FALSE", ...: the ScriptError's name without Core's SCRIPT_ERR_ prefix, as
 *  written in script_tests.json. */
const char* ScriptErrorName(ScriptError err);

/** Which rules a script runs under (Core's SigVersion). */
enum class SigVersion {
    BASE,        // legacy scripts and P2SH redeem scripts: legacy sighash, FindAndDelete
    WITNESS_V0,  // P2WPKH / P2WSH: BIP143 sighash
    TAPROOT,     // key path: BIP341 sighash (no script runs)
    TAPSCRIPT,   // BIP342 leaf version 0xc0
};

/** Per-input state of a taproot spend that the signature message and tapscript need (Core's
 *  ScriptExecutionData). Each field is valid only when its *_init flag is set. */
struct ScriptExecutionData {
    bool tapleaf_hash_init = false;
    Hash32 tapleaf_hash{};               // BIP341 tapleaf hash of the executing script
    bool codeseparator_pos_init = false;
    uint32_t codeseparator_pos = 0xffffffff;  // opcode position of the last executed OP_CODESEPARATOR
    bool annex_init = false;
    bool annex_present = false;
    Hash32 annex_hash{};                 // SHA256(CompactSize(len) || annex) when present
    bool validation_weight_left_init = false;
    int64_t validation_weight_left = 0;  // BIP342: budget of 50 per signature check
};

/** Core's CScriptNum: script numbers are little-endian sign-magnitude byte vectors of at most
 *  `max_size` bytes (4 for arithmetic, 5 for CLTV/CSV), results kept in int64. */
class ScriptNum {
public:
    explicit ScriptNum(int64_t n) : value_(n) {}
    /** Decodes `bytes`; returns false (SCRIPT_ERR_UNKNOWN_ERROR in Core, an exception there)
     *  when longer than `max_size` or, with `require_minimal`, not minimally encoded. */
    static bool Decode(const StackElement& bytes, bool require_minimal, size_t max_size, ScriptNum& out);
    int64_t value() const { return value_; }
    /** Clamped to int32 (Core's getint). */
    int32_t getint() const;
    /** Minimal encoding (Core's CScriptNum::serialize). */
    StackElement serialize() const;

private:
    int64_t value_;
};

/** What the interpreter asks of the transaction being validated. Default: every check fails
 *  (Core's BaseSignatureChecker), which is right for a scriptPubKey evaluated without one.
 *  `sig` includes its hash_type byte (ECDSA) or has 64/65 bytes (Schnorr); `script_code` is the
 *  scriptCode as Core passes it to CheckECDSASignature (for BASE, FindAndDelete of the
 *  signature is already applied by the interpreter). */
class SignatureChecker {
public:
    virtual ~SignatureChecker() = default;
    virtual bool CheckECDSASignature(const StackElement& sig, const StackElement& pubkey,
                                     const std::vector<uint8_t>& script_code, SigVersion sigversion) const;
    virtual bool CheckSchnorrSignature(const StackElement& sig, const StackElement& pubkey32,
                                       SigVersion sigversion, const ScriptExecutionData& execdata,
                                       ScriptError* serror) const;
    virtual bool CheckLockTime(const ScriptNum& lock_time) const;
    virtual bool CheckSequence(const ScriptNum& sequence) const;
};

/** Core's limits (script/script.h, script/interpreter.h). */
constexpr int kMaxOpsPerScript = 201;          // non-push opcodes, BASE and WITNESS_V0 only
constexpr int kMaxPubkeysPerMultisig = 20;
constexpr int64_t kValidationWeightPerSigopPassed = 50;  // BIP342 "Resource limits"
constexpr int64_t kValidationWeightOffset = 50;          // BIP342: budget = witness size + 50

/** BIP342 OP_SUCCESSx: 80, 98, 126-129, 131-134, 137-138, 141-142, 149-153, 187-254. */
bool IsOpSuccess(uint8_t opcode);

/** Core's CheckMinimalPush (BIP62 rule 3): `opcode` (<= OP_PUSHDATA4) is the shortest way to
 *  push `len` bytes of `data`; a single byte 1..16 or 0x81 needs OP_1..OP_16 / OP_1NEGATE. */
bool CheckMinimalPush(const uint8_t* data, size_t len, uint8_t opcode);

/** Core's CScript::IsPushOnly: every opcode parses and is <= OP_16 (OP_RESERVED included). */
bool IsPushOnly(const std::vector<uint8_t>& script);

/** Core's CheckSignatureEncoding (ECDSA, hash_type byte included): the empty signature passes;
 *  DERSIG / LOW_S / STRICTENC require strict DER (BIP66, SIG_DER); LOW_S requires S <= n/2
 *  (SIG_HIGH_S); STRICTENC requires hash_type & ~0x80 in 1..3 (SIG_HASHTYPE). */
bool CheckSignatureEncoding(const StackElement& sig, uint32_t flags, ScriptError* serror);

/** Core's CheckPubKeyEncoding: STRICTENC requires a 33-byte 02/03 or 65-byte 04 key
 *  (PUBKEYTYPE); WITNESS_PUBKEYTYPE requires a 33-byte 02/03 key in WITNESS_V0
 *  (WITNESS_PUBKEYTYPE). */
bool CheckPubKeyEncoding(const StackElement& pubkey, uint32_t flags, SigVersion sigversion, ScriptError* serror);

/** Core's EvalScript: runs `script` on `stack` under `flags` and `sigversion` (BASE,
 *  WITNESS_V0 or TAPSCRIPT). Returns false and sets *serror on failure. Limits: script size
 *  10,000 bytes (not for tapscript), element 520 bytes, 201 non-push opcodes (not for
 *  tapscript), stack + altstack 1,000 elements. */
bool EvalScript(Stack& stack, const std::vector<uint8_t>& script, uint32_t flags, const SignatureChecker& checker,
                SigVersion sigversion, ScriptExecutionData& execdata, ScriptError* serror);

/** Core's VerifyScript: scriptSig, then scriptPubKey, then (P2SH) the redeem script, then the
 *  witness program (BIP141 v0; BIP341/342 v1 32-byte programs under TAPROOT, including the
 *  control block, the taproot commitment and the annex), then CLEANSTACK. `witness` may be
 *  null for a transaction without witnesses. Returns false and sets *serror on failure. */
bool VerifyScript(const std::vector<uint8_t>& script_sig, const std::vector<uint8_t>& script_pubkey,
                  const Stack* witness, uint32_t flags, const SignatureChecker& checker, ScriptError* serror);

}  // namespace ibd
