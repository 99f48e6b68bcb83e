/* The harness of field-mul.mjs: libsecp256k1 0.5.0 (10x26 field) in this translation unit, so
 * that its internal field functions are callable. Built three ways by field-mul.mjs:
 *   portable  the library as shipped; `diff` and `mul` run here
 *   simd      USE_EXTERNAL_ASM + IBD_FIELD_HOOK_SIMD: FeMulSimdExtmul as its field multiply
 *   karatsuba USE_EXTERNAL_ASM + IBD_FIELD_HOOK_KARATSUBA
 * Usage (node, NODERAWFS):
 *   diff N            N random and edge-case products through every candidate against the
 *                     library's own (normalized results equal; output magnitude 1; the f64x2
 *                     lanes' two elements each, outputs within their limb bound): one JSON line
 *   mul N             ns per call of each multiply (a dependent chain of N calls each, not
 *                     inlined, the library's own in a noinline wrapper; the lanes' per element,
 *                     half a call's time): one JSON line
 *   verify FILE R     ECDSA verification of the FILE's ECDSA records (check_buffer.h; keys and
 *                     strict-DER signatures that parse, S normalized), R passes: one JSON line
 *                     with each pass's µs per verification and the valid count, and per pass
 *                     two of its parts timed alone over the same records: s^-1 mod n
 *                     (secp256k1_scalar_inverse_var, as secp256k1_ecdsa_sig_verify computes it)
 *                     and the key's parse (secp256k1_ec_pubkey_parse), apart for 33-byte keys
 *                     (a square root) and 65-byte ones (a curve check) */
#include "secp256k1.c"
#include "precomputed_ecmult.c"
#include "precomputed_ecmult_gen.c"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <emscripten.h>

void FeMulSimdExtmul(uint32_t *r, const uint32_t *a, const uint32_t *b);
void FeMulKaratsuba(uint32_t *r, const uint32_t *a, const uint32_t *b);
void FeMulColumns(uint32_t *r, const uint32_t *a, const uint32_t *b);
void FeSqrColumns(uint32_t *r, const uint32_t *a);
void FeMulF64Lanes(double *r, const double *a, const double *b);
void FeSqrF64Lanes(double *r, const double *a);

static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static uint32_t next32(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return (uint32_t)rng; }

/* mode 0: random limbs within the input bounds; 1: every limb at its bound; 2: each limb 0 or at its bound. */
static void random_fe(uint32_t *n, int mode) {
    int k;
    for (k = 0; k < 10; k++) {
        uint32_t max = k == 9 ? 0x3FFFFFFUL : 0x3FFFFFFFUL; /* 2^26 - 1 / 2^30 - 1 */
        n[k] = mode == 1 ? max : mode == 2 ? ((next32() & 1) ? max : 0) : next32() & max;
    }
}

static int magnitude_one(const uint32_t *n) {
    int k;
    for (k = 0; k < 10; k++) if (n[k] > (k == 9 ? 2 * 0x3FFFFFUL : 2 * 0x3FFFFFFUL)) return 0;
    return 1;
}

static int same(const uint32_t *x, const uint32_t *y) {
    secp256k1_fe a, b;
    memcpy(a.n, x, 40);
    memcpy(b.n, y, 40);
    secp256k1_fe_impl_normalize(&a);
    secp256k1_fe_impl_normalize(&b);
    return memcmp(a.n, b.n, 40) == 0;
}

/* The f64x2 lanes' form (field_mul_variants.cpp): 11 signed limbs in radix 2^24, limb k of lane
 * j at x[2k + j]. */
#define LANE_IN_BOUND 23726566.0 /* 2^24.5: the inputs' limb bound */
#define LANE_OUT_BOUND 8650752.0 /* 2^23 + 2^18: the outputs' */

static void lane_set(double *x, int lane, const secp256k1_fe *f) {
    secp256k1_fe t = *f;
    unsigned char b[32];
    int k, bit;
    secp256k1_fe_normalize(&t);
    secp256k1_fe_get_b32(b, &t);
    for (k = 0; k < 11; k++) {
        uint32_t limb = 0;
        for (bit = 0; bit < 24 && 24 * k + bit < 256; bit += 8) limb |= (uint32_t)b[31 - (24 * k + bit) / 8] << bit;
        x[2 * k + lane] = (double)limb;
    }
}

/* The lane's value mod p: the limbs carried into 24-bit digits d and a signed top t, then
 * sum d_k 2^(24k) (bits 0..255 as bytes, bits 256..263 and t * 2^264 through 2^256 = 2^32 + 977). */
