/* libsecp256k1 as ibd-wasm builds it: the library's own single translation unit, then the
 * project's additions that need its static internals (a module, as the library's own
 * src/modules/ are). Built by cmake/secp256k1.cmake in place of src/secp256k1.c. */
#include "secp256k1.c"

#include "secp256k1/schnorrsig_batch_impl.h"
