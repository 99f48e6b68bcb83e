// Lax DER parsing of ECDSA signatures, with the exact acceptance rules of Bitcoin Core's
// ecdsa_signature_parse_der_lax (src/pubkey.cpp), which CPubKey::Verify uses for every ECDSA
// check. Consensus depends on these rules: before BIP66 (block 363,725) the chain holds
// signatures that are not strict DER, and libsecp256k1's secp256k1_ecdsa_signature_parse_der
// rejects them.
#pragma once

#include <cstddef>
#include <cstdint>

#include <secp256k1.h>

namespace ibd {

/** Parses a BER/DER-like ECDSA signature `der[0..der_len)` (WITHOUT the hash_type byte) into
 *  `*sig`, accepting what Core's ecdsa_signature_parse_der_lax accepts.
 *
 *  Layout read (all lengths in bytes):
 *    0x30  seq_len  0x02 r_len R...  0x02 s_len S...  [anything]
 *  - seq_len: one byte; if its high bit is set, its low 7 bits count further length bytes that
 *    are skipped (they must lie inside the input). Its value is otherwise ignored.
 *  - r_len / s_len: one byte below 0x80 is the length itself; otherwise its low 7 bits count the
 *    big-endian length bytes that follow (inside the input); leading zero bytes among them are
 *    skipped and at most 3 may remain. The integer must lie inside the input.
 *  - R and S are read as unsigned big-endian (a "negative" high bit is accepted); leading zero
 *    bytes are dropped; bytes after S (and a seq_len that disagrees) are ignored.
 *
 *  Returns false when the structure above is not found (missing tag, a length or integer running
 *  past the input); `*sig` is then (r, s) = (0, 0). Returns true otherwise. If R or S is longer
 *  than 32 bytes after dropping leading zeros, or is >= the group order n (what
 *  secp256k1_ecdsa_signature_parse_compact rejects), `*sig` is set to (0, 0) and true is
 *  returned, exactly as Core: such a signature "parses" but can never verify
 *  (secp256k1_ecdsa_verify rejects r = 0). Never reads outside `der[0..der_len)`.
 *  Uses secp256k1_context_static; thread-safe. */
bool EcdsaSignatureParseDerLax(const uint8_t* der, size_t der_len, secp256k1_ecdsa_signature* sig);

/** BIP66 strict DER, the rule of Core's IsValidSignatureEncoding (script/interpreter.cpp) that
 *  SCRIPT_VERIFY_DERSIG enforces for every CHECKSIG from block 363,725. `sig[0..len)` is the
 *  WHOLE signature element, hash_type byte included. True iff it is exactly
 *    0x30 L 0x02 lenR R 0x02 lenS S hash_type
 *  with: 9 <= len <= 73; L == len - 3 (the sequence covers everything but the first two bytes
 *  and the hash_type); lenR >= 1 and lenS >= 1, both integers inside the element and together
 *  filling it (lenR + lenS + 7 == len); R and S not negative (top bit of the first byte clear)
 *  and minimally encoded (a leading 0x00 only when the next byte has its top bit set).
 *  The hash_type value itself is not checked (that is STRICTENC, policy only). The empty
 *  element is not DER; callers allow it separately (Core's CheckSignatureEncoding: an empty
 *  signature passes and makes CHECKSIG return false). Never reads outside `sig[0..len)`. */
bool IsValidSignatureEncoding(const uint8_t* sig, size_t len);

}  // namespace ibd
