/* ECDSA verification under a recurring public key, compiled into libsecp256k1's own translation
 * unit (secp256k1_ibd.c) because it needs the library's internal group and scalar arithmetic.
 * C90, as libsecp256k1; callable from C++.
 *
 * libsecp256k1's secp256k1_ecdsa_verify computes u1*G + u2*P (src/ecdsa_impl.h
 * secp256k1_ecdsa_sig_verify) with Strauss' method over 128-bit scalars (u2 split by the GLV
 * endomorphism, u1 at 2^128): 128 doublings, shared by every term. When a key recurs (a block's
 * inputs often spend under one key: 46% of the fixture blocks' ECDSA checks are under a key an
 * earlier check used), it pays to precompute more of P once: here the odd multiples of P and of
 * 2^64*P (and their images under the endomorphism), so that u2 is split into four 64-bit scalars,
 * and u1 into four with two more tables of G's multiples (2^64*G and 2^192*G, computed once per
 * process). The multiplication then needs 64 doublings, not 128. The verdict is the library's:
 * the same scalars, the same final x comparison (both candidates r and r + n), only the order of
 * the point additions differs. */
#ifndef IBD_SECP256K1_ECDSA_KEY_TABLES_H
#define IBD_SECP256K1_ECDSA_KEY_TABLES_H

#include <secp256k1.h>

#ifdef __cplusplus
extern "C" {
#endif

/** wNAF window of a key's tables: 2^(IBD_ECDSA_KEY_WINDOW - 2) odd multiples per base point. */
#define IBD_ECDSA_KEY_WINDOW 5
/** wNAF window of the tables of 2^64*G and 2^192*G (ibd_ecdsa_key_tables_init). */
#define IBD_ECDSA_G64_WINDOW 13

/** One public key's precomputed multiples: for each of the four base points P, lambda*P,
 *  2^64*P and lambda*2^64*P (lambda: the GLV endomorphism, x -> beta*x), its odd multiples
 *  1, 3, .., 2^(IBD_ECDSA_KEY_WINDOW-1) - 1 times it, in affine coordinates, each as the 64 bytes
 *  of libsecp256k1's secp256k1_ge_storage (copied in and out with memcpy, as the library does
 *  with secp256k1_pubkey). 2,048 bytes at window 5. Opaque; written by
 *  ibd_ecdsa_key_tables_build. The window is fixed here, not a build option: the size is part
 *  of the interface. */
typedef struct {
    unsigned char data[4 * (1 << (IBD_ECDSA_KEY_WINDOW - 2)) * 64];
} ibd_ecdsa_key_tables;

/** Computes the tables of 2^64*G and 2^192*G that ibd_ecdsa_verify_key_tables needs, once
 *  (later calls return at once). Not thread-safe: call it once before any thread verifies
 *  with key tables. About 0.26 MB of static memory at window 13.
 *  Returns 1 when the tables are ready, 0 when their working memory could not be allocated. */
SECP256K1_API int ibd_ecdsa_key_tables_init(void);

/** Builds `out` for the parsed public key `pubkey` (secp256k1_ec_pubkey_parse's result): 64
 *  doublings and 14 additions, then one field inversion for all 16 points (secp256k1_ge_set_all_gej_var).
 *  Costs about half an ECDSA verification; pays from the second signature under the key.
 *  Returns 1 (a parsed key is always a point of the curve, not infinity). */
SECP256K1_API int ibd_ecdsa_key_tables_build(ibd_ecdsa_key_tables *out, const secp256k1_pubkey *pubkey);

/** secp256k1_ecdsa_verify (include/secp256k1.h) with the key's precomputed tables: 1 when `sig`
 *  (parsed, low-S: a high S fails, as there) is a valid signature of the 32-byte `msg32` under the
 *  key `tables` were built from, else 0. Requires ibd_ecdsa_key_tables_init to have returned 1
 *  (returns 0 otherwise). Same verdict as secp256k1_ecdsa_verify for every input
 *  (tests/native/verify/ecdsa_key_tables_test.cpp). */
SECP256K1_API int ibd_ecdsa_verify_key_tables(const secp256k1_ecdsa_signature *sig, const unsigned char *msg32,
                                              const ibd_ecdsa_key_tables *tables);

#ifdef __cplusplus
}
#endif

#endif
