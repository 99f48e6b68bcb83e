// Script bytes: opcodes, Core's GetScriptOp, the standard output templates (Core's
// script/solver.cpp and script.cpp predicates), CastToBool, pushes and FindAndDelete. The
// interpreter is interpreter.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ibd {

/** Every opcode (Core's opcodetype, script/script.h). Names as in Core, values as on the wire. */
enum Opcode : uint8_t {
    // Pushes: 0x01..0x4b push that many bytes.
    OP_0 = 0x00,
    OP_FALSE = OP_0,
    OP_PUSHDATA1 = 0x4c,
    OP_PUSHDATA2 = 0x4d,
    OP_PUSHDATA4 = 0x4e,
    OP_1NEGATE = 0x4f,
    OP_RESERVED = 0x50,
    OP_1 = 0x51,
    OP_TRUE = OP_1,
    OP_2 = 0x52, OP_3 = 0x53, OP_4 = 0x54, OP_5 = 0x55, OP_6 = 0x56, OP_7 = 0x57, OP_8 = 0x58,
    OP_9 = 0x59, OP_10 = 0x5a, OP_11 = 0x5b, OP_12 = 0x5c, OP_13 = 0x5d, OP_14 = 0x5e, OP_15 = 0x5f,
    OP_16 = 0x60,
    // Control.
    OP_NOP = 0x61,
    OP_VER = 0x62,
    OP_IF = 0x63,
    OP_NOTIF = 0x64,
    OP_VERIF = 0x65,
    OP_VERNOTIF = 0x66,
    OP_ELSE = 0x67,
    OP_ENDIF = 0x68,
    OP_VERIFY = 0x69,
    OP_RETURN = 0x6a,
    // Stack.
    OP_TOALTSTACK = 0x6b,
    OP_FROMALTSTACK = 0x6c,
    OP_2DROP = 0x6d,
    OP_2DUP = 0x6e,
    OP_3DUP = 0x6f,
    OP_2OVER = 0x70,
    OP_2ROT = 0x71,
    OP_2SWAP = 0x72,
    OP_IFDUP = 0x73,
    OP_DEPTH = 0x74,
    OP_DROP = 0x75,
    OP_DUP = 0x76,
    OP_NIP = 0x77,
    OP_OVER = 0x78,
    OP_PICK = 0x79,
    OP_ROLL = 0x7a,
    OP_ROT = 0x7b,
    OP_SWAP = 0x7c,
    OP_TUCK = 0x7d,
    // Splice.
    OP_CAT = 0x7e,
    OP_SUBSTR = 0x7f,
    OP_LEFT = 0x80,
    OP_RIGHT = 0x81,
    OP_SIZE = 0x82,
    // Bit logic.
    OP_INVERT = 0x83,
    OP_AND = 0x84,
    OP_OR = 0x85,
    OP_XOR = 0x86,
    OP_EQUAL = 0x87,
    OP_EQUALVERIFY = 0x88,
    OP_RESERVED1 = 0x89,
    OP_RESERVED2 = 0x8a,
    // Numeric.
    OP_1ADD = 0x8b,
    OP_1SUB = 0x8c,
    OP_2MUL = 0x8d,
    OP_2DIV = 0x8e,
    OP_NEGATE = 0x8f,
    OP_ABS = 0x90,
    OP_NOT = 0x91,
    OP_0NOTEQUAL = 0x92,
    OP_ADD = 0x93,
    OP_SUB = 0x94,
    OP_MUL = 0x95,
    OP_DIV = 0x96,
    OP_MOD = 0x97,
    OP_LSHIFT = 0x98,
    OP_RSHIFT = 0x99,
    OP_BOOLAND = 0x9a,
    OP_BOOLOR = 0x9b,
    OP_NUMEQUAL = 0x9c,
    OP_NUMEQUALVERIFY = 0x9d,
    OP_NUMNOTEQUAL = 0x9e,
    OP_LESSTHAN = 0x9f,
    OP_GREATERTHAN = 0xa0,
    OP_LESSTHANOREQUAL = 0xa1,
    OP_GREATERTHANOREQUAL = 0xa2,
    OP_MIN = 0xa3,
    OP_MAX = 0xa4,
    OP_WITHIN = 0xa5,
    // Crypto.
    OP_RIPEMD160 = 0xa6,
    OP_SHA1 = 0xa7,
    OP_SHA256 = 0xa8,
    OP_HASH160 = 0xa9,
    OP_HASH256 = 0xaa,
    OP_CODESEPARATOR = 0xab,
    OP_CHECKSIG = 0xac,
    OP_CHECKSIGVERIFY = 0xad,
    OP_CHECKMULTISIG = 0xae,
    OP_CHECKMULTISIGVERIFY = 0xaf,
    // Expansion.
    OP_NOP1 = 0xb0,
    OP_CHECKLOCKTIMEVERIFY = 0xb1,  // BIP65, formerly OP_NOP2
    OP_NOP2 = OP_CHECKLOCKTIMEVERIFY,
    OP_CHECKSEQUENCEVERIFY = 0xb2,  // BIP112, formerly OP_NOP3
    OP_NOP3 = OP_CHECKSEQUENCEVERIFY,
    OP_NOP4 = 0xb3, OP_NOP5 = 0xb4, OP_NOP6 = 0xb5, OP_NOP7 = 0xb6, OP_NOP8 = 0xb7, OP_NOP9 = 0xb8,
    OP_NOP10 = 0xb9,
    // BIP342 (tapscript only).
    OP_CHECKSIGADD = 0xba,
    OP_INVALIDOPCODE = 0xff,
};

