// Implementation of script.h, following Core's script/script.cpp, script/solver.cpp and
// script/interpreter.cpp.
#include "script/script.h"

#include <cstring>

namespace ibd {

bool GetScriptOp(const uint8_t*& pc, const uint8_t* end, uint8_t& opcode, const uint8_t** push, size_t* push_len) {
    if (pc >= end) return false;
    opcode = *pc++;
    if (push) *push = nullptr;
    if (push_len) *push_len = 0;
    if (opcode > OP_PUSHDATA4) return true;
    // Immediate operand.
    size_t n = 0;
    if (opcode < OP_PUSHDATA1) {
        n = opcode;
    } else if (opcode == OP_PUSHDATA1) {
        if (end - pc < 1) return false;
        n = pc[0];
        pc += 1;
    } else if (opcode == OP_PUSHDATA2) {
        if (end - pc < 2) return false;
        n = size_t(pc[0]) | (size_t(pc[1]) << 8);
        pc += 2;
    } else {
        if (end - pc < 4) return false;
        n = size_t(pc[0]) | (size_t(pc[1]) << 8) | (size_t(pc[2]) << 16) | (size_t(pc[3]) << 24);
        pc += 4;
    }
    if (static_cast<size_t>(end - pc) < n) return false;
    if (push) *push = pc;
    if (push_len) *push_len = n;
    pc += n;
    return true;
}

bool IsPayToScriptHash(const std::vector<uint8_t>& spk) {
    return spk.size() == 23 && spk[0] == OP_HASH160 && spk[1] == 0x14 && spk[22] == OP_EQUAL;
}

bool IsPayToPubKeyHash(const std::vector<uint8_t>& spk) {
    return spk.size() == 25 && spk[0] == OP_DUP && spk[1] == OP_HASH160 && spk[2] == 0x14 &&
           spk[23] == OP_EQUALVERIFY && spk[24] == OP_CHECKSIG;
}

bool MatchPayToPubKey(const std::vector<uint8_t>& spk, size_t& pubkey_len) {
    if (spk.size() == 35 && spk[0] == 33 && spk[34] == OP_CHECKSIG) {
        pubkey_len = 33;
        return true;
    }
    if (spk.size() == 67 && spk[0] == 65 && spk[66] == OP_CHECKSIG) {
        pubkey_len = 65;
        return true;
    }
    return false;
}

bool IsWitnessProgram(const std::vector<uint8_t>& spk, int& version, const uint8_t*& program, size_t& program_len) {
    if (spk.size() < 4 || spk.size() > 42) return false;
    if (spk[0] != OP_0 && (spk[0] < OP_1 || spk[0] > OP_16)) return false;
    if (size_t(spk[1]) + 2 != spk.size()) return false;
    version = spk[0] == OP_0 ? 0 : spk[0] - (OP_1 - 1);
    program = spk.data() + 2;
    program_len = spk[1];
    return true;
}

bool IsBareMultisig(const std::vector<uint8_t>& spk) {
    if (spk.size() < 3 || spk.back() != OP_CHECKMULTISIG) return false;
    const uint8_t first = spk[0];
    const uint8_t last = spk[spk.size() - 2];
    if (first < OP_1 || first > OP_16 || last < OP_1 || last > OP_16) return false;
    const int m = first - (OP_1 - 1);
    const int n = last - (OP_1 - 1);
    const uint8_t* pc = spk.data() + 1;
    const uint8_t* end = spk.data() + spk.size() - 2;
    int keys = 0;
    while (pc < end) {
        uint8_t op;
        const uint8_t* data;
        size_t len;
        if (!GetScriptOp(pc, end, op, &data, &len) || op == OP_0 || op > OP_PUSHDATA4) return false;
        ++keys;
    }
    return keys >= 1 && keys == n && m <= n;
}

bool CastToBool(const uint8_t* data, size_t len) {
    for (size_t i = 0; i < len; ++i) {
        if (data[i] != 0) {
            // Negative zero is still zero.
            return !(i == len - 1 && data[i] == 0x80);
        }
    }
    return false;
}

std::vector<uint8_t> SerializePush(const uint8_t* data, size_t len) {
    std::vector<uint8_t> out;
    out.reserve(len + 5);
    if (len < OP_PUSHDATA1) {
        out.push_back(static_cast<uint8_t>(len));
    } else if (len <= 0xff) {
        out.push_back(OP_PUSHDATA1);
        out.push_back(static_cast<uint8_t>(len));
    } else if (len <= 0xffff) {
        out.push_back(OP_PUSHDATA2);
        out.push_back(static_cast<uint8_t>(len));
        out.push_back(static_cast<uint8_t>(len >> 8));
    } else {
        out.push_back(OP_PUSHDATA4);
        for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(len >> (8 * i)));
    }
    out.insert(out.end(), data, data + len);
    return out;
}

int FindAndDelete(std::vector<uint8_t>& script, const std::vector<uint8_t>& pattern) {
    int found = 0;
    if (pattern.empty()) return found;
    std::vector<uint8_t> result;
    const uint8_t* begin = script.data();
    const uint8_t* end = begin + script.size();
    const uint8_t* pc = begin;
    const uint8_t* pc2 = begin;  // start of the bytes not yet copied to `result`
    uint8_t op;
    do {
        result.insert(result.end(), pc2, pc);
        while (static_cast<size_t>(end - pc) >= pattern.size() &&
               std::memcmp(pc, pattern.data(), pattern.size()) == 0) {
            pc += pattern.size();
            ++found;
        }
        pc2 = pc;
    } while (GetScriptOp(pc, end, op));
    if (found > 0) {
        result.insert(result.end(), pc2, end);
        script = std::move(result);
    }
    return found;
}

}  // namespace ibd
