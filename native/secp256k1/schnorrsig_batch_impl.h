/* ibd_schnorrsig_verify_batch (schnorrsig_batch.h): included by secp256k1_ibd.c after
 * libsecp256k1's secp256k1.c, so that it sees the library's static internals. */
#ifndef IBD_SECP256K1_SCHNORRSIG_BATCH_IMPL_H
#define IBD_SECP256K1_SCHNORRSIG_BATCH_IMPL_H

#include "secp256k1/schnorrsig_batch.h"
#include "secp256k1/pippenger_affine_impl.h"

/* Points of the multiplication (the batch's R_i and distinct keys) from which it runs
 * Pippenger's algorithm with affine buckets (pippenger_affine_impl.h); below, libsecp256k1's
 * Strauss (secp256k1_ecmult_strauss_batch, through secp256k1_ecmult_multi_var). */
#define IBD_BATCH_PIPPENGER_MIN_POINTS 48
/* The most signatures one batch takes: their arrays stay far below SIZE_MAX even where size_t
 * has 32 bits (wasm). A larger batch returns 0 (the caller verifies each signature alone). */
#define IBD_BATCH_MAX_SIGS (SIZE_MAX / 4096)

/* The n + k points of the multiplication: [0, n) are R_i with a_i, [n, n + k) the batch's k
 * distinct keys P_j, each with the sum of a_i*e_i over the signatures under it. */
typedef struct {
    const secp256k1_scalar *scalars;
    const secp256k1_ge *points;
} ibd_batch_terms;

static int ibd_batch_term(secp256k1_scalar *sc, secp256k1_ge *pt, size_t idx, void *data) {
    const ibd_batch_terms *terms = (const ibd_batch_terms *)data;
    *sc = terms->scalars[idx];
    *pt = terms->points[idx];
    return 1;
}

/* Slots of the table of distinct keys: a power of two, at least twice the signatures. */
static size_t ibd_batch_key_slots(size_t n_sigs) {
    size_t slots = 4;
    while (slots < 2 * n_sigs) slots <<= 1;
    return slots;
}

/* Entries of the multiplication at most: n_sigs R_i (128-bit randomizers: not split), each
 * distinct key split in two with the endomorphism, and G split in two. */
static size_t ibd_batch_max_entries(size_t n_sigs) { return 3 * n_sigs + 2; }

static size_t ibd_batch_arrays_size(size_t n_sigs) {
    return ibd_batch_max_entries(n_sigs) * (sizeof(secp256k1_scalar) + sizeof(secp256k1_ge)) +
           (ibd_batch_key_slots(n_sigs) + n_sigs) * sizeof(size_t) + 4 * ALIGNMENT;
}

/* The distinct keys of a batch: `table` (open addressing, linear probing, `slots` a power of
 * two) maps a key to 1 + its index j among the keys found so far (0: an empty slot), and
 * first_sig[j] is the signature whose key it is, for comparing the bytes. */
typedef struct {
    size_t *table;
    size_t slots;
    size_t *first_sig;
    size_t n_keys;
} ibd_batch_keys;

/* The index j of key32 among the keys found (n_keys when it is new: the caller adds it), and in
 * *slot where it is or goes. The start slot comes from the key's first 8 bytes (an x coordinate:
 * uniform for honest keys; ground keys that share a start slot cost a longer probe, never a
 * wrong answer, since the full 32 bytes are compared). */
static size_t ibd_batch_key_find(const ibd_batch_keys *keys, const unsigned char *const *pubkey32,
                                 const unsigned char *key32, size_t *slot) {
    size_t h = 0;
    int b;
    for (b = 0; b < 8; b++) h = (h << 8 | h >> (8 * sizeof(size_t) - 8)) ^ key32[b];
    h &= keys->slots - 1;
    while (keys->table[h] != 0) {
        size_t j = keys->table[h] - 1;
        if (secp256k1_memcmp_var(pubkey32[keys->first_sig[j]], key32, 32) == 0) {
            *slot = h;
            return j;
        }
        h = (h + 1) & (keys->slots - 1);
    }
    *slot = h;
    return keys->n_keys;
}

