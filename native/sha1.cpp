// SHA-1 as specified in FIPS 180-4; section numbers refer to that document.
#include "sha1.h"

#include <cstring>

namespace ibd {

namespace {

inline uint32_t Rotl(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

inline uint32_t ReadBE32(const uint8_t* p) {
    return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | uint32_t(p[3]);
}

inline void WriteBE32(uint8_t* p, uint32_t v) {
    p[0] = uint8_t(v >> 24);
    p[1] = uint8_t(v >> 16);
    p[2] = uint8_t(v >> 8);
    p[3] = uint8_t(v);
}

/** Section 6.1.2: one compression of the 64-byte `block` into `s`. */
void Transform(uint32_t s[5], const uint8_t* block) {
    uint32_t w[80];
    for (int t = 0; t < 16; ++t) w[t] = ReadBE32(block + 4 * t);
    for (int t = 16; t < 80; ++t) w[t] = Rotl(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
    uint32_t a = s[0], b = s[1], c = s[2], d = s[3], e = s[4];
    for (int t = 0; t < 80; ++t) {
        // Section 4.1.1 functions f_t and section 4.2.1 constants K_t.
        uint32_t f, k;
        if (t < 20) {
            f = (b & c) | (~b & d);
            k = 0x5a827999;
        } else if (t < 40) {
            f = b ^ c ^ d;
            k = 0x6ed9eba1;
        } else if (t < 60) {
            f = (b & c) | (b & d) | (c & d);
            k = 0x8f1bbcdc;
        } else {
            f = b ^ c ^ d;
            k = 0xca62c1d6;
        }
        const uint32_t tmp = Rotl(a, 5) + f + e + k + w[t];
        e = d;
        d = c;
        c = Rotl(b, 30);
        b = a;
        a = tmp;
    }
    s[0] += a;
    s[1] += b;
    s[2] += c;
    s[3] += d;
    s[4] += e;
}

}  // namespace

Sha1& Sha1::Reset() {
    state_[0] = 0x67452301;
    state_[1] = 0xefcdab89;
    state_[2] = 0x98badcfe;
    state_[3] = 0x10325476;
    state_[4] = 0xc3d2e1f0;
    bytes_ = 0;
    return *this;
}

Sha1& Sha1::Write(const uint8_t* data, size_t len) {
    if (len == 0) return *this;
    size_t fill = bytes_ % kBlockSize;
    bytes_ += len;
    if (fill != 0) {
        const size_t take = len < kBlockSize - fill ? len : kBlockSize - fill;
        std::memcpy(buf_ + fill, data, take);
        data += take;
        len -= take;
        fill += take;
        if (fill < kBlockSize) return *this;
        Transform(state_, buf_);
    }
    while (len >= kBlockSize) {
        Transform(state_, data);
        data += kBlockSize;
        len -= kBlockSize;
    }
    if (len > 0) std::memcpy(buf_, data, len);
    return *this;
}

void Sha1::Finalize(uint8_t out[kOutputSize]) {
    // Section 5.1.1: a 1 bit, zeros to 56 mod 64 bytes, then the bit length big-endian.
    const uint64_t bits = bytes_ * 8;
    static const uint8_t kPad[kBlockSize] = {0x80};
    const size_t fill = bytes_ % kBlockSize;
    Write(kPad, 1 + ((119 - fill) % kBlockSize));
    uint8_t len_be[8];
    WriteBE32(len_be, uint32_t(bits >> 32));
    WriteBE32(len_be + 4, uint32_t(bits));
    Write(len_be, 8);
    for (int i = 0; i < 5; ++i) WriteBE32(out + 4 * i, state_[i]);
}

Sha1Digest Sha1Hash(const uint8_t* data, size_t len) {
    Sha1Digest d;
    Sha1().Write(data, len).Finalize(d.data());
    return d;
}

}  // namespace ibd
