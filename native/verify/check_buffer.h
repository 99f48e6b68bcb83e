// The packed signature-check buffer: the one layout that crosses every boundary of ibd-wasm
// (engine -> JS main thread -> worker -> wasm verify). It is written down here, once.
//
// A check buffer is a concatenation of variable-length records, no header, no padding.
// Integers are little-endian. One record:
//
//   offset  size         field
//   0       1            type        CheckType below
//   1       1            pubkey_len  ECDSA: 33 (compressed) or 65 (uncompressed / hybrid), as found
//                                    in the script; any other value is allowed and verifies invalid
//                                    (Core's CPubKey::IsValid fails). Schnorr: 32 (x-only key).
//   2       2            sig_len     ECDSA: DER signature length WITHOUT the hash_type byte, 0..520.
//                                    Schnorr: 64 (the hash_type byte, if any, is already stripped).
//   4       32           msg32       the sighash the signature commits to (internal byte order)
//   36      pubkey_len   pubkey      public key bytes as serialized in the script / witness program
//   36+pk   sig_len      sig         signature bytes
//
//   record size = 36 + pubkey_len + sig_len   (kCheckHeaderSize == 36)
//
// Verdicts: one byte per record, in record order, values of Verdict below.
//
// Threading and ownership (as in Bitcoin Core's kernel API): functions that take a buffer make
// no assumption on its lifetime beyond the call; lengths follow the pointer they describe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "crypto/sha256.h"

namespace ibd {

/** Size in bytes of the fixed part of a record (type, pubkey_len, sig_len, msg32). */
constexpr size_t kCheckHeaderSize = 36;
/** Largest ECDSA signature accepted in a record (MAX_SCRIPT_ELEMENT_SIZE, Core script.h). */
constexpr size_t kMaxEcdsaSigLen = 520;

enum class CheckType : uint8_t {
    /** ECDSA over secp256k1 as Bitcoin Core's CPubKey::Verify: lax DER parse
     *  (ecdsa_signature_parse_der_lax), low-S normalization, then verify. */
    kEcdsa = 1,
    /** BIP340 Schnorr signature over a 32-byte message with an x-only key (BIP341 key path,
     *  BIP342 tapscript). */
    kSchnorr = 2,
};

enum class Verdict : uint8_t {
    /** The signature does not verify (includes unparseable keys and signatures). */
    kInvalid = 0,
    /** The signature verifies. */
    kValid = 1,
};

/** Appends one record to `buf`: type | pubkey_len | sig_len (LE) | msg32 | pubkey | sig.
 *  Requires pubkey_len <= 255 and sig_len <= 65535. */
void AppendCheckRecord(std::vector<uint8_t>& buf, CheckType type, const uint8_t* pubkey, size_t pubkey_len,
                       const uint8_t* sig, size_t sig_len, const Hash32& msg32);

}  // namespace ibd
