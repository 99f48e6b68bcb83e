// Wycheproof ECDSA secp256k1 SHA-256 "bitcoin" variant (bitcoin-core/secp256k1 src/wycheproof/)
// through VerifyBatch, which verifies as Core's CPubKey::Verify does. All 463 tests are
// accounted for: 424 same verdict, 2 high S, 34 lax DER, 3 too long for a check record.
//
// Core and this Wycheproof variant disagree on purpose in two ways, and the test accounts for
// each disagreement instead of hiding it:
//  - High S. The "bitcoin" variant marks high-S signatures invalid (BIP62/BIP146 low-S policy).
//    Consensus never required low S: CPubKey::Verify normalizes first, so they verify.
//  - BER encodings. Wycheproof marks non-DER encodings invalid. CPubKey::Verify parses with
//    ecdsa_signature_parse_der_lax, because the chain before BIP66 holds such signatures; strict
//    DER is a script-level rule (SCRIPT_VERIFY_DERSIG, IsValidSignatureEncoding), not part of the
//    signature check. A lax-parsed signature with the right (r, s) verifies.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <secp256k1.h>

#include "crypto/sha256.h"
#include "secp256k1/ecdsa_key_tables.h"
#include "support/check_records.h"
#include "support/test_support.h"
#include "verify/batch_verify.h"
#include "verify/ecdsa_lax_der.h"

