// Implementation of script_asm.h, following Core's ParseScript (core_read.cpp) word by word.
#include "script/script_asm.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <stdexcept>

#include "primitives/hex.h"
#include "script/interpreter.h"
#include "script/script.h"

namespace ibd {

namespace {

/** Core's GetOpName for the opcodes ParseScript knows: OP_RESERVED and OP_NOP..OP_NOP10 (Core's
 *  loop from OP_NOP to MAX_OPCODE), plus OP_CHECKSIGADD (BIP342). */
const std::map<std::string, uint8_t>& OpcodeNames() {
    static const std::map<std::string, uint8_t> names = [] {
        static const char* const kNames[] = {
            // 0x61 .. 0x6a: flow control
            "NOP", "VER", "IF", "NOTIF", "VERIF", "VERNOTIF", "ELSE", "ENDIF", "VERIFY", "RETURN",
            // 0x6b .. 0x7d: stack
            "TOALTSTACK", "FROMALTSTACK", "2DROP", "2DUP", "3DUP", "2OVER", "2ROT", "2SWAP", "IFDUP", "DEPTH",
            "DROP", "DUP", "NIP", "OVER", "PICK", "ROLL", "ROT", "SWAP", "TUCK",
            // 0x7e .. 0x82: splice
            "CAT", "SUBSTR", "LEFT", "RIGHT", "SIZE",
            // 0x83 .. 0x8a: bitwise logic
            "INVERT", "AND", "OR", "XOR", "EQUAL", "EQUALVERIFY", "RESERVED1", "RESERVED2",
            // 0x8b .. 0xa5: arithmetic
            "1ADD", "1SUB", "2MUL", "2DIV", "NEGATE", "ABS", "NOT", "0NOTEQUAL", "ADD", "SUB", "MUL", "DIV", "MOD",
            "LSHIFT", "RSHIFT", "BOOLAND", "BOOLOR", "NUMEQUAL", "NUMEQUALVERIFY", "NUMNOTEQUAL", "LESSTHAN",
            "GREATERTHAN", "LESSTHANOREQUAL", "GREATERTHANOREQUAL", "MIN", "MAX", "WITHIN",
            // 0xa6 .. 0xaf: crypto
            "RIPEMD160", "SHA1", "SHA256", "HASH160", "HASH256", "CODESEPARATOR", "CHECKSIG", "CHECKSIGVERIFY",
            "CHECKMULTISIG", "CHECKMULTISIGVERIFY",
            // 0xb0 .. 0xb9: expansion
            "NOP1", "CHECKLOCKTIMEVERIFY", "CHECKSEQUENCEVERIFY", "NOP4", "NOP5", "NOP6", "NOP7", "NOP8", "NOP9",
            "NOP10",
            // 0xba: BIP342
            "CHECKSIGADD",
        };
        std::map<std::string, uint8_t> m;
        uint8_t op = 0x61;  // OP_NOP
        for (const char* name : kNames) {
            m[name] = op;
            m[std::string("OP_") + name] = op;
            ++op;
        }
        m["RESERVED"] = m["OP_RESERVED"] = OP_RESERVED;
        return m;
    }();
    return names;
}

bool AllDigits(const std::string& s, size_t from) {
    if (from >= s.size()) return false;
    for (size_t i = from; i < s.size(); ++i) {
        if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    }
    return true;
}

void Append(std::vector<uint8_t>& script, const std::vector<uint8_t>& bytes) {
    script.insert(script.end(), bytes.begin(), bytes.end());
}

}  // namespace

bool LookupOpcodeName(const std::string& name, uint8_t& opcode) {
    const auto& names = OpcodeNames();
    const auto it = names.find(name);
    if (it == names.end()) return false;
    opcode = it->second;
    return true;
}

std::vector<uint8_t> ParseScriptAsm(const std::string& asm_text) {
    std::vector<uint8_t> script;
    // Core's SplitString(s, " \t\n"): every separator splits; empty words are skipped.
    size_t pos = 0;
    while (pos <= asm_text.size()) {
        size_t end = asm_text.find_first_of(" \t\n", pos);
        if (end == std::string::npos) end = asm_text.size();
        const std::string w = asm_text.substr(pos, end - pos);
        pos = end + 1;
        if (w.empty()) continue;

        uint8_t opcode = 0;
        if (AllDigits(w, 0) || (w[0] == '-' && AllDigits(w, 1))) {
            // Number: Core's ToIntegral<int64_t> then the range check, then `<< int64`.
            errno = 0;
            char* parse_end = nullptr;
            const long long n = std::strtoll(w.c_str(), &parse_end, 10);
            const int64_t limit = 0xffffffffLL;
            if (errno == ERANGE || *parse_end != '\0' || n > limit || n < -limit) {
                throw std::runtime_error(
                    "script parse error: decimal numeric value only allowed in the range -0xFFFFFFFF...0xFFFFFFFF");
            }
            if (n == 0) {
                script.push_back(OP_0);
            } else if (n == -1 || (n >= 1 && n <= 16)) {
                script.push_back(static_cast<uint8_t>(n + (OP_1 - 1)));  // OP_1NEGATE, OP_1..OP_16
            } else {
                const std::vector<uint8_t> bytes = ScriptNum(n).serialize();
                Append(script, SerializePush(bytes.data(), bytes.size()));
            }
        } else if (w.size() > 2 && w[0] == '0' && w[1] == 'x') {
            // Raw bytes, inserted, not pushed. Core requires IsHex (even, non-empty) here and
            // otherwise falls through to the opcode lookup, which then fails.
            std::vector<uint8_t> raw;
            if (!TryHexDecode(std::string_view(w).substr(2), raw)) {
                throw std::runtime_error("script parse error: unknown opcode '" + w + "'");
            }
            Append(script, raw);
        } else if (w.size() >= 2 && w.front() == '\'' && w.back() == '\'') {
            // Single-quoted string, pushed as data.
            const std::vector<uint8_t> value(w.begin() + 1, w.end() - 1);
            Append(script, SerializePush(value.data(), value.size()));
        } else if (LookupOpcodeName(w, opcode)) {
            script.push_back(opcode);
        } else {
            throw std::runtime_error("script parse error: unknown opcode '" + w + "'");
        }
    }
    return script;
}

const std::vector<std::pair<std::string, uint32_t>>& ScriptFlagNames() {
    static const std::vector<std::pair<std::string, uint32_t>> names = {
        {"P2SH", SCRIPT_VERIFY_P2SH},
        {"STRICTENC", SCRIPT_VERIFY_STRICTENC},
        {"DERSIG", SCRIPT_VERIFY_DERSIG},
        {"LOW_S", SCRIPT_VERIFY_LOW_S},
        {"NULLDUMMY", SCRIPT_VERIFY_NULLDUMMY},
        {"SIGPUSHONLY", SCRIPT_VERIFY_SIGPUSHONLY},
        {"MINIMALDATA", SCRIPT_VERIFY_MINIMALDATA},
        {"DISCOURAGE_UPGRADABLE_NOPS", SCRIPT_VERIFY_DISCOURAGE_UPGRADABLE_NOPS},
        {"CLEANSTACK", SCRIPT_VERIFY_CLEANSTACK},
        {"CHECKLOCKTIMEVERIFY", SCRIPT_VERIFY_CHECKLOCKTIMEVERIFY},
        {"CHECKSEQUENCEVERIFY", SCRIPT_VERIFY_CHECKSEQUENCEVERIFY},
        {"WITNESS", SCRIPT_VERIFY_WITNESS},
        {"DISCOURAGE_UPGRADABLE_WITNESS_PROGRAM", SCRIPT_VERIFY_DISCOURAGE_UPGRADABLE_WITNESS_PROGRAM},
        {"MINIMALIF", SCRIPT_VERIFY_MINIMALIF},
        {"NULLFAIL", SCRIPT_VERIFY_NULLFAIL},
        {"WITNESS_PUBKEYTYPE", SCRIPT_VERIFY_WITNESS_PUBKEYTYPE},
        {"CONST_SCRIPTCODE", SCRIPT_VERIFY_CONST_SCRIPTCODE},
        {"TAPROOT", SCRIPT_VERIFY_TAPROOT},
        {"DISCOURAGE_UPGRADABLE_TAPROOT_VERSION", SCRIPT_VERIFY_DISCOURAGE_UPGRADABLE_TAPROOT_VERSION},
        {"DISCOURAGE_OP_SUCCESS", SCRIPT_VERIFY_DISCOURAGE_OP_SUCCESS},
        {"DISCOURAGE_UPGRADABLE_PUBKEYTYPE", SCRIPT_VERIFY_DISCOURAGE_UPGRADABLE_PUBKEYTYPE},
    };
    return names;
}

uint32_t ParseScriptFlags(const std::string& flags) {
    if (flags.empty() || flags == "NONE") return SCRIPT_VERIFY_NONE;
    uint32_t result = 0;
    size_t pos = 0;
    while (pos <= flags.size()) {
        size_t end = flags.find(',', pos);
        if (end == std::string::npos) end = flags.size();
        const std::string word = flags.substr(pos, end - pos);
        pos = end + 1;
        bool found = false;
        for (const auto& [name, bit] : ScriptFlagNames()) {
            if (name == word) {
                result |= bit;
                found = true;
                break;
            }
        }
        if (!found) throw std::runtime_error("unknown verification flag '" + word + "'");
    }
    return result;
}

}  // namespace ibd
