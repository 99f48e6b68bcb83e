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
 * (secp256k1_ecmult_compute_table, src/ecmult_compute_table_impl.h) computes, there with one
 * field inversion per point (some 100 ms in wasm for both tables), here in Jacobian
 * coordinates with one inversion for the whole table (secp256k1_ge_set_all_gej_var). Affine
 * coordinates are unique, so the bytes are the same. `gj` and `ge` hold one table's points. */
static void ibd_compute_table(secp256k1_ge_storage *table, const secp256k1_gej *gen, secp256k1_gej *gj, secp256k1_ge *ge) {
    const size_t n = ECMULT_TABLE_SIZE(WINDOW_G);
    secp256k1_gej twice;
    secp256k1_ge dgen;
    size_t j;
    gj[0] = *gen;
    secp256k1_gej_double_var(&twice, gen, NULL);
    secp256k1_ge_set_gej_var(&dgen, &twice);
    for (j = 1; j < n; j++) secp256k1_gej_add_ge_var(&gj[j], &gj[j - 1], &dgen, NULL);
    secp256k1_ge_set_all_gej_var(ge, gj, n);
    for (j = 0; j < n; j++) secp256k1_ge_to_storage(&table[j], &ge[j]);
}

void ibd_ecmult_compute_tables(unsigned char *out, unsigned char *out_128) {
    const size_t n = ECMULT_TABLE_SIZE(WINDOW_G);
    secp256k1_gej *gj = (secp256k1_gej *)checked_malloc(&default_error_callback, n * sizeof(secp256k1_gej));
    secp256k1_ge *ge = (secp256k1_ge *)checked_malloc(&default_error_callback, n * sizeof(secp256k1_ge));
    secp256k1_gej gen;
    int i;
    secp256k1_gej_set_ge(&gen, &secp256k1_ge_const_g);
    ibd_compute_table((secp256k1_ge_storage *)(void *)out, &gen, gj, ge);
    for (i = 0; i < 128; i++) secp256k1_gej_double_var(&gen, &gen, NULL); /* 2^128 * G */
    ibd_compute_table((secp256k1_ge_storage *)(void *)out_128, &gen, gj, ge);
    free(gj);
    free(ge);
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
