// SHA-256 (FIPS 180-4), double SHA-256 (Bitcoin's "hash256") and BIP340 tagged hashes.
//
// Our own implementation because it is the core of the sighash hot path (legacy sighashes hash
// the whole transaction once per input). Portable C++17: no intrinsics, no platform APIs, so the
// same code runs natively and under Emscripten. Byte order: the digest is returned as FIPS
// 180-4 defines it (big-endian words), which is Bitcoin's "internal byte order" of a hash.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "crypto/block_hasher.h"

namespace ibd {

/** A 32-byte hash in internal byte order (as SHA-256 outputs it; display hex is reversed). */
using Hash32 = std::array<uint8_t, 32>;

/** Incremental SHA-256 (FIPS 180-4 section 6.2). Copyable: a copy continues from the same state,
 *  which is how tagged hashers keep their precomputed prefix (BIP340 "tagged hashes").
 *  Buffering and padding are BlockHasher's (big-endian bit length). */
class Sha256 : private BlockHasher<Sha256, true> {
public:
    static constexpr size_t kOutputSize = 32;
    using BlockHasher::kBlockSize;

    Sha256() { Reset(); }

    /** Appends `len` bytes. `data` may be null when `len` is 0. */
    using BlockHasher::Write;

    /** Writes the 32-byte digest of everything written since the last Reset to `out`, applying
     *  the FIPS 180-4 section 5.1.1 padding. The hasher is left unusable until Reset(). */
    void Finalize(uint8_t out[kOutputSize]);
    Hash32 Finalize() {
        Hash32 h;
        Finalize(h.data());
        return h;
    }

    /** Back to the FIPS 180-4 section 5.3.3 initial state. */
    Sha256& Reset();

private:
    friend class BlockHasher<Sha256, true>;
    /** Section 6.2.2: processes `blocks` consecutive 64-byte blocks into `s`. */
    static void Compress(uint32_t s[8], const uint8_t* chunk, size_t blocks);

    uint32_t state_[8];
};

extern template class BlockHasher<Sha256, true>;

/** SHA-256 of `len` bytes. */
Hash32 Sha256Hash(const uint8_t* data, size_t len);

/** SHA256d = SHA-256(SHA-256(data)): Bitcoin's txid / wtxid / block hash / legacy and BIP143
 *  sighash function (Core's CHash256 / HashWriter::GetHash). */
Hash32 Sha256d(const uint8_t* data, size_t len);

/** SHA-256 over a finished single hash: turns a hasher's state into the double hash. Writes
 *  SHA-256(Finalize(h)) and leaves `h` unusable. */
Hash32 FinalizeDouble(Sha256& h);

/** A hasher primed for BIP340 tagged hashes: SHA-256 with SHA-256(tag) || SHA-256(tag) (64 bytes,
 *  one compression block) already written, so that Write(msg) then Finalize() gives
 *  hash_tag(msg) (BIP340 "Design: tagged hashes"). Computing the prefix costs three compressions;
 *  callers on a hot path keep the returned object and copy it (Core's HashWriter TaggedHash). */
Sha256 TaggedHasher(std::string_view tag);

/** hash_tag(msg) = SHA-256(SHA-256(tag) || SHA-256(tag) || msg) (BIP340). */
Hash32 TaggedHash(std::string_view tag, const uint8_t* msg, size_t len);

}  // namespace ibd
