/* The precomputed tables of multiples of G that libsecp256k1's verification uses
 * (secp256k1_pre_g and secp256k1_pre_g_128, ECMULT_WINDOW_SIZE 15: 2 x 8,192 points, 1 MiB),
 * either linked from the library's src/precomputed_ecmult.c (the native build, as Bitcoin Core
 * links them) or computed when the module starts (the wasm variants: the table is 1 MiB of a
 * 1.2 MB gzipped download, and computing it takes milliseconds). Compiled into libsecp256k1's
 * translation unit with it (secp256k1_ibd.c); C90, callable from C++. */
#ifndef IBD_SECP256K1_ECMULT_TABLES_H
#define IBD_SECP256K1_ECMULT_TABLES_H

#include <stddef.h>

#include <secp256k1.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Bytes of each of the two tables: ECMULT_TABLE_SIZE(ECMULT_WINDOW_SIZE) points of 64 bytes
 *  (secp256k1_ge_storage: x then y, each 32 bytes as 8 little-endian 32-bit words, least
 *  significant first; the 5x52 field's 4 64-bit words give the same bytes). */
SECP256K1_API size_t ibd_ecmult_table_bytes(void);

/** The tables verification reads: which = 0 for the odd multiples of G, 1 for those of 2^128*G.
 *  NULL before ibd_ecmult_tables_init when they are computed at start (and for any other
 *  `which`). */
SECP256K1_API const unsigned char *ibd_ecmult_table(int which);

/** 1 when this build computes its tables at start (IBD_ECMULT_TABLES_AT_START), 0 when they
 *  are linked from src/precomputed_ecmult.c. */
SECP256K1_API int ibd_ecmult_tables_computed(void);

/** Computes both tables into out (the odd multiples of G) and out_128 (of 2^128*G), each
 *  ibd_ecmult_table_bytes() bytes, as libsecp256k1's generator of src/precomputed_ecmult.c
 *  (secp256k1_ecmult_compute_two_tables) does, with the library's field arithmetic, but in
 *  batched affine additions (13 field inversions per table instead of one per point: about
 *  5 ms in wasm, against 14 ms for Jacobian additions). The same bytes as the shipped tables
 *  (tested). Allocates about 0.9 MB of working memory for the call (malloc; the library's
 *  error callback, which aborts, if that fails). */
SECP256K1_API void ibd_ecmult_compute_tables(unsigned char *out, unsigned char *out_128);

/** Where the tables are computed at start: computes them into the tables verification reads,
 *  once (later calls do nothing). Must run before any verification; the wasm bindings run it
 *  while the module starts. Not thread-safe (the wasm module is single-threaded). Elsewhere:
 *  does nothing. */
SECP256K1_API void ibd_ecmult_tables_init(void);

#ifdef __cplusplus
}
#endif

#endif /* IBD_SECP256K1_ECMULT_TABLES_H */
