// The interpreter (interpreter.h): focused cases for each rule of Core's EvalScript and
// VerifyScript, with a fake SignatureChecker whose verdicts the test chooses and whose calls it
// records. Core's script_tests.json is run separately (core_script_tests_test.cpp).
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "crypto/ripemd160.h"
#include "crypto/sha256.h"
#include "primitives/hex.h"
#include "script/interpreter.h"
#include "script/script.h"
#include "script/taproot.h"

namespace ibd {
namespace {

using Bytes = std::vector<uint8_t>;

/** A tiny script builder. */
struct Sc {
    Bytes b;
    Sc& op(uint8_t o) {
        b.push_back(o);
        return *this;
    }
    Sc& ops(int count, uint8_t o) {
        for (int i = 0; i < count; ++i) b.push_back(o);
        return *this;
    }
    Sc& push(const Bytes& d) {
        const Bytes p = SerializePush(d.data(), d.size());
        b.insert(b.end(), p.begin(), p.end());
        return *this;
    }
    Sc& num(int64_t n) {
        if (n == 0) return op(OP_0);
        if (n == -1) return op(OP_1NEGATE);
        if (n >= 1 && n <= 16) return op(uint8_t(OP_1 + n - 1));
        return push(ScriptNum(n).serialize());
    }
    Sc& raw(const std::string& hex) {
        const Bytes d = HexDecode(hex);
        b.insert(b.end(), d.begin(), d.end());
        return *this;
    }
};

/** Verdicts chosen by the test; every call recorded. */
class FakeChecker : public SignatureChecker {
public:
    std::set<std::pair<Bytes, Bytes>> valid_ecdsa;  // (sig, pubkey) pairs that verify
    bool schnorr_ok = true;
    int64_t max_lock_time = 0;
    int64_t max_sequence = 0;

    mutable std::vector<std::pair<Bytes, Bytes>> ecdsa_calls;
    mutable std::vector<Bytes> script_codes;
    mutable std::vector<SigVersion> sigversions;
    mutable std::vector<std::pair<Bytes, Bytes>> schnorr_calls;
    mutable std::vector<uint32_t> codesep_positions;
    mutable std::vector<int64_t> lock_times, sequences;