static void lane_get(secp256k1_fe *out, const double *x, int lane) {
    int64_t d[11], t = 0, s;
    unsigned char b[32], cb[32];
    secp256k1_fe lo, c, m;
    int k;
    for (k = 0; k < 11; k++) {
        t += (int64_t)x[2 * k + lane];
        d[k] = t & 0xFFFFFF;
        t = (t - d[k]) / 16777216;
    }
    for (k = 0; k < 256; k += 8) b[31 - k / 8] = (unsigned char)(d[k / 24] >> (k % 24));
    secp256k1_fe_set_b32_mod(&lo, b);
    s = (d[10] >> 16) + 256 * t; /* the multiple of 2^256 */
    memset(cb, 0, 32);
    cb[27] = 1; cb[30] = 0x03; cb[31] = 0xD1;
    secp256k1_fe_set_b32_mod(&c, cb);
    secp256k1_fe_set_int(&m, (int)(s < 0 ? -s : s));
    secp256k1_fe_mul(&m, &m, &c);
    secp256k1_fe_normalize_weak(&m);
    if (s < 0) secp256k1_fe_negate(&m, &m, 1);
    secp256k1_fe_add(&lo, &m);
    secp256k1_fe_normalize(&lo);
    *out = lo;
}

/* mode 0: two random field elements; 1: random signed limbs within the input bound; 2: each
 * limb at plus or minus the bound. */
static void random_lanes(double *x, int mode) {
    int k, lane;
    for (lane = 0; lane < 2; lane++) {
        if (mode == 0) {
            uint32_t n[10];
            secp256k1_fe f;
            random_fe(n, 0);
            n[9] &= 0x3FFFFF;
            memcpy(f.n, n, 40);
            lane_set(x, lane, &f);
        } else {
            for (k = 0; k < 11; k++) {
                double v = mode == 2 ? LANE_IN_BOUND : (double)(next32() % 23726567u);
                x[2 * k + lane] = (next32() & 1) ? v : -v;
            }
        }
    }
}

static int lanes_ok(const double *r, const double *a, const double *b) {
    int k, lane;
    for (k = 0; k < 22; k++) if (r[k] > LANE_OUT_BOUND || r[k] < -LANE_OUT_BOUND) return 0;
    for (lane = 0; lane < 2; lane++) {
        secp256k1_fe fa, fb, want, got;
        lane_get(&fa, a, lane);
        lane_get(&got, r, lane);
        if (b) {
            lane_get(&fb, b, lane);
            secp256k1_fe_mul(&want, &fa, &fb);
        } else {
            secp256k1_fe_sqr(&want, &fa);
        }
        secp256k1_fe_normalize(&want);
        if (memcmp(want.n, got.n, 40) != 0) return 0;
    }
    return 1;
}

#ifndef USE_EXTERNAL_ASM
static int diff(long n) {
    long i;
    for (i = 0; i < n; i++) {
        double la[22], lb[22], lr[22];
        random_lanes(la, i % 7 == 0 ? 2 : i % 3 == 0 ? 0 : 1);
        random_lanes(lb, i % 5 == 0 ? 2 : i % 2 == 0 ? 0 : 1);
        FeMulF64Lanes(lr, la, lb);
        if (!lanes_ok(lr, la, lb)) { printf("{\"ok\":false,\"candidate\":\"f64-lanes\",\"case\":%ld}\n", i); return 1; }
        FeSqrF64Lanes(lr, la);
        if (!lanes_ok(lr, la, NULL)) { printf("{\"ok\":false,\"candidate\":\"f64-lanes-sqr\",\"case\":%ld}\n", i); return 1; }
    }
    for (i = 0; i < n; i++) {
        uint32_t a[10], b[10], want[10], want_sqr[10], got[10];
        random_fe(a, i % 7 == 0 ? 1 : i % 5 == 0 ? 2 : 0);
        random_fe(b, i % 11 == 0 ? 1 : i % 3 == 0 ? 2 : 0);
        secp256k1_fe_mul_inner(want, a, b);
        secp256k1_fe_sqr_inner(want_sqr, a);
        FeMulSimdExtmul(got, a, b);
        if (!magnitude_one(got) || !same(got, want)) { printf("{\"ok\":false,\"candidate\":\"simd\",\"case\":%ld}\n", i); return 1; }
        FeMulKaratsuba(got, a, b);
        if (!magnitude_one(got) || !same(got, want)) { printf("{\"ok\":false,\"candidate\":\"karatsuba\",\"case\":%ld}\n", i); return 1; }
        FeMulColumns(got, a, b);
        if (!magnitude_one(got) || !same(got, want)) { printf("{\"ok\":false,\"candidate\":\"columns\",\"case\":%ld}\n", i); return 1; }
        FeSqrColumns(got, a);
        if (!magnitude_one(got) || !same(got, want_sqr)) { printf("{\"ok\":false,\"candidate\":\"sqr-columns\",\"case\":%ld}\n", i); return 1; }
    }
    printf("{\"ok\":true,\"cases\":%ld}\n", n);
    return 0;
}

