// The batch-verification shim: N packed signature checks in, N verdict bytes out, one call.
#pragma once

#include <cstddef>
#include <cstdint>

#include "verify/check_buffer.h"

namespace ibd {

/** Result of VerifyBatch. */
struct BatchStatus {
    /** 0 when the whole buffer was well formed; otherwise the number of records verified
     *  before the malformed one (their verdicts are written) and `error` is set. */
    int error = 0;               // 0 = ok; 1 = truncated record; 2 = unknown type; 3 = bad length
    size_t error_offset = 0;     // byte offset of the malformed record in `checks`
    uint32_t error_record = 0;   // index of the malformed record
};

/** Verifies `count` records packed in `checks[0..checks_len)` (layout: check_buffer.h) and
 *  writes one Verdict byte per record to `verdicts[0..count)`.
 *  ECDSA records: Bitcoin Core's CPubKey::Verify (pubkey.cpp): secp256k1_ec_pubkey_parse
 *  (33/65 bytes, hybrid 0x06/0x07 accepted as libsecp256k1 does), lax DER parse as Core's
 *  ecdsa_signature_parse_der_lax, secp256k1_ecdsa_signature_normalize (low-S), then
 *  secp256k1_ecdsa_verify. Schnorr records: BIP340 via secp256k1_xonly_pubkey_parse and
 *  secp256k1_schnorrsig_verify. A key or signature that does not parse is a kInvalid verdict,
 *  not an error. A malformed record (truncated, unknown type, Schnorr lengths other than
 *  32/64, ECDSA sig_len > 520) stops the batch: BatchStatus says where; records before it keep
 *  their verdicts and the rest are left as kInvalid. Never reads outside `checks`.
 *  Each record is checked in this order: its 36-byte header fits (else error 1), its type is
 *  known (else 2), its lengths are allowed (else 3), its pubkey + sig fit (else 1); error_offset
 *  is then the record's first byte. Bytes after the `count`-th record are not read.
 *  `verdicts` must hold `count` bytes; `checks` may be null only if `checks_len` is 0.
 *  Thread-safe: uses only secp256k1_context_static. */
BatchStatus VerifyBatch(const uint8_t* checks, size_t checks_len, uint32_t count, uint8_t* verdicts);

}  // namespace ibd
