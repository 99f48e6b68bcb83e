// The drop-in's single verifications (verify/single_verify.h): BIP340's reference vectors one by
// one, and ECDSA over compact signatures with tiny-secp256k1's strict and non-strict S, against
// libsecp256k1 signing here (the key pair is the test's own; no figure rests on it).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include <secp256k1.h>

#include "support/check_records.h"
#include "support/test_support.h"
#include "verify/single_verify.h"

namespace ibd {
namespace {

using test::Unhex;

TEST(SingleVerify, Bip340VectorsWithThirtyTwoByteMessages) {
    std::istringstream csv(ReadFile(FixturesDir() + "/vectors/bips/bip-0340-test-vectors.csv"));
    std::string line;
    std::getline(csv, line);
    int checked = 0;
    while (std::getline(csv, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::vector<std::string> f;
        std::istringstream fields(line);
        for (std::string cell; std::getline(fields, cell, ',');) f.push_back(cell);
        if (f.size() < 7) continue;
        const auto pubkey = Unhex(f[2]);
        const auto msg = Unhex(f[4]);
        const auto sig = Unhex(f[5]);
        if (msg.size() != 32) continue;
        const SingleVerdict got = VerifySchnorrSingle(msg.data(), pubkey.data(), sig.data());
        // Vector 5's key is not on the curve and vector 14's x passes p: the key fails, as in
        // tiny-secp256k1 ("Expected Point"); the others verify as the file says.
        const SingleVerdict want = f[0] == "5" || f[0] == "14" ? SingleVerdict::kBadPoint
                                   : f[6] == "TRUE"            ? SingleVerdict::kValid
                                                               : SingleVerdict::kInvalid;
        EXPECT_EQ(got, want) << "vector " << f[0];
        EXPECT_EQ(IsValidXOnlyPubKey(pubkey.data()), want != SingleVerdict::kBadPoint) << "vector " << f[0];
        ++checked;
    }
    EXPECT_EQ(checked, 15);
}

TEST(SingleVerify, EcdsaCompactHighSOnlyWhenNotStrict) {
    secp256k1_context* ctx = secp256k1_context_create(SECP256K1_CONTEXT_NONE);
    uint8_t seckey[32] = {};
    seckey[31] = 7;
    uint8_t msg[32];
    for (int i = 0; i < 32; ++i) msg[i] = static_cast<uint8_t>(i * 3 + 1);
    secp256k1_pubkey pk;
    ASSERT_TRUE(secp256k1_ec_pubkey_create(ctx, &pk, seckey));
    uint8_t pub33[33];
    size_t len = sizeof pub33;
    ASSERT_TRUE(secp256k1_ec_pubkey_serialize(ctx, pub33, &len, &pk, SECP256K1_EC_COMPRESSED));
    secp256k1_ecdsa_signature sig;
    ASSERT_TRUE(secp256k1_ecdsa_sign(ctx, &sig, msg, seckey, nullptr, nullptr));
    uint8_t low[64];
    secp256k1_ecdsa_signature_serialize_compact(ctx, low, &sig);
    // n - s, big-endian subtraction.
    const auto n = Unhex("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141");
    uint8_t high[64];
    std::copy(low, low + 32, high);
    int borrow = 0;
    for (int i = 31; i >= 0; --i) {
        int d = n[i] - low[32 + i] - borrow;
        borrow = d < 0;
        high[32 + i] = static_cast<uint8_t>(d + (borrow ? 256 : 0));
    }
    EXPECT_EQ(VerifyEcdsaCompact(msg, pub33, 33, low, false), SingleVerdict::kValid);
    EXPECT_EQ(VerifyEcdsaCompact(msg, pub33, 33, low, true), SingleVerdict::kValid);
    EXPECT_EQ(VerifyEcdsaCompact(msg, pub33, 33, high, false), SingleVerdict::kValid);
    EXPECT_EQ(VerifyEcdsaCompact(msg, pub33, 33, high, true), SingleVerdict::kInvalid);
    msg[0] ^= 1;
    EXPECT_EQ(VerifyEcdsaCompact(msg, pub33, 33, low, false), SingleVerdict::kInvalid);
    uint8_t bad[33];
    std::copy(pub33, pub33 + 33, bad);
    bad[0] = 0x05;
    EXPECT_EQ(VerifyEcdsaCompact(msg, bad, 33, low, false), SingleVerdict::kBadPoint);
    EXPECT_EQ(VerifyEcdsaCompact(msg, pub33, 32, low, false), SingleVerdict::kBadPoint);
    EXPECT_TRUE(IsValidPubKey(pub33, 33));
    EXPECT_FALSE(IsValidPubKey(bad, 33));
    secp256k1_context_destroy(ctx);
}

}  // namespace
}  // namespace ibd
