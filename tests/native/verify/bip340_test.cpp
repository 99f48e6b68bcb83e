// BIP340 reference vectors (bitcoin/bips bip-0340/test-vectors.csv) through VerifyBatch.
#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include <secp256k1.h>
#include <secp256k1_extrakeys.h>
#include <secp256k1_schnorrsig.h>

#include "support/check_records.h"
#include "support/test_support.h"
#include "verify/batch_verify.h"

namespace ibd {
namespace {

using test::Unhex;

struct Bip340Vector {
    int index;
    std::vector<uint8_t> pubkey;   // x-only, 32 bytes
    std::vector<uint8_t> message;  // 32 bytes for 0..14; 0, 1, 17 and 100 bytes for 15..18
    std::vector<uint8_t> sig;      // 64 bytes
    bool expected;                 // "verification result" column
    std::string comment;
};

/** CSV columns: index, secret key, public key, aux_rand, message, signature, verification
 *  result, comment. No field contains a comma or quote in this file. */
std::vector<Bip340Vector> LoadVectors() {
    std::istringstream csv(ReadFile(FixturesDir() + "/vectors/bips/bip-0340-test-vectors.csv"));
    std::string line;
    std::getline(csv, line);
    EXPECT_EQ(line.rfind("index,secret key,public key,aux_rand,message,signature,verification result", 0), 0u);
    std::vector<Bip340Vector> out;
    while (std::getline(csv, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        std::vector<std::string> f;
        std::istringstream fields(line);
        for (std::string cell; std::getline(fields, cell, ',');) f.push_back(cell);
        if (!line.empty() && line.back() == ',') f.emplace_back();
        if (f.size() != 8) throw std::runtime_error("bad CSV line: " + line);
        out.push_back({std::stoi(f[0]), Unhex(f[2]), Unhex(f[4]), Unhex(f[5]), f[6] == "TRUE", f[7]});
    }
    return out;
}

TEST(Bip340, VectorFileIsTheOneExpected) {
    const auto vectors = LoadVectors();
    ASSERT_EQ(vectors.size(), 19u);
    int valid = 0;
    for (size_t i = 0; i < vectors.size(); ++i) {
        EXPECT_EQ(vectors[i].index, static_cast<int>(i));
        EXPECT_EQ(vectors[i].pubkey.size(), 32u);
        EXPECT_EQ(vectors[i].sig.size(), 64u);
        valid += vectors[i].expected;
    }
    EXPECT_EQ(valid, 9);  // 0-4 and 15-18
}

// Vectors 0..14 (32-byte messages) as one batch of Schnorr records: every verdict must equal the
// file's verification result.
TEST(Bip340, AllFixedLengthVectorsThroughOneBatch) {
    const auto vectors = LoadVectors();
    std::vector<uint8_t> buf;
    std::vector<const Bip340Vector*> in_batch;
    for (const auto& v : vectors) {
        if (v.message.size() != 32) continue;
        test::AppendSchnorr(buf, v.message, v.pubkey, v.sig);
        in_batch.push_back(&v);
    }
    ASSERT_EQ(in_batch.size(), 15u);
    std::vector<uint8_t> verdicts(in_batch.size(), 0xAA);
    const BatchStatus st = VerifyBatch(buf.data(), buf.size(), static_cast<uint32_t>(in_batch.size()), verdicts.data());
    ASSERT_EQ(st.error, 0);
    for (size_t i = 0; i < in_batch.size(); ++i) {
        const auto& v = *in_batch[i];
        EXPECT_EQ(verdicts[i], static_cast<uint8_t>(v.expected ? Verdict::kValid : Verdict::kInvalid))
            << "BIP340 vector " << v.index << " (" << v.comment << ")";
    }
}

// The same vectors one record per call: a verdict does not depend on its neighbours.
TEST(Bip340, EachFixedLengthVectorAlone) {
    for (const auto& v : LoadVectors()) {
        if (v.message.size() != 32) continue;
        std::vector<uint8_t> buf;
        test::AppendSchnorr(buf, v.message, v.pubkey, v.sig);
        uint8_t verdict = 0xAA;
        ASSERT_EQ(VerifyBatch(buf.data(), buf.size(), 1, &verdict).error, 0);
        EXPECT_EQ(verdict, v.expected ? 1 : 0) << "BIP340 vector " << v.index << " (" << v.comment << ")";
    }
}

// Vectors 15..18 sign messages of 0, 1, 17 and 100 bytes, which a check record (msg32) cannot
// carry: Bitcoin only ever signs 32-byte sighashes. They are checked with the libsecp256k1 calls
// VerifyBatch makes, so the whole file is covered.
TEST(Bip340, VariableLengthMessagesDirect) {
    int checked = 0;
    for (const auto& v : LoadVectors()) {
        if (v.message.size() == 32) continue;
        secp256k1_xonly_pubkey pk;
        const bool ok = secp256k1_xonly_pubkey_parse(secp256k1_context_static, &pk, v.pubkey.data()) &&
                        secp256k1_schnorrsig_verify(secp256k1_context_static, v.sig.data(),
                                                    v.message.data(), v.message.size(), &pk);
        EXPECT_EQ(ok, v.expected) << "BIP340 vector " << v.index << " (" << v.comment << ")";
        ++checked;
    }
    EXPECT_EQ(checked, 4);
}

}  // namespace
}  // namespace ibd