size_t ibd_schnorrsig_batch_scratch_size(size_t n_sigs) {
    /* Strauss below IBD_BATCH_PIPPENGER_MIN_POINTS points, Pippenger from there: room for the
     * larger of the two covers this batch and every smaller one (both sizes grow with n). */
    size_t n_points = 2 * n_sigs; /* every key distinct: the most points a batch has */
    size_t n_strauss = n_points < IBD_BATCH_PIPPENGER_MIN_POINTS ? n_points : IBD_BATCH_PIPPENGER_MIN_POINTS - 1;
    size_t strauss = secp256k1_strauss_scratch_size(n_strauss) + STRAUSS_SCRATCH_OBJECTS * ALIGNMENT;
    size_t entries = ibd_batch_max_entries(n_sigs);
    size_t pippenger = 0;
    int w, w_max = ibd_pippenger_affine_window(entries);
    if (n_sigs > IBD_BATCH_MAX_SIGS) return SIZE_MAX;
    /* A smaller batch may run at a smaller window, whose longer wNAF needs more bytes per entry
     * than the full batch's: take, for each window up to the full batch's, the most entries
     * that run at it (the window grows with the entries: a binary search). */
    for (w = 1; w <= w_max; w++) {
        size_t lo = 0, hi = entries, bytes;
        while (lo < hi) {
            size_t mid = lo + (hi - lo + 1) / 2;
            if (ibd_pippenger_affine_window(mid) <= w) lo = mid; else hi = mid - 1;
        }
        if (lo == 0) continue;
        bytes = ibd_pippenger_affine_scratch_size(lo, w);
        if (bytes > pippenger) pippenger = bytes;
    }
    return ibd_batch_arrays_size(n_sigs) + (strauss > pippenger ? strauss : pippenger);
}

/* seed = tagged SHA256("ibd-wasm/batch", sig64_0 || pubkey32_0 || msg32_0 || ...). */
static void ibd_batch_seed(unsigned char *seed32, const unsigned char *const *sig64,
                           const unsigned char *const *msg32, const unsigned char *const *pubkey32,
                           size_t n_sigs) {
    static const unsigned char tag[] = {'i', 'b', 'd', '-', 'w', 'a', 's', 'm', '/', 'b', 'a', 't', 'c', 'h'};
    secp256k1_sha256 sha;
    size_t i;
    secp256k1_sha256_initialize_tagged(&sha, tag, sizeof(tag));
    for (i = 0; i < n_sigs; i++) {
        secp256k1_sha256_write(&sha, sig64[i], 64);
        secp256k1_sha256_write(&sha, pubkey32[i], 32);
        secp256k1_sha256_write(&sha, msg32[i], 32);
    }
    secp256k1_sha256_finalize(&sha, seed32);
}

/* a_i = the first 16 bytes of SHA256(seed || LE32(i)), big-endian: a 128-bit integer, 1 if
 * that is 0; a_0 = 1. */
static void ibd_batch_randomizer(secp256k1_scalar *a, const unsigned char *seed32, size_t i) {
    unsigned char buf[32];
    unsigned char a32[32];
    unsigned char index[4];
    secp256k1_sha256 sha;
    if (i == 0) {
        secp256k1_scalar_set_int(a, 1);
        return;
    }
    index[0] = (unsigned char)i;
    index[1] = (unsigned char)(i >> 8);
    index[2] = (unsigned char)(i >> 16);
    index[3] = (unsigned char)(i >> 24);
    secp256k1_sha256_initialize(&sha);
    secp256k1_sha256_write(&sha, seed32, 32);
    secp256k1_sha256_write(&sha, index, 4);
    secp256k1_sha256_finalize(&sha, buf);
    memset(a32, 0, 16);
    memcpy(a32 + 16, buf, 16);
    secp256k1_scalar_set_b32(a, a32, NULL);
    if (secp256k1_scalar_is_zero(a)) secp256k1_scalar_set_int(a, 1);
}

