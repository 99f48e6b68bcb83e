// RIPEMD-160 as specified by Dobbertin, Bosselaers and Preneel (1996): two parallel lines of
// five rounds of 16 steps each over little-endian 32-bit words, MD4-style padding.
#include "crypto/ripemd160.h"

#include "crypto/sha256.h"

namespace ibd {

namespace {

inline uint32_t Rol(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

// The five boolean functions f1..f5 of the specification.
inline uint32_t F1(uint32_t x, uint32_t y, uint32_t z) { return x ^ y ^ z; }
inline uint32_t F2(uint32_t x, uint32_t y, uint32_t z) { return (x & y) | (~x & z); }
inline uint32_t F3(uint32_t x, uint32_t y, uint32_t z) { return (x | ~y) ^ z; }
inline uint32_t F4(uint32_t x, uint32_t y, uint32_t z) { return (x & z) | (y & ~z); }
inline uint32_t F5(uint32_t x, uint32_t y, uint32_t z) { return x ^ (y | ~z); }

/** f(j, x, y, z) for round `round` (0..4) of the left line; the right line uses 4 - round. */
inline uint32_t F(int round, uint32_t x, uint32_t y, uint32_t z) {
    switch (round) {
        case 0: return F1(x, y, z);
        case 1: return F2(x, y, z);
        case 2: return F3(x, y, z);
        case 3: return F4(x, y, z);
        default: return F5(x, y, z);
    }
}

// Added constants K(j) and K'(j), one per round.
constexpr uint32_t kKLeft[5] = {0x00000000, 0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xa953fd4e};
constexpr uint32_t kKRight[5] = {0x50a28be6, 0x5c4dd124, 0x6d703ef3, 0x7a6d76e9, 0x00000000};

// Selection of message word r(j), r'(j).
constexpr uint8_t kRLeft[80] = {
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
    7, 4, 13, 1, 10, 6, 15, 3, 12, 0, 9, 5, 2, 14, 11, 8,
    3, 10, 14, 4, 9, 15, 8, 1, 2, 7, 0, 6, 13, 11, 5, 12,
    1, 9, 11, 10, 0, 8, 12, 4, 13, 3, 7, 15, 14, 5, 6, 2,
    4, 0, 5, 9, 7, 12, 2, 10, 14, 1, 3, 8, 11, 6, 15, 13};
constexpr uint8_t kRRight[80] = {
    5, 14, 7, 0, 9, 2, 11, 4, 13, 6, 15, 8, 1, 10, 3, 12,
    6, 11, 3, 7, 0, 13, 5, 10, 14, 15, 8, 12, 4, 9, 1, 2,
    15, 5, 1, 3, 7, 14, 6, 9, 11, 8, 12, 2, 10, 0, 4, 13,
    8, 6, 4, 1, 3, 11, 15, 0, 5, 12, 2, 13, 9, 7, 10, 14,
    12, 15, 10, 4, 1, 5, 8, 7, 6, 2, 13, 14, 0, 3, 9, 11};

// Amount of rotate left s(j), s'(j).
constexpr uint8_t kSLeft[80] = {
    11, 14, 15, 12, 5, 8, 7, 9, 11, 13, 14, 15, 6, 7, 9, 8,
    7, 6, 8, 13, 11, 9, 7, 15, 7, 12, 15, 9, 11, 7, 13, 12,
    11, 13, 6, 7, 14, 9, 13, 15, 14, 8, 13, 6, 5, 12, 7, 5,
    11, 12, 14, 15, 14, 15, 9, 8, 9, 14, 5, 6, 8, 6, 5, 12,
    9, 15, 5, 11, 6, 8, 13, 12, 5, 12, 13, 14, 11, 8, 5, 6};
constexpr uint8_t kSRight[80] = {
    8, 9, 9, 11, 13, 15, 15, 5, 7, 7, 8, 11, 14, 14, 12, 6,
    9, 13, 15, 7, 12, 8, 9, 11, 7, 7, 12, 7, 6, 15, 13, 11,
    9, 7, 15, 11, 8, 6, 6, 14, 12, 13, 5, 14, 13, 13, 7, 5,
    15, 5, 8, 11, 14, 14, 6, 14, 6, 9, 12, 9, 12, 5, 15, 8,
    8, 5, 12, 9, 12, 5, 14, 6, 8, 13, 6, 5, 15, 13, 11, 11};

inline uint32_t ReadLE32(const uint8_t* p) {
    return uint32_t(p[0]) | (uint32_t(p[1]) << 8) | (uint32_t(p[2]) << 16) | (uint32_t(p[3]) << 24);
}
/** One application of the compression function to a 64-byte block. */
void CompressBlock(uint32_t h[5], const uint8_t* block) {
    uint32_t x[16];
    for (int i = 0; i < 16; ++i) x[i] = ReadLE32(block + 4 * i);
    uint32_t al = h[0], bl = h[1], cl = h[2], dl = h[3], el = h[4];
    uint32_t ar = h[0], br = h[1], cr = h[2], dr = h[3], er = h[4];
    for (int j = 0; j < 80; ++j) {
        const int round = j / 16;
        // Left line: T = rol_s(j)(A + f(j, B, C, D) + X[r(j)] + K(j)) + E; A = E; E = D;
        // D = rol_10(C); C = B; B = T.
        uint32_t t = Rol(al + F(round, bl, cl, dl) + x[kRLeft[j]] + kKLeft[round], kSLeft[j]) + el;
        al = el;
        el = dl;
        dl = Rol(cl, 10);
        cl = bl;
        bl = t;
        // Right line: same with f(79 - j), r', s', K'.
        t = Rol(ar + F(4 - round, br, cr, dr) + x[kRRight[j]] + kKRight[round], kSRight[j]) + er;
        ar = er;
        er = dr;
        dr = Rol(cr, 10);
        cr = br;
        br = t;
    }
    // Combination: T = h1 + C + D'; h1 = h2 + D + E'; h2 = h3 + E + A'; h3 = h4 + A + B';
    // h4 = h0 + B + C'; h0 = T.
    const uint32_t t = h[1] + cl + dr;
    h[1] = h[2] + dl + er;
    h[2] = h[3] + el + ar;
    h[3] = h[4] + al + br;
    h[4] = h[0] + bl + cr;
    h[0] = t;
}

}  // namespace

void Ripemd160::Compress(uint32_t h[5], const uint8_t* blocks, size_t nblocks) {
    for (; nblocks != 0; --nblocks, blocks += kBlockSize) CompressBlock(h, blocks);
}

template class BlockHasher<Ripemd160, false>;

Ripemd160& Ripemd160::Reset() {
    state_[0] = 0x67452301;
    state_[1] = 0xefcdab89;
    state_[2] = 0x98badcfe;
    state_[3] = 0x10325476;
    state_[4] = 0xc3d2e1f0;
    ResetLength();
    return *this;
}

void Ripemd160::Finalize(uint8_t out[kOutputSize]) {
    // MD4-style padding: 0x80, zeros up to 56 mod 64, the bit length as 64-bit little-endian;
    // then h0..h4 as little-endian words.
    Finish(out);
}

Hash20 Ripemd160Hash(const uint8_t* data, size_t len) {
    Ripemd160 h;
    h.Write(data, len);
    Hash20 out;
    h.Finalize(out.data());
    return out;
}

Hash20 Hash160(const uint8_t* data, size_t len) {
    const Hash32 sha = Sha256Hash(data, len);
    return Ripemd160Hash(sha.data(), sha.size());
}

}  // namespace ibd
