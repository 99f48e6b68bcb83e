# libsecp256k1 compiled from source with CMake alone: one static library per build variant.
#
# ibd_add_secp256k1(<target> [WIDEMUL_INT64] [COMPILE_OPTIONS <opt>...])
#
# Modules: ecdsa (always), extrakeys, schnorrsig. ECDH, recovery and ellswift are left out.
#
# WIDEMUL_INT64 forces the 10x26 field and 8x32 scalar (USE_FORCE_WIDEMUL_INT64). This is the
# one place that choice is made, and it is made for every wasm variant: on wasm32 clang offers
# __int128, so libsecp256k1 picks its 5x52 field and emulates each 64x64->128 multiply with a
# library call (__multi3), about half of the run time. The 10x26 field needs only 32x32->64
# multiplies, which wasm has natively; measured 3.1-3.5x faster verifies (../shared/DESIGN.md).
# The native build keeps libsecp256k1's default (5x52 with __int128), as Bitcoin Core does.
#
# ECMULT_WINDOW_SIZE stays at its default (15) here; the table-size trade-off is issue #6's.
function(ibd_add_secp256k1 target)
  cmake_parse_arguments(ARG "WIDEMUL_INT64" "" "COMPILE_OPTIONS" ${ARGN})
  set(src "${IBD_SECP256K1_DIR}/src")
  add_library(${target} STATIC
    "${src}/secp256k1.c"
    "${src}/precomputed_ecmult.c"
    "${src}/precomputed_ecmult_gen.c")
  target_include_directories(${target} PUBLIC "${IBD_SECP256K1_DIR}/include")
  target_compile_definitions(${target} PRIVATE
    ENABLE_MODULE_EXTRAKEYS=1
    ENABLE_MODULE_SCHNORRSIG=1)
  if(ARG_WIDEMUL_INT64)
    target_compile_definitions(${target} PRIVATE USE_FORCE_WIDEMUL_INT64=1)
  endif()
  set_target_properties(${target} PROPERTIES C_STANDARD 90 C_EXTENSIONS OFF POSITION_INDEPENDENT_CODE ON)
  target_compile_options(${target} PRIVATE -O3 -w ${ARG_COMPILE_OPTIONS})
endfunction()
