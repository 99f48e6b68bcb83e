// Test helpers: hex decoding and packing of check records (layout: native/verify/check_buffer.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "verify/check_buffer.h"

namespace ibd::test {

/** Decodes hex (either case, even length) into bytes; throws std::invalid_argument otherwise. */
inline std::vector<uint8_t> Unhex(const std::string& hex) {
    auto nibble = [&](char c) -> uint8_t {
        if (c >= '0' && c <= '9') return static_cast<uint8_t>(c - '0');
        if (c >= 'a' && c <= 'f') return static_cast<uint8_t>(c - 'a' + 10);
        if (c >= 'A' && c <= 'F') return static_cast<uint8_t>(c - 'A' + 10);
        throw std::invalid_argument("not hex: " + hex);
    };
    if (hex.size() % 2 != 0) throw std::invalid_argument("odd-length hex: " + hex);
    std::vector<uint8_t> out(hex.size() / 2);
    for (size_t i = 0; i < out.size(); ++i) {
        out[i] = static_cast<uint8_t>(nibble(hex[2 * i]) << 4 | nibble(hex[2 * i + 1]));
    }
    return out;
}

/** Appends one record: type, pubkey_len, sig_len (LE16), msg32, pubkey, sig. The lengths are
 *  written as given (truncated to their field widths), so callers can build malformed records. */
inline void AppendRecord(std::vector<uint8_t>& buf, uint8_t type, const std::vector<uint8_t>& msg32,
                         const std::vector<uint8_t>& pubkey, const std::vector<uint8_t>& sig) {
    if (msg32.size() != 32) throw std::invalid_argument("msg32 must be 32 bytes");
    buf.push_back(type);
    buf.push_back(static_cast<uint8_t>(pubkey.size()));
    buf.push_back(static_cast<uint8_t>(sig.size() & 0xff));
    buf.push_back(static_cast<uint8_t>(sig.size() >> 8));
    buf.insert(buf.end(), msg32.begin(), msg32.end());
    buf.insert(buf.end(), pubkey.begin(), pubkey.end());
    buf.insert(buf.end(), sig.begin(), sig.end());
}

inline void AppendEcdsa(std::vector<uint8_t>& buf, const std::vector<uint8_t>& msg32,
                        const std::vector<uint8_t>& pubkey, const std::vector<uint8_t>& der_sig) {
    AppendRecord(buf, static_cast<uint8_t>(CheckType::kEcdsa), msg32, pubkey, der_sig);
}

/** One record of a packed, well-formed check buffer, as views into it. */
struct RecordView {
    uint8_t type;
    const uint8_t* msg32;
    const uint8_t* pubkey;
    size_t pubkey_len;
    const uint8_t* sig;
    size_t sig_len;
};

/** Calls f(const RecordView&, size_t index) for each of the `count` records of `checks` (a buffer
 *  the engine wrote, e.g. BlockValidationResult::checks: well formed, not checked here). */
template <typename F>
void ForEachRecord(const std::vector<uint8_t>& checks, size_t count, F f) {
    size_t offset = 0;
    for (size_t i = 0; i < count; ++i) {
        const uint8_t* rec = checks.data() + offset;
        const size_t pubkey_len = rec[1];
        const size_t sig_len = static_cast<size_t>(rec[2]) | (static_cast<size_t>(rec[3]) << 8);
        const uint8_t* pubkey = rec + kCheckHeaderSize;
        f(RecordView{rec[0], rec + 4, pubkey, pubkey_len, pubkey + pubkey_len, sig_len}, i);
        offset += kCheckHeaderSize + pubkey_len + sig_len;
    }
}

inline void AppendSchnorr(std::vector<uint8_t>& buf, const std::vector<uint8_t>& msg32,
                          const std::vector<uint8_t>& xonly_pubkey, const std::vector<uint8_t>& sig64) {
    AppendRecord(buf, static_cast<uint8_t>(CheckType::kSchnorr), msg32, xonly_pubkey, sig64);
}

}  // namespace ibd::test
