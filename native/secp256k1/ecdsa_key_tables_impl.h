/* ECDSA verification under a recurring key (ecdsa_key_tables.h). Included by secp256k1_ibd.c
 * after libsecp256k1's sources, ecmult_tables.h and ibd_table_double, whose names it uses. */
#ifndef IBD_SECP256K1_ECDSA_KEY_TABLES_IMPL_H
#define IBD_SECP256K1_ECDSA_KEY_TABLES_IMPL_H

#include "secp256k1/ecdsa_key_tables.h"

/* Points per base point in a key's tables, and in the tables of 2^64*G and 2^192*G. */
#define IBD_KEY_TABLE_SIZE ECMULT_TABLE_SIZE(IBD_ECDSA_KEY_WINDOW)
#define IBD_G64_TABLE_SIZE ECMULT_TABLE_SIZE(IBD_ECDSA_G64_WINDOW)
/* wNAF digits of a scalar below 2^64: one more than its bits (a final carry). */
#define IBD_WNAF64_LEN 65

#if IBD_ECDSA_G64_WINDOW < 2 || IBD_ECDSA_G64_WINDOW > 24 || IBD_ECDSA_KEY_WINDOW < 2 || IBD_ECDSA_KEY_WINDOW > 10
#error window out of range
#endif

/* The odd multiples of 2^64*G ([0]) and of 2^192*G ([1]), once ibd_ecdsa_key_tables_init has run. */
static secp256k1_ge_storage ibd_g64_tables[2][IBD_G64_TABLE_SIZE];
static int ibd_g64_ready = 0;

int ibd_ecdsa_key_tables_init(void) {
    secp256k1_fe *acc;
    secp256k1_gej gen;
    secp256k1_ge a;
    size_t m;
    int t, i;
    if (ibd_g64_ready) return 1;
    acc = (secp256k1_fe *)malloc(IBD_G64_TABLE_SIZE * sizeof(secp256k1_fe));
    if (acc == NULL) return 0;
    secp256k1_gej_set_ge(&gen, &secp256k1_ge_const_g);
    for (t = 0; t < 2; t++) { /* first points 2^64*G, then 2^192*G */
        for (i = 0; i < (t == 0 ? 64 : 128); i++) secp256k1_gej_double_var(&gen, &gen, NULL);
        secp256k1_ge_set_gej_var(&a, &gen);
        secp256k1_ge_to_storage(&ibd_g64_tables[t][0], &a);
        for (m = 1; m < IBD_G64_TABLE_SIZE; m *= 2) ibd_table_double(ibd_g64_tables[t], m, acc);
    }
    free(acc);
    ibd_g64_ready = 1;
    return 1;
}

int ibd_ecdsa_key_tables_build(ibd_ecdsa_key_tables *out, const secp256k1_pubkey *pubkey) {
    secp256k1_gej pj[2 * IBD_KEY_TABLE_SIZE];
    secp256k1_ge pa[2 * IBD_KEY_TABLE_SIZE];
    secp256k1_gej base, twice;
    secp256k1_ge p, lam;
    int b, i;
    if (!secp256k1_pubkey_load(secp256k1_context_static, &p, pubkey)) return 0;
    secp256k1_gej_set_ge(&base, &p);
    for (b = 0; b < 2; b++) { /* base P, then 2^64*P */
        if (b == 1) {
            base = pj[0];
            for (i = 0; i < 64; i++) secp256k1_gej_double_var(&base, &base, NULL);
        }
        pj[b * IBD_KEY_TABLE_SIZE] = base;
        secp256k1_gej_double_var(&twice, &base, NULL);
        for (i = 1; i < IBD_KEY_TABLE_SIZE; i++) { /* (2i+1)*base, never infinity: 2i+1 < n */
            secp256k1_gej_add_var(&pj[b * IBD_KEY_TABLE_SIZE + i], &pj[b * IBD_KEY_TABLE_SIZE + i - 1], &twice, NULL);
        }
    }
    secp256k1_ge_set_all_gej_var(pa, pj, 2 * IBD_KEY_TABLE_SIZE);
    /* Layout: [P's multiples][lambda*P's][2^64*P's][lambda*2^64*P's]. */
    for (b = 0; b < 2; b++) {
        for (i = 0; i < IBD_KEY_TABLE_SIZE; i++) {
            secp256k1_ge_storage st;
            secp256k1_ge_to_storage(&st, &pa[b * IBD_KEY_TABLE_SIZE + i]);
            memcpy(out->data + ((2 * b) * IBD_KEY_TABLE_SIZE + i) * 64, &st, 64);
            secp256k1_ge_mul_lambda(&lam, &pa[b * IBD_KEY_TABLE_SIZE + i]);
            secp256k1_ge_to_storage(&st, &lam);
            memcpy(out->data + ((2 * b + 1) * IBD_KEY_TABLE_SIZE + i) * 64, &st, 64);
        }
    }
    return 1;
}

