// BIP340 batch verification (native/secp256k1/schnorrsig_batch.h) and the Schnorr batches of
// VerifyBatch, on the real Schnorr checks of fixture blocks 757,739 and 866,342: a batch of valid
// signatures passes, one bad signature anywhere fails the batch, and VerifyBatch's fallback
// gives every record the verdict single verification gives it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <secp256k1.h>
#include <secp256k1_extrakeys.h>
#include <secp256k1_schnorrsig.h>

#include "secp256k1/schnorrsig_batch.h"
#include "support/check_records.h"
#include "support/test_support.h"
#include "verify/batch_verify.h"

namespace ibd {
namespace {

/** One Schnorr check: the record's bytes (check_buffer.h). */
struct SchnorrCheck {
    std::vector<uint8_t> msg32, pubkey32, sig64;
};

/** The final Schnorr checks of fixture blocks 757,739 and 866,342, in block order (each one
 *  valid: both blocks are valid mainnet blocks). */
const std::vector<SchnorrCheck>& FixtureSchnorrChecks() {
    static const std::vector<SchnorrCheck> checks = [] {
        std::vector<SchnorrCheck> out;
        for (int32_t height : {757739, 866342}) {
            const test::FixtureBlock f = test::LoadFixtureBlock(height);
            const BlockValidationResult r = ValidateBlock(f.raw.data(), f.raw.size(), f.spent, f.hash, f.height);
            test::ForEachRecord(r.checks, r.verdicts.size(), [&](const test::RecordView& v, size_t) {
                if (v.type != static_cast<uint8_t>(CheckType::kSchnorr)) return;
                out.push_back({{v.msg32, v.msg32 + 32}, {v.pubkey, v.pubkey + 32}, {v.sig, v.sig + 64}});
            });
        }
        return out;
    }();
    return checks;
}

bool VerifyAlone(const SchnorrCheck& c) {
    secp256k1_xonly_pubkey pk;
    return secp256k1_xonly_pubkey_parse(secp256k1_context_static, &pk, c.pubkey32.data()) == 1 &&
           secp256k1_schnorrsig_verify(secp256k1_context_static, c.sig64.data(), c.msg32.data(), 32, &pk) == 1;
}

/** ibd_schnorrsig_verify_batch over `checks` with a scratch space of `scratch_bytes` (default:
 *  what the batch needs). */
int Batch(const std::vector<SchnorrCheck>& checks, size_t scratch_bytes = 0) {
    std::vector<const unsigned char*> sig, msg, pk;
    for (const SchnorrCheck& c : checks) {
        sig.push_back(c.sig64.data());
        msg.push_back(c.msg32.data());
        pk.push_back(c.pubkey32.data());
    }
    if (scratch_bytes == 0) scratch_bytes = ibd_schnorrsig_batch_scratch_size(checks.size());
    secp256k1_scratch_space* scratch = secp256k1_scratch_space_create(secp256k1_context_static, scratch_bytes);
    const int ok = ibd_schnorrsig_verify_batch(secp256k1_context_static, scratch, sig.data(), msg.data(), pk.data(),
                                               checks.size());
    secp256k1_scratch_space_destroy(secp256k1_context_static, scratch);
    return ok;
}

std::vector<SchnorrCheck> First(size_t n) {
    const auto& all = FixtureSchnorrChecks();
    std::vector<SchnorrCheck> out;
    for (size_t i = 0; i < n; ++i) out.push_back(all[i % all.size()]);
    return out;
}

TEST(SchnorrBatch, FixtureBlocksHoldEnoughSchnorrChecks) {
    const auto& all = FixtureSchnorrChecks();
    EXPECT_GT(all.size(), 1000u);
    for (size_t i = 0; i < all.size(); i += 97) EXPECT_TRUE(VerifyAlone(all[i])) << "check " << i;
}

TEST(SchnorrBatch, ValidBatchesOfEverySizePass) {
    for (size_t n : {1u, 2u, 3u, 16u, 87u, 88u, 300u, 1024u}) EXPECT_EQ(Batch(First(n)), 1) << n << " signatures";
    EXPECT_EQ(Batch(FixtureSchnorrChecks()), 1) << "every fixture Schnorr check";
}

TEST(SchnorrBatch, OneBadSignatureFailsTheBatchWherever) {
    const std::vector<SchnorrCheck> good = First(200);
    for (size_t at : {0u, 1u, 99u, 199u}) {
        struct Tamper { const char* what; void (*apply)(SchnorrCheck&); };
        const Tamper tampers[] = {
            {"s + 1", [](SchnorrCheck& c) { c.sig64[63] ^= 1; }},
            {"r bit", [](SchnorrCheck& c) { c.sig64[5] ^= 0x10; }},
            {"message bit", [](SchnorrCheck& c) { c.msg32[0] ^= 0x80; }},
            {"key bit", [](SchnorrCheck& c) { c.pubkey32[31] ^= 2; }},
            {"s >= n", [](SchnorrCheck& c) { std::fill(c.sig64.begin() + 32, c.sig64.end(), 0xFF); }},
            {"r >= p", [](SchnorrCheck& c) { std::fill(c.sig64.begin(), c.sig64.begin() + 32, 0xFF); }},
            {"key >= p", [](SchnorrCheck& c) { std::fill(c.pubkey32.begin(), c.pubkey32.end(), 0xFF); }},
        };
        for (const Tamper& t : tampers) {
            std::vector<SchnorrCheck> batch = good;
            t.apply(batch[at]);
            EXPECT_FALSE(VerifyAlone(batch[at])) << t.what;
            EXPECT_EQ(Batch(batch), 0) << t.what << " at " << at;
        }
    }
}

TEST(SchnorrBatch, TwoSignaturesSwappedBetweenMessagesFail) {
    std::vector<SchnorrCheck> batch = First(10);
    std::swap(batch[3].sig64, batch[4].sig64);
    EXPECT_EQ(Batch(batch), 0);
}

TEST(SchnorrBatch, EdgeArguments) {
    EXPECT_EQ(ibd_schnorrsig_verify_batch(secp256k1_context_static, nullptr, nullptr, nullptr, nullptr, 0), 0);
    // A scratch space too small for the per-signature arrays: 0, and no abort.
    EXPECT_EQ(Batch(First(50), 256), 0);
    // Room for the arrays but not for one multiplication over all points: several smaller
    // multiplications (or the simple algorithm), the same verdict.
    EXPECT_EQ(Batch(First(50), ibd_schnorrsig_batch_scratch_size(50) / 3), 1);
}

// VerifyBatch: every record gets single verification's verdict, through batches that pass, fail
// and cross the batch limit, with ECDSA records between.
TEST(SchnorrBatch, VerifyBatchGivesEveryRecordItsOwnVerdict) {
    const auto& all = FixtureSchnorrChecks();
    std::vector<SchnorrCheck> checks(all.begin(), all.end());
    while (checks.size() < 2500) checks.push_back(all[checks.size() % all.size()]);
    std::vector<bool> expected(checks.size(), true);
    for (size_t at : {7u, 1023u, 1024u, 2100u, 2499u}) {
        checks[at].sig64[40] ^= 4;
        expected[at] = false;
    }
    std::vector<uint8_t> buf;
    for (const SchnorrCheck& c : checks) test::AppendSchnorr(buf, c.msg32, c.pubkey32, c.sig64);
    std::vector<uint8_t> verdicts(checks.size(), 0xAA);
    ASSERT_EQ(VerifyBatch(buf.data(), buf.size(), static_cast<uint32_t>(checks.size()), verdicts.data()).error, 0);
    for (size_t i = 0; i < checks.size(); ++i) {
        ASSERT_EQ(verdicts[i], expected[i] ? 1 : 0) << "record " << i;
    }
}

// A malformed record after queued Schnorr records: those before it keep their verdicts.
TEST(SchnorrBatch, MalformedRecordKeepsTheQueuedVerdicts) {
    std::vector<SchnorrCheck> checks = First(20);
    checks[5].msg32[3] ^= 1;
    std::vector<uint8_t> buf;
    for (const SchnorrCheck& c : checks) test::AppendSchnorr(buf, c.msg32, c.pubkey32, c.sig64);
    const size_t bad_offset = buf.size();
    test::AppendRecord(buf, 9, checks[0].msg32, checks[0].pubkey32, checks[0].sig64);  // unknown type
    std::vector<uint8_t> verdicts(21, 0xAA);
    const BatchStatus st = VerifyBatch(buf.data(), buf.size(), 21, verdicts.data());
    EXPECT_EQ(st.error, 2);
    EXPECT_EQ(st.error_record, 20u);
    EXPECT_EQ(st.error_offset, bad_offset);
    for (size_t i = 0; i < 20; ++i) EXPECT_EQ(verdicts[i], i == 5 ? 0 : 1) << "record " << i;
    EXPECT_EQ(verdicts[20], 0);
}

}  // namespace
}  // namespace ibd
