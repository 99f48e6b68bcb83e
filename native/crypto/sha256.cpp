// SHA-256 as specified in FIPS 180-4; the section numbers below refer to that document.
#include "crypto/sha256.h"

#include <type_traits>

namespace ibd {

namespace {

// Section 4.2.2: the first 32 bits of the fractional parts of the cube roots of the first 64
// primes.
constexpr uint32_t kK[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

inline uint32_t Rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }
// Section 4.1.2, functions (4.2)-(4.7).
inline uint32_t Ch(uint32_t x, uint32_t y, uint32_t z) { return z ^ (x & (y ^ z)); }
inline uint32_t Maj(uint32_t x, uint32_t y, uint32_t z) { return (x & y) | (z & (x | y)); }
inline uint32_t BigSigma0(uint32_t x) { return Rotr(x, 2) ^ Rotr(x, 13) ^ Rotr(x, 22); }
inline uint32_t BigSigma1(uint32_t x) { return Rotr(x, 6) ^ Rotr(x, 11) ^ Rotr(x, 25); }
inline uint32_t SmallSigma0(uint32_t x) { return Rotr(x, 7) ^ Rotr(x, 18) ^ (x >> 3); }
inline uint32_t SmallSigma1(uint32_t x) { return Rotr(x, 17) ^ Rotr(x, 19) ^ (x >> 10); }

inline uint32_t ReadBE32(const uint8_t* p) {
    return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | uint32_t(p[3]);
}

/** Section 6.2.2 step 3, one round: T1 = h + Σ1(e) + Ch(e, f, g) + K_t + W_t, T2 = Σ0(a) +
 *  Maj(a, b, c); then d + T1 becomes the new e and T1 + T2 the new a. Instead of shifting the
 *  eight working variables, the caller rotates the names it passes: the round writes the new e
 *  into `d` and the new a into `h`. `kw` is K_t + W_t. */
inline void Round(uint32_t a, uint32_t b, uint32_t c, uint32_t& d, uint32_t e, uint32_t f, uint32_t g, uint32_t& h,
                  uint32_t kw) {
    const uint32_t t1 = h + BigSigma1(e) + Ch(e, f, g) + kw;
    const uint32_t t2 = BigSigma0(a) + Maj(a, b, c);
    d += t1;
    h = t1 + t2;
}

}  // namespace

// The message schedule (step 1) is kept in 16 words, w[t mod 16], and computed as the rounds
// need it: from t = 16 on, W_t = σ1(W_t-2) + W_t-7 + σ0(W_t-15) + W_t-16 overwrites W_t-16.
// Every index below is a constant once the macros expand (no loop), so the compiler keeps the
// 16 words and the 8 working variables in registers (wasm: locals) rather than in an array in
// memory. Measured: bench/quadratic (docs/performance.md, "Legacy quadratic sighash").
#define IBD_SHA256_W(t)                                                                                         \
    ((t) < 16 ? w[(t)&15]                                                                                       \
              : (w[(t)&15] += SmallSigma1(w[((t)-2) & 15]) + w[((t)-7) & 15] + SmallSigma0(w[((t)-15) & 15])))
#define IBD_SHA256_8ROUNDS(t)                                          \
    Round(a, b, c, d, e, f, g, h, kK[(t) + 0] + IBD_SHA256_W((t) + 0)); \
    Round(h, a, b, c, d, e, f, g, kK[(t) + 1] + IBD_SHA256_W((t) + 1)); \
    Round(g, h, a, b, c, d, e, f, kK[(t) + 2] + IBD_SHA256_W((t) + 2)); \
    Round(f, g, h, a, b, c, d, e, kK[(t) + 3] + IBD_SHA256_W((t) + 3)); \
    Round(e, f, g, h, a, b, c, d, kK[(t) + 4] + IBD_SHA256_W((t) + 4)); \
    Round(d, e, f, g, h, a, b, c, kK[(t) + 5] + IBD_SHA256_W((t) + 5)); \
    Round(c, d, e, f, g, h, a, b, kK[(t) + 6] + IBD_SHA256_W((t) + 6)); \
    Round(b, c, d, e, f, g, h, a, kK[(t) + 7] + IBD_SHA256_W((t) + 7))

void Sha256::Compress(uint32_t s[8], const uint8_t* chunk, size_t blocks) {
    while (blocks--) {
        // Step 1 (first 16 words): the message block as big-endian words.
        uint32_t w[16];
        for (int t = 0; t < 16; ++t) w[t] = ReadBE32(chunk + 4 * t);
        // Step 2: the working variables.
        uint32_t a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
        // Step 3: 64 rounds, eight at a time (after eight, every name is back in its place).
        IBD_SHA256_8ROUNDS(0);
        IBD_SHA256_8ROUNDS(8);
        IBD_SHA256_8ROUNDS(16);
        IBD_SHA256_8ROUNDS(24);
        IBD_SHA256_8ROUNDS(32);
        IBD_SHA256_8ROUNDS(40);
        IBD_SHA256_8ROUNDS(48);
        IBD_SHA256_8ROUNDS(56);
        // Step 4: the intermediate hash value.
        s[0] += a;
        s[1] += b;
        s[2] += c;
        s[3] += d;
        s[4] += e;
        s[5] += f;
        s[6] += g;
        s[7] += h;
        chunk += 64;
    }
}

#undef IBD_SHA256_8ROUNDS
#undef IBD_SHA256_W

template class BlockHasher<Sha256, true>;

Sha256& Sha256::Reset() {
    // Section 5.3.3: the initial hash value H(0).
    state_[0] = 0x6a09e667;
    state_[1] = 0xbb67ae85;
    state_[2] = 0x3c6ef372;
    state_[3] = 0xa54ff53a;
    state_[4] = 0x510e527f;
    state_[5] = 0x9b05688c;
    state_[6] = 0x1f83d9ab;
    state_[7] = 0x5be0cd19;
    ResetLength();
    return *this;
}

void Sha256::Finalize(uint8_t out[kOutputSize]) {
    // Section 5.1.1 padding (0x80, zeros up to 56 mod 64, the bit length as 64-bit big-endian),
    // then H(N) as big-endian words.
    Finish(out);
}

Hash32 Sha256Hash(const uint8_t* data, size_t len) {
    Sha256 h;
    h.Write(data, len);
    return h.Finalize();
}

Hash32 FinalizeDouble(Sha256& h) {
    const Hash32 first = h.Finalize();
    return Sha256Hash(first.data(), first.size());
}

Hash32 Sha256d(const uint8_t* data, size_t len) {
    Sha256 h;
    h.Write(data, len);
    return FinalizeDouble(h);
}

// TaggedHasher returns (and its callers copy) a primed state.
static_assert(std::is_trivially_copyable_v<Sha256>, "a copied Sha256 continues from the same state");

Sha256 TaggedHasher(std::string_view tag) {
    const Hash32 tag_hash = Sha256Hash(reinterpret_cast<const uint8_t*>(tag.data()), tag.size());
    Sha256 h;
    h.Write(tag_hash.data(), tag_hash.size());
    h.Write(tag_hash.data(), tag_hash.size());
    return h;
}

Hash32 TaggedHash(std::string_view tag, const uint8_t* msg, size_t len) {
    Sha256 h = TaggedHasher(tag);
    h.Write(msg, len);
    return h.Finalize();
}

}  // namespace ibd
