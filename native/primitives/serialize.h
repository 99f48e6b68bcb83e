// Bitcoin's wire serialization: a bounds-checked byte Reader that knows its byte offset, and the
// matching little-endian / CompactSize writers (Core's serialize.h). Every read failure throws
// ibd::Error whose location carries the absolute byte offset of the failing read.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "util/error.h"

namespace ibd {

/** Largest CompactSize accepted for a length or count (Core's MAX_SIZE, serialize.h). */
constexpr uint64_t kMaxSize = 0x02000000;

/** The uint32 stored little-endian at `p` (4 bytes the caller has checked are there). */
inline uint32_t LoadLE32(const uint8_t* p) {
    return uint32_t(p[0]) | (uint32_t(p[1]) << 8) | (uint32_t(p[2]) << 16) | (uint32_t(p[3]) << 24);
}

/** Reads little-endian integers, byte strings and CompactSizes from `data[0..len)`.
 *  `base_offset` is added to every reported offset, so a Reader over a slice of a file still
 *  names file offsets. The Reader never reads outside the buffer; it does not own it. */
class Reader {
public:
    Reader(const uint8_t* data, size_t len, size_t base_offset = 0)
        : data_(data), len_(len), base_(base_offset) {}

    /** Absolute offset of the next byte to read (base_offset + bytes consumed). */
    size_t offset() const { return base_ + pos_; }
    /** Bytes consumed from the start of this Reader's buffer. */
    size_t pos() const { return pos_; }
    size_t remaining() const { return len_ - pos_; }
    bool empty() const { return pos_ == len_; }
    /** Start of the buffer and the next unread byte (for hashing consumed ranges). */
    const uint8_t* data() const { return data_; }
    const uint8_t* cursor() const { return data_ + pos_; }

    /** Throws Error("unexpected end of data reading <what>: need N bytes, R left", offset())
     *  unless at least `n` bytes remain. */
    void Need(size_t n, const char* what) const;

    /** 1-byte unsigned. */
    uint8_t ReadU8(const char* what);
    /** 2 / 4 / 8-byte little-endian unsigned. */
    uint16_t ReadLE16(const char* what);
    uint32_t ReadLE32(const char* what);
    uint64_t ReadLE64(const char* what);
    /** 4 / 8-byte little-endian two's complement (nVersion, CTxOut::nValue). */
    int32_t ReadI32(const char* what) { return static_cast<int32_t>(ReadLE32(what)); }
    int64_t ReadI64(const char* what) { return static_cast<int64_t>(ReadLE64(what)); }

    /** Consumes `n` bytes and returns a pointer to them inside the buffer. */
    const uint8_t* ReadBytes(size_t n, const char* what);
    /** Copies N bytes into `out` (hashes, outpoint txids). */
    template <size_t N>
    void ReadArray(std::array<uint8_t, N>& out, const char* what) {
        const uint8_t* p = ReadBytes(N, what);
        for (size_t i = 0; i < N; ++i) out[i] = p[i];
    }

    /** Core's ReadCompactSize(range_check = true) (serialize.h):
     *    first byte < 0xfd          -> that value (1 byte)
     *    0xfd + uint16 LE >= 0xfd   -> 3 bytes
     *    0xfe + uint32 LE >= 0x10000 -> 5 bytes
     *    0xff + uint64 LE >= 2^32   -> 9 bytes
     *  Throws Error at the offset of the first byte: truncated; "non-canonical CompactSize"
     *  when a shorter form could hold the value; "CompactSize too large" above kMaxSize when
     *  `range_check` is set. */
    uint64_t ReadCompactSize(const char* what, bool range_check = true);

    /** Core's VARINT (serialize.h ReadVarInt, VarIntMode::DEFAULT), the undo data's and the
     *  block index's integers: base-128 digits, most significant first, 0x80 set on every byte
     *  but the last, and each continuation adding one (so that every value has one encoding):
     *  0 -> 00, 127 -> 7f, 128 -> 80 00, 255 -> 80 7f, 16511 -> ff 7f. Throws Error at the
     *  offset of its first byte when it is truncated or its value passes `max` ("VARINT for
     *  <what> too large", Core's "ReadVarInt(): size too large"). */
    uint64_t ReadVarInt(const char* what, uint64_t max = UINT64_MAX);

    /** A CompactSize count of items each at least `min_item_size` (>= 1) bytes long. Besides
     *  ReadCompactSize's checks, throws Error when count * min_item_size exceeds the bytes left,
     *  so that a lying count can never make the caller allocate or loop past the data. */
    size_t ReadCount(const char* what, size_t min_item_size);