/* wNAF digits (secp256k1_ecmult_wnaf) of bits [64*chunk, 64*chunk + 64) of `k`, at window w, into
 * wnaf[IBD_WNAF64_LEN], negated when `negate`. Returns the number of digits up to the last
 * nonzero one. */
static int ibd_wnaf_chunk64(int *wnaf, const secp256k1_scalar *k, int chunk, int w, int negate) {
    unsigned char b32[32], c32[32];
    secp256k1_scalar c;
    int len, i;
    secp256k1_scalar_get_b32(b32, k);
    memset(c32, 0, 24);
    memcpy(c32 + 24, b32 + 32 - 8 * (chunk + 1), 8); /* big-endian bytes of the chunk */
    secp256k1_scalar_set_b32(&c, c32, NULL);
    len = secp256k1_ecmult_wnaf(wnaf, IBD_WNAF64_LEN, &c, w);
    if (negate) {
        for (i = 0; i < len; i++) wnaf[i] = -wnaf[i];
    }
    return len;
}

/* Adds digit d's point of `table` (odd multiples, 64 bytes each, secp256k1_ge_storage's layout)
 * to r: +-table[(|d|-1)/2]. The entry is copied out (a key's tables are bytes of any alignment). */
static SECP256K1_INLINE void ibd_add_digit(secp256k1_gej *r, const unsigned char *table, int d) {
    secp256k1_ge_storage st;
    secp256k1_ge a;
    memcpy(&st, table + (size_t)((d > 0 ? d : -d) - 1) / 2 * 64, 64);
    secp256k1_ge_from_storage(&a, &st);
    if (d < 0) secp256k1_ge_neg(&a, &a);
    secp256k1_gej_add_ge_var(r, r, &a, NULL);
}

/* r = u2*P + u1*G, P the key of `tables`. u2 = k1 + k2*lambda (k1, k2 or their negations below
 * 2^128: secp256k1_scalar_split_lambda), each cut at 2^64; u1 cut into four 64-bit chunks. Eight
 * wNAFs of at most 65 digits, summed with 65 shared doublings (Strauss). */
