// SHA-256 (FIPS 180-4 / NIST CAVS example vectors), SHA256d and BIP340 tagged hashes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "crypto/sha256.h"
#include "primitives/hex.h"

namespace ibd {
namespace {

std::string Sha256Hex(const std::string& msg) {
    return HexEncode(Sha256Hash(reinterpret_cast<const uint8_t*>(msg.data()), msg.size()));
}

TEST(Sha256, NistVectors) {
    EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    EXPECT_EQ(Sha256Hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
                        "mnopqrstnopqrstu"),
              "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
    EXPECT_EQ(Sha256Hex(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// Every split point of a message spanning several blocks gives the one-shot digest, so the
// buffering across Write calls and the padding at every length modulo 64 are exercised.
TEST(Sha256, IncrementalWritesMatchOneShot) {
    std::vector<uint8_t> msg(200);
    for (size_t i = 0; i < msg.size(); ++i) msg[i] = static_cast<uint8_t>(i * 7 + 3);
    for (size_t len = 0; len <= msg.size(); ++len) {
        const Hash32 whole = Sha256Hash(msg.data(), len);
        for (size_t cut = 0; cut <= len; cut += 13) {
            Sha256 h;
            h.Write(msg.data(), cut).Write(msg.data() + cut, len - cut);
            ASSERT_EQ(h.Finalize(), whole) << "len " << len << " cut " << cut;
        }
    }
    // Known digest of 64 bytes 0x00..0x3f (one full block plus a padding block).
    std::vector<uint8_t> block(64);
    for (size_t i = 0; i < 64; ++i) block[i] = static_cast<uint8_t>(i);
    EXPECT_EQ(HexEncode(Sha256Hash(block.data(), block.size())),
              "fdeab9acf3710362bd2658cdc9a29e8f9c757fcf9811603a8c447cd1d9151108");
}

TEST(Sha256, DoubleShaOfGenesisHeaderIsGenesisHash) {
    const std::vector<uint8_t> header = HexDecode(
        "0100000000000000000000000000000000000000000000000000000000000000000000003ba3edfd7a7b12b27ac72c3e67768f617fc81bc3"
        "888a51323a9fb8aa4b1e5e4a29ab5f49ffff001d1dac2b7c");
    ASSERT_EQ(header.size(), 80u);
    EXPECT_EQ(HexEncodeReversed(Sha256d(header.data(), header.size())),
              "000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f");
    Sha256 h;
    h.Write(header.data(), header.size());
    EXPECT_EQ(HexEncodeReversed(FinalizeDouble(h)), "000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f");
}

TEST(Sha256, TaggedHashIsShaOfDoubledTagPrefix) {
    // hash_tag(msg) = SHA256(SHA256(tag) || SHA256(tag) || msg), checked against the definition.
    const std::string tag = "TapSighash";
    const std::vector<uint8_t> msg = {0x00, 0x01, 0x02, 0xff};
    const Hash32 tag_hash = Sha256Hash(reinterpret_cast<const uint8_t*>(tag.data()), tag.size());
    std::vector<uint8_t> preimage(tag_hash.begin(), tag_hash.end());
    preimage.insert(preimage.end(), tag_hash.begin(), tag_hash.end());
    preimage.insert(preimage.end(), msg.begin(), msg.end());
    EXPECT_EQ(TaggedHash(tag, msg.data(), msg.size()), Sha256Hash(preimage.data(), preimage.size()));
    // SHA256("TapSighash"), computed independently (Python hashlib).
    EXPECT_EQ(HexEncode(tag_hash), "f40a48df4b2a70c8b4924bf2654661ed3d95fd66a313eb87237597c628e4a031");
    // Copies of a primed hasher are independent.
    Sha256 primed = TaggedHasher(tag);
    Sha256 a = primed, b = primed;
    a.Write(msg.data(), msg.size());
    b.Write(msg.data(), 1);
    EXPECT_EQ(a.Finalize(), TaggedHash(tag, msg.data(), msg.size()));
    EXPECT_EQ(b.Finalize(), TaggedHash(tag, msg.data(), 1));
}

}  // namespace
}  // namespace ibd
