// Hexadecimal text <-> bytes, in the two orders Bitcoin uses:
//   - plain hex: byte i is characters 2i, 2i+1 (scripts, raw transactions, signatures);
//   - display hex: the bytes reversed, as Bitcoin Core's uint256::GetHex() prints txids and
//     block hashes (internal byte order is the order SHA256d produces).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ibd {

/** Lowercase hex of `len` bytes at `data`: 2*len characters. */
std::string HexEncode(const uint8_t* data, size_t len);
inline std::string HexEncode(const std::vector<uint8_t>& bytes) { return HexEncode(bytes.data(), bytes.size()); }
template <size_t N>
std::string HexEncode(const std::array<uint8_t, N>& bytes) { return HexEncode(bytes.data(), N); }

/** Display hex (Core's uint256::GetHex): lowercase hex of the bytes in reverse order. A 32-byte
 *  hash in internal order (as hashed / serialized) gives the 64-character txid / block hash. */
std::string HexEncodeReversed(const uint8_t* data, size_t len);
template <size_t N>
std::string HexEncodeReversed(const std::array<uint8_t, N>& bytes) { return HexEncodeReversed(bytes.data(), N); }

/** Decodes plain hex (either case, no prefix, no whitespace) into `out`. Returns false, leaving
 *  `out` unspecified, on an odd length or a non-hex character. Never throws. */
bool TryHexDecode(std::string_view hex, std::vector<uint8_t>& out);

/** Decodes plain hex. Throws ibd::Error ("invalid hex: ...", byte_offset = index of the first bad
 *  character in `hex`, or its length for an odd length) on malformed input. */
std::vector<uint8_t> HexDecode(std::string_view hex);

/** Decodes a 64-character display hex hash (txid, block hash) into internal byte order: the
 *  result is the reverse of the decoded bytes. Returns false on a wrong length or a non-hex
 *  character. Never throws. */
bool TryParseHashDisplayHex(std::string_view hex, std::array<uint8_t, 32>& out);

}  // namespace ibd
