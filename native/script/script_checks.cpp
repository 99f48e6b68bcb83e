// Implementation of script_checks.h: Core's GenericTransactionSignatureChecker
// (script/interpreter.cpp) over this engine's sighash functions, with every signature
// verification handed to a CheckSink.
#include "script/script_checks.h"

#include <cstring>

#include "primitives/serialize.h"
#include "util/stage_times.h"
#include "verify/batch_verify.h"

namespace ibd {

namespace {

/** BIP65 / Core's LOCKTIME_THRESHOLD: nLockTime below it is a block height, else a UNIX time. */
constexpr int64_t kLocktimeThreshold = 500000000;
/** Core's CTxIn::SEQUENCE_FINAL: an input with it opts out of nLockTime (BIP65). */
constexpr uint32_t kSequenceFinal = 0xffffffff;
/** BIP68 / BIP112 nSequence fields (Core's CTxIn::SEQUENCE_LOCKTIME_*). */
constexpr uint32_t kSequenceLocktimeDisableFlag = 1U << 31;  // relative lock time disabled
constexpr uint32_t kSequenceLocktimeTypeFlag = 1U << 22;     // set: units of 512 s; clear: blocks
constexpr uint32_t kSequenceLocktimeMask = 0x0000ffff;       // the lock-time value

/** Core's CPubKey::GetLen applied to the first byte, then CPubKey::IsValid: 33 bytes for
 *  0x02/0x03, 65 for 0x04/0x06/0x07, and the key must have exactly that size. */
bool IsValidPubKeySize(const StackElement& pubkey) {
    if (pubkey.empty()) return false;
    const uint8_t header = pubkey[0];
    size_t expected = 0;
    if (header == 0x02 || header == 0x03) expected = 33;
    if (header == 0x04 || header == 0x06 || header == 0x07) expected = 65;
    return expected != 0 && pubkey.size() == expected;
}

/** Exact byte comparison, 8 bytes at a time (the wasm libc's memcmp goes byte by byte). */
bool BytesEqual(const uint8_t* a, const uint8_t* b, size_t n) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x = 0, y = 0;
        std::memcpy(&x, a + i, 8);
        std::memcpy(&y, b + i, 8);
        if (x != y) return false;
    }
    for (; i < n; ++i) {
        if (a[i] != b[i]) return false;
    }
    return true;
}

/** Bytes charged to the budget per memo entry besides its data. */
constexpr size_t kMemoEntryOverhead = 96;

}  // namespace

SighashMemo::~SighashMemo() {
    if (budget_ != nullptr) *budget_ += charged_;
}

uint64_t SighashMemo::Fingerprint(uint8_t kind, uint32_t hash_type, const uint8_t* data, size_t len) {
    // Kind, hash type, length and up to 16 bytes from each end (FNV-1a): cheap, and a
    // collision only costs a comparison (Find compares all bytes).
    uint64_t h = 1469598103934665603ULL;
    auto mix = [&h](uint64_t v) {
        h ^= v;
        h *= 1099511628211ULL;
    };
    mix(kind);
    mix(hash_type);
    mix(len);
    const size_t head = len < 16 ? len : 16;
    for (size_t i = 0; i < head; ++i) mix(data[i]);
    for (size_t i = len - head; i < len; ++i) mix(data[i]);
    return h;
}

const Hash32* SighashMemo::Find(uint8_t kind, uint32_t hash_type, const uint8_t* data, size_t len) const {
    const auto range = index_.equal_range(Fingerprint(kind, hash_type, data, len));
    for (auto it = range.first; it != range.second; ++it) {
        const Entry& e = entries_[it->second];
        if (e.kind == kind && e.hash_type == hash_type && e.data.size() == len &&
            (len == 0 || BytesEqual(e.data.data(), data, len))) {
            return &e.sighash;
        }
    }
    return nullptr;
}

