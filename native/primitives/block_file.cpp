// Implementation of block_file.h.
#include "primitives/block_file.h"

#include <string>

#include "primitives/block.h"
#include "primitives/hex.h"

namespace ibd {

BlockFile ReadBlockFile(const uint8_t* data, size_t len) {
    BlockFile out;
    size_t pos = 0;
    while (pos < len) {
        const std::string where =
            "block file frame " + std::to_string(out.frames.size()) + " at byte " + std::to_string(pos) + ": ";
        Location at;
        at.byte_offset = static_cast<int64_t>(pos);
        const size_t left = len - pos;
        if (left < kBlockFileFrameHeaderSize) {
            out.error = Error(where + "only " + std::to_string(left) + " bytes left, fewer than the " +
                                  std::to_string(kBlockFileFrameHeaderSize) + " of a frame header",
                              at);
            return out;
        }
        const uint8_t* p = data + pos;
        if (p[0] != kMainnetMagic[0] || p[1] != kMainnetMagic[1] || p[2] != kMainnetMagic[2] || p[3] != kMainnetMagic[3]) {
            const std::string magic = HexEncode(p, 1) + " " + HexEncode(p + 1, 1) + " " + HexEncode(p + 2, 1) + " " +
                                      HexEncode(p + 3, 1);
            out.error = Error(where + "magic " + magic + " is not mainnet's f9 be b4 d9", at);
            return out;
        }
        const uint32_t size = static_cast<uint32_t>(p[4]) | static_cast<uint32_t>(p[5]) << 8 |
                              static_cast<uint32_t>(p[6]) << 16 | static_cast<uint32_t>(p[7]) << 24;
        if (size < kBlockHeaderSize || size > kMaxBlockSerializedSize) {
            out.error = Error(where + "size " + std::to_string(size) + " is below " + std::to_string(kBlockHeaderSize) +
                                  " (a header) or above " + std::to_string(kMaxBlockSerializedSize) +
                                  " (MAX_BLOCK_SERIALIZED_SIZE)",
                              at);
            return out;
        }
        if (size > left - kBlockFileFrameHeaderSize) {
            out.error = Error(where + "size " + std::to_string(size) + " runs past the end of the file (" +
                                  std::to_string(left - kBlockFileFrameHeaderSize) + " bytes left)",
                              at);
            return out;
        }
        out.frames.push_back({pos, pos + kBlockFileFrameHeaderSize, size});
        pos += kBlockFileFrameHeaderSize + size;
    }
    return out;
}

}  // namespace ibd
