/* BIP340 batch verification, compiled into libsecp256k1's own translation unit
 * (secp256k1_ibd.c), because it needs the library's internal multi-scalar multiplication.
 * C90, as libsecp256k1; callable from C++. */
#ifndef IBD_SECP256K1_SCHNORRSIG_BATCH_H
#define IBD_SECP256K1_SCHNORRSIG_BATCH_H

#include <stddef.h>

#include <secp256k1.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Bytes of scratch space that ibd_schnorrsig_verify_batch needs to verify `n_sigs` signatures
 *  in one multi-scalar multiplication, and any smaller batch: its own arrays of up to
 *  3 * n_sigs + 2 scalars and points (the multiplication's entries), its table of distinct keys
 *  (a power of two of at least 2 * n_sigs slots, and n_sigs more words), plus the larger of the
 *  working sets of the two multiplications it may run: Pippenger's with affine buckets
 *  (pippenger_affine_impl.h) for that many entries and for the most entries at each smaller
 *  window a smaller batch may run at, and libsecp256k1's Strauss for the most points below
 *  IBD_BATCH_PIPPENGER_MIN_POINTS; with alignment slack. About 1.3 MB for 1,024 signatures;
 *  SIZE_MAX above SIZE_MAX / 4096 signatures, which no batch takes. With less, the
 *  verification still succeeds or fails correctly, in libsecp256k1's multiplication split into as many smaller ones as the space
 *  allows (or, below what the arrays need, not at all: returns 0). */
SECP256K1_API size_t ibd_schnorrsig_batch_scratch_size(size_t n_sigs);

/** Verifies `n_sigs` BIP340 signatures at once: BIP340, "Batch Verification".
 *
 *  Signature i is sig64[i] (r || s, 64 bytes), over the 32-byte message msg32[i], under the
 *  x-only public key pubkey32[i] (32 bytes). With randomizers a_0 = 1 and a_1..a_{n-1}, it
 *  checks in one multi-scalar multiplication that
 *      (a_0*s_0 + ... + a_{n-1}*s_{n-1}) * G == sum_i a_i*R_i + sum_i (a_i*e_i)*P_i
 *  where P_i = lift_x(pubkey32[i]), R_i = lift_x(r_i) and e_i the BIP340 challenge
 *  hash_BIP0340/challenge(r_i || pubkey32[i] || msg32[i]) mod n. Signatures under the same key
 *  share its term: each distinct key is lifted once and enters the multiplication once, with
 *  the sum of its signatures' a_i*e_i (the same equation; a block's inputs often share keys:
 *  block 866,342's 2,375 Schnorr checks are under 444 keys).
 *
 *  The multiplication: below IBD_BATCH_PIPPENGER_MIN_POINTS points (R_i and distinct keys),
 *  libsecp256k1's secp256k1_ecmult_multi_var (Strauss); from there, Pippenger's algorithm with
 *  affine bucket sums (pippenger_affine_impl.h), where each R_i enters once with its 128-bit
 *  randomizer and each key and G enter split in two 128-bit halves with the endomorphism
 *  (secp256k1_ecmult_endo_split): n + 2k + 2 entries where libsecp256k1's Pippenger would
 *  have 2n + 2k + 2.
 *
 *  Randomizers: derived, not drawn. seed = SHA256 with the BIP340 tagged-hash construction under
 *  the tag "ibd-wasm/batch", over every (sig64, pubkey32, msg32) of the batch in order; then
 *  a_i = the first 16 bytes of SHA256(seed || i as 4 bytes little-endian), read big-endian,
 *  for i >= 1 (1 if that is 0): 128-bit randomizers, as Jonas Nick's BIP340 amendment proposes
 *  (sipa/bips PR #222, "reduce size of randomizers to 128 bit and provide argument"). As in
 *  libsecp256k1's batch-verification proposal (secp256k1 PR #1134), every randomizer depends
 *  on the whole batch: to make a batch that holds an invalid signature pass, an attacker must
 *  find inputs whose hash-derived randomizers satisfy one linear equation mod n, and a linear
 *  equation in one randomizer has at most one solution: with the a_i uniform in [1, 2^128)
 *  given the inputs (the random-oracle argument of BIP340's batch verification), each hash
 *  evaluation succeeds with probability at most 2^-128, the 128-bit security of secp256k1
 *  itself. The result is deterministic: the same batch always gets the same verdict, in native
 *  and wasm builds alike.
 *
 *  Returns 1 when every signature verifies. Returns 0 when at least one does not, when an r is
 *  not below p or not the x of a curve point, an s not below n or a key not a valid x-only key
 *  (BIP340's failure cases), when n_sigs is 0 or above SIZE_MAX / 4096, or when `scratch`
 *  cannot hold the per-signature arrays. A 0 names no culprit: the caller verifies each signature alone
 *  (secp256k1_schnorrsig_verify) to give each its own verdict.
 *
 *  Arguments: ctx any context (secp256k1_context_static included); scratch from
 *  secp256k1_scratch_space_create, emptied again before returning; the three arrays hold
 *  n_sigs pointers each. */
SECP256K1_API int ibd_schnorrsig_verify_batch(const secp256k1_context *ctx, secp256k1_scratch_space *scratch,
                                              const unsigned char *const *sig64,
                                              const unsigned char *const *msg32,
                                              const unsigned char *const *pubkey32, size_t n_sigs);

#ifdef __cplusplus
}
#endif

#endif /* IBD_SECP256K1_SCHNORRSIG_BATCH_H */
