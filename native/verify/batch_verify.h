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

/** The Schnorr records of a VerifyBatch call are verified together: BIP340 batch verification
 *  (native/secp256k1/schnorrsig_batch.h) over groups of at most kSchnorrBatchMax records, in
 *  record order, ECDSA records between them being verified as met. A group of fewer than
 *  kSchnorrBatchMin records is verified record by record; so is a group whose batch fails, so
 *  that every record gets the verdict single verification (secp256k1_schnorrsig_verify) gives
 *  it. Costs measured per signature by `npm run bench:schnorr-batch` (docs/performance.md). */
constexpr uint32_t kSchnorrBatchMax = 1024;
/** The crossover measured on real signatures, since a batch verifies each distinct key once
 *  (`npm run bench:schnorr-batch -- --rounds 5 --sizes 1,2,3,4,8,512`, 2-core AMD EPYC VM,
 *  quiet, 2026-12-03; single verification's µs per signature over the batch's): wasm simd 2:
 *  1.20x, 3: 1.36x, 4: 1.47x; scalar 2: 1.21x; native 2: 1.17x, 3: 1.34x. A batch of one costs
 *  more than single verification (0.83-0.89x: it lifts R as well). Above the largest group the
 *  gain keeps growing (2.5x at 512) but one group's scratch space grows with it
 *  (ibd_schnorrsig_batch_scratch_size: about 1.1 MB at 1,024, allocated once per thread). */
constexpr uint32_t kSchnorrBatchMin = 2;

/** One BIP340 batch verification of `count` Schnorr records packed in `checks` (layout:
 *  check_buffer.h), as one ibd_schnorrsig_verify_batch call, without VerifyBatch's grouping and
 *  fallback: the raw batch, for the cost curve of `npm run bench:schnorr-batch` and
 *  `ibd_verify_checks --schnorr-batch`. The scratch space is this thread's, grown to fit.
 *  Returns 1 when every signature verifies, 0 when one does not (or an r, s or key is out of
 *  range, or `count` is 0), -1 when record `*bad_record` is not a well-formed Schnorr record
 *  (type 2, 32-byte key, 64-byte signature) or does not fit in `checks_len` (checked for every
 *  record before anything is allocated for `count` of them). */
int VerifySchnorrBatchOnce(const uint8_t* checks, size_t checks_len, uint32_t count, uint32_t* bad_record);

}  // namespace ibd
