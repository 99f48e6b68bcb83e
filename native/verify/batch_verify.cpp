// VerifyBatch (batch_verify.h). Compiled without C++ exceptions in the wasm build (see
// wasm/CMakeLists.txt): nothing here throws, and the verify loop must carry no invoke wrappers.
#include "verify/batch_verify.h"

#include <cstring>

#include <secp256k1.h>
#include <secp256k1_extrakeys.h>
#include <secp256k1_schnorrsig.h>

#include "verify/ecdsa_lax_der.h"

namespace ibd {
namespace {

constexpr size_t kSchnorrPubkeyLen = 32;  // BIP340 x-only public key
constexpr size_t kSchnorrSigLen = 64;     // BIP340 signature (r || s), hash_type stripped

/** Bitcoin Core's CPubKey::Verify (pubkey.cpp). CPubKey::IsValid (header byte 02/03 with 33
 *  bytes, 04/06/07 with 65) admits exactly what secp256k1_ec_pubkey_parse can accept, so the
 *  parse alone decides key validity. */
bool VerifyEcdsa(const uint8_t* msg32, const uint8_t* pubkey, size_t pubkey_len,
                 const uint8_t* sig, size_t sig_len) {
    if (pubkey_len != 33 && pubkey_len != 65) return false;  // CPubKey::IsValid
    secp256k1_pubkey pk;
    if (!secp256k1_ec_pubkey_parse(secp256k1_context_static, &pk, pubkey, pubkey_len)) return false;
    secp256k1_ecdsa_signature parsed;
    if (!EcdsaSignatureParseDerLax(sig, sig_len, &parsed)) return false;
    // libsecp256k1 verifies low-S only; Core normalizes first because high S was never banned
    // by consensus.
    secp256k1_ecdsa_signature_normalize(secp256k1_context_static, &parsed, &parsed);
    return secp256k1_ecdsa_verify(secp256k1_context_static, &parsed, msg32, &pk) == 1;
}

/** BIP340 "Verification": lift_x of the key (secp256k1_xonly_pubkey_parse fails for x >= p or
 *  x not on the curve), then the verification equation over the 32-byte message. */
bool VerifySchnorr(const uint8_t* msg32, const uint8_t* pubkey32, const uint8_t* sig64) {
    secp256k1_xonly_pubkey pk;
    if (!secp256k1_xonly_pubkey_parse(secp256k1_context_static, &pk, pubkey32)) return false;
    return secp256k1_schnorrsig_verify(secp256k1_context_static, sig64, msg32, 32, &pk) == 1;
}

}  // namespace

BatchStatus VerifyBatch(const uint8_t* checks, size_t checks_len, uint32_t count, uint8_t* verdicts) {
    BatchStatus status;
    if (count > 0) std::memset(verdicts, static_cast<uint8_t>(Verdict::kInvalid), count);
    if (checks == nullptr) checks_len = 0;

    size_t offset = 0;
    for (uint32_t i = 0; i < count; ++i) {
        auto fail = [&](int error) {
            status.error = error;
            status.error_offset = offset;
            status.error_record = i;
            return status;
        };
        // Every comparison is written as "needed > remaining" so that nothing can overflow.
        const size_t remaining = checks_len - offset;
        if (remaining < kCheckHeaderSize) return fail(1);  // header does not fit

        const uint8_t* rec = checks + offset;
        const uint8_t type = rec[0];
        const size_t pubkey_len = rec[1];
        const size_t sig_len = static_cast<size_t>(rec[2]) | (static_cast<size_t>(rec[3]) << 8);
        const uint8_t* msg32 = rec + 4;
        const uint8_t* pubkey = rec + kCheckHeaderSize;
        const uint8_t* sig = pubkey + pubkey_len;

        if (type == static_cast<uint8_t>(CheckType::kEcdsa)) {
            if (sig_len > kMaxEcdsaSigLen) return fail(3);
        } else if (type == static_cast<uint8_t>(CheckType::kSchnorr)) {
            if (pubkey_len != kSchnorrPubkeyLen || sig_len != kSchnorrSigLen) return fail(3);
        } else {
            return fail(2);
        }
        const size_t body = pubkey_len + sig_len;  // <= 255 + 520
        if (body > remaining - kCheckHeaderSize) return fail(1);  // body does not fit

        const bool ok = type == static_cast<uint8_t>(CheckType::kEcdsa)
                            ? VerifyEcdsa(msg32, pubkey, pubkey_len, sig, sig_len)
                            : VerifySchnorr(msg32, pubkey, sig);
        verdicts[i] = static_cast<uint8_t>(ok ? Verdict::kValid : Verdict::kInvalid);
        offset += kCheckHeaderSize + body;
    }
    return status;
}

}  // namespace ibd
