/* libsecp256k1 as ibd-wasm builds it: the library's own single translation unit, then the
 * project's additions that need its static internals (a module, as the library's own
 * src/modules/ are). Built by cmake/secp256k1.cmake in place of src/secp256k1.c.
 *
 * IBD_ECMULT_TABLES_AT_START (the wasm variants): the library's two tables of multiples of G
 * are not linked from src/precomputed_ecmult.c but computed when the module starts, and grown
 * while it runs (ecmult_tables.h). The library reads them as secp256k1_pre_g[i] and
 * secp256k1_pre_g_128[i] (src/ecmult_impl.h) and declares them `extern const` arrays
 * (src/precomputed_ecmult.h); the two macros below turn those names into pointers to const
 * arrays, so that its declaration declares the pointers and every read goes through them, to
 * writable arrays defined here. Its window over them, WINDOW_G (the wNAF width of the scalar of
 * G, src/ecmult_impl.h secp256k1_ecmult_strauss_wnaf), is a constant there; here it becomes
 * ibd_window_g, the window the tables computed so far cover: precomputed_ecmult.h, where
 * WINDOW_G is defined and used to size the arrays, is included first, then WINDOW_G is
 * redefined for the rest of the library. No type is declared two ways and the pinned source is
 * not modified. */
#ifdef IBD_ECMULT_TABLES_AT_START
#define secp256k1_pre_g (*ibd_pre_g)
#define secp256k1_pre_g_128 (*ibd_pre_g_128)
#define SECP256K1_BUILD
#include "precomputed_ecmult.h"
#undef WINDOW_G
#define WINDOW_G ibd_window_g
/* The window the computed tables cover: 0 until ibd_ecmult_tables_init. */
static int ibd_window_g = 0;
#endif

/* IBD_FIELD_5X52_OUT_OF_LINE (the 'wide' wasm variant): libsecp256k1's 5x52 field, whose
 * multiply and square (secp256k1_fe_mul_inner, secp256k1_fe_sqr_inner of
 * src/field_5x52_int128_impl.h, static inline there) are called through two functions kept out
 * of line, ibd_fe_mul_inner and ibd_fe_sqr_inner. Compiled, each is the library's own inner
 * function; after the link, wasm/wide-arithmetic/patch.mjs replaces their bodies, found by
 * these names, with the same steps written in wasm's wide-arithmetic instructions
 * (i64.mul_wide_u, i64.add128), which clang 14 cannot emit. The header is included first, so
 * that its include guard keeps field_5x52_impl.h from including it again, and the two macros
 * then send the library's calls to the wrappers. Nothing of the pinned source is modified. */
#ifdef IBD_FIELD_5X52_OUT_OF_LINE
#ifndef SECP256K1_BUILD
#define SECP256K1_BUILD
#endif
#include "field_5x52_int128_impl.h"
__attribute__((noinline)) static void ibd_fe_mul_inner(uint64_t *r, const uint64_t *a, const uint64_t * SECP256K1_RESTRICT b) {
    secp256k1_fe_mul_inner(r, a, b);
}
__attribute__((noinline)) static void ibd_fe_sqr_inner(uint64_t *r, const uint64_t *a) {
    secp256k1_fe_sqr_inner(r, a);
}
#define secp256k1_fe_mul_inner ibd_fe_mul_inner
#define secp256k1_fe_sqr_inner ibd_fe_sqr_inner
#endif

#include "secp256k1.c"

#ifdef IBD_ECMULT_TABLES_AT_START
#undef secp256k1_pre_g
#undef secp256k1_pre_g_128
#undef WINDOW_G
#define WINDOW_G ECMULT_WINDOW_SIZE
#endif

#include "secp256k1/ecmult_tables.h"
#include "secp256k1/schnorrsig_batch_impl.h"

typedef secp256k1_ge_storage ibd_ecmult_table_t[ECMULT_TABLE_SIZE(WINDOW_G)];

#ifdef IBD_ECMULT_TABLES_AT_START
#ifndef IBD_ECMULT_START_WINDOW
#define IBD_ECMULT_START_WINDOW 12
#endif
#if IBD_ECMULT_START_WINDOW < 2 || IBD_ECMULT_START_WINDOW > ECMULT_WINDOW_SIZE
#error IBD_ECMULT_START_WINDOW must be in 2..ECMULT_WINDOW_SIZE
#endif
/* Verifications at each incomplete window before the tables grow a level (ibd_ecmult_tables_use). */
#define IBD_ECMULT_USES_PER_LEVEL 16
static ibd_ecmult_table_t ibd_computed_g;
static ibd_ecmult_table_t ibd_computed_g_128;
/* Verifications at the current window, while the tables are incomplete (ibd_ecmult_tables_use). */
static unsigned ibd_uses_since_growth = 0;
/* Null until computed: a verification before ibd_ecmult_tables_init traps instead of reading
 * zeros (which would make every signature invalid). */
