// BIP341 commitments (taproot.h) against the "scriptPubKey" section of the BIP341 wallet test
// vectors (vectors/bitcoin-core/bip341_wallet_vectors.json): leaf hashes, Merkle root, TapTweak,
// tweaked output key, and every script-path control block checked with VerifyTaprootCommitment.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "primitives/hex.h"
#include "script/taproot.h"
#include "support/test_support.h"

namespace ibd {
namespace {

using nlohmann::json;

std::string Hex(const Hash32& h) { return HexEncode(h.data(), h.size()); }

/** Hash of a scriptTree node (a leaf object or a pair of subtrees); records leaf hashes by id. */
Hash32 TreeHash(const json& node, std::map<int, Hash32>& leaves, std::map<int, std::vector<uint8_t>>& scripts) {
    if (node.is_array()) {
        EXPECT_EQ(node.size(), 2u);
        return ComputeTapbranchHash(TreeHash(node[0], leaves, scripts), TreeHash(node[1], leaves, scripts));
    }
    const std::vector<uint8_t> script = HexDecode(node["script"].get<std::string>());
    const Hash32 h = ComputeTapleafHash(uint8_t(node["leafVersion"].get<int>()), script.data(), script.size());
    leaves[node["id"].get<int>()] = h;
    scripts[node["id"].get<int>()] = script;
    return h;
}

TEST(Taproot, ControlBlockSizes) {
    EXPECT_FALSE(IsValidControlBlockSize(0));
    EXPECT_FALSE(IsValidControlBlockSize(32));
    EXPECT_TRUE(IsValidControlBlockSize(33));
    EXPECT_FALSE(IsValidControlBlockSize(34));
    EXPECT_FALSE(IsValidControlBlockSize(64));
    EXPECT_TRUE(IsValidControlBlockSize(65));
    EXPECT_TRUE(IsValidControlBlockSize(33 + 32 * 128));
    EXPECT_FALSE(IsValidControlBlockSize(33 + 32 * 129));
}

TEST(Taproot, BranchHashIsOrderIndependent) {
    Hash32 a{}, b{};
    a[0] = 1;
    b[0] = 2;
    EXPECT_EQ(Hex(ComputeTapbranchHash(a, b)), Hex(ComputeTapbranchHash(b, a)));
}

TEST(Taproot, WalletVectorsScriptPubKey) {
    const json doc = test::ReadJsonFile(test::FixturePath("vectors/bitcoin-core/bip341_wallet_vectors.json"));
    const json& cases = doc["scriptPubKey"];
    ASSERT_GE(cases.size(), 7u);
    size_t control_blocks = 0;
    for (size_t c = 0; c < cases.size(); ++c) {
        SCOPED_TRACE("scriptPubKey case " + std::to_string(c));
        const json& v = cases[c];
        const std::vector<uint8_t> internal = HexDecode(v["given"]["internalPubkey"].get<std::string>());
        ASSERT_EQ(internal.size(), 32u);
        const json& inter = v["intermediary"];

        std::map<int, Hash32> leaves;
        std::map<int, std::vector<uint8_t>> scripts;
        Hash32 root{};
        const bool has_tree = !v["given"]["scriptTree"].is_null();
        if (has_tree) {
            root = TreeHash(v["given"]["scriptTree"], leaves, scripts);
            const json& want_leaves = inter["leafHashes"];
            ASSERT_EQ(want_leaves.size(), leaves.size());
            for (size_t i = 0; i < want_leaves.size(); ++i) {
                EXPECT_EQ(Hex(leaves.at(int(i))), want_leaves[i].get<std::string>()) << "leaf " << i;
            }
            EXPECT_EQ(Hex(root), inter["merkleRoot"].get<std::string>());
        } else {
            EXPECT_TRUE(inter["merkleRoot"].is_null());
        }

        const Hash32 tweak = ComputeTapTweakHash(internal.data(), has_tree ? &root : nullptr);
        EXPECT_EQ(Hex(tweak), inter["tweak"].get<std::string>());

        uint8_t q[32];
        int parity = -1;
        ASSERT_TRUE(ComputeTweakedKey(internal.data(), has_tree ? &root : nullptr, q, &parity));
        const std::string want_q = inter["tweakedPubkey"].get<std::string>();
        EXPECT_EQ(HexEncode(q, 32), want_q);
        EXPECT_EQ(v["expected"]["scriptPubKey"].get<std::string>(), "5120" + want_q);

        if (!v["expected"].contains("scriptPathControlBlocks")) continue;
        const json& cbs = v["expected"]["scriptPathControlBlocks"];
        ASSERT_EQ(cbs.size(), leaves.size());
        for (size_t i = 0; i < cbs.size(); ++i) {
            SCOPED_TRACE("leaf " + std::to_string(i));
            std::vector<uint8_t> cb = HexDecode(cbs[i].get<std::string>());
            ASSERT_TRUE(IsValidControlBlockSize(cb.size()));
            EXPECT_EQ(cb[0] & 1, parity);
            EXPECT_EQ(Hex(ComputeTaprootMerkleRoot(cb.data(), cb.size(), leaves.at(int(i)))), Hex(root));
            EXPECT_TRUE(VerifyTaprootCommitment(cb.data(), cb.size(), q, leaves.at(int(i))));
            // Wrong parity bit, or a different leaf, breaks the commitment.
            cb[0] ^= 1;
            EXPECT_FALSE(VerifyTaprootCommitment(cb.data(), cb.size(), q, leaves.at(int(i))));
            cb[0] ^= 1;
            Hash32 other = leaves.at(int(i));
            other[31] ^= 1;
            EXPECT_FALSE(VerifyTaprootCommitment(cb.data(), cb.size(), q, other));
            ++control_blocks;
        }
    }
    EXPECT_GT(control_blocks, 5u);
}

}  // namespace
}  // namespace ibd
