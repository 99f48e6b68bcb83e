// BIP341 key-path signature hashes against the "keyPathSpending" wallet test vectors
// (vectors/bitcoin-core/bip341_wallet_vectors.json, byte-identical to bips/bip-0341):
// per-transaction intermediary hashes, per-input SigMsg and sighash, the TapTweak tagged hash,
// and the check records the interpreter asks for when it evaluates the vectors' fully signed
// transaction (every one verifies), and key-path witnesses the interpreter must reject.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "primitives/hex.h"
#include "primitives/transaction.h"
#include "script/interpreter.h"
#include "script/sighash.h"
#include "support/test_support.h"
#include "support/tx_checks.h"
#include "validation/block_validation.h"
#include "verify/check_buffer.h"

namespace ibd {
namespace {

using nlohmann::json;

class Bip341KeyPath : public ::testing::Test {
protected:
    void SetUp() override {
        const json doc = test::ReadJsonFile(test::FixturePath("vectors/bitcoin-core/bip341_wallet_vectors.json"));
        ASSERT_EQ(doc["keyPathSpending"].size(), 1u);
        vec_ = doc["keyPathSpending"][0];
        const std::vector<uint8_t> raw = HexDecode(vec_["given"]["rawUnsignedTx"].get<std::string>());
        tx_ = ParseTransaction(raw.data(), raw.size());
        for (const json& u : vec_["given"]["utxosSpent"]) {
            SpentOutput o;
            o.value = u["amountSats"].get<int64_t>();
            o.script_pubkey = HexDecode(u["scriptPubKey"].get<std::string>());
            spent_.push_back(o);
        }
        ASSERT_EQ(spent_.size(), tx_.vin.size());
        for (const SpentOutput& o : spent_) spent_ptrs_.push_back(&o);
        pre_.Init(tx_, spent_ptrs_, false, true);
    }

