// ReadBlockFile (native/primitives/block_file.h) on the fixture chain (btcd's framed blocks
// 1-255, Core's blk?????.dat layout): 255 frames, each the block ParseBlock reads; a file cut
// short, a wrong magic, a size beyond the data or below a header each stop at that frame, naming
// its index and byte offset, with the frames before it kept.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "primitives/block.h"
#include "primitives/block_file.h"
#include "support/test_support.h"

namespace ibd {
namespace {

TEST(BlockFile, TheFixtureChainIs255Frames) {
    const FixtureChain chain = LoadFixtureChain();
    const BlockFile file = ReadBlockFile(chain.file.data(), chain.file.size());
    EXPECT_FALSE(file.error.has_value());
    ASSERT_EQ(file.frames.size(), 255u);
    size_t pos = 0;
    for (const BlockFileFrame& f : file.frames) {
        EXPECT_EQ(f.frame_offset, pos);
        EXPECT_EQ(f.offset, pos + 8);
        EXPECT_EQ(ParseBlock(chain.file.data() + f.offset, f.size).size, f.size);
        pos = f.offset + f.size;
    }
    EXPECT_EQ(pos, chain.file.size());
    EXPECT_FALSE(ReadBlockFile(nullptr, 0).error.has_value());
}

TEST(BlockFile, ABadFrameStopsThereNamingItsIndexAndOffset) {
    const FixtureChain chain = LoadFixtureChain();
    const BlockFile whole = ReadBlockFile(chain.file.data(), chain.file.size());
    const BlockFileFrame& third = whole.frames[2];
    const auto expect_error = [&](std::vector<uint8_t> bytes, const std::string& reason) {
        const BlockFile f = ReadBlockFile(bytes.data(), bytes.size());
        EXPECT_EQ(f.frames.size(), 2u) << reason;
        ASSERT_TRUE(f.error.has_value()) << reason;
        EXPECT_EQ(f.error->reason(), reason);
        EXPECT_EQ(f.error->where().byte_offset, static_cast<int64_t>(third.frame_offset));
    };
    const std::string at = "block file frame 2 at byte " + std::to_string(third.frame_offset) + ": ";
    std::vector<uint8_t> bytes(chain.file.begin(), chain.file.begin() + static_cast<std::ptrdiff_t>(third.frame_offset + 5));
    expect_error(bytes, at + "only 5 bytes left, fewer than the 8 of a frame header");
    bytes.assign(chain.file.begin(), chain.file.begin() + static_cast<std::ptrdiff_t>(third.offset + third.size - 1));
    expect_error(bytes, at + "size " + std::to_string(third.size) + " runs past the end of the file (" +
                            std::to_string(third.size - 1) + " bytes left)");
    bytes = chain.file;
    bytes[third.frame_offset] = 0x0b;  // testnet3's first byte
    expect_error(bytes, at + "magic 0b be b4 d9 is not mainnet's f9 be b4 d9");
    bytes = chain.file;
    bytes[third.frame_offset + 4] = 79;
    bytes[third.frame_offset + 5] = bytes[third.frame_offset + 6] = bytes[third.frame_offset + 7] = 0;
    expect_error(bytes, at + "size 79 is below 80 (a header) or above 4000000 (MAX_BLOCK_SERIALIZED_SIZE)");
}

}  // namespace
}  // namespace ibd
