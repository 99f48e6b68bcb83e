/* libsecp256k1 as ibd-wasm builds it: the library's own single translation unit, then the
 * project's additions that need its static internals (a module, as the library's own
 * src/modules/ are). Built by cmake/secp256k1.cmake in place of src/secp256k1.c.
 *
 * IBD_ECMULT_TABLES_AT_START (the wasm variants): the library's two tables of multiples of G
 * are not linked from src/precomputed_ecmult.c but computed when the module starts
 * (ecmult_tables.h). The library reads them as secp256k1_pre_g[i] and secp256k1_pre_g_128[i]
 * (src/ecmult_impl.h) and declares them `extern const` arrays (src/precomputed_ecmult.h); the
 * two macros below turn those names into pointers to const arrays, so that its declaration
 * declares the pointers and every read goes through them, to writable arrays defined here.
 * No type is declared two ways and the pinned source is not modified. */
#ifdef IBD_ECMULT_TABLES_AT_START
#define secp256k1_pre_g (*ibd_pre_g)
#define secp256k1_pre_g_128 (*ibd_pre_g_128)
#endif

#include "secp256k1.c"

#ifdef IBD_ECMULT_TABLES_AT_START
#undef secp256k1_pre_g
#undef secp256k1_pre_g_128
#endif

#include "secp256k1/ecmult_tables.h"
#include "secp256k1/schnorrsig_batch_impl.h"

typedef secp256k1_ge_storage ibd_ecmult_table_t[ECMULT_TABLE_SIZE(WINDOW_G)];

#ifdef IBD_ECMULT_TABLES_AT_START
static ibd_ecmult_table_t ibd_computed_g;
static ibd_ecmult_table_t ibd_computed_g_128;
static int ibd_tables_ready = 0;
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

const unsigned char *ibd_ecmult_table(int which) {
#ifdef IBD_ECMULT_TABLES_AT_START
    if (!ibd_tables_ready) return NULL;
    return which == 0 ? (const unsigned char *)ibd_computed_g : which == 1 ? (const unsigned char *)ibd_computed_g_128 : NULL;
#else
    return which == 0 ? (const unsigned char *)secp256k1_pre_g : which == 1 ? (const unsigned char *)secp256k1_pre_g_128 : NULL;
#endif
}

/* The odd multiples gen, 3*gen, 5*gen, .. of one table: what the library's own generator
 * (secp256k1_ecmult_compute_table, src/ecmult_compute_table_impl.h) computes, there one point
 * after the other with one field inversion each (some 100 ms in wasm for both tables). Here the
 * table doubles its length level by level, in affine coordinates: with p[j] = (2j+1)*gen for
 * j < m and Q = 2m*gen, p[j + m] = p[j] + Q, and the m additions of a level share one field
 * inversion (Montgomery's trick over their denominators x_Q - x_j). An affine addition so
 * batched costs about 5 multiplications and a squaring, against some 18 for a Jacobian addition
 * then a batched conversion (measured: bench/native BM_EcmultComputeTables). No addition is
 * degenerate: 2j+1 is odd and 2m even, so p[j] != +-Q while 2j+1 +- 2m < n (the group order).
 * Affine coordinates are unique, so the bytes are the shipped ones (tested). `p` holds the
 * table's points, `acc` half as many field elements. */
