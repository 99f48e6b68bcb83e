/* The harness of field-mul.mjs: libsecp256k1 0.5.0 (10x26 field) in this translation unit, so
 * that its internal field functions are callable. Built three ways by field-mul.mjs:
 *   portable  the library as shipped; `diff` and `mul` run here
 *   simd      USE_EXTERNAL_ASM + IBD_FIELD_HOOK_SIMD: FeMulSimdExtmul as its field multiply
 *   karatsuba USE_EXTERNAL_ASM + IBD_FIELD_HOOK_KARATSUBA
 * Usage (node, NODERAWFS):
 *   diff N            N random and edge-case products through every candidate against the
 *                     library's own (normalized results equal; output magnitude 1): one JSON line
 *   mul N             ns per call of each multiply (a dependent chain of N calls each, not
 *                     inlined, the library's own in a noinline wrapper): one JSON line
 *   verify FILE R     ECDSA verification of the FILE's ECDSA records (check_buffer.h; keys and
 *                     strict-DER signatures that parse, S normalized), R passes: one JSON line
 *                     with each pass's µs per verification and the valid count */
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

#ifndef USE_EXTERNAL_ASM
static int diff(long n) {
    long i;
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

static int mul(long n) {
    printf("{\"portable_mul_ns\":%.2f,\"simd_extmul_ns\":%.2f,\"karatsuba_ns\":%.2f,\"columns_ns\":%.2f,"
           "\"portable_sqr_ns\":%.2f,\"columns_sqr_ns\":%.2f}\n",
           time_mul(PortableMul, n), time_mul(FeMulSimdExtmul, n), time_mul(FeMulKaratsuba, n),
           time_mul(FeMulColumns, n), time_mul(PortableSqr, n), time_mul(ColumnsSqr, n));
    return 0;
}
#endif

static int verify(const char *path, int passes) {
    FILE *f = fopen(path, "rb");
    unsigned char *buf;
    long len, off = 0;
    size_t n = 0, cap = 0, i;
    int p, valid = 0;
    struct parsed { secp256k1_pubkey pk; secp256k1_ecdsa_signature sig; const unsigned char *msg; } *set = NULL;
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
                n++;
            }
        }
        off += 36 + (long)(pk_len + sig_len);
    }
    printf("{\"verifications\":%lu,\"us_per_verify\":[", (unsigned long)n);
    for (p = 0; p < passes; p++) {
        double t0 = emscripten_get_now();
        valid = 0;
        for (i = 0; i < n; i++) valid += secp256k1_ecdsa_verify(ctx, &set[i].sig, set[i].msg, &set[i].pk);
        printf("%s%.3f", p ? "," : "", (emscripten_get_now() - t0) * 1000 / (double)(n ? n : 1));
    }
    printf("],\"valid\":%d}\n", valid);
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
