// Implementation of hex.h.
#include "primitives/hex.h"

#include "util/error.h"

namespace ibd {

namespace {

constexpr char kDigits[] = "0123456789abcdef";

/** Value of one hex digit, or -1. */
int HexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/** Index of the first non-hex character, or hex.size() when all are hex digits. */
size_t FirstNonHex(std::string_view hex) {
    for (size_t i = 0; i < hex.size(); ++i) {
        if (HexValue(hex[i]) < 0) return i;
    }
    return hex.size();
}

}  // namespace

std::string HexEncode(const uint8_t* data, size_t len) {
    std::string out(len * 2, '0');
    for (size_t i = 0; i < len; ++i) {
        out[2 * i] = kDigits[data[i] >> 4];
        out[2 * i + 1] = kDigits[data[i] & 0x0f];
    }
    return out;
}

std::string HexEncodeReversed(const uint8_t* data, size_t len) {
    std::string out(len * 2, '0');
    for (size_t i = 0; i < len; ++i) {
        const uint8_t b = data[len - 1 - i];
        out[2 * i] = kDigits[b >> 4];
        out[2 * i + 1] = kDigits[b & 0x0f];
    }
    return out;
}

bool TryHexDecode(std::string_view hex, std::vector<uint8_t>& out) {
    if (hex.size() % 2 != 0) return false;
    out.resize(hex.size() / 2);
    for (size_t i = 0; i < out.size(); ++i) {
        const int hi = HexValue(hex[2 * i]);
        const int lo = HexValue(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) return false;
        out[i] = static_cast<uint8_t>((hi << 4) | lo);
    }
    return true;
}

std::vector<uint8_t> HexDecode(std::string_view hex) {
    std::vector<uint8_t> out;
    if (TryHexDecode(hex, out)) return out;
    Location where;
    const size_t bad = FirstNonHex(hex);
    if (bad < hex.size()) {
        where.byte_offset = static_cast<int64_t>(bad);
        throw Error("invalid hex: non-hex character", where);
    }
    where.byte_offset = static_cast<int64_t>(hex.size());
    throw Error("invalid hex: odd number of digits (" + std::to_string(hex.size()) + ")", where);
}

bool TryParseHashDisplayHex(std::string_view hex, std::array<uint8_t, 32>& out) {
    if (hex.size() != 64) return false;
    std::vector<uint8_t> bytes;
    if (!TryHexDecode(hex, bytes)) return false;
    for (size_t i = 0; i < 32; ++i) out[i] = bytes[31 - i];
    return true;
}

}  // namespace ibd
