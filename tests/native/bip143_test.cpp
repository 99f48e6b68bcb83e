// BIP143 sighash: the examples of BIP143 "Example" (native P2WPKH, P2SH-P2WPKH), their
// intermediate hashes, and the check records the engine extracts from the signed
// transactions (ECDSA: legacy P2PK input and BIP143 inputs).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine.h"
#include "extract.h"
#include "hex.h"
#include "sighash.h"
#include "transaction.h"

namespace ibd {
namespace {

const char* kP2wpkhUnsigned =
    "0100000002fff7f7881a8099afa6940d42d1e7f6362bec38171ea3edf433541db4e4ad969f0000000000eeffffffef51e1b804cc89d182"
    "d279655c3aa89e815b1b309fe287d9b2b55d57b90ec68a0100000000ffffffff02202cb206000000001976a9148280b37df378db99f66f"
    "85c95a783a76ac7a6d5988ac9093510d000000001976a9143bde42dbee7e4dbe6a21b2d50ce2f0167faa815988ac11000000";
const char* kP2wpkhSigned =
    "01000000000102fff7f7881a8099afa6940d42d1e7f6362bec38171ea3edf433541db4e4ad969f00000000494830450221008b9d1dc26b"
    "a6a9cb62127b02742fa9d754cd3bebf337f7a55d114c8e5cdd30be022040529b194ba3f9281a99f2b1c0a19c0489bc22ede944ccf4ecba"
    "b4cc618ef3ed01eeffffffef51e1b804cc89d182d279655c3aa89e815b1b309fe287d9b2b55d57b90ec68a0100000000ffffffff02202c"
    "b206000000001976a9148280b37df378db99f66f85c95a783a76ac7a6d5988ac9093510d000000001976a9143bde42dbee7e4dbe6a21b2"
    "d50ce2f0167faa815988ac000247304402203609e17b84f6a7d30c80bfa610b5b4542f32a8a0d5447a12fb1366d7f01cc44a0220573a95"
    "4c4518331561406f90300e8f3358f51928d43c212a8caed02de67eebee0121025476c2e83188368da1ff3e292e7acafcdb3566bb0ad253"
    "f62fc70f07aeee635711000000";
const char* kP2shP2wpkhUnsigned =
    "0100000001db6b1b20aa0fd7b23880be2ecbd4a98130974cf4748fb66092ac4d3ceb1a54770100000000feffffff02b8b4eb0b00000000"
    "1976a914a457b684d7f0d539a46a45bbc043f35b59d0d96388ac0008af2f000000001976a914fd270b1ee6abcaea97fea7ad0402e8bd8a"
    "d6d77c88ac92040000";
const char* kP2shP2wpkhSigned =
    "01000000000101db6b1b20aa0fd7b23880be2ecbd4a98130974cf4748fb66092ac4d3ceb1a5477010000001716001479091972186c449e"
    "b1ded22b78e40d009bdf0089feffffff02b8b4eb0b000000001976a914a457b684d7f0d539a46a45bbc043f35b59d0d96388ac0008af2f"
    "000000001976a914fd270b1ee6abcaea97fea7ad0402e8bd8ad6d77c88ac02473044022047ac8e878352d3ebbde1c94ce3a10d057c2417"
    "5747116f8288e5d794d12d482f0220217f36a485cae903c713331d877c1f64677e3622ad4010726870540656fe9dcb012103ad1d8e8921"
    "2f0b92c74d23bb710c00662ad1470198ac48c43f7d6f93a2a2687392040000";

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

TEST(Bip143, ExtractsRecordsFromSignedExamples) {
    {
        // Input 0 spends P2PK (legacy sighash), input 1 P2WPKH (BIP143).
        const Transaction tx = Parse(kP2wpkhSigned);
        const SpentOutput o0 = Out(625000000, "2103c9f4836b9a4f77fc0d81f7bcb01b7f1b35916864b9476c241ce9fc198bd25432ac");
        const SpentOutput o1 = Out(600000000, "00141d0f172a0ecb48aee1be1f2687d2963ae33f71a1");
        BlockChecks out;
        ExtractTransactionChecks(tx, 1, {&o0, &o1}, ScriptFlags{}, out);
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
        BlockChecks out;
        ExtractTransactionChecks(tx, 7, {&o0}, ScriptFlags{}, out);
        EXPECT_EQ(out.inputs_by_type["p2sh-p2wpkh"], 1u);
        ASSERT_EQ(out.origins.size(), 1u);
        EXPECT_EQ(out.origins[0].tx_index, 7u);
        EXPECT_EQ(HexEncode(&out.checks[4], 32), "64f3b0f4dd2bb3aa1ce8566d220cc74dda9df97d8490cc81d89d735c92e59fb6");
        EXPECT_EQ(HexEncode(&out.checks[36], 33), "03ad1d8e89212f0b92c74d23bb710c00662ad1470198ac48c43f7d6f93a2a26873");
    }
}

}  // namespace
}  // namespace ibd
