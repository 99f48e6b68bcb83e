// BIP143 sighash: the examples of BIP143 "Example" (native P2WPKH, P2SH-P2WPKH), their
// intermediate hashes, and the check records the interpreter asks for when it evaluates the
// signed transactions (ECDSA: legacy P2PK input and BIP143 inputs), each of which verifies.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "primitives/hex.h"
#include "primitives/transaction.h"
#include "script/bip143_vectors.h"
#include "script/interpreter.h"
#include "script/sighash.h"
#include "support/tx_checks.h"
#include "validation/block_validation.h"
#include "verify/check_buffer.h"

namespace ibd {
namespace {

using namespace bip143_vectors;

Transaction Parse(const char* hex) {
    const std::vector<uint8_t> b = HexDecode(hex);
    return ParseTransaction(b.data(), b.size());
}

SpentOutput Out(int64_t value, const char* spk_hex) {
    SpentOutput o;
    o.value = value;
    o.script_pubkey = HexDecode(spk_hex);
    return o;
}

TEST(Bip143, NativeP2wpkhExample) {
    const Transaction tx = Parse(kP2wpkhUnsigned);
    PrecomputedTxData pre;
    pre.Init(tx, {}, true, false);
    EXPECT_EQ(HexEncode(pre.hash_prevouts), "96b827c8483d4e9b96712b6713a7b68d6e8003a781feba36c31143470b4efd37");
    EXPECT_EQ(HexEncode(pre.hash_sequence), "52b0a642eea2fb7ae638c36f6252b6750293dbe574a806984b8e4d8548339a3b");
    EXPECT_EQ(HexEncode(pre.hash_outputs), "863ef3e1a92afbfdb97f31ad0fc7683ee943e9abcf2501590ff8f6551f47e5e5");
    const std::vector<uint8_t> script_code = HexDecode("76a9141d0f172a0ecb48aee1be1f2687d2963ae33f71a188ac");
    const Hash32 h = SignatureHashWitnessV0(script_code, tx, 1, 1, 600000000, pre);
    EXPECT_EQ(HexEncode(h), "c37af31116d1b27caf68aae9e3ac82f1477929014d5b917657d0eb49478cb670");
}

TEST(Bip143, P2shP2wpkhExample) {
    const Transaction tx = Parse(kP2shP2wpkhUnsigned);
    PrecomputedTxData pre;
    pre.Init(tx, {}, true, false);
    EXPECT_EQ(HexEncode(pre.hash_prevouts), "b0287b4a252ac05af83d2dcef00ba313af78a3e9c329afa216eb3aa2a7b4613a");
    EXPECT_EQ(HexEncode(pre.hash_sequence), "18606b350cd8bf565266bc352f0caddcf01e8fa789dd8a15386327cf8cabe198");
    EXPECT_EQ(HexEncode(pre.hash_outputs), "de984f44532e2173ca0d64314fcefe6d30da6f8cf27bafa706da61df8a226c83");
    const std::vector<uint8_t> script_code = HexDecode("76a91479091972186c449eb1ded22b78e40d009bdf008988ac");
    const Hash32 h = SignatureHashWitnessV0(script_code, tx, 0, 1, 1000000000, pre);
    EXPECT_EQ(HexEncode(h), "64f3b0f4dd2bb3aa1ce8566d220cc74dda9df97d8490cc81d89d735c92e59fb6");
}

TEST(Bip143, SingleAndNoneZeroTheRightHashes) {
    const Transaction tx = Parse(kP2wpkhUnsigned);
    PrecomputedTxData pre;
    pre.Init(tx, {}, true, false);
    const std::vector<uint8_t> sc = HexDecode("76a9141d0f172a0ecb48aee1be1f2687d2963ae33f71a188ac");
    // All six defined hash types give distinct messages; SINGLE differs from NONE because it
    // commits to output n_in.
    std::vector<std::string> seen;
    for (int32_t ht : {1, 2, 3, 0x81, 0x82, 0x83}) {
        const std::string h = HexEncode(SignatureHashWitnessV0(sc, tx, 1, ht, 600000000, pre));
        for (const std::string& s : seen) EXPECT_NE(h, s) << ht;
        seen.push_back(h);
    }
}

constexpr uint32_t kModernFlags = SCRIPT_VERIFY_P2SH | SCRIPT_VERIFY_WITNESS | SCRIPT_VERIFY_TAPROOT |
                                  SCRIPT_VERIFY_DERSIG | SCRIPT_VERIFY_CHECKLOCKTIMEVERIFY |
                                  SCRIPT_VERIFY_CHECKSEQUENCEVERIFY | SCRIPT_VERIFY_NULLDUMMY;

TEST(Bip143, SignedExamplesVerifyWithTheExpectedRecords) {
    {
        // Input 0 spends P2PK (legacy sighash), input 1 P2WPKH (BIP143).
        const Transaction tx = Parse(kP2wpkhSigned);
        const SpentOutput o0 = Out(625000000, "2103c9f4836b9a4f77fc0d81f7bcb01b7f1b35916864b9476c241ce9fc198bd25432ac");
        const SpentOutput o1 = Out(600000000, "00141d0f172a0ecb48aee1be1f2687d2963ae33f71a1");
        test::TxEvaluation out = test::EvaluateTransaction(tx, 1, {&o0, &o1}, kModernFlags);
        for (const test::InputEvaluation& in : out.inputs) EXPECT_TRUE(in.ok) << ScriptErrorName(in.serror);
        EXPECT_EQ(out.verdicts, std::vector<uint8_t>(2, static_cast<uint8_t>(Verdict::kValid)));
        EXPECT_EQ(out.ecdsa_checks, 2u);
        EXPECT_EQ(out.inputs_by_type["p2pk"], 1u);
        EXPECT_EQ(out.inputs_by_type["p2wpkh"], 1u);
        ASSERT_EQ(out.origins.size(), 2u);
        // Record 0: P2PK with the 33-byte key of the scriptPubKey and the DER without hash_type.
        const std::vector<uint8_t>& b = out.checks;
        ASSERT_GE(b.size(), 36u + 33 + 0x47);
        EXPECT_EQ(b[0], static_cast<uint8_t>(CheckType::kEcdsa));
        EXPECT_EQ(b[1], 33);
        EXPECT_EQ(b[2] | (b[3] << 8), 0x47);
        const Hash32 legacy = SignatureHashLegacy(o0.script_pubkey, tx, 0, 1);
        EXPECT_TRUE(std::equal(legacy.begin(), legacy.end(), b.begin() + 4));
        // Record 1: BIP143 message from the example.
        const size_t r1 = 36 + 33 + 0x47;
        EXPECT_EQ(b[r1 + 1], 33);
        EXPECT_EQ(b[r1 + 2] | (b[r1 + 3] << 8), 0x46);
        EXPECT_EQ(HexEncode(&b[r1 + 4], 32), "c37af31116d1b27caf68aae9e3ac82f1477929014d5b917657d0eb49478cb670");
        EXPECT_EQ(HexEncode(&b[r1 + 36 + 33], 0x46),
                  "304402203609e17b84f6a7d30c80bfa610b5b4542f32a8a0d5447a12fb1366d7f01cc44a0220573a954c4518331561406f"
                  "90300e8f3358f51928d43c212a8caed02de67eebee");
        EXPECT_EQ(b.size(), r1 + 36 + 33 + 0x46);
    }
    {
        const Transaction tx = Parse(kP2shP2wpkhSigned);
        const SpentOutput o0 = Out(1000000000, "a9144733f37cf4db86fbc2efed2500b4f4e49f31202387");
        test::TxEvaluation out = test::EvaluateTransaction(tx, 7, {&o0}, kModernFlags);
        ASSERT_EQ(out.inputs.size(), 1u);
        EXPECT_TRUE(out.inputs[0].ok) << ScriptErrorName(out.inputs[0].serror);
        EXPECT_EQ(out.verdicts, std::vector<uint8_t>(1, static_cast<uint8_t>(Verdict::kValid)));
        EXPECT_EQ(out.inputs_by_type["p2sh-p2wpkh"], 1u);
        ASSERT_EQ(out.origins.size(), 1u);
        EXPECT_EQ(out.origins[0].tx_index, 7u);
        EXPECT_EQ(HexEncode(&out.checks[4], 32), "64f3b0f4dd2bb3aa1ce8566d220cc74dda9df97d8490cc81d89d735c92e59fb6");
        EXPECT_EQ(HexEncode(&out.checks[36], 33), "03ad1d8e89212f0b92c74d23bb710c00662ad1470198ac48c43f7d6f93a2a26873");
    }
}

}  // namespace
}  // namespace ibd