namespace ibd {
namespace {

using test::Unhex;
using Bytes = std::vector<uint8_t>;

struct WycheproofCase {
    int tc_id;
    Bytes pubkey;  // 65-byte uncompressed key of the test's group
    Bytes msg32;   // SHA-256 of the test's msg
    Bytes sig;     // DER (or not) signature, no hash_type byte
    bool valid;    // result == "valid"
    std::string comment;
    std::vector<std::string> flags;
};

std::vector<WycheproofCase> LoadCases() {
    const auto doc = nlohmann::json::parse(
        ReadFile(FixturesDir() + "/vectors/secp256k1-wycheproof/ecdsa_secp256k1_sha256_bitcoin_test.json"));
    std::vector<WycheproofCase> out;
    for (const auto& group : doc.at("testGroups")) {
        const Bytes pubkey = Unhex(group.at("publicKey").at("uncompressed").get<std::string>());
        for (const auto& t : group.at("tests")) {
            const Bytes msg = Unhex(t.at("msg").get<std::string>());
            const Hash32 digest = Sha256Hash(msg.data(), msg.size());
            const std::string result = t.at("result").get<std::string>();
            if (result != "valid" && result != "invalid") throw std::runtime_error("unexpected result " + result);
            out.push_back({t.at("tcId").get<int>(), pubkey, Bytes(digest.begin(), digest.end()),
                           Unhex(t.at("sig").get<std::string>()), result == "valid", t.at("comment").get<std::string>(),
                           t.at("flags").get<std::vector<std::string>>()});
        }
    }
    return out;
}

/** Compact r||s of a signature. */
Bytes Compact(const secp256k1_ecdsa_signature& sig) {
    Bytes out(64);
    secp256k1_ecdsa_signature_serialize_compact(secp256k1_context_static, out.data(), &sig);
    return out;
}

/** (r, s) of the strict-DER signatures Wycheproof marks valid, per (key, message). */
std::set<std::pair<Bytes, Bytes>> ValidSignaturesByKeyAndMessage(const std::vector<WycheproofCase>& cases) {
    std::set<std::pair<Bytes, Bytes>> out;
    for (const auto& c : cases) {
        secp256k1_ecdsa_signature sig;
        if (c.valid && secp256k1_ecdsa_signature_parse_der(secp256k1_context_static, &sig, c.sig.data(), c.sig.size())) {
            Bytes key = c.pubkey;
            key.insert(key.end(), c.msg32.begin(), c.msg32.end());
            out.insert({key, Compact(sig)});
        }
    }
    return out;
}

// All 460 tests whose signature fits a check record (<= 520 bytes) in one batch. Our verdict
// equals Wycheproof's for 424 of them; the other 36 are Core accepting what the "bitcoin"
// variant rejects, each explained and counted.
TEST(Wycheproof, EcdsaBitcoinVariantThroughVerifyBatch) {
    const auto cases = LoadCases();
    ASSERT_EQ(cases.size(), 463u);
    const auto valid_rs = ValidSignaturesByKeyAndMessage(cases);

    Bytes buf;
    std::vector<const WycheproofCase*> batch;
    for (const auto& c : cases) {
        if (c.sig.size() > kMaxEcdsaSigLen) continue;  // see OversizedSignatures
        test::AppendEcdsa(buf, c.msg32, c.pubkey, c.sig);
        batch.push_back(&c);
    }
    ASSERT_EQ(batch.size(), 460u);
    std::vector<uint8_t> verdicts(batch.size(), 0xAA);
    const BatchStatus st = VerifyBatch(buf.data(), buf.size(), static_cast<uint32_t>(batch.size()), verdicts.data());
    ASSERT_EQ(st.error, 0);

    int agree = 0, wycheproof_valid = 0;
    std::set<int> high_s, lax_der;
    for (size_t i = 0; i < batch.size(); ++i) {
        const auto& c = *batch[i];
        wycheproof_valid += c.valid;
        const bool ours = verdicts[i] == static_cast<uint8_t>(Verdict::kValid);
        if (ours == c.valid) {
            ++agree;
            continue;
        }
        // Every disagreement is Core accepting what Wycheproof rejects; never the reverse.
        ASSERT_TRUE(ours && !c.valid) << "tcId " << c.tc_id << " (" << c.comment << ") valid for Wycheproof, not for us";

        secp256k1_pubkey pk;
        ASSERT_TRUE(secp256k1_ec_pubkey_parse(secp256k1_context_static, &pk, c.pubkey.data(), c.pubkey.size()));
        secp256k1_ecdsa_signature lax, strict;
        ASSERT_TRUE(EcdsaSignatureParseDerLax(c.sig.data(), c.sig.size(), &lax));
        const bool strict_der =
            secp256k1_ecdsa_signature_parse_der(secp256k1_context_static, &strict, c.sig.data(), c.sig.size()) &&
            Compact(strict) == Compact(lax);
        if (strict_der) {
            // High S: strict DER, rejected by secp256k1_ecdsa_verify as is (libsecp256k1 requires
            // low S), valid once normalized to (r, n - s), which is what Core does.
            EXPECT_EQ(secp256k1_ecdsa_verify(secp256k1_context_static, &lax, c.msg32.data(), &pk), 0) << "tcId " << c.tc_id;
            secp256k1_ecdsa_signature low;
            EXPECT_EQ(secp256k1_ecdsa_signature_normalize(secp256k1_context_static, &low, &lax), 1)
                << "tcId " << c.tc_id << " is not high-S";
            EXPECT_EQ(secp256k1_ecdsa_verify(secp256k1_context_static, &low, c.msg32.data(), &pk), 1) << "tcId " << c.tc_id;
            high_s.insert(c.tc_id);
        } else {
            // Not strict DER, but the lax parse reads the very (r, s) of a signature Wycheproof
            // itself marks valid for this key and message: a re-encoding, not a forgery.
            Bytes key = c.pubkey;
            key.insert(key.end(), c.msg32.begin(), c.msg32.end());
            EXPECT_EQ(valid_rs.count({key, Compact(lax)}), 1u)
                << "tcId " << c.tc_id << " (" << c.comment << ") is not a re-encoding of a valid signature";
            lax_der.insert(c.tc_id);
        }
    }
    EXPECT_EQ(wycheproof_valid, 162);
    EXPECT_EQ(agree, 424);
    // tcId 1 "Signature malleability" and 388 "edge case for signature malleability" (s = n/2 + 1).
    EXPECT_EQ(high_s, (std::set<int>{1, 388}));
    // Long-form, zero-padded, wrong or indefinite lengths, unsigned "negative" R, and anything
    // appended after S: all tolerated by ecdsa_signature_parse_der_lax.
    EXPECT_EQ(lax_der, (std::set<int>{3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 18, 20, 21, 43, 44, 45, 46, 47,
                                      48, 50, 51, 52, 53, 54, 57, 62, 63, 79, 100, 109, 110, 123}));
    EXPECT_EQ(agree + high_s.size() + lax_der.size(), batch.size());
}

// tcIds 42, 101 and 144 carry 4,170-4,172-byte signatures. Bitcoin cannot push them (520-byte
// MAX_SCRIPT_ELEMENT_SIZE) and a check record cannot hold them: VerifyBatch reports a bad length.
// For the record, Core's lax parser alone would read 42 as tcId 2's (r, s) (garbage after S) and
// 101 / 144 as (0, 0) (R or S longer than 32 bytes).
TEST(Wycheproof, OversizedSignatures) {
    const auto cases = LoadCases();
    std::set<int> oversized;
    Bytes tc2_rs;
    for (const auto& c : cases) {
        if (c.tc_id == 2) {
            secp256k1_ecdsa_signature sig;
            ASSERT_TRUE(secp256k1_ecdsa_signature_parse_der(secp256k1_context_static, &sig, c.sig.data(), c.sig.size()));
            tc2_rs = Compact(sig);
        }
    }
    for (const auto& c : cases) {
        if (c.sig.size() <= kMaxEcdsaSigLen) continue;
        oversized.insert(c.tc_id);
        EXPECT_FALSE(c.valid);
        Bytes buf;
        test::AppendRecord(buf, static_cast<uint8_t>(CheckType::kEcdsa), c.msg32, c.pubkey, {});
        buf[2] = static_cast<uint8_t>(c.sig.size() & 0xff);
        buf[3] = static_cast<uint8_t>(c.sig.size() >> 8);
        buf.insert(buf.end(), c.sig.begin(), c.sig.end());
        uint8_t verdict = 0xAA;
        const BatchStatus st = VerifyBatch(buf.data(), buf.size(), 1, &verdict);
        EXPECT_EQ(st.error, 3) << "tcId " << c.tc_id;
        EXPECT_EQ(st.error_record, 0u);
        EXPECT_EQ(verdict, static_cast<uint8_t>(Verdict::kInvalid));

        secp256k1_ecdsa_signature lax;
        ASSERT_TRUE(EcdsaSignatureParseDerLax(c.sig.data(), c.sig.size(), &lax)) << "tcId " << c.tc_id;
        EXPECT_EQ(Compact(lax), c.tc_id == 42 ? tc2_rs : Bytes(64, 0)) << "tcId " << c.tc_id;
    }
    EXPECT_EQ(oversized, (std::set<int>{42, 101, 144}));
}

// Every test whose key and signature parse, lax-DER parsed and low-S normalized as Core does,
// verified with the key's precomputed tables (native/secp256k1/ecdsa_key_tables.h, which
// VerifyBatch uses from a key's second signature on) and by secp256k1_ecdsa_verify: the same
// verdict. Among them: u1 or u2 at the scalars' edges, and r whose point's x is r + n.
TEST(Wycheproof, KeyTablesGiveTheLibrarysVerdict) {
    ASSERT_EQ(ibd_ecdsa_key_tables_init(), 1);
    int compared = 0, valid = 0;
    for (const auto& c : LoadCases()) {
        secp256k1_pubkey pk;
        secp256k1_ecdsa_signature sig;
        if (!secp256k1_ec_pubkey_parse(secp256k1_context_static, &pk, c.pubkey.data(), c.pubkey.size())) continue;
        if (!EcdsaSignatureParseDerLax(c.sig.data(), c.sig.size(), &sig)) continue;
        secp256k1_ecdsa_signature_normalize(secp256k1_context_static, &sig, &sig);
        ibd_ecdsa_key_tables tables;
        ASSERT_EQ(ibd_ecdsa_key_tables_build(&tables, &pk), 1);
        const int library = secp256k1_ecdsa_verify(secp256k1_context_static, &sig, c.msg32.data(), &pk);
        EXPECT_EQ(ibd_ecdsa_verify_key_tables(&sig, c.msg32.data(), &tables), library) << "tcId " << c.tc_id << " (" << c.comment << ")";
        ++compared;
        valid += library;
    }
    EXPECT_EQ(compared, 311);
    EXPECT_EQ(valid, 199);
}

}  // namespace
}  // namespace ibd
