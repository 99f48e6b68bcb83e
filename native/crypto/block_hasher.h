// The Merkle-Damgard framing shared by SHA-1, SHA-256 (FIPS 180-4 sections 5.1.1 and 6) and
// RIPEMD-160: buffering of the message into 64-byte blocks, and the final padding. Each hash
// supplies only its initial state, its compression function and its digest length.
//
// Contract of BlockHasher<Derived, kBigEndian> (CRTP):
//   - The block size is 64 bytes. The message is a byte string (no bit-granular input); the byte
//     count is kept as a uint64_t, so the bit length appended by the padding is that count times
//     8 modulo 2^64.
//   - Derived has a member `uint32_t state_[N]` (the chaining value) and a static
//     `void Compress(uint32_t* state, const uint8_t* blocks, size_t nblocks)` that folds
//     `nblocks` (>= 1) consecutive 64-byte blocks into `state`; both may be private if Derived
//     declares this base a friend. Derived resets `state_` and calls ResetLength() in its Reset.
//   - Derived::kOutputSize is the digest length in bytes, a multiple of 4 and at most 4 * N:
//     Finish writes the first kOutputSize / 4 state words.
//   - kBigEndian is the byte order of the 8-byte bit length the padding appends and of each
//     32-bit digest word Finish writes: true for SHA-1 and SHA-256 (FIPS 180-4), false for
//     RIPEMD-160 (MD4-style, little-endian). How Compress reads the message words is its own
//     business (it uses the same order in all three).
//   - Padding: 0x80, then zero bytes up to 56 mod 64, then the 8-byte bit length; 1 to 2 blocks.
//   - The state is plain data, so Derived stays trivially copyable: a copy continues from the
//     same point (TaggedHasher relies on that).
//
// Write and Finish are defined here but not inline: each hash's .cpp instantiates them
// explicitly (`template class BlockHasher<...>;`) next to its Compress, and its header declares
// `extern template class BlockHasher<...>;`, so Write is compiled once, in the same translation
// unit as the compression function it calls, as when each class had its own copy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace ibd {

template <typename Derived, bool kBigEndian>
class BlockHasher {
public:
    static constexpr size_t kBlockSize = 64;

    /** Appends `len` bytes. `data` may be null when `len` is 0. */
    Derived& Write(const uint8_t* data, size_t len);

protected:
    BlockHasher() = default;

    /** Sets the byte count back to 0 (the buffer needs no clearing). */
    void ResetLength() { bytes_ = 0; }

    /** Appends the padding and the bit length, then writes the Derived::kOutputSize-byte digest
     *  (state words in kBigEndian order) to `out`. The hasher is left unusable until Reset. */
    void Finish(uint8_t* out);

private:
    /** Writes `v` to p[0..3] in kBigEndian order (compilers turn this into one store). */
    static void StoreWord(uint8_t* p, uint32_t v) {
        for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (kBigEndian ? 24 - 8 * i : 8 * i));
    }

    uint8_t buf_[kBlockSize];  // the first bytes_ % kBlockSize bytes are pending
    uint64_t bytes_ = 0;       // total bytes written since the last reset
};

template <typename Derived, bool kBigEndian>
Derived& BlockHasher<Derived, kBigEndian>::Write(const uint8_t* data, size_t len) {
    Derived& self = static_cast<Derived&>(*this);
    if (len == 0) return self;
    size_t used = static_cast<size_t>(bytes_ % kBlockSize);
    bytes_ += len;
    if (used != 0) {
        // Complete the partial block first.
        const size_t take = kBlockSize - used < len ? kBlockSize - used : len;
        std::memcpy(buf_ + used, data, take);
        data += take;
        len -= take;
        used += take;
        if (used < kBlockSize) return self;
        Derived::Compress(self.state_, buf_, 1);
    }
    if (len >= kBlockSize) {
        // Whole blocks straight from the input.
        const size_t blocks = len / kBlockSize;
        Derived::Compress(self.state_, data, blocks);
        data += blocks * kBlockSize;
        len -= blocks * kBlockSize;
    }
    if (len != 0) std::memcpy(buf_, data, len);  // the tail waits for more input
    return self;
}

template <typename Derived, bool kBigEndian>
void BlockHasher<Derived, kBigEndian>::Finish(uint8_t* out) {
    static_assert(Derived::kOutputSize % 4 == 0 &&
                      Derived::kOutputSize <= sizeof(Derived::state_),
                  "the digest is a prefix of the state words");
    static const uint8_t kPad[kBlockSize] = {0x80};
    const uint64_t bit_len = bytes_ << 3;
    uint8_t len_bytes[8];
    StoreWord(len_bytes + (kBigEndian ? 0 : 4), static_cast<uint32_t>(bit_len >> 32));
    StoreWord(len_bytes + (kBigEndian ? 4 : 0), static_cast<uint32_t>(bit_len));
    const size_t used = static_cast<size_t>(bytes_ % kBlockSize);
    Write(kPad, 1 + ((119 - used) % kBlockSize));  // 0x80 and zeros up to 56 mod 64
    Write(len_bytes, 8);
    const uint32_t* state = static_cast<Derived&>(*this).state_;
    for (size_t w = 0; w < Derived::kOutputSize / 4; ++w) StoreWord(out + 4 * w, state[w]);
}

}  // namespace ibd