    json vec_;
    Transaction tx_;
    std::vector<SpentOutput> spent_;
    std::vector<const SpentOutput*> spent_ptrs_;
    PrecomputedTxData pre_;
};

TEST_F(Bip341KeyPath, IntermediaryHashes) {
    const json& im = vec_["intermediary"];
    EXPECT_EQ(HexEncode(pre_.sha_prevouts), im["hashPrevouts"].get<std::string>());
    EXPECT_EQ(HexEncode(pre_.sha_amounts), im["hashAmounts"].get<std::string>());
    EXPECT_EQ(HexEncode(pre_.sha_scriptpubkeys), im["hashScriptPubkeys"].get<std::string>());
    EXPECT_EQ(HexEncode(pre_.sha_sequences), im["hashSequences"].get<std::string>());
    EXPECT_EQ(HexEncode(pre_.sha_outputs), im["hashOutputs"].get<std::string>());
}

TEST_F(Bip341KeyPath, SigMsgAndSighashPerInput) {
    size_t checked = 0;
    for (const json& in : vec_["inputSpending"]) {
        const size_t index = in["given"]["txinIndex"].get<size_t>();
        const uint8_t hash_type = in["given"]["hashType"].get<uint8_t>();
        std::vector<uint8_t> msg;
        ASSERT_TRUE(TaprootSigMsg(tx_, index, hash_type, pre_, nullptr, msg)) << index;
        EXPECT_EQ(HexEncode(msg), in["intermediary"]["sigMsg"].get<std::string>()) << "input " << index;
        Hash32 sighash;
        ASSERT_TRUE(SignatureHashTaproot(tx_, index, hash_type, pre_, nullptr, sighash));
        EXPECT_EQ(HexEncode(sighash), in["intermediary"]["sigHash"].get<std::string>()) << "input " << index;
        // The streamed hash equals hash_TapSighash of the built message.
        EXPECT_EQ(sighash, TaggedHash("TapSighash", msg.data(), msg.size()));
        ++checked;
    }
    EXPECT_EQ(checked, 7u);  // hash types 0x00, 0x01, 0x02, 0x03, 0x81, 0x82, 0x83
}

TEST_F(Bip341KeyPath, TapTweakTaggedHash) {
    // tweak = hash_TapTweak(internal key || merkle root), or of the key alone without scripts
    // (BIP341 "Constructing and spending Taproot outputs").
    for (const json& in : vec_["inputSpending"]) {
        std::vector<uint8_t> data = HexDecode(in["intermediary"]["internalPubkey"].get<std::string>());
        if (!in["given"]["merkleRoot"].is_null()) {
            const std::vector<uint8_t> root = HexDecode(in["given"]["merkleRoot"].get<std::string>());
            data.insert(data.end(), root.begin(), root.end());
        }
        EXPECT_EQ(HexEncode(TaggedHash("TapTweak", data.data(), data.size())),
                  in["intermediary"]["tweak"].get<std::string>());
    }
}

TEST_F(Bip341KeyPath, UndefinedHashTypesAndSingleWithoutOutputFail) {
    Hash32 h;
    for (int ht : {0x04, 0x05, 0x40, 0x80, 0x84, 0xff}) {
        EXPECT_FALSE(SignatureHashTaproot(tx_, 0, static_cast<uint8_t>(ht), pre_, nullptr, h)) << ht;
    }
    // Two outputs: SIGHASH_SINGLE is fine for input 1 and fails for input 3.
    EXPECT_TRUE(SignatureHashTaproot(tx_, 1, 0x03, pre_, nullptr, h));
    EXPECT_FALSE(SignatureHashTaproot(tx_, 3, 0x03, pre_, nullptr, h));
    EXPECT_FALSE(SignatureHashTaproot(tx_, 3, 0x83, pre_, nullptr, h));
}

TEST_F(Bip341KeyPath, AnnexSetsSpendTypeAndAppendsItsHash) {
    const std::vector<uint8_t> annex = {0x50, 0xde, 0xad};
    std::vector<uint8_t> without, with;
    ASSERT_TRUE(TaprootSigMsg(tx_, 0, 0x00, pre_, nullptr, without));
    ASSERT_TRUE(TaprootSigMsg(tx_, 0, 0x00, pre_, &annex, with));
    ASSERT_EQ(with.size(), without.size() + 32);
    // Layout with hash_type 0: epoch, hash_type, version, locktime, 5 x 32 hashes, spend_type.
    const size_t spend_type_at = 1 + 1 + 4 + 4 + 5 * 32;
    EXPECT_EQ(without[spend_type_at], 0);
    EXPECT_EQ(with[spend_type_at], 1);
    // sha_annex = SHA256(CompactSize(3) || annex), after input_index.
    const std::vector<uint8_t> ser = {0x03, 0x50, 0xde, 0xad};
    const Hash32 sha_annex = Sha256Hash(ser.data(), ser.size());
    EXPECT_TRUE(std::equal(sha_annex.begin(), sha_annex.end(), with.end() - 32));
    EXPECT_TRUE(std::equal(without.begin(), without.begin() + spend_type_at, with.begin()));
}

// The workload report's message size (TaprootSighashMessageSize) is the size of the message
// itself, for every input and hash type, with and without an annex and the BIP342 extension,
// and 0 where the sighash fails.
TEST_F(Bip341KeyPath, MessageSizeIsTheMessagesSize) {
    const Hash32 sha_annex = AnnexHash({0x50, 0x01});
    const TapscriptSigExt ext;
    size_t compared = 0;
    for (size_t i = 0; i < tx_.vin.size(); ++i) {
        for (int ht = 0; ht < 256; ++ht) {
            for (const Hash32* annex : {static_cast<const Hash32*>(nullptr), &sha_annex}) {
                for (const TapscriptSigExt* e : {static_cast<const TapscriptSigExt*>(nullptr), &ext}) {
                    std::vector<uint8_t> msg;
                    const bool ok = TaprootSigMsgExt(tx_, i, static_cast<uint8_t>(ht), pre_, annex, e, msg);
                    EXPECT_EQ(TaprootSighashMessageSize(tx_, i, static_cast<uint8_t>(ht), pre_, annex != nullptr, e != nullptr),
                              ok ? msg.size() : 0u)
                        << "input " << i << " hash_type " << ht;
                    compared += ok;
                }
            }
        }
    }
    EXPECT_GT(compared, 100u);
}

constexpr uint32_t kTaprootFlags = SCRIPT_VERIFY_P2SH | SCRIPT_VERIFY_WITNESS | SCRIPT_VERIFY_TAPROOT |
                                   SCRIPT_VERIFY_DERSIG | SCRIPT_VERIFY_CHECKLOCKTIMEVERIFY |
                                   SCRIPT_VERIFY_CHECKSEQUENCEVERIFY | SCRIPT_VERIFY_NULLDUMMY;

TEST_F(Bip341KeyPath, FullySignedTxVerifiesWithTheVectorsRecords) {
    const std::vector<uint8_t> raw = HexDecode(vec_["auxiliary"]["fullySignedTx"].get<std::string>());
    const Transaction signed_tx = ParseTransaction(raw.data(), raw.size());
    ASSERT_EQ(signed_tx.vin.size(), tx_.vin.size());
    test::TxEvaluation out = test::EvaluateTransaction(signed_tx, 1, spent_ptrs_, kTaprootFlags);
    for (size_t i = 0; i < out.inputs.size(); ++i) {
        EXPECT_TRUE(out.inputs[i].ok) << "input " << i << ": " << ScriptErrorName(out.inputs[i].serror);
    }
    EXPECT_EQ(out.verdicts, std::vector<uint8_t>(9, static_cast<uint8_t>(Verdict::kValid)));
    EXPECT_EQ(out.schnorr_checks, 7u);
    EXPECT_EQ(out.ecdsa_checks, 2u);
    EXPECT_EQ(out.inputs_by_type["p2tr-keypath"], 7u);
    EXPECT_EQ(out.inputs_by_type["p2pkh"], 1u);
    EXPECT_EQ(out.inputs_by_type["p2wpkh"], 1u);
    EXPECT_EQ(out.inputs_by_type.size(), 3u);
    ASSERT_EQ(out.origins.size(), 9u);

    // Walk the records; each Schnorr record carries the vector's sighash, the output key and
    // the 64-byte signature without its hash_type byte.
    size_t pos = 0, rec = 0;
    for (const json& in : vec_["inputSpending"]) {
        const size_t index = in["given"]["txinIndex"].get<size_t>();
        while (out.origins[rec].input_index != index) {
            ASSERT_EQ(out.checks[pos], static_cast<uint8_t>(CheckType::kEcdsa));
            pos += 36 + out.checks[pos + 1] + (out.checks[pos + 2] | (out.checks[pos + 3] << 8));
            ++rec;
        }
        ASSERT_EQ(out.checks[pos], static_cast<uint8_t>(CheckType::kSchnorr));
        ASSERT_EQ(out.checks[pos + 1], 32);
        ASSERT_EQ(out.checks[pos + 2] | (out.checks[pos + 3] << 8), 64);
        EXPECT_EQ(HexEncode(&out.checks[pos + 4], 32), in["intermediary"]["sigHash"].get<std::string>());
        EXPECT_EQ(HexEncode(&out.checks[pos + 36], 32),
                  HexEncode(spent_[index].script_pubkey.data() + 2, 32));
        const std::string witness = in["expected"]["witness"][0].get<std::string>();
        EXPECT_EQ(HexEncode(&out.checks[pos + 68], 64), witness.substr(0, 128));
        pos += 36 + 32 + 64;
        ++rec;
    }
}

/** Input 0 of the unsigned transaction with `witness`, evaluated under `flags`. */
test::InputEvaluation KeyPathInput(const Transaction& unsigned_tx, const std::vector<const SpentOutput*>& spent,
                                   Stack witness, uint32_t flags = kTaprootFlags) {
    Transaction tx = unsigned_tx;
    tx.vin[0].witness = std::move(witness);
    return test::EvaluateTransaction(tx, 1, spent, flags).inputs[0];
}

TEST_F(Bip341KeyPath, BadSignatureEncodingsAreScriptErrors) {
    // Well formed but not the signer's: one Schnorr check, which fails.
    test::InputEvaluation r = KeyPathInput(tx_, spent_ptrs_, {std::vector<uint8_t>(64, 1)});
    EXPECT_EQ(r.type, "p2tr-keypath");
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.serror, ScriptError::SCHNORR_SIG);
    EXPECT_EQ(r.checks, 1u);
    // An explicit SIGHASH_DEFAULT byte is not allowed; nothing is verified.
    std::vector<uint8_t> sig65(65, 1);
    sig65[64] = 0x00;
    r = KeyPathInput(tx_, spent_ptrs_, {sig65});
    EXPECT_EQ(r.serror, ScriptError::SCHNORR_SIG_HASHTYPE);
    EXPECT_EQ(r.checks, 0u);
    r = KeyPathInput(tx_, spent_ptrs_, {std::vector<uint8_t>(63, 1)});
    EXPECT_EQ(r.serror, ScriptError::SCHNORR_SIG_SIZE);
    EXPECT_EQ(r.checks, 0u);
    // Annex: two elements, the last starting with 0x50 -> key path with annex (one check).
    r = KeyPathInput(tx_, spent_ptrs_, {std::vector<uint8_t>(64, 1), {0x50, 0x01}});
    EXPECT_EQ(r.type, "p2tr-keypath");
    EXPECT_EQ(r.serror, ScriptError::SCHNORR_SIG);
    EXPECT_EQ(r.checks, 1u);
    // Two elements without annex: script path, with a control block far too short.
    r = KeyPathInput(tx_, spent_ptrs_, {std::vector<uint8_t>(64, 1), {0x51}});
    EXPECT_EQ(r.type, "p2tr-scriptpath");
    EXPECT_EQ(r.serror, ScriptError::TAPROOT_WRONG_CONTROL_SIZE);
    // Empty witness: the spend cannot succeed.
    r = KeyPathInput(tx_, spent_ptrs_, {});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.serror, ScriptError::WITNESS_PROGRAM_WITNESS_EMPTY);
    // In Core's taproot exception block (P2SH | WITNESS only) the same input is not checked.
    r = KeyPathInput(tx_, spent_ptrs_, {}, SCRIPT_VERIFY_P2SH | SCRIPT_VERIFY_WITNESS);
    EXPECT_TRUE(r.ok) << ScriptErrorName(r.serror);
    EXPECT_EQ(r.checks, 0u);
}

}  // namespace
}  // namespace ibd
