// Implementation of sigops.h.
#include "script/sigops.h"

#include "script/interpreter.h"
#include "script/script.h"

namespace ibd {

namespace {

/** The data of the last opcode of `script` (empty for a non-push). Callers have checked that
 *  every opcode parses. */
std::vector<uint8_t> LastPush(const std::vector<uint8_t>& script) {
    const uint8_t* pc = script.data();
    const uint8_t* end = pc + script.size();
    const uint8_t* data = nullptr;
    size_t len = 0;
    uint8_t op = 0;
    while (pc < end && GetScriptOp(pc, end, op, &data, &len)) {
    }
    return data ? std::vector<uint8_t>(data, data + len) : std::vector<uint8_t>{};
}

/** Core's WitnessSigOps: the sigops of a witness program of `version`. */
uint32_t WitnessSigOps(int version, size_t program_len, const std::vector<std::vector<uint8_t>>& witness) {
    if (version != 0) return 0;
    if (program_len == 20) return 1;
    if (program_len == 32 && !witness.empty()) return GetSigOpCount(witness.back(), true);
    return 0;
}

}  // namespace

uint32_t GetSigOpCount(const std::vector<uint8_t>& script, bool accurate) {
    uint32_t n = 0;
    const uint8_t* pc = script.data();
    const uint8_t* end = pc + script.size();
    uint8_t last = OP_INVALIDOPCODE;
    uint8_t op = 0;
    while (pc < end) {
        if (!GetScriptOp(pc, end, op)) break;
        if (op == OP_CHECKSIG || op == OP_CHECKSIGVERIFY) {
            ++n;
        } else if (op == OP_CHECKMULTISIG || op == OP_CHECKMULTISIGVERIFY) {
            if (accurate && last >= OP_1 && last <= OP_16) {
                n += static_cast<uint32_t>(last - OP_1 + 1);
            } else {
                n += static_cast<uint32_t>(kMaxPubkeysPerMultisig);
            }
        }
        last = op;
    }
    return n;
}

uint32_t GetP2SHScriptSigOpCount(const std::vector<uint8_t>& script_pubkey, const std::vector<uint8_t>& script_sig) {
    if (!IsPayToScriptHash(script_pubkey)) return GetSigOpCount(script_pubkey, true);
    const uint8_t* pc = script_sig.data();
    const uint8_t* end = pc + script_sig.size();
    uint8_t op = 0;
    while (pc < end) {
        if (!GetScriptOp(pc, end, op)) return 0;
        if (op > OP_16) return 0;
    }
    return GetSigOpCount(LastPush(script_sig), true);
}

uint32_t CountWitnessSigOps(const std::vector<uint8_t>& script_sig, const std::vector<uint8_t>& script_pubkey,
                            const std::vector<std::vector<uint8_t>>& witness, uint32_t flags) {
    if ((flags & SCRIPT_VERIFY_WITNESS) == 0) return 0;
    int version = 0;
    const uint8_t* program = nullptr;
    size_t program_len = 0;
    if (IsWitnessProgram(script_pubkey, version, program, program_len)) {
        return WitnessSigOps(version, program_len, witness);
    }
    if (IsPayToScriptHash(script_pubkey) && IsPushOnly(script_sig)) {
        const std::vector<uint8_t> redeem = LastPush(script_sig);
        if (IsWitnessProgram(redeem, version, program, program_len)) return WitnessSigOps(version, program_len, witness);
    }
    return 0;
}

}  // namespace ibd
