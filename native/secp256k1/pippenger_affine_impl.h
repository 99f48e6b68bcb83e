/* Pippenger's multi-scalar multiplication with its buckets summed in affine coordinates.
 * Included by schnorrsig_batch_impl.h, inside libsecp256k1's translation unit (secp256k1_ibd.c),
 * for the library's field and group internals and its fixed-window wNAF
 * (secp256k1_wnaf_fixed, src/ecmult_impl.h). C90, as libsecp256k1.
 *
 * libsecp256k1's own Pippenger (secp256k1_ecmult_pippenger_wnaf) adds each point to its bucket
 * in Jacobian coordinates: secp256k1_gej_add_ge_var, 8 field multiplications and 3 squarings an
 * addition. Here a window's points are first sorted by bucket, then each bucket's points are
 * added pairwise, level by level, in affine coordinates: the sum of (x1, y1) and (x2, y2) needs
 * 1 / (x2 - x1), and one level's inverses over every bucket come from one field inversion
 * (Montgomery's trick: 3 multiplications per element), so an addition costs 6 multiplications
 * and 1 squaring. The per-window sum over the buckets (bucket[0] + 3*bucket[1] + 5*bucket[2] +
 * ...) is libsecp256k1's, in Jacobian coordinates.
 *
 * A pair whose x coordinates are equal (P + P or P + (-P)) has no affine slope: both of its
 * points are added to their bucket's Jacobian side sum instead (secp256k1_gej_add_ge_var, which
 * handles every case). Honest inputs never meet it; crafted ones (the same R twice in a batch)
 * can, and get the right answer at Jacobian cost. */
#ifndef IBD_SECP256K1_PIPPENGER_AFFINE_IMPL_H
#define IBD_SECP256K1_PIPPENGER_AFFINE_IMPL_H

/* Number of allocations ibd_pippenger_affine makes on the scratch space (each may use up to
 * ALIGNMENT bytes of padding). */
#define IBD_PIPPENGER_AFFINE_SCRATCH_OBJECTS 9
/* The largest bucket window: 2^12 buckets. */
#define IBD_PIPPENGER_AFFINE_MAX_WINDOW 12

/* The bucket window w for n entries (scalars of up to 128 bits, wNAF digits of w+1 bits): the w
 * that minimizes the estimated field operations of a multiplication, ceil(128 / (w+1)) windows
 * of n affine additions (~7 field multiplications each) and 2^w Jacobian bucket sums (~28).
 * Nondecreasing in n. */
static int ibd_pippenger_affine_window(size_t n) {
    int w, best = 1;
    double best_cost = 0;
    for (w = 1; w <= IBD_PIPPENGER_AFFINE_MAX_WINDOW; w++) {
        double windows = (double)((128 + w) / (w + 1));
        double cost = windows * (7.0 * (double)n + 28.0 * (double)((size_t)1 << w));
        if (w == 1 || cost < best_cost) {
            best = w;
            best_cost = cost;
        }
    }
    return best;
}

/* Bytes that ibd_pippenger_affine allocates for n entries at window w, before padding. */
static size_t ibd_pippenger_affine_bytes(size_t n, int w) {
    size_t n_wnaf = WNAF_SIZE(w + 1);
    size_t buckets = (size_t)1 << w;
    return n * n_wnaf * sizeof(int) +        /* wnaf digits */
           n * sizeof(int) +                 /* skews */
           2 * n * sizeof(secp256k1_ge) +    /* a window's points, by bucket (a skew adds one more) */
           n * sizeof(secp256k1_fe) +        /* prefix products of one level's denominators */
           n * sizeof(size_t) +              /* where each pair of the level is */
           (buckets + 1) * sizeof(size_t) +  /* bucket starts */
           buckets * sizeof(size_t) +        /* bucket lengths */
           buckets * sizeof(secp256k1_gej) + /* Jacobian side sums */
           buckets * sizeof(int);            /* side sum used */
}

/* Bytes of scratch space ibd_pippenger_affine needs for n entries at window w, padding
 * included. */
static size_t ibd_pippenger_affine_scratch_size(size_t n, int w) {
    return ibd_pippenger_affine_bytes(n, w) + IBD_PIPPENGER_AFFINE_SCRATCH_OBJECTS * ALIGNMENT;
}

/* Whether what is left of `scratch` holds ibd_pippenger_affine's allocations for n entries at
 * window w. */
static int ibd_pippenger_affine_fits(const secp256k1_callback *error_callback, const secp256k1_scratch *scratch,
                                     size_t n, int w) {
    return ibd_pippenger_affine_bytes(n, w) <=
           secp256k1_scratch_max_allocation(error_callback, scratch, IBD_PIPPENGER_AFFINE_SCRATCH_OBJECTS);
}

