// Hex encoding, decoding and the reversed "display" order of hashes.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "primitives/hex.h"
#include "util/error.h"

namespace ibd {
namespace {

TEST(Hex, EncodeDecodeRoundTrip) {
    const std::vector<uint8_t> bytes = {0x00, 0x01, 0x7f, 0x80, 0xab, 0xff};
    EXPECT_EQ(HexEncode(bytes), "00017f80abff");
    EXPECT_EQ(HexDecode("00017f80abff"), bytes);
    EXPECT_EQ(HexDecode("00017F80ABFF"), bytes);
    EXPECT_EQ(HexEncode(nullptr, 0), "");
    EXPECT_TRUE(HexDecode("").empty());
}

TEST(Hex, ReversedIsDisplayOrder) {
    const std::vector<uint8_t> bytes = {0x01, 0x02, 0xfe};
    EXPECT_EQ(HexEncodeReversed(bytes.data(), bytes.size()), "fe0201");
    // Block 170's hash in internal order -> display hex (index.json).
    std::array<uint8_t, 32> hash;
    ASSERT_TRUE(TryParseHashDisplayHex("00000000d1145790a8694403d4063f323d499e655c83426834d4ce2f8dd4a2ee", hash));
    EXPECT_EQ(hash[0], 0xee);
    EXPECT_EQ(hash[31], 0x00);
    EXPECT_EQ(HexEncodeReversed(hash), "00000000d1145790a8694403d4063f323d499e655c83426834d4ce2f8dd4a2ee");
    EXPECT_FALSE(TryParseHashDisplayHex("00", hash));
    EXPECT_FALSE(TryParseHashDisplayHex(std::string(63, '0') + "g", hash));
}

TEST(Hex, MalformedInputIsAnErrorWithPosition) {
    std::vector<uint8_t> out;
    EXPECT_FALSE(TryHexDecode("abc", out));
    EXPECT_FALSE(TryHexDecode("0g", out));
    EXPECT_FALSE(TryHexDecode(" 00", out));
    try {
        HexDecode("00zz");
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.where().byte_offset, 2);
        EXPECT_NE(std::string(e.what()).find("non-hex"), std::string::npos);
    }
    try {
        HexDecode("000");
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.where().byte_offset, 3);
        EXPECT_NE(std::string(e.what()).find("odd"), std::string::npos);
    }
}

TEST(ErrorLocation, PrintsOnlyKnownPartsAndMergesContext) {
    Location inner;
    inner.byte_offset = 1234;
    const Error e("truncated", inner);
    EXPECT_STREQ(e.what(), "truncated (at byte 1234)");
    Location outer;
    outer.file = "b.raw";
    outer.block_hash = "00ab";
    outer.tx_index = 3;
    outer.byte_offset = 1;  // already known inside: kept
    const Error merged = e.with_context(outer);
    EXPECT_EQ(merged.reason(), "truncated");
    EXPECT_EQ(merged.where().byte_offset, 1234);
    EXPECT_STREQ(merged.what(), "truncated (at file b.raw, block 00ab, tx 3, byte 1234)");
    EXPECT_STREQ(Error("plain", Location{}).what(), "plain");
}

}  // namespace
}  // namespace ibd