int ibd_schnorrsig_verify_batch(const secp256k1_context *ctx, secp256k1_scratch_space *scratch,
                                const unsigned char *const *sig64, const unsigned char *const *msg32,
                                const unsigned char *const *pubkey32, size_t n_sigs) {
    size_t checkpoint;
    secp256k1_scalar *scalars;
    secp256k1_ge *points;
    ibd_batch_keys keys;
    secp256k1_scalar s_sum;
    secp256k1_gej result;
    ibd_batch_terms terms;
    unsigned char seed[32];
    size_t i, n_entries;
    int window;
    int ok = 0;

    VERIFY_CHECK(ctx != NULL);
    if (n_sigs == 0 || scratch == NULL) return 0;
    checkpoint = secp256k1_scratch_checkpoint(&ctx->error_callback, scratch);
    /* No overflow of the sizes: at most IBD_BATCH_MAX_SIGS signatures, each under 512 bytes of
     * arrays (a 32-bit size_t in wasm included). */
    if (n_sigs > IBD_BATCH_MAX_SIGS) goto done;
    scalars = (secp256k1_scalar *)secp256k1_scratch_alloc(&ctx->error_callback, scratch, ibd_batch_max_entries(n_sigs) * sizeof(secp256k1_scalar));
    points = (secp256k1_ge *)secp256k1_scratch_alloc(&ctx->error_callback, scratch, ibd_batch_max_entries(n_sigs) * sizeof(secp256k1_ge));
    keys.slots = ibd_batch_key_slots(n_sigs);
    keys.table = (size_t *)secp256k1_scratch_alloc(&ctx->error_callback, scratch, keys.slots * sizeof(size_t));
    keys.first_sig = (size_t *)secp256k1_scratch_alloc(&ctx->error_callback, scratch, n_sigs * sizeof(size_t));
    keys.n_keys = 0;
    if (scalars == NULL || points == NULL || keys.table == NULL || keys.first_sig == NULL) goto done;
    memset(keys.table, 0, keys.slots * sizeof(size_t));

    ibd_batch_seed(seed, sig64, msg32, pubkey32, n_sigs);
    secp256k1_scalar_set_int(&s_sum, 0);
    for (i = 0; i < n_sigs; i++) {
        secp256k1_fe rx, px;
        secp256k1_scalar s, e, a;
        int overflow;
        /* BIP340 Verification: fail if r >= p, s >= n, or the key or r is not an x on the curve. */
        if (!secp256k1_fe_set_b32_limit(&rx, &sig64[i][0])) goto done;
        secp256k1_scalar_set_b32(&s, &sig64[i][32], &overflow);
        if (overflow) goto done;
        if (!secp256k1_ge_set_xo_var(&points[i], &rx, 0)) goto done;  /* R_i = lift_x(r) */
        secp256k1_schnorrsig_challenge(&e, &sig64[i][0], msg32[i], 32, pubkey32[i]);
        ibd_batch_randomizer(&a, seed, i);
        scalars[i] = a;                      /* a_i * R_i */
        secp256k1_scalar_mul(&e, &a, &e);    /* a_i * e_i, P_i's */
        {
            /* Signatures under one key share its point: (sum of their a_i*e_i) * P, one lift_x
             * and one term of the multiplication, the same equation term for term. */
            size_t slot;
            size_t j = ibd_batch_key_find(&keys, pubkey32, pubkey32[i], &slot);
            if (j == keys.n_keys) {
                if (!secp256k1_fe_set_b32_limit(&px, pubkey32[i])) goto done;
                if (!secp256k1_ge_set_xo_var(&points[n_sigs + j], &px, 0)) goto done;  /* P = lift_x(x(P)) */
                scalars[n_sigs + j] = e;
                keys.table[slot] = j + 1;
                keys.first_sig[j] = i;
                keys.n_keys++;
            } else {
                secp256k1_scalar_add(&scalars[n_sigs + j], &scalars[n_sigs + j], &e);
            }
        }
        secp256k1_scalar_mul(&s, &s, &a);
        secp256k1_scalar_add(&s_sum, &s_sum, &s);
    }
    /* sum a_i*R_i + sum (a_i*e_i)*P_i - (sum a_i*s_i)*G must be the point at infinity. */
    secp256k1_scalar_negate(&s_sum, &s_sum);
    n_entries = n_sigs + 2 * keys.n_keys + 2;
    window = ibd_pippenger_affine_window(n_entries);
    if (n_sigs + keys.n_keys >= IBD_BATCH_PIPPENGER_MIN_POINTS &&
        ibd_pippenger_affine_fits(&ctx->error_callback, scratch, n_entries, window)) {
        /* Entries: R_i with a_i (below 2^128: as they are), each key's point and scalar split
         * with the endomorphism (two entries of 128 bits), and G's. The keys move from
         * [n, n + k) to [n, n + 2k), the last first, so that none is overwritten unread. */
        size_t j = keys.n_keys;
        while (j-- > 0) {
            scalars[n_sigs + 2 * j] = scalars[n_sigs + j];
            points[n_sigs + 2 * j] = points[n_sigs + j];
            secp256k1_ecmult_endo_split(&scalars[n_sigs + 2 * j], &scalars[n_sigs + 2 * j + 1], &points[n_sigs + 2 * j],
                                        &points[n_sigs + 2 * j + 1]);
        }
        scalars[n_entries - 2] = s_sum;
        points[n_entries - 2] = secp256k1_ge_const_g;
        secp256k1_ecmult_endo_split(&scalars[n_entries - 2], &scalars[n_entries - 1], &points[n_entries - 2], &points[n_entries - 1]);
        for (i = 0; i < n_entries; i++) {
            /* lift_x and endo_split may negate a y: bring every y to magnitude 1. */
            secp256k1_fe_normalize_weak(&points[i].y);
        }
        if (!ibd_pippenger_affine(&ctx->error_callback, scratch, &result, scalars, points, n_entries, window)) {
            goto done;
        }
    } else {
        /* Strauss for a small batch; with too little scratch space left for the above,
         * libsecp256k1's multiplication in as many smaller ones as the space allows. */
        terms.scalars = scalars;
        terms.points = points;
        if (!secp256k1_ecmult_multi_var(&ctx->error_callback, scratch, &result, &s_sum, ibd_batch_term, &terms, n_sigs + keys.n_keys)) {
            goto done;
        }
    }
    ok = secp256k1_gej_is_infinity(&result);
done:
    secp256k1_scratch_apply_checkpoint(&ctx->error_callback, scratch, checkpoint);
    return ok;
}

#endif /* IBD_SECP256K1_SCHNORRSIG_BATCH_IMPL_H */
