// Implementation of the Reader in serialize.h.
#include "primitives/serialize.h"

namespace ibd {

namespace {

/** "non-canonical CompactSize for <what>: <prefix> form holding <value>, which a shorter form holds". */
std::string NonCanonical(const char* what, const char* prefix, uint64_t value) {
    return std::string("non-canonical CompactSize for ") + what + ": " + prefix + " form holding " +
           std::to_string(value) + ", which a shorter form holds";
}

}  // namespace

void Reader::Fail(const std::string& reason, size_t at) const {
    Location where;
    where.byte_offset = static_cast<int64_t>(at);
    throw Error(reason, where);
}

void Reader::Need(size_t n, const char* what) const {
    if (n > remaining()) {
        Fail(std::string("unexpected end of data reading ") + what + ": need " + std::to_string(n) +
                 " bytes, " + std::to_string(remaining()) + " left",
             offset());
    }
}

uint8_t Reader::ReadU8(const char* what) {
    Need(1, what);
    return data_[pos_++];
}

uint16_t Reader::ReadLE16(const char* what) {
    const uint8_t* p = ReadBytes(2, what);
    return static_cast<uint16_t>(p[0] | (p[1] << 8));
}

uint32_t Reader::ReadLE32(const char* what) {
    const uint8_t* p = ReadBytes(4, what);
    return uint32_t(p[0]) | (uint32_t(p[1]) << 8) | (uint32_t(p[2]) << 16) | (uint32_t(p[3]) << 24);
}

uint64_t Reader::ReadLE64(const char* what) {
    const uint8_t* p = ReadBytes(8, what);
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}

const uint8_t* Reader::ReadBytes(size_t n, const char* what) {
    Need(n, what);
    const uint8_t* p = data_ + pos_;
    pos_ += n;
    return p;
}

uint64_t Reader::ReadCompactSize(const char* what, bool range_check) {
    const size_t start = offset();
    const uint8_t first = ReadU8(what);
    uint64_t value;
    if (first < 0xfd) {
        value = first;
    } else if (first == 0xfd) {
        value = ReadLE16(what);
        if (value < 0xfd) Fail(NonCanonical(what, "0xfd", value), start);
    } else if (first == 0xfe) {
        value = ReadLE32(what);
        if (value < 0x10000) Fail(NonCanonical(what, "0xfe", value), start);
    } else {
        value = ReadLE64(what);
        if (value < 0x100000000ULL) Fail(NonCanonical(what, "0xff", value), start);
    }
    if (range_check && value > kMaxSize) {
        Fail(std::string("CompactSize for ") + what + " too large: " + std::to_string(value) + " > " +
                 std::to_string(kMaxSize),
             start);
    }
    return value;
}

uint64_t Reader::ReadVarInt(const char* what, uint64_t max) {
    const size_t start = offset();
    uint64_t n = 0;
    for (;;) {
        const uint8_t ch = ReadU8(what);
        if (n > (max >> 7)) Fail(std::string("VARINT for ") + what + " too large (above " + std::to_string(max) + ")", start);
        n = (n << 7) | (ch & 0x7f);
        if (n > max) Fail(std::string("VARINT for ") + what + " too large (above " + std::to_string(max) + ")", start);
        if (!(ch & 0x80)) return n;
        if (n == max) Fail(std::string("VARINT for ") + what + " too large (above " + std::to_string(max) + ")", start);
        ++n;
    }
}

size_t Reader::ReadCount(const char* what, size_t min_item_size) {
    const size_t start = offset();
    const uint64_t count = ReadCompactSize(what);
    if (min_item_size == 0) min_item_size = 1;
    // count <= kMaxSize (2^25), so the product cannot overflow 64 bits for item sizes < 2^38.
    if (count * static_cast<uint64_t>(min_item_size) > remaining()) {
        Fail(std::string(what) + ": CompactSize says " + std::to_string(count) + " (at least " +
                 std::to_string(count * static_cast<uint64_t>(min_item_size)) + " bytes), only " +
                 std::to_string(remaining()) + " bytes left",
             start);
    }
    return static_cast<size_t>(count);
}

std::vector<uint8_t> Reader::ReadVarBytes(const char* what) {
    const size_t len = ReadCount(what, 1);
    const uint8_t* p = ReadBytes(len, what);
    return std::vector<uint8_t>(p, p + len);
}

size_t Reader::SkipVarBytes(const char* what) {
    const size_t len = ReadCount(what, 1);
    ReadBytes(len, what);
    return len;
}

}  // namespace ibd
