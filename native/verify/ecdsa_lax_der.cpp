#include "verify/ecdsa_lax_der.h"

#include <cstring>

namespace ibd {
namespace {

/** A bounds-checked read position over the signature bytes. */
struct Reader {
    const uint8_t* data;
    size_t len;
    size_t pos = 0;

    size_t remaining() const { return len - pos; }
    /** Consumes one byte into `*out`; false at the end of input. */
    bool take(uint8_t* out) {
        if (pos >= len) return false;
        *out = data[pos++];
        return true;
    }
    /** Consumes `tag`; false at the end of input or on another byte. */
    bool expect(uint8_t tag) {
        uint8_t b;
        return take(&b) && b == tag;
    }
};

/** Reads the length of an INTEGER as Core does: short form (< 0x80) is the value; long form
 *  0x80|n is followed by n big-endian bytes, all inside the input, of which leading zeros are
 *  dropped and at most 3 may remain (so the value stays below 2^24). The value read must fit in
 *  what is left of the input. */
bool ReadIntegerLength(Reader& in, size_t* out) {
    uint8_t first;
    if (!in.take(&first)) return false;
    size_t value = first;
    if (first & 0x80) {
        size_t count = first & 0x7f;
        if (count > in.remaining()) return false;
        while (count > 0 && in.data[in.pos] == 0) {  // in.pos < len: count <= remaining
            ++in.pos;
            --count;
        }
        if (count >= 4) return false;
        value = 0;
        for (; count > 0; --count) value = (value << 8) | in.data[in.pos++];
    }
    if (value > in.remaining()) return false;
    *out = value;
    return true;
}

/** Drops leading zero bytes of the integer at data[*begin .. *begin + *size). */
void StripLeadingZeros(const uint8_t* data, size_t* begin, size_t* size) {
    while (*size > 0 && data[*begin] == 0) {
        ++*begin;
        --*size;
    }
}

/** Sets `*sig` to (r, s) = (0, 0): a signature that parses but never verifies. */
void SetZero(secp256k1_ecdsa_signature* sig) {
    static const uint8_t kZero64[64] = {0};
    secp256k1_ecdsa_signature_parse_compact(secp256k1_context_static, sig, kZero64);
}

}  // namespace

bool EcdsaSignatureParseDerLax(const uint8_t* der, size_t der_len, secp256k1_ecdsa_signature* sig) {
    SetZero(sig);
    if (der == nullptr) der_len = 0;
    Reader in{der, der_len};

    // SEQUENCE tag, then its length: short form ignored, long form's length bytes skipped.
    if (!in.expect(0x30)) return false;
    uint8_t seq_len;
    if (!in.take(&seq_len)) return false;
    if (seq_len & 0x80) {
        size_t skip = seq_len & 0x7f;
        if (skip > in.remaining()) return false;
        in.pos += skip;
    }

    // INTEGER r.
    size_t r_begin, r_size;
    if (!in.expect(0x02) || !ReadIntegerLength(in, &r_size)) return false;
    r_begin = in.pos;
    in.pos += r_size;  // ReadIntegerLength checked r_size <= remaining

    // INTEGER s; anything after it is ignored.
    size_t s_begin, s_size;
    if (!in.expect(0x02) || !ReadIntegerLength(in, &s_size)) return false;
    s_begin = in.pos;

    StripLeadingZeros(der, &r_begin, &r_size);
    StripLeadingZeros(der, &s_begin, &s_size);
    if (r_size > 32 || s_size > 32) return true;  // overflow: (0, 0), as Core

    // Right-align both into r||s (64 bytes); parse_compact rejects r or s >= n.
    uint8_t compact[64] = {0};
    std::memcpy(compact + 32 - r_size, der + r_begin, r_size);
    std::memcpy(compact + 64 - s_size, der + s_begin, s_size);
    if (!secp256k1_ecdsa_signature_parse_compact(secp256k1_context_static, sig, compact)) {
        SetZero(sig);  // r or s >= n: (0, 0), as Core
    }
    return true;
}

namespace {

/** A DER INTEGER body of `n` bytes at `p` is positive and minimal: not empty, top bit of the
 *  first byte clear, and no 0x00 first byte unless the second byte needs it (top bit set). */
bool IsStrictDerInteger(const uint8_t* p, size_t n) {
    if (n == 0) return false;
    if (p[0] & 0x80) return false;
    if (n >= 2 && p[0] == 0x00 && (p[1] & 0x80) == 0) return false;
    return true;
}

}  // namespace

bool IsValidSignatureEncoding(const uint8_t* sig, size_t len) {
    // Smallest: 30 06 02 01 R 02 01 S ht (9 bytes); largest: two 33-byte integers (73 bytes).
    if (len < 9 || len > 73) return false;
    if (sig[0] != 0x30) return false;
    if (sig[1] != len - 3) return false;  // the sequence is everything but 30, L and hash_type
    if (sig[2] != 0x02) return false;
    const size_t len_r = sig[3];
    // R occupies [4, 4 + len_r); then 0x02, lenS and S, then the hash_type byte: the S tag and
    // length must lie before the last byte.
    if (4 + len_r + 2 > len - 1) return false;
    if (sig[4 + len_r] != 0x02) return false;
    const size_t len_s = sig[5 + len_r];
    if (len_r + len_s + 7 != len) return false;  // nothing missing, nothing left over
    return IsStrictDerInteger(sig + 4, len_r) && IsStrictDerInteger(sig + 6 + len_r, len_s);
}

}  // namespace ibd
