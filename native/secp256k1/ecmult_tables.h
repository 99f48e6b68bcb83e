/* The precomputed tables of multiples of G that libsecp256k1's verification uses
 * (secp256k1_pre_g and secp256k1_pre_g_128, ECMULT_WINDOW_SIZE 15: 2 x 8,192 points, 1 MiB),
 * either linked from the library's src/precomputed_ecmult.c (the native build, as Bitcoin Core
 * links them) or computed by the module itself (the wasm variants: the tables are 1 MiB of a
 * 1.2 MB gzipped download). Computed, they grow: the module starts with the first 2^(12-2)
 * points of each (window 12, an eighth of the work) and verifies at once with the window they
 * cover; after every 16 verifications at an incomplete window, the next one first doubles them:
 * window 15 from the 49th verification on. A smaller window only makes verification a little
 * slower (window 12: 3%, docs/performance.md); the results are the same. Compiled into
 * libsecp256k1's translation unit with it (secp256k1_ibd.c); C90, callable from C++. */
#ifndef IBD_SECP256K1_ECMULT_TABLES_H
#define IBD_SECP256K1_ECMULT_TABLES_H

#include <stddef.h>

#include <secp256k1.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Bytes of each of the two full tables: ECMULT_TABLE_SIZE(ECMULT_WINDOW_SIZE) points of 64
 *  bytes (secp256k1_ge_storage: x then y, each 32 bytes as 8 little-endian 32-bit words, least
 *  significant first; the 5x52 field's 4 64-bit words give the same bytes). A table of window w
 *  is the first 2^(w-2) points of it. */
SECP256K1_API size_t ibd_ecmult_table_bytes(void);

/** The full tables verification reads: which = 0 for the odd multiples of G, 1 for those of
 *  2^128*G. NULL while computed tables are incomplete (ibd_ecmult_tables_complete completes
 *  them), and for any other `which`. */
SECP256K1_API const unsigned char *ibd_ecmult_table(int which);

/** 1 when this build computes its tables (IBD_ECMULT_TABLES_AT_START), 0 when they are linked
 *  from src/precomputed_ecmult.c. */
SECP256K1_API int ibd_ecmult_tables_computed(void);

/** The window verification uses now (libsecp256k1's WINDOW_G, the wNAF width of the scalar of
 *  G): ECMULT_WINDOW_SIZE with linked tables; with computed ones, 0 before
 *  ibd_ecmult_tables_init, then 12 (IBD_ECMULT_START_WINDOW) up to ECMULT_WINDOW_SIZE. */
SECP256K1_API int ibd_ecmult_tables_window(void);

/** Computes both tables, or extends them: on entry out (the odd multiples of G) and out_128
 *  (of 2^128*G) hold the tables of window have_window (its first 2^(have_window-2) points; 0:
 *  nothing), on return those of `window`; each buffer ibd_ecmult_table_bytes() bytes. As
 *  libsecp256k1's generator of src/precomputed_ecmult.c (secp256k1_ecmult_compute_two_tables)
 *  does, with the library's field arithmetic, but in batched affine additions: one field
 *  inversion per table and per doubling of its length, instead of one per point (about 5 ms in
 *  wasm for window 15, against 14 ms for Jacobian additions). The same bytes as the shipped
 *  tables (tested). Allocates up to 160 KiB of working memory for the call (malloc).
 *  @return 1; 0, leaving the tables as they were, when that memory cannot be allocated or
 *  unless 2 <= window <= ECMULT_WINDOW_SIZE and have_window is 0 or in 2..window. */
SECP256K1_API int ibd_ecmult_compute_tables_to(unsigned char *out, unsigned char *out_128, int have_window, int window);

/** The full tables (window ECMULT_WINDOW_SIZE): ibd_ecmult_compute_tables_to(out, out_128, 0,
 *  ECMULT_WINDOW_SIZE). */
SECP256K1_API void ibd_ecmult_compute_tables(unsigned char *out, unsigned char *out_128);

/** Where the tables are computed: computes those of window 12 into the tables verification
 *  reads, once (later calls do nothing). Must run before any verification; the wasm bindings
 *  run it while the module starts (native/verify/batch_verify.cpp). Not thread-safe (the wasm
 *  module is single-threaded). Out of memory at that point: the library's error callback, which
 *  aborts. Elsewhere: does nothing. */
SECP256K1_API void ibd_ecmult_tables_init(void);

/** Where the tables are computed and incomplete: doubles them, window w to w + 1 (2^(w-2)
 *  additions per table: 1,024 for window 12 to 13, 4,096 for 14 to 15). When the working memory
 *  cannot be allocated (a full heap) the window stays: verification needs no heap and goes on
 *  at it, and the next ibd_ecmult_tables_use after 16 more tries again. Never call it during a
 *  verification. @return the window now (ibd_ecmult_tables_window). */
SECP256K1_API int ibd_ecmult_tables_grow(void);

/** Grows the tables to ECMULT_WINDOW_SIZE (the tests; ibd_ecmult_table then returns them), or as
 *  far as memory allows: a level that cannot be allocated ends it, the tables incomplete. */
SECP256K1_API void ibd_ecmult_tables_complete(void);

/** Counts one verification about to start; where the tables are computed and incomplete, one
 *  that follows 16 at the current window first grows them (ibd_ecmult_tables_grow): the
 *  verifications 1-16 use window 12, 17-32 window 13, 33-48 window 14, the rest 15. The project's callers
 *  of libsecp256k1's verification (native/verify/) call it before each verification or batch.
 *  Elsewhere: does nothing. */
SECP256K1_API void ibd_ecmult_tables_use(void);

#ifdef __cplusplus
}
#endif

#endif /* IBD_SECP256K1_ECMULT_TABLES_H */
