// Core's compressed outputs (undo/compressor.h): Core's own vectors from
// src/test/compress_tests.cpp (compress_amounts, compress_script_to_*,
// compress_p2pk_scripts_not_on_curve) and Core's VARINT bit patterns (src/test/serialize_tests.cpp,
// varints_bitpatterns), plus round trips through the reader.
#include <gtest/gtest.h>

#include <secp256k1.h>

#include <cstdint>
#include <vector>

#include "primitives/hex.h"
#include "primitives/serialize.h"
#include "undo/compressor.h"
#include "util/error.h"

namespace ibd {
namespace {

constexpr uint64_t kCent = 1000000;
constexpr uint64_t kCoin = 100000000;

bool TestPair(uint64_t dec, uint64_t enc) { return CompressAmount(dec) == enc && DecompressAmount(enc) == dec; }

TEST(CompressAmount, CoresVectors) {
    EXPECT_TRUE(TestPair(0, 0x0));
    EXPECT_TRUE(TestPair(1, 0x1));
    EXPECT_TRUE(TestPair(kCent, 0x7));
    EXPECT_TRUE(TestPair(kCoin, 0x9));
    EXPECT_TRUE(TestPair(50 * kCoin, 0x32));
    EXPECT_TRUE(TestPair(21000000 * kCoin, 0x1406f40));
}

TEST(CompressAmount, CoresRoundTrips) {
    // Core's ranges: 1 sat .. 0.001 BTC, 0.01 .. 100 BTC, 1 .. 10,000 BTC, 50 .. 21,000,000 BTC,
    // and every encoded value below 100,000 decodes to a value that encodes back to it.
    size_t bad = 0;
    for (uint64_t i = 1; i <= 100000; i++) bad += DecompressAmount(CompressAmount(i)) != i;
    for (uint64_t i = 1; i <= 10000; i++) bad += DecompressAmount(CompressAmount(i * kCent)) != i * kCent;
    for (uint64_t i = 1; i <= 10000; i++) bad += DecompressAmount(CompressAmount(i * kCoin)) != i * kCoin;
    for (uint64_t i = 1; i <= 420000; i++) bad += DecompressAmount(CompressAmount(i * 50 * kCoin)) != i * 50 * kCoin;
    for (uint64_t i = 0; i < 100000; i++) bad += CompressAmount(DecompressAmount(i)) != i;
    EXPECT_EQ(bad, 0u);
}

std::vector<uint8_t> WriteVarIntBytes(uint64_t n) {
    std::vector<uint8_t> out;
    VectorSink s{out};
    WriteVarInt(s, n);
    return out;
}

TEST(VarInt, CoresBitPatterns) {
    const std::pair<uint64_t, const char*> cases[] = {
        {0, "00"}, {0x7f, "7f"}, {0x80, "8000"}, {0x1234, "a334"}, {0xffff, "82fe7f"}, {0x123456, "c7e756"},
        {0x80123456, "86ffc7e756"}, {0xffffffff, "8efefefe7f"}, {0x7fffffffffffffffULL, "fefefefefefefefe7f"},
        {0xffffffffffffffffULL, "80fefefefefefefefe7f"},
    };
    for (const auto& [value, hex] : cases) {
        EXPECT_EQ(HexEncode(WriteVarIntBytes(value)), hex) << value;
        const std::vector<uint8_t> bytes = HexDecode(hex);
        Reader r(bytes.data(), bytes.size());
        EXPECT_EQ(r.ReadVarInt("v"), value) << hex;
        EXPECT_TRUE(r.empty());
    }
}

TEST(VarInt, TooLargeAndTruncatedAreErrorsAtTheirFirstByte) {
    const std::vector<uint8_t> big = HexDecode("008efefefe7f");  // 2^32 - 1 after one byte
    Reader r(big.data(), big.size());
    r.ReadU8("pad");
    try {
        r.ReadVarInt("coin code", UINT32_MAX - 1);
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.where().byte_offset, 1);
        EXPECT_NE(e.reason().find("VARINT for coin code too large"), std::string::npos) << e.what();
    }
    const std::vector<uint8_t> cut = HexDecode("8080");
    Reader t(cut.data(), cut.size());
    EXPECT_THROW(t.ReadVarInt("v"), Error);
}

std::vector<uint8_t> Compressed(const std::vector<uint8_t>& script) {
    std::vector<uint8_t> out;
    EXPECT_TRUE(CompressScript(script, out)) << HexEncode(script);
    return out;
}

void ExpectRoundTrip(const std::vector<uint8_t>& script) {
    TxOut o;
    o.value = 5000000000;
    o.script_pubkey = script;
    std::vector<uint8_t> bytes;
    WriteCompressedTxOut(bytes, o);
    Reader r(bytes.data(), bytes.size());
    const TxOut back = ReadCompressedTxOut(r);
    EXPECT_TRUE(r.empty());
    EXPECT_EQ(back.value, o.value);
    EXPECT_EQ(HexEncode(back.script_pubkey), HexEncode(script));
}

// Block 9's coinbase key, spent in block 170 (an uncompressed P2PK; last byte 0xa3, odd y).
const char* kHalKey =
    "0411db93e1dcdb8a016b49840f8c53bc1eb68a382e97b1482ecad7b148a6909a5cb2e0eaddfb84ccf9744464f82e160bfa9b8b64f9d4c03f"
    "999b8643f656b412a3";

TEST(CompressScript, CoresFourSpecialForms) {
    const std::vector<uint8_t> p2pkh = HexDecode("76a91462e907b15cbf27d5425399ebf6f0fb50ebb88f1888ac");
    std::vector<uint8_t> out = Compressed(p2pkh);
    ASSERT_EQ(out.size(), 21u);
    EXPECT_EQ(out[0], 0x00);
    EXPECT_TRUE(std::equal(out.begin() + 1, out.end(), p2pkh.begin() + 3));

    const std::vector<uint8_t> p2sh = HexDecode("a914b472a266d0bd89c13706a4132ccfb16f7c3b9fcb87");
    out = Compressed(p2sh);
    ASSERT_EQ(out.size(), 21u);
    EXPECT_EQ(out[0], 0x01);
    EXPECT_TRUE(std::equal(out.begin() + 1, out.end(), p2sh.begin() + 2));

    const std::vector<uint8_t> p2pk33 =
        HexDecode("210279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798ac");
    out = Compressed(p2pk33);
    ASSERT_EQ(out.size(), 33u);
    EXPECT_EQ(out[0], p2pk33[1]);
    EXPECT_TRUE(std::equal(out.begin() + 1, out.end(), p2pk33.begin() + 2));

    const std::vector<uint8_t> p2pk65 = HexDecode(std::string("41") + kHalKey + "ac");
    out = Compressed(p2pk65);
    ASSERT_EQ(out.size(), 33u);
    EXPECT_EQ(out[0], 0x04 | (p2pk65[65] & 0x01));
    EXPECT_EQ(out[0], 0x05);
    EXPECT_TRUE(std::equal(out.begin() + 1, out.end(), p2pk65.begin() + 2));

    for (const auto& s : {p2pkh, p2sh, p2pk33, p2pk65}) ExpectRoundTrip(s);
}

TEST(CompressScript, OtherScriptsAreKeptWhole) {
    std::vector<uint8_t> out;
    for (const char* hex : {"", "51", "0014751e76e8199196d454941c45d1b3a323f1433bd6",
                            "512079be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798",
                            "76a91462e907b15cbf27d5425399ebf6f0fb50ebb88f1888ad"}) {
        const std::vector<uint8_t> s = HexDecode(hex);
        EXPECT_FALSE(CompressScript(s, out)) << hex;
        ExpectRoundTrip(s);
    }
    // Over MAX_SCRIPT_SIZE: read back as OP_RETURN, its bytes passed over.
    TxOut o;
    o.script_pubkey.assign(10001, 0x51);
    std::vector<uint8_t> bytes;
    WriteCompressedTxOut(bytes, o);
    bytes.push_back(0xee);
    Reader r(bytes.data(), bytes.size());
    EXPECT_EQ(HexEncode(ReadCompressedTxOut(r).script_pubkey), "6a");
    EXPECT_EQ(r.remaining(), 1u);
}

TEST(CompressScript, CoresP2pkNotOnTheCurve) {
    // An x with no point on the curve (Core draws one at random; the first from 0 up here).
    std::vector<uint8_t> key(33, 0);
    key[0] = 0x02;
    secp256k1_pubkey parsed;
    while (secp256k1_ec_pubkey_parse(secp256k1_context_static, &parsed, key.data(), 33)) ++key[32];
    std::vector<uint8_t> script(1, 65);
    script.push_back(0x04);
    script.insert(script.end(), key.begin() + 1, key.end());
    script.insert(script.end(), 32, 0x00);
    script.push_back(0xac);
    ASSERT_EQ(script.size(), 67u);
    std::vector<uint8_t> out;
    EXPECT_FALSE(CompressScript(script, out));
    for (unsigned kind : {4u, 5u}) {
        std::vector<uint8_t> back;
        EXPECT_FALSE(DecompressScript(back, kind, key.data() + 1)) << kind;
        EXPECT_TRUE(back.empty());
        // In undo data it is an error, at the script's kind byte.
        std::vector<uint8_t> bytes = {0x00, static_cast<uint8_t>(kind)};
        bytes.insert(bytes.end(), key.begin() + 1, key.end());
        Reader r(bytes.data(), bytes.size(), 100);
        try {
            ReadCompressedTxOut(r);
            FAIL() << "no error";
        } catch (const Error& e) {
            EXPECT_EQ(e.where().byte_offset, 101);
            EXPECT_NE(e.reason().find("not on the curve"), std::string::npos) << e.what();
        }
    }
}

}  // namespace
}  // namespace ibd
