# libsecp256k1 compiled from source with CMake alone: one static library per build variant.
#
# ibd_add_secp256k1(<target> [WIDEMUL_INT64 | FIELD_5X52_OUT_OF_LINE] [TABLES_AT_START] [COMPILE_OPTIONS <opt>...])
#
# Modules: ecdsa (always), extrakeys, schnorrsig. ECDH, recovery and ellswift are left out.
#
# The library's single translation unit is compiled through native/secp256k1/secp256k1_ibd.c,
# which includes src/secp256k1.c and then the project's additions that need the library's static
# internals: BIP340 batch verification over its multi-scalar multiplication
# (native/secp256k1/schnorrsig_batch.h). The pinned source itself is never modified.
#
# WIDEMUL_INT64 forces the 10x26 field and 8x32 scalar (USE_FORCE_WIDEMUL_INT64). This is the
# one place that choice is made, and it is made for every wasm variant: on wasm32 clang offers
# __int128, so libsecp256k1 picks its 5x52 field and emulates each 64x64->128 multiply with a
# library call (__multi3), about half of the run time. The 10x26 field needs only 32x32->64
# multiplies, which wasm has natively; measured 3.1-3.5x faster verifies (../shared/DESIGN.md).
# The native build keeps libsecp256k1's default (5x52 with __int128), as Bitcoin Core does.
#
# FIELD_5X52_OUT_OF_LINE keeps the 5x52 field and has its multiply and square called out of line
# (IBD_FIELD_5X52_OUT_OF_LINE, native/secp256k1/secp256k1_ibd.c), for the 'wide' wasm variant,
# whose link step replaces them and __multi3 with wasm's wide-arithmetic instructions
# (wasm/wide-arithmetic/): there the 5x52 field is the faster one.
#
# IBD_ECMULT_WINDOW_SIZE sets libsecp256k1's ECMULT_WINDOW_SIZE: the window of the precomputed
# table of multiples of G that verification uses, 2^(w-2) points per table, two tables of
# 64-byte points: 15 (libsecp256k1's default) = 1 MiB, 12 = 128 KiB. Linked (the native build),
# the table is that much of the binary; computed at start (TABLES_AT_START below, the wasm
# variants), it is that much memory and start-up time instead. A smaller table slows
# verification; `npm run bench` measures both (bench/compare/size.mjs builds build/wasm-window12). The shipped precomputed_ecmult.c holds the
# tables up to 15 (larger ones would need regenerating it), hence the range 2..15.
#
# TABLES_AT_START leaves src/precomputed_ecmult.c out and has the module compute those two tables
# itself instead (IBD_ECMULT_TABLES_AT_START, native/secp256k1/ecmult_tables.h): the same bytes,
# with the library's own field arithmetic, window 12's share at start (IBD_ECMULT_START_WINDOW,
# set by wasm/CMakeLists.txt) and the rest as the module verifies, and 1 MiB less to download.
# The wasm variants use it; the native build links the shipped tables, as Core does.
set(IBD_ECMULT_WINDOW_SIZE 15 CACHE STRING "libsecp256k1 ECMULT_WINDOW_SIZE (2..15; default 15)")
if(NOT IBD_ECMULT_WINDOW_SIZE MATCHES "^[0-9]+$" OR IBD_ECMULT_WINDOW_SIZE LESS 2 OR IBD_ECMULT_WINDOW_SIZE GREATER 15)
  message(FATAL_ERROR "IBD_ECMULT_WINDOW_SIZE='${IBD_ECMULT_WINDOW_SIZE}' is not an integer in 2..15")
endif()

function(ibd_add_secp256k1 target)
  cmake_parse_arguments(ARG "WIDEMUL_INT64;FIELD_5X52_OUT_OF_LINE;TABLES_AT_START" "" "COMPILE_OPTIONS" ${ARGN})
  if(ARG_WIDEMUL_INT64 AND ARG_FIELD_5X52_OUT_OF_LINE)
    message(FATAL_ERROR "ibd_add_secp256k1(${target}): WIDEMUL_INT64 (10x26) and FIELD_5X52_OUT_OF_LINE (5x52) exclude each other")
  endif()
  set(src "${IBD_SECP256K1_DIR}/src")
  set(sources "${PROJECT_SOURCE_DIR}/native/secp256k1/secp256k1_ibd.c" "${src}/precomputed_ecmult_gen.c")
  if(NOT ARG_TABLES_AT_START)
    list(APPEND sources "${src}/precomputed_ecmult.c")
  endif()
  add_library(${target} STATIC ${sources})
  # src/ for `#include "secp256k1.c"`; native/ for the additions, included by their path below it.
  target_include_directories(${target} PUBLIC "${IBD_SECP256K1_DIR}/include" PRIVATE "${src}" "${PROJECT_SOURCE_DIR}/native")
  target_compile_definitions(${target} PRIVATE
    ENABLE_MODULE_EXTRAKEYS=1
    ENABLE_MODULE_SCHNORRSIG=1
    ECMULT_WINDOW_SIZE=${IBD_ECMULT_WINDOW_SIZE})
  if(ARG_WIDEMUL_INT64)
    target_compile_definitions(${target} PRIVATE USE_FORCE_WIDEMUL_INT64=1)
  endif()
  if(ARG_FIELD_5X52_OUT_OF_LINE)
    target_compile_definitions(${target} PRIVATE IBD_FIELD_5X52_OUT_OF_LINE=1)
  endif()
  if(ARG_TABLES_AT_START)
    target_compile_definitions(${target} PRIVATE IBD_ECMULT_TABLES_AT_START=1)
  endif()
  set_target_properties(${target} PROPERTIES C_STANDARD 90 C_EXTENSIONS OFF POSITION_INDEPENDENT_CODE ON)
  # -O3 kept by measurement for the wasm variants (simd, whole blocks against this build,
  # interleaved, process CPU, 5 rounds, LOADED; docs/performance.md, "Whole blocks: where wasm
  # loses"): -O2 0.982x, -mllvm -inline-threshold=1000 0.846x, =100 1.005x, without -msimd128
  # 0.993x, USE_FORCE_WIDEMUL_INT128_STRUCT instead of WIDEMUL_INT64 0.546x.
  target_compile_options(${target} PRIVATE -O3 -w ${ARG_COMPILE_OPTIONS})
endfunction()
