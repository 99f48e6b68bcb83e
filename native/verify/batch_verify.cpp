// VerifyBatch (batch_verify.h). Compiled without C++ exceptions in the wasm build (see
// wasm/CMakeLists.txt): nothing here throws, and the verify loop must carry no invoke wrappers.
#include "verify/batch_verify.h"

#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

#include <secp256k1.h>
#include <secp256k1_extrakeys.h>
#include <secp256k1_schnorrsig.h>

#include "secp256k1/ecdsa_key_tables.h"
#include "secp256k1/ecmult_tables.h"
#include "secp256k1/schnorrsig_batch.h"
#include "verify/ecdsa_lax_der.h"

namespace ibd {
namespace {

constexpr size_t kSchnorrPubkeyLen = 32;  // BIP340 x-only public key
constexpr size_t kSchnorrSigLen = 64;     // BIP340 signature (r || s), hash_type stripped

/** The last public keys parsed on this thread, direct-mapped by their x bytes: a block's inputs
 *  often spend under one key (address reuse, a multisig's keys tried by each of its inputs), and
 *  parsing a 33-byte key is a square root, about a sixth of an ECDSA verification. An entry is
 *  the key's bytes as given and what secp256k1_ec_pubkey_parse made of them (a pure function of
 *  the bytes: a hit gives the parse's own result); keys that do not parse are not kept. From its
 *  second signature on, a key is also given precomputed tables (ecdsa_key_tables.h), built
 *  from the parsed key alone, that halve the doublings of each verification under it. */
struct ParsedKeyCache {
    static constexpr size_t kSlots = 256;
    struct Entry {
        uint8_t len = 0;  // 0: empty
        uint8_t bytes[65];
        bool has_tables = false;  // `tables` holds this key's
        uint32_t uses = 0;        // signatures verified under the key since it entered the slot
        secp256k1_pubkey parsed;
        std::unique_ptr<ibd_ecdsa_key_tables> tables;  // kept when the slot changes key
    };
    Entry entries[kSlots];

    /** The entry of `pubkey` (33 or 65 bytes), its use counted, or nullptr when it does not
     *  parse. */
    Entry* Get(const uint8_t* pubkey, size_t len) {
        Entry& e = entries[(pubkey[1] ^ pubkey[2] ^ (pubkey[3] << 1)) & (kSlots - 1)];  // bytes of x
        if (e.len == len && std::memcmp(e.bytes, pubkey, len) == 0) {
            ++e.uses;
            return &e;
        }
        e.has_tables = false;
        e.uses = 1;
        if (!secp256k1_ec_pubkey_parse(secp256k1_context_static, &e.parsed, pubkey, len)) {
            e.len = 0;
            return nullptr;
        }
        std::memcpy(e.bytes, pubkey, len);
        e.len = static_cast<uint8_t>(len);
        return &e;
    }

    /** The entry's key tables, built at its second use; nullptr before, or when there is no
     *  memory for them (the caller verifies without). */
    const ibd_ecdsa_key_tables* Tables(Entry& e) {
        if (e.has_tables) return e.tables.get();
        if (e.uses < 2 || !G64TablesReady()) return nullptr;
        if (!e.tables) e.tables.reset(new (std::nothrow) ibd_ecdsa_key_tables);
        if (!e.tables || !ibd_ecdsa_key_tables_build(e.tables.get(), &e.parsed)) return nullptr;
        e.has_tables = true;
        return e.tables.get();
    }

