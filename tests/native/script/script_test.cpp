// Script helpers: GetScriptOp, templates, push-only evaluation, CScript push encoding and
// FindAndDelete (cases after Core's script_tests.cpp "script_FindAndDelete").
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "primitives/hex.h"
#include "script/script.h"

namespace ibd {
namespace {

std::vector<uint8_t> H(const std::string& hex) { return HexDecode(hex); }

/** FindAndDelete on hex scripts; returns the result hex and sets `found`. */
std::string Fad(const std::string& script, const std::string& pattern, int& found) {
    std::vector<uint8_t> s = H(script);
    found = FindAndDelete(s, H(pattern));
    return HexEncode(s);
}

TEST(Script, GetScriptOpReadsPushesAndStopsAtTruncation) {
    const std::vector<uint8_t> s = H("00" "02abcd" "4c01ee" "4d0100ff" "4e01000000aa" "ac");
    const uint8_t* pc = s.data();
    const uint8_t* end = s.data() + s.size();
    uint8_t op;
    const uint8_t* data;
    size_t len;
    const std::vector<std::pair<uint8_t, std::string>> expected = {
        {0x00, ""}, {0x02, "abcd"}, {0x4c, "ee"}, {0x4d, "ff"}, {0x4e, "aa"}, {0xac, ""}};
    for (const auto& [want_op, want_data] : expected) {
        ASSERT_TRUE(GetScriptOp(pc, end, op, &data, &len));
        EXPECT_EQ(op, want_op);
        EXPECT_EQ(HexEncode(data, len), want_data);
    }
    EXPECT_FALSE(GetScriptOp(pc, end, op, &data, &len));
    // Truncated pushes fail, with pc past the opcode (and length bytes) as in Core.
    const std::vector<uint8_t> t = H("4c05aa");
    pc = t.data();
    EXPECT_FALSE(GetScriptOp(pc, t.data() + t.size(), op, &data, &len));
    EXPECT_EQ(pc, t.data() + 2);
    const std::vector<uint8_t> u = H("4d01");
    pc = u.data();
    EXPECT_FALSE(GetScriptOp(pc, u.data() + u.size(), op, &data, &len));
    EXPECT_EQ(pc, u.data() + 1);
}

TEST(Script, Templates) {
    size_t pklen = 0;
    EXPECT_TRUE(MatchPayToPubKey(H("21" + std::string(66, '2') + "ac"), pklen));
    EXPECT_EQ(pklen, 33u);
    EXPECT_TRUE(MatchPayToPubKey(H("41" + std::string(130, '4') + "ac"), pklen));
    EXPECT_EQ(pklen, 65u);
    EXPECT_FALSE(MatchPayToPubKey(H("20" + std::string(64, '2') + "ac"), pklen));
    EXPECT_TRUE(IsPayToPubKeyHash(H("76a914751e76e8199196d454941c45d1b3a323f1433bd688ac")));
    EXPECT_FALSE(IsPayToPubKeyHash(H("76a914751e76e8199196d454941c45d1b3a323f1433bd688ad")));
    EXPECT_TRUE(IsPayToScriptHash(H("a9144733f37cf4db86fbc2efed2500b4f4e49f31202387")));
    EXPECT_FALSE(IsPayToScriptHash(H("a9144733f37cf4db86fbc2efed2500b4f4e49f3120238700")));
    int version = -1;
    const uint8_t* prog = nullptr;
    size_t plen = 0;
    EXPECT_TRUE(IsWitnessProgram(H("00141d0f172a0ecb48aee1be1f2687d2963ae33f71a1"), version, prog, plen));
    EXPECT_EQ(version, 0);
    EXPECT_EQ(plen, 20u);
    EXPECT_TRUE(IsWitnessProgram(H("512053a1f6e454df1aa2776a2814a721372d6258050de330b3c6d10ee8f4e0dda343"), version, prog, plen));
    EXPECT_EQ(version, 1);
    EXPECT_EQ(plen, 32u);
    EXPECT_TRUE(IsWitnessProgram(H("60020001"), version, prog, plen));
    EXPECT_EQ(version, 16);
    EXPECT_FALSE(IsWitnessProgram(H("0001ff"), version, prog, plen));            // program too short
    EXPECT_FALSE(IsWitnessProgram(H("4f0401020304"), version, prog, plen));      // OP_1NEGATE
    EXPECT_FALSE(IsWitnessProgram(H("00" "4c02" "0102"), version, prog, plen));  // not a direct push
    EXPECT_TRUE(IsBareMultisig(H("51" "21" + std::string(66, '2') + "21" + std::string(66, '3') + "52ae")));
    EXPECT_FALSE(IsBareMultisig(H("53" "21" + std::string(66, '2') + "21" + std::string(66, '3') + "52ae")));
    EXPECT_FALSE(IsBareMultisig(H("51" "21" + std::string(66, '2') + "52ae")));
}

TEST(Script, CastToBool) {
    EXPECT_FALSE(CastToBool(nullptr, 0));
    const std::vector<uint8_t> zero = {0, 0}, negzero = {0, 0x80}, one = {0, 1}, high = {0x80, 0};
    EXPECT_FALSE(CastToBool(zero.data(), zero.size()));
    EXPECT_FALSE(CastToBool(negzero.data(), negzero.size()));
    EXPECT_TRUE(CastToBool(one.data(), one.size()));
    EXPECT_TRUE(CastToBool(high.data(), high.size()));
}

TEST(Script, SerializePushUsesCoreEncoding) {
    EXPECT_EQ(HexEncode(SerializePush(nullptr, 0)), "00");
    const std::vector<uint8_t> d75(75, 1), d76(76, 1), d256(256, 1);
    EXPECT_EQ(SerializePush(d75.data(), 75)[0], 75);
    const std::vector<uint8_t> p76 = SerializePush(d76.data(), 76);
    EXPECT_EQ(HexEncode(p76.data(), 2), "4c4c");
    EXPECT_EQ(p76.size(), 78u);
    const std::vector<uint8_t> p256 = SerializePush(d256.data(), 256);
    EXPECT_EQ(HexEncode(std::vector<uint8_t>(p256.begin(), p256.begin() + 3)), "4d0001");
    EXPECT_EQ(p256.size(), 259u);
}

TEST(Script, FindAndDelete) {
    int found = 0;
    // Nothing to delete: script unchanged.
    EXPECT_EQ(Fad("51", "", found), "51");
    EXPECT_EQ(found, 0);
    EXPECT_EQ(Fad("51", "52", found), "51");
    EXPECT_EQ(found, 0);
    // Whole-opcode matches, consecutive ones included.
    EXPECT_EQ(Fad("0302ff030302ff03", "0302ff03", found), "");
    EXPECT_EQ(found, 2);
    EXPECT_EQ(Fad("0302ff030302ff03", "02", found), "0302ff030302ff03");  // not at an opcode boundary
    EXPECT_EQ(found, 0);
    EXPECT_EQ(Fad("0302ff030302ff03", "ff", found), "0302ff030302ff03");
    EXPECT_EQ(found, 0);
    // Odd edge case: stripping the push-three-bytes prefix leaves 02ff03, a push of two bytes.
    EXPECT_EQ(Fad("0302ff030302ff03", "03", found), "02ff0302ff03");
    EXPECT_EQ(found, 2);
    EXPECT_EQ(Fad("515253", "52", found), "5153");
    EXPECT_EQ(found, 1);
    EXPECT_EQ(Fad("535153535453", "53", found), "5154");
    EXPECT_EQ(found, 4);
    // One pass: a deletion does not create a new match.
    EXPECT_EQ(Fad("00005151", "0051", found), "0051");
    EXPECT_EQ(found, 1);
    EXPECT_EQ(Fad("000051005151", "0051", found), "0051");
    EXPECT_EQ(found, 2);
    EXPECT_EQ(Fad("02feed5169", "feed51", found), "02feed5169");
    EXPECT_EQ(found, 0);
    EXPECT_EQ(Fad("02feed5169", "02feed51", found), "69");
    EXPECT_EQ(found, 1);
    EXPECT_EQ(Fad("516902feed5169", "feed51", found), "516902feed5169");
    EXPECT_EQ(found, 0);
    EXPECT_EQ(Fad("516902feed5169", "02feed51", found), "516969");
    EXPECT_EQ(found, 1);
    EXPECT_EQ(Fad("516902feed5169", "69", found), "5102feed51");
    EXPECT_EQ(found, 2);
    // Truncated trailing pushes: the match scan uses Core's GetScriptOp positions.
    EXPECT_EQ(Fad("0003feed", "03feed", found), "00");
    EXPECT_EQ(found, 1);
    EXPECT_EQ(Fad("0003feed", "00", found), "03feed");
    EXPECT_EQ(found, 1);
}

}  // namespace
}  // namespace ibd
