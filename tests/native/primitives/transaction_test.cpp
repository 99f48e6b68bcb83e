// Transaction parsing (Core's UnserializeTransaction with BIP144), txid / wtxid, the error
// cases of the extended format, and CheckTransaction. Transactions from BIP143's examples.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "primitives/hex.h"
#include "primitives/transaction.h"
#include "script/bip143_vectors.h"
#include "util/error.h"

namespace ibd {
namespace {

// BIP143 "Native P2WPKH": the signed transaction (input 0 P2PK, input 1 P2WPKH), and the same
// transaction before signing (no witness, empty scriptSigs).
const char* const kBip143P2wpkhSigned = bip143_vectors::kP2wpkhSigned;
const char* const kBip143P2wpkhUnsigned = bip143_vectors::kP2wpkhUnsigned;

Transaction Parse(const std::string& hex) {
    const std::vector<uint8_t> b = HexDecode(hex);
    return ParseTransaction(b.data(), b.size());
}

Error ParseError(const std::string& hex) {
    try {
        Parse(hex);
    } catch (const Error& e) {
        return e;
    }
    ADD_FAILURE() << "no error for " << hex;
    return Error("none", Location{});
}

TEST(Transaction, ParsesBip144SegwitTransaction) {
    const Transaction tx = Parse(kBip143P2wpkhSigned);
    EXPECT_EQ(tx.version, 1);
    ASSERT_EQ(tx.vin.size(), 2u);
    ASSERT_EQ(tx.vout.size(), 2u);
    EXPECT_EQ(tx.lock_time, 17u);
    EXPECT_EQ(HexEncodeReversed(tx.vin[0].prevout.txid),
              "9f96ade4b41d5433f4eda31e1738ec2b36f6e7d1420d94a6af99801a88f7f7ff");
    EXPECT_EQ(tx.vin[0].prevout.n, 0u);
    EXPECT_EQ(tx.vin[0].sequence, 0xffffffeeu);
    EXPECT_EQ(tx.vin[0].script_sig.size(), 0x49u);
    EXPECT_TRUE(tx.vin[0].witness.empty());
    EXPECT_EQ(tx.vin[1].prevout.n, 1u);
    ASSERT_EQ(tx.vin[1].witness.size(), 2u);
    EXPECT_EQ(HexEncode(tx.vin[1].witness[1]), "025476c2e83188368da1ff3e292e7acafcdb3566bb0ad253f62fc70f07aeee6357");
    EXPECT_EQ(tx.vout[0].value, 112340000);
    EXPECT_EQ(tx.vout[1].value, 223450000);
    EXPECT_EQ(HexEncode(tx.vout[1].script_pubkey), "76a9143bde42dbee7e4dbe6a21b2d50ce2f0167faa815988ac");
    EXPECT_TRUE(tx.HasWitness());
    EXPECT_FALSE(tx.IsCoinBase());
    // Offsets: version (4) + marker/flag (2) + count (1) put input 0 at byte 7.
    EXPECT_EQ(tx.vin[0].offset, 7u);
    EXPECT_EQ(tx.vin[1].offset, 7u + 36 + 1 + 0x49 + 4);
    // txid ignores the witness: it is the known txid of this transaction.
    EXPECT_EQ(HexEncodeReversed(tx.txid), "e8151a2af31c368a35053ddd4bdb285a8595c769a3ad83e0fa02314a602d4609");
    const size_t len = std::string(kBip143P2wpkhSigned).size() / 2;
    EXPECT_EQ(tx.size, len);
    const std::vector<uint8_t> raw = HexDecode(kBip143P2wpkhSigned);
    EXPECT_EQ(tx.wtxid, Sha256d(raw.data(), raw.size()));
    EXPECT_NE(tx.wtxid, tx.txid);
    // Stripped size = size - marker/flag - witness bytes.
    const size_t witness_bytes = 1 + (1 + 1 + 0x47 + 1 + 0x21);
    EXPECT_EQ(tx.stripped_size, len - 2 - witness_bytes);
}

TEST(Transaction, NonWitnessTransactionHasTxidEqualWtxid) {
    const Transaction tx = Parse(kBip143P2wpkhUnsigned);
    EXPECT_FALSE(tx.HasWitness());
    EXPECT_EQ(tx.txid, tx.wtxid);
    const std::vector<uint8_t> raw = HexDecode(kBip143P2wpkhUnsigned);
    EXPECT_EQ(tx.txid, Sha256d(raw.data(), raw.size()));
    EXPECT_EQ(tx.stripped_size, tx.size);
}

TEST(Transaction, ExtendedFormatErrors) {
    // Flag 1 with every witness stack empty: "superfluous witness record".
    const std::string unsigned_hex = kBip143P2wpkhUnsigned;
    const std::string body = unsigned_hex.substr(8, unsigned_hex.size() - 16);
    const std::string superfluous = "01000000" "0001" + body + "0000" + "11000000";
    EXPECT_NE(std::string(ParseError(superfluous).what()).find("superfluous witness record"), std::string::npos);
    // Flag 2: "unknown transaction optional data", located at the flag byte.
    const Error unknown = ParseError("01000000" "0002" + body + "11000000");
    EXPECT_NE(std::string(unknown.what()).find("unknown transaction optional data"), std::string::npos);
    EXPECT_EQ(unknown.where().byte_offset, 5);
    // Marker then flag 0: an empty transaction (Core reads no vin, no vout).
    const Transaction empty = Parse("01000000" "0000" "00000000");
    EXPECT_TRUE(empty.vin.empty());
    EXPECT_TRUE(empty.vout.empty());
}

TEST(Transaction, TruncationNamesInputAndOffset) {
    const std::string hex = kBip143P2wpkhSigned;
    // Cut inside input 1's prevout: the error names input 1 and the offset where data ran out.
    const size_t input1 = 7 + 36 + 1 + 0x49 + 4;
    const Error e = ParseError(hex.substr(0, 2 * (input1 + 10)));
    EXPECT_EQ(e.where().input_index, 1);
    EXPECT_EQ(e.where().byte_offset, static_cast<int64_t>(input1));
    EXPECT_NE(std::string(e.what()).find("prevout txid"), std::string::npos);
    // Cut inside input 1's witness.
    const Error w = ParseError(hex.substr(0, hex.size() - 2 * 20));
    EXPECT_EQ(w.where().input_index, 1);
    EXPECT_NE(std::string(w.what()).find("witness item"), std::string::npos);
    // Trailing bytes after a whole transaction.
    const Error t = ParseError(hex + "00");
    EXPECT_NE(std::string(t.what()).find("1 trailing bytes"), std::string::npos);
    EXPECT_EQ(t.where().byte_offset, static_cast<int64_t>(hex.size() / 2));
    // Every prefix fails cleanly (no crash, no out-of-bounds read under sanitizers).
    for (size_t n = 0; n < hex.size(); n += 2) EXPECT_THROW(Parse(hex.substr(0, n)), Error) << n;
}

TEST(Transaction, CheckTransactionRules) {
    EXPECT_NO_THROW(CheckTransaction(Parse(kBip143P2wpkhSigned)));
    // Duplicate inputs: both inputs spend input 0's outpoint.
    std::string unsigned_hex = kBip143P2wpkhUnsigned;
    const std::string in0 = unsigned_hex.substr(10, 72);
    std::string dup = unsigned_hex;
    dup.replace(10 + 72 + 2 + 8, 72, in0);
    try {
        CheckTransaction(Parse(dup));
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.reason(), "bad-txns-inputs-duplicate: input 1 spends the same prevout as input 0");
        EXPECT_EQ(e.where().input_index, 1);
        EXPECT_EQ(e.where().byte_offset, 5 + 41);  // nVersion, input count, input 0
    }
    // Negative output value.
    std::string neg = unsigned_hex;
    const size_t out0 = 10 + 2 * (41 + 41) + 2;  // version, count, two inputs, output count
    neg.replace(out0, 16, "ffffffffffffffff");
    try {
        CheckTransaction(Parse(neg));
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.reason(), "bad-txns-vout-negative: output value -1 sat");
        EXPECT_EQ(e.where().output_index, 0);
        EXPECT_EQ(e.where().byte_offset, static_cast<int64_t>(out0 / 2));
    }
}

}  // namespace
}  // namespace ibd