    /** ibd_ecdsa_key_tables_init, at the first key that recurs, once it succeeds (thread-safe;
     *  tried again at a later key when there was no memory for its working space). */
    static bool G64TablesReady() {
        static std::atomic<bool> ready{false};
        static std::mutex init;
        if (ready.load(std::memory_order_acquire)) return true;
        const std::lock_guard<std::mutex> lock(init);
        if (!ready.load(std::memory_order_relaxed) && ibd_ecdsa_key_tables_init() == 1) ready.store(true, std::memory_order_release);
        return ready.load(std::memory_order_relaxed);
    }
};

/** Bitcoin Core's CPubKey::Verify (pubkey.cpp). CPubKey::IsValid (header byte 02/03 with 33
 *  bytes, 04/06/07 with 65) admits exactly what secp256k1_ec_pubkey_parse can accept, so the
 *  parse alone decides key validity (ParsedKeyCache: the parse of the same bytes). */
bool VerifyEcdsa(const uint8_t* msg32, const uint8_t* pubkey, size_t pubkey_len,
                 const uint8_t* sig, size_t sig_len) {
    if (pubkey_len != 33 && pubkey_len != 65) return false;  // CPubKey::IsValid
    static thread_local ParsedKeyCache keys;
    ParsedKeyCache::Entry* key = keys.Get(pubkey, pubkey_len);
    if (key == nullptr) return false;
    secp256k1_ecdsa_signature parsed;
    if (!EcdsaSignatureParseDerLax(sig, sig_len, &parsed)) return false;
    // libsecp256k1 verifies low-S only; Core normalizes first because high S was never banned
    // by consensus.
    secp256k1_ecdsa_signature_normalize(secp256k1_context_static, &parsed, &parsed);
    ibd_ecmult_tables_use();
    if (const ibd_ecdsa_key_tables* tables = keys.Tables(*key)) {
        return ibd_ecdsa_verify_key_tables(&parsed, msg32, tables) == 1;
    }
    const secp256k1_pubkey pk = key->parsed;
    return secp256k1_ecdsa_verify(secp256k1_context_static, &parsed, msg32, &pk) == 1;
}

/** BIP340 "Verification": lift_x of the key (secp256k1_xonly_pubkey_parse fails for x >= p or
 *  x not on the curve), then the verification equation over the 32-byte message. */
bool VerifySchnorr(const uint8_t* msg32, const uint8_t* pubkey32, const uint8_t* sig64) {
    secp256k1_xonly_pubkey pk;
    if (!secp256k1_xonly_pubkey_parse(secp256k1_context_static, &pk, pubkey32)) return false;
    ibd_ecmult_tables_use();
    return secp256k1_schnorrsig_verify(secp256k1_context_static, sig64, msg32, 32, &pk) == 1;
}

/** Schnorr records of one VerifyBatch call, verified together (BIP340 "Batch Verification",
 *  ibd_schnorrsig_verify_batch) in groups of at most kSchnorrBatchMax; a group below
 *  kSchnorrBatchMin, or one whose batch fails, is verified record by record, so that every
 *  record gets its own verdict. One per thread: the scratch space is reused across calls and
 *  created once, at its first use (wasm: at module start, see kScratchAtStart). */
class SchnorrBatch {
public:
    SchnorrBatch()
        : scratch_(secp256k1_scratch_space_create(secp256k1_context_static,
                                                  ibd_schnorrsig_batch_scratch_size(kSchnorrBatchMax))) {}
    ~SchnorrBatch() {
        if (scratch_ != nullptr) secp256k1_scratch_space_destroy(secp256k1_context_static, scratch_);
    }
    SchnorrBatch(const SchnorrBatch&) = delete;
    SchnorrBatch& operator=(const SchnorrBatch&) = delete;

    /** Starts a VerifyBatch call. A call still marked as running was cut short: in wasm, a trap
     *  (an out-of-bounds read of a raw verifyBatch pointer) unwinds no C++ frame, and this
     *  thread's instance lives on. Its queue, pointers into that call's buffer and indices into
     *  its verdicts, is dropped (flushed, it would write that call's verdicts over this one's and
     *  past its end), and so is its scratch space, which a trap inside the batch left allocated. */
    void Begin() {
        if (running_) {
            size_ = 0;
            if (scratch_ != nullptr) secp256k1_scratch_space_destroy(secp256k1_context_static, scratch_);
            scratch_ = secp256k1_scratch_space_create(secp256k1_context_static,
                                                      ibd_schnorrsig_batch_scratch_size(kSchnorrBatchMax));
        }
        running_ = true;
    }

    /** Ends a VerifyBatch call: verifies what is queued (Flush). */
    void End(uint8_t* verdicts) {
        Flush(verdicts);
        running_ = false;
    }

    /** Queues record `index`'s check; verifies the queue when it is full. */
    void Add(uint32_t index, const uint8_t* msg32, const uint8_t* pubkey32, const uint8_t* sig64,
             uint8_t* verdicts) {
        index_[size_] = index;
        msg_[size_] = msg32;
        pubkey_[size_] = pubkey32;
        sig_[size_] = sig64;
        if (++size_ == kSchnorrBatchMax) Flush(verdicts);
    }