static void ibd_ecmult_key_tables(secp256k1_gej *r, const unsigned char *key, const secp256k1_scalar *u2,
                                  const secp256k1_scalar *u1) {
    int wnaf[8][IBD_WNAF64_LEN];
    const unsigned char *tables[8];
    secp256k1_scalar k[2];
    int len[8], bits = 0, j, i;
    const int wg = ibd_ecmult_tables_window();
    secp256k1_scalar_split_lambda(&k[0], &k[1], u2);
    for (j = 0; j < 2; j++) {
        const int neg = secp256k1_scalar_is_high(&k[j]);
        if (neg) secp256k1_scalar_negate(&k[j], &k[j]);
        /* j = 0: P and 2^64*P; j = 1: lambda*P and lambda*2^64*P */
        len[j] = ibd_wnaf_chunk64(wnaf[j], &k[j], 0, IBD_ECDSA_KEY_WINDOW, neg);
        len[2 + j] = ibd_wnaf_chunk64(wnaf[2 + j], &k[j], 1, IBD_ECDSA_KEY_WINDOW, neg);
        tables[j] = key + j * IBD_KEY_TABLE_SIZE * 64;
        tables[2 + j] = key + (2 + j) * IBD_KEY_TABLE_SIZE * 64;
    }
    /* u1 = c0 + c1*2^64 + c2*2^128 + c3*2^192: G and 2^128*G at the library's window, 2^64*G and
     * 2^192*G at IBD_ECDSA_G64_WINDOW. */
    len[4] = ibd_wnaf_chunk64(wnaf[4], u1, 0, wg, 0);
    len[5] = ibd_wnaf_chunk64(wnaf[5], u1, 1, IBD_ECDSA_G64_WINDOW, 0);
    len[6] = ibd_wnaf_chunk64(wnaf[6], u1, 2, wg, 0);
    len[7] = ibd_wnaf_chunk64(wnaf[7], u1, 3, IBD_ECDSA_G64_WINDOW, 0);
#ifdef IBD_ECMULT_TABLES_AT_START
    tables[4] = (const unsigned char *)*ibd_pre_g;
    tables[6] = (const unsigned char *)*ibd_pre_g_128;
#else
    tables[4] = (const unsigned char *)secp256k1_pre_g;
    tables[6] = (const unsigned char *)secp256k1_pre_g_128;
#endif
    tables[5] = (const unsigned char *)ibd_g64_tables[0];
    tables[7] = (const unsigned char *)ibd_g64_tables[1];
    for (j = 0; j < 8; j++) {
        if (len[j] > bits) bits = len[j];
    }
    secp256k1_gej_set_infinity(r);
    for (i = bits - 1; i >= 0; i--) {
        secp256k1_gej_double_var(r, r, NULL);
        for (j = 0; j < 8; j++) {
            if (i < len[j] && wnaf[j][i] != 0) ibd_add_digit(r, tables[j], wnaf[j][i]);
        }
    }
}

int ibd_ecdsa_verify_key_tables(const secp256k1_ecdsa_signature *sig, const unsigned char *msg32,
                                const ibd_ecdsa_key_tables *tables) {
    secp256k1_scalar r, s, m, sn, u1, u2;
    secp256k1_gej pr;
    secp256k1_fe xr;
    unsigned char c[32];
    if (!ibd_g64_ready) return 0;
    secp256k1_scalar_set_b32(&m, msg32, NULL);
    secp256k1_ecdsa_signature_load(secp256k1_context_static, &r, &s, sig);
    /* secp256k1_ecdsa_verify, then secp256k1_ecdsa_sig_verify, with the multiplication replaced */
    if (secp256k1_scalar_is_high(&s)) return 0;
    if (secp256k1_scalar_is_zero(&r) || secp256k1_scalar_is_zero(&s)) return 0;
    secp256k1_scalar_inverse_var(&sn, &s);
    secp256k1_scalar_mul(&u1, &sn, &m);
    secp256k1_scalar_mul(&u2, &sn, &r);
    ibd_ecmult_key_tables(&pr, tables->data, &u2, &u1);
    if (secp256k1_gej_is_infinity(&pr)) return 0;
    secp256k1_scalar_get_b32(c, &r);
    (void)secp256k1_fe_set_b32_limit(&xr, c); /* r < n < p */
    if (secp256k1_gej_eq_x_var(&xr, &pr)) return 1;
    if (secp256k1_fe_cmp_var(&xr, &secp256k1_ecdsa_const_p_minus_order) >= 0) return 0;
    secp256k1_fe_add(&xr, &secp256k1_ecdsa_const_order_as_fe);
    return secp256k1_gej_eq_x_var(&xr, &pr);
}

#endif
