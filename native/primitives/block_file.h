// Core's block file format (blk?????.dat, node/blockstorage.cpp; btcd writes its test chains the
// same way): a sequence of frames, each
//     0   4   message start (network magic)  mainnet f9 be b4 d9
//     4   4   size                            uint32 LE, bytes of the block that follows
//     8   size  the block, network serialization (primitives/block.h)
// with nothing between frames. ReadBlockFile (block_file.cpp) finds the frames; it parses no
// block.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "util/error.h"

namespace ibd {

/** Mainnet's message start (Core's CChainParams::MessageStart, pchMessageStart). */
inline constexpr std::array<uint8_t, 4> kMainnetMagic = {0xf9, 0xbe, 0xb4, 0xd9};
/** Size of a frame's header: magic + size. */
inline constexpr size_t kBlockFileFrameHeaderSize = 8;
/** Largest block a frame may hold: Core's MAX_BLOCK_SERIALIZED_SIZE (consensus/consensus.h),
 *  4,000,000 bytes, which LoadExternalBlockFile also applies to a frame's size. */
inline constexpr uint32_t kMaxBlockSerializedSize = 4000000;

/** One frame of a block file: where its block's bytes are. */
struct BlockFileFrame {
    size_t frame_offset = 0;  // byte offset of the frame (its magic) in the file
    size_t offset = 0;        // byte offset of the block's first byte (frame_offset + 8)
    size_t size = 0;          // the block's bytes
};

/** What ReadBlockFile found: every whole frame up to the first bad one, and the error at that
 *  one (std::nullopt when the file ended cleanly after a frame). */
struct BlockFile {
    std::vector<BlockFileFrame> frames;
    std::optional<Error> error;
};

/** Splits `data[0..len)` into frames (layout above). Never throws for bad data: the first frame
 *  that is not whole and sound becomes `error`, whose reason names the frame's index (0-based)
 *  and whose location's byte_offset is the frame's offset in the file:
 *    "block file frame K at byte B: only R bytes left, fewer than the 8 of a frame header";
 *    "block file frame K at byte B: magic xx xx xx xx is not mainnet's f9 be b4 d9";
 *    "block file frame K at byte B: size N is below 80 (a header) or above 4000000
 *     (MAX_BLOCK_SERIALIZED_SIZE)";
 *    "block file frame K at byte B: size N runs past the end of the file (R bytes left)".
 *  The frames before it are returned. An empty file gives no frame and no error. */
BlockFile ReadBlockFile(const uint8_t* data, size_t len);

}  // namespace ibd
