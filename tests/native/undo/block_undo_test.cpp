// A node's undo data (undo/block_undo.h) and the spent outputs the engine takes from it
// (SpentOutputsFromUndoRecord, validation/spent_outputs.h), on real blocks: a rev record written
// from a fixture block's spent outputs gives back exactly those outputs and the same verdict;
// a record that is not the block's, or is damaged, is an error naming the block and the byte.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "primitives/block.h"
#include "primitives/hex.h"
#include "support/test_support.h"
#include "undo/block_undo.h"
#include "validation/block_validation.h"
#include "primitives/serialize.h"
#include "validation/spent_outputs.h"

namespace ibd {
namespace {

/** The fixture's spent outputs as Core's undo data. The fixtures do not give the heights of
 *  the coins: each is written as created at `height` - 1, not by a coinbase. */
BlockUndo UndoOf(const FixtureBlock& f) {
    const Block block = ParseBlock(f.raw.data(), f.raw.size());
    BlockUndo undo;
    size_t k = 0;
    for (size_t t = 1; t < block.txs.size(); ++t) {
        TxUndo tx;
        for (size_t i = 0; i < block.txs[t].vin.size(); ++i) {
            Coin c;
            c.out = f.spent.at(k++).out;
            c.out.offset = 0;
            c.height = f.height - 1;
            tx.prevout.push_back(c);
        }
        undo.vtxundo.push_back(tx);
    }
    return undo;
}

std::vector<uint8_t> RecordOf(const FixtureBlock& f) {
    return SerializeUndoRecord(UndoOf(f), ParseBlock(f.raw.data(), f.raw.size()).header.prev_block);
}

Error UndoError(const FixtureBlock& f, const std::vector<uint8_t>& record) {
    try {
        SpentOutputsFromUndoRecord(f.raw.data(), f.raw.size(), record.data(), record.size());
    } catch (const Error& e) {
        return e;
    }
    ADD_FAILURE() << "no error";
    return Error("none", Location{});
}

TEST(BlockUndo, ARecordGivesBackTheFixturesSpentOutputs) {
    for (int32_t height : {170, 57043, 866342}) {
        const FixtureBlock f = LoadFixtureBlock(height);
        const std::vector<uint8_t> record = RecordOf(f);
        ASSERT_TRUE(LooksLikeUndoRecord(record.data(), record.size()));
        const std::vector<uint8_t> binary =
            SpentOutputsFromUndoRecord(f.raw.data(), f.raw.size(), record.data(), record.size());
        EXPECT_EQ(HexEncode(binary), HexEncode(SerializeSpentOutputs(f.spent))) << height;
        // Parse and serialize are each other's inverse.
        const UndoRecord parts = SplitUndoRecord(record.data(), record.size());
        EXPECT_EQ(HexEncode(SerializeBlockUndo(ParseBlockUndo(parts.undo, parts.undo_size))),
                  HexEncode(parts.undo, parts.undo_size));
    }
}

TEST(BlockUndo, TheSameVerdictFromTheRecordAsFromTheSpentOutputs) {
    for (int32_t height : {170, 866342}) {
        const FixtureBlock f = LoadFixtureBlock(height);
        const std::vector<uint8_t> record = RecordOf(f);
        const std::vector<uint8_t> binary = SerializeSpentOutputs(f.spent);
        const BlockValidationResult a =
            ValidateBlock(f.raw.data(), f.raw.size(), record.data(), record.size(), f.hash, height);
        const BlockValidationResult b =
            ValidateBlock(f.raw.data(), f.raw.size(), binary.data(), binary.size(), f.hash, height);
        EXPECT_TRUE(a.valid) << a.error;
        EXPECT_EQ(a.valid, b.valid);
        EXPECT_EQ(a.inputs, b.inputs);
        EXPECT_EQ(a.fee, b.fee);
        EXPECT_EQ(a.verdicts, b.verdicts);
        EXPECT_EQ(a.checks, b.checks);
    }
}

TEST(BlockUndo, AChecksumThatDoesNotMatchIsAnError) {
    const FixtureBlock f = LoadFixtureBlock(170);
    std::vector<uint8_t> record = RecordOf(f);
    record[record.size() - 1] ^= 1;  // the checksum
    Error e = UndoError(f, record);
    EXPECT_EQ(e.reason().rfind("rev record checksum mismatch", 0), 0u) << e.what();
    EXPECT_EQ(e.where().block_hash, f.hash);
    // Another block's record (block 181's, one P2PK spend too) is not this block's.
    const FixtureBlock other = LoadFixtureBlock(181);
    e = UndoError(f, RecordOf(other));
    EXPECT_EQ(e.reason().rfind("rev record checksum mismatch", 0), 0u) << e.what();
}

TEST(BlockUndo, CountsThatDisagreeWithTheBlockAreErrors) {
    const FixtureBlock f = LoadFixtureBlock(57043);
    const Block block = ParseBlock(f.raw.data(), f.raw.size());
    BlockUndo undo = UndoOf(f);
    undo.vtxundo.pop_back();
    Error e = UndoError(f, SerializeUndoRecord(undo, block.header.prev_block));
    EXPECT_NE(e.reason().find("transactions' coins for the block's"), std::string::npos) << e.what();
    undo = UndoOf(f);
    undo.vtxundo[0].prevout.push_back(undo.vtxundo[0].prevout[0]);
    e = UndoError(f, SerializeUndoRecord(undo, block.header.prev_block));
    EXPECT_EQ(e.reason(), "rev record: tx 1 has " + std::to_string(block.txs[1].vin.size() + 1) + " coins for its " +
                              std::to_string(block.txs[1].vin.size()) + " inputs");
    EXPECT_EQ(e.where().tx_index, 1);
}

TEST(BlockUndo, DamagedRecordsNameTheByte) {
    const FixtureBlock f = LoadFixtureBlock(866342);
    const std::vector<uint8_t> record = RecordOf(f);
    // Truncated: the size no longer matches.
    std::vector<uint8_t> cut(record.begin(), record.end() - 1);
    Error e = UndoError(f, cut);
    EXPECT_EQ(e.where().byte_offset, 4);
    EXPECT_NE(e.reason().find("size field says"), std::string::npos) << e.what();
    // A wrong message start.
    std::vector<uint8_t> magic = record;
    magic[0] = 0x0b;
    EXPECT_FALSE(LooksLikeUndoRecord(magic.data(), magic.size()));
    e = UndoError(f, magic);
    EXPECT_NE(e.reason().find("message start"), std::string::npos) << e.what();
    // A coin count larger than the data: named by tx, at its byte.
    std::vector<uint8_t> body(record.begin() + 8, record.end() - 32);
    const UndoRecord parts = SplitUndoRecord(record.data(), record.size());
    size_t first_coin_count = 8 + (parts.undo_size > 0 ? (body[0] < 0xfd ? 1 : 3) : 0);
    std::vector<uint8_t> lying = record;
    lying[first_coin_count] = 0xfc;
    e = UndoError(f, lying);
    EXPECT_EQ(e.where().block_hash, f.hash);
    EXPECT_NE(e.reason().find("undo data: tx 1"), std::string::npos) << e.what();
    EXPECT_GE(e.where().byte_offset, static_cast<int64_t>(first_coin_count));
    // Fewer than the record's fixed 40 bytes.
    e = UndoError(f, std::vector<uint8_t>(record.begin(), record.begin() + 39));
    EXPECT_NE(e.reason().find("fewer than the 40"), std::string::npos) << e.what();
}

/** The fixture's spent outputs as Core 30's /rest/spenttxouts/<hash>.bin body, tagged "IBT1". */
std::vector<uint8_t> SpentTxOutsOf(const FixtureBlock& f) {
    const Block block = ParseBlock(f.raw.data(), f.raw.size());
    std::vector<uint8_t> out(kSpentTxOutsMagic, kSpentTxOutsMagic + 4);
    VectorSink s{out};
    WriteCompactSize(s, block.txs.size());
    WriteCompactSize(s, 0);
    size_t k = 0;
    for (size_t t = 1; t < block.txs.size(); ++t) {
        WriteCompactSize(s, block.txs[t].vin.size());
        for (size_t i = 0; i < block.txs[t].vin.size(); ++i) {
            const TxOut& o = f.spent.at(k++).out;
            WriteLE64(s, static_cast<uint64_t>(o.value));
            WriteVarBytes(s, o.script_pubkey);
        }
    }
    return out;
}

TEST(SpentTxOuts, ARestBodyGivesBackTheFixturesSpentOutputsAndItsErrorsAreNamed) {
    const FixtureBlock f = LoadFixtureBlock(866342);
    std::vector<uint8_t> body = SpentTxOutsOf(f);
    EXPECT_EQ(HexEncode(SpentOutputsFromSpentTxOuts(f.raw.data(), f.raw.size(), body.data(), body.size())),
              HexEncode(SerializeSpentOutputs(f.spent)));
    const BlockValidationResult r = ValidateBlock(f.raw.data(), f.raw.size(), body.data(), body.size(), f.hash, 866342);
    EXPECT_TRUE(r.valid) << r.error;
    const auto error = [&](const std::vector<uint8_t>& b) {
        try {
            SpentOutputsFromSpentTxOuts(f.raw.data(), f.raw.size(), b.data(), b.size());
        } catch (const Error& e) {
            EXPECT_EQ(e.where().block_hash, f.hash);
            return e.reason();
        }
        return std::string("no error");
    };
    std::vector<uint8_t> trailing = body;
    trailing.push_back(0);
    EXPECT_EQ(error(trailing).rfind("spenttxouts: 1 bytes left after the lists", 0), 0u) << error(trailing);
    std::vector<uint8_t> cut(body.begin(), body.end() - 3);
    EXPECT_NE(error(cut).find("spenttxouts: "), std::string::npos);
    const FixtureBlock other = LoadFixtureBlock(170);
    const std::vector<uint8_t> wrong = SpentTxOutsOf(other);
    EXPECT_EQ(error(wrong), "spenttxouts: 2 transactions for the block's 4864");
}

}  // namespace
}  // namespace ibd