    /** A CompactSize length followed by that many bytes (scripts, witness items). Throws Error
     *  when the length exceeds the bytes left. */
    std::vector<uint8_t> ReadVarBytes(const char* what);
    /** ReadVarBytes' reads and errors without the copy: the bytes are passed over. Returns the
     *  length. */
    size_t SkipVarBytes(const char* what);

    /** Passes over `n` bytes when at least that many remain and returns true; otherwise reads
     *  nothing and returns false. Never throws, and inline: the skims' fast paths
     *  (SkimTransaction, ParseSpentOutputsBinary) use it outside any try block, where a call
     *  that may throw costs an exception-handling trampoline per call in a wasm build with
     *  JavaScript-based exceptions. */
    bool TrySkip(size_t n) {
        if (remaining() < n) return false;
        pos_ += n;
        return true;
    }
    /** The CompactSize at the cursor when it is one byte (below 0xfd, always canonical) and
     *  `skip` more bytes remain after it: sets `value`, reads nothing, returns true; false
     *  otherwise (the caller then makes the checked read). Never throws. */
    bool PeekShortCompactSize(size_t skip, size_t& value) const {
        if (remaining() <= skip || data_[pos_ + skip] >= 0xfd) return false;
        value = data_[pos_ + skip];
        return true;
    }

    /** Throws Error(reason) located at absolute offset `at`. */
    [[noreturn]] void Fail(const std::string& reason, size_t at) const;

private:
    const uint8_t* data_;
    size_t len_;
    size_t base_;
    size_t pos_ = 0;
};

/** Appends bytes to a std::vector; the writers below accept it or any hasher with
 *  Write(const uint8_t*, size_t) (Sha256), so sighash preimages stream straight into SHA-256. */
struct VectorSink {
    std::vector<uint8_t>& out;
    VectorSink& Write(const uint8_t* data, size_t len) {
        out.insert(out.end(), data, data + len);
        return *this;
    }
};

/** Counts the bytes written instead of keeping them: the size of a serialization, by the same
 *  writers that produce it. */
struct CountingSink {
    size_t bytes = 0;
    CountingSink& Write(const uint8_t*, size_t len) {
        bytes += len;
        return *this;
    }
};

template <typename Sink>
void WriteU8(Sink& s, uint8_t v) {
    s.Write(&v, 1);
}
template <typename Sink>
void WriteLE16(Sink& s, uint16_t v) {
    const uint8_t b[2] = {uint8_t(v), uint8_t(v >> 8)};
    s.Write(b, 2);
}
template <typename Sink>
void WriteLE32(Sink& s, uint32_t v) {
    const uint8_t b[4] = {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
    s.Write(b, 4);
}
template <typename Sink>
void WriteLE64(Sink& s, uint64_t v) {
    WriteLE32(s, static_cast<uint32_t>(v));
    WriteLE32(s, static_cast<uint32_t>(v >> 32));
}

/** Bytes WriteCompactSize writes for `n`: 1, 3, 5 or 9. */
constexpr size_t CompactSizeLength(uint64_t n) {
    return n < 0xfd ? 1 : n <= 0xffff ? 3 : n <= 0xffffffffu ? 5 : 9;
}

/** Core's WriteCompactSize: the shortest of the four forms described at ReadCompactSize. */
template <typename Sink>
void WriteCompactSize(Sink& s, uint64_t n) {
    if (n < 0xfd) {
        WriteU8(s, static_cast<uint8_t>(n));
    } else if (n <= 0xffff) {
        WriteU8(s, 0xfd);
        WriteLE16(s, static_cast<uint16_t>(n));
    } else if (n <= 0xffffffffu) {
        WriteU8(s, 0xfe);
        WriteLE32(s, static_cast<uint32_t>(n));
    } else {
        WriteU8(s, 0xff);
        WriteLE64(s, n);
    }
}

/** CompactSize length then the bytes: how Core serializes a CScript or a witness item. */
/** Core's WriteVarInt (VarIntMode::DEFAULT): the encoding Reader::ReadVarInt reads. */
template <typename Sink>
void WriteVarInt(Sink& s, uint64_t n) {
    uint8_t digits[10];  // ceil(64 / 7)
    size_t len = 0;
    for (;;) {
        digits[len] = static_cast<uint8_t>((n & 0x7f) | (len ? 0x80 : 0x00));
        if (n <= 0x7f) break;
        n = (n >> 7) - 1;
        ++len;
    }
    for (size_t i = len + 1; i-- > 0;) WriteU8(s, digits[i]);
}

template <typename Sink>
void WriteVarBytes(Sink& s, const uint8_t* data, size_t len) {
    WriteCompactSize(s, len);
    if (len != 0) s.Write(data, len);
}
template <typename Sink>
void WriteVarBytes(Sink& s, const std::vector<uint8_t>& bytes) {
    WriteVarBytes(s, bytes.data(), bytes.size());
}

}  // namespace ibd
