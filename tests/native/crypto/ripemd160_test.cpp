// RIPEMD-160 (the test vectors published with the algorithm by Bosselaers) and HASH160.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "crypto/ripemd160.h"
#include "primitives/hex.h"

namespace ibd {
namespace {

std::string RipemdHex(const std::string& msg) {
    return HexEncode(Ripemd160Hash(reinterpret_cast<const uint8_t*>(msg.data()), msg.size()));
}

TEST(Ripemd160, PublishedVectors) {
    EXPECT_EQ(RipemdHex(""), "9c1185a5c5e9fc54612808977ee8f548b2258d31");
    EXPECT_EQ(RipemdHex("a"), "0bdc9d2d256b3ee9daae347be6f4dc835a467ffe");
    EXPECT_EQ(RipemdHex("abc"), "8eb208f7e05d987a9b044a8e98c6b087f15a0bfc");
    EXPECT_EQ(RipemdHex("message digest"), "5d0689ef49d2fae572b881b123a85ffa21595f36");
    EXPECT_EQ(RipemdHex("abcdefghijklmnopqrstuvwxyz"), "f71c27109c692c1b56bbdceb5b9d2865b3708dbc");
    EXPECT_EQ(RipemdHex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "12a053384a9c0c88e405a06c27dcf49ada62eb2b");
    EXPECT_EQ(RipemdHex("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"),
              "b0e20b6e3116640286ed3a87a5713079b21f5189");
    std::string digits;
    for (int i = 0; i < 8; ++i) digits += "1234567890";
    EXPECT_EQ(RipemdHex(digits), "9b752e45573d4b39f4dbd3323cab82bf63326bfb");
    EXPECT_EQ(RipemdHex(std::string(1000000, 'a')), "52783243c1697bdbe16d37f97f68f08325dc1528");
}

TEST(Ripemd160, IncrementalWritesMatchOneShot) {
    std::vector<uint8_t> msg(150);
    for (size_t i = 0; i < msg.size(); ++i) msg[i] = static_cast<uint8_t>(255 - i);
    for (size_t len = 0; len <= msg.size(); ++len) {
        const Hash20 whole = Ripemd160Hash(msg.data(), len);
        for (size_t cut = 0; cut <= len; cut += 11) {
            Ripemd160 h;
            h.Write(msg.data(), cut).Write(msg.data() + cut, len - cut);
            Hash20 parts;
            h.Finalize(parts.data());
            ASSERT_EQ(parts, whole) << "len " << len << " cut " << cut;
        }
    }
}

TEST(Hash160, CompressedGeneratorKey) {
    // The secp256k1 generator G as a compressed key; its HASH160 is the P2PKH program of
    // 1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH, used in BIP341's wallet test vectors (input 2).
    const std::vector<uint8_t> g =
        HexDecode("0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798");
    EXPECT_EQ(HexEncode(Hash160(g.data(), g.size())), "751e76e8199196d454941c45d1b3a323f1433bd6");
}

}  // namespace
}  // namespace ibd
