// Bitcoin Core's test "asm" notation for scripts (ParseScript, core_read.cpp), as written in
// script_tests.json, tx_valid.json and tx_invalid.json.
//
// A script is a list of words separated by spaces, tabs or newlines:
//   - a decimal number (optionally negative) in -0xFFFFFFFF..0xFFFFFFFF: pushed minimally, as
//     `CScript() << int64`: 0 -> OP_0, -1 -> OP_1NEGATE, 1..16 -> OP_1..OP_16, otherwise the
//     CScriptNum encoding pushed with the smallest push opcode;
//   - 0x followed by an even, non-zero number of hex digits: those bytes inserted as they are
//     (not pushed);
//   - 'text' (no whitespace inside): the characters pushed as data;
//   - an opcode name from OP_NOP (0x61) on, plus OP_RESERVED, with or without its OP_ prefix
//     (ADD or OP_ADD), as Core's GetOpName spells it (NOP2 and NOP3 are CHECKLOCKTIMEVERIFY
//     and CHECKSEQUENCEVERIFY). OP_CHECKSIGADD is accepted too.
//
// Also the flag notation of the same files (Core's ParseScriptFlags, transaction_tests.cpp).
//
// Not on the validation path (nothing in the block pipeline calls it): the reader of Core's test
// vectors, shared by the native suites (tests/native/script) and the fuzz seed writer
// (fuzz/seed_corpus.cpp), as Core's own ParseScript sits in its src/ for its tests and tools.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ibd {

/** The script bytes of `asm_text`. Throws std::runtime_error("script parse error: ...") on an
 *  unknown word or an out-of-range number, as Core's ParseScript does. */
std::vector<uint8_t> ParseScriptAsm(const std::string& asm_text);

/** The opcode byte named `name` ("ADD" or "OP_ADD"); false when ParseScriptAsm would not know
 *  it. */
bool LookupOpcodeName(const std::string& name, uint8_t& opcode);

/** Core's mapFlagNames (transaction_tests.cpp): every script verification flag by its name
 *  without the SCRIPT_VERIFY_ prefix ("P2SH", "STRICTENC", ...), bit values of interpreter.h. */
const std::vector<std::pair<std::string, uint32_t>>& ScriptFlagNames();

/** Core's ParseScriptFlags: "" or "NONE" -> 0, else the OR of the comma-separated names.
 *  Throws std::runtime_error naming an unknown flag (Core: "Bad test: unknown verification
 *  flag"). */
uint32_t ParseScriptFlags(const std::string& flags);

}  // namespace ibd
