// Bad input to the engine (ValidateBlock): every problem with the block or its spent outputs is
// an ibd::Error that names where it is (block hash, tx index, input index, byte offset,
// spent-output entry and field), a script that fails is the block verdict naming its input;
// nothing crashes.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "primitives/block.h"
#include "support/test_support.h"
#include "util/error.h"
#include "validation/block_validation.h"
#include "verify/check_buffer.h"

namespace ibd {
namespace {

const char* kHash24835 = "00000000132fbe8314fc571c0be60b31ccd461c9ee85f42bde8c6d160a9dacc0";

using Fixture = FixtureBlock;

/** Fixture block `height`, whose manifest hash must be `hash`. */
Fixture Load(int height, const std::string& hash) {
    Fixture f = LoadFixtureBlock(height);
    EXPECT_EQ(f.hash, hash);
    return f;
}

Error JsonError(const std::string& json) {
    try {
        ParseSpentOutputsJson(json);
    } catch (const Error& e) {
        return e;
    }
    ADD_FAILURE() << "no error for " << json;
    return Error("none", Location{});
}

bool Contains(const Error& e, const std::string& s) { return std::string(e.what()).find(s) != std::string::npos; }

/** (tx index, input index) of spent-output entry `k` of a parsed block. */
std::pair<int64_t, int64_t> InputOfEntry(const std::vector<uint8_t>& raw, size_t k) {
    const Block b = ParseBlock(raw.data(), raw.size());
    for (size_t t = 1; t < b.txs.size(); ++t) {
        if (k < b.txs[t].vin.size()) return {static_cast<int64_t>(t), static_cast<int64_t>(k)};
        k -= b.txs[t].vin.size();
    }
    return {-1, -1};
}

TEST(EngineBadInput, TruncatedBlockNamesByteOffset) {
    const Fixture f = Load(24835, kHash24835);
    std::vector<uint8_t> cut(f.raw.begin(), f.raw.begin() + 5000);
    const Error e = ValidationError(cut, f.spent, f.hash, f.height);
    EXPECT_EQ(e.where().block_hash, kHash24835);
    EXPECT_EQ(e.where().tx_index, 1);
    EXPECT_GE(e.where().byte_offset, 4000);
    EXPECT_LE(e.where().byte_offset, 5000);
    EXPECT_GE(e.where().input_index, 0);
    // Cut inside input 40's scriptSig: the length says 72 bytes, 45 are left.
    EXPECT_TRUE(Contains(e, "scriptSig: CompactSize says 72 (at least 72 bytes), only 45 bytes left")) << e.what();
    EXPECT_TRUE(Contains(e, "tx 1, input 40, byte 4954")) << e.what();
    // Shorter than a header: still an Error, located at byte 0.
    const std::vector<uint8_t> tiny(f.raw.begin(), f.raw.begin() + 10);
    EXPECT_EQ(ValidationError(tiny, f.spent, "", f.height).where().byte_offset, 0);
    EXPECT_THROW(ValidateBlock(nullptr, 0, {}, "", 0), Error);
}

TEST(EngineBadInput, ExpectedHashMismatchAndFormat) {
    const Fixture f = Load(24835, kHash24835);
    std::string wrong = kHash24835;
    wrong[63] = wrong[63] == '0' ? '1' : '0';
    Error e = ValidationError(f.raw, f.spent, wrong, f.height);
    EXPECT_TRUE(Contains(e, "block hash mismatch: expected " + wrong + ", header hashes to " + kHash24835)) << e.what();
    e = ValidationError(f.raw, f.spent, "1234", f.height);
    EXPECT_TRUE(Contains(e, "not 64 hex digits")) << e.what();
    // Upper-case expected hash is the same hash.
    std::string upper = kHash24835;
    for (char& c : upper) c = static_cast<char>(toupper(static_cast<unsigned char>(c)));
    EXPECT_NO_THROW(ValidateBlock(f.raw.data(), f.raw.size(), f.spent, upper, f.height));
}

TEST(EngineBadInput, MerkleMismatchIsAnError) {
    Fixture f = Load(24835, kHash24835);
    f.raw[f.raw.size() - 1] ^= 0x01;  // last tx's nLockTime: header (and hash) unchanged
    const Error e = ValidationError(f.raw, f.spent, f.hash, f.height);
    EXPECT_EQ(e.reason().rfind("bad-txnmrklroot", 0), 0u) << e.what();
    EXPECT_EQ(e.where().block_hash, kHash24835);
}

TEST(EngineBadInput, SpentListTooShortNamesTheInput) {
    Fixture f = Load(24835, kHash24835);
    ASSERT_EQ(f.spent.size(), 74u);
    f.spent.pop_back();
    const Error e = ValidationError(f.raw, f.spent, f.hash, f.height);
    const auto [tx, input] = InputOfEntry(f.raw, 73);
    EXPECT_EQ(e.where().tx_index, tx);
    EXPECT_EQ(e.where().input_index, input);
    EXPECT_TRUE(Contains(e, "spent outputs list too short: 73 entries")) << e.what();
    // Too long: named as such.
    Fixture g = Load(24835, kHash24835);
    g.spent.push_back(g.spent.back());
    EXPECT_TRUE(Contains(ValidationError(g.raw, g.spent, g.hash, g.height), "spent outputs list too long: 75 entries for 74"));
}

TEST(EngineBadInput, MismatchedOutpointNamesTheInput) {
    Fixture f = Load(24835, kHash24835);
    f.spent[40].prevout.n += 1;
    Error e = ValidationError(f.raw, f.spent, f.hash, f.height);
    auto [tx, input] = InputOfEntry(f.raw, 40);
    EXPECT_EQ(e.where().tx_index, tx);
    EXPECT_EQ(e.where().input_index, input);
    EXPECT_TRUE(Contains(e, "spent output entry 40 is for outpoint")) << e.what();
    EXPECT_GT(e.where().byte_offset, 80);
    // A different txid, same vout.
    Fixture g = Load(24835, kHash24835);
    g.spent[7].prevout.txid[31] ^= 0x10;  // the first display hex digit
    e = ValidationError(g.raw, g.spent, g.hash, g.height);
    std::tie(tx, input) = InputOfEntry(g.raw, 7);
    EXPECT_EQ(e.where().tx_index, tx);
    EXPECT_EQ(e.where().input_index, input);
}

TEST(EngineBadInput, P2pkhKeyNotMatchingTheSpentHashMakesTheBlockInvalid) {
    Fixture f = Load(24835, kHash24835);
    size_t k = 0;
    while (k < f.spent.size() && f.spent[k].out.script_pubkey.size() != 25) ++k;  // a P2PKH entry
    ASSERT_LT(k, f.spent.size());
    f.spent[k].out.script_pubkey[10] ^= 0x40;
    const BlockValidationResult r = ValidateBlock(f.raw.data(), f.raw.size(), f.spent, f.hash, f.height);
    const auto [tx, input] = InputOfEntry(f.raw, k);
    EXPECT_FALSE(r.valid);
    EXPECT_EQ(r.failed_inputs, 1u);
    EXPECT_EQ(r.tx_index, tx);
    EXPECT_EQ(r.input_index, input);
    EXPECT_EQ(r.input_type, "p2pkh");
    EXPECT_EQ(r.script_error, "EQUALVERIFY") << r.error;
    const Block b = ParseBlock(f.raw.data(), f.raw.size());
    EXPECT_EQ(r.byte_offset, static_cast<int64_t>(b.txs[tx].vin[input].offset));
    EXPECT_EQ(r.error.rfind("SCRIPT_ERR_EQUALVERIFY: tx " + std::to_string(tx) + " input " + std::to_string(input), 0), 0u)
        << r.error;
    // The other 73 inputs are evaluated all the same: 73 checks, every one valid.
    EXPECT_EQ(r.origins.size(), 73u);
    EXPECT_EQ(r.verdicts, std::vector<uint8_t>(73, static_cast<uint8_t>(Verdict::kValid)));
}

TEST(EngineBadInput, SpentOutputsJsonErrorsNameEntryAndField) {
    Error e = JsonError("{\"spent_outputs\": [ {\"txid\": ");
    EXPECT_TRUE(Contains(e, "does not parse")) << e.what();
    EXPECT_GE(e.where().byte_offset, 0);
    EXPECT_TRUE(Contains(JsonError("garbage"), "does not parse"));
    EXPECT_TRUE(Contains(JsonError(""), "does not parse"));
    EXPECT_TRUE(Contains(JsonError("[1,2]"), "top level is not an object"));
    EXPECT_TRUE(Contains(JsonError("{}"), "no \"spent_outputs\" field"));
    EXPECT_TRUE(Contains(JsonError("{\"spent_outputs\": 3}"), "is not an array"));

    const std::string txid = "\"" + std::string(64, 'a') + "\"";
    auto entry = [&](const std::string& fields) { return "{\"spent_outputs\": [{\"txid\": " + txid +
                                                         ", \"vout\": 0, \"value\": 1, \"script_pubkey\": \"51\"}, {" +
                                                         fields + "}]}"; };
    const std::string good = "\"txid\": " + txid + ", \"vout\": 1, \"value\": 5, \"script_pubkey\": \"00\"";
    EXPECT_EQ(ParseSpentOutputsJson(entry(good)).size(), 2u);
    struct Case {
        std::string fields, expect;
    };
    const std::vector<Case> cases = {
        {"\"vout\": 1, \"value\": 5, \"script_pubkey\": \"00\"", "spent_outputs[1].txid: missing"},
        {"\"txid\": 5, \"vout\": 1, \"value\": 5, \"script_pubkey\": \"00\"", "spent_outputs[1].txid: not a string"},
        {"\"txid\": \"abcd\", \"vout\": 1, \"value\": 5, \"script_pubkey\": \"00\"", "spent_outputs[1].txid: not 64 hex"},
        {"\"txid\": " + txid + ", \"vout\": -1, \"value\": 5, \"script_pubkey\": \"00\"", "spent_outputs[1].vout: negative"},
        {"\"txid\": " + txid + ", \"vout\": 4294967296, \"value\": 5, \"script_pubkey\": \"00\"",
         "spent_outputs[1].vout: above 4294967295"},
        {"\"txid\": " + txid + ", \"vout\": \"1\", \"value\": 5, \"script_pubkey\": \"00\"",
         "spent_outputs[1].vout: not an integer"},
        {"\"txid\": " + txid + ", \"vout\": 1, \"value\": 1.5, \"script_pubkey\": \"00\"",
         "spent_outputs[1].value: not a 64-bit integer"},
        {"\"txid\": " + txid + ", \"vout\": 1, \"value\": 18446744073709551616, \"script_pubkey\": \"00\"",
         "spent_outputs[1].value: not a 64-bit integer (a fraction, or outside"},
        {"\"txid\": " + txid + ", \"vout\": 1, \"value\": \"5\", \"script_pubkey\": \"00\"",
         "spent_outputs[1].value: not an integer"},
        {"\"txid\": " + txid + ", \"vout\": 1, \"value\": 9223372036854775808, \"script_pubkey\": \"00\"",
         "spent_outputs[1].value: above 2^63-1 satoshis"},
        {"\"txid\": " + txid + ", \"vout\": 1, \"value\": 5", "spent_outputs[1].script_pubkey: missing"},
        {"\"txid\": " + txid + ", \"vout\": 1, \"value\": 5, \"script_pubkey\": \"0g\"",
         "spent_outputs[1].script_pubkey: not hex"},
        {"\"txid\": " + txid + ", \"vout\": 1, \"value\": 5, \"script_pubkey\": null",
         "spent_outputs[1].script_pubkey: not a string"},
    };
    for (const Case& c : cases) {
        const Error err = JsonError(entry(c.fields));
        EXPECT_TRUE(Contains(err, c.expect)) << err.what() << " / expected " << c.expect;
        // The entry index is in the reason only: entry 1 is not "input 1" of any transaction.
        EXPECT_EQ(err.where().input_index, -1) << c.expect;
        EXPECT_EQ(err.where().tx_index, -1) << c.expect;
        EXPECT_EQ(std::string(err.what()).find("(at input"), std::string::npos) << err.what();
    }
    EXPECT_TRUE(Contains(JsonError("{\"spent_outputs\": [7]}"), "spent_outputs[0]: not an object"));
}

TEST(EngineBadInput, RandomCorruptionNeverCrashes) {
    // Deterministic byte flips over a segwit block: each run either succeeds or throws Error.
    const Fixture f = Load(553724, "0000000000000000002849bd7ea6df81fa2f07652af0600ffa0f2b0bc47d736c");
    uint64_t state = 0x9e3779b97f4a7c15ULL;
    auto next = [&state]() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return state;
    };
    size_t errors = 0, ok = 0;
    for (int round = 0; round < 400; ++round) {
        std::vector<uint8_t> raw = f.raw;
        const int flips = 1 + static_cast<int>(next() % 4);
        for (int k = 0; k < flips; ++k) raw[80 + next() % (raw.size() - 80)] ^= static_cast<uint8_t>(1 + next() % 255);
        if (round % 3 == 0) raw.resize(80 + next() % (raw.size() - 80));
        try {
            ValidateBlock(raw.data(), raw.size(), f.spent, "", f.height, MutatedBlockContext());
            ++ok;
        } catch (const Error&) {
            ++errors;
        }
    }
    EXPECT_EQ(errors + ok, 400u);
    EXPECT_GT(errors, 300u);  // nearly every change breaks the merkle root, commitment or parse
}

}  // namespace
}  // namespace ibd
