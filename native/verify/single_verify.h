// One signature at a time, with tiny-secp256k1's semantics (its lib/index.js verify,
// verifySchnorr and isPoint, over libsecp256k1): what the package's drop-in calls
// (wasm/drop-in.mjs) run. The block path verifies with Bitcoin Core's semantics instead (lax DER,
// S always normalized: batch_verify.h); this one takes compact 64-byte signatures, as
// tiny-secp256k1 does. Shape and range checks of the arguments (32-byte hash, key sizes, r and s
// below the group order) are the caller's, as they are tiny-secp256k1's JavaScript's.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ibd {

/** A single verification's outcome. kBadPoint: the public key does not parse (not on the
 *  curve, a bad prefix byte, x >= p), where tiny-secp256k1 throws TypeError("Expected Point"). */
enum class SingleVerdict : int { kInvalid = 0, kValid = 1, kBadPoint = 2 };

/** ECDSA over secp256k1 with a compact signature, as tiny-secp256k1's verify(h, Q, signature,
 *  strict): `pubkey` 33 bytes (02/03 || x) or 65 (04/06/07 || x || y), parsed by
 *  secp256k1_ec_pubkey_parse (any other length: kBadPoint); `sig64` r || s, 32 bytes each,
 *  big-endian (secp256k1_ecdsa_signature_parse_compact: r or s >= n is kInvalid). Without
 *  `strict` a high S is normalized first (any S verifies, as Bitcoin Core's CPubKey::Verify);
 *  with it, an S above n/2 is kInvalid (libsecp256k1's secp256k1_ecdsa_verify alone). */
SingleVerdict VerifyEcdsaCompact(const uint8_t* msg32, const uint8_t* pubkey, size_t pubkey_len,
                                 const uint8_t* sig64, bool strict);

/** BIP340 "Verification" of a 64-byte signature over a 32-byte message, as tiny-secp256k1's
 *  verifySchnorr(h, Q, signature): `pubkey32` an x-only key, lifted by
 *  secp256k1_xonly_pubkey_parse (x >= p or not on the curve: kBadPoint). */
SingleVerdict VerifySchnorrSingle(const uint8_t* msg32, const uint8_t* pubkey32, const uint8_t* sig64);

/** Whether `pubkey` is a public key tiny-secp256k1's isPoint accepts: 33 or 65 bytes that
 *  secp256k1_ec_pubkey_parse parses (compressed, uncompressed or hybrid). */
bool IsValidPubKey(const uint8_t* pubkey, size_t pubkey_len);

/** Whether `pubkey32` is an x-only key (BIP340 lift_x succeeds). */
bool IsValidXOnlyPubKey(const uint8_t* pubkey32);

}  // namespace ibd