static void ibd_compute_table(secp256k1_ge_storage *table, const secp256k1_gej *gen, secp256k1_ge *p, secp256k1_fe *acc) {
    const size_t n = ECMULT_TABLE_SIZE(WINDOW_G);
    secp256k1_gej qj, g = *gen;
    secp256k1_ge q;
    size_t m, j;
    secp256k1_ge_set_gej_var(&p[0], &g);
    secp256k1_gej_double_var(&qj, gen, NULL);
    for (m = 1; m < n; m *= 2) { /* p[0..m) known; n is a power of two */
        secp256k1_fe inv, dx;
        secp256k1_ge_set_gej_var(&q, &qj); /* Q = 2m*gen (magnitude 1) */
        for (j = 0; j < m; j++) { /* acc[j] = prod over i <= j of (x_Q - x_i) */
            secp256k1_fe_negate(&dx, &p[j].x, 1);
            secp256k1_fe_add(&dx, &q.x);
            if (j == 0) acc[0] = dx;
            else secp256k1_fe_mul(&acc[j], &acc[j - 1], &dx);
        }
        secp256k1_fe_inv_var(&inv, &acc[m - 1]); /* 1 / prod (x_Q - x_i), i < m */
        for (j = m; j-- > 0;) {
            secp256k1_fe dinv, lambda, x3, y3, t;
            secp256k1_fe_negate(&dx, &p[j].x, 1);
            secp256k1_fe_add(&dx, &q.x); /* magnitude 3 */
            if (j > 0) {
                secp256k1_fe_mul(&dinv, &inv, &acc[j - 1]); /* 1 / (x_Q - x_j) */
                secp256k1_fe_mul(&inv, &inv, &dx);          /* 1 / prod (x_Q - x_i), i < j */
            } else {
                dinv = inv;
            }
            secp256k1_fe_negate(&t, &p[j].y, 1);
            secp256k1_fe_add(&t, &q.y);
            secp256k1_fe_mul(&lambda, &t, &dinv); /* (y_Q - y_j) / (x_Q - x_j) */
            secp256k1_fe_sqr(&x3, &lambda);
            t = p[j].x;
            secp256k1_fe_add(&t, &q.x);
            secp256k1_fe_negate(&t, &t, 2);
            secp256k1_fe_add(&x3, &t); /* lambda^2 - x_j - x_Q, magnitude 4 */
            secp256k1_fe_normalize_var(&x3);
            secp256k1_fe_negate(&t, &x3, 1);
            secp256k1_fe_add(&t, &p[j].x);
            secp256k1_fe_mul(&y3, &lambda, &t);
            secp256k1_fe_negate(&t, &p[j].y, 1);
            secp256k1_fe_add(&y3, &t); /* lambda (x_j - x3) - y_j, magnitude 3 */
            secp256k1_fe_normalize_var(&y3);
            secp256k1_ge_set_xy(&p[j + m], &x3, &y3);
        }
        secp256k1_gej_double_var(&qj, &qj, NULL);
    }
    for (j = 0; j < n; j++) secp256k1_ge_to_storage(&table[j], &p[j]);
}

void ibd_ecmult_compute_tables(unsigned char *out, unsigned char *out_128) {
    const size_t n = ECMULT_TABLE_SIZE(WINDOW_G);
    secp256k1_ge *p = (secp256k1_ge *)checked_malloc(&default_error_callback, n * sizeof(secp256k1_ge));
    secp256k1_fe *acc = (secp256k1_fe *)checked_malloc(&default_error_callback, n / 2 * sizeof(secp256k1_fe));
    secp256k1_gej gen;
    int i;
    secp256k1_gej_set_ge(&gen, &secp256k1_ge_const_g);
    ibd_compute_table((secp256k1_ge_storage *)(void *)out, &gen, p, acc);
    for (i = 0; i < 128; i++) secp256k1_gej_double_var(&gen, &gen, NULL); /* 2^128 * G */
    ibd_compute_table((secp256k1_ge_storage *)(void *)out_128, &gen, p, acc);
    free(p);
    free(acc);
}

void ibd_ecmult_tables_init(void) {
#ifdef IBD_ECMULT_TABLES_AT_START
    if (ibd_tables_ready) return;
    ibd_ecmult_compute_tables((unsigned char *)ibd_computed_g, (unsigned char *)ibd_computed_g_128);
    ibd_pre_g = (const ibd_ecmult_table_t *)&ibd_computed_g;
    ibd_pre_g_128 = (const ibd_ecmult_table_t *)&ibd_computed_g_128;
    ibd_tables_ready = 1;
#endif
}
