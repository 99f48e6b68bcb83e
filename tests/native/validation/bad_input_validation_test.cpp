// Bad input through the REAL validation path (BlockValidation / ValidateBlock, what the main job
// and the wasm class run), one test per case of the bad-input requirement: truncated data, a
// CompactSize larger than what remains or non-canonical, a transaction count that does not
// match, a witness flag with no witness, a script over 10,000 bytes, a missing prevout. Each is
// built from a real fixture block (merkle root recomputed where the defect must get past it) and
// must give an Error (or, for the script, an invalid-block verdict) naming the block hash, the
// transaction index, the input index where one is at fault, and the byte offset in block.raw.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "primitives/block.h"
#include "support/test_support.h"
#include "util/error.h"
#include "validation/block_validation.h"

namespace ibd {
namespace {

const char* kHash24835 = "00000000132fbe8314fc571c0be60b31ccd461c9ee85f42bde8c6d160a9dacc0";
const char* kHash553724 = "0000000000000000002849bd7ea6df81fa2f07652af0600ffa0f2b0bc47d736c";

using Fixture = FixtureBlock;

Fixture Load(int height) { return LoadFixtureBlock(height); }

/** Replaces raw[at, at + len) with `with`. */
void Splice(std::vector<uint8_t>& raw, size_t at, size_t len, const std::vector<uint8_t>& with) {
    raw.erase(raw.begin() + static_cast<std::ptrdiff_t>(at), raw.begin() + static_cast<std::ptrdiff_t>(at + len));
    raw.insert(raw.begin() + static_cast<std::ptrdiff_t>(at), with.begin(), with.end());
}

/** Recomputes the merkle root of a rebuilt block and writes it into its header. */
void FixMerkleRoot(std::vector<uint8_t>& raw) {
    const Block b = ParseBlock(raw.data(), raw.size());
    const Hash32 root = BlockMerkleRoot(b);
    std::memcpy(raw.data() + 36, root.data(), 32);
}

void ExpectLocation(const Error& e, const std::string& hash, int64_t tx, int64_t input, int64_t byte) {
    EXPECT_EQ(e.where().block_hash, hash) << e.what();
    EXPECT_EQ(e.where().tx_index, tx) << e.what();
    EXPECT_EQ(e.where().input_index, input) << e.what();
    EXPECT_EQ(e.where().byte_offset, byte) << e.what();
}

TEST(BadInputValidation, TruncatedBlock) {
    const Fixture f = Load(24835);
    // Cut inside tx 1 input 40's scriptSig: its length (72) is at byte 4954, 45 bytes are left.
    const std::vector<uint8_t> cut(f.raw.begin(), f.raw.begin() + 5000);
    const Error e = ValidationError(cut, f.spent, kHash24835, 24835);
    ExpectLocation(e, kHash24835, 1, 40, 4954);
    EXPECT_EQ(std::string(e.what()),
              std::string("scriptSig: CompactSize says 72 (at least 72 bytes), only 45 bytes left (at block ") +
                  kHash24835 + ", tx 1, input 40, byte 4954)");
    // Shorter than a header: no hash to name, byte 0.
    const std::vector<uint8_t> tiny(f.raw.begin(), f.raw.begin() + 10);
    const Error t = ValidationError(tiny, f.spent, "", 24835);
    ExpectLocation(t, "", -1, -1, 0);
}

TEST(BadInputValidation, CompactSizeLargerThanRemainingOrNonCanonical) {
    const Fixture f = Load(24835);
    const Block b = ParseBlock(f.raw.data(), f.raw.size());
    // Larger than what remains: the last input's scriptSig length becomes 0xfd ffff (65,535).
    {
        const TxIn& in = b.txs[1].vin[73];
        const size_t len_at = in.offset + 36;
        ASSERT_LT(in.script_sig.size(), 0xfdu);
        std::vector<uint8_t> raw = f.raw;
        Splice(raw, len_at, 1, {0xfd, 0xff, 0xff});
        const Error e = ValidationError(raw, f.spent, kHash24835, 24835);
        ExpectLocation(e, kHash24835, 1, 73, static_cast<int64_t>(len_at));
        EXPECT_NE(std::string(e.what()).find("scriptSig: CompactSize says 65535"), std::string::npos) << e.what();
    }
    // Non-canonical: input 3's scriptSig length written in the 3-byte form.
    {
        const TxIn& in = b.txs[1].vin[3];
        const size_t len_at = in.offset + 36;
        const uint8_t n = static_cast<uint8_t>(in.script_sig.size());
        std::vector<uint8_t> raw = f.raw;
        Splice(raw, len_at, 1, {0xfd, n, 0x00});
        const Error e = ValidationError(raw, f.spent, kHash24835, 24835);
        ExpectLocation(e, kHash24835, 1, 3, static_cast<int64_t>(len_at));
        EXPECT_EQ(e.reason(), "non-canonical CompactSize for scriptSig: 0xfd form holding " + std::to_string(n) +
                                  ", which a shorter form holds");
    }
}

TEST(BadInputValidation, TransactionCountMismatch) {
    const Fixture f = Load(24835);
    ASSERT_EQ(f.raw[80], 2);  // two transactions
    // More than the data holds: names the first missing transaction and the end of the data.
    std::vector<uint8_t> more = f.raw;
    more[80] = 3;
    Error e = ValidationError(more, f.spent, kHash24835, 24835);
    ExpectLocation(e, kHash24835, 2, -1, static_cast<int64_t>(f.raw.size()));
    EXPECT_EQ(e.reason(), "transaction count mismatch: the count says 3 transactions but the block's data ends after 2");
    // Fewer: the uncounted transaction is trailing data, named with its index and offset.
    const Block b = ParseBlock(f.raw.data(), f.raw.size());
    std::vector<uint8_t> fewer = f.raw;
    fewer[80] = 1;
    e = ValidationError(fewer, f.spent, kHash24835, 24835);
    ExpectLocation(e, kHash24835, 1, -1, static_cast<int64_t>(b.txs[1].offset));
    EXPECT_NE(std::string(e.what()).find("trailing bytes after the last transaction: the transaction count says 1"),
              std::string::npos)
        << e.what();
}

TEST(BadInputValidation, WitnessFlagWithNoWitness) {
    const Fixture f = Load(553724);
    const Block b = ParseBlock(f.raw.data(), f.raw.size());
    size_t t = 1;
    while (t < b.txs.size() && !b.txs[t].HasWitness()) ++t;
    ASSERT_LT(t, b.txs.size());
    const Transaction& tx = b.txs[t];
    // Witness section: after marker, flag and the stripped body, before nLockTime. Each input's
    // stack becomes empty (item count 0); the marker and flag stay.
    const size_t witness_at = tx.offset + 2 + (tx.stripped_size - 4);
    const size_t witness_len = tx.offset + tx.size - 4 - witness_at;
    std::vector<uint8_t> raw = f.raw;
    Splice(raw, witness_at, witness_len, std::vector<uint8_t>(tx.vin.size(), 0x00));
    const Error e = ValidationError(raw, f.spent, kHash553724, 553724);
    // No input is at fault (all of them are empty); the offset is the marker's.
    ExpectLocation(e, kHash553724, static_cast<int64_t>(t), -1, static_cast<int64_t>(tx.offset + 4));
    EXPECT_EQ(e.reason(), "superfluous witness record: witness flag set but every input's witness stack is empty");
}

TEST(BadInputValidation, ScriptSigOver10000BytesIsScriptSizeNamingTheInput) {
    const Fixture f = Load(24835);
    const Block b = ParseBlock(f.raw.data(), f.raw.size());
    const TxIn& in = b.txs[1].vin[0];
    ASSERT_LT(in.script_sig.size(), 0xfdu);
    // The scriptSig grows to 10,001 bytes (the real one, then OP_NOPs); merkle root recomputed
    // so that the block loads and the interpreter is what refuses it.
    std::vector<uint8_t> script = in.script_sig;
    script.resize(10001, 0x61);
    std::vector<uint8_t> with = {0xfd, static_cast<uint8_t>(10001 & 0xff), static_cast<uint8_t>(10001 >> 8)};
    with.insert(with.end(), script.begin(), script.end());
    std::vector<uint8_t> raw = f.raw;
    Splice(raw, in.offset + 36, 1 + in.script_sig.size(), with);
    FixMerkleRoot(raw);
    const Block rebuilt = ParseBlock(raw.data(), raw.size());
    ASSERT_EQ(rebuilt.txs[1].vin[0].script_sig.size(), 10001u);

    const BlockValidationResult r = ValidateBlock(raw.data(), raw.size(), f.spent, "", 24835, MutatedBlockContext());
    EXPECT_FALSE(r.valid);
    EXPECT_EQ(r.failed_inputs, 1u);
    EXPECT_EQ(r.script_error, "SCRIPT_SIZE");
    EXPECT_EQ(r.hash_hex, rebuilt.hash_hex);
    EXPECT_EQ(r.tx_index, 1);
    EXPECT_EQ(r.input_index, 0);
    EXPECT_EQ(r.byte_offset, static_cast<int64_t>(in.offset));
    EXPECT_EQ(r.input_type, "p2pkh");
    EXPECT_EQ(r.error, "SCRIPT_ERR_SCRIPT_SIZE: tx 1 input 0 (p2pkh) fails its script in block " + rebuilt.hash_hex +
                           " (input at byte " + std::to_string(in.offset) + ")");
}

TEST(BadInputValidation, MissingOrMismatchedPrevout) {
    const Block b = [] {
        const Fixture f = Load(24835);
        return ParseBlock(f.raw.data(), f.raw.size());
    }();
    // One entry short: the last input has none.
    Fixture f = Load(24835);
    ASSERT_EQ(f.spent.size(), 74u);
    f.spent.pop_back();
    Error e = ValidationError(f.raw, f.spent, kHash24835, 24835);
    ExpectLocation(e, kHash24835, 1, 73, static_cast<int64_t>(b.txs[1].vin[73].offset));
    EXPECT_EQ(e.reason(), "spent outputs list too short: 73 entries, no entry for this input");
    // An entry whose outpoint is not the input's.
    Fixture g = Load(24835);
    g.spent[40].prevout.n += 1;
    e = ValidationError(g.raw, g.spent, kHash24835, 24835);
    ExpectLocation(e, kHash24835, 1, 40, static_cast<int64_t>(b.txs[1].vin[40].offset));
    EXPECT_EQ(e.reason().rfind("spent output entry 40 is for outpoint ", 0), 0u) << e.what();
}

}  // namespace
}  // namespace ibd
