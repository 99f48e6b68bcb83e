// RIPEMD-160 (Dobbertin, Bosselaers, Preneel, "RIPEMD-160: A Strengthened Version of RIPEMD",
// 1996) and Bitcoin's HASH160 = RIPEMD-160(SHA-256(x)) (Core's CHash160), used by P2PKH,
// P2SH and P2WPKH programs. Our own implementation, portable C++17.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace ibd {

/** A 20-byte hash (RIPEMD-160 output order, as it appears in scripts). */
using Hash20 = std::array<uint8_t, 20>;

/** Incremental RIPEMD-160. */
class Ripemd160 {
public:
    static constexpr size_t kOutputSize = 20;
    static constexpr size_t kBlockSize = 64;

    Ripemd160() { Reset(); }
    /** Appends `len` bytes. `data` may be null when `len` is 0. */
    Ripemd160& Write(const uint8_t* data, size_t len);
    /** Writes the 20-byte digest (MD4-style padding, little-endian bit length). The hasher is
     *  left unusable until Reset(). */
    void Finalize(uint8_t out[kOutputSize]);
    /** Back to the initial chaining value. */
    Ripemd160& Reset();

private:
    uint32_t state_[5];
    uint8_t buf_[kBlockSize];
    uint64_t bytes_ = 0;
};

/** RIPEMD-160 of `len` bytes. */
Hash20 Ripemd160Hash(const uint8_t* data, size_t len);

/** HASH160 = RIPEMD-160(SHA-256(data)) (Core's Hash160 / OP_HASH160). */
Hash20 Hash160(const uint8_t* data, size_t len);

}  // namespace ibd
