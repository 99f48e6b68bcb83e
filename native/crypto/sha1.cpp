// SHA-1 as specified in FIPS 180-4; section numbers refer to that document.
#include "crypto/sha1.h"

namespace ibd {

namespace {

inline uint32_t Rotl(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

inline uint32_t ReadBE32(const uint8_t* p) {
    return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | uint32_t(p[3]);
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

void Sha1::Compress(uint32_t s[5], const uint8_t* blocks, size_t nblocks) {
    for (; nblocks != 0; --nblocks, blocks += kBlockSize) Transform(s, blocks);
}

template class BlockHasher<Sha1, true>;

Sha1& Sha1::Reset() {
    state_[0] = 0x67452301;
    state_[1] = 0xefcdab89;
    state_[2] = 0x98badcfe;
    state_[3] = 0x10325476;
    state_[4] = 0xc3d2e1f0;
    ResetLength();
    return *this;
}

void Sha1::Finalize(uint8_t out[kOutputSize]) {
    // Section 5.1.1: a 1 bit, zeros to 56 mod 64 bytes, then the bit length big-endian; then
    // H(N) as big-endian words.
    Finish(out);
}

Sha1Digest Sha1Hash(const uint8_t* data, size_t len) {
    Sha1Digest d;
    Sha1().Write(data, len).Finalize(d.data());
    return d;
}

}  // namespace ibd
