// Signature checks of a transaction input, as the interpreter asks for them: the sighash is
// computed here, and each verification Core would perform is handed to a CheckSink, which
// either verifies it at once (tests, test vectors) or records it for a batch and answers with
// a verdict known from an earlier round or a prediction (the block pipeline, BlockValidation in validation/block_validation.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "primitives/transaction.h"
#include "script/interpreter.h"
#include "script/sighash.h"
#include "verify/check_buffer.h"

namespace ibd {

/** Receives every signature verification the interpreter reaches (Core's calls to
 *  CPubKey::Verify and XOnlyPubKey::VerifySchnorr), as a check record's fields
 *  (check_buffer.h): ECDSA `sig` without its hash_type byte, Schnorr `sig` of 64 bytes.
 *  Returns the verdict the script continues with. */
class CheckSink {
public:
    virtual ~CheckSink() = default;
    virtual bool Check(CheckType type, const Hash32& msg, const uint8_t* pubkey, size_t pubkey_len,
                       const uint8_t* sig, size_t sig_len) = 0;
};

/** Verifies each check at once with VerifyBatch on a one-record buffer (same code path as the
 *  batches), counting them. For tests and the transaction test vectors. */
class ImmediateSink : public CheckSink {
public:
    bool Check(CheckType type, const Hash32& msg, const uint8_t* pubkey, size_t pubkey_len,
               const uint8_t* sig, size_t sig_len) override;
    uint32_t checks = 0;
};

/** Memo of one input's signature hashes, kept by BlockValidation across the re-evaluations of
 *  that input (each round re-runs the input's script from the start and asks again for the
 *  sighash of every earlier check). A sighash of one input is a function of
 *    (kind, hash_type, data)
 *  where kind is 0 legacy (BASE), 1 BIP143 (WITNESS_V0), 2 BIP341 key path, 3 BIP342 tapscript,
 *  and data is the scriptCode as passed to the sighash (legacy: after FindAndDelete) for kinds
 *  0/1, and tapleaf_hash | codesep_pos | annex presence | sha_annex for kinds 2/3. Entries are
 *  found by a fingerprint and confirmed by comparing all of `data`, so a hit is exact. The
 *  bytes stored are charged to `*budget` (shared by all memos of a block); once it is spent, new
 *  sighashes are computed and not stored (still correct, only slower). */
class SighashMemo {
public:
    explicit SighashMemo(size_t* budget) : budget_(budget) {}
    ~SighashMemo();
    SighashMemo(const SighashMemo&) = delete;
    SighashMemo& operator=(const SighashMemo&) = delete;
    const Hash32* Find(uint8_t kind, uint32_t hash_type, const uint8_t* data, size_t len) const;
    void Insert(uint8_t kind, uint32_t hash_type, const uint8_t* data, size_t len, const Hash32& sighash);
    /** Sighashes computed by checkers using this memo (misses). */
    uint32_t computed = 0;
    /** Nanoseconds those computations took (steady clock, util/stage_times.h), in all and
     *  by kind ([0] legacy, [1] BIP143, [2] BIP341, as SighashCounts). */
    int64_t sighash_ns = 0;
    int64_t sighash_kind_ns[3] = {0, 0, 0};
    /** Where those computations are also counted by kind, with their message bytes (null:
     *  not counted). */
    SighashCounts* counts = nullptr;

private:
    struct Entry {
        uint8_t kind;
        uint32_t hash_type;
        std::vector<uint8_t> data;
        Hash32 sighash;
    };
    static uint64_t Fingerprint(uint8_t kind, uint32_t hash_type, const uint8_t* data, size_t len);
    std::vector<Entry> entries_;
    std::unordered_multimap<uint64_t, uint32_t> index_;
    size_t* budget_;
    size_t charged_ = 0;
};

/** Core's GenericTransactionSignatureChecker for input `n_in` of `tx` spending `amount`
 *  satoshis, over the precomputed hashes `pre`:
 *   - CheckECDSASignature: empty sig -> false; hash_type = last byte; sighash legacy (BASE) or
 *     BIP143 (WITNESS_V0); then one sink check.
 *   - CheckSchnorrSignature (BIP341 key path, BIP342 tapscript with ext_flag 1: tapleaf_hash,
 *     key_version 0x00, codesep_pos): 64 bytes = SIGHASH_DEFAULT, 65 bytes with a hash_type
 *     byte other than 0x00, else SCHNORR_SIG_SIZE / SCHNORR_SIG_HASHTYPE; a failed sink check
 *     sets SCHNORR_SIG.
 *   - CheckLockTime (BIP65), CheckSequence (BIP112) against tx and its input.
 *  Objects passed by reference must outlive the checker. With `memo` (optional), sighashes are
 *  looked up there first and stored there when computed (SighashMemo). */
class TransactionSignatureChecker : public SignatureChecker {
public:
    TransactionSignatureChecker(const Transaction& tx, size_t n_in, int64_t amount, const PrecomputedTxData& pre,
                                CheckSink& sink, SighashMemo* memo = nullptr)
        : tx_(tx), n_in_(n_in), amount_(amount), pre_(pre), sink_(sink), memo_(memo) {}
    bool CheckECDSASignature(const StackElement& sig, const StackElement& pubkey,
                             const std::vector<uint8_t>& script_code, SigVersion sigversion) const override;
    bool CheckSchnorrSignature(const StackElement& sig, const StackElement& pubkey32, SigVersion sigversion,
                               const ScriptExecutionData& execdata, ScriptError* serror) const override;
    bool CheckLockTime(const ScriptNum& lock_time) const override;
    bool CheckSequence(const ScriptNum& sequence) const override;

private:
    const Transaction& tx_;
    size_t n_in_;
    int64_t amount_;
    const PrecomputedTxData& pre_;
    CheckSink& sink_;
    SighashMemo* memo_;
};

}  // namespace ibd
