// Implementation of script_type.h.
#include "script/script_type.h"

#include "script/script.h"

namespace ibd {

namespace {

/** The last push of a push-only scriptSig (the P2SH redeem script), or false. */
bool LastPush(const std::vector<uint8_t>& script_sig, std::vector<uint8_t>& out) {
    const uint8_t* pc = script_sig.data();
    const uint8_t* end = pc + script_sig.size();
    bool any = false;
    while (pc < end) {
        uint8_t op = 0;
        const uint8_t* push = nullptr;
        size_t len = 0;
        if (!GetScriptOp(pc, end, op, &push, &len)) return false;
        if (op > OP_16) return false;
        if (op <= OP_PUSHDATA4) {
            out.assign(push, push + len);
        } else {
            out.clear();  // OP_1NEGATE, OP_1..OP_16, OP_RESERVED: not a data push
        }
        any = true;
    }
    return any;
}

std::string WitnessName(int version, size_t program_len, const TxIn& in, bool nested) {
    if (version == 0 && program_len == 20) return nested ? "p2sh-p2wpkh" : "p2wpkh";
    if (version == 0 && program_len == 32) return nested ? "p2sh-p2wsh" : "p2wsh";
    if (version == 1 && program_len == 32 && !nested) {
        size_t items = in.witness.size();
        if (items >= 2 && !in.witness.back().empty() && in.witness.back()[0] == kAnnexTag) --items;
        return items == 1 ? "p2tr-keypath" : "p2tr-scriptpath";
    }
    return "witness-unknown";
}

}  // namespace

std::string InputScriptTypeName(const TxIn& in, const std::vector<uint8_t>& spk) {
    if (spk.empty()) return "empty";
    size_t pk_len = 0;
    if (MatchPayToPubKey(spk, pk_len)) return "p2pk";
    if (IsPayToPubKeyHash(spk)) return "p2pkh";
    if (IsBareMultisig(spk)) return "multisig";
    int version = 0;
    const uint8_t* program = nullptr;
    size_t program_len = 0;
    if (IsWitnessProgram(spk, version, program, program_len)) return WitnessName(version, program_len, in, false);
    if (IsPayToScriptHash(spk)) {
        std::vector<uint8_t> redeem;
        if (!LastPush(in.script_sig, redeem)) return "p2sh";
        if (IsWitnessProgram(redeem, version, program, program_len)) {
            return WitnessName(version, program_len, in, true);
        }
        if (IsBareMultisig(redeem)) return "p2sh-multisig";
        return "p2sh";
    }
    return "nonstandard";
}

}  // namespace ibd
