// The block rules of validation/block_rules.h on mutations of real fixture blocks: for each rule,
// a block pushed just over its limit is rejected with Core's reject reason, stage and the tx and
// input or output at fault, and the same block set just at its limit is accepted. Also: the
// sigop counters on hand-made scripts, the subsidy schedule, every fixture block's fee (against
// an independent sum of its amounts), the rules reported as not checked, and Core's
// tx_invalid.json BADTX cases through the block path.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "primitives/block.h"
#include "primitives/hex.h"
#include "script/consensus_flags.h"
#include "script/interpreter.h"
#include "script/script.h"
#include "script/sigops.h"
#include "derived/block_mutation.h"
#include "script/script_asm.h"
#include "support/test_support.h"
#include "validation/block_check.h"
#include "validation/block_rules.h"
#include "validation/block_validation.h"
#include "validation/tx_verify.h"

namespace ibd {
namespace {

struct Fixture {
    int32_t height = 0;
    Block block;
    std::vector<SpentOutputEntry> spent;
};

Fixture Load(int32_t height) {
    const std::string dir = "mainnet/" + std::to_string(height) + "/";
    Fixture f;
    f.height = height;
    const std::vector<uint8_t> raw = ReadFileBytes(FixturePath(dir + "block.raw"));
    f.block = ParseBlock(raw.data(), raw.size());
    f.spent = ParseSpentOutputsJson(ReadFile(FixturePath(dir + "spent_outputs.json")));
    return f;
}

/** The outcome of validating a (mutated) block: the Error of a rule before ConnectBlock, or the
 *  result. Proof of work skipped (MutatedBlockContext): the mutations break it. */
struct Outcome {
    std::optional<Error> error;
    BlockValidationResult result;
};

Outcome ValidateIn(const Fixture& f, const ChainContext& context) {
    const std::vector<uint8_t> raw = test::SerializeBlock(f.block);
    Outcome o;
    try {
        o.result = ValidateBlock(raw.data(), raw.size(), f.spent, "", f.height, context);
    } catch (const Error& e) {
        o.error = e;
    }
    return o;
}

Outcome Validate(const Fixture& f, const ChainContext& context = {}) { return ValidateIn(f, MutatedBlockContext(context)); }

/** The same with the proof of work checked: for unmutated blocks and the proof-of-work rule. */
Outcome ValidateWithProofOfWork(const Fixture& f, const ChainContext& context = {}) { return ValidateIn(f, context); }

/** Where a rejection must point: tx, and input or output (-1 when none). */
struct At {
    int64_t tx, input, output;
    /** The byte offset in the block, when the test names one (a header field's). */
    std::optional<int64_t> byte = std::nullopt;
};

void ExpectRejected(const Outcome& o, const std::string& reason, const std::string& stage, At at) {
    std::string got_reason, got_stage, message;
    int64_t tx = -1, input = -1, output = -1, byte = -1;
    if (o.error) {
        got_reason = o.error->reject_reason();
        got_stage = o.error->stage();
        message = o.error->what();
        tx = o.error->where().tx_index;
        input = o.error->where().input_index;
        output = o.error->where().output_index;
        byte = o.error->where().byte_offset;
    } else {
        EXPECT_FALSE(o.result.valid);
        got_reason = o.result.reject_reason;
        got_stage = o.result.stage;
        message = o.result.error;
        tx = o.result.tx_index;
        input = o.result.input_index;
        output = o.result.output_index;
        byte = o.result.byte_offset;
    }
    EXPECT_EQ(got_reason, reason) << message;
    EXPECT_EQ(got_stage, stage) << message;
    EXPECT_EQ(tx, at.tx) << message;
    EXPECT_EQ(input, at.input) << message;
    EXPECT_EQ(output, at.output) << message;
    EXPECT_EQ(message.rfind(reason, 0), 0u) << message;
    if (at.input >= 0 || at.output >= 0) EXPECT_GT(byte, 0) << message;
    if (at.byte) EXPECT_EQ(byte, *at.byte) << message;
}

void ExpectAccepted(const Outcome& o) {
    ASSERT_FALSE(o.error) << o.error->what();
    EXPECT_TRUE(o.result.valid) << o.result.error;
    EXPECT_EQ(o.result.reject_reason, "");
}

std::vector<uint8_t> Repeat(uint8_t op, size_t n) { return std::vector<uint8_t>(n, op); }

/** Block 170's coinbase gets an extra output of value 0 holding `script`. */
Fixture WithCoinbaseOutput(Fixture f, const std::vector<uint8_t>& script) {
    TxOut out;
    out.script_pubkey = script;
    f.block.txs[0].vout.push_back(out);
    return f;
}

int64_t LegacySigOps(const Block& b) {
    int64_t n = 0;
    for (const Transaction& tx : b.txs) n += GetLegacySigOpCount(tx);
    return n;
}

/** Independent of the engine's CheckTxInputs: spent values minus output values, per tx. */
std::vector<int64_t> FeesOf(const Fixture& f) {
    std::vector<int64_t> fees(f.block.txs.size(), 0);
    size_t k = 0;
    for (size_t t = 1; t < f.block.txs.size(); ++t) {
        for (size_t i = 0; i < f.block.txs[t].vin.size(); ++i) fees[t] += f.spent[k++].out.value;
        for (const TxOut& o : f.block.txs[t].vout) fees[t] -= o.value;
    }
    return fees;
}

/** Index in `spent` of input `i` of tx `t`. */
size_t SpentIndex(const Fixture& f, size_t t, size_t i) {
    size_t k = 0;
    for (size_t u = 1; u < t; ++u) k += f.block.txs[u].vin.size();
    return k + i;
}

int64_t Sum(const std::vector<int64_t>& v) {
    int64_t s = 0;
    for (int64_t x : v) s += x;
    return s;
}

/** Where ConnectBlock's running sigop cost first passes 80,000, walked here from the script
 *  counters (per tx: every scriptSig and scriptPubKey times 4, then per input its P2SH count
 *  times 4 and its witness count): {tx, input, output}; {-1, -1, -1} when it never does. */
At SigOpCrossing(const Fixture& f) {
    const uint32_t flags = GetBlockScriptVerifyFlags(f.block.hash, f.height);
    int64_t total = 0;
    size_t k = 0;
    for (size_t t = 0; t < f.block.txs.size(); ++t) {
        const Transaction& tx = f.block.txs[t];
        const int64_t ti = static_cast<int64_t>(t);
        for (size_t i = 0; i < tx.vin.size(); ++i) {
            total += 4 * GetSigOpCount(tx.vin[i].script_sig, false);
            if (total > kMaxBlockSigOpsCost) return {ti, static_cast<int64_t>(i), -1};
        }
        for (size_t o = 0; o < tx.vout.size(); ++o) {
            total += 4 * GetSigOpCount(tx.vout[o].script_pubkey, false);
            if (total > kMaxBlockSigOpsCost) return {ti, -1, static_cast<int64_t>(o)};
        }
        if (t == 0) continue;
        for (size_t i = 0; i < tx.vin.size(); ++i, ++k) {
            const std::vector<uint8_t>& spk = f.spent[k].out.script_pubkey;
            if (IsPayToScriptHash(spk)) total += 4 * GetP2SHScriptSigOpCount(spk, tx.vin[i].script_sig);
            total += CountWitnessSigOps(tx.vin[i].script_sig, spk, tx.vin[i].witness, flags);
            if (total > kMaxBlockSigOpsCost) return {ti, static_cast<int64_t>(i), -1};
        }
    }
    return {-1, -1, -1};
}

// --- the counters and the schedule ----------------------------------------------------------

TEST(SigOpCount, LegacyAccurateP2shAndWitnessCountsAsCore) {
    const std::vector<uint8_t> multisig = ParseScriptAsm("2 0x21 0x" + std::string(66, '2') + " 0x21 0x" +
                                                               std::string(66, '3') + " 2 CHECKMULTISIG");
    EXPECT_EQ(GetSigOpCount(multisig, false), 20u);  // inaccurate: MAX_PUBKEYS_PER_MULTISIG
    EXPECT_EQ(GetSigOpCount(multisig, true), 2u);
    EXPECT_EQ(GetSigOpCount(ParseScriptAsm("CHECKSIG CHECKSIGVERIFY CHECKMULTISIGVERIFY"), true), 22u);
    EXPECT_EQ(GetSigOpCount(ParseScriptAsm("16 CHECKMULTISIG"), true), 16u);
    EXPECT_EQ(GetSigOpCount({OP_CHECKSIG, 0x4c}, false), 1u);  // a truncated push ends the count
    // P2SH: the redeem script is the scriptSig's last push; a non-push scriptSig counts 0.
    std::vector<uint8_t> p2sh = {OP_HASH160, 20};
    p2sh.resize(22, 0x11);
    p2sh.push_back(OP_EQUAL);
    std::vector<uint8_t> script_sig = {OP_0};
    const std::vector<uint8_t> pushed = SerializePush(multisig.data(), multisig.size());
    script_sig.insert(script_sig.end(), pushed.begin(), pushed.end());
    EXPECT_EQ(GetP2SHScriptSigOpCount(p2sh, script_sig), 2u);
    script_sig.push_back(OP_NOP);
    EXPECT_EQ(GetP2SHScriptSigOpCount(p2sh, script_sig), 0u);
    // Witness: P2WPKH 1, P2WSH the witness script's accurate count, nothing without WITNESS.
    std::vector<uint8_t> p2wpkh = {OP_0, 20};
    p2wpkh.resize(22, 0x22);
    std::vector<uint8_t> p2wsh = {OP_0, 32};
    p2wsh.resize(34, 0x33);
    std::vector<uint8_t> p2tr = {OP_1, 32};
    p2tr.resize(34, 0x44);
    const uint32_t witness = SCRIPT_VERIFY_P2SH | SCRIPT_VERIFY_WITNESS;
    EXPECT_EQ(CountWitnessSigOps({}, p2wpkh, {{1}, {2}}, witness), 1u);
    EXPECT_EQ(CountWitnessSigOps({}, p2wsh, {{}, multisig}, witness), 2u);
    EXPECT_EQ(CountWitnessSigOps({}, p2wsh, {}, witness), 0u);
    EXPECT_EQ(CountWitnessSigOps({}, p2tr, {{1}}, witness), 0u);
    EXPECT_EQ(CountWitnessSigOps({}, p2wpkh, {{1}}, SCRIPT_VERIFY_P2SH), 0u);
    // P2SH-wrapped P2WPKH: the redeem script is the witness program.
    const std::vector<uint8_t> wrapped = SerializePush(p2wpkh.data(), p2wpkh.size());
    EXPECT_EQ(CountWitnessSigOps(wrapped, p2sh, {{1}, {2}}, witness), 1u);
}

TEST(BlockSubsidy, HalvesEvery210000Blocks) {
    EXPECT_EQ(GetBlockSubsidy(0), 5000000000);
    EXPECT_EQ(GetBlockSubsidy(209999), 5000000000);
    EXPECT_EQ(GetBlockSubsidy(210000), 2500000000);
    EXPECT_EQ(GetBlockSubsidy(420000), 1250000000);
    EXPECT_EQ(GetBlockSubsidy(840000), 312500000);
    EXPECT_EQ(GetBlockSubsidy(210000 * 33 - 1), 1);
    EXPECT_EQ(GetBlockSubsidy(210000 * 33), 0);
    EXPECT_EQ(GetBlockSubsidy(210000 * 64), 0);
}

// --- every fixture block ---------------------------------------------------------------------

TEST(BlockRules, EveryFixtureBlockIsValidWithItsFee) {
    const nlohmann::json index = ReadJsonFile(FixturePath("index.json"));
    size_t blocks = 0;
    for (const nlohmann::json& e : index["mainnet_with_prevouts"]) {
        const int32_t height = e["height"].get<int32_t>();
        SCOPED_TRACE("height " + std::to_string(height));
        const Fixture f = Load(height);
        // The mutation helper writes the block back byte for byte.
        EXPECT_EQ(test::SerializeBlock(f.block), ReadFileBytes(FixturePath("mainnet/" + std::to_string(height) + "/block.raw")));
        const Outcome o = ValidateWithProofOfWork(f);  // unmutated: its proof of work holds (high-hash)
        ExpectAccepted(o);
        const BlockValidationResult& r = o.result;
        const int64_t fee = Sum(FeesOf(f));
        EXPECT_EQ(r.fee, fee);
        EXPECT_EQ(r.subsidy, GetBlockSubsidy(height));
        int64_t paid = 0;
        for (const TxOut& out : f.block.txs[0].vout) paid += out.value;
        EXPECT_LE(paid, r.subsidy + r.fee);
        EXPECT_GE(r.sigop_cost, LegacySigOps(f.block) * 4);
        EXPECT_LE(r.sigop_cost, kMaxBlockSigOpsCost);
        std::cout << "[ fee      ] " << height << " fee " << r.fee << " sat, subsidy " << r.subsidy << ", coinbase pays "
                  << paid << ", sigop cost " << r.sigop_cost << ", not checked " << r.not_checked.size() << "\n";
        ++blocks;
    }
    EXPECT_EQ(blocks, 24u);
}

/** The first fixture block (in index order) with a transaction spending an output of an earlier
 *  non-coinbase transaction of the same block, and that input: {tx, input, creating tx}. */
struct InBlockSpend {
    int32_t height = -1;
    size_t tx = 0, input = 0, creator = 0;
};
InBlockSpend FindInBlockSpend() {
    const nlohmann::json index = ReadJsonFile(FixturePath("index.json"));
    for (const nlohmann::json& e : index["mainnet_with_prevouts"]) {
        const Fixture f = Load(e["height"].get<int32_t>());
        const std::vector<std::vector<int32_t>> creators = InBlockCreators(f.block);
        for (size_t t = 1; t < creators.size(); ++t) {
            for (size_t i = 0; i < creators[t].size(); ++i) {
                if (creators[t][i] > 0) return {f.height, t, i, static_cast<size_t>(creators[t][i])};
            }
        }
    }
    return {};
}

TEST(BlockRules, SpendsOfTheBlocksOwnOutputsFollowCoresCoinRules) {
    // Core's CheckTxInputs finds an outpoint missing or spent, or a coinbase output immature,
    // whatever the UTXO set held before the block, when the block itself shows it: the engine
    // checks those without the UTXO set; and a spent-outputs list that contradicts the block's
    // own outputs is bad input, named at the spending input.
    const InBlockSpend at = FindInBlockSpend();
    ASSERT_GE(at.height, 0) << "no fixture block spends an output of its own";
    SCOPED_TRACE("block " + std::to_string(at.height) + " tx " + std::to_string(at.tx) + " input " +
                 std::to_string(at.input) + " spends tx " + std::to_string(at.creator));
    const Fixture f = Load(at.height);
    ExpectAccepted(Validate(f));
    const size_t k = SpentIndex(f, at.tx, at.input);
    {
        Fixture g = f;  // the spent output's value as given differs from the block's output
        g.spent[k].out.value += 1;
        const Outcome o = Validate(g);
        ASSERT_TRUE(o.error);
        EXPECT_EQ(o.error->where().tx_index, static_cast<int64_t>(at.tx));
        EXPECT_EQ(o.error->where().input_index, static_cast<int64_t>(at.input));
        EXPECT_NE(std::string(o.error->what()).find("the spent outputs contradict the block"), std::string::npos) << o.error->what();
        EXPECT_EQ(o.error->reject_reason(), "");  // bad input, not a rule the block breaks
        g = f;  // and its scriptPubKey
        g.spent[k].out.script_pubkey.push_back(0x51);
        EXPECT_TRUE(Validate(g).error);
    }
    // A double spend inside the block: another transaction's first input names the same
    // outpoint (its spent output as before). One between the creator and the spender spends it
    // first, so the spender's input is the second; else the last transaction spends it second.
    const size_t last = f.block.txs.size() - 1;
    const bool between = at.tx - at.creator > 1;
    ASSERT_TRUE(between || last > at.tx);
    const size_t other = between ? at.tx - 1 : last;
    Fixture dup = f;
    dup.block.txs[other].vin[0].prevout = f.block.txs[at.tx].vin[at.input].prevout;
    dup.spent[SpentIndex(f, other, 0)] = f.spent[k];  // the outpoint and the output
    const At second = between ? At{static_cast<int64_t>(at.tx), static_cast<int64_t>(at.input), -1} : At{static_cast<int64_t>(last), 0, -1};
    ExpectRejected(Validate(dup), "bad-txns-inputs-missingorspent", "CheckTxInputs", second);
    // An outpoint of a later transaction of the block: tx 1 spends the last transaction's output.
    ASSERT_GT(last, 1u);
    Fixture later = f;
    later.block.txs[1].vin[0].prevout = {f.block.txs[last].txid, 0};
    later.spent[SpentIndex(f, 1, 0)] = {f.block.txs[last].vout[0], later.block.txs[1].vin[0].prevout};
    ExpectRejected(Validate(later), "bad-txns-inputs-missingorspent", "CheckTxInputs", {1, 0, -1});
    // An output index past the creating transaction's outputs.
    Fixture past = f;
    past.block.txs[at.tx].vin[at.input].prevout.n = static_cast<uint32_t>(f.block.txs[at.creator].vout.size());
    past.spent[k].prevout = past.block.txs[at.tx].vin[at.input].prevout;
    ExpectRejected(Validate(past), "bad-txns-inputs-missingorspent", "CheckTxInputs",
                   {static_cast<int64_t>(at.tx), static_cast<int64_t>(at.input), -1});
    // This block's own coinbase: 0 confirmations.
    Fixture young = f;
    young.block.txs[at.tx].vin[at.input].prevout = {f.block.txs[0].txid, 0};
    young.spent[k] = {f.block.txs[0].vout[0], young.block.txs[at.tx].vin[at.input].prevout};
    ExpectRejected(Validate(young), "bad-txns-premature-spend-of-coinbase", "CheckTxInputs",
                   {static_cast<int64_t>(at.tx), static_cast<int64_t>(at.input), -1});
    // A spent output no coins view holds: OP_RETURN, given for an outpoint from before the block.
    const std::vector<std::vector<int32_t>> creators = InBlockCreators(f.block);
    size_t bt = 1;
    while (bt < creators.size() && creators[bt][0] >= 0) ++bt;
    ASSERT_LT(bt, creators.size());
    Fixture burnt = f;
    burnt.spent[SpentIndex(f, bt, 0)].out.script_pubkey = {0x6a, 0x01, 0x00};
    ExpectRejected(Validate(burnt), "bad-txns-inputs-missingorspent", "CheckTxInputs", {static_cast<int64_t>(bt), 0, -1});
    // Through a chain walk's coins view (coins_checked), these rules are the view's, not run
    // again here: the double spend then fails only its (now unsigned) script.
    ChainContext walked;
    walked.coins_checked = true;
    const Outcome viewed = Validate(dup, walked);
    ASSERT_FALSE(viewed.error) << viewed.error->what();
    EXPECT_EQ(viewed.result.reject_reason, "mandatory-script-verify-flag-failed");
}

TEST(BlockRules, NotCheckedListsWhatNeedsTheChain) {
    auto rules = [](const BlockValidationResult& r) {
        std::vector<std::string> names;
        for (const NotChecked& n : r.not_checked) {
            EXPECT_FALSE(n.reason.empty()) << n.rule;
            names.push_back(n.rule);
        }
        return names;
    };
    const Outcome early = ValidateWithProofOfWork(Load(170));
    ExpectAccepted(early);
    EXPECT_EQ(rules(early.result),
              (std::vector<std::string>{"spent-outputs-unspent", "coinbase-maturity", "bip30", "time-too-old",
                                        "time-too-new", "expected-difficulty", "previous-block"}));
    // Proof of work skipped (a mutated block): the verdict says so.
    const std::vector<std::string> skipped = rules(Validate(Load(170)).result);
    EXPECT_NE(std::find(skipped.begin(), skipped.end(), "proof-of-work"), skipped.end());
    // After CSV: version-2 transactions with relative locks (866342 has them).
    Fixture late = Load(866342);
    const Outcome without = Validate(late);
    ExpectAccepted(without);
    const std::vector<std::string> names = rules(without.result);
    EXPECT_NE(std::find(names.begin(), names.end(), "bip68-sequence-locks"), names.end());
    // With the median time past, time-too-old is checked and gone from the list.
    ChainContext ctx;
    ctx.median_time_past = static_cast<int64_t>(late.block.header.time) - 1;
    const Outcome with = Validate(late, ctx);
    ExpectAccepted(with);
    const std::vector<std::string> names_with = rules(with.result);
    EXPECT_EQ(std::find(names_with.begin(), names_with.end(), "time-too-old"), names_with.end());
    EXPECT_EQ(std::find(names_with.begin(), names_with.end(), "bip113-finality"), names_with.end());
}

// --- proof of work (CheckBlockHeader) --------------------------------------------------------

TEST(BlockRules, NonceChangedIsHighHashInCheckBlockHeader) {
    Fixture f = Load(181);
    ExpectAccepted(ValidateWithProofOfWork(f));
    f.block.header.nonce += 1;
    ExpectRejected(ValidateWithProofOfWork(f), "high-hash", "CheckBlockHeader", {-1, -1, -1});
    ExpectAccepted(Validate(f));  // skipped at the caller's request: every other rule holds
}

TEST(BlockRules, NBitsOutOfRangeIsHighHash) {
    // Block 170's nBits is mainnet's powLimit, 0x1d00ffff: at the limit, accepted.
    Fixture f = Load(170);
    ASSERT_EQ(f.block.header.bits, kPowLimitCompact);
    ExpectAccepted(ValidateWithProofOfWork(f));
    for (const uint32_t bits : {0x1d01ffffU /* above powLimit */, 0x1e00ffffU /* above powLimit */,
                                0x1d80ffffU /* negative */, 0xff00ffffU /* overflow */, 0x1d000000U /* zero */,
                                0x01003456U /* zero after the shift */}) {
        SCOPED_TRACE(bits);
        Fixture g = f;
        g.block.header.bits = bits;
        const Outcome o = ValidateWithProofOfWork(g);
        ExpectRejected(o, "high-hash", "CheckBlockHeader", {-1, -1, -1});
        ASSERT_TRUE(o.error);
        EXPECT_NE(std::string(o.error->what()).find("nBits"), std::string::npos) << o.error->what();
    }
    // As Core's SetCompact, the sign bit counts only when the mantissa survives the shift:
    // 0x01803456 is a zero target, not a negative one.
    Fixture z = f;
    z.block.header.bits = 0x01803456U;
    const std::optional<RuleFailure> zero = CheckProofOfWork(z.block);
    ASSERT_TRUE(zero);
    EXPECT_NE(zero->detail.find("is a zero target"), std::string::npos) << zero->detail;
}

TEST(BlockRules, ProofOfWorkComparesTheHashWithTheTarget) {
    // The hash of block 181 against targets just above and just below it.
    Fixture f = Load(181);
    const Block& b = f.block;
    // Target = the hash's top 3 significant bytes, so the hash is at most the target plus the
    // lower bytes: set the mantissa to those 3 bytes + 1 (above the hash) and to them - 1 (below).
    int top = 31;
    while (b.hash[top] == 0) --top;  // internal order: byte 31 is the most significant
    // A top byte of 0x80 or more would set the sign bit: then the mantissa is its top 2 bytes.
    const bool two = b.hash[top] >= 0x80;
    const uint32_t size = static_cast<uint32_t>(top + (two ? 2 : 1));
    const uint32_t mantissa = two ? (uint32_t(b.hash[top]) << 8) | b.hash[top - 1]
                                  : (uint32_t(b.hash[top]) << 16) | (uint32_t(b.hash[top - 1]) << 8) | b.hash[top - 2];
    ASSERT_LT(mantissa + 1, 0x800000u);
    Block above = b;
    above.header.bits = (size << 24) | (mantissa + 1);
    EXPECT_FALSE(CheckProofOfWork(above).has_value());
    Block below = b;
    below.header.bits = (size << 24) | (mantissa - 1);
    const std::optional<RuleFailure> fail = CheckProofOfWork(below);
    ASSERT_TRUE(fail.has_value());
    EXPECT_EQ(fail->reject_reason, "high-hash");
    EXPECT_NE(fail->detail.find("above the target"), std::string::npos) << fail->detail;
}

// --- sigops ----------------------------------------------------------------------------------

TEST(BlockRules, LegacySigOpsOverTheLimitAreBadBlkSigopsInCheckBlock) {
    const Fixture f = Load(170);
    const int64_t legacy = LegacySigOps(f.block);
    EXPECT_EQ(legacy, 3);  // the coinbase's P2PK output, tx 1's two P2PK outputs
    const size_t out = f.block.txs[0].vout.size();
    // The block: 1,001 OP_CHECKMULTISIG count 20 each, 80,080 with the rest.
    ExpectRejected(Validate(WithCoinbaseOutput(f, Repeat(OP_CHECKMULTISIG, 1001))), "bad-blk-sigops", "CheckBlock",
                   {0, -1, static_cast<int64_t>(out)});
    // At the limit: 999 x 20 + 17 + 3 = 20,000 legacy sigops, cost 80,000.
    std::vector<uint8_t> at_limit = Repeat(OP_CHECKMULTISIG, 999);
    at_limit.insert(at_limit.end(), 17, OP_CHECKSIG);
    const Outcome ok = Validate(WithCoinbaseOutput(f, at_limit));
    ExpectAccepted(ok);
    EXPECT_EQ(ok.result.sigop_cost, kMaxBlockSigOpsCost);
    // One more: the count passes 20,000 at tx 1's last P2PK output.
    at_limit.push_back(OP_CHECKSIGVERIFY);
    ExpectRejected(Validate(WithCoinbaseOutput(f, at_limit)), "bad-blk-sigops", "CheckBlock", {1, -1, 1});
}

TEST(BlockRules, P2shSigOpsCountInConnectBlock) {
    // 403200: P2SH 2-of-3 multisig inputs (3 accurate sigops each, cost 12). The coinbase gets
    // legacy sigops up to CheckBlock's limit exactly; the first P2SH input pushes the cost over.
    const Fixture f = Load(403200);
    const Outcome original = Validate(f);
    ExpectAccepted(original);
    const int64_t legacy = LegacySigOps(f.block);
    EXPECT_GE(original.result.sigop_cost - 4 * legacy, 12);
    const Fixture over = WithCoinbaseOutput(f, Repeat(OP_CHECKSIG, static_cast<size_t>(20000 - legacy)));
    const At crossing = SigOpCrossing(over);
    ASSERT_GE(crossing.input, 0) << "passed at an input: its P2SH sigops";
    size_t k = SpentIndex(over, static_cast<size_t>(crossing.tx), static_cast<size_t>(crossing.input));
    EXPECT_TRUE(IsPayToScriptHash(over.spent[k].out.script_pubkey));
    ExpectRejected(Validate(over), "bad-blk-sigops", "ConnectBlock", crossing);
    const int64_t room = (kMaxBlockSigOpsCost - original.result.sigop_cost) / 4;
    const Outcome ok = Validate(WithCoinbaseOutput(f, Repeat(OP_CHECKSIG, static_cast<size_t>(room))));
    ExpectAccepted(ok);
    EXPECT_EQ(ok.result.sigop_cost, original.result.sigop_cost + 4 * room);
    EXPECT_GT(ok.result.sigop_cost, kMaxBlockSigOpsCost - 4);
}

TEST(BlockRules, WitnessSigOpsCountOneEachInConnectBlock) {
    // 553724: one P2PKH, one P2SH-P2WPKH and one P2WPKH input: 1 witness sigop each for the two.
    const Fixture f = Load(553724);
    const Outcome original = Validate(f);
    ExpectAccepted(original);
    const int64_t legacy = LegacySigOps(f.block);
    EXPECT_EQ(original.result.sigop_cost, 4 * legacy + 2);
    // Legacy at CheckBlock's limit exactly (80,000, which CheckBlock accepts): the witness sigops
    // push it to 80,002; one legacy sigop fewer (79,998) is accepted.
    // (The witness sigops of txs 1 and 2 are counted before tx 3's legacy ones, which pass it.)
    const Fixture over = WithCoinbaseOutput(f, Repeat(OP_CHECKSIG, static_cast<size_t>(20000 - legacy)));
    ExpectRejected(Validate(over), "bad-blk-sigops", "ConnectBlock", SigOpCrossing(over));
    EXPECT_NE(SigOpCrossing(over).tx, -1);
    const Outcome ok = Validate(WithCoinbaseOutput(f, Repeat(OP_CHECKSIG, static_cast<size_t>(20000 - legacy - 1))));
    ExpectAccepted(ok);
    EXPECT_EQ(ok.result.sigop_cost, kMaxBlockSigOpsCost - 2);
}

// --- amounts ---------------------------------------------------------------------------------

TEST(BlockRules, InputsBelowOutputsAreBadTxnsInBelowout) {
    // 170: tx 1 spends 50 BTC into 10 + 40 BTC (fee 0: at the limit). Legacy signatures do not
    // commit to the amount, so the spent value can change without a script failing.
    Fixture f = Load(170);
    const Outcome ok = Validate(f);
    ExpectAccepted(ok);
    EXPECT_EQ(ok.result.fee, 0);
    f.spent[0].out.value -= 1;
    ExpectRejected(Validate(f), "bad-txns-in-belowout", "CheckTxInputs", {1, -1, 1});
}

TEST(BlockRules, SpentValuesOutOfRangeAreBadTxnsInputvaluesOutofrange) {
    Fixture f = Load(170);
    f.spent[0].out.value = kMaxMoney;  // at the limit: fee 21e6 BTC - 50 BTC
    const Outcome ok = Validate(f);
    ExpectAccepted(ok);
    EXPECT_EQ(ok.result.fee, kMaxMoney - 5000000000);
    f.spent[0].out.value = kMaxMoney + 1;
    ExpectRejected(Validate(f), "bad-txns-inputvalues-outofrange", "CheckTxInputs", {1, 0, -1});
    f.spent[0].out.value = -1;
    ExpectRejected(Validate(f), "bad-txns-inputvalues-outofrange", "CheckTxInputs", {1, 0, -1});

    // The running sum: a tx of 24835 with several inputs, its first spent value raised until
    // the sum is 21e6 BTC exactly (accepted), then one satoshi more (rejected at its last input).
    Fixture g = Load(24835);
    size_t t = 1;
    while (t < g.block.txs.size() && g.block.txs[t].vin.size() < 2) ++t;
    ASSERT_LT(t, g.block.txs.size());
    const size_t n = g.block.txs[t].vin.size();
    std::vector<int64_t> fees = FeesOf(g);
    int64_t others = 0;
    for (size_t i = 1; i < n; ++i) others += g.spent[SpentIndex(g, t, i)].out.value;
    int64_t out_t = 0;
    for (const TxOut& o : g.block.txs[t].vout) out_t += o.value;
    ASSERT_LE(Sum(fees) - fees[t], out_t) << "the block's fees stay in range";
    g.spent[SpentIndex(g, t, 0)].out.value = kMaxMoney - others;
    ExpectAccepted(Validate(g));
    g.spent[SpentIndex(g, t, 0)].out.value += 1;
    ExpectRejected(Validate(g), "bad-txns-inputvalues-outofrange", "CheckTxInputs",
                   {static_cast<int64_t>(t), static_cast<int64_t>(n - 1), -1});
}

TEST(BlockRules, FeesOverMaxMoneyAreBadTxnsAccumulatedFeeOutofrange) {
    // 150013: tx 1's inputs raised to 21e6 BTC, the last tx's so that the block's fees are
    // 21e6 BTC exactly (accepted), then one satoshi more (rejected at the last tx).
    Fixture f = Load(150013);
    const size_t a = 1, b = f.block.txs.size() - 1;
    ASSERT_GT(b, a);
    const std::vector<int64_t> fees = FeesOf(f);
    auto value_in = [&f](size_t t) {
        int64_t in = 0;
        for (size_t i = 0; i < f.block.txs[t].vin.size(); ++i) in += f.spent[SpentIndex(f, t, i)].out.value;
        return in;
    };
    auto value_out = [&f](size_t t) {
        int64_t out = 0;
        for (const TxOut& o : f.block.txs[t].vout) out += o.value;
        return out;
    };
    f.spent[SpentIndex(f, a, 0)].out.value += kMaxMoney - value_in(a);
    const int64_t fee_a = kMaxMoney - value_out(a);
    const int64_t rest = Sum(fees) - fees[a] - fees[b];
    const int64_t fee_b = kMaxMoney - fee_a - rest;
    ASSERT_GE(fee_b, fees[b]);
    f.spent[SpentIndex(f, b, 0)].out.value += fee_b - fees[b];
    const Outcome ok = Validate(f);
    ExpectAccepted(ok);
    EXPECT_EQ(ok.result.fee, kMaxMoney);
    f.spent[SpentIndex(f, b, 0)].out.value += 1;
    ExpectRejected(Validate(f), "bad-txns-accumulated-fee-outofrange", "ConnectBlock", {static_cast<int64_t>(b), -1, -1});
}

TEST(BlockRules, CoinbaseOverSubsidyPlusFeesIsBadCbAmount) {
    // 210000, the first halving: 25 BTC + its fees, set exactly (accepted), then 1 sat more.
    Fixture f = Load(210000);
    const int64_t fee = Sum(FeesOf(f));
    Transaction& cb = f.block.txs[0];
    int64_t paid = 0;
    for (const TxOut& o : cb.vout) paid += o.value;
    cb.vout.back().value += 2500000000 + fee - paid;
    const Outcome ok = Validate(f);
    ExpectAccepted(ok);
    EXPECT_EQ(ok.result.subsidy, 2500000000);
    EXPECT_EQ(ok.result.fee, fee);
    cb.vout.back().value += 1;
    ExpectRejected(Validate(f), "bad-cb-amount", "ConnectBlock", {0, -1, static_cast<int64_t>(cb.vout.size() - 1)});
    // The fees count: 170's coinbase may take one more satoshi when tx 1 pays a fee of one.
    Fixture g = Load(170);
    g.block.txs[0].vout[0].value += 1;
    ExpectRejected(Validate(g), "bad-cb-amount", "ConnectBlock", {0, -1, 0});
    g.spent[0].out.value += 1;
    ExpectAccepted(Validate(g));
}

// --- coinbase shape --------------------------------------------------------------------------

TEST(BlockRules, TheFirstAndOnlyTheFirstTxIsACoinbase) {
    Fixture f = Load(170);
    ExpectAccepted(Validate(f));
    Fixture missing = f;
    missing.block.txs.erase(missing.block.txs.begin());
    ExpectRejected(Validate(missing), "bad-cb-missing", "CheckBlock", {0, -1, -1});
    Fixture twice = f;
    Transaction second = f.block.txs[0];
    second.vin[0].script_sig.push_back(OP_1);  // another txid
    twice.block.txs.push_back(second);
    ExpectRejected(Validate(twice), "bad-cb-multiple", "CheckBlock", {2, -1, -1});
}

// --- time locks, versions, witness by height -------------------------------------------------

TEST(BlockRules, NonFinalTransactionsAreBadTxnsNonfinal) {
    // 170's coinbase (no signature to break) locked to the block's height / time.
    Fixture f = Load(170);
    f.block.txs[0].vin[0].sequence = 0;
    f.block.txs[0].lock_time = 169;
    ExpectAccepted(Validate(f));
    f.block.txs[0].lock_time = 170;
    ExpectRejected(Validate(f), "bad-txns-nonfinal", "ContextualCheckBlock", {0, -1, -1});
    f.block.txs[0].lock_time = f.block.header.time - 1;  // before BIP113: the header's time
    ExpectAccepted(Validate(f));
    f.block.txs[0].lock_time = f.block.header.time;
    ExpectRejected(Validate(f), "bad-txns-nonfinal", "ContextualCheckBlock", {0, -1, -1});
    f.block.txs[0].vin[0].sequence = kSequenceFinal;  // final whatever the lock time
    ExpectAccepted(Validate(f));
}

TEST(BlockRules, FromBip113FinalityNeedsTheMedianTimePast) {
    Fixture f = Load(553724);
    const uint32_t lock = f.block.header.time - 1000;
    f.block.txs[0].vin[0].sequence = 0;
    f.block.txs[0].lock_time = lock;
    // Without the median time past: not judged, and said so.
    const Outcome skipped = Validate(f);
    ExpectAccepted(skipped);
    bool listed = false;
    for (const NotChecked& n : skipped.result.not_checked) listed = listed || n.rule == "bip113-finality";
    EXPECT_TRUE(listed);
    ChainContext ctx;
    ctx.median_time_past = lock + 1;  // at the limit: the lock time is below it
    ExpectAccepted(Validate(f, ctx));
    ctx.median_time_past = lock;
    ExpectRejected(Validate(f, ctx), "bad-txns-nonfinal", "ContextualCheckBlock", {0, -1, -1});
    // A time lock at the header's time is above any median time past a valid header allows:
    // not final even without it. One second below the header's time it is not judged.
    f.block.txs[0].lock_time = f.block.header.time;
    ExpectRejected(Validate(f), "bad-txns-nonfinal", "ContextualCheckBlock", {0, -1, -1});
    f.block.txs[0].lock_time = f.block.header.time - 1;
    ExpectAccepted(Validate(f));
}

TEST(BlockRules, HeaderTimeAboveTheMedianTimePastAndVersionByHeight) {
    Fixture f = Load(553724);
    ChainContext ctx;
    ctx.median_time_past = static_cast<int64_t>(f.block.header.time) - 1;
    ExpectAccepted(Validate(f, ctx));
    ctx.median_time_past = f.block.header.time;
    ExpectRejected(Validate(f, ctx), "time-too-old", "ContextualCheckBlockHeader", {-1, -1, -1, kHeaderTimeOffset});
    // From BIP65 (388,381) the version is at least 4.
    f.block.header.version = 4;
    ExpectAccepted(Validate(f));
    f.block.header.version = 3;
    ExpectRejected(Validate(f), "bad-version(0x00000003)", "ContextualCheckBlockHeader", {-1, -1, -1, kHeaderVersionOffset});
    // Both: Core checks the time first.
    ExpectRejected(Validate(f, ctx), "time-too-old", "ContextualCheckBlockHeader", {-1, -1, -1});
}

TEST(BlockRules, Bip68IsListedForEveryVersionCoreReadsAsAtLeast2) {
    // Core's CalculateSequenceLocks reads nVersion as unsigned: 0x80000000 and -1 count.
    Fixture f = Load(553724);
    f.block.txs[1].vin[0].sequence = 0x0000ffff;  // a relative lock (disable bit clear)
    const auto listed = [&](int32_t version) {
        f.block.txs[1].version = version;
        for (const NotChecked& n : RulesNotChecked(f.block, f.height, {})) {
            if (n.rule == "bip68-sequence-locks") return true;
        }
        return false;
    };
    EXPECT_FALSE(listed(1));
    EXPECT_TRUE(listed(2));
    EXPECT_TRUE(listed(static_cast<int32_t>(0x80000000u)));
    EXPECT_TRUE(listed(-1));
}

TEST(BlockRules, WitnessDataOnlyFromSegwitAndACommitmentNeedsItsNonce) {
    // 553724 without any witness data but still with its commitment: the nonce is missing.
    Fixture f = Load(553724);
    for (Transaction& tx : f.block.txs) {
        for (TxIn& in : tx.vin) in.witness.clear();
    }
    ExpectRejected(Validate(f), "bad-witness-nonce-size", "ContextualCheckBlock", {0, 0, -1});
    // 478558 (before segwit, 481,824) with a commitment output: accepted; with witness data
    // (a nonce and one item on tx 1's first input) behind that commitment: unexpected-witness.
    Fixture g = Load(478558);
    TxOut commitment;
    commitment.script_pubkey = {0x6a, 0x24, 0xaa, 0x21, 0xa9, 0xed};
    commitment.script_pubkey.resize(38, 0);
    g.block.txs[0].vout.push_back(commitment);
    ExpectAccepted(Validate(g));
    g.block.txs[0].vin[0].witness = {std::vector<uint8_t>(32, 0)};
    g.block.txs[1].vin[0].witness = {{0x01}};
    ExpectRejected(Validate(g), "unexpected-witness", "ContextualCheckBlock", {0, -1, -1});
}

// --- the order of the checks ------------------------------------------------------------------

TEST(BlockRules, ABlockBreakingTwoRulesGetsCoresFirstReason) {
    // ContextualCheckBlockHeader before ContextualCheckBlock: a version-1 block at a BIP65
    // height whose coinbase holds another height is bad-version, not bad-cb-height.
    Fixture f = Load(403200);
    f.height = 403201;
    ExpectRejected(Validate(f), "bad-cb-height", "ContextualCheckBlock", {0, 0, -1});
    f.block.header.version = 1;
    ExpectRejected(Validate(f), "bad-version(0x00000001)", "ContextualCheckBlockHeader", {-1, -1, -1});
    // Inside CheckBlock, the coinbase shape of every tx before any CheckTransaction: tx 1 with
    // a duplicate input and a second coinbase at tx 2 is bad-cb-multiple.
    Fixture g = Load(170);
    g.block.txs[1].vin.push_back(g.block.txs[1].vin[0]);
    ExpectRejected(Validate(g), "bad-txns-inputs-duplicate", "CheckBlock", {1, 1, -1});
    Transaction second = g.block.txs[0];
    second.vin[0].script_sig.push_back(OP_1);
    g.block.txs.push_back(second);
    ExpectRejected(Validate(g), "bad-cb-multiple", "CheckBlock", {2, -1, -1});
    // Inside ContextualCheckBlock, finality before BIP34 (Bip34.WrongHeightIsAnError has it on
    // the unmutated block), and the witness commitment before the weight: 553724 with its
    // commitment broken and over 4,000,000 weight units is bad-witness-merkle-match.
    Fixture h = Load(553724);
    h.block.txs[1].vin[0].witness.push_back(std::vector<uint8_t>(4000000, 0));
    std::vector<uint8_t> raw = test::SerializeBlock(h.block);  // commitments made to match
    Block heavy = ParseBlock(raw.data(), raw.size());
    ASSERT_GT(heavy.weight(), 4000000u);
    ASSERT_NO_THROW(CheckWitnessMalleation(heavy, true));
    raw[heavy.txs[2].offset - 5] ^= 1;  // tx 1's last witness byte (before its nLockTime): wtxid only
    try {
        ValidateBlock(raw.data(), raw.size(), h.spent, "", h.height, MutatedBlockContext({}));
        FAIL() << "accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.reject_reason(), "bad-witness-merkle-match") << e.what();
    }
}

TEST(BlockRules, ARejectedBlockSaysWhatWasNotChecked) {
    // A block refused before any input is connected carries the rules not checked, as a
    // verdict does: here proof-of-work (skipped) and what needs the chain.
    Fixture f = Load(170);
    f.block.txs.erase(f.block.txs.begin());
    const std::vector<uint8_t> raw = test::SerializeBlock(f.block);
    try {
        ValidateBlock(raw.data(), raw.size(), {}, "", f.height, MutatedBlockContext({}));
        FAIL() << "accepted";
    } catch (const BlockRejected& e) {
        EXPECT_EQ(e.reject_reason(), "bad-cb-missing");
        std::vector<std::string> rules;
        for (const NotChecked& n : e.not_checked()) rules.push_back(n.rule);
        EXPECT_NE(std::find(rules.begin(), rules.end(), "proof-of-work"), rules.end());
        EXPECT_NE(std::find(rules.begin(), rules.end(), "bip30"), rules.end());
    }
}

// --- Core's tx_invalid.json through the block path ---------------------------------------------

TEST(BlockRules, CoreTxInvalidBadTxCasesFailCheckBlockWithTheirReason) {
    // Each BADTX case (CheckTransaction must fail) put into block 170: after its coinbase, or as
    // the coinbase when the case is one. CheckBlock must reject it with CheckTransaction's reason.
    const nlohmann::json tests = ReadJsonFile(FixturePath("vectors/bitcoin-core/tx_invalid.json"));
    const Fixture base = Load(170);
    size_t cases = 0;
    for (const nlohmann::json& c : tests) {
        if (!c.is_array() || c.size() != 3 || !c[0].is_array() || c[2] != "BADTX") continue;
        const std::vector<uint8_t> raw = HexDecode(c[1].get<std::string>());
        const Transaction tx = ParseTransaction(raw.data(), raw.size());
        std::string expected;
        Location where;
        try {
            CheckTransaction(tx);
        } catch (const Error& e) {
            expected = e.reason().substr(0, e.reason().find(':'));
            where = e.where();
        }
        ASSERT_FALSE(expected.empty()) << c[1];
        // The output or input at fault is named, for the rules about one.
        if (expected == "bad-txns-vout-negative" || expected == "bad-txns-vout-toolarge" ||
            expected == "bad-txns-txouttotal-toolarge") {
            EXPECT_GE(where.output_index, 0) << expected;
        }
        if (expected == "bad-txns-inputs-duplicate" || expected == "bad-txns-prevout-null") {
            EXPECT_GE(where.input_index, 0) << expected;
        }
        Fixture f = base;
        f.spent.clear();
        int64_t at = 1;
        if (tx.IsCoinBase()) {
            f.block.txs = {tx};
            at = 0;
        } else {
            f.block.txs = {base.block.txs[0], tx};
        }
        SCOPED_TRACE(expected + " " + c[1].get<std::string>());
        ExpectRejected(Validate(f), expected, "CheckBlock", {at, where.input_index, where.output_index});
        ++cases;
    }
    EXPECT_EQ(cases, 9u);
}

TEST(BlockRules, AMutatedMerkleTreeNamesTheDuplicatedTransaction) {
    // CVE-2012-2459: with an odd transaction count, the last transaction repeated leaves the
    // merkle root as it was; Core rejects the block as bad-txns-duplicate.
    Fixture f = Load(757739);
    if (f.block.txs.size() % 2 == 0) {
        f.block.txs.pop_back();
        f.block.header.merkle_root = BlockMerkleRoot(f.block, nullptr);
    }
    const size_t n = f.block.txs.size();
    f.block.txs.push_back(f.block.txs.back());
    const Outcome o = Validate(f);
    ExpectRejected(o, "bad-txns-duplicate", "CheckBlock", {static_cast<int64_t>(n), -1, -1});
    ASSERT_TRUE(o.error);
    EXPECT_GT(o.error->where().byte_offset, 80);
}

}  // namespace
}  // namespace ibd