/** Core's MAX_SCRIPT_ELEMENT_SIZE, MAX_SCRIPT_SIZE, MAX_STACK_SIZE (script/script.h). */
constexpr size_t kMaxScriptElementSize = 520;
constexpr size_t kMaxScriptSize = 10000;
constexpr size_t kMaxStackSize = 1000;
/** BIP341 annex tag: the first byte of an annex. */
constexpr uint8_t kAnnexTag = 0x50;

/** Core's GetScriptOp (script/script.cpp): reads one opcode at `pc` (< end), advancing `pc`.
 *  For pushes (opcodes 0x00..0x4e) also sets `*push` / `*push_len` to the pushed bytes inside
 *  the script. Returns false when `pc` is at `end` or a push is truncated; as in Core, `pc`
 *  may then have advanced past the opcode and its length bytes (SerializeScriptCode and
 *  FindAndDelete depend on that exact position). */
bool GetScriptOp(const uint8_t*& pc, const uint8_t* end, uint8_t& opcode, const uint8_t** push = nullptr,
                 size_t* push_len = nullptr);

/** Core's CScript::IsPayToScriptHash: exactly a9 14 <20 bytes> 87 (23 bytes). */
bool IsPayToScriptHash(const std::vector<uint8_t>& spk);

/** P2PKH template (Core's Solver, TxoutType::PUBKEYHASH): exactly 76 a9 14 <20 bytes> 88 ac
 *  (25 bytes). */
bool IsPayToPubKeyHash(const std::vector<uint8_t>& spk);

/** P2PK template (Core's Solver, TxoutType::PUBKEY, by size only): a direct push of a 33- or
 *  65-byte key then OP_CHECKSIG (35 or 67 bytes). Sets `pubkey_len`; the key starts at byte 1.
 *  The key's first byte is not checked: an invalid key is a verdict, not a template question. */
bool MatchPayToPubKey(const std::vector<uint8_t>& spk, size_t& pubkey_len);

/** Core's CScript::IsWitnessProgram (BIP141 "Witness program"): 4..42 bytes, a version opcode
 *  (OP_0 or OP_1..OP_16) then one direct push of 2..40 bytes filling the rest. Sets `version`
 *  (0..16) and `program` (pointer into `spk`) / `program_len`. */
bool IsWitnessProgram(const std::vector<uint8_t>& spk, int& version, const uint8_t*& program, size_t& program_len);

/** Bare multisig template (Core's Solver, TxoutType::MULTISIG shape): OP_m, one or more key
 *  pushes, OP_n, OP_CHECKMULTISIG, with 1 <= m <= n = number of keys. Key sizes not checked. */
bool IsBareMultisig(const std::vector<uint8_t>& spk);

/** Core's CastToBool: false for an empty vector, all zero bytes, or zeros ending in 0x80. */
bool CastToBool(const uint8_t* data, size_t len);

/** `CScript() << data` (Core's CScript::operator<< for a byte vector): the push opcode form
 *  for data.size() (direct below 76 bytes, then OP_PUSHDATA1/2/4) followed by the data. An
 *  empty vector gives the single byte 0x00. */
std::vector<uint8_t> SerializePush(const uint8_t* data, size_t len);

/** Core's FindAndDelete (script/interpreter.cpp): removes every occurrence of the byte string
 *  `pattern` that starts at an opcode boundary of `script` (consecutive occurrences included),
 *  walking opcodes with GetScriptOp. Returns the number removed; `script` is unchanged when
 *  that is 0 or `pattern` is empty. Legacy (SigVersion::BASE) CHECKSIG applies it to the
 *  scriptCode with the signature push before hashing. */
int FindAndDelete(std::vector<uint8_t>& script, const std::vector<uint8_t>& pattern);

}  // namespace ibd