/* r = sum of sc[i] * pt[i] over i < n. Each sc[i] must be below 2^128 (what
 * secp256k1_wnaf_fixed takes: a randomizer of 128 bits, or half of a scalar split with the
 * endomorphism, secp256k1_ecmult_endo_split); each pt[i] a point, not infinity, with
 * coordinates of magnitude at most 1 (as secp256k1_ge_set_xo_var and secp256k1_ge_neg followed
 * by a weak normalization give). Zero scalars are skipped. Returns 0 when `scratch` cannot hold
 * ibd_pippenger_affine_scratch_size(n, w) bytes (nothing computed), else 1. */
static int ibd_pippenger_affine(const secp256k1_callback *error_callback, secp256k1_scratch *scratch, secp256k1_gej *r,
                                const secp256k1_scalar *sc, const secp256k1_ge *pt, size_t n, int w) {
    const size_t checkpoint = secp256k1_scratch_checkpoint(error_callback, scratch);
    const int n_wnaf = WNAF_SIZE(w + 1);
    const size_t n_buckets = (size_t)1 << w;
    int *wnaf, *skew, *side_used;
    secp256k1_ge *cur;
    secp256k1_fe *prod;
    size_t *pair_at, *start, *len;
    secp256k1_gej *side;
    size_t e, b;
    int i, j;

    secp256k1_gej_set_infinity(r);
    wnaf = (int *)secp256k1_scratch_alloc(error_callback, scratch, n * n_wnaf * sizeof(int));
    skew = (int *)secp256k1_scratch_alloc(error_callback, scratch, n * sizeof(int));
    cur = (secp256k1_ge *)secp256k1_scratch_alloc(error_callback, scratch, 2 * n * sizeof(secp256k1_ge));
    prod = (secp256k1_fe *)secp256k1_scratch_alloc(error_callback, scratch, n * sizeof(secp256k1_fe));
    pair_at = (size_t *)secp256k1_scratch_alloc(error_callback, scratch, n * sizeof(size_t));
    start = (size_t *)secp256k1_scratch_alloc(error_callback, scratch, (n_buckets + 1) * sizeof(size_t));
    len = (size_t *)secp256k1_scratch_alloc(error_callback, scratch, n_buckets * sizeof(size_t));
    side = (secp256k1_gej *)secp256k1_scratch_alloc(error_callback, scratch, n_buckets * sizeof(secp256k1_gej));
    side_used = (int *)secp256k1_scratch_alloc(error_callback, scratch, n_buckets * sizeof(int));
    if (wnaf == NULL || skew == NULL || cur == NULL || prod == NULL || pair_at == NULL || start == NULL || len == NULL ||
        side == NULL || side_used == NULL) {
        secp256k1_scratch_apply_checkpoint(error_callback, scratch, checkpoint);
        return 0;
    }

    for (e = 0; e < n; e++) {
        /* A zero scalar gets all-zero digits and no skew: it adds nothing. */
        skew[e] = secp256k1_wnaf_fixed(&wnaf[e * n_wnaf], &sc[e], w + 1);
    }

    for (i = n_wnaf - 1; i >= 0; i--) {
        secp256k1_gej running;
        int more;

        /* Sort the window's points by bucket: digit d adds sign(d) * pt to bucket (|d| - 1) / 2;
         * in the last window, a skew subtracts pt from bucket 0 (secp256k1_wnaf_fixed). */
        for (b = 0; b < n_buckets; b++) {
            len[b] = 0;
            side_used[b] = 0;
        }
        for (e = 0; e < n; e++) {
            int d = wnaf[e * n_wnaf + i];
            if (d != 0) len[(size_t)((d > 0 ? d : -d) - 1) / 2]++;
            if (i == 0 && skew[e]) len[0]++;
        }
        start[0] = 0;
        for (b = 0; b < n_buckets; b++) {
            start[b + 1] = start[b] + len[b];
            len[b] = 0;
        }
        for (e = 0; e < n; e++) {
            int d = wnaf[e * n_wnaf + i];
            secp256k1_ge *slot;
            if (d != 0) {
                b = (size_t)((d > 0 ? d : -d) - 1) / 2;
                slot = &cur[start[b] + len[b]++];
                if (d > 0) {
                    *slot = pt[e];
                } else {
                    secp256k1_ge_neg(slot, &pt[e]);
                    secp256k1_fe_normalize_weak(&slot->y);
                }
            }
            if (i == 0 && skew[e]) {
                slot = &cur[start[0] + len[0]++];
                secp256k1_ge_neg(slot, &pt[e]);
                secp256k1_fe_normalize_weak(&slot->y);
            }
        }

        /* Add each bucket's points pairwise until one is left, a level at a time. Point t of a
         * bucket's next level is the sum of points 2t and 2t+1 of this one; an odd last point
         * moves up as it is. A point marked infinity is empty (both halves of a pair sent to
         * the side sum). */
        do {
            size_t n_pairs = 0;
            secp256k1_fe inv;
            more = 0;
            for (b = 0; b < n_buckets; b++) {
                size_t t;
                if (len[b] < 2) continue;
                for (t = 0; 2 * t + 1 < len[b]; t++) {
                    size_t at = start[b] + 2 * t;
                    secp256k1_ge *p1 = &cur[at], *p2 = &cur[at + 1];
                    secp256k1_fe dx;
                    if (p1->infinity || p2->infinity) continue;
                    secp256k1_fe_negate(&dx, &p1->x, 1);
                    secp256k1_fe_add(&dx, &p2->x);
                    if (secp256k1_fe_normalizes_to_zero_var(&dx)) {
                        /* x1 == x2: P + P or P + (-P); no affine slope. */
                        if (!side_used[b]) {
                            secp256k1_gej_set_infinity(&side[b]);
                            side_used[b] = 1;
                        }
                        secp256k1_gej_add_ge_var(&side[b], &side[b], p1, NULL);
                        secp256k1_gej_add_ge_var(&side[b], &side[b], p2, NULL);
                        p1->infinity = 1;
                        p2->infinity = 1;
                        continue;
                    }
                    if (n_pairs == 0) {
                        prod[0] = dx;
                    } else {
                        secp256k1_fe_mul(&prod[n_pairs], &prod[n_pairs - 1], &dx);
                    }
                    pair_at[n_pairs++] = at;
                }
            }
            if (n_pairs > 0) {
                size_t k = n_pairs;
                secp256k1_fe_inv_var(&inv, &prod[n_pairs - 1]);
                while (k-- > 0) {
                    secp256k1_ge *p1 = &cur[pair_at[k]], *p2 = &cur[pair_at[k] + 1];
                    secp256k1_fe dx, inv_k, lambda, t1, x3, y3;
                    secp256k1_fe_negate(&dx, &p1->x, 1);
                    secp256k1_fe_add(&dx, &p2->x);
                    /* inv_k = 1 / dx_k; inv becomes 1 / (dx_0 * ... * dx_{k-1}). */
                    if (k > 0) {
                        secp256k1_fe_mul(&inv_k, &inv, &prod[k - 1]);
                        secp256k1_fe_mul(&inv, &inv, &dx);
                    } else {
                        inv_k = inv;
                    }
                    /* lambda = (y2 - y1) / (x2 - x1); x3 = lambda^2 - x1 - x2;
                     * y3 = lambda * (x1 - x3) - y1. */
                    secp256k1_fe_negate(&t1, &p1->y, 1);
                    secp256k1_fe_add(&t1, &p2->y);
                    secp256k1_fe_mul(&lambda, &t1, &inv_k);
                    secp256k1_fe_sqr(&x3, &lambda);
                    secp256k1_fe_negate(&t1, &p1->x, 1);
                    secp256k1_fe_add(&x3, &t1);
                    secp256k1_fe_negate(&t1, &p2->x, 1);
                    secp256k1_fe_add(&x3, &t1);
                    secp256k1_fe_normalize_weak(&x3);
                    secp256k1_fe_negate(&t1, &x3, 1);
                    secp256k1_fe_add(&t1, &p1->x);
                    secp256k1_fe_mul(&y3, &lambda, &t1);
                    secp256k1_fe_negate(&t1, &p1->y, 1);
                    secp256k1_fe_add(&y3, &t1);
                    secp256k1_fe_normalize_weak(&y3);
                    p1->x = x3;
                    p1->y = y3;
                    p2->infinity = 1; /* consumed: the pair's sum is in p1 */
                }
            }
            for (b = 0; b < n_buckets; b++) {
                size_t t, s = start[b];
                if (len[b] < 2) continue;
                for (t = 0; 2 * t < len[b]; t++) {
                    const secp256k1_ge *p1 = &cur[s + 2 * t];
                    const secp256k1_ge *src = p1;
                    if (2 * t + 1 < len[b] && p1->infinity) src = &cur[s + 2 * t + 1];
                    if (s + t != (size_t)(src - cur)) cur[s + t] = *src;
                }
                len[b] = (len[b] + 1) / 2;
                if (len[b] >= 2) more = 1;
            }
        } while (more);

        /* r = 2^(w+1) * r + bucket[0] + 3*bucket[1] + 5*bucket[2] + ..., as
         * secp256k1_ecmult_pippenger_wnaf sums its buckets. */
        for (j = 0; j < w; j++) secp256k1_gej_double_var(r, r, NULL);
        secp256k1_gej_set_infinity(&running);
        for (b = n_buckets; b-- > 0;) {
            if (len[b] == 1 && !cur[start[b]].infinity) secp256k1_gej_add_ge_var(&running, &running, &cur[start[b]], NULL);
            if (side_used[b]) secp256k1_gej_add_var(&running, &running, &side[b], NULL);
            if (b == 0) break;
            secp256k1_gej_add_var(r, r, &running, NULL);
        }
        secp256k1_gej_double_var(r, r, NULL);
        secp256k1_gej_add_var(r, r, &running, NULL);
    }
    secp256k1_scratch_apply_checkpoint(error_callback, scratch, checkpoint);
    return 1;
}

#endif /* IBD_SECP256K1_PIPPENGER_AFFINE_IMPL_H */
