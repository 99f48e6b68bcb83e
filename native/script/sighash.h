// Signature hashes: the message each signature commits to.
//   - legacy:  Core's SignatureHash for SigVersion::BASE (script/interpreter.cpp), the original
//              transaction-copy algorithm including its SIGHASH_SINGLE bug;
//   - BIP143:  segwit v0 (SigVersion::WITNESS_V0), "Specification";
//   - BIP341:  taproot key path, "Common signature message" with ext_flag 0, hashed as
//              hash_TapSighash(0x00 || SigMsg);
//   - BIP342:  tapscript, the same message with ext_flag 1 and its extension ("Signature
//              validation": tapleaf_hash, key_version, codesep_pos). Core's SignatureHashSchnorr.
// Precomputed per-transaction hashes follow Core's PrecomputedTransactionData.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "crypto/sha256.h"
#include "primitives/transaction.h"

namespace ibd {

/** Hash types (Core's script/interpreter.h; BIP341 adds SIGHASH_DEFAULT). */
enum SigHashType : uint8_t {
    SIGHASH_DEFAULT = 0x00,       // BIP341 only: a 64-byte Schnorr signature; behaves as ALL
    SIGHASH_ALL = 0x01,
    SIGHASH_NONE = 0x02,
    SIGHASH_SINGLE = 0x03,
    SIGHASH_ANYONECANPAY = 0x80,
    SIGHASH_OUTPUT_MASK = 0x03,   // BIP341: the output part of hash_type
    SIGHASH_INPUT_MASK = 0x80,    // BIP341: the input part of hash_type
};

/** What a transaction's legacy sighashes (SigVersion::BASE) share, computed once per
 *  transaction instead of once per input: Core hashes the whole serialization for every input
 *  (SignatureHash), so n inputs cost O(n * size), the quadratic hashing of block 364,292. With
 *  type = hash_type & 0x1f and not ANYONECANPAY, input n_in's serialization
 *  (SignatureHashLegacy) is
 *    PREFIX(n_in) | scriptCode | nSequence_n_in (4) | TAIL(n_in) | hash_type (4)
 *    PREFIX(n_in) = nVersion (4) | input count | for k < n_in: BLANKED(k) | prevout_n_in (36)
 *    BLANKED(k)   = prevout_k (36) | 0x00 (empty script) | nSequence_k (4; 0 when type is NONE
 *                   or SINGLE)                                              41 bytes
 *    TAIL(n_in)   = for k > n_in: BLANKED(k) | the outputs part | nLockTime (4)
 *  PREFIX(n_in + 1) extends PREFIX(n_in) by 41 bytes, and, for the types that keep nSequence and
 *  every output (ALL, and any type other than NONE and SINGLE), PREFIX and TAIL are slices of one
 *  byte string: the transaction serialized with every scriptSig emptied (`Blanked`). So:
 *    - the SHA-256 state after PREFIX(n_in) is kept per input order: a running state (cursor)
 *      and a checkpoint every kCheckpointEvery inputs, one such stream with nSequence kept and
 *      one zeroed. Inputs asked for in order (as a block's evaluation asks) cost 41 bytes each;
 *      any other order at most kCheckpointEvery * 41 bytes from the nearest checkpoint;
 *    - TAIL(n_in) of the types that keep nSequence and every output is hashed straight from the
 *      blanked serialization, in one write.
 *  What stays per input (SHA-256 shares no suffix): scriptCode, TAIL, hash_type. Memory: the
 *  blanked serialization (at most the transaction's size) and 2 * (inputs / 16 + 1) states of
 *  104 bytes. Results are byte-identical to streaming the serialization (tests:
 *  tests/native/script/core_sighash_test.cpp). Not thread-safe: one per transaction per thread
 *  (an engine instance is one thread). */
class LegacySighashCache {
public:
    static constexpr size_t kCheckpointEvery = 16;

