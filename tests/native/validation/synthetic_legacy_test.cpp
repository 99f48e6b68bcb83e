// The SYNTHETIC legacy stress block (blocks-fixtures/derived/synthetic_legacy_tx.h): its verdict through the
// whole engine (ValidateBlock: parse, legacy sighash of every input, script evaluation, ECDSA
// verification), its sighashes against the generator's own computation and against
// SignatureHashLegacy, and the generator's refusal of bad parameters.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "primitives/block.h"
#include "script/sighash.h"
#include "derived/synthetic_legacy_tx.h"
#include "validation/block_validation.h"
#include "verify/check_buffer.h"

namespace ibd {
namespace {

BlockValidationResult Validate(const test::SyntheticLegacyBlock& s, VerifyMode mode) {
    ChainContext context;
    context.skip_proof_of_work = true;
    ValidationOptions options;
    options.verify = mode;
    return ValidateBlock(s.block.data(), s.block.size(), s.spent, s.hash_hex, s.height, context, options);
}

/** The msg32 of each check record, in record order (check_buffer.h layout). */
std::vector<Hash32> RecordMessages(const std::vector<uint8_t>& records, size_t count) {
    std::vector<Hash32> msgs;
    size_t at = 0;
    for (size_t k = 0; k < count; ++k) {
        const size_t pubkey_len = records.at(at + 1);
        const size_t sig_len = records.at(at + 2) | (size_t{records.at(at + 3)} << 8);
        Hash32 m;
        std::copy(records.begin() + at + 4, records.begin() + at + 36, m.begin());
        msgs.push_back(m);
        at += kCheckHeaderSize + pubkey_len + sig_len;
    }
    EXPECT_EQ(at, records.size());
    return msgs;
}

/** Valid verdict, one check per input, and every check's message = the generator's sighash =
 *  SignatureHashLegacy's. */
void ExpectValidWithSighashes(const test::SyntheticLegacyBlock& s, uint32_t inputs, VerifyMode mode) {
    const BlockValidationResult r = Validate(s, mode);
    ASSERT_TRUE(r.valid) << r.error;
    EXPECT_EQ(r.tx_count, 2u);
    EXPECT_EQ(r.inputs, inputs);
    EXPECT_EQ(r.ecdsa_checks, inputs);
    ASSERT_EQ(r.origins.size(), inputs);
    const std::vector<Hash32> msgs = RecordMessages(r.checks, r.origins.size());
    ASSERT_EQ(s.sighashes.size(), inputs);
    const Block block = ParseBlock(s.block.data(), s.block.size());
    const Transaction& tx = block.txs[1];
    for (uint32_t i = 0; i < inputs; ++i) {
        ASSERT_EQ(r.origins[i].tx_index, 1u);
        ASSERT_EQ(r.origins[i].input_index, i);
        ASSERT_EQ(msgs[i], s.sighashes[i]) << "input " << i;
        ASSERT_EQ(r.verdicts[i], static_cast<uint8_t>(Verdict::kValid)) << "input " << i;
    }
    // SignatureHashLegacy on a sample of inputs (first, last, and spread between).
    for (uint32_t i : {0u, 1u, inputs / 2, inputs - 1}) {
        EXPECT_EQ(SignatureHashLegacy(s.spent[i].out.script_pubkey, tx, i, SIGHASH_ALL), s.sighashes[i]) << "input " << i;
    }
}

TEST(SyntheticLegacyTx, SmallShapesAreValidWithTheirSighashes) {
    for (bool compressed : {false, true}) {
        test::SyntheticLegacyParams p;
        p.inputs = 300;
        p.outputs = 7;
        p.compressed_keys = compressed;
        const test::SyntheticLegacyBlock s = test::MakeSyntheticLegacyBlock(p);
        SCOPED_TRACE(compressed ? "compressed keys" : "uncompressed keys");
        EXPECT_EQ(s.height, test::kSyntheticLegacyHeight);
        ExpectValidWithSighashes(s, p.inputs, VerifyMode::kSynchronous);
        ExpectValidWithSighashes(s, p.inputs, VerifyMode::kRounds);
    }
}

// LegacySighashCache past its checkpoints (every 16 inputs): 70 inputs asked in order, in
// reverse and scrambled, under every hash type class, byte-identical to the uncached sighash.
TEST(SyntheticLegacyTx, CachedSighashesMatchInAnyOrder) {
    test::SyntheticLegacyParams p;
    p.inputs = 70;
    p.outputs = 5;
    const test::SyntheticLegacyBlock s = test::MakeSyntheticLegacyBlock(p);
    const Block block = ParseBlock(s.block.data(), s.block.size());
    const Transaction& tx = block.txs[1];
    for (int32_t hash_type : {1, 2, 3, 0x81, 0x82, 0x83, 0, 0x21}) {
        PrecomputedTxData pre;
        pre.Init(tx, {}, false, false);
        std::vector<uint32_t> order;
        for (uint32_t i = 0; i < p.inputs; ++i) order.push_back(i);                      // in order
        for (uint32_t i = p.inputs; i-- > 0;) order.push_back(i);                        // reverse
        for (uint32_t k = 0; k < p.inputs; ++k) order.push_back((k * 37 + 11) % p.inputs);  // scrambled
        for (uint32_t i : order) {
            const std::vector<uint8_t>& code = s.spent[i].out.script_pubkey;
            ASSERT_EQ(SignatureHashLegacy(code, tx, i, hash_type, pre), SignatureHashLegacy(code, tx, i, hash_type))
                << "input " << i << " hash_type " << hash_type;
        }
        if (hash_type == 1) {
            for (uint32_t i = 0; i < p.inputs; ++i) EXPECT_EQ(SignatureHashLegacy(s.spent[i].out.script_pubkey, tx, i, 1, pre), s.sighashes[i]);
        }
    }
}

TEST(SyntheticLegacyTx, IsDeterministic) {
    test::SyntheticLegacyParams p;
    p.inputs = 40;
    p.outputs = 3;
    const test::SyntheticLegacyBlock a = test::MakeSyntheticLegacyBlock(p);
    const test::SyntheticLegacyBlock b = test::MakeSyntheticLegacyBlock(p);
    EXPECT_EQ(a.block, b.block);
    EXPECT_EQ(a.hash_hex, b.hash_hex);
    p.outputs = 4;
    EXPECT_NE(test::MakeSyntheticLegacyBlock(p).block, a.block);
}

// The benchmark's shape: about 1 MB, 5,000 inputs, every one verified.
TEST(SyntheticLegacyTx, DefaultShapeIsAboutOneMegabyteAndValid) {
    const test::SyntheticLegacyParams p;
    const test::SyntheticLegacyBlock s = test::MakeSyntheticLegacyBlock(p);
    EXPECT_EQ(p.inputs, 5000u);
    EXPECT_GT(s.block.size(), 990000u);
    EXPECT_LE(s.block.size(), test::kSyntheticMaxBlockBytes);
    EXPECT_GT(s.tx_bytes, 990000u);
    ExpectValidWithSighashes(s, p.inputs, VerifyMode::kSynchronous);
}

TEST(SyntheticLegacyTx, ATamperedSignatureFailsItsInputOnly) {
    test::SyntheticLegacyParams p;
    p.inputs = 50;
    p.outputs = 2;
    test::SyntheticLegacyBlock s = test::MakeSyntheticLegacyBlock(p);
    // Input 17's signature: its last S byte sits just before the hash type byte. Find the input
    // through the parsed block, then flip that byte in the raw bytes.
    const Block block = ParseBlock(s.block.data(), s.block.size());
    const TxIn& in = block.txs[1].vin[17];
    const size_t sig_len = in.script_sig[0];           // the push length (DER + hash type)
    const size_t script_sig_at = in.offset + 36 + 1;   // after the outpoint and the 1-byte length
    s.block[script_sig_at + sig_len - 1] ^= 0x01;      // the DER signature's last byte
    // The header's merkle root commits to the original bytes: re-parse and recompute it (the
    // parsed-block ValidateBlock has no expected hash to compare).
    Block tampered = ParseBlock(s.block.data(), s.block.size());
    tampered.header.merkle_root = BlockMerkleRoot(tampered);
    ChainContext context;
    context.skip_proof_of_work = true;
    ValidationOptions options;
    options.verify = VerifyMode::kSynchronous;
    const BlockValidationResult r = ValidateBlock(std::move(tampered), s.spent, s.height, context, options);
    EXPECT_FALSE(r.valid);
    EXPECT_EQ(r.reject_reason, "mandatory-script-verify-flag-failed");
    EXPECT_EQ(r.tx_index, 1);
    EXPECT_EQ(r.input_index, 17);
    EXPECT_EQ(r.failed_inputs, 1u);
}

TEST(SyntheticLegacyTx, RefusesBadParameters) {
    auto refused = [](uint32_t inputs, uint32_t outputs, bool compressed, const char* names) {
        test::SyntheticLegacyParams p;
        p.inputs = inputs;
        p.outputs = outputs;
        p.compressed_keys = compressed;
        try {
            test::MakeSyntheticLegacyBlock(p);
            ADD_FAILURE() << "accepted inputs=" << inputs << " outputs=" << outputs;
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(names), std::string::npos) << e.what();
        }
    };
    refused(0, 1, false, "inputs must be 1..25000, got 0");
    refused(1, 0, false, "outputs must be 1..30000, got 0");
    refused(25001, 1, true, "inputs must be 1..25000");
    refused(1, 30001, false, "outputs must be 1..30000");
    refused(5600, 1, false, "over the 1000000-byte limit");    // 5,600 x 181 bytes
    refused(5000, 3000, false, "over the 1000000-byte limit");
}

}  // namespace
}  // namespace ibd
