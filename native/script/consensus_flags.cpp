// Implementation of consensus_flags.h.
#include "script/consensus_flags.h"

#include <string>

#include "primitives/hex.h"
#include "script/interpreter.h"
#include "script/script.h"

namespace ibd {

uint32_t GetBlockScriptVerifyFlags(const Hash32& block_hash, int32_t height) {
    static const char* const kBip16Exception = "00000000000002dc756eebf4f49723ed8d30cc28a5f108eb94b1ba88ac4f9c22";
    static const char* const kTaprootException = "0000000000000000000f14c35b2d841e986ab5441de8c585d5ffe55ea1e395ad";
    const std::string hex = HexEncodeReversed(block_hash);
    uint32_t flags = SCRIPT_VERIFY_P2SH | SCRIPT_VERIFY_WITNESS | SCRIPT_VERIFY_TAPROOT;
    if (hex == kBip16Exception) {
        flags = SCRIPT_VERIFY_NONE;
    } else if (hex == kTaprootException) {
        flags = SCRIPT_VERIFY_P2SH | SCRIPT_VERIFY_WITNESS;
    }
    // Core adds the buried deployments after applying the exception (DeploymentActiveAt).
    if (height >= kBip66Height) flags |= SCRIPT_VERIFY_DERSIG;
    if (height >= kBip65Height) flags |= SCRIPT_VERIFY_CHECKLOCKTIMEVERIFY;
    if (height >= kCsvHeight) flags |= SCRIPT_VERIFY_CHECKSEQUENCEVERIFY;
    if (height >= kSegwitHeight) flags |= SCRIPT_VERIFY_NULLDUMMY;
    return flags;
}

std::vector<uint8_t> SerializeScriptHeight(int32_t height) {
    if (height == 0) return {OP_0};
    if (height >= 1 && height <= 16) return {static_cast<uint8_t>(OP_1 + height - 1)};
    std::vector<uint8_t> num;
    for (uint32_t v = static_cast<uint32_t>(height); v != 0; v >>= 8) num.push_back(static_cast<uint8_t>(v & 0xff));
    if (num.back() & 0x80) num.push_back(0x00);  // keep it positive
    return SerializePush(num.data(), num.size());
}

}  // namespace ibd
