// RIPEMD-160 (Dobbertin, Bosselaers, Preneel, "RIPEMD-160: A Strengthened Version of RIPEMD",
// 1996) and Bitcoin's HASH160 = RIPEMD-160(SHA-256(x)) (Core's CHash160), used by P2PKH,
// P2SH and P2WPKH programs. Our own implementation, portable C++17.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "crypto/block_hasher.h"

namespace ibd {

/** A 20-byte hash (RIPEMD-160 output order, as it appears in scripts). */
using Hash20 = std::array<uint8_t, 20>;

/** Incremental RIPEMD-160. Buffering and padding are BlockHasher's (little-endian bit length). */
class Ripemd160 : private BlockHasher<Ripemd160, false> {
public:
    static constexpr size_t kOutputSize = 20;
    using BlockHasher::kBlockSize;

    Ripemd160() { Reset(); }
    /** Appends `len` bytes. `data` may be null when `len` is 0. */
    using BlockHasher::Write;
    /** Writes the 20-byte digest (MD4-style padding, little-endian bit length). The hasher is
     *  left unusable until Reset(). */
    void Finalize(uint8_t out[kOutputSize]);
    /** Back to the initial chaining value. */
    Ripemd160& Reset();

private:
    friend class BlockHasher<Ripemd160, false>;
    /** The compression function, once per 64-byte block of `blocks`. */
    static void Compress(uint32_t h[5], const uint8_t* blocks, size_t nblocks);

    uint32_t state_[5];
};

extern template class BlockHasher<Ripemd160, false>;

/** RIPEMD-160 of `len` bytes. */
Hash20 Ripemd160Hash(const uint8_t* data, size_t len);

/** HASH160 = RIPEMD-160(SHA-256(data)) (Core's Hash160 / OP_HASH160). */
Hash20 Hash160(const uint8_t* data, size_t len);

}  // namespace ibd
