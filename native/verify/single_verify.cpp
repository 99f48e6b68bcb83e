// Single verifications with tiny-secp256k1's semantics (single_verify.h). Compiled without C++
// exceptions in the wasm build, as batch_verify.cpp: only C calls, nothing throws.
#include "verify/single_verify.h"

#include <secp256k1.h>
#include <secp256k1_extrakeys.h>
#include <secp256k1_schnorrsig.h>

#include "secp256k1/ecmult_tables.h"

namespace ibd {

namespace {

bool ParsePubKey(const uint8_t* pubkey, size_t pubkey_len, secp256k1_pubkey* out) {
    if (pubkey_len != 33 && pubkey_len != 65) return false;
    return secp256k1_ec_pubkey_parse(secp256k1_context_static, out, pubkey, pubkey_len) == 1;
}

}  // namespace

SingleVerdict VerifyEcdsaCompact(const uint8_t* msg32, const uint8_t* pubkey, size_t pubkey_len,
                                 const uint8_t* sig64, bool strict) {
    secp256k1_pubkey pk;
    if (!ParsePubKey(pubkey, pubkey_len, &pk)) return SingleVerdict::kBadPoint;
    secp256k1_ecdsa_signature sig;
    if (!secp256k1_ecdsa_signature_parse_compact(secp256k1_context_static, &sig, sig64)) return SingleVerdict::kInvalid;
    if (!strict) secp256k1_ecdsa_signature_normalize(secp256k1_context_static, &sig, &sig);
    ibd_ecmult_tables_use();
    return secp256k1_ecdsa_verify(secp256k1_context_static, &sig, msg32, &pk) == 1 ? SingleVerdict::kValid
                                                                                  : SingleVerdict::kInvalid;
}

SingleVerdict VerifySchnorrSingle(const uint8_t* msg32, const uint8_t* pubkey32, const uint8_t* sig64) {
    secp256k1_xonly_pubkey pk;
    if (!secp256k1_xonly_pubkey_parse(secp256k1_context_static, &pk, pubkey32)) return SingleVerdict::kBadPoint;
    ibd_ecmult_tables_use();
    return secp256k1_schnorrsig_verify(secp256k1_context_static, sig64, msg32, 32, &pk) == 1 ? SingleVerdict::kValid
                                                                                            : SingleVerdict::kInvalid;
}

bool IsValidPubKey(const uint8_t* pubkey, size_t pubkey_len) {
    secp256k1_pubkey pk;
    return ParsePubKey(pubkey, pubkey_len, &pk);
}

bool IsValidXOnlyPubKey(const uint8_t* pubkey32) {
    secp256k1_xonly_pubkey pk;
    return secp256k1_xonly_pubkey_parse(secp256k1_context_static, &pk, pubkey32) == 1;
}

}  // namespace ibd
