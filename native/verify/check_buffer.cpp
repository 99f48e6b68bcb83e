// Implementation of check_buffer.h: writing one record.
#include "verify/check_buffer.h"

namespace ibd {

void AppendCheckRecord(std::vector<uint8_t>& buf, CheckType type, const uint8_t* pubkey, size_t pubkey_len,
                       const uint8_t* sig, size_t sig_len, const Hash32& msg32) {
    buf.push_back(static_cast<uint8_t>(type));
    buf.push_back(static_cast<uint8_t>(pubkey_len));
    buf.push_back(static_cast<uint8_t>(sig_len));
    buf.push_back(static_cast<uint8_t>(sig_len >> 8));
    buf.insert(buf.end(), msg32.begin(), msg32.end());
    if (pubkey_len) buf.insert(buf.end(), pubkey, pubkey + pubkey_len);
    if (sig_len) buf.insert(buf.end(), sig, sig + sig_len);
}

}  // namespace ibd
