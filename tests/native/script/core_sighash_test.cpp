// Bitcoin Core's legacy sighash vectors (vectors/bitcoin-core/sighash.json, from Core's
// src/test/data): [raw tx hex, scriptCode hex, input index, hashType (signed int), expected
// sighash (display hex)], each checked as Core's sighash_tests.cpp does: SignatureHash with
// SigVersion::BASE (the scriptCode as given: OP_CODESEPARATORs removed by the serializer, no
// FindAndDelete).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "crypto/sha256.h"
#include "primitives/hex.h"
#include "primitives/transaction.h"
#include "script/sighash.h"
#include "support/test_support.h"

namespace ibd {
namespace {

TEST(CoreSighashJson, EveryLegacyCaseMatches) {
    const nlohmann::json cases = test::ReadJsonFile(test::FixturePath("vectors/bitcoin-core/sighash.json"));
    ASSERT_TRUE(cases.is_array());
    size_t checked = 0, single = 0, none = 0, anyone_can_pay = 0, with_codeseparator = 0;
    for (size_t k = 0; k < cases.size(); ++k) {
        const nlohmann::json& c = cases[k];
        if (c.size() == 1) continue;  // the header comment
        ASSERT_EQ(c.size(), 5u) << "case " << k;
        const std::vector<uint8_t> raw = HexDecode(c[0].get<std::string>());
        const std::vector<uint8_t> script = HexDecode(c[1].get<std::string>());
        const size_t n_in = c[2].get<size_t>();
        const int32_t hash_type = c[3].get<int32_t>();
        const Transaction tx = ParseTransaction(raw.data(), raw.size());
        const Hash32 got = SignatureHashLegacy(script, tx, n_in, hash_type);
        EXPECT_EQ(HexEncodeReversed(got), c[4].get<std::string>()) << "case " << k << ": " << c.dump();
        ++checked;
        if ((hash_type & 0x1f) == 3) ++single;
        if ((hash_type & 0x1f) == 2) ++none;
        if (hash_type & 0x80) ++anyone_can_pay;
        for (uint8_t b : script) with_codeseparator += (b == 0xab);
    }
    // The file has 500 cases; make sure they were all run and cover the special paths.
    EXPECT_EQ(checked, 500u);
    EXPECT_GT(single, 0u);
    EXPECT_GT(none, 0u);
    EXPECT_GT(anyone_can_pay, 0u);
    EXPECT_GT(with_codeseparator, 0u);
}

/** One case of Core's sighash.json: its index in the file, the scriptCode, the parsed
 *  transaction, the vector's hash_type, and the case itself (input index, expected sighash). */
struct SighashCase {
    size_t k;
    std::vector<uint8_t> script;
    Transaction tx;
    int32_t hash_type;
    const nlohmann::json& json;
};

/** Calls `f` with every case of Core's sighash.json (the header comment skipped). */
template <typename F>
void ForEachSighashCase(F f) {
    const nlohmann::json cases = test::ReadJsonFile(test::FixturePath("vectors/bitcoin-core/sighash.json"));
    for (size_t k = 0; k < cases.size(); ++k) {
        const nlohmann::json& c = cases[k];
        if (c.size() == 1) continue;
        const std::vector<uint8_t> raw = HexDecode(c[0].get<std::string>());
        f(SighashCase{k, HexDecode(c[1].get<std::string>()), ParseTransaction(raw.data(), raw.size()), c[3].get<int32_t>(), c});
    }
}

// The same vectors through the per-transaction prefix cache (LegacySighashCache): every
// input of each vector's transaction under every hash type class (ALL, NONE, SINGLE, each with
// ANYONECANPAY, and the vector's own), asked in a scrambled order, byte-identical to the
// uncached computation; and the vectors' own answers through it.
TEST(CoreSighashJson, CachedPrefixesGiveTheSameSighashes) {
    size_t compared = 0;
    ForEachSighashCase([&](const SighashCase& c) {
        const size_t k = c.k;
        PrecomputedTxData pre;
        pre.Init(c.tx, {}, false, false);
        EXPECT_EQ(HexEncodeReversed(SignatureHashLegacy(c.script, c.tx, c.json[2].get<size_t>(), c.hash_type, pre)),
                  c.json[4].get<std::string>())
            << "case " << k;
        const size_t n = c.tx.vin.size();
        for (int32_t hash_type : {c.hash_type, 1, 2, 3, 0x81, 0x82, 0x83, 0}) {
            for (size_t step = 0; step < n; ++step) {
                const size_t i = (step * 7 + k) % n;  // scrambled (a permutation when gcd(7, n) = 1)
                ASSERT_EQ(SignatureHashLegacy(c.script, c.tx, i, hash_type, pre), SignatureHashLegacy(c.script, c.tx, i, hash_type))
                    << "case " << k << " input " << i << " hash_type " << hash_type;
                ++compared;
            }
        }
    });
    EXPECT_GT(compared, 4000u);
}

// The legacy message (LegacySighashMessage) hashes to the sighash, and the workload report's
// size of it (LegacySighashMessageSize, arithmetic) is its size: every input of each vector's
// transaction under every hash type class, 0 where Core hashes nothing.
TEST(CoreSighashJson, MessageAndItsSize) {
    size_t compared = 0, empty = 0;
    ForEachSighashCase([&](const SighashCase& sc) {
        const size_t k = sc.k;
        const std::vector<uint8_t>& script = sc.script;
        const Transaction& tx = sc.tx;
        PrecomputedTxData pre;
        pre.Init(tx, {}, false, false);
        for (int32_t hash_type : {sc.hash_type, 1, 2, 3, 0x81, 0x82, 0x83}) {
            for (size_t i = 0; i <= tx.vin.size(); ++i) {  // one past the end: uint256::ONE
                std::vector<uint8_t> msg;
                if (LegacySighashMessage(script, tx, i, hash_type, msg)) {
                    ASSERT_EQ(Sha256d(msg.data(), msg.size()), SignatureHashLegacy(script, tx, i, hash_type))
                        << "case " << k << " input " << i << " hash_type " << hash_type;
                } else {
                    ++empty;
                }
                ASSERT_EQ(LegacySighashMessageSize(script, tx, i, hash_type, pre), msg.size())
                    << "case " << k << " input " << i << " hash_type " << hash_type;
                // The bytes the cached path feeds SHA-256: the whole message the first time the
                // cache meets the transaction, never more than the message later.
                PrecomputedTxData fresh;
                fresh.Init(tx, {}, false, false);
                size_t first = 0, again = 0;
                if (i < tx.vin.size()) {
                    SignatureHashLegacy(script, tx, i, hash_type, fresh, &first);
                    SignatureHashLegacy(script, tx, i, hash_type, fresh, &again);
                }
                ASSERT_EQ(first, msg.size()) << "case " << k << " input " << i << " hash_type " << hash_type;
                ASSERT_LE(again, msg.size()) << "case " << k << " input " << i << " hash_type " << hash_type;
                ++compared;
            }
        }
    });
    EXPECT_GT(compared, 4000u);
    EXPECT_GT(empty, 500u);
}

// BIP143's message: 156 bytes and the scriptCode with its length.
TEST(WitnessV0Sighash, MessageSize) {
    EXPECT_EQ(WitnessV0SighashMessageSize(std::vector<uint8_t>(25, 0)), 182u);  // P2WPKH's scriptCode
    EXPECT_EQ(WitnessV0SighashMessageSize(std::vector<uint8_t>(300, 0)), 156u + 3u + 300u);
}

TEST(LegacySighash, SingleBugReturnsOne) {
    // One input, no outputs: SIGHASH_SINGLE signs uint256::ONE.
    const std::vector<uint8_t> raw = HexDecode(
        "01000000" "01" + std::string(64, '1') + "00000000" "00" "ffffffff" "00" "00000000");
    const Transaction tx = ParseTransaction(raw.data(), raw.size());
    const Hash32 h = SignatureHashLegacy({}, tx, 0, 3);
    EXPECT_EQ(HexEncodeReversed(h), std::string(63, '0') + "1");
    // Input index out of range: also ONE, never a crash.
    EXPECT_EQ(HexEncodeReversed(SignatureHashLegacy({}, tx, 5, 1)), std::string(63, '0') + "1");
    // SIGHASH_ALL of the same tx is a real hash.
    EXPECT_NE(HexEncodeReversed(SignatureHashLegacy({}, tx, 0, 1)), std::string(63, '0') + "1");
}

}  // namespace
}  // namespace ibd
