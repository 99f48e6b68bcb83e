// Candidate field multiplies for libsecp256k1's 10x26 field in wasm, measured against its own
// portable C (src/field_10x26_impl.h) by field-mul.mjs; none is shipped (docs/performance.md,
// "Field arithmetic in wasm"). Each computes r = a * b mod p with the contract of
// secp256k1_fe_mul_inner: inputs of ten 32-bit limbs in radix 2^26, limbs 0-8 below 2^30 and
// limb 9 below 2^26 (magnitude up to 8); output of magnitude 1 (limbs 0-8 at most 2^27 - 2,
// limb 9 at most 2^23 - 2), not normalized.
//   FeMulSimdExtmul  the 100 limb products in wasm SIMD lanes, two per i64x2.extmul_*_i32x4_u
//                    (a splat of a[i] against pairs of b), 50 instructions, then columns
//   FeMulKaratsuba   one Karatsuba level on 5-limb halves: 75 scalar products instead of 100
//                    (the middle term's sums wrap mod 2^64 and come back exact)
//   FeMulColumns     the 100 products in plain column sums, the reduction below
//   FeSqrColumns     squaring with the doubled cross products (55 products)
// All four share Reduce(): column sums -> carry chain -> fold 2^260 = 0x1000003D10 -> carry.
//
// FeMulF64Lanes / FeSqrF64Lanes are another representation, two field elements in lockstep
// (two signatures' values, one per f64x2 lane), in standard wasm SIMD (no fused multiply-add,
// so Node 20 runs it without a flag): 11 signed limbs in radix 2^24 held as doubles, where a
// 24x24-bit product and a column of 11 of them stay exact below 2^53. Layout: double[22], limb k
// of lane j at [2k + j], value = sum limb_k * 2^(24k) mod p. Inputs: |limb| <= 2^24.5; outputs:
// |limb| < 2^23 + 2^18 (so a sum of two outputs is a valid input). Carries are rounded with
// f64x2.nearest (balanced limbs), every column at once rather than in a chain, and the limbs
// above 2^264 fold with 2^264 = 2^40 + 250112 (mod p).
#include <cstdint>

#include <wasm_simd128.h>