__attribute__((noinline)) static void PortableMul(uint32_t *r, const uint32_t *a, const uint32_t *b) { secp256k1_fe_mul_inner(r, a, b); }
__attribute__((noinline)) static void PortableSqr(uint32_t *r, const uint32_t *a, const uint32_t *b) { (void)b; secp256k1_fe_sqr_inner(r, a); }
__attribute__((noinline)) static void ColumnsSqr(uint32_t *r, const uint32_t *a, const uint32_t *b) { (void)b; FeSqrColumns(r, a); }

typedef void (*mul_fn)(uint32_t *, const uint32_t *, const uint32_t *);

static double time_mul(mul_fn f, long n) {
    uint32_t a[10], b[10];
    long i;
    double t0;
    random_fe(a, 0);
    random_fe(b, 0);
    a[9] &= 0x3FFFFF; b[9] &= 0x3FFFFF;
    t0 = emscripten_get_now();
    for (i = 0; i < n; i++) f(a, a, b); /* dependent: each result is the next input */
    return (emscripten_get_now() - t0) * 1e6 / (double)n + (a[0] == 0xFFFFFFFFu ? 1e-9 : 0);
}

/* ns per field element: a dependent chain of n calls, each multiplying (or squaring) two
 * elements in lockstep, halved. */
static double time_lanes(int square, long n) {
    double a[22], b[22], t0;
    long i;
    random_lanes(a, 0);
    random_lanes(b, 0);
    t0 = emscripten_get_now();
    if (square) for (i = 0; i < n; i++) FeSqrF64Lanes(a, a);
    else for (i = 0; i < n; i++) FeMulF64Lanes(a, a, b);
    return (emscripten_get_now() - t0) * 1e6 / (double)n / 2 + (a[0] == 0.5 ? 1e-9 : 0);
}

static int mul(long n) {
    printf("{\"portable_mul_ns\":%.2f,\"simd_extmul_ns\":%.2f,\"karatsuba_ns\":%.2f,\"columns_ns\":%.2f,"
           "\"f64_lanes_mul_ns\":%.2f,\"portable_sqr_ns\":%.2f,\"columns_sqr_ns\":%.2f,\"f64_lanes_sqr_ns\":%.2f}\n",
           time_mul(PortableMul, n), time_mul(FeMulSimdExtmul, n), time_mul(FeMulKaratsuba, n),
           time_mul(FeMulColumns, n), time_lanes(0, n), time_mul(PortableSqr, n), time_mul(ColumnsSqr, n),
           time_lanes(1, n));
    return 0;
}
#endif

