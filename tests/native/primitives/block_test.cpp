// Blocks: header and block hash, Core's ComputeMerkleRoot (odd duplication, CVE-2012-2459
// mutation), parsing every block of the fixture chain file and the blocks without prevouts,
// the BIP141 witness commitment, and located errors for truncated / altered blocks.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "primitives/block.h"
#include "primitives/hex.h"
#include "support/test_support.h"
#include "util/error.h"

namespace ibd {
namespace {

Hash32 Leaf(uint8_t b) {
    Hash32 h{};
    h.fill(b);
    return h;
}

Hash32 HashPair(const Hash32& a, const Hash32& b) {
    std::vector<uint8_t> buf(a.begin(), a.end());
    buf.insert(buf.end(), b.begin(), b.end());
    return Sha256d(buf.data(), buf.size());
}

/** The Error thrown by ParseBlock over the first `len` bytes of `data`. */
Error ParseError(const std::vector<uint8_t>& data, size_t len) {
    try {
        ParseBlock(data.data(), len);
    } catch (const Error& e) {
        return e;
    }
    ADD_FAILURE() << "no error at length " << len;
    return Error("none", Location{});
}

TEST(MerkleRoot, CoreComputeMerkleRoot) {
    bool mutated = true;
    EXPECT_EQ(ComputeMerkleRoot({}, &mutated), Hash32{});
    EXPECT_FALSE(mutated);
    EXPECT_EQ(ComputeMerkleRoot({Leaf(1)}, &mutated), Leaf(1));
    EXPECT_EQ(ComputeMerkleRoot({Leaf(1), Leaf(2)}), HashPair(Leaf(1), Leaf(2)));
    // Odd count: the last hash is paired with itself.
    const Hash32 three = ComputeMerkleRoot({Leaf(1), Leaf(2), Leaf(3)}, &mutated);
    EXPECT_EQ(three, HashPair(HashPair(Leaf(1), Leaf(2)), HashPair(Leaf(3), Leaf(3))));
    EXPECT_FALSE(mutated);
    // CVE-2012-2459: duplicating the last transaction gives the same root; flagged as mutated.
    EXPECT_EQ(ComputeMerkleRoot({Leaf(1), Leaf(2), Leaf(3), Leaf(3)}, &mutated), three);
    EXPECT_TRUE(mutated);
    // Five leaves: duplication happens on two levels.
    const Hash32 l1 = HashPair(Leaf(1), Leaf(2)), l2 = HashPair(Leaf(3), Leaf(4)), l3 = HashPair(Leaf(5), Leaf(5));
    EXPECT_EQ(ComputeMerkleRoot({Leaf(1), Leaf(2), Leaf(3), Leaf(4), Leaf(5)}, &mutated),
              HashPair(HashPair(l1, l2), HashPair(l3, l3)));
    EXPECT_FALSE(mutated);
}

TEST(Block, ChainFileBlocks1To255) {
    // btcd's framed file: magic f9beb4d9, 4-byte LE length, block; heights 1..255 in order.
    const std::vector<uint8_t> file = ReadFileBytes(FixturePath("mainnet-chain/btcd-blocks1-255.dat"));
    size_t pos = 0, height = 0;
    std::string prev = "000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f";  // genesis
    while (pos < file.size()) {
        ASSERT_LE(pos + 8, file.size());
        ASSERT_EQ(HexEncode(&file[pos], 4), "f9beb4d9");
        const size_t len = file[pos + 4] | (file[pos + 5] << 8) | (file[pos + 6] << 16) | (size_t(file[pos + 7]) << 24);
        ASSERT_LE(pos + 8 + len, file.size());
        const Block b = ParseBlock(&file[pos + 8], len);
        ++height;
        EXPECT_EQ(HexEncodeReversed(b.header.prev_block), prev) << "height " << height;
        EXPECT_NO_THROW(CheckBlock(b)) << "height " << height;
        if (height == 1) EXPECT_EQ(b.hash_hex, "00000000839a8e6886ab5951d76f411475428afc90947ee320161bbf18eb6048");
        if (height == 170) {
            EXPECT_EQ(b.hash_hex, "00000000d1145790a8694403d4063f323d499e655c83426834d4ce2f8dd4a2ee");
            EXPECT_EQ(b.txs.size(), 2u);
        }
        prev = b.hash_hex;
        pos += 8 + len;
    }
    EXPECT_EQ(height, 255u);
}

TEST(Block, BlocksWithoutPrevoutsParseAndCheck) {
    const nlohmann::json index = ReadJsonFile(FixturePath("index.json"));
    size_t n = 0;
    for (const nlohmann::json& entry : index["mainnet_blocks_only"]) {
        const std::vector<uint8_t> raw = ReadFileBytes(FixturePath(entry["file"].get<std::string>()));
        const Block b = ParseBlock(raw.data(), raw.size());
        const int height = entry["height"].get<int>();
        EXPECT_EQ(b.hash_hex, entry["block_hash"].get<std::string>()) << height;
        EXPECT_EQ(HexEncodeReversed(b.header.prev_block), entry["prev_block_hash"].get<std::string>()) << height;
        EXPECT_EQ(b.txs.size(), entry["tx_count"].get<size_t>()) << height;
        EXPECT_EQ(b.size, entry["size_bytes"].get<size_t>()) << height;
        size_t inputs = 0, segwit = 0;
        for (size_t t = 1; t < b.txs.size(); ++t) inputs += b.txs[t].vin.size();
        for (const Transaction& tx : b.txs) segwit += tx.HasWitness();
        EXPECT_EQ(inputs, entry["non_coinbase_inputs"].get<size_t>()) << height;
        EXPECT_EQ(segwit, entry["segwit_tx_count"].get<size_t>()) << height;
        // Merkle root, coinbase rules, CheckTransaction and (segwit blocks) the commitment.
        EXPECT_NO_THROW(CheckBlock(b)) << height;
        EXPECT_NO_THROW(CheckWitnessMalleation(b, height >= 481824)) << height;
        EXPECT_NO_THROW(CheckBlockWeight(b)) << height;
        if (segwit > 0) {
            EXPECT_GE(WitnessCommitmentIndex(b), 0) << height;
        }
        ++n;
    }
    EXPECT_EQ(n, 5u);
}

TEST(Block, TruncationNamesTheByteOffset) {
    const std::vector<uint8_t> raw = LoadFixtureBlock(170).raw;
    ASSERT_EQ(raw.size(), 490u);
    // Inside the header.
    Error e = ParseError(raw, 79);
    EXPECT_EQ(e.where().byte_offset, 0);
    EXPECT_NE(std::string(e.what()).find("block header"), std::string::npos);
    // Right after the header: the transaction count, with the block hash now known.
    e = ParseError(raw, 80);
    EXPECT_EQ(e.where().byte_offset, 80);
    EXPECT_EQ(e.where().block_hash, "00000000d1145790a8694403d4063f323d499e655c83426834d4ce2f8dd4a2ee");
    EXPECT_NE(std::string(e.what()).find("transaction count"), std::string::npos);
    // Two bytes short: the last transaction's nLockTime starts at 486.
    e = ParseError(raw, 488);
    EXPECT_EQ(e.where().byte_offset, 486);
    EXPECT_EQ(e.where().tx_index, 1);
    EXPECT_NE(std::string(e.what()).find("unexpected end of data reading nLockTime: need 4 bytes, 2 left"),
              std::string::npos);
    EXPECT_NE(std::string(e.what()).find("tx 1, byte 486"), std::string::npos);
    // Every shorter length is an Error, never a crash or an over-read.
    for (size_t len = 0; len < raw.size(); ++len) EXPECT_THROW(ParseBlock(raw.data(), len), Error) << len;
}

/** ParseBlock(data, len, full_begin, full_end)'s Error, or none (what() "none"). */
std::string PartialParseError(const std::vector<uint8_t>& data, size_t len, size_t full_begin, size_t full_end) {
    try {
        ParseBlock(data.data(), len, full_begin, full_end);
    } catch (const Error& e) {
        return e.what();
    }
    return "none";
}

TEST(Block, SkimmedTransactionsKeepTheirShapeAndGiveTheSameErrors) {
    // 553,724 (segwit and legacy transactions) and 57,043: transactions outside [0, 1) are
    // skimmed (SkimTransaction): no scripts, no witnesses, no txids, the same offsets, counts,
    // amounts and sizes; any truncation gives the full parse's Error.
    for (const int height : {553724, 57043}) {
        SCOPED_TRACE("height " + std::to_string(height));
        const std::vector<uint8_t> raw = LoadFixtureBlock(height).raw;
        const Block full = ParseBlock(raw.data(), raw.size());
        const Block part = ParseBlock(raw.data(), raw.size(), 0, 1);
        ASSERT_EQ(part.txs.size(), full.txs.size());
        EXPECT_EQ(part.size, full.size);
        EXPECT_EQ(part.stripped_size, full.stripped_size);
        EXPECT_EQ(part.hash_hex, full.hash_hex);
        for (size_t t = 0; t < full.txs.size(); ++t) {
            const Transaction& a = full.txs[t];
            const Transaction& b = part.txs[t];
            EXPECT_EQ(b.offset, a.offset);
            EXPECT_EQ(b.size, a.size);
            EXPECT_EQ(b.stripped_size, a.stripped_size);
            ASSERT_EQ(b.vin.size(), a.vin.size());
            ASSERT_EQ(b.vout.size(), a.vout.size());
            for (size_t i = 0; i < a.vin.size(); ++i) {
                EXPECT_TRUE(b.vin[i].prevout == a.vin[i].prevout);
                EXPECT_EQ(b.vin[i].offset, a.vin[i].offset);
                EXPECT_EQ(b.vin[i].sequence, a.vin[i].sequence);
                EXPECT_EQ(b.vin[i].script_sig.empty(), t != 0 || a.vin[i].script_sig.empty());
                EXPECT_EQ(b.vin[i].witness.empty(), t != 0 || a.vin[i].witness.empty());
            }
            for (size_t o = 0; o < a.vout.size(); ++o) EXPECT_EQ(b.vout[o].value, a.vout[o].value);
            EXPECT_EQ(b.txid == a.txid, t == 0);
        }
        const size_t step = raw.size() > 4000 ? 7 : 1;  // every length of the small block
        for (size_t len = 0; len < raw.size(); len += step) {
            ASSERT_EQ(PartialParseError(raw, len, 0, 1), PartialParseError(raw, len, 0, SIZE_MAX)) << len;
            ASSERT_EQ(PartialParseError(raw, len, 5, 5), PartialParseError(raw, len, 0, SIZE_MAX)) << len;
        }
    }
}

TEST(Block, TrailingBytesAreAnError) {
    std::vector<uint8_t> raw = LoadFixtureBlock(170).raw;
    raw.push_back(0x00);
    raw.push_back(0x01);
    const Error e = ParseError(raw, raw.size());
    EXPECT_EQ(e.where().byte_offset, 490);
    EXPECT_NE(std::string(e.what()).find("2 trailing bytes after the last transaction"), std::string::npos);
}

TEST(Block, AlteredTransactionFailsTheMerkleCheck) {
    std::vector<uint8_t> raw = LoadFixtureBlock(170).raw;
    raw[raw.size() - 1] ^= 1;  // nLockTime of tx 1: still parses, txid changes
    const Block b = ParseBlock(raw.data(), raw.size());
    try {
        CheckBlock(b);
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.reason().rfind("bad-txnmrklroot", 0), 0u) << e.what();
        EXPECT_EQ(e.where().block_hash, "00000000d1145790a8694403d4063f323d499e655c83426834d4ce2f8dd4a2ee");
        EXPECT_EQ(e.where().byte_offset, kHeaderMerkleRootOffset);  // the header's hashMerkleRoot
    }
}

TEST(Block, AlteredWitnessFailsTheCommitment) {
    // Block 553724 has segwit transactions; witness bytes are outside the txid merkle tree.
    std::vector<uint8_t> raw = LoadFixtureBlock(553724).raw;
    Block b = ParseBlock(raw.data(), raw.size());
    ASSERT_NO_THROW(CheckBlock(b));
    ASSERT_NO_THROW(CheckWitnessMalleation(b, true));
    size_t t = 1;
    auto last_item_nonempty = [](const Transaction& tx) {
        return !tx.vin.back().witness.empty() && !tx.vin.back().witness.back().empty();
    };
    while (t < b.txs.size() && !last_item_nonempty(b.txs[t])) ++t;
    ASSERT_LT(t, b.txs.size());
    // The witness sits between the outputs and nLockTime: flip the byte before nLockTime (the
    // last byte of the last witness item).
    raw[b.txs[t].offset + b.txs[t].size - 5] ^= 1;
    b = ParseBlock(raw.data(), raw.size());
    EXPECT_EQ(HexEncodeReversed(BlockMerkleRoot(b)), HexEncodeReversed(b.header.merkle_root));
    EXPECT_NO_THROW(CheckBlock(b));  // witness bytes are outside CheckBlock's merkle tree
    try {
        CheckWitnessMalleation(b, true);
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.reason().rfind("bad-witness-merkle-match", 0), 0u) << e.what();
    }
}

}  // namespace
}  // namespace ibd
