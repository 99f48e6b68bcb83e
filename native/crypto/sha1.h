// SHA-1 (FIPS 180-4 section 6.1), needed only by OP_SHA1 (Core's CSHA1). Our own implementation,
// portable C++17. SHA-1 is broken for collision resistance; here it is only a script opcode
// whose exact output consensus depends on.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "crypto/block_hasher.h"

namespace ibd {

/** A 20-byte SHA-1 digest (big-endian words, as FIPS 180-4 outputs it). */
using Sha1Digest = std::array<uint8_t, 20>;

/** Incremental SHA-1 (FIPS 180-4 section 6.1.2). Buffering and padding are BlockHasher's
 *  (big-endian bit length). */
class Sha1 : private BlockHasher<Sha1, true> {
public:
    static constexpr size_t kOutputSize = 20;
    using BlockHasher::kBlockSize;

    Sha1() { Reset(); }
    /** Appends `len` bytes. `data` may be null when `len` is 0. */
    using BlockHasher::Write;
    /** Writes the 20-byte digest (section 5.1.1 padding). The hasher is left unusable until
     *  Reset(). */
    void Finalize(uint8_t out[kOutputSize]);
    /** Back to the section 5.3.1 initial state. */
    Sha1& Reset();

private:
    friend class BlockHasher<Sha1, true>;
    /** Section 6.1.2, once per 64-byte block of `blocks`. */
    static void Compress(uint32_t s[5], const uint8_t* blocks, size_t nblocks);

    uint32_t state_[5];
};

extern template class BlockHasher<Sha1, true>;

/** SHA-1 of `len` bytes. */
Sha1Digest Sha1Hash(const uint8_t* data, size_t len);

}  // namespace ibd