static int verify(const char *path, int passes) {
    FILE *f = fopen(path, "rb");
    unsigned char *buf;
    long len, off = 0;
    size_t n = 0, cap = 0, i;
    int p, valid = 0;
    struct parsed { secp256k1_pubkey pk; secp256k1_ecdsa_signature sig; const unsigned char *msg, *key; size_t key_len; } *set = NULL;
    size_t keys33 = 0, keys65 = 0;
    double *t_verify, *t_inverse, *t_parse33, *t_parse65;
    secp256k1_scalar sink; /* the inverses summed and printed, so that none is optimized away */
    const secp256k1_context *ctx = secp256k1_context_static;
    if (f == NULL) { fprintf(stderr, "cannot open %s\n", path); return 1; }
    fseek(f, 0, SEEK_END); len = ftell(f); fseek(f, 0, SEEK_SET);
    buf = (unsigned char *)malloc((size_t)len);
    if (buf == NULL || fread(buf, 1, (size_t)len, f) != (size_t)len) { fprintf(stderr, "cannot read %s\n", path); return 1; }
    fclose(f);
    while (off + 36 <= len) {
        size_t pk_len = buf[off + 1], sig_len = buf[off + 2] | ((size_t)buf[off + 3] << 8);
        if (off + 36 + (long)(pk_len + sig_len) > len) break;
        if (buf[off] == 1) {
            if (n == cap) { cap = cap ? 2 * cap : 1024; set = realloc(set, cap * sizeof(*set)); }
            if (secp256k1_ec_pubkey_parse(ctx, &set[n].pk, buf + off + 36, pk_len) &&
                secp256k1_ecdsa_signature_parse_der(ctx, &set[n].sig, buf + off + 36 + pk_len, sig_len)) {
                secp256k1_ecdsa_signature_normalize(ctx, &set[n].sig, &set[n].sig);
                set[n].msg = buf + off + 4;
                set[n].key = buf + off + 36;
                set[n].key_len = pk_len;
                if (pk_len == 33) keys33++;
                if (pk_len == 65) keys65++;
                n++;
            }
        }
        off += 36 + (long)(pk_len + sig_len);
    }
    secp256k1_scalar_set_int(&sink, 0);
    t_verify = (double *)calloc((size_t)passes * 4 + 4, sizeof(double));
    if (t_verify == NULL) { fprintf(stderr, "out of memory\n"); return 1; }
    t_inverse = t_verify + passes + 1;
    t_parse33 = t_inverse + passes + 1;
    t_parse65 = t_parse33 + passes + 1;
    for (p = 0; p < passes; p++) {
        secp256k1_scalar r, sc, sinv;
        secp256k1_pubkey pk;
        int parsed = 0;
        double t0 = emscripten_get_now(), t1, t2, t3;
        valid = 0;
        for (i = 0; i < n; i++) valid += secp256k1_ecdsa_verify(ctx, &set[i].sig, set[i].msg, &set[i].pk);
        t1 = emscripten_get_now();
        for (i = 0; i < n; i++) {
            secp256k1_ecdsa_signature_load(ctx, &r, &sc, &set[i].sig);
            secp256k1_scalar_inverse_var(&sinv, &sc);
            secp256k1_scalar_add(&sink, &sink, &sinv);
        }
        t2 = emscripten_get_now();
        for (i = 0; i < n; i++) if (set[i].key_len == 33) parsed += secp256k1_ec_pubkey_parse(ctx, &pk, set[i].key, 33);
        t3 = emscripten_get_now();
        for (i = 0; i < n; i++) if (set[i].key_len == 65) parsed += secp256k1_ec_pubkey_parse(ctx, &pk, set[i].key, 65);
        t_parse65[p] = (emscripten_get_now() - t3) * 1000 / (double)(keys65 ? keys65 : 1);
        t_verify[p] = (t1 - t0) * 1000 / (double)(n ? n : 1);
        t_inverse[p] = (t2 - t1) * 1000 / (double)(n ? n : 1);
        t_parse33[p] = (t3 - t2) * 1000 / (double)(keys33 ? keys33 : 1);
        if (parsed != (int)(keys33 + keys65)) {
            fprintf(stderr, "a key that parsed before failed to parse\n");
            return 1;
        }
    }
    printf("{\"verifications\":%lu,\"keys_33\":%lu,\"keys_65\":%lu", (unsigned long)n, (unsigned long)keys33, (unsigned long)keys65);
    {
        const char *names[4] = { "us_per_verify", "us_per_scalar_inverse", "us_per_parse_33", "us_per_parse_65" };
        double *series[4];
        int k;
        series[0] = t_verify; series[1] = t_inverse; series[2] = t_parse33; series[3] = t_parse65;
        for (k = 0; k < 4; k++) {
            printf(",\"%s\":[", names[k]);
            for (p = 0; p < passes; p++) printf("%s%.3f", p ? "," : "", series[k][p]);
            printf("]");
        }
    }
    printf(",\"valid\":%d,\"sink\":%u}\n", valid, secp256k1_scalar_get_bits_limb32(&sink, 0, 8));
    free(t_verify);
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 4 && strcmp(argv[1], "verify") == 0) return verify(argv[2], atoi(argv[3]));
#ifndef USE_EXTERNAL_ASM
    if (argc >= 3 && strcmp(argv[1], "diff") == 0) return diff(atol(argv[2]));
    if (argc >= 3 && strcmp(argv[1], "mul") == 0) return mul(atol(argv[2]));
#endif
    fprintf(stderr, "usage: diff N | mul N (portable build) | verify FILE PASSES\n");
    return 2;
}
