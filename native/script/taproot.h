// BIP341 taproot commitments: tapleaf and tapbranch hashes, the Merkle root of a control block's
// path, the TapTweak, and the check that a witness v1 program commits to a script (Core's
// ComputeTapleafHash, ComputeTapbranchHash, ComputeTaprootMerkleRoot, VerifyTaprootCommitment,
// XOnlyPubKey::CheckTapTweak / ComputeTapTweakHash).
//
// Control block layout (BIP341 "Script validation rules"), 33 + 32m bytes, 0 <= m <= 128:
//   byte 0        leaf_version (bits 7..1) | parity of the output key Q (bit 0)
//   bytes 1..32   internal key P, x-only
//   then m nodes  32-byte Merkle path, leaf first
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "crypto/sha256.h"

namespace ibd {

constexpr size_t kTaprootControlBaseSize = 33;
constexpr size_t kTaprootControlNodeSize = 32;
constexpr size_t kTaprootControlMaxNodeCount = 128;
constexpr size_t kTaprootControlMaxSize = kTaprootControlBaseSize + kTaprootControlNodeSize * kTaprootControlMaxNodeCount;
/** Mask of the leaf version in control byte 0; the low bit is the output key's parity. */
constexpr uint8_t kTaprootLeafMask = 0xfe;
/** BIP342 tapscript leaf version. */
constexpr uint8_t kTaprootLeafTapscript = 0xc0;

/** BIP341: a control block is 33 + 32m bytes with m <= 128. */
bool IsValidControlBlockSize(size_t size);

/** hash_TapLeaf(leaf_version || CompactSize(len) || script) (BIP341 "Script validation rules"). */
Hash32 ComputeTapleafHash(uint8_t leaf_version, const uint8_t* script, size_t len);

/** hash_TapBranch(min(a, b) || max(a, b)), bytes compared lexicographically (BIP341). */
Hash32 ComputeTapbranchHash(const Hash32& a, const Hash32& b);

/** Folds the control block's path into the Merkle root, starting from `tapleaf_hash`.
 *  Requires IsValidControlBlockSize(control_len). */
Hash32 ComputeTaprootMerkleRoot(const uint8_t* control, size_t control_len, const Hash32& tapleaf_hash);

/** t = hash_TapTweak(internal_key || merkle_root), or hash_TapTweak(internal_key) when
 *  `merkle_root` is null (key path only output; BIP341 "Constructing and spending Taproot
 *  outputs", BIP86). `internal_key` is 32 bytes. */
Hash32 ComputeTapTweakHash(const uint8_t* internal_key, const Hash32* merkle_root);

/** The tweaked output key Q = P + t*G as x-only bytes, with the parity of its Y in `*parity`
 *  (for tests and wallets; validation uses VerifyTaprootCommitment). False when `internal_key`
 *  is not a valid x-only key or the tweak overflows. Uses secp256k1_context_static. */
bool ComputeTweakedKey(const uint8_t* internal_key, const Hash32* merkle_root, uint8_t out32[32], int* parity);

/** Core's VerifyTaprootCommitment: with P = control[1..33), the root from the control block's
 *  path and `tapleaf_hash`, true iff `program32` is the x-only key of P + hash_TapTweak(P ||
 *  root)*G with Y parity control[0] & 1 (secp256k1_xonly_pubkey_tweak_add_check). False also
 *  when P is not a valid x-only key. Requires IsValidControlBlockSize(control_len). */
bool VerifyTaprootCommitment(const uint8_t* control, size_t control_len, const uint8_t* program32,
                             const Hash32& tapleaf_hash);

}  // namespace ibd