    /** Binds the cache to `tx`; a cache met with another transaction than before starts over. */
    void Bind(const Transaction& tx);
    /** The SHA-256 state after PREFIX(n_in) (n_in < vin.size() of the bound tx). Adds the
     *  bytes it hashed to get there (from its cursor or a checkpoint) to `*hashed` when given. */
    Sha256 Prefix(size_t n_in, bool zero_sequences, size_t* hashed = nullptr);
    /** TAIL(n_in) with nSequence kept and every output: a slice of the blanked serialization. */
    const uint8_t* Tail(size_t n_in, size_t& len);
    /** Bytes of `tx`'s outputs as the legacy serialization writes them (their count, then each
     *  CTxOut), computed once per transaction (binds the cache to `tx`). */
    size_t OutputsSize(const Transaction& tx);

private:
    struct Stream {
        std::vector<Sha256> checkpoints;  // [c] = state after PREFIX(c * kCheckpointEvery)
        Sha256 cursor;                    // state after PREFIX(cursor_at)
        size_t cursor_at = SIZE_MAX;      // SIZE_MAX: no cursor yet
    };
    void EnsureBlanked();
    Stream streams_[2];  // [0] nSequence kept, [1] zeroed (NONE, SINGLE)
    std::vector<uint8_t> blanked_;  // the tx with every scriptSig emptied (nSequence kept)
    size_t first_input_ = 0;        // offset of BLANKED(0) in blanked_
    const Transaction* tx_ = nullptr;
    size_t outputs_size_ = SIZE_MAX;  // OutputsSize, SIZE_MAX until asked
};

/** Core's PrecomputedTransactionData: the per-transaction hashes shared by all inputs.
 *  BIP341 ("Common signature message"), single SHA-256:
 *    sha_prevouts      SHA256 of every input's outpoint (36 bytes each)
 *    sha_amounts       SHA256 of every spent output's value (8 bytes LE each)
 *    sha_scriptpubkeys SHA256 of every spent scriptPubKey (CompactSize length + bytes each)
 *    sha_sequences     SHA256 of every input's nSequence (4 bytes LE each)
 *    sha_outputs       SHA256 of every output (CTxOut serialization)
 *  BIP143 ("Specification", items 2, 3, 8), double SHA-256 = SHA256 of the single hashes:
 *    hashPrevouts = SHA256(sha_prevouts), hashSequence = SHA256(sha_sequences),
 *    hashOutputs = SHA256(sha_outputs). */
struct PrecomputedTxData {
    Hash32 sha_prevouts{}, sha_sequences{}, sha_outputs{};  // BIP341 + BIP143 base
    Hash32 sha_amounts{}, sha_scriptpubkeys{};              // BIP341 only (need spent outputs)
    Hash32 hash_prevouts{}, hash_sequence{}, hash_outputs{};  // BIP143
    bool bip143_ready = false;
    bool bip341_ready = false;
    /** Spent output of each input (BIP341 ANYONECANPAY needs this input's one). */
    std::vector<const SpentOutput*> spent;
    /** What the legacy sighashes of the transaction share, filled as SignatureHashLegacy asks
     *  (mutable: a cache behind the const references the signature checker holds). */
    mutable LegacySighashCache legacy;

