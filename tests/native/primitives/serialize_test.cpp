// The Reader and CompactSize rules of Core's serialize.h: canonical encodings, truncation,
// MAX_SIZE, counts larger than the data left; and the writers.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "primitives/hex.h"
#include "primitives/serialize.h"
#include "util/error.h"

namespace ibd {
namespace {

uint64_t ReadCs(const std::string& hex, size_t* consumed = nullptr) {
    const std::vector<uint8_t> b = HexDecode(hex);
    Reader r(b.data(), b.size());
    const uint64_t v = r.ReadCompactSize("n");
    if (consumed) *consumed = r.pos();
    return v;
}

/** The Error thrown by reading `hex` as a CompactSize (fails the test if none). */
Error CsError(const std::string& hex, size_t base = 0) {
    const std::vector<uint8_t> b = HexDecode(hex);
    Reader r(b.data(), b.size(), base);
    try {
        r.ReadCompactSize("n");
    } catch (const Error& e) {
        return e;
    }
    ADD_FAILURE() << hex << " did not throw";
    return Error("none", Location{});
}

TEST(CompactSize, CanonicalForms) {
    size_t n = 0;
    EXPECT_EQ(ReadCs("00", &n), 0u);
    EXPECT_EQ(n, 1u);
    EXPECT_EQ(ReadCs("fc", &n), 252u);
    EXPECT_EQ(n, 1u);
    EXPECT_EQ(ReadCs("fdfd00", &n), 253u);
    EXPECT_EQ(n, 3u);
    EXPECT_EQ(ReadCs("fdffff"), 0xffffu);
    EXPECT_EQ(ReadCs("fe00000100", &n), 0x10000u);
    EXPECT_EQ(n, 5u);
    EXPECT_EQ(ReadCs("fe00000002"), 0x02000000u);  // MAX_SIZE itself is allowed
}

TEST(CompactSize, NonCanonicalIsRejected) {
    EXPECT_NE(std::string(CsError("fd0000").what()).find("non-canonical"), std::string::npos);
    EXPECT_NE(std::string(CsError("fdfc00").what()).find("non-canonical"), std::string::npos);
    EXPECT_NE(std::string(CsError("feffff0000").what()).find("non-canonical"), std::string::npos);
    EXPECT_NE(std::string(CsError("ffffffffff00000000").what()).find("non-canonical"), std::string::npos);
    // The error names the offset of the CompactSize's first byte.
    EXPECT_EQ(CsError("fd0100", 500).where().byte_offset, 500);
}

TEST(CompactSize, AboveMaxSizeIsRejected) {
    const Error e = CsError("fe01000002");
    EXPECT_NE(std::string(e.what()).find("too large"), std::string::npos);
    EXPECT_NE(std::string(CsError("ff0000000001000000").what()).find("too large"), std::string::npos);
    // Without the range check the value comes through.
    const std::vector<uint8_t> b = HexDecode("ff0000000001000000");
    Reader r(b.data(), b.size());
    EXPECT_EQ(r.ReadCompactSize("n", false), 0x100000000ULL);
}

TEST(CompactSize, TruncatedNamesOffset) {
    const Error e = CsError("fd01", 100);
    EXPECT_EQ(e.where().byte_offset, 101);  // the uint16 starts after the 0xfd byte
    EXPECT_NE(std::string(e.what()).find("unexpected end of data reading n: need 2 bytes, 1 left"), std::string::npos);
    EXPECT_EQ(CsError("", 7).where().byte_offset, 7);
    EXPECT_EQ(CsError("fe000001", 0).where().byte_offset, 1);
    EXPECT_EQ(CsError("ff00", 0).where().byte_offset, 1);
}

TEST(Reader, CountAndBytesLongerThanTheDataAreRejected) {
    // A count of 3 items of at least 41 bytes with 10 bytes left.
    std::vector<uint8_t> b = HexDecode("03");
    b.resize(11);
    Reader r(b.data(), b.size(), 1000);
    try {
        r.ReadCount("input count", 41);
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.where().byte_offset, 1000);
        EXPECT_NE(std::string(e.what()).find("input count: CompactSize says 3 (at least 123 bytes), only 10 bytes left"),
                  std::string::npos);
    }
    const std::vector<uint8_t> s = HexDecode("05aabbcc");
    Reader rs(s.data(), s.size());
    EXPECT_THROW(rs.ReadVarBytes("scriptSig"), Error);
    const std::vector<uint8_t> ok = HexDecode("03aabbcc");
    Reader ro(ok.data(), ok.size());
    EXPECT_EQ(ro.ReadVarBytes("scriptSig"), HexDecode("aabbcc"));
    EXPECT_TRUE(ro.empty());
}

TEST(Reader, FixedWidthIntegersAreLittleEndian) {
    const std::vector<uint8_t> b = HexDecode("01020304ffffffff0807060504030201ab");
    Reader r(b.data(), b.size());
    EXPECT_EQ(r.ReadLE32("a"), 0x04030201u);
    EXPECT_EQ(r.ReadI32("b"), -1);
    EXPECT_EQ(r.ReadLE64("c"), 0x0102030405060708ULL);
    EXPECT_EQ(r.offset(), 16u);
    EXPECT_THROW(r.ReadLE16("d"), Error);
    EXPECT_EQ(r.remaining(), 1u);  // a failed read consumes nothing
    EXPECT_EQ(r.ReadU8("e"), 0xab);
    EXPECT_THROW(r.ReadU8("f"), Error);
}

TEST(Writers, CompactSizeRoundTripsAtEveryBoundary) {
    for (uint64_t v : {0ULL, 1ULL, 252ULL, 253ULL, 254ULL, 0xffffULL, 0x10000ULL, 0x2000000ULL, 0xffffffffULL,
                       0x100000000ULL, 0xffffffffffffffffULL}) {
        std::vector<uint8_t> out;
        VectorSink sink{out};
        WriteCompactSize(sink, v);
        const size_t expected_len = v < 253 ? 1 : v <= 0xffff ? 3 : v <= 0xffffffffULL ? 5 : 9;
        ASSERT_EQ(out.size(), expected_len) << v;
        Reader r(out.data(), out.size());
        EXPECT_EQ(r.ReadCompactSize("v", false), v);
        EXPECT_TRUE(r.empty());
    }
    std::vector<uint8_t> out;
    VectorSink sink{out};
    WriteLE32(sink, 0x11223344);
    WriteLE64(sink, 0x0102030405060708ULL);
    WriteVarBytes(sink, HexDecode("abcd"));
    EXPECT_EQ(HexEncode(out), "44332211080706050403020102abcd");
}

}  // namespace
}  // namespace ibd
