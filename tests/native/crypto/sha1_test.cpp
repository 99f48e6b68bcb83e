// SHA-1 (sha1.h) against the FIPS 180-4 / NIST example vectors, with chunked writes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "crypto/sha1.h"
#include "primitives/hex.h"

namespace ibd {
namespace {

std::string Sha1Hex(const std::string& s) {
    return HexEncode(Sha1Hash(reinterpret_cast<const uint8_t*>(s.data()), s.size()));
}

TEST(Sha1, NistVectors) {
    EXPECT_EQ(Sha1Hex(""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
    EXPECT_EQ(Sha1Hex("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
    EXPECT_EQ(Sha1Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
}

TEST(Sha1, MillionAInOddChunks) {
    const std::vector<uint8_t> chunk(997, 'a');
    Sha1 h;
    size_t left = 1000000;
    while (left > 0) {
        const size_t n = left < chunk.size() ? left : chunk.size();
        h.Write(chunk.data(), n);
        left -= n;
    }
    uint8_t out[20];
    h.Finalize(out);
    EXPECT_EQ(HexEncode(out, 20), "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
}

TEST(Sha1, PaddingBoundaries) {
    // Lengths around the 55/56/64-byte padding edges agree between one write and byte-wise writes.
    for (size_t len : {55u, 56u, 57u, 63u, 64u, 65u, 119u, 120u}) {
        const std::vector<uint8_t> data(len, 0x61);
        Sha1 h;
        for (uint8_t b : data) h.Write(&b, 1);
        uint8_t out[20];
        h.Finalize(out);
        EXPECT_EQ(HexEncode(out, 20), HexEncode(Sha1Hash(data.data(), data.size()))) << len;
    }
    EXPECT_EQ(Sha1Hex(std::string(64, 'a')), "0098ba824b5c16427bd7a1122a5a442a25ec644d");
}

}  // namespace
}  // namespace ibd
