// BlockValidation (native/validation/block_validation.h) over the 24 mainnet fixture blocks: every input of every block is
// evaluated by the interpreter under its height's consensus flags, every block is valid, the
// final checks (Core's workload) per block and per script type, the rounds the predicted
// verdicts needed, a real 2-of-3 P2SH multisig whose signatures match non-first keys (rounds
// matter), the packed buffer's shape, and tampering: a changed amount fails exactly its BIP143
// check and its input, a flipped multisig signature fails its input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "primitives/block.h"
#include "script/script.h"
#include "support/test_support.h"
#include "validation/block_validation.h"
#include "verify/batch_verify.h"
#include "verify/check_buffer.h"

namespace ibd {
namespace {

using Fixture = FixtureBlock;

Fixture Load(int height) { return LoadFixtureBlock(height); }

/** Expected final checks, rounds and (ecdsa, schnorr) per block, as measured with this engine
 *  (the single-signature types are cross-checked against index.json below). */
struct Expected {
    uint32_t checks, ecdsa, schnorr, rounds;
};
const std::map<int, Expected> kExpected = {
    {170, {1, 1, 0, 1}},          {181, {1, 1, 0, 1}},          {182, {1, 1, 0, 1}},
    {183, {1, 1, 0, 1}},          {187, {1, 1, 0, 1}},          {221, {1, 1, 0, 1}},
    {248, {1, 1, 0, 1}},          {24835, {74, 74, 0, 1}},      {57043, {131, 131, 0, 1}},
    {116928, {12, 12, 0, 1}},     {120460, {13, 13, 0, 1}},     {120461, {14, 14, 0, 1}},
    {120462, {12, 12, 0, 1}},     {150013, {94, 94, 0, 1}},     {210000, {899, 899, 0, 1}},
    {277647, {732, 732, 0, 1}},   {300025, {1427, 1427, 0, 1}}, {367891, {824, 824, 0, 1}},
    {403200, {1301, 1301, 0, 3}}, {478558, {774, 774, 0, 2}},   {542213, {12, 12, 0, 1}},
    {553724, {3, 3, 0, 1}},       {757739, {122, 122, 0, 2}},   {866342, {8076, 5701, 2375, 2}},
};

/** index.json signature_check type -> engine script type name. */
const std::map<std::string, std::string> kIndexType = {
    {"p2pk", "p2pk"}, {"p2pkh", "p2pkh"}, {"p2wpkh", "p2wpkh"}, {"p2sh-p2wpkh", "p2sh-p2wpkh"},
    {"p2tr-key", "p2tr-keypath"}, {"bare-multisig", "multisig"}, {"p2sh-multisig", "p2sh-multisig"},
    {"p2sh-p2pk", "p2sh"}, {"p2sh-p2wsh", "p2sh-p2wsh"}, {"p2wsh", "p2wsh"}, {"p2tr-script", "p2tr-scriptpath"},
    {"other", "empty"}};
/** Types whose inputs carry exactly one signature check each. */
const std::vector<std::string> kSingleSig = {"p2pk", "p2pkh", "p2wpkh", "p2sh-p2wpkh", "p2tr-keypath", "p2sh"};

std::vector<uint8_t> VerifyAll(const BlockValidationResult& r) {
    std::vector<uint8_t> v(r.origins.size(), 0xee);
    const BatchStatus st = VerifyBatch(r.checks.data(), r.checks.size(), static_cast<uint32_t>(r.origins.size()), v.data());
    EXPECT_EQ(st.error, 0);
    return v;
}

TEST(BlockValidation, EveryInputOfEveryFixtureBlockIsEvaluatedAndValid) {
    const nlohmann::json index = ReadJsonFile(FixturePath("index.json"));
    size_t blocks = 0;
    uint32_t total = 0, single_key = 0;
    for (const nlohmann::json& e : index["mainnet_with_prevouts"]) {
        const int height = e["height"].get<int>();
        SCOPED_TRACE("height " + std::to_string(height));
        const Fixture f = Load(height);
        BlockValidationResult r;
        ASSERT_NO_THROW(r = ValidateBlock(f.raw.data(), f.raw.size(), f.spent, e["block_hash"].get<std::string>(), height));
        EXPECT_TRUE(r.valid) << r.error;
        EXPECT_EQ(r.failed_inputs, 0u);
        EXPECT_EQ(r.hash_hex, e["block_hash"].get<std::string>());
        EXPECT_EQ(r.tx_count, e["tx_count"].get<uint32_t>());
        EXPECT_EQ(r.inputs, e["non_coinbase_inputs"].get<uint32_t>());

        // Every input evaluated to a final result; the coverage adds up.
        uint32_t inputs = 0, checks = 0;
        for (const auto& [name, c] : r.coverage) {
            EXPECT_EQ(c.evaluated, c.inputs) << name;
            inputs += c.inputs;
            checks += c.checks;
        }
        EXPECT_EQ(inputs, r.inputs);
        EXPECT_EQ(checks, r.origins.size());
        EXPECT_EQ(r.verdicts.size(), r.origins.size());
        EXPECT_EQ(r.ecdsa_checks + r.schnorr_checks, r.origins.size());

        // Inputs per type = index.json's independent classification (True and None together).
        std::map<std::string, uint32_t> by_index;
        for (const auto& [key, n] : e["signature_check"].items()) {
            const std::string type = key.substr(0, key.find(':'));
            ASSERT_TRUE(kIndexType.count(type)) << key;
            by_index[kIndexType.at(type)] += n.get<uint32_t>();
        }
        std::map<std::string, uint32_t> by_engine;
        for (const auto& [name, c] : r.coverage) by_engine[name] = c.inputs;
        EXPECT_EQ(by_engine, by_index);
        // Single-signature inputs: exactly one check each (the independent checker's count).
        for (const std::string& name : kSingleSig) {
            if (r.coverage.count(name)) EXPECT_EQ(r.coverage.at(name).checks, r.coverage.at(name).inputs) << name;
        }
        for (const char* name : {"p2pk", "p2pkh", "p2wpkh", "p2sh-p2wpkh", "p2tr-keypath"}) {
            if (r.coverage.count(name)) single_key += r.coverage.at(name).checks;
        }
        if (r.coverage.count("empty")) EXPECT_EQ(r.coverage.at("empty").checks, 0u);
        // Multisig inputs: at least one check each.
        for (const char* name : {"multisig", "p2sh-multisig"}) {
            if (r.coverage.count(name)) EXPECT_GE(r.coverage.at(name).checks, r.coverage.at(name).inputs) << name;
        }

        const auto exp = kExpected.find(height);
        ASSERT_NE(exp, kExpected.end());
        EXPECT_EQ(r.origins.size(), exp->second.checks);
        EXPECT_EQ(r.ecdsa_checks, exp->second.ecdsa);
        EXPECT_EQ(r.schnorr_checks, exp->second.schnorr);
        EXPECT_EQ(r.rounds, exp->second.rounds);

        // The recorded verdicts are the verifier's, and the final checks are in block order.
        EXPECT_EQ(VerifyAll(r), r.verdicts);
        // The packed buffer: well-formed records, Schnorr ones 32-byte key + 64-byte signature,
        // ECDSA ones with the 33- or 65-byte keys the fixture scripts hold.
        size_t pos = 0, records = 0, schnorr = 0;
        while (pos < r.checks.size()) {
            ASSERT_LE(pos + kCheckHeaderSize, r.checks.size());
            const uint8_t type = r.checks[pos];
            const size_t pk = r.checks[pos + 1];
            const size_t sig = r.checks[pos + 2] | (r.checks[pos + 3] << 8);
            if (type == static_cast<uint8_t>(CheckType::kSchnorr)) {
                EXPECT_EQ(pk, 32u);
                EXPECT_EQ(sig, 64u);
                ++schnorr;
            } else {
                ASSERT_EQ(type, static_cast<uint8_t>(CheckType::kEcdsa));
                EXPECT_TRUE(pk == 33 || pk == 65) << "record " << records << " pubkey_len " << pk;
                EXPECT_LE(sig, kMaxEcdsaSigLen);
            }
            pos += kCheckHeaderSize + pk + sig;
            ++records;
        }
        EXPECT_EQ(pos, r.checks.size());
        EXPECT_EQ(records, r.origins.size());
        EXPECT_EQ(schnorr, r.schnorr_checks);
        for (size_t i = 1; i < r.origins.size(); ++i) {
            const CheckOrigin& a = r.origins[i - 1];
            const CheckOrigin& b = r.origins[i];
            EXPECT_TRUE(a.tx_index < b.tx_index || (a.tx_index == b.tx_index && a.input_index <= b.input_index));
        }
        total += static_cast<uint32_t>(r.origins.size());
        ++blocks;

        std::cout << "[ block    ] " << height << " inputs " << r.inputs << " checks " << r.origins.size() << " rounds "
                  << r.rounds << " |";
        for (const auto& [name, c] : r.coverage) std::cout << " " << name << " " << c.evaluated << "/" << c.inputs << ":" << c.checks;
        std::cout << "\n";
    }
    EXPECT_EQ(blocks, 24u);
    EXPECT_EQ(total, 14527u);
    // Checks of the single-key spends (p2pk, p2pkh, p2wpkh, p2sh-p2wpkh, p2tr-keypath): the
    // fixtures' independently verified inputs of those types (README table).
    EXPECT_EQ(single_key, 13493u);
}

/** Pushes of a push-only script. */
std::vector<std::vector<uint8_t>> Pushes(const std::vector<uint8_t>& script) {
    std::vector<std::vector<uint8_t>> out;
    const uint8_t* pc = script.data();
    const uint8_t* end = pc + script.size();
    while (pc < end) {
        uint8_t op = 0;
        const uint8_t* push = nullptr;
        size_t len = 0;
        if (!GetScriptOp(pc, end, op, &push, &len)) break;
        out.emplace_back(push ? std::vector<uint8_t>(push, push + len) : std::vector<uint8_t>{});
    }
    return out;
}

bool Is2of3(const std::vector<uint8_t>& redeem) {
    return redeem.size() == 105 && redeem[0] == OP_2 && redeem[103] == OP_3 && redeem[104] == OP_CHECKMULTISIG;
}

TEST(BlockValidation, MultisigWalkNeedsRoundsAndEqualsCoresWalk) {
    // Block 403200: P2SH 2-of-3 multisig inputs whose signatures do not match the keys Core
    // tries first. Core's CHECKMULTISIG tries the last signature against the last key; round 1
    // predicts that valid; it is not, so the input is re-evaluated and the walk moves on to
    // the next key (a check never seen before), and so on.
    const Fixture f = Load(403200);
    const Block block = ParseBlock(f.raw.data(), f.raw.size());
    const BlockValidationResult r = ValidateBlock(f.raw.data(), f.raw.size(), f.spent, "", 403200);
    ASSERT_TRUE(r.valid) << r.error;
    EXPECT_GE(r.rounds, 2u);

    // Offsets of each final record.
    std::vector<size_t> offsets;
    for (size_t pos = 0; pos < r.checks.size();) {
        offsets.push_back(pos);
        pos += kCheckHeaderSize + r.checks[pos + 1] + (r.checks[pos + 2] | (r.checks[pos + 3] << 8));
    }
    ASSERT_EQ(offsets.size(), r.origins.size());

    size_t walked = 0, with_failed_trial = 0;
    for (size_t t = 1; t < block.txs.size(); ++t) {
        for (size_t i = 0; i < block.txs[t].vin.size(); ++i) {
            const std::vector<std::vector<uint8_t>> pushes = Pushes(block.txs[t].vin[i].script_sig);
            if (pushes.size() != 4 || !Is2of3(pushes.back())) continue;
            // Core's walk (EvalScript OP_CHECKMULTISIG): from the top of the stack down, i.e.
            // the last signature against the last key first; a match moves to the next
            // signature, every trial to the next key.
            const std::vector<std::vector<uint8_t>> script = Pushes(pushes.back());  // OP_2 k1 k2 k3 OP_3 ...
            const std::vector<std::vector<uint8_t>> keys = {{}, script[3], script[2], script[1]};
            const std::vector<std::vector<uint8_t>> sigs = {pushes[2], pushes[1]};
            std::vector<size_t> recs;
            for (size_t k = 0; k < r.origins.size(); ++k) {
                if (r.origins[k].tx_index == t && r.origins[k].input_index == i) recs.push_back(k);
            }
            size_t isig = 0, ikey = 1;
            bool failed_trial = false;
            for (size_t k : recs) {
                ASSERT_LT(isig, 2u);
                ASSERT_LE(ikey, 3u);
                const uint8_t* rec = r.checks.data() + offsets[k];
                const size_t pk = rec[1], sl = rec[2] | (rec[3] << 8);
                EXPECT_EQ(std::vector<uint8_t>(rec + 36, rec + 36 + pk), keys[ikey]) << "tx " << t << " input " << i;
                EXPECT_EQ(std::vector<uint8_t>(rec + 36 + pk, rec + 36 + pk + sl),
                          std::vector<uint8_t>(sigs[isig].begin(), sigs[isig].end() - 1));
                if (r.verdicts[k] == static_cast<uint8_t>(Verdict::kValid)) ++isig;
                else failed_trial = true;
                ++ikey;
            }
            EXPECT_EQ(isig, 2u) << "both signatures matched, tx " << t << " input " << i;
            ++walked;
            with_failed_trial += failed_trial;
        }
    }
    EXPECT_GT(walked, 0u);
    EXPECT_GT(with_failed_trial, 0u) << "some 2-of-3 signature matches a non-first key";
    std::cout << "[ multisig ] 403200: " << walked << " P2SH 2-of-3 inputs, " << with_failed_trial
              << " with a failed trial check, rounds " << r.rounds << "\n";
}

/** Recomputes the merkle root of a (tampered) block and writes it into its header. */
void FixMerkleRoot(std::vector<uint8_t>& raw) {
    const Block b = ParseBlock(raw.data(), raw.size());
    const Hash32 root = BlockMerkleRoot(b);
    std::memcpy(raw.data() + 36, root.data(), 32);
}

TEST(BlockValidation, FlippedMultisigSignatureFailsItsInput) {
    Fixture f = Load(403200);
    const Block block = ParseBlock(f.raw.data(), f.raw.size());
    // The first P2SH 2-of-3 input; flip a bit inside the r value of its first signature.
    for (size_t t = 1; t < block.txs.size(); ++t) {
        for (size_t i = 0; i < block.txs[t].vin.size(); ++i) {
            const TxIn& in = block.txs[t].vin[i];
            const std::vector<std::vector<uint8_t>> pushes = Pushes(in.script_sig);
            if (pushes.size() != 4 || !Is2of3(pushes.back())) continue;
            // Input layout: prevout (36), CompactSize script length, script. Push 1 starts at
            // script byte 1 (after OP_0) + its push opcode; byte 10 of the DER is inside r.
            const size_t script_start = in.offset + 36 + (in.script_sig.size() < 0xfd ? 1 : 3);
            const size_t sig_start = script_start + 2;  // OP_0, then a direct push opcode
            ASSERT_EQ(f.raw[sig_start], 0x30);
            f.raw[sig_start + 10] ^= 0x01;
            FixMerkleRoot(f.raw);
            const BlockValidationResult r =
                ValidateBlock(f.raw.data(), f.raw.size(), f.spent, "", 403200, MutatedBlockContext());
            EXPECT_FALSE(r.valid);
            EXPECT_EQ(r.failed_inputs, 1u);
            EXPECT_EQ(r.tx_index, static_cast<int64_t>(t));
            EXPECT_EQ(r.input_index, static_cast<int64_t>(i));
            EXPECT_EQ(r.input_type, "p2sh-multisig");
            EXPECT_EQ(r.script_error, "EVAL_FALSE") << r.error;
            EXPECT_NE(r.error.find("tx " + std::to_string(t) + " input " + std::to_string(i)), std::string::npos) << r.error;
            return;
        }
    }
    FAIL() << "no P2SH 2-of-3 input in 403200";
}

TEST(BlockValidation, ChangedAmountFailsExactlyItsBip143CheckAndInput) {
    // Block 553724: one P2PKH, one P2SH-P2WPKH and one P2WPKH input; BIP143 commits to the
    // amount of the input being signed only.
    Fixture f = Load(553724);
    size_t segwit = 3;
    for (size_t k = 0; k < f.spent.size(); ++k) {
        if (f.spent[k].out.script_pubkey.size() == 22 && f.spent[k].out.script_pubkey[0] == 0x00) segwit = k;
    }
    ASSERT_LT(segwit, 3u);
    f.spent[segwit].out.value += 1;
    const BlockValidationResult r = ValidateBlock(f.raw.data(), f.raw.size(), f.spent, "", 553724);
    ASSERT_EQ(r.verdicts.size(), 3u);
    for (size_t k = 0; k < 3; ++k) EXPECT_EQ(r.verdicts[k], k == segwit ? 0 : 1) << "check " << k;
    EXPECT_FALSE(r.valid);
    EXPECT_EQ(r.failed_inputs, 1u);
    EXPECT_EQ(r.tx_index, static_cast<int64_t>(r.origins[segwit].tx_index));
    EXPECT_EQ(r.input_index, static_cast<int64_t>(r.origins[segwit].input_index));
    EXPECT_EQ(r.input_type, "p2wpkh");
    EXPECT_EQ(r.script_error, "EVAL_FALSE") << r.error;
}

TEST(BlockValidation, ResolveRefusesAWrongVerdictCountAndResultWaits) {
    const Fixture f = Load(170);
    BlockValidation v(f.raw.data(), f.raw.size(), f.spent, "", 170);
    ASSERT_EQ(v.PendingCount(), 1u);
    EXPECT_FALSE(v.Done());
    EXPECT_THROW(v.Result(), Error);
    const uint8_t two[2] = {1, 1};
    EXPECT_THROW(v.Resolve(two, 2), Error);
    EXPECT_TRUE(v.Resolve(two, 1));
    const BlockValidationResult r = v.Result();
    EXPECT_TRUE(r.valid);
    EXPECT_EQ(r.rounds, 1u);
}

TEST(BlockValidation, ChainedMultisigWalksNeedARoundPerTrialAndEachSighashOnce) {
    // Block 170's one non-coinbase input, its spent output's scriptPubKey replaced (only the
    // outpoint is cross-checked) by 4 chained 1-of-20 CHECKMULTISIG NOTIF levels: each level's
    // trial checks are reached only after the previous trial failed, so every trial is a round
    // of its own (4 x 20) and the input is re-evaluated from the start 80 times. Each level signs
    // with another hash type, so the legacy scriptCodes (FindAndDelete removes that level's
    // signature) and hash types give 4 distinct sighashes: each must be computed once.
    Fixture f = Load(170);
    ASSERT_EQ(f.spent.size(), 1u);
    const uint8_t hash_types[4] = {0x01, 0x02, 0x03, 0x81};
    std::vector<uint8_t> spk = {OP_DROP};  // the scriptSig's signature
    for (int level = 0; level < 4; ++level) {
        const std::vector<uint8_t> sig = {0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01, hash_types[level]};
        spk.push_back(OP_0);
        spk.push_back(static_cast<uint8_t>(sig.size()));
        spk.insert(spk.end(), sig.begin(), sig.end());
        spk.push_back(OP_1);
        for (int i = 0; i < 20; ++i) {
            std::vector<uint8_t> key(33, 0);
            key[0] = 0x02;
            key[31] = static_cast<uint8_t>(level);
            key[32] = static_cast<uint8_t>(i + 1);
            spk.push_back(33);
            spk.insert(spk.end(), key.begin(), key.end());
        }
        spk.push_back(0x01);  // push 20
        spk.push_back(20);
        spk.push_back(OP_CHECKMULTISIG);
        spk.push_back(OP_NOTIF);
    }
    spk.push_back(OP_1);
    for (int level = 0; level < 4; ++level) spk.push_back(OP_ENDIF);
    f.spent[0].out.script_pubkey = spk;

    const BlockValidationResult r = ValidateBlock(f.raw.data(), f.raw.size(), f.spent, "", 170);
    EXPECT_TRUE(r.valid) << r.error;
    EXPECT_EQ(r.rounds, 80u);
    EXPECT_EQ(r.evaluations, 81u);
    EXPECT_EQ(r.verified_records, 80u);
    ASSERT_EQ(r.origins.size(), 80u);
    for (uint8_t v : r.verdicts) EXPECT_NE(v, static_cast<uint8_t>(Verdict::kValid));
    EXPECT_EQ(r.sighashes, 4u) << "each sighash computed once across the 81 evaluations";
    // The final checks carry 4 messages, 20 checks each, in level order.
    std::vector<std::vector<uint8_t>> msgs;
    for (size_t pos = 0; pos < r.checks.size();) {
        msgs.emplace_back(r.checks.begin() + pos + 4, r.checks.begin() + pos + 36);
        pos += kCheckHeaderSize + r.checks[pos + 1] + (r.checks[pos + 2] | (r.checks[pos + 3] << 8));
    }
    ASSERT_EQ(msgs.size(), 80u);
    for (size_t k = 0; k < 80; ++k) EXPECT_EQ(msgs[k], msgs[k / 20 * 20]) << "check " << k;
    for (size_t level = 1; level < 4; ++level) EXPECT_NE(msgs[level * 20], msgs[(level - 1) * 20]);
}

}  // namespace
}  // namespace ibd