void SighashMemo::Insert(uint8_t kind, uint32_t hash_type, const uint8_t* data, size_t len, const Hash32& sighash) {
    const size_t cost = len + kMemoEntryOverhead;
    if (budget_ != nullptr) {
        if (*budget_ < cost) return;
        *budget_ -= cost;
        charged_ += cost;
    }
    index_.emplace(Fingerprint(kind, hash_type, data, len), static_cast<uint32_t>(entries_.size()));
    entries_.push_back(Entry{kind, hash_type, std::vector<uint8_t>(data, data + len), sighash});
}

bool ImmediateSink::Check(CheckType type, const Hash32& msg, const uint8_t* pubkey, size_t pubkey_len,
                          const uint8_t* sig, size_t sig_len) {
    ++checks;
    // A record cannot carry these lengths (check_buffer.h: pubkey_len is one byte, sig_len two);
    // no such key or signature can verify anyway.
    if (pubkey_len > 0xff || sig_len > 0xffff) return false;
    // One record laid out as check_buffer.h describes, then the batch path with count 1.
    std::vector<uint8_t> record;
    record.reserve(kCheckHeaderSize + pubkey_len + sig_len);
    VectorSink out{record};
    WriteU8(out, static_cast<uint8_t>(type));
    WriteU8(out, static_cast<uint8_t>(pubkey_len));
    WriteLE16(out, static_cast<uint16_t>(sig_len));
    out.Write(msg.data(), msg.size());
    if (pubkey_len != 0) out.Write(pubkey, pubkey_len);
    if (sig_len != 0) out.Write(sig, sig_len);
    uint8_t verdict = static_cast<uint8_t>(Verdict::kInvalid);
    const BatchStatus status = VerifyBatch(record.data(), record.size(), 1, &verdict);
    // A malformed record (e.g. a Schnorr key not of 32 bytes) is a failed check, as Core's
    // verification of such a key or signature fails.
    return status.error == 0 && verdict == static_cast<uint8_t>(Verdict::kValid);
}

bool TransactionSignatureChecker::CheckECDSASignature(const StackElement& sig, const StackElement& pubkey,
                                                      const std::vector<uint8_t>& script_code,
                                                      SigVersion sigversion) const {
    // Core: `CPubKey pubkey(vchPubKey); if (!pubkey.IsValid()) return false;` - no verification
    // is attempted for a key whose size does not match its first byte.
    if (!IsValidPubKeySize(pubkey)) return false;
    // Core: an empty signature is false; otherwise the last byte is the hash type.
    if (sig.empty()) return false;
    const int32_t hash_type = sig.back();
    const size_t der_len = sig.size() - 1;
    const uint8_t kind = sigversion == SigVersion::WITNESS_V0 ? 1 : 0;
    const Hash32* known = memo_ != nullptr
                              ? memo_->Find(kind, static_cast<uint32_t>(hash_type), script_code.data(), script_code.size())
                              : nullptr;
    Hash32 sighash;
    size_t legacy_hashed = 0;
    const int64_t started = known == nullptr && memo_ != nullptr ? MonotonicNanos() : 0;
    if (known != nullptr) {
        sighash = *known;
    } else if (sigversion == SigVersion::WITNESS_V0) {
        // BIP143 (Core's SignatureHash with SigVersion::WITNESS_V0). Like Core without cached
        // hashes, compute them here when the caller did not.
        if (pre_.bip143_ready) {
            sighash = SignatureHashWitnessV0(script_code, tx_, n_in_, hash_type, amount_, pre_);
        } else {
            PrecomputedTxData local;
            local.Init(tx_, {}, /*need_bip143=*/true, /*need_bip341=*/false);
            sighash = SignatureHashWitnessV0(script_code, tx_, n_in_, hash_type, amount_, local);
        }
    } else {
        // Legacy (SigVersion::BASE); FindAndDelete was applied by the interpreter. What the
        // transaction's inputs share is hashed once, in pre_.legacy (LegacySighashCache).
        sighash = SignatureHashLegacy(script_code, tx_, n_in_, hash_type, pre_, &legacy_hashed);
    }
    if (known == nullptr && memo_ != nullptr) {
        ++memo_->computed;
        const int64_t elapsed = MonotonicNanos() - started;
        memo_->sighash_ns += elapsed;
        memo_->sighash_kind_ns[kind == 1 ? 1 : 0] += elapsed;
        memo_->Insert(kind, static_cast<uint32_t>(hash_type), script_code.data(), script_code.size(), sighash);
        if (memo_->counts != nullptr) {
            const size_t message = kind == 1 ? WitnessV0SighashMessageSize(script_code)
                                             : LegacySighashMessageSize(script_code, tx_, n_in_, hash_type, pre_);
            ++memo_->counts->count[kind];
            memo_->counts->bytes[kind] += message;
            memo_->counts->hashed[kind] += kind == 1 ? message : legacy_hashed;
        }
    }
    // Core's VerifyECDSASignature -> CPubKey::Verify (lax DER, low-S normalization).
    return sink_.Check(CheckType::kEcdsa, sighash, pubkey.data(), pubkey.size(), sig.data(), der_len);
}

