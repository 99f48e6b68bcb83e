// ScriptNum (Core's CScriptNum): decoding limits, minimal encoding, serialization, getint.
// Cases after Core's scriptnum_tests.cpp and the number rules of script_tests.json.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "primitives/hex.h"
#include "script/interpreter.h"

namespace ibd {
namespace {

std::string Ser(int64_t v) { return HexEncode(ScriptNum(v).serialize()); }

bool Dec(const std::string& hex, bool minimal, size_t max, int64_t& out) {
    ScriptNum n(0);
    if (!ScriptNum::Decode(HexDecode(hex), minimal, max, n)) return false;
    out = n.value();
    return true;
}

TEST(ScriptNum, Serialize) {
    EXPECT_EQ(Ser(0), "");
    EXPECT_EQ(Ser(1), "01");
    EXPECT_EQ(Ser(-1), "81");
    EXPECT_EQ(Ser(127), "7f");
    EXPECT_EQ(Ser(128), "8000");
    EXPECT_EQ(Ser(-128), "8080");
    EXPECT_EQ(Ser(255), "ff00");
    EXPECT_EQ(Ser(-255), "ff80");
    EXPECT_EQ(Ser(256), "0001");
    EXPECT_EQ(Ser(0x7fffffff), "ffffff7f");
    EXPECT_EQ(Ser(-0x7fffffffLL), "ffffffff");
    EXPECT_EQ(Ser(0x80000000LL), "0000008000");
    EXPECT_EQ(Ser(0xffffffffLL), "ffffffff00");
    EXPECT_EQ(Ser(-0xffffffffLL), "ffffffff80");
}

TEST(ScriptNum, DecodeValues) {
    int64_t v = 99;
    ASSERT_TRUE(Dec("", true, 4, v));
    EXPECT_EQ(v, 0);
    ASSERT_TRUE(Dec("81", true, 4, v));
    EXPECT_EQ(v, -1);
    ASSERT_TRUE(Dec("ff00", true, 4, v));
    EXPECT_EQ(v, 255);
    ASSERT_TRUE(Dec("ff80", true, 4, v));
    EXPECT_EQ(v, -255);
    ASSERT_TRUE(Dec("ffffffff", true, 4, v));
    EXPECT_EQ(v, -0x7fffffffLL);
    // Non-minimal forms decode when minimality is not required, including negative zero.
    ASSERT_TRUE(Dec("80", false, 4, v));
    EXPECT_EQ(v, 0);
    ASSERT_TRUE(Dec("0100", false, 4, v));
    EXPECT_EQ(v, 1);
    ASSERT_TRUE(Dec("00000080", false, 4, v));
    EXPECT_EQ(v, 0);
    // 5-byte operands (CLTV / CSV).
    ASSERT_TRUE(Dec("ffffffff00", true, 5, v));
    EXPECT_EQ(v, 0xffffffffLL);
    ASSERT_TRUE(Dec("ffffffff7f", true, 5, v));
    EXPECT_EQ(v, 0x7fffffffffLL);
}

TEST(ScriptNum, DecodeRejects) {
    int64_t v;
    EXPECT_FALSE(Dec("0000000001", false, 4, v));  // 5 bytes > 4
    EXPECT_FALSE(Dec("000000000001", false, 5, v));
    EXPECT_FALSE(Dec("00", true, 4, v));    // zero must be empty
    EXPECT_FALSE(Dec("80", true, 4, v));    // negative zero
    EXPECT_FALSE(Dec("0100", true, 4, v));  // trailing zero byte
    EXPECT_FALSE(Dec("0180", true, 4, v));  // -1 padded
    EXPECT_TRUE(Dec("8000", true, 4, v));   // 128 needs the sign byte
    EXPECT_TRUE(Dec("8080", true, 4, v));   // -128
}

TEST(ScriptNum, GetIntClamps) {
    EXPECT_EQ(ScriptNum(0x7fffffffffLL).getint(), INT32_MAX);
    EXPECT_EQ(ScriptNum(-0x7fffffffffLL).getint(), INT32_MIN);
    EXPECT_EQ(ScriptNum(-5).getint(), -5);
}

TEST(ScriptNum, RoundTrip) {
    for (int64_t v : {0LL, 1LL, -1LL, 127LL, 128LL, -129LL, 32767LL, 32768LL, -8388608LL, 2147483647LL,
                      -2147483647LL, 549755813887LL}) {
        ScriptNum n(0);
        ASSERT_TRUE(ScriptNum::Decode(ScriptNum(v).serialize(), true, 5, n)) << v;
        EXPECT_EQ(n.value(), v);
    }
}

}  // namespace
}  // namespace ibd