    bool CheckECDSASignature(const StackElement& sig, const StackElement& pubkey, const Bytes& script_code,
                             SigVersion sigversion) const override {
        ecdsa_calls.emplace_back(sig, pubkey);
        script_codes.push_back(script_code);
        sigversions.push_back(sigversion);
        return valid_ecdsa.count({sig, pubkey}) > 0;
    }
    bool CheckSchnorrSignature(const StackElement& sig, const StackElement& pubkey32, SigVersion sigversion,
                               const ScriptExecutionData& execdata, ScriptError* serror) const override {
        schnorr_calls.emplace_back(sig, pubkey32);
        sigversions.push_back(sigversion);
        codesep_positions.push_back(execdata.codeseparator_pos);
        if (!schnorr_ok && serror) *serror = ScriptError::SCHNORR_SIG;
        return schnorr_ok;
    }
    bool CheckLockTime(const ScriptNum& n) const override {
        lock_times.push_back(n.value());
        return n.value() <= max_lock_time;
    }
    bool CheckSequence(const ScriptNum& n) const override {
        sequences.push_back(n.value());
        return n.value() <= max_sequence;
    }
};

const FakeChecker kNoSigs;

/** EvalScript; returns the error (OK on success) and leaves the stack in `*out`. */
ScriptError Eval(const Bytes& script, uint32_t flags = 0, Stack* out = nullptr,
                 SigVersion sv = SigVersion::BASE, const SignatureChecker& checker = kNoSigs, Stack initial = {},
                 int64_t weight = 0) {
    Stack stack = std::move(initial);
    ScriptExecutionData execdata;
    execdata.validation_weight_left = weight;
    execdata.validation_weight_left_init = true;
    ScriptError err = ScriptError::ERROR_COUNT;
    const bool ok = EvalScript(stack, script, flags, checker, sv, execdata, &err);
    EXPECT_EQ(ok, err == ScriptError::OK);
    if (out) *out = stack;
    return err;
}

/** Evaluates and expects success with exactly one element equal to `top_hex` on the stack. */
void ExpectResult(const Sc& s, const std::string& top_hex, uint32_t flags = 0) {
    Stack st;
    ASSERT_EQ(Eval(s.b, flags, &st), ScriptError::OK);
    ASSERT_EQ(st.size(), 1u);
    EXPECT_EQ(HexEncode(st[0]), top_hex);
}

#define EXPECT_ERR(expr, err) EXPECT_STREQ(ScriptErrorName(expr), ScriptErrorName(err))

// ------------------------------------------------------------------------------------------
// Arithmetic and numbers

TEST(Interpreter, Arithmetic) {
    ExpectResult(Sc().num(2).num(3).op(OP_ADD), "05");
    ExpectResult(Sc().num(2).num(3).op(OP_SUB), "81");
    ExpectResult(Sc().num(5).op(OP_NEGATE), "85");
    ExpectResult(Sc().num(-5).op(OP_ABS), "05");
    ExpectResult(Sc().num(0).op(OP_NOT), "01");
    ExpectResult(Sc().num(7).op(OP_NOT), "");
    ExpectResult(Sc().num(7).op(OP_0NOTEQUAL), "01");
    ExpectResult(Sc().num(7).op(OP_1ADD), "08");
    ExpectResult(Sc().num(0).op(OP_1SUB), "81");
    ExpectResult(Sc().num(3).num(9).op(OP_MIN), "03");
    ExpectResult(Sc().num(3).num(9).op(OP_MAX), "09");
    ExpectResult(Sc().num(3).num(9).op(OP_LESSTHAN), "01");
    ExpectResult(Sc().num(3).num(9).op(OP_GREATERTHANOREQUAL), "");
    ExpectResult(Sc().num(1).num(0).op(OP_BOOLAND), "");
    ExpectResult(Sc().num(1).num(0).op(OP_BOOLOR), "01");
}

TEST(Interpreter, WithinAndNumEqualVerify) {
    ExpectResult(Sc().num(3).num(3).num(4).op(OP_WITHIN), "01");
    ExpectResult(Sc().num(4).num(3).num(4).op(OP_WITHIN), "");
    EXPECT_ERR(Eval(Sc().num(1).num(2).op(OP_NUMEQUALVERIFY).b), ScriptError::NUMEQUALVERIFY);
    ExpectResult(Sc().num(2).num(2).op(OP_NUMEQUALVERIFY).num(1), "01");
}

TEST(Interpreter, FourByteOperands) {
    // 0x7fffffff + 0x7fffffff: 5-byte result is fine, but using it again is an overflow.
    ExpectResult(Sc().num(0x7fffffff).num(0x7fffffff).op(OP_ADD), "feffffff00");
    EXPECT_ERR(Eval(Sc().num(0x7fffffff).num(0x7fffffff).op(OP_ADD).num(1).op(OP_ADD).b),
               ScriptError::UNKNOWN_ERROR);
    EXPECT_ERR(Eval(Sc().push(HexDecode("0000000001")).op(OP_1ADD).b), ScriptError::UNKNOWN_ERROR);
    // Non-minimal numbers: fine without MINIMALDATA, UNKNOWN_ERROR with it.
    ExpectResult(Sc().push(HexDecode("0100")).op(OP_1ADD), "02");
    EXPECT_ERR(Eval(Sc().push(HexDecode("0100")).op(OP_1ADD).b, SCRIPT_VERIFY_MINIMALDATA),
               ScriptError::UNKNOWN_ERROR);
}

TEST(Interpreter, MinimalPushes) {
    const uint32_t f = SCRIPT_VERIFY_MINIMALDATA;
    EXPECT_ERR(Eval(Sc().raw("0105").b, f), ScriptError::MINIMALDATA);     // should be OP_5
    EXPECT_ERR(Eval(Sc().raw("0181").b, f), ScriptError::MINIMALDATA);     // OP_1NEGATE
    EXPECT_ERR(Eval(Sc().raw("4c0001").b, f), ScriptError::MINIMALDATA);   // empty via PUSHDATA1
    EXPECT_ERR(Eval(Sc().raw("4c01aa").b, f), ScriptError::MINIMALDATA);   // 1 byte via PUSHDATA1
    EXPECT_ERR(Eval(Sc().raw("4d0100aa").b, f), ScriptError::MINIMALDATA); // PUSHDATA2
    EXPECT_EQ(Eval(Sc().raw("0105").b), ScriptError::OK);
    EXPECT_EQ(Eval(Sc().raw("01aa").b, f), ScriptError::OK);
    EXPECT_EQ(Eval(Sc().raw("0100").b, f), ScriptError::OK);  // 0x00 is not OP_0's encoding
    // Unexecuted pushes are not checked.
    EXPECT_EQ(Eval(Sc().num(0).op(OP_IF).raw("0105").op(OP_ENDIF).num(1).b, f), ScriptError::OK);
}

TEST(Interpreter, PushSizeLimit) {
    EXPECT_EQ(Eval(Sc().push(Bytes(520, 1)).b), ScriptError::OK);
    EXPECT_ERR(Eval(Sc().push(Bytes(521, 1)).b), ScriptError::PUSH_SIZE);
    // Even unexecuted.
    EXPECT_ERR(Eval(Sc().num(0).op(OP_IF).push(Bytes(521, 1)).op(OP_ENDIF).b), ScriptError::PUSH_SIZE);
    EXPECT_ERR(Eval(Sc().raw("4c05aa").b), ScriptError::BAD_OPCODE);  // truncated
}

// ------------------------------------------------------------------------------------------
// Control flow

TEST(Interpreter, IfElseNesting) {
    ExpectResult(Sc().num(1).op(OP_IF).num(0).op(OP_IF).num(9).op(OP_ELSE).num(2).op(OP_ENDIF).op(OP_ELSE)
                     .num(3).op(OP_ENDIF),
                 "02");
    ExpectResult(Sc().num(0).op(OP_NOTIF).num(4).op(OP_ELSE).num(5).op(OP_ENDIF), "04");
    // Several ELSEs toggle.
    ExpectResult(Sc().num(1).op(OP_IF).num(6).op(OP_ELSE).num(7).op(OP_ELSE).num(8).op(OP_ENDIF).op(OP_ADD),
                 "0e");
    // An outer false branch hides the inner ELSE.
    ExpectResult(Sc().num(5).num(0).op(OP_IF).num(1).op(OP_IF).op(OP_ELSE).num(9).op(OP_ENDIF).op(OP_ENDIF), "05");
    EXPECT_ERR(Eval(Sc().num(1).op(OP_IF).b), ScriptError::UNBALANCED_CONDITIONAL);
    EXPECT_ERR(Eval(Sc().op(OP_ENDIF).b), ScriptError::UNBALANCED_CONDITIONAL);
    EXPECT_ERR(Eval(Sc().op(OP_ELSE).b), ScriptError::UNBALANCED_CONDITIONAL);
    EXPECT_ERR(Eval(Sc().op(OP_IF).num(1).op(OP_ENDIF).b), ScriptError::UNBALANCED_CONDITIONAL);
}

TEST(Interpreter, MinimalIf) {
    const Bytes s = Sc().op(OP_IF).num(1).op(OP_ELSE).num(1).op(OP_ENDIF).b;
    const Stack two = {Bytes{2}};
    // BASE: never enforced.
    EXPECT_EQ(Eval(s, SCRIPT_VERIFY_MINIMALIF, nullptr, SigVersion::BASE, kNoSigs, two), ScriptError::OK);
    // WITNESS_V0: policy flag.
    EXPECT_EQ(Eval(s, 0, nullptr, SigVersion::WITNESS_V0, kNoSigs, two), ScriptError::OK);
    EXPECT_ERR(Eval(s, SCRIPT_VERIFY_MINIMALIF, nullptr, SigVersion::WITNESS_V0, kNoSigs, two),
               ScriptError::MINIMALIF);
    EXPECT_ERR(Eval(s, SCRIPT_VERIFY_MINIMALIF, nullptr, SigVersion::WITNESS_V0, kNoSigs, {Bytes{1, 0}}),
               ScriptError::MINIMALIF);
    EXPECT_EQ(Eval(s, SCRIPT_VERIFY_MINIMALIF, nullptr, SigVersion::WITNESS_V0, kNoSigs, {Bytes{1}}),
              ScriptError::OK);
    // TAPSCRIPT: consensus.
    EXPECT_ERR(Eval(s, 0, nullptr, SigVersion::TAPSCRIPT, kNoSigs, two), ScriptError::TAPSCRIPT_MINIMALIF);
    EXPECT_EQ(Eval(s, 0, nullptr, SigVersion::TAPSCRIPT, kNoSigs, {Bytes{}}), ScriptError::OK);
}

TEST(Interpreter, DisabledAndBadOpcodes) {
    for (uint8_t op : {OP_CAT, OP_SUBSTR, OP_LEFT, OP_RIGHT, OP_INVERT, OP_AND, OP_OR, OP_XOR, OP_2MUL, OP_2DIV,
                       OP_MUL, OP_DIV, OP_MOD, OP_LSHIFT, OP_RSHIFT}) {
        SCOPED_TRACE(int(op));
        // Fails even in an unexecuted branch.
        EXPECT_ERR(Eval(Sc().num(0).op(OP_IF).op(op).op(OP_ENDIF).num(1).b), ScriptError::DISABLED_OPCODE);
    }
    // OP_VERIF / OP_VERNOTIF: bad even unexecuted.
    EXPECT_ERR(Eval(Sc().num(0).op(OP_IF).op(OP_VERIF).op(OP_ENDIF).num(1).b), ScriptError::BAD_OPCODE);
    EXPECT_ERR(Eval(Sc().num(0).op(OP_IF).op(OP_VERNOTIF).op(OP_ENDIF).num(1).b), ScriptError::BAD_OPCODE);
    // The others only when executed.
    for (uint8_t op : {uint8_t(OP_RESERVED), uint8_t(OP_VER), uint8_t(OP_RESERVED1), uint8_t(OP_RESERVED2),
                       uint8_t(0xbb), uint8_t(0xff), uint8_t(OP_CHECKSIGADD)}) {
        SCOPED_TRACE(int(op));
        EXPECT_EQ(Eval(Sc().num(0).op(OP_IF).op(op).op(OP_ENDIF).num(1).b), ScriptError::OK);
        EXPECT_ERR(Eval(Sc().num(1).op(OP_IF).op(op).op(OP_ENDIF).num(1).b), ScriptError::BAD_OPCODE);
    }
    EXPECT_ERR(Eval(Sc().num(1).op(OP_RETURN).b), ScriptError::OP_RETURN);
    EXPECT_EQ(Eval(Sc().num(0).op(OP_IF).op(OP_RETURN).op(OP_ENDIF).num(1).b), ScriptError::OK);
}

TEST(Interpreter, UpgradableNops) {
    for (uint8_t op : {OP_NOP1, OP_NOP4, OP_NOP10}) {
        EXPECT_EQ(Eval(Sc().num(1).op(op).b), ScriptError::OK);
        EXPECT_ERR(Eval(Sc().num(1).op(op).b, SCRIPT_VERIFY_DISCOURAGE_UPGRADABLE_NOPS),
                   ScriptError::DISCOURAGE_UPGRADABLE_NOPS);
        // Not executed: no complaint.
        EXPECT_EQ(Eval(Sc().num(0).op(OP_IF).op(op).op(OP_ENDIF).num(1).b, SCRIPT_VERIFY_DISCOURAGE_UPGRADABLE_NOPS),
                  ScriptError::OK);
    }
    // CLTV / CSV without their flags are plain NOPs, not discouraged.
    EXPECT_EQ(Eval(Sc().op(OP_CHECKLOCKTIMEVERIFY).op(OP_CHECKSEQUENCEVERIFY).num(1).b,
                   SCRIPT_VERIFY_DISCOURAGE_UPGRADABLE_NOPS),
              ScriptError::OK);
}

// ------------------------------------------------------------------------------------------
// Stack operations and limits

TEST(Interpreter, StackOps) {
    Stack st;
    ASSERT_EQ(Eval(Sc().num(1).num(2).num(3).op(OP_ROT).b, 0, &st), ScriptError::OK);
    EXPECT_EQ(st, (Stack{{2}, {3}, {1}}));
    ASSERT_EQ(Eval(Sc().num(1).num(2).op(OP_TUCK).b, 0, &st), ScriptError::OK);
    EXPECT_EQ(st, (Stack{{2}, {1}, {2}}));
    ASSERT_EQ(Eval(Sc().num(1).num(2).num(3).num(4).num(5).num(6).op(OP_2ROT).b, 0, &st), ScriptError::OK);
    EXPECT_EQ(st, (Stack{{3}, {4}, {5}, {6}, {1}, {2}}));
    ASSERT_EQ(Eval(Sc().num(1).num(2).num(3).num(4).op(OP_2SWAP).b, 0, &st), ScriptError::OK);
    EXPECT_EQ(st, (Stack{{3}, {4}, {1}, {2}}));
    ASSERT_EQ(Eval(Sc().num(1).num(2).num(3).num(2).op(OP_ROLL).b, 0, &st), ScriptError::OK);
    EXPECT_EQ(st, (Stack{{2}, {3}, {1}}));
    ASSERT_EQ(Eval(Sc().num(1).num(2).num(3).num(2).op(OP_PICK).b, 0, &st), ScriptError::OK);
    EXPECT_EQ(st, (Stack{{1}, {2}, {3}, {1}}));
    ASSERT_EQ(Eval(Sc().num(7).op(OP_TOALTSTACK).num(8).op(OP_FROMALTSTACK).b, 0, &st), ScriptError::OK);
    EXPECT_EQ(st, (Stack{{8}, {7}}));
    ASSERT_EQ(Eval(Sc().num(1).num(0).op(OP_IFDUP).op(OP_DEPTH).b, 0, &st), ScriptError::OK);
    EXPECT_EQ(st, (Stack{{1}, {}, {2}}));
    ASSERT_EQ(Eval(Sc().push(Bytes(300, 0)).op(OP_SIZE).op(OP_NIP).b, 0, &st), ScriptError::OK);
    EXPECT_EQ(st, (Stack{{0x2c, 0x01}}));
    EXPECT_ERR(Eval(Sc().num(1).num(1).op(OP_PICK).b), ScriptError::INVALID_STACK_OPERATION);
    EXPECT_ERR(Eval(Sc().num(1).num(-1).op(OP_PICK).b), ScriptError::INVALID_STACK_OPERATION);
    EXPECT_ERR(Eval(Sc().op(OP_FROMALTSTACK).b), ScriptError::INVALID_ALTSTACK_OPERATION);
    EXPECT_ERR(Eval(Sc().num(1).op(OP_2DUP).b), ScriptError::INVALID_STACK_OPERATION);
    EXPECT_ERR(Eval(Sc().num(1).num(2).op(OP_EQUALVERIFY).b), ScriptError::EQUALVERIFY);
    EXPECT_ERR(Eval(Sc().num(0).op(OP_VERIFY).b), ScriptError::VERIFY);
}

TEST(Interpreter, OpCountLimit) {
    EXPECT_EQ(Eval(Sc().ops(201, OP_NOP).num(1).b), ScriptError::OK);
    EXPECT_ERR(Eval(Sc().ops(202, OP_NOP).num(1).b), ScriptError::OP_COUNT);
    // Unexecuted opcodes count; pushes and OP_1..OP_16 do not.
    EXPECT_ERR(Eval(Sc().num(0).op(OP_IF).ops(201, OP_NOP).op(OP_ENDIF).num(1).b), ScriptError::OP_COUNT);
    EXPECT_EQ(Eval(Sc().ops(201, OP_NOP).ops(300, OP_1).op(OP_DEPTH).b, 0, nullptr), ScriptError::OP_COUNT);
    // CHECKMULTISIG adds its key count: 190 NOPs + CHECKMULTISIG (1) + 10 keys = 201.
    Sc ok;
    ok.num(0).num(0);
    for (int i = 0; i < 10; ++i) ok.push(Bytes{2});
    ok.num(10).ops(190, OP_NOP).op(OP_CHECKMULTISIG);
    EXPECT_EQ(Eval(ok.b), ScriptError::OK);
    Sc over;
    over.num(0).num(0);
    for (int i = 0; i < 11; ++i) over.push(Bytes{2});
    over.num(11).ops(190, OP_NOP).op(OP_CHECKMULTISIG);
    EXPECT_ERR(Eval(over.b), ScriptError::OP_COUNT);
    // No limit in tapscript.
    EXPECT_EQ(Eval(Sc().ops(500, OP_NOP).num(1).b, 0, nullptr, SigVersion::TAPSCRIPT), ScriptError::OK);
}

TEST(Interpreter, StackSizeLimit) {
    EXPECT_EQ(Eval(Sc().ops(1000, OP_1).b), ScriptError::OK);
    EXPECT_ERR(Eval(Sc().ops(1001, OP_1).b), ScriptError::STACK_SIZE);
    // The altstack counts too.
    EXPECT_ERR(Eval(Sc().ops(500, OP_1).ops(100, OP_TOALTSTACK).ops(501, OP_1).b), ScriptError::STACK_SIZE);
}

TEST(Interpreter, ScriptSizeLimit) {
    EXPECT_EQ(Eval(Sc().ops(10000, OP_0).op(OP_DEPTH).b), ScriptError::SCRIPT_SIZE);
    // Tapscript has none (but its stack limit still applies).
    Sc big;
    for (int i = 0; i < 60; ++i) big.push(Bytes(200, 1)).op(OP_DROP);
    big.num(1);
    ASSERT_GT(big.b.size(), 10000u);
    EXPECT_EQ(Eval(big.b, 0, nullptr, SigVersion::TAPSCRIPT), ScriptError::OK);
    EXPECT_ERR(Eval(big.b), ScriptError::SCRIPT_SIZE);
}

TEST(Interpreter, Hashes) {
    Stack st;
    ASSERT_EQ(Eval(Sc().push({}).op(OP_SHA1).b, 0, &st), ScriptError::OK);
    EXPECT_EQ(HexEncode(st[0]), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
    const std::string abc = "abc";
    ASSERT_EQ(Eval(Sc().push(Bytes(abc.begin(), abc.end())).op(OP_SHA1).b, 0, &st), ScriptError::OK);
    EXPECT_EQ(HexEncode(st[0]), "a9993e364706816aba3e25717850c26c9cd0d89d");
    ASSERT_EQ(Eval(Sc().push({}).op(OP_RIPEMD160).b, 0, &st), ScriptError::OK);
    EXPECT_EQ(HexEncode(st[0]), "9c1185a5c5e9fc54612808977ee8f548b2258d31");
    ASSERT_EQ(Eval(Sc().push({}).op(OP_SHA256).b, 0, &st), ScriptError::OK);
    EXPECT_EQ(HexEncode(st[0]), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    ASSERT_EQ(Eval(Sc().push({}).op(OP_HASH160).b, 0, &st), ScriptError::OK);
    EXPECT_EQ(HexEncode(st[0]), "b472a266d0bd89c13706a4132ccfb16f7c3b9fcb");
    ASSERT_EQ(Eval(Sc().push({}).op(OP_HASH256).b, 0, &st), ScriptError::OK);
    EXPECT_EQ(HexEncode(st[0]), "5df6e0e2761359d30a8275058e299fcc0381534545f55cf43e41983f5d4c9456");
}

// ------------------------------------------------------------------------------------------
// Signature opcodes (legacy and v0)

const Bytes kS0 = {0x30, 0xa0};
const Bytes kS1 = {0x30, 0xa1};
const Bytes kK0 = {0x02, 0xb0};
const Bytes kK1 = {0x02, 0xb1};
const Bytes kK2 = {0x02, 0xb2};

TEST(Interpreter, CheckSigScriptCode) {
    FakeChecker c;
    c.valid_ecdsa = {{kS0, kK0}};
    // <sig> <key> | <sig> DROP CODESEPARATOR? no: FindAndDelete removes the signature's push.
    const Bytes script = Sc().push(kS0).op(OP_DROP).op(OP_CHECKSIG).b;
    EXPECT_EQ(Eval(script, 0, nullptr, SigVersion::BASE, c, {kS0, kK0}), ScriptError::OK);
    ASSERT_EQ(c.script_codes.size(), 1u);
    EXPECT_EQ(HexEncode(c.script_codes[0]), "75ac");
    // Segwit v0: no FindAndDelete.
    EXPECT_EQ(Eval(script, 0, nullptr, SigVersion::WITNESS_V0, c, {kS0, kK0}), ScriptError::OK);
    EXPECT_EQ(HexEncode(c.script_codes[1]), "0230a075ac");
    // CONST_SCRIPTCODE: a FindAndDelete hit fails.
    EXPECT_ERR(Eval(script, SCRIPT_VERIFY_CONST_SCRIPTCODE, nullptr, SigVersion::BASE, c, {kS0, kK0}),
               ScriptError::SIG_FINDANDDELETE);
    // scriptCode starts after the last executed OP_CODESEPARATOR.
    const Bytes sep = Sc().op(OP_NOP).op(OP_CODESEPARATOR).op(OP_CHECKSIG).b;
    EXPECT_EQ(Eval(sep, 0, nullptr, SigVersion::BASE, c, {kS0, kK0}), ScriptError::OK);
    EXPECT_EQ(HexEncode(c.script_codes.back()), "ac");
    const Bytes sep_unexec = Sc().num(0).op(OP_IF).op(OP_CODESEPARATOR).op(OP_ENDIF).op(OP_CHECKSIG).b;
    EXPECT_EQ(Eval(sep_unexec, 0, nullptr, SigVersion::BASE, c, {kS0, kK0}), ScriptError::OK);
    EXPECT_EQ(HexEncode(c.script_codes.back()), HexEncode(sep_unexec));
    // CONST_SCRIPTCODE forbids OP_CODESEPARATOR in legacy scripts, even unexecuted.
    EXPECT_ERR(Eval(sep_unexec, SCRIPT_VERIFY_CONST_SCRIPTCODE, nullptr, SigVersion::BASE, c, {kS0, kK0}),
               ScriptError::OP_CODESEPARATOR);
    EXPECT_EQ(Eval(sep_unexec, SCRIPT_VERIFY_CONST_SCRIPTCODE, nullptr, SigVersion::WITNESS_V0, c, {kS0, kK0}),
              ScriptError::OK);
}

TEST(Interpreter, CheckSigResults) {
    FakeChecker c;
    c.valid_ecdsa = {{kS0, kK0}};
    Stack st;
    ASSERT_EQ(Eval(Sc().op(OP_CHECKSIG).b, 0, &st, SigVersion::BASE, c, {kS1, kK0}), ScriptError::OK);
    EXPECT_EQ(st, (Stack{{}}));
    EXPECT_ERR(Eval(Sc().op(OP_CHECKSIGVERIFY).b, 0, nullptr, SigVersion::BASE, c, {kS1, kK0}),
               ScriptError::CHECKSIGVERIFY);
    ASSERT_EQ(Eval(Sc().op(OP_CHECKSIGVERIFY).num(1).b, 0, &st, SigVersion::BASE, c, {kS0, kK0}), ScriptError::OK);
    // NULLFAIL: a failing non-empty signature is an error; an empty one is just false.
    EXPECT_ERR(Eval(Sc().op(OP_CHECKSIG).b, SCRIPT_VERIFY_NULLFAIL, nullptr, SigVersion::BASE, c, {kS1, kK0}),
               ScriptError::SIG_NULLFAIL);
    ASSERT_EQ(Eval(Sc().op(OP_CHECKSIG).b, SCRIPT_VERIFY_NULLFAIL, &st, SigVersion::BASE, c, {{}, kK0}),
              ScriptError::OK);
    EXPECT_EQ(st, (Stack{{}}));
}

TEST(Interpreter, SignatureAndKeyEncodings) {
    FakeChecker c;
    // A strict-DER low-S signature (r = 1, s = 1) with SIGHASH_ALL.
    const Bytes der = HexDecode("3006020101020101" "01");
    const Bytes der_bad_type = HexDecode("3006020101020101" "05");
    // s = n - 1 (high).
    const Bytes high_s = HexDecode("3026020101022100fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140" "01");
    const Bytes key33(33, 0x02), key65 = [] { Bytes k(65, 0x04); return k; }();
    const Bytes hybrid = [] { Bytes k(65, 0x06); return k; }();
    auto run = [&](const Bytes& sig, const Bytes& key, uint32_t flags, SigVersion sv = SigVersion::BASE) {
        return Eval(Sc().op(OP_CHECKSIG).op(OP_NOT).b, flags, nullptr, sv, c, {sig, key});
    };
    EXPECT_EQ(run(der, key33, SCRIPT_VERIFY_DERSIG | SCRIPT_VERIFY_LOW_S | SCRIPT_VERIFY_STRICTENC), ScriptError::OK);
    EXPECT_EQ(run(kS0, key33, 0), ScriptError::OK);
    EXPECT_ERR(run(kS0, key33, SCRIPT_VERIFY_DERSIG), ScriptError::SIG_DER);
    EXPECT_ERR(run(high_s, key33, SCRIPT_VERIFY_LOW_S), ScriptError::SIG_HIGH_S);
    EXPECT_EQ(run(high_s, key33, SCRIPT_VERIFY_DERSIG), ScriptError::OK);
    EXPECT_ERR(run(der_bad_type, key33, SCRIPT_VERIFY_STRICTENC), ScriptError::SIG_HASHTYPE);
    EXPECT_EQ(run(der_bad_type, key33, SCRIPT_VERIFY_DERSIG), ScriptError::OK);
    EXPECT_ERR(run(der, hybrid, SCRIPT_VERIFY_STRICTENC), ScriptError::PUBKEYTYPE);
    EXPECT_EQ(run(der, hybrid, 0), ScriptError::OK);
    EXPECT_EQ(run(der, key65, SCRIPT_VERIFY_STRICTENC), ScriptError::OK);
    EXPECT_EQ(run(der, key65, SCRIPT_VERIFY_WITNESS_PUBKEYTYPE, SigVersion::BASE), ScriptError::OK);
    EXPECT_ERR(run(der, key65, SCRIPT_VERIFY_WITNESS_PUBKEYTYPE, SigVersion::WITNESS_V0),
               ScriptError::WITNESS_PUBKEYTYPE);
    // The empty signature passes every encoding rule; the key is still checked.
    EXPECT_EQ(run({}, key33, SCRIPT_VERIFY_DERSIG | SCRIPT_VERIFY_LOW_S | SCRIPT_VERIFY_STRICTENC), ScriptError::OK);
    EXPECT_ERR(run({}, hybrid, SCRIPT_VERIFY_STRICTENC), ScriptError::PUBKEYTYPE);
}

/** dummy s0 s1 2 k0 k1 k2 3 CHECKMULTISIG */
Stack MultisigStack(const Bytes& dummy = {}) { return {dummy, kS0, kS1, {2}, kK0, kK1, kK2, {3}}; }

TEST(Interpreter, CheckMultisigWalkOrder) {
    const Bytes cms = Sc().op(OP_CHECKMULTISIG).b;
    {
        // s0 matches k1, s1 matches k2: (s1,k2) ok, then (s0,k1) ok. k0 never tried.
        FakeChecker c;
        c.valid_ecdsa = {{kS0, kK1}, {kS1, kK2}};
        Stack st;
        ASSERT_EQ(Eval(cms, 0, &st, SigVersion::BASE, c, MultisigStack()), ScriptError::OK);
        EXPECT_EQ(st, (Stack{{1}}));
        using P = std::pair<Bytes, Bytes>;
        EXPECT_EQ(c.ecdsa_calls, (std::vector<P>{{kS1, kK2}, {kS0, kK1}}));
    }
    {
        // s0 matches k1, s1 matches k0 (wrong order): (s1,k2) fails, (s1,k1) fails, then two
        // signatures remain for one key: stop early.
        FakeChecker c;
        c.valid_ecdsa = {{kS0, kK1}, {kS1, kK0}};
        Stack st;
        ASSERT_EQ(Eval(cms, 0, &st, SigVersion::BASE, c, MultisigStack()), ScriptError::OK);
        EXPECT_EQ(st, (Stack{{}}));
        using P = std::pair<Bytes, Bytes>;
        EXPECT_EQ(c.ecdsa_calls, (std::vector<P>{{kS1, kK2}, {kS1, kK1}}));
        EXPECT_ERR(Eval(Sc().op(OP_CHECKMULTISIGVERIFY).b, 0, nullptr, SigVersion::BASE, c, MultisigStack()),
                   ScriptError::CHECKMULTISIGVERIFY);
    }
    {
        // s1 matches k2, s0 matches k0: (s1,k2) ok, (s0,k1) no, (s0,k0) ok.
        FakeChecker c;
        c.valid_ecdsa = {{kS0, kK0}, {kS1, kK2}};
        Stack st;
        ASSERT_EQ(Eval(cms, 0, &st, SigVersion::BASE, c, MultisigStack()), ScriptError::OK);
        EXPECT_EQ(st, (Stack{{1}}));
        EXPECT_EQ(c.ecdsa_calls.size(), 3u);
        // Legacy: each signature's push removed from the scriptCode (here the script is just
        // the opcode).
        EXPECT_EQ(HexEncode(c.script_codes[0]), "ae");
    }
}

TEST(Interpreter, CheckMultisigCountsAndDummy) {
    const Bytes cms = Sc().op(OP_CHECKMULTISIG).b;
    FakeChecker c;
    c.valid_ecdsa = {{kS0, kK1}, {kS1, kK2}};
    // NULLDUMMY.
    EXPECT_EQ(Eval(cms, 0, nullptr, SigVersion::BASE, c, MultisigStack({7})), ScriptError::OK);
    EXPECT_ERR(Eval(cms, SCRIPT_VERIFY_NULLDUMMY, nullptr, SigVersion::BASE, c, MultisigStack({7})),
               ScriptError::SIG_NULLDUMMY);
    // Missing dummy.
    Stack no_dummy = MultisigStack();
    no_dummy.erase(no_dummy.begin());
    EXPECT_ERR(Eval(cms, 0, nullptr, SigVersion::BASE, c, no_dummy), ScriptError::INVALID_STACK_OPERATION);
    // Counts.
    EXPECT_ERR(Eval(Sc().num(0).num(0).num(21).op(OP_CHECKMULTISIG).b), ScriptError::PUBKEY_COUNT);
    EXPECT_ERR(Eval(Sc().num(0).num(-1).op(OP_CHECKMULTISIG).b), ScriptError::PUBKEY_COUNT);
    EXPECT_ERR(Eval(Sc().num(0).num(2).push(kK0).num(1).op(OP_CHECKMULTISIG).b), ScriptError::SIG_COUNT);
    // 0-of-0 succeeds with just the dummy.
    ExpectResult(Sc().num(0).num(0).num(0).op(OP_CHECKMULTISIG), "01");
    // Tapscript: disabled.
    EXPECT_ERR(Eval(cms, 0, nullptr, SigVersion::TAPSCRIPT, c, MultisigStack()), ScriptError::TAPSCRIPT_CHECKMULTISIG);
}

TEST(Interpreter, CheckMultisigNullFail) {
    const Bytes cms = Sc().op(OP_CHECKMULTISIG).b;
    FakeChecker c;  // nothing verifies
    EXPECT_EQ(Eval(cms, 0, nullptr, SigVersion::BASE, c, MultisigStack()), ScriptError::OK);
    EXPECT_ERR(Eval(cms, SCRIPT_VERIFY_NULLFAIL, nullptr, SigVersion::BASE, c, MultisigStack()),
               ScriptError::SIG_NULLFAIL);
    // Only the signature not reached is non-empty: still NULLFAIL (all signatures are checked).
    Stack st = {{}, kS0, {}, {2}, kK0, kK1, kK2, {3}};
    EXPECT_ERR(Eval(cms, SCRIPT_VERIFY_NULLFAIL, nullptr, SigVersion::BASE, c, st), ScriptError::SIG_NULLFAIL);
    // All empty: false, no error; the dummy is not a signature.
    Stack empty_sigs = {{9}, {}, {}, {2}, kK0, kK1, kK2, {3}};
    Stack out;
    ASSERT_EQ(Eval(cms, SCRIPT_VERIFY_NULLFAIL, &out, SigVersion::BASE, c, empty_sigs), ScriptError::OK);
    EXPECT_EQ(out, (Stack{{}}));
}

TEST(Interpreter, CheckMultisigStrictEncIsLazy) {
    // With STRICTENC, a bad key is only an error when the walk reaches it.
    const Bytes cms = Sc().op(OP_CHECKMULTISIG).b;
    const Bytes der = HexDecode("300602010102010101");
    const Bytes good_key(33, 0x03);
    const Bytes bad_key = {0x07};
    FakeChecker c;
    c.valid_ecdsa = {{der, good_key}};
    // 1-of-2: keys bad_key (deeper), good_key (top): (der, good_key) verifies first.
    Stack st = {{}, der, {1}, bad_key, good_key, {2}};
    EXPECT_EQ(Eval(cms, SCRIPT_VERIFY_STRICTENC, nullptr, SigVersion::BASE, c, st), ScriptError::OK);
    Stack st2 = {{}, der, {1}, good_key, bad_key, {2}};
    EXPECT_ERR(Eval(cms, SCRIPT_VERIFY_STRICTENC, nullptr, SigVersion::BASE, c, st2), ScriptError::PUBKEYTYPE);
}

// ------------------------------------------------------------------------------------------
// CHECKLOCKTIMEVERIFY / CHECKSEQUENCEVERIFY

TEST(Interpreter, CheckLockTimeVerify) {
    const uint32_t f = SCRIPT_VERIFY_CHECKLOCKTIMEVERIFY;
    FakeChecker c;
    c.max_lock_time = 500;
    auto run = [&](const Sc& s, uint32_t flags = SCRIPT_VERIFY_CHECKLOCKTIMEVERIFY) {
        return Eval(s.b, flags, nullptr, SigVersion::BASE, c);
    };
    EXPECT_EQ(run(Sc().num(499).op(OP_CHECKLOCKTIMEVERIFY)), ScriptError::OK);  // operand stays
    EXPECT_EQ(c.lock_times.back(), 499);
    EXPECT_ERR(run(Sc().num(501).op(OP_CHECKLOCKTIMEVERIFY)), ScriptError::UNSATISFIED_LOCKTIME);
    EXPECT_ERR(run(Sc().num(-1).op(OP_CHECKLOCKTIMEVERIFY)), ScriptError::NEGATIVE_LOCKTIME);
    EXPECT_ERR(run(Sc().op(OP_CHECKLOCKTIMEVERIFY)), ScriptError::INVALID_STACK_OPERATION);
    // 5-byte operands are allowed, 6-byte ones are not.
    c.max_lock_time = 0xffffffffLL;
    EXPECT_EQ(run(Sc().num(0xffffffffLL).op(OP_CHECKLOCKTIMEVERIFY)), ScriptError::OK);
    EXPECT_EQ(c.lock_times.back(), 0xffffffffLL);
    EXPECT_ERR(run(Sc().push(HexDecode("000000000001")).op(OP_CHECKLOCKTIMEVERIFY)), ScriptError::UNKNOWN_ERROR);
    EXPECT_ERR(run(Sc().push(HexDecode("0100")).op(OP_CHECKLOCKTIMEVERIFY), f | SCRIPT_VERIFY_MINIMALDATA),
               ScriptError::UNKNOWN_ERROR);
    // Without the flag: OP_NOP2, even with an empty stack.
    const size_t calls = c.lock_times.size();
    EXPECT_EQ(run(Sc().op(OP_CHECKLOCKTIMEVERIFY).num(1), 0), ScriptError::OK);
    EXPECT_EQ(c.lock_times.size(), calls);
}

TEST(Interpreter, CheckSequenceVerify) {
    FakeChecker c;
    c.max_sequence = 10;
    auto run = [&](const Sc& s, uint32_t flags = SCRIPT_VERIFY_CHECKSEQUENCEVERIFY) {
        return Eval(s.b, flags, nullptr, SigVersion::BASE, c);
    };
    EXPECT_EQ(run(Sc().num(10).op(OP_CHECKSEQUENCEVERIFY)), ScriptError::OK);
    EXPECT_ERR(run(Sc().num(11).op(OP_CHECKSEQUENCEVERIFY)), ScriptError::UNSATISFIED_LOCKTIME);
    EXPECT_ERR(run(Sc().num(-1).op(OP_CHECKSEQUENCEVERIFY)), ScriptError::NEGATIVE_LOCKTIME);
    // Disable flag (bit 31) in the operand: a NOP, the checker is not asked.
    const size_t calls = c.sequences.size();
    EXPECT_EQ(run(Sc().num(0x80000000LL).op(OP_CHECKSEQUENCEVERIFY)), ScriptError::OK);
    EXPECT_EQ(run(Sc().num(0xffffffffLL).op(OP_CHECKSEQUENCEVERIFY)), ScriptError::OK);
    EXPECT_EQ(c.sequences.size(), calls);
    EXPECT_EQ(run(Sc().op(OP_CHECKSEQUENCEVERIFY).num(1), 0), ScriptError::OK);
}

// ------------------------------------------------------------------------------------------
// Tapscript (EvalScript level)

const Bytes kX0(32, 0x11);
const Bytes kX1(32, 0x22);
const Bytes kSchnorr(64, 0x5a);

TEST(Interpreter, TapscriptCheckSigAdd) {
    FakeChecker c;
    // sig0 sig1 | <x0> CHECKSIG <x1> CHECKSIGADD 2 NUMEQUAL (sig0 deeper).
    const Bytes s = Sc().push(kX0).op(OP_CHECKSIG).push(kX1).op(OP_CHECKSIGADD).num(2).op(OP_NUMEQUAL).b;
    Stack st;
    ASSERT_EQ(Eval(s, 0, &st, SigVersion::TAPSCRIPT, c, {kSchnorr, kSchnorr}, 1000), ScriptError::OK);
    EXPECT_EQ(st, (Stack{{1}}));
    EXPECT_EQ(c.schnorr_calls.size(), 2u);
    // An empty signature adds 0 without a check.
    c.schnorr_calls.clear();
    ASSERT_EQ(Eval(s, 0, &st, SigVersion::TAPSCRIPT, c, {{}, kSchnorr}, 1000), ScriptError::OK);
    EXPECT_EQ(st, (Stack{{}}));
    EXPECT_EQ(c.schnorr_calls.size(), 1u);
    // A failing non-empty signature is an error, not false.
    c.schnorr_ok = false;
    EXPECT_ERR(Eval(s, 0, nullptr, SigVersion::TAPSCRIPT, c, {kSchnorr, kSchnorr}, 1000), ScriptError::SCHNORR_SIG);
    // CHECKSIGADD is BAD_OPCODE outside tapscript.
    EXPECT_ERR(Eval(Sc().op(OP_CHECKSIGADD).b, 0, nullptr, SigVersion::WITNESS_V0, c, {{}, {}, {}}),
               ScriptError::BAD_OPCODE);
    EXPECT_ERR(Eval(Sc().op(OP_CHECKSIGADD).b, 0, nullptr, SigVersion::TAPSCRIPT, c, {{}, {}}),
               ScriptError::INVALID_STACK_OPERATION);
}

TEST(Interpreter, TapscriptPubkeyTypes) {
    FakeChecker c;
    const Bytes s = Sc().op(OP_CHECKSIG).b;
    Stack st;
    // Empty key: error, even with an empty signature.
    EXPECT_ERR(Eval(s, 0, nullptr, SigVersion::TAPSCRIPT, c, {{}, {}}, 1000), ScriptError::PUBKEYTYPE);
    // Unknown key type (33 bytes): success without a check, unless discouraged.
    ASSERT_EQ(Eval(s, 0, &st, SigVersion::TAPSCRIPT, c, {kSchnorr, Bytes(33, 2)}, 1000), ScriptError::OK);
    EXPECT_EQ(st, (Stack{{1}}));
    EXPECT_TRUE(c.schnorr_calls.empty());
    EXPECT_ERR(Eval(s, SCRIPT_VERIFY_DISCOURAGE_UPGRADABLE_PUBKEYTYPE, nullptr, SigVersion::TAPSCRIPT, c,
                    {kSchnorr, Bytes(33, 2)}, 1000),
               ScriptError::DISCOURAGE_UPGRADABLE_PUBKEYTYPE);
    // ... and charged to the budget.
    EXPECT_ERR(Eval(s, 0, nullptr, SigVersion::TAPSCRIPT, c, {kSchnorr, Bytes(33, 2)}, 49),
               ScriptError::TAPSCRIPT_VALIDATION_WEIGHT);
    // Empty signature with an unknown key type: false.
    ASSERT_EQ(Eval(s, 0, &st, SigVersion::TAPSCRIPT, c, {{}, Bytes(33, 2)}, 0), ScriptError::OK);
    EXPECT_EQ(st, (Stack{{}}));
}

TEST(Interpreter, TapscriptValidationWeight) {
    FakeChecker c;
    // Three CHECKSIGVERIFYs need 150.
    const Bytes s = Sc().push(kX0).op(OP_CHECKSIGVERIFY).push(kX0).op(OP_CHECKSIGVERIFY).push(kX0)
                        .op(OP_CHECKSIG).b;
    const Stack sigs = {kSchnorr, kSchnorr, kSchnorr};
    EXPECT_EQ(Eval(s, 0, nullptr, SigVersion::TAPSCRIPT, c, sigs, 150), ScriptError::OK);
    EXPECT_ERR(Eval(s, 0, nullptr, SigVersion::TAPSCRIPT, c, sigs, 149), ScriptError::TAPSCRIPT_VALIDATION_WEIGHT);
    // Empty signatures cost nothing.
    EXPECT_EQ(Eval(Sc().push(kX0).op(OP_CHECKSIG).op(OP_NOT).b, 0, nullptr, SigVersion::TAPSCRIPT, c, {{}}, 0),
              ScriptError::OK);
}

TEST(Interpreter, TapscriptCodeSeparatorPosition) {
    FakeChecker c;
    // Positions: 0 NOP, 1 CODESEPARATOR, 2 push, 3 CHECKSIG.
    const Bytes s = Sc().op(OP_NOP).op(OP_CODESEPARATOR).push(kX0).op(OP_CHECKSIG).b;
    ASSERT_EQ(Eval(s, 0, nullptr, SigVersion::TAPSCRIPT, c, {kSchnorr}, 100), ScriptError::OK);
    ASSERT_EQ(c.codesep_positions.size(), 1u);
    EXPECT_EQ(c.codesep_positions[0], 1u);
    const Bytes none = Sc().push(kX0).op(OP_CHECKSIG).b;
    ASSERT_EQ(Eval(none, 0, nullptr, SigVersion::TAPSCRIPT, c, {kSchnorr}, 100), ScriptError::OK);
    EXPECT_EQ(c.codesep_positions[1], 0xffffffffu);
}

// ------------------------------------------------------------------------------------------
// VerifyScript

Bytes P2wpkh(const Bytes& key) {
    const Hash20 h = Hash160(key.data(), key.size());
    Bytes spk = {OP_0, 20};
    spk.insert(spk.end(), h.begin(), h.end());
    return spk;
}

Bytes P2sh(const Bytes& redeem) {
    const Hash20 h = Hash160(redeem.data(), redeem.size());
    Bytes spk = {OP_HASH160, 20};
    spk.insert(spk.end(), h.begin(), h.end());
    spk.push_back(OP_EQUAL);
    return spk;
}

Bytes P2wsh(const Bytes& script) {
    const Hash32 h = Sha256Hash(script.data(), script.size());
    Bytes spk = {OP_0, 32};
    spk.insert(spk.end(), h.begin(), h.end());
    return spk;
}

ScriptError Verify(const Bytes& sig, const Bytes& spk, const Stack* witness, uint32_t flags,
                   const SignatureChecker& c = kNoSigs) {
    ScriptError err = ScriptError::ERROR_COUNT;
    const bool ok = VerifyScript(sig, spk, witness, flags, c, &err);
    EXPECT_EQ(ok, err == ScriptError::OK);
    return err;
}

constexpr uint32_t kSegwitFlags = SCRIPT_VERIFY_P2SH | SCRIPT_VERIFY_WITNESS;

TEST(VerifyScript, LegacyAndP2sh) {
    EXPECT_EQ(Verify(Sc().num(1).b, Sc().op(OP_NOP).b, nullptr, 0), ScriptError::OK);
    EXPECT_ERR(Verify(Sc().num(0).b, Sc().op(OP_NOP).b, nullptr, 0), ScriptError::EVAL_FALSE);
    EXPECT_ERR(Verify({}, {}, nullptr, 0), ScriptError::EVAL_FALSE);
    EXPECT_ERR(Verify(Sc().num(1).op(OP_NOP).b, Sc().op(OP_NOP).b, nullptr, SCRIPT_VERIFY_SIGPUSHONLY),
               ScriptError::SIG_PUSHONLY);
    // A scriptSig cannot leave an open IF for the scriptPubKey.
    EXPECT_ERR(Verify(Sc().num(0).op(OP_IF).b, Sc().op(OP_ENDIF).num(1).b, nullptr, 0),
               ScriptError::UNBALANCED_CONDITIONAL);
    // P2SH: redeem script 2 EQUAL, argument 2.
    const Bytes redeem = Sc().num(2).op(OP_EQUAL).b;
    const Bytes spk = P2sh(redeem);
    EXPECT_EQ(Verify(Sc().num(2).push(redeem).b, spk, nullptr, SCRIPT_VERIFY_P2SH), ScriptError::OK);
    EXPECT_ERR(Verify(Sc().num(3).push(redeem).b, spk, nullptr, SCRIPT_VERIFY_P2SH), ScriptError::EVAL_FALSE);
    // Without P2SH, only the hash is checked.
    EXPECT_EQ(Verify(Sc().num(3).push(redeem).b, spk, nullptr, 0), ScriptError::OK);
    // Non-push scriptSig.
    EXPECT_ERR(Verify(Sc().num(2).op(OP_NOP).push(redeem).b, spk, nullptr, SCRIPT_VERIFY_P2SH),
               ScriptError::SIG_PUSHONLY);
    // CLEANSTACK.
    EXPECT_EQ(Verify(Sc().num(1).num(1).b, Sc().op(OP_NOP).b, nullptr, kSegwitFlags), ScriptError::OK);
    EXPECT_ERR(Verify(Sc().num(1).num(1).b, Sc().op(OP_NOP).b, nullptr, kSegwitFlags | SCRIPT_VERIFY_CLEANSTACK),
               ScriptError::CLEANSTACK);
    EXPECT_ERR(Verify(Sc().num(5).num(2).push(redeem).b, spk, nullptr, kSegwitFlags | SCRIPT_VERIFY_CLEANSTACK),
               ScriptError::CLEANSTACK);
}

TEST(VerifyScript, WitnessV0) {
    const Bytes key(33, 0x02);
    FakeChecker c;
    c.valid_ecdsa = {{kS0, key}};
    const Bytes spk = P2wpkh(key);
    const Stack w = {kS0, key};
    EXPECT_EQ(Verify({}, spk, &w, kSegwitFlags, c), ScriptError::OK);
    ASSERT_EQ(c.sigversions.size(), 1u);
    EXPECT_EQ(c.sigversions[0], SigVersion::WITNESS_V0);
    EXPECT_EQ(HexEncode(c.script_codes[0]), "76a914" + HexEncode(Hash160(key.data(), key.size())) + "88ac");
    const Stack w3 = {{}, kS0, key};
    EXPECT_ERR(Verify({}, spk, &w3, kSegwitFlags, c), ScriptError::WITNESS_PROGRAM_MISMATCH);
    EXPECT_ERR(Verify(Sc().num(1).b, spk, &w, kSegwitFlags, c), ScriptError::WITNESS_MALLEATED);
    const Stack bad = {kS1, key};
    EXPECT_ERR(Verify({}, spk, &bad, kSegwitFlags, c), ScriptError::EVAL_FALSE);
    // Without WITNESS the program is a push of true.
    EXPECT_EQ(Verify({}, spk, nullptr, SCRIPT_VERIFY_P2SH), ScriptError::OK);
    // Witness given to a non-witness spend.
    const Stack junk = {{1}};
    EXPECT_ERR(Verify(Sc().num(1).b, Sc().op(OP_NOP).b, &junk, kSegwitFlags), ScriptError::WITNESS_UNEXPECTED);
    // Wrong program length.
    EXPECT_ERR(Verify({}, Sc().num(0).push(Bytes(21, 1)).b, &w, kSegwitFlags), ScriptError::WITNESS_PROGRAM_WRONG_LENGTH);

    // P2WSH: script 1 ADD 3 EQUAL with witness 2.
    const Bytes ws = Sc().num(1).op(OP_ADD).num(3).op(OP_EQUAL).b;
    const Bytes wsh = P2wsh(ws);
    Stack ww = {{2}, ws};
    EXPECT_EQ(Verify({}, wsh, &ww, kSegwitFlags), ScriptError::OK);
    Stack ww_extra = {{9}, {2}, ws};
    EXPECT_ERR(Verify({}, wsh, &ww_extra, kSegwitFlags), ScriptError::CLEANSTACK);  // implicit cleanstack
    Stack ww_bad = {{3}, ws};
    EXPECT_ERR(Verify({}, wsh, &ww_bad, kSegwitFlags), ScriptError::EVAL_FALSE);
    Stack empty;
    EXPECT_ERR(Verify({}, wsh, &empty, kSegwitFlags), ScriptError::WITNESS_PROGRAM_WITNESS_EMPTY);
    Stack wrong_script = {{2}, Sc().num(1).b};
    EXPECT_ERR(Verify({}, wsh, &wrong_script, kSegwitFlags), ScriptError::WITNESS_PROGRAM_MISMATCH);
    // Witness elements above 520 bytes.
    const Bytes drop = Sc().op(OP_DROP).num(1).b;
    Stack big = {Bytes(521, 0), drop};
    EXPECT_ERR(Verify({}, P2wsh(drop), &big, kSegwitFlags), ScriptError::PUSH_SIZE);

    // P2SH-P2WPKH: scriptSig must be exactly the push of the redeem script.
    const Bytes redeem = P2wpkh(key);
    const Bytes p2sh = P2sh(redeem);
    EXPECT_EQ(Verify(Sc().push(redeem).b, p2sh, &w, kSegwitFlags, c), ScriptError::OK);
    Bytes nonminimal = redeem;  // OP_PUSHDATA1 <len> <redeem>: same bytes, not the minimal push
    nonminimal.insert(nonminimal.begin(), {uint8_t(OP_PUSHDATA1), uint8_t(redeem.size())});
    EXPECT_ERR(Verify(nonminimal, p2sh, &w, kSegwitFlags, c), ScriptError::WITNESS_MALLEATED_P2SH);
    // Upgradable versions.
    const Bytes v2 = Sc().num(2).push(Bytes(32, 1)).b;
    EXPECT_EQ(Verify({}, v2, &w, kSegwitFlags), ScriptError::OK);
    EXPECT_ERR(Verify({}, v2, &w, kSegwitFlags | SCRIPT_VERIFY_DISCOURAGE_UPGRADABLE_WITNESS_PROGRAM),
               ScriptError::DISCOURAGE_UPGRADABLE_WITNESS_PROGRAM);
}

/** A taproot output committing to one leaf `script` (version `leaf_version`) under the internal key
 *  of the first BIP341 wallet vector; sets the program and the control block. */
void TaprootLeaf(const Bytes& script, uint8_t leaf_version, Bytes& spk, Bytes& control) {
    const Bytes internal = HexDecode("d6889cb081036e0faefa3a35157ad71086b123b2b144b649798b494c300a961d");
    const Hash32 leaf = ComputeTapleafHash(leaf_version, script.data(), script.size());
    uint8_t q[32];
    int parity = 0;
    ASSERT_TRUE(ComputeTweakedKey(internal.data(), &leaf, q, &parity));
    spk = {OP_1, 32};
    spk.insert(spk.end(), q, q + 32);
    control = {uint8_t(leaf_version | parity)};
    control.insert(control.end(), internal.begin(), internal.end());
}

constexpr uint32_t kTaprootFlags = kSegwitFlags | SCRIPT_VERIFY_TAPROOT;

TEST(VerifyScript, TaprootKeyPath) {
    FakeChecker c;
    const Bytes spk = Sc().num(1).push(kX0).b;
    const Stack w = {kSchnorr};
    EXPECT_EQ(Verify({}, spk, &w, kTaprootFlags, c), ScriptError::OK);
    ASSERT_EQ(c.schnorr_calls.size(), 1u);
    EXPECT_EQ(c.schnorr_calls[0].second, kX0);
    EXPECT_EQ(c.sigversions[0], SigVersion::TAPROOT);
    c.schnorr_ok = false;
    EXPECT_ERR(Verify({}, spk, &w, kTaprootFlags, c), ScriptError::SCHNORR_SIG);
    // Annex is removed: still a key path.
    const Stack wa = {kSchnorr, {0x50, 1}};
    c.schnorr_ok = true;
    EXPECT_EQ(Verify({}, spk, &wa, kTaprootFlags, c), ScriptError::OK);
    // Without TAPROOT: anyone can spend. Inside P2SH: not taproot.
    c.schnorr_ok = false;
    EXPECT_EQ(Verify({}, spk, &w, kSegwitFlags, c), ScriptError::OK);
    EXPECT_ERR(Verify({}, spk, nullptr, kTaprootFlags, c), ScriptError::WITNESS_PROGRAM_WITNESS_EMPTY);
    EXPECT_EQ(Verify(Sc().push(spk).b, P2sh(spk), &w, kTaprootFlags, c), ScriptError::OK);
}

TEST(VerifyScript, TaprootScriptPath) {
    FakeChecker c;
    Bytes spk, control;
    const Bytes script = Sc().push(kX0).op(OP_CHECKSIG).b;
    TaprootLeaf(script, kTaprootLeafTapscript, spk, control);
    Stack w = {kSchnorr, script, control};
    EXPECT_EQ(Verify({}, spk, &w, kTaprootFlags, c), ScriptError::OK);
    ASSERT_EQ(c.schnorr_calls.size(), 1u);
    EXPECT_EQ(c.sigversions[0], SigVersion::TAPSCRIPT);
    // Wrong parity / control sizes.
    Stack wp = {kSchnorr, script, control};
    wp[2][0] ^= 1;
    EXPECT_ERR(Verify({}, spk, &wp, kTaprootFlags, c), ScriptError::WITNESS_PROGRAM_MISMATCH);
    Stack ws = {kSchnorr, script, Bytes(control.begin(), control.end() - 1)};
    EXPECT_ERR(Verify({}, spk, &ws, kTaprootFlags, c), ScriptError::TAPROOT_WRONG_CONTROL_SIZE);
    // Implicit cleanstack.
    Stack wx = {{1}, kSchnorr, script, control};
    EXPECT_ERR(Verify({}, spk, &wx, kTaprootFlags, c), ScriptError::CLEANSTACK);
    // With an annex (not a key path: 3 elements + annex).
    Stack wa = {kSchnorr, script, control, {0x50}};
    EXPECT_EQ(Verify({}, spk, &wa, kTaprootFlags, c), ScriptError::OK);
}

TEST(VerifyScript, TapscriptOpSuccess) {
    for (uint8_t op : {uint8_t(80), uint8_t(98), uint8_t(OP_CAT), uint8_t(OP_MUL), uint8_t(187), uint8_t(254)}) {
        SCOPED_TRACE(int(op));
        Bytes spk, control;
        // OP_SUCCESS after an OP_RETURN and inside an unexecuted branch still wins.
        const Bytes script = Sc().op(OP_RETURN).num(0).op(OP_IF).op(op).op(OP_ENDIF).b;
        TaprootLeaf(script, kTaprootLeafTapscript, spk, control);
        Stack w = {script, control};
        EXPECT_EQ(Verify({}, spk, &w, kTaprootFlags), ScriptError::OK);
        EXPECT_ERR(Verify({}, spk, &w, kTaprootFlags | SCRIPT_VERIFY_DISCOURAGE_OP_SUCCESS),
                   ScriptError::DISCOURAGE_OP_SUCCESS);
        // It overrides the stack element size limit too.
        Stack wbig = {Bytes(521, 0), script, control};
        EXPECT_EQ(Verify({}, spk, &wbig, kTaprootFlags), ScriptError::OK);
    }
    // A truncated push before any OP_SUCCESS: BAD_OPCODE.
    Bytes spk, control;
    const Bytes bad = Sc().raw("4c").b;
    TaprootLeaf(bad, kTaprootLeafTapscript, spk, control);
    Stack w = {bad, control};
    EXPECT_ERR(Verify({}, spk, &w, kTaprootFlags), ScriptError::BAD_OPCODE);
    // OP_SUCCESS found before the truncation: success.
    const Bytes ok = Sc().raw("504c").b;
    TaprootLeaf(ok, kTaprootLeafTapscript, spk, control);
    Stack w2 = {ok, control};
    EXPECT_EQ(Verify({}, spk, &w2, kTaprootFlags), ScriptError::OK);
}

TEST(VerifyScript, TaprootUnknownLeafVersion) {
    Bytes spk, control;
    const Bytes script = Sc().op(OP_RETURN).b;
    TaprootLeaf(script, 0xc2, spk, control);
    Stack w = {script, control};
    EXPECT_EQ(Verify({}, spk, &w, kTaprootFlags), ScriptError::OK);
    EXPECT_ERR(Verify({}, spk, &w, kTaprootFlags | SCRIPT_VERIFY_DISCOURAGE_UPGRADABLE_TAPROOT_VERSION),
               ScriptError::DISCOURAGE_UPGRADABLE_TAPROOT_VERSION);
}

TEST(VerifyScript, TapscriptValidationBudgetFromWitnessSize) {
    // Budget = serialized witness size + 50. Script: n x (<x0> CHECKSIGVERIFY) then 1; witness
    // n signatures of 64 bytes: each adds 65 bytes, i.e. more than 50, so the budget always
    // suffices; with 1-byte... Use empty-key-free variant: signatures of 1 byte (unknown-type
    // keys skip verification) each add 2 bytes but cost 50.
    const Bytes key33(33, 0x02);  // unknown key type: charged, not verified
    Sc s;
    const int n = 10;
    for (int i = 0; i < n; ++i) s.push(key33).op(OP_CHECKSIGVERIFY);
    s.num(1);
    Bytes spk, control;
    TaprootLeaf(s.b, kTaprootLeafTapscript, spk, control);
    Stack w;
    for (int i = 0; i < n; ++i) w.push_back({1});
    w.push_back(s.b);
    w.push_back(control);
    // Witness size: 1 (count) + 10*2 + script (3 + size) + control (1 + 33).
    const int64_t size = 1 + 2 * n + int64_t(s.b.size()) + 3 + 34;
    ASSERT_LT(size + 50, 50 * n);
    EXPECT_ERR(Verify({}, spk, &w, kTaprootFlags), ScriptError::TAPSCRIPT_VALIDATION_WEIGHT);
    // Padding the witness with an annex raises the budget.
    Stack wa = w;
    wa.push_back(Bytes(size_t(50 * n - size), 0x50));
    EXPECT_EQ(Verify({}, spk, &wa, kTaprootFlags), ScriptError::OK);
}

}  // namespace
}  // namespace ibd