bool TransactionSignatureChecker::CheckSchnorrSignature(const StackElement& sig, const StackElement& pubkey32,
                                                        SigVersion sigversion, const ScriptExecutionData& execdata,
                                                        ScriptError* serror) const {
    auto fail = [serror](ScriptError e) {
        if (serror != nullptr) *serror = e;
        return false;
    };
    // Only the key path and tapscript use Schnorr signatures; the caller passes a 32-byte key
    // (BIP342: other key sizes are unknown key types, handled by the interpreter).
    if ((sigversion != SigVersion::TAPROOT && sigversion != SigVersion::TAPSCRIPT) || pubkey32.size() != 32) {
        return fail(ScriptError::UNKNOWN_ERROR);
    }
    // BIP341 "Signature validation rules": 64 bytes (SIGHASH_DEFAULT) or 65 bytes with an
    // explicit hash_type that must not be 0x00.
    if (sig.size() != 64 && sig.size() != 65) return fail(ScriptError::SCHNORR_SIG_SIZE);
    uint8_t hash_type = SIGHASH_DEFAULT;
    if (sig.size() == 65) {
        hash_type = sig[64];
        if (hash_type == SIGHASH_DEFAULT) return fail(ScriptError::SCHNORR_SIG_HASHTYPE);
    }
    // The signature message needs the spent outputs of every input (BIP341).
    if (!pre_.bip341_ready || n_in_ >= tx_.vin.size()) return fail(ScriptError::UNKNOWN_ERROR);
    // Core's SignatureHashSchnorr: ext_flag 0 for the key path, 1 with the BIP342 extension
    // (tapleaf_hash, key_version 0x00, codesep_pos) for tapscript.
    const bool have_annex = execdata.annex_init && execdata.annex_present;
    TapscriptSigExt ext;
    const TapscriptSigExt* ext_ptr = nullptr;
    if (sigversion == SigVersion::TAPSCRIPT) {
        if (!execdata.tapleaf_hash_init || !execdata.codeseparator_pos_init) return fail(ScriptError::UNKNOWN_ERROR);
        ext.tapleaf_hash = execdata.tapleaf_hash;
        ext.codesep_pos = execdata.codeseparator_pos;
        ext_ptr = &ext;
    }
    // Memo key data: tapleaf_hash (32) | codesep_pos (4) | annex present (1) | sha_annex (32).
    const uint8_t kind = ext_ptr != nullptr ? 3 : 2;
    uint8_t key[69] = {};
    if (ext_ptr != nullptr) {
        std::memcpy(key, ext.tapleaf_hash.data(), 32);
        for (int b = 0; b < 4; ++b) key[32 + b] = static_cast<uint8_t>(ext.codesep_pos >> (8 * b));
    }
    if (have_annex) {
        key[36] = 1;
        std::memcpy(key + 37, execdata.annex_hash.data(), 32);
    }
    const Hash32* known = memo_ != nullptr ? memo_->Find(kind, hash_type, key, sizeof key) : nullptr;
    Hash32 sighash;
    if (known != nullptr) {
        sighash = *known;
    } else {
        const int64_t started = memo_ != nullptr ? MonotonicNanos() : 0;
        if (!SignatureHashSchnorr(tx_, n_in_, hash_type, pre_, have_annex ? &execdata.annex_hash : nullptr, ext_ptr,
                                  sighash)) {
            return fail(ScriptError::SCHNORR_SIG_HASHTYPE);
        }
        if (memo_ != nullptr) {
            ++memo_->computed;
            const int64_t elapsed = MonotonicNanos() - started;
            memo_->sighash_ns += elapsed;
            memo_->sighash_kind_ns[2] += elapsed;
            memo_->Insert(kind, hash_type, key, sizeof key, sighash);
            if (memo_->counts != nullptr) {
                const size_t message = TaprootSighashMessageSize(tx_, n_in_, hash_type, pre_, have_annex, ext_ptr != nullptr);
                ++memo_->counts->count[2];
                memo_->counts->bytes[2] += message;
                memo_->counts->hashed[2] += message;
            }
        }
    }
    // Core's VerifySchnorrSignature -> XOnlyPubKey::VerifySchnorr (BIP340) on the first 64 bytes.
    if (!sink_.Check(CheckType::kSchnorr, sighash, pubkey32.data(), 32, sig.data(), 64)) {
        return fail(ScriptError::SCHNORR_SIG);
    }
    return true;
}