    /** Verifies the queued checks and writes their verdicts; empties the queue. */
    void Flush(uint8_t* verdicts) {
        if (size_ >= kSchnorrBatchMin) ibd_ecmult_tables_use();
        const bool all_valid = size_ >= kSchnorrBatchMin && scratch_ != nullptr &&
                               ibd_schnorrsig_verify_batch(secp256k1_context_static, scratch_, sig_, msg_, pubkey_, size_) == 1;
        for (size_t k = 0; k < size_; ++k) {
            const bool ok = all_valid || VerifySchnorr(msg_[k], pubkey_[k], sig_[k]);
            verdicts[index_[k]] = static_cast<uint8_t>(ok ? Verdict::kValid : Verdict::kInvalid);
        }
        size_ = 0;
    }

private:
    secp256k1_scratch_space* scratch_;
    bool running_ = false;  // between Begin and End
    size_t size_ = 0;
    uint32_t index_[kSchnorrBatchMax];
    const unsigned char* msg_[kSchnorrBatchMax];
    const unsigned char* pubkey_[kSchnorrBatchMax];
    const unsigned char* sig_[kSchnorrBatchMax];
};

SchnorrBatch& ThreadSchnorrBatch() {
    thread_local SchnorrBatch batch;
    return batch;
}

/** Where libsecp256k1's tables of multiples of G are computed at start (the wasm variants,
 *  ecmult_tables.h), they are computed here, while the module starts: before anything can
 *  verify. Elsewhere a no-op. */
[[maybe_unused]] const bool kTablesAtStart = (ibd_ecmult_tables_init(), true);

#ifdef __EMSCRIPTEN__
/** The scratch space is allocated while the module starts, before JS reserves its check-buffer
 *  region, so that no verifyBatch call grows the wasm memory (wasm/batch-verifier.mjs). */
[[maybe_unused]] const bool kScratchAtStart = (ThreadSchnorrBatch(), true);
#endif

/** This thread's scratch space for VerifySchnorrBatchOnce, grown to the largest batch asked. */
secp256k1_scratch_space* OnceScratch(size_t n_sigs) {
    thread_local secp256k1_scratch_space* scratch = nullptr;
    thread_local size_t capacity = 0;
    if (n_sigs > capacity) {
        if (scratch != nullptr) secp256k1_scratch_space_destroy(secp256k1_context_static, scratch);
        scratch = secp256k1_scratch_space_create(secp256k1_context_static, ibd_schnorrsig_batch_scratch_size(n_sigs));
        capacity = scratch != nullptr ? n_sigs : 0;
    }
    return scratch;
}

}  // namespace

int VerifySchnorrBatchOnce(const uint8_t* checks, size_t checks_len, uint32_t count, uint32_t* bad_record) {
    constexpr size_t kRecordSize = kCheckHeaderSize + kSchnorrPubkeyLen + kSchnorrSigLen;
    // Every record is checked before anything is allocated for `count` of them: a count past the
    // buffer (up to 2^32 - 1) names the first record that does not fit.
    const size_t fit = checks == nullptr ? 0 : checks_len / kRecordSize;
    for (uint32_t i = 0; i < count; ++i) {
        const uint8_t* rec = i < fit ? checks + static_cast<size_t>(i) * kRecordSize : nullptr;
        if (rec == nullptr || rec[0] != static_cast<uint8_t>(CheckType::kSchnorr) || rec[1] != kSchnorrPubkeyLen ||
            rec[2] != kSchnorrSigLen || rec[3] != 0) {
            if (bad_record != nullptr) *bad_record = i;
            return -1;
        }
    }
    if (count == 0) return 0;
    std::vector<const unsigned char*> sig(count), msg(count), pubkey(count);
    for (uint32_t i = 0; i < count; ++i) {
        const uint8_t* rec = checks + static_cast<size_t>(i) * kRecordSize;
        msg[i] = rec + 4;
        pubkey[i] = rec + kCheckHeaderSize;
        sig[i] = rec + kCheckHeaderSize + kSchnorrPubkeyLen;
    }
    secp256k1_scratch_space* scratch = OnceScratch(count);
    ibd_ecmult_tables_use();
    return ibd_schnorrsig_verify_batch(secp256k1_context_static, scratch, sig.data(), msg.data(), pubkey.data(), count);
}

BatchStatus VerifyBatch(const uint8_t* checks, size_t checks_len, uint32_t count, uint8_t* verdicts) {
    BatchStatus status;
    if (count > 0) std::memset(verdicts, static_cast<uint8_t>(Verdict::kInvalid), count);
    if (checks == nullptr) checks_len = 0;

    SchnorrBatch& schnorr = ThreadSchnorrBatch();
    schnorr.Begin();
    size_t offset = 0;
    for (uint32_t i = 0; i < count; ++i) {
        auto fail = [&](int error) {
            schnorr.End(verdicts);  // the records before the malformed one keep their verdicts
            status.error = error;
            status.error_offset = offset;
            status.error_record = i;
            return status;
        };
        // Every comparison is written as "needed > remaining" so that nothing can overflow.
        const size_t remaining = checks_len - offset;
        if (remaining < kCheckHeaderSize) return fail(1);  // header does not fit

        const uint8_t* rec = checks + offset;
        const uint8_t type = rec[0];
        const size_t pubkey_len = rec[1];
        const size_t sig_len = static_cast<size_t>(rec[2]) | (static_cast<size_t>(rec[3]) << 8);
        const uint8_t* msg32 = rec + 4;
        const uint8_t* pubkey = rec + kCheckHeaderSize;
        const uint8_t* sig = pubkey + pubkey_len;

        if (type == static_cast<uint8_t>(CheckType::kEcdsa)) {
            if (sig_len > kMaxEcdsaSigLen) return fail(3);
        } else if (type == static_cast<uint8_t>(CheckType::kSchnorr)) {
            if (pubkey_len != kSchnorrPubkeyLen || sig_len != kSchnorrSigLen) return fail(3);
        } else {
            return fail(2);
        }
        const size_t body = pubkey_len + sig_len;  // <= 255 + 520
        if (body > remaining - kCheckHeaderSize) return fail(1);  // body does not fit

        if (type == static_cast<uint8_t>(CheckType::kEcdsa)) {
            const bool ok = VerifyEcdsa(msg32, pubkey, pubkey_len, sig, sig_len);
            verdicts[i] = static_cast<uint8_t>(ok ? Verdict::kValid : Verdict::kInvalid);
        } else {
            schnorr.Add(i, msg32, pubkey, sig, verdicts);
        }
        offset += kCheckHeaderSize + body;
    }
    schnorr.End(verdicts);
    return status;
}

}  // namespace ibd