    /** Computes what `need_bip143` / `need_bip341` ask for. `spent` must have one entry per
     *  input of `tx` when `need_bip341` (throws Error otherwise); it is kept by pointer, so the
     *  SpentOutputs must outlive this object. */
    void Init(const Transaction& tx, std::vector<const SpentOutput*> spent, bool need_bip143, bool need_bip341);
};

/** The legacy sighash (Core's SignatureHash with SigVersion::BASE). SHA256d of:
 *    nVersion (4) | input count | inputs | output count | outputs | nLockTime (4) | hash_type (4,
 *    the int32 as given, LE)
 *  where, with type = hash_type & 0x1f (Core's CTransactionSignatureSerializer):
 *    inputs:  all, or only input n_in when hash_type & ANYONECANPAY; each is prevout (36), then
 *             for n_in the scriptCode with every OP_CODESEPARATOR removed (Core's
 *             SerializeScriptCode, CompactSize length first), for the others an empty script;
 *             then nSequence, or 0 for the others when type is NONE or SINGLE;
 *    outputs: none for NONE; for SINGLE, n_in + 1 outputs of which all but the last are
 *             CTxOut() (value -1, empty script); all outputs otherwise.
 *  Returns uint256::ONE (byte 0 = 1, the rest 0) when type is SINGLE and n_in >= vout.size()
 *  (the "SIGHASH_SINGLE bug"), or when n_in >= vin.size(). `script_code` is the script from
 *  the last executed OP_CODESEPARATOR on, with FindAndDelete already applied by the caller. */
Hash32 SignatureHashLegacy(const std::vector<uint8_t>& script_code, const Transaction& tx, size_t n_in,
                           int32_t hash_type);
/** The same, with what the transaction's inputs share taken from `pre.legacy`
 *  (LegacySighashCache); `pre` belongs to `tx`. Byte-identical results. Adds the bytes this call
 *  fed to SHA-256 (before the second SHA-256 of SHA256d; less than the message's size when the
 *  cache had part of it) to `*hashed` when given. */
Hash32 SignatureHashLegacy(const std::vector<uint8_t>& script_code, const Transaction& tx, size_t n_in,
                           int32_t hash_type, const PrecomputedTxData& pre, size_t* hashed = nullptr);

/** The BIP143 sighash (Core's SignatureHash with SigVersion::WITNESS_V0). SHA256d of:
 *    nVersion (4) | hashPrevouts (32) | hashSequence (32) | outpoint (36) | scriptCode
 *    (CompactSize + bytes) | amount (8) | nSequence (4) | hashOutputs (32) | nLockTime (4) |
 *    hash_type (4, LE)
 *  hashPrevouts is zero with ANYONECANPAY; hashSequence is zero with ANYONECANPAY, SINGLE or
 *  NONE; hashOutputs is SHA256d(vout[n_in]) for SINGLE with n_in < vout.size(), zero for NONE
 *  or SINGLE otherwise (types compared as hash_type & 0x1f). `pre` must be bip143_ready.
 *  For P2WPKH the scriptCode is 76 a9 14 <20-byte key hash> 88 ac (BIP143 "Specification").
 *  Requires n_in < vin.size(). */
Hash32 SignatureHashWitnessV0(const std::vector<uint8_t>& script_code, const Transaction& tx, size_t n_in,
                              int32_t hash_type, int64_t amount, const PrecomputedTxData& pre);

/** Writes 0x00 (epoch) || SigMsg(hash_type, ext_flag = 0) of BIP341 "Common signature message"
 *  to `out` (replacing its contents) for a key-path spend of input n_in:
 *    hash_type (1) | nVersion (4) | nLockTime (4)
 *    | [not ANYONECANPAY] sha_prevouts, sha_amounts, sha_scriptpubkeys, sha_sequences (32 each)
 *    | [output type ALL (or DEFAULT)] sha_outputs (32)
 *    | spend_type (1) = annex present ? 1 : 0
 *    | [ANYONECANPAY] outpoint (36), amount (8), scriptPubKey (CompactSize + bytes), nSequence (4)
 *    | [otherwise] input_index (4)
 *    | [annex present] sha_annex = SHA256(CompactSize(annex size) || annex) (32)
 *    | [SINGLE] sha_single_output = SHA256(vout[n_in] serialized) (32)
 *  Returns false (Core's SignatureHashSchnorr failure, SCRIPT_ERR_SCHNORR_SIG_HASHTYPE) when
 *  hash_type is not one of 0x00-0x03, 0x81-0x83, or is SINGLE with n_in >= vout.size().
 *  `annex` is null when absent, else the whole annex including its 0x50 tag. `pre` must be
 *  bip341_ready. Requires n_in < vin.size(). */
bool TaprootSigMsg(const Transaction& tx, size_t n_in, uint8_t hash_type, const PrecomputedTxData& pre,
                   const std::vector<uint8_t>* annex, std::vector<uint8_t>& out);

/** The BIP341 sighash: hash_TapSighash(0x00 || SigMsg) (the tagged hash of TaprootSigMsg's
 *  output), streamed without building the message. Same failure cases as TaprootSigMsg. */
bool SignatureHashTaproot(const Transaction& tx, size_t n_in, uint8_t hash_type, const PrecomputedTxData& pre,
                          const std::vector<uint8_t>* annex, Hash32& out);

/** BIP342 "Signature validation": the data a tapscript signature adds to SigMsg (ext_flag 1).
 *  The extension is tapleaf_hash (32) | key_version (1, always 0x00 for 32-byte keys) |
 *  codesep_pos (4, LE). */
struct TapscriptSigExt {
    Hash32 tapleaf_hash{};           // BIP341 tapleaf hash of the leaf being executed
    uint32_t codesep_pos = 0xffffffff;  // opcode position of the last executed OP_CODESEPARATOR,
                                        // 0xffffffff when none was executed
};

/** sha_annex of BIP341: SHA256(CompactSize(annex size) || annex), `annex` including its 0x50
 *  tag (Core's ScriptExecutionData::m_annex_hash). */
Hash32 AnnexHash(const std::vector<uint8_t>& annex);

/** Writes 0x00 (epoch) || SigMsg(hash_type, ext_flag) || ext to `out` (replacing its contents):
 *  TaprootSigMsg's layout, with the annex given by its precomputed hash (`sha_annex`, null when
 *  there is no annex) and, when `ext` is not null, ext_flag = 1: spend_type = ext_flag * 2 +
 *  annex_present = 2 or 3, and the BIP342 extension appended after the whole SigMsg. With `ext`
 *  null this is exactly the key-path message (ext_flag 0). Same failure cases as
 *  TaprootSigMsg. Requires n_in < vin.size(); `pre` must be bip341_ready. */
bool TaprootSigMsgExt(const Transaction& tx, size_t n_in, uint8_t hash_type, const PrecomputedTxData& pre,
                      const Hash32* sha_annex, const TapscriptSigExt* ext, std::vector<uint8_t>& out);

/** Core's SignatureHashSchnorr: hash_TapSighash of TaprootSigMsgExt's output, streamed.
 *  `ext` null = SigVersion::TAPROOT (key path), else SigVersion::TAPSCRIPT. */
bool SignatureHashSchnorr(const Transaction& tx, size_t n_in, uint8_t hash_type, const PrecomputedTxData& pre,
                          const Hash32* sha_annex, const TapscriptSigExt* ext, Hash32& out);

/** Sighashes computed and the bytes of their messages, by kind: [0] legacy, [1] BIP143,
 *  [2] BIP341 (key path and BIP342 tapscript). Bytes: the message sizes of sighash.h
 *  (LegacySighashMessageSize, WitnessV0SighashMessageSize, TaprootSighashMessageSize). */
struct SighashCounts {
    uint32_t count[3] = {0, 0, 0};
    uint64_t bytes[3] = {0, 0, 0};
    /** The bytes this engine fed to SHA-256 for them: the message bytes, less, for legacy
     *  sighashes, what LegacySighashCache already held (the engine's own cost, for the cost
     *  model; Core hashes the whole message). */
    uint64_t hashed[3] = {0, 0, 0};
};

/** The legacy sighash's message (Core's SignatureHash with SigVersion::BASE: the bytes whose
 *  SHA256d is SignatureHashLegacy's result, layout above) into `out`, replaced. Returns false,
 *  `out` empty, where Core hashes nothing and returns uint256::ONE (n_in >= vin.size(), or the
 *  SIGHASH_SINGLE bug). For tests and the size functions below. */
bool LegacySighashMessage(const std::vector<uint8_t>& script_code, const Transaction& tx, size_t n_in,
                          int32_t hash_type, std::vector<uint8_t>& out);

/** Message sizes, for the workload report (BlockResult::sighash_bytes): the bytes of the
 *  message whose hash is the sighash, as Core serializes it (the layouts above), in bytes,
 *  by arithmetic, without serializing: O(1) after a per-transaction pass over the outputs.
 *  The one-output hash SINGLE adds (BIP143 hashOutputs, BIP341 sha_single_output) and the
 *  second SHA-256 of SHA256d are not counted. 0 where nothing is hashed (the legacy
 *  uint256::ONE cases; a BIP341 hash_type or SINGLE failure).
 *  Legacy: LegacySighashMessage's size; `pre` belongs to `tx` (its outputs' size is kept in
 *  pre.legacy). */
size_t LegacySighashMessageSize(const std::vector<uint8_t>& script_code, const Transaction& tx, size_t n_in,
                                int32_t hash_type, const PrecomputedTxData& pre);
/** BIP143: 156 bytes plus the scriptCode with its CompactSize length. */
size_t WitnessV0SighashMessageSize(const std::vector<uint8_t>& script_code);
/** BIP341 (epoch byte included) and, with `tapscript`, BIP342's 37-byte extension:
 *  TaprootSigMsgExt's size. `pre` must hold the spent outputs (ANYONECANPAY reads this
 *  input's). Requires n_in < vin.size(). */
size_t TaprootSighashMessageSize(const Transaction& tx, size_t n_in, uint8_t hash_type, const PrecomputedTxData& pre,
                                 bool have_annex, bool tapscript);
/** Bytes PrecomputedTxData::Init hashes for `tx` with these needs: prevouts (36 each),
 *  sequences (4 each) and outputs (CTxOut each) once, BIP143's second SHA-256 of three 32-byte
 *  hashes, BIP341's amounts (8 each) and spent scriptPubKeys (CompactSize + bytes each). */
size_t PrecomputeBytes(const Transaction& tx, const std::vector<const SpentOutput*>& spent, bool need_bip143,
                       bool need_bip341);

}  // namespace ibd