const ibd_ecmult_table_t *ibd_pre_g = NULL;
const ibd_ecmult_table_t *ibd_pre_g_128 = NULL;
#endif

size_t ibd_ecmult_table_bytes(void) { return sizeof(ibd_ecmult_table_t); }

int ibd_ecmult_tables_computed(void) {
#ifdef IBD_ECMULT_TABLES_AT_START
    return 1;
#else
    return 0;
#endif
}

int ibd_ecmult_tables_window(void) {
#ifdef IBD_ECMULT_TABLES_AT_START
    return ibd_window_g;
#else
    return ECMULT_WINDOW_SIZE;
#endif
}

const unsigned char *ibd_ecmult_table(int which) {
#ifdef IBD_ECMULT_TABLES_AT_START
    if (ibd_window_g != ECMULT_WINDOW_SIZE) return NULL;
    return which == 0 ? (const unsigned char *)ibd_computed_g : which == 1 ? (const unsigned char *)ibd_computed_g_128 : NULL;
#else
    return which == 0 ? (const unsigned char *)secp256k1_pre_g : which == 1 ? (const unsigned char *)secp256k1_pre_g_128 : NULL;
#endif
}

/* One level of a table of odd multiples gen, 3*gen, 5*gen, ..: the table doubles its length, in
 * affine coordinates. With p[j] = (2j+1)*gen for j < m (the table so far) and Q = 2m*gen, the
 * next m points are p[j + m] = p[j] + Q, and the m additions share one field inversion
 * (Montgomery's trick over their denominators x_Q - x_j). The library's own generator
 * (secp256k1_ecmult_compute_table, src/ecmult_compute_table_impl.h) computes the same points one
 * after the other with one field inversion each (some 100 ms in wasm for both tables); an affine
 * addition so batched costs about 5 multiplications and a squaring, against some 18 for a
 * Jacobian addition then a batched conversion (measured: bench/native BM_EcmultComputeTables).
 * No addition is degenerate: 2j+1 is odd and 2m even, so p[j] != +-Q while 2j+1 +- 2m < n (the
 * group order). Affine coordinates are unique, so the bytes are the shipped ones (tested).
 * Q is p[m-1] + p[0] (for m = 1, the doubling of p[0]), so the level needs nothing but the
 * table. `table` holds m points on entry and 2m on return; `acc`: m field elements. */
static void ibd_table_double(secp256k1_ge_storage *table, size_t m, secp256k1_fe *acc) {
    secp256k1_gej qj;
    secp256k1_ge q, pj, p0;
    secp256k1_fe inv, dx;
    size_t j;
    secp256k1_ge_from_storage(&p0, &table[0]);
    secp256k1_ge_from_storage(&pj, &table[m - 1]);
    secp256k1_gej_set_ge(&qj, &pj);
    secp256k1_gej_add_ge_var(&qj, &qj, &p0, NULL); /* (2m-1)*gen + gen; a doubling when m = 1 */
    secp256k1_ge_set_gej_var(&q, &qj); /* Q = 2m*gen (magnitude 1) */
    for (j = 0; j < m; j++) { /* acc[j] = prod over i <= j of (x_Q - x_i) */
        secp256k1_ge_from_storage(&pj, &table[j]);
        secp256k1_fe_negate(&dx, &pj.x, 1);
        secp256k1_fe_add(&dx, &q.x);
        if (j == 0) acc[0] = dx;
        else secp256k1_fe_mul(&acc[j], &acc[j - 1], &dx);
    }
    secp256k1_fe_inv_var(&inv, &acc[m - 1]); /* 1 / prod (x_Q - x_i), i < m */
    for (j = m; j-- > 0;) {
        secp256k1_fe dinv, lambda, x3, y3, t;
        secp256k1_ge r;
        secp256k1_ge_from_storage(&pj, &table[j]);
        secp256k1_fe_negate(&dx, &pj.x, 1);
        secp256k1_fe_add(&dx, &q.x); /* magnitude 3 */
        if (j > 0) {
            secp256k1_fe_mul(&dinv, &inv, &acc[j - 1]); /* 1 / (x_Q - x_j) */
            secp256k1_fe_mul(&inv, &inv, &dx);          /* 1 / prod (x_Q - x_i), i < j */
        } else {
            dinv = inv;
        }
        secp256k1_fe_negate(&t, &pj.y, 1);
        secp256k1_fe_add(&t, &q.y);
        secp256k1_fe_mul(&lambda, &t, &dinv); /* (y_Q - y_j) / (x_Q - x_j) */
        secp256k1_fe_sqr(&x3, &lambda);
        t = pj.x;
        secp256k1_fe_add(&t, &q.x);
        secp256k1_fe_negate(&t, &t, 2);
        secp256k1_fe_add(&x3, &t); /* lambda^2 - x_j - x_Q, magnitude 4 */
        secp256k1_fe_normalize_var(&x3);
        secp256k1_fe_negate(&t, &x3, 1);
        secp256k1_fe_add(&t, &pj.x);
        secp256k1_fe_mul(&y3, &lambda, &t);
        secp256k1_fe_negate(&t, &pj.y, 1);
        secp256k1_fe_add(&y3, &t); /* lambda (x_j - x3) - y_j, magnitude 3 */
        secp256k1_fe_normalize_var(&y3);
        secp256k1_ge_set_xy(&r, &x3, &y3);
        secp256k1_ge_to_storage(&table[j + m], &r);
    }
}