namespace {

// clang 14 (emcc 3.1.6) lowers wasm_u64x2_extmul_low_u32x4 to extend + i64x2.mul, which V8
// compiles to eight instructions; the instruction itself is asked for directly.
inline v128_t ExtmulLow(v128_t a, v128_t b) {
    v128_t r;
    __asm__("local.get %1\n\tlocal.get %2\n\ti64x2.extmul_low_i32x4_u\n\tlocal.set %0" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
inline v128_t ExtmulHigh(v128_t a, v128_t b) {
    v128_t r;
    __asm__("local.get %1\n\tlocal.get %2\n\ti64x2.extmul_high_i32x4_u\n\tlocal.set %0" : "=r"(r) : "r"(a), "r"(b));
    return r;
}

/** c[0..18]: column sums sum_{i+j=k} a_i b_j (each below 10 * 2^60 < 2^64). */
inline void Reduce(uint32_t* r, const uint64_t* c) {
    const uint64_t M = 0x3FFFFFF, R0 = 0x3D10, R1 = 0x400;  // 2^260 mod p = R1 * 2^26 + R0
    uint64_t l[20];
    uint64_t t = 0;
    for (int k = 0; k < 19; ++k) {  // carry chain: 26-bit limbs l[0..18], l[19] < 2^32
        t += c[k];
        l[k] = t & M;
        t >>= 26;
    }
    l[19] = t;
    uint64_t u[11];  // fold limbs 10..19 (weights 2^(26k), k >= 10) onto 0..10
    u[0] = l[0] + R0 * l[10];
    for (int k = 1; k < 10; ++k) u[k] = l[k] + R0 * l[10 + k] + R1 * l[9 + k];
    u[10] = R1 * l[19];
    uint64_t rr[10];
    t = 0;
    for (int k = 0; k < 9; ++k) {
        t += u[k];
        rr[k] = t & M;
        t >>= 26;
    }
    t += u[9];
    const uint64_t x = (t >> 22) + (u[10] << 4);  // the multiple of 2^256 left
    rr[9] = t & 0x3FFFFF;
    t = rr[0] + x * 0x3D1;  // 2^256 mod p = 0x40 * 2^26 + 0x3D1
    rr[0] = t & M;
    t >>= 26;
    t += rr[1] + x * 0x40;
    rr[1] = t & M;
    t >>= 26;
    t += rr[2];
    rr[2] = t & M;
    t >>= 26;
    rr[3] += t;
    for (int k = 0; k < 10; ++k) r[k] = static_cast<uint32_t>(rr[k]);
}

}  // namespace

extern "C" void FeMulSimdExtmul(uint32_t* r, const uint32_t* a, const uint32_t* b) {
    const v128_t B0 = wasm_v128_load(b), B1 = wasm_v128_load(b + 4), B2 = wasm_v128_load64_zero(b + 8);
    // E[m] holds columns (2m, 2m+1) from even i, O[m] columns (2m+1, 2m+2) from odd i.
    v128_t E[10], O[10];
    for (int m = 0; m < 10; ++m) E[m] = O[m] = wasm_i64x2_splat(0);
#pragma clang loop unroll(full)
    for (int i = 0; i < 10; ++i) {
        const v128_t A = wasm_i32x4_splat(static_cast<int32_t>(a[i]));
        v128_t* acc = (i & 1) ? O : E;
        const int h = i >> 1;
        acc[h] = wasm_i64x2_add(acc[h], ExtmulLow(A, B0));
        acc[h + 1] = wasm_i64x2_add(acc[h + 1], ExtmulHigh(A, B0));
        acc[h + 2] = wasm_i64x2_add(acc[h + 2], ExtmulLow(A, B1));
        acc[h + 3] = wasm_i64x2_add(acc[h + 3], ExtmulHigh(A, B1));
        acc[h + 4] = wasm_i64x2_add(acc[h + 4], ExtmulLow(A, B2));
    }
    uint64_t c[20];
    v128_t prev = wasm_i64x2_splat(0);
    for (int m = 0; m < 10; ++m) {
        wasm_v128_store(c + 2 * m, wasm_i64x2_add(E[m], wasm_i64x2_shuffle(prev, O[m], 1, 2)));
        prev = O[m];
    }
    Reduce(r, c);
}

extern "C" void FeMulKaratsuba(uint32_t* r, const uint32_t* a, const uint32_t* b) {
    uint64_t lo[9] = {0}, hi[9] = {0}, mid[9] = {0};
    uint64_t sa[5], sb[5];
    for (int i = 0; i < 5; ++i) {
        sa[i] = static_cast<uint32_t>(a[i] + a[i + 5]);
        sb[i] = static_cast<uint32_t>(b[i] + b[i + 5]);
    }
#pragma clang loop unroll(full)
    for (int i = 0; i < 5; ++i) {
#pragma clang loop unroll(full)
        for (int j = 0; j < 5; ++j) {
            lo[i + j] += static_cast<uint64_t>(a[i]) * b[j];
            hi[i + j] += static_cast<uint64_t>(a[i + 5]) * b[j + 5];
            mid[i + j] += sa[i] * sb[j];
        }
    }
    uint64_t c[19] = {0};
    for (int k = 0; k < 9; ++k) {
        c[k] += lo[k];
        c[k + 10] += hi[k];
        c[k + 5] += mid[k] - lo[k] - hi[k];  // exact mod 2^64: the true cross sum is below 2^64
    }
    Reduce(r, c);
}

extern "C" void FeMulColumns(uint32_t* r, const uint32_t* a, const uint32_t* b) {
    uint64_t c[19] = {0};
#pragma clang loop unroll(full)
    for (int i = 0; i < 10; ++i) {
#pragma clang loop unroll(full)
        for (int j = 0; j < 10; ++j) c[i + j] += static_cast<uint64_t>(a[i]) * b[j];
    }
    Reduce(r, c);
}

extern "C" void FeSqrColumns(uint32_t* r, const uint32_t* a) {
    uint64_t c[19] = {0};
#pragma clang loop unroll(full)
    for (int i = 0; i < 10; ++i) {
        c[2 * i] += static_cast<uint64_t>(a[i]) * a[i];
        const uint64_t d = static_cast<uint64_t>(a[i]) * 2;
#pragma clang loop unroll(full)
        for (int j = i + 1; j < 10; ++j) c[i + j] += d * a[j];
    }
    Reduce(r, c);
}

namespace {

inline v128_t F(double x) { return wasm_f64x2_splat(x); }

/** x = lo + q * 2^24 with q = round(x / 2^24), |lo| <= 2^23: exact for |x| < 2^53. */
inline __attribute__((always_inline)) void Carry24(v128_t x, v128_t* lo, v128_t* q) {
    *q = wasm_f64x2_nearest(wasm_f64x2_mul(x, F(1.0 / 16777216.0)));
    *lo = wasm_f64x2_sub(x, wasm_f64x2_mul(*q, F(16777216.0)));
}

/** c[0..20]: column sums, each |c| < 2^53 -> r[0..10] with |limb| < 2^23 + 2^18. */
inline __attribute__((always_inline)) void ReduceLanes(v128_t* r, const v128_t* c) {
    const v128_t K0 = F(250112.0), K1 = F(65536.0);  // 2^264 = K1 * 2^24 + K0 (mod p)
    v128_t lo[21], q[21], v[22], w[12], x[13];
#pragma clang loop unroll(full)
    for (int k = 0; k < 21; ++k) Carry24(c[k], &lo[k], &q[k]);  // |v| < 2^23 + 2^28.5
    v[0] = lo[0];
#pragma clang loop unroll(full)
    for (int k = 1; k < 21; ++k) v[k] = wasm_f64x2_add(lo[k], q[k - 1]);
    v[21] = q[20];
    w[0] = wasm_f64x2_add(v[0], wasm_f64x2_mul(K0, v[11]));  // fold limbs 11..21: |w| < 2^47
#pragma clang loop unroll(full)
    for (int k = 1; k < 11; ++k)
        w[k] = wasm_f64x2_add(wasm_f64x2_add(v[k], wasm_f64x2_mul(K0, v[11 + k])), wasm_f64x2_mul(K1, v[10 + k]));
    w[11] = wasm_f64x2_mul(K1, v[21]);
#pragma clang loop unroll(full)
    for (int k = 0; k < 12; ++k) Carry24(w[k], &lo[k], &q[k]);
    x[0] = lo[0];
#pragma clang loop unroll(full)
    for (int k = 1; k < 12; ++k) x[k] = wasm_f64x2_add(lo[k], q[k - 1]);
    x[12] = q[11];
    x[0] = wasm_f64x2_add(x[0], wasm_f64x2_mul(K0, x[11]));  // fold limbs 11 and 12 again
    x[1] = wasm_f64x2_add(wasm_f64x2_add(x[1], wasm_f64x2_mul(K1, x[11])), wasm_f64x2_mul(K0, x[12]));
    x[2] = wasm_f64x2_add(x[2], wasm_f64x2_mul(K1, x[12]));
#pragma clang loop unroll(full)
    for (int k = 0; k < 11; ++k) Carry24(x[k], &lo[k], &q[k]);  // q[10] is -1, 0 or 1
    r[0] = wasm_f64x2_add(lo[0], wasm_f64x2_mul(K0, q[10]));
    r[1] = wasm_f64x2_add(wasm_f64x2_add(lo[1], q[0]), wasm_f64x2_mul(K1, q[10]));
#pragma clang loop unroll(full)
    for (int k = 2; k < 11; ++k) r[k] = wasm_f64x2_add(lo[k], q[k - 1]);
}

}  // namespace

extern "C" void FeMulF64Lanes(double* r, const double* a, const double* b) {
    v128_t A[11], B[11], c[21], R[11];
    for (int k = 0; k < 11; ++k) {
        A[k] = wasm_v128_load(a + 2 * k);
        B[k] = wasm_v128_load(b + 2 * k);
    }
#pragma clang loop unroll(full)
    for (int k = 0; k < 21; ++k) {
        const int i0 = k > 10 ? k - 10 : 0, i1 = k < 10 ? k : 10;
        v128_t s = wasm_f64x2_mul(A[i0], B[k - i0]);
#pragma clang loop unroll(full)
        for (int i = i0 + 1; i <= i1; ++i) s = wasm_f64x2_add(s, wasm_f64x2_mul(A[i], B[k - i]));
        c[k] = s;
    }
    ReduceLanes(R, c);
    for (int k = 0; k < 11; ++k) wasm_v128_store(r + 2 * k, R[k]);
}

extern "C" void FeSqrF64Lanes(double* r, const double* a) {
    v128_t A[11], D[11], c[21], R[11];
    for (int k = 0; k < 11; ++k) {
        A[k] = wasm_v128_load(a + 2 * k);
        D[k] = wasm_f64x2_add(A[k], A[k]);
    }
#pragma clang loop unroll(full)
    for (int k = 0; k < 21; ++k) {
        const int i0 = k > 10 ? k - 10 : 0;
        v128_t s = (k & 1) ? F(0.0) : wasm_f64x2_mul(A[k / 2], A[k / 2]);
#pragma clang loop unroll(full)
        for (int i = i0; 2 * i < k; ++i) s = wasm_f64x2_add(s, wasm_f64x2_mul(D[i], A[k - i]));
        c[k] = s;
    }
    ReduceLanes(R, c);
    for (int k = 0; k < 11; ++k) wasm_v128_store(r + 2 * k, R[k]);
}

// IBD_FIELD_HOOK: libsecp256k1 built with USE_EXTERNAL_ASM takes its 10x26 multiply and square
// from outside (the hook its ARM assembly uses); field-mul.mjs links one of these in to time
// ECDSA verification with each.
#if defined(IBD_FIELD_HOOK_SIMD) || defined(IBD_FIELD_HOOK_KARATSUBA)
extern "C" void secp256k1_fe_mul_inner(uint32_t* r, const uint32_t* a, const uint32_t* b) {
#ifdef IBD_FIELD_HOOK_SIMD
    FeMulSimdExtmul(r, a, b);
#else
    FeMulKaratsuba(r, a, b);
#endif
}
extern "C" void secp256k1_fe_sqr_inner(uint32_t* r, const uint32_t* a) { FeSqrColumns(r, a); }
#endif