bool TransactionSignatureChecker::CheckLockTime(const ScriptNum& lock_time) const {
    const int64_t n_lock_time = lock_time.value();
    const int64_t tx_lock_time = tx_.lock_time;
    // BIP65: both lock times must be of the same kind, heights (< 500,000,000) or times.
    if (!((tx_lock_time < kLocktimeThreshold && n_lock_time < kLocktimeThreshold) ||
          (tx_lock_time >= kLocktimeThreshold && n_lock_time >= kLocktimeThreshold))) {
        return false;
    }
    // BIP65: the script's lock time must not be later than the transaction's.
    if (n_lock_time > tx_lock_time) return false;
    // BIP65: a final input would disable nLockTime, and with it this check.
    if (tx_.vin[n_in_].sequence == kSequenceFinal) return false;
    return true;
}

bool TransactionSignatureChecker::CheckSequence(const ScriptNum& sequence) const {
    const int64_t tx_sequence = tx_.vin[n_in_].sequence;
    // BIP112: relative lock times need BIP68, i.e. a version of at least 2, compared unsigned
    // as Core does (a negative nVersion counts as large).
    if (static_cast<uint32_t>(tx_.version) < 2) return false;
    // BIP112: the input's own relative lock time must not be disabled.
    if ((tx_sequence & kSequenceLocktimeDisableFlag) != 0) return false;
    // BIP112: only the type flag and the 16-bit value have consensus meaning.
    const int64_t mask = kSequenceLocktimeTypeFlag | kSequenceLocktimeMask;
    const int64_t tx_masked = tx_sequence & mask;
    const int64_t script_masked = sequence.value() & mask;
    // Same kind (blocks or 512-second units) on both sides...
    if (!((tx_masked < kSequenceLocktimeTypeFlag && script_masked < kSequenceLocktimeTypeFlag) ||
          (tx_masked >= kSequenceLocktimeTypeFlag && script_masked >= kSequenceLocktimeTypeFlag))) {
        return false;
    }
    // ...and the script's value must not exceed the input's.
    if (script_masked > tx_masked) return false;
    return true;
}

}  // namespace ibd