int ibd_ecmult_compute_tables_to(unsigned char *out, unsigned char *out_128, int have_window, int window) {
    secp256k1_ge_storage *tables[2];
    secp256k1_fe *acc;
    size_t m;
    int t, i;
    if (have_window != 0 && (have_window < 2 || have_window > ECMULT_WINDOW_SIZE)) return 0;
    if (window < 2 || window > ECMULT_WINDOW_SIZE || (have_window != 0 && window < have_window)) return 0;
    if (window == have_window) return 1;
    /* The working memory first, so that a failed allocation leaves the tables as they were. */
    /* a level's m field elements: at most half the final table (window 2: one point, no level) */
    acc = (secp256k1_fe *)malloc((window > 2 ? ECMULT_TABLE_SIZE(window - 1) : 1) * sizeof(secp256k1_fe));
    if (acc == NULL) return 0;
    tables[0] = (secp256k1_ge_storage *)(void *)out;
    tables[1] = (secp256k1_ge_storage *)(void *)out_128;
    if (have_window == 0) { /* the first point of each table: G, and 2^128*G */
        secp256k1_gej gen;
        secp256k1_ge a;
        secp256k1_ge_to_storage(&tables[0][0], &secp256k1_ge_const_g);
        secp256k1_gej_set_ge(&gen, &secp256k1_ge_const_g);
        for (i = 0; i < 128; i++) secp256k1_gej_double_var(&gen, &gen, NULL);
        secp256k1_ge_set_gej_var(&a, &gen);
        secp256k1_ge_to_storage(&tables[1][0], &a);
        have_window = 2; /* ECMULT_TABLE_SIZE(2) = 1 point */
    }
    for (t = 0; t < 2; t++) {
        for (m = ECMULT_TABLE_SIZE(have_window); m < ECMULT_TABLE_SIZE(window); m *= 2) ibd_table_double(tables[t], m, acc);
    }
    free(acc);
    return 1;
}

void ibd_ecmult_compute_tables(unsigned char *out, unsigned char *out_128) {
    ibd_ecmult_compute_tables_to(out, out_128, 0, ECMULT_WINDOW_SIZE);
}

void ibd_ecmult_tables_init(void) {
#ifdef IBD_ECMULT_TABLES_AT_START
    if (ibd_window_g != 0) return;
    if (!ibd_ecmult_compute_tables_to((unsigned char *)ibd_computed_g, (unsigned char *)ibd_computed_g_128, 0, IBD_ECMULT_START_WINDOW)) {
        secp256k1_callback_call(&default_error_callback, "ibd_ecmult_tables_init: out of memory"); /* at start: aborts */
        return;
    }
    ibd_pre_g = (const ibd_ecmult_table_t *)&ibd_computed_g;
    ibd_pre_g_128 = (const ibd_ecmult_table_t *)&ibd_computed_g_128;
    ibd_window_g = IBD_ECMULT_START_WINDOW;
#endif
}

int ibd_ecmult_tables_grow(void) {
#ifdef IBD_ECMULT_TABLES_AT_START
    if (ibd_window_g == 0) ibd_ecmult_tables_init();
    else if (ibd_window_g < ECMULT_WINDOW_SIZE &&
             ibd_ecmult_compute_tables_to((unsigned char *)ibd_computed_g, (unsigned char *)ibd_computed_g_128, ibd_window_g, ibd_window_g + 1)) {
        ibd_window_g++; /* else no memory for the level: verification goes on at this window */
    }
    ibd_uses_since_growth = 0;
#endif
    return ibd_ecmult_tables_window();
}

void ibd_ecmult_tables_complete(void) {
    int w = ibd_ecmult_tables_window();
    while (w < ECMULT_WINDOW_SIZE) {
        const int grown = ibd_ecmult_tables_grow();
        if (grown == w) return; /* no memory for the level: stays incomplete, never loops */
        w = grown;
    }
}

void ibd_ecmult_tables_use(void) {
#ifdef IBD_ECMULT_TABLES_AT_START
    if (ibd_window_g == ECMULT_WINDOW_SIZE) return;
    if (ibd_uses_since_growth == IBD_ECMULT_USES_PER_LEVEL) ibd_ecmult_tables_grow(); /* resets the count */
    ibd_uses_since_growth++;
#endif
}

#include "secp256k1/ecdsa_key_tables_impl.h"
