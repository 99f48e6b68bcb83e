// What a worker runs: BlockValidation with its checks verified synchronously (VerifyMode::
// kSynchronous) and over a range of a block's transactions (BlockScope), and the binary spent
// outputs (spent_outputs.h) it is handed. On every fixture block: the synchronous run gives the
// final checks, verdicts and block verdict of the rounds; ranges concatenated give the whole
// block's; the binary form round-trips the JSON form; bad binary input is an Error naming the
// entry and byte offset.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/check_records.h"
#include "support/test_support.h"
#include "util/error.h"
#include "validation/block_check.h"
#include "validation/block_validation.h"
#include "validation/spent_outputs.h"

namespace ibd {
namespace {

std::vector<int> FixtureHeights() {
    std::vector<int> heights;
    const nlohmann::json index = ReadJsonFile(FixturePath("index.json"));
    for (const nlohmann::json& e : index["mainnet_with_prevouts"]) {
        heights.push_back(e["height"].get<int>());
    }
    return heights;
}

BlockValidationResult ValidateWith(const FixtureBlock& f, const ValidationOptions& options, const ChainContext& context = {}) {
    return ValidateBlock(f.raw.data(), f.raw.size(), f.spent, f.hash, f.height, context, options);
}

std::vector<std::string> Rules(const std::vector<NotChecked>& list) {
    std::vector<std::string> rules;
    for (const NotChecked& n : list) rules.push_back(n.rule);
    return rules;
}

ValidationOptions Synchronous(uint32_t begin = 0, uint32_t end = UINT32_MAX, bool block_rules = true) {
    ValidationOptions o;
    o.verify = VerifyMode::kSynchronous;
    o.scope = {begin, end, block_rules};
    return o;
}

TEST(BlockScope, SynchronousVerificationGivesTheRoundsResult) {
    const std::vector<int> heights = FixtureHeights();
    ASSERT_EQ(heights.size(), 24u);
    for (const int height : heights) {
        SCOPED_TRACE("height " + std::to_string(height));
        const FixtureBlock f = LoadFixtureBlock(height);
        const BlockValidationResult rounds = ValidateWith(f, {});
        ValidationOptions unbatched = Synchronous();
        unbatched.batch_schnorr = false;
        const BlockValidationResult each = ValidateWith(f, unbatched);
        const BlockValidationResult sync = ValidateWith(f, Synchronous());
        // Schnorr checks verified when asked (as Core) or deferred and batch-verified: the same
        // checks and verdicts; the deferred ones settled in one round.
        EXPECT_EQ(each.checks, sync.checks);
        EXPECT_EQ(each.verdicts, sync.verdicts);
        EXPECT_EQ(each.rounds, 0u);  // no Resolve: every verdict came when asked
        EXPECT_EQ(each.evaluations, each.inputs);
        EXPECT_EQ(sync.rounds, sync.schnorr_checks > 0 ? 1u : 0u);
        EXPECT_EQ(sync.checks, rounds.checks);
        EXPECT_EQ(sync.verdicts, rounds.verdicts);
        ASSERT_EQ(sync.origins.size(), rounds.origins.size());
        for (size_t i = 0; i < sync.origins.size(); ++i) {
            EXPECT_EQ(sync.origins[i].tx_index, rounds.origins[i].tx_index);
            EXPECT_EQ(sync.origins[i].input_index, rounds.origins[i].input_index);
        }
        EXPECT_TRUE(sync.valid) << sync.error;
        EXPECT_EQ(sync.fee, rounds.fee);
        EXPECT_EQ(sync.sigop_cost, rounds.sigop_cost);
        // One evaluation per input (every deferred Schnorr check was valid), and each distinct
        // check verified once.
        EXPECT_EQ(sync.evaluations, sync.inputs);
        EXPECT_LE(sync.verified_records, rounds.verified_records);
        EXPECT_TRUE(sync.block_rules_checked);
        if (!sync.checks.empty()) EXPECT_GT(sync.times.verify_ns, 0);
    }
}

// Deferred Schnorr checks are exact: real Schnorr signatures of block 866,342 made invalid (one
// bit of s flipped in the block's witness) fail the same inputs with the same script error, and
// leave the same checks and verdicts, whether verified when asked, deferred and batch-verified,
// or in rounds. The block rules are left out (scope.block_rules false): the mutated witnesses
// break the witness commitment, which would fail the block before its scripts.
TEST(BlockScope, DeferredSchnorrChecksFailTheInputsCoreFails) {
    FixtureBlock f = LoadFixtureBlock(866342);
    const BlockValidationResult clean = ValidateWith(f, Synchronous());
    ASSERT_TRUE(clean.valid) << clean.error;
    ASSERT_GT(clean.schnorr_checks, 100u);
    // Every 40th Schnorr check's signature, found by its bytes in the raw block.
    size_t schnorr_seen = 0, flipped = 0;
    test::ForEachRecord(clean.checks, clean.verdicts.size(), [&](const test::RecordView& v, size_t i) {
        if (v.type != static_cast<uint8_t>(CheckType::kSchnorr) || schnorr_seen++ % 40 != 0) return;
        const auto at = std::search(f.raw.begin(), f.raw.end(), v.sig, v.sig + 64);
        ASSERT_NE(at, f.raw.end()) << "Schnorr check " << i << "'s signature is not in the block";
        at[40] ^= 0x01;
        ++flipped;
    });
    ASSERT_GE(flipped, 3u);
    auto without_rules = [](ValidationOptions o) {
        o.scope.block_rules = false;
        return o;
    };
    ValidationOptions each_opts = without_rules(Synchronous());
    each_opts.batch_schnorr = false;
    ValidationOptions rounds_opts;
    rounds_opts.scope.block_rules = false;
    const BlockValidationResult each = ValidateWith(f, each_opts, MutatedBlockContext());
    const BlockValidationResult batched = ValidateWith(f, without_rules(Synchronous()), MutatedBlockContext());
    const BlockValidationResult rounds = ValidateWith(f, rounds_opts, MutatedBlockContext());
    EXPECT_FALSE(each.valid);
    EXPECT_EQ(each.failed_inputs, flipped);
    for (const BlockValidationResult* r : {&batched, &rounds}) {
        EXPECT_FALSE(r->valid);
        EXPECT_EQ(r->checks, each.checks);
        EXPECT_EQ(r->verdicts, each.verdicts);
        EXPECT_EQ(r->script_error, each.script_error);
        EXPECT_EQ(r->tx_index, each.tx_index);
        EXPECT_EQ(r->input_index, each.input_index);
        ASSERT_EQ(r->input_failures.size(), each.input_failures.size());
        EXPECT_EQ(r->input_verdicts, each.input_verdicts);
        for (size_t k = 0; k < each.input_failures.size(); ++k) {
            EXPECT_EQ(r->input_failures[k].tx, each.input_failures[k].tx);
            EXPECT_EQ(r->input_failures[k].input, each.input_failures[k].input);
            EXPECT_EQ(r->input_failures[k].script_error, each.input_failures[k].script_error);
            EXPECT_EQ(each.input_failures[k].script_error, "SCHNORR_SIG");
        }
    }
    EXPECT_EQ(batched.rounds, 1u);
    EXPECT_EQ(batched.evaluations, batched.inputs + flipped);  // the failed inputs, re-evaluated
    // One verdict byte per input, block order: 0 exactly at the failing inputs.
    ASSERT_EQ(each.input_verdicts.size(), each.inputs);
    EXPECT_EQ(static_cast<size_t>(std::count(each.input_verdicts.begin(), each.input_verdicts.end(), 0)), flipped);
}

TEST(BlockScope, RangesConcatenatedGiveTheWholeBlock) {
    for (const int height : {403200, 866342, 57043, 170}) {
        SCOPED_TRACE("height " + std::to_string(height));
        const FixtureBlock f = LoadFixtureBlock(height);
        const BlockValidationResult whole = ValidateWith(f, Synchronous());
        const uint32_t txs = whole.tx_count;
        // Three ranges; the block rules in the middle one only.
        const std::vector<uint32_t> cuts = {0, txs / 3, 2 * txs / 3, txs};
        std::vector<uint8_t> checks, verdicts, input_verdicts;
        uint32_t inputs = 0;
        for (size_t k = 0; k + 1 < cuts.size(); ++k) {
            const BlockValidationResult part = ValidateWith(f, Synchronous(cuts[k], cuts[k + 1], k == 1));
            EXPECT_EQ(part.tx_begin, cuts[k]);
            EXPECT_EQ(part.tx_end, cuts[k + 1]);
            EXPECT_EQ(part.block_rules_checked, k == 1);
            if (k == 1) {
                EXPECT_EQ(part.fee, whole.fee);
                EXPECT_EQ(part.sigop_cost, whole.sigop_cost);
                // What the whole block lists, and the scripts outside the range.
                ASSERT_EQ(part.not_checked.size(), whole.not_checked.size() + 1);
                EXPECT_EQ(part.not_checked.back().rule, "scripts-outside-range");
            } else {
                EXPECT_EQ(part.fee, -1);
                // The block rules' stages it skipped, what the whole block lists, and what lies
                // outside the range when it leaves inputs out.
                std::vector<std::string> want = Rules(BlockRulesNotRun());
                for (const std::string& rule : Rules(whole.not_checked)) want.push_back(rule);
                if (std::max<uint32_t>(cuts[k], 1) > 1 || cuts[k + 1] < txs) {
                    want.push_back("spent-outputs-outside-range");
                    want.push_back("scripts-outside-range");
                }
                EXPECT_EQ(Rules(part.not_checked), want);
            }
            for (const CheckOrigin& o : part.origins) {
                EXPECT_GE(o.tx_index, cuts[k]);
                EXPECT_LT(o.tx_index, cuts[k + 1]);
            }
            checks.insert(checks.end(), part.checks.begin(), part.checks.end());
            verdicts.insert(verdicts.end(), part.verdicts.begin(), part.verdicts.end());
            input_verdicts.insert(input_verdicts.end(), part.input_verdicts.begin(), part.input_verdicts.end());
            inputs += part.inputs;
        }
        EXPECT_EQ(input_verdicts, whole.input_verdicts);
        EXPECT_EQ(input_verdicts.size(), whole.inputs);
        EXPECT_EQ(checks, whole.checks);
        EXPECT_EQ(verdicts, whole.verdicts);
        EXPECT_EQ(inputs, whole.inputs);
    }
    // A range past the end is clamped: no inputs. Without the block rules it claims nothing
    // (no input; every rule and script listed as not checked); with them it checks the rules
    // alone and says so.
    const FixtureBlock f = LoadFixtureBlock(170);
    const BlockValidationResult none = ValidateWith(f, Synchronous(5, 9, false));
    EXPECT_EQ(none.inputs, 0u);
    EXPECT_FALSE(none.block_rules_checked);
    ASSERT_FALSE(none.not_checked.empty());
    EXPECT_EQ(none.not_checked.front().rule, "proof-of-work");
    EXPECT_EQ(none.not_checked.back().rule, "scripts-outside-range");
    EXPECT_NE(none.not_checked.back().reason.find("the block's parse and its spent outputs' count alone"), std::string::npos);
    const BlockValidationResult past = ValidateWith(f, Synchronous(5, 9, true));
    EXPECT_EQ(past.inputs, 0u);
    EXPECT_EQ(past.tx_begin, past.tx_end);
    ASSERT_FALSE(past.not_checked.empty());
    EXPECT_EQ(past.not_checked.back().rule, "scripts-outside-range");
}

TEST(BlockScope, AFailingInputIsFoundInItsRangeOnly) {
    // 553724 with a P2WPKH spend's amount raised by 1: its BIP143 check fails.
    FixtureBlock f = LoadFixtureBlock(553724);
    size_t k = 0;
    while (k < f.spent.size() && !(f.spent[k].out.script_pubkey.size() == 22 && f.spent[k].out.script_pubkey[0] == 0)) ++k;
    ASSERT_LT(k, f.spent.size());
    f.spent[k].out.value += 1;
    const BlockValidationResult whole = ValidateWith(f, Synchronous());
    ASSERT_FALSE(whole.valid);
    ASSERT_EQ(whole.input_failures.size(), 1u);
    const uint32_t tx = whole.input_failures[0].tx;
    const BlockValidationResult with = ValidateWith(f, Synchronous(tx, tx + 1, false));
    EXPECT_FALSE(with.valid);
    EXPECT_EQ(with.reject_reason, "mandatory-script-verify-flag-failed");
    EXPECT_EQ(with.tx_index, static_cast<int64_t>(tx));
    const BlockValidationResult without = ValidateWith(f, Synchronous(tx + 1, UINT32_MAX, false));
    EXPECT_TRUE(without.valid);
}

TEST(BlockScope, RulesRunOnlyInTheRangeThatAsksForThem) {
    // Block 403200 claimed one higher: bad-cb-height in the rules' range; another range of it
    // does not check the rules and says so.
    const FixtureBlock f = LoadFixtureBlock(403200);
    EXPECT_THROW(ValidateBlock(f.raw.data(), f.raw.size(), f.spent, f.hash, 403201, {}, Synchronous(0, 10, true)),
                 BlockRejected);
    const BlockValidationResult other =
        ValidateBlock(f.raw.data(), f.raw.size(), f.spent, f.hash, 403201, {}, Synchronous(10, 20, false));
    EXPECT_FALSE(other.block_rules_checked);
    const auto contextual = std::find_if(other.not_checked.begin(), other.not_checked.end(),
                                         [](const NotChecked& n) { return n.rule == "contextual-block"; });
    ASSERT_NE(contextual, other.not_checked.end());
    EXPECT_NE(contextual->reason.find("bad-cb-height"), std::string::npos);
}

TEST(BlockScope, WithoutTheBlockRulesTheVerdictListsWhatTheySkip) {
    // A hostile tester's block: 403200 with a merkle root byte flipped, so its header hash (and
    // proof of work) is broken too. The whole block fails high-hash; without the block rules,
    // over the whole block and with no expected hash, every script passes and the verdict is
    // valid, but it must not claim the header or the merkle root: not_checked lists them, then
    // the other stages, then what no call checks.
    FixtureBlock f = LoadFixtureBlock(403200);
    f.raw[40] ^= 1;
    EXPECT_THROW(ValidateBlock(f.raw.data(), f.raw.size(), f.spent, "", f.height, {}, Synchronous()), BlockRejected);
    const BlockValidationResult r = ValidateBlock(f.raw.data(), f.raw.size(), f.spent, "", f.height, {}, Synchronous(0, UINT32_MAX, false));
    EXPECT_TRUE(r.valid);
    EXPECT_FALSE(r.block_rules_checked);
    const std::vector<std::string> rules = Rules(r.not_checked);
    const std::vector<std::string> stages = {"proof-of-work", "merkle-root",   "check-block", "contextual-header",
                                             "contextual-block", "tx-inputs", "connect-block"};
    ASSERT_GE(rules.size(), stages.size());
    EXPECT_EQ(std::vector<std::string>(rules.begin(), rules.begin() + stages.size()), stages);
    EXPECT_NE(r.not_checked[0].reason.find("high-hash"), std::string::npos);
    EXPECT_NE(r.not_checked[1].reason.find("bad-txnmrklroot"), std::string::npos);
    // Then RulesNotChecked's, as the whole block lists them, and nothing about the range: it
    // covers every transaction.
    const BlockValidationResult whole = ValidateWith(LoadFixtureBlock(403200), Synchronous());
    std::vector<std::string> want = stages;
    for (const std::string& rule : Rules(whole.not_checked)) want.push_back(rule);
    EXPECT_EQ(rules, want);
    // Its proof-of-work entry is listed once, with skipProofOfWork too.
    ChainContext skip;
    skip.skip_proof_of_work = true;
    const BlockValidationResult skipped =
        ValidateBlock(f.raw.data(), f.raw.size(), f.spent, "", f.height, skip, Synchronous(0, UINT32_MAX, false));
    EXPECT_EQ(Rules(skipped.not_checked), want);
}

BlockValidationResult ValidateBinary(const FixtureBlock& f, const std::vector<uint8_t>& raw,
                                     const std::vector<uint8_t>& spent, const ValidationOptions& options) {
    return ValidateBlock(raw.data(), raw.size(), spent.data(), spent.size(), f.hash, f.height, {}, options);
}

TEST(BlockScope, RangesThatSkimTheRestGiveTheWholeBlockFromTheBinaryForm) {
    // A worker's cut: the block rules alone on the coinbase, then ranges that parse only their
    // transactions and read only their spent outputs (the binary form's slice).
    for (const int height : {367891, 866342, 403200, 57043, 553724}) {
        SCOPED_TRACE("height " + std::to_string(height));
        const FixtureBlock f = LoadFixtureBlock(height);
        const std::vector<uint8_t> spent = SerializeSpentOutputs(f.spent);
        const BlockValidationResult whole = ValidateBinary(f, f.raw, spent, Synchronous());
        EXPECT_EQ(whole.checks, ValidateWith(f, Synchronous()).checks);
        const uint32_t txs = whole.tx_count;
        const BlockValidationResult rules = ValidateBinary(f, f.raw, spent, Synchronous(0, 1, true));
        EXPECT_EQ(rules.inputs, 0u);
        EXPECT_EQ(rules.fee, whole.fee);
        EXPECT_EQ(rules.sigop_cost, whole.sigop_cost);
        std::vector<uint8_t> checks, verdicts;
        std::vector<uint32_t> origin_txs;
        uint32_t inputs = 0;
        const std::vector<uint32_t> cuts = {1, 1 + (txs - 1) / 4, 2 + (txs - 1) / 2, txs};
        for (size_t k = 0; k + 1 < cuts.size(); ++k) {
            const BlockValidationResult part = ValidateBinary(f, f.raw, spent, Synchronous(cuts[k], cuts[k + 1], false));
            EXPECT_TRUE(part.valid) << part.error;
            EXPECT_FALSE(part.block_rules_checked);
            EXPECT_EQ(part.tx_count, txs);
            checks.insert(checks.end(), part.checks.begin(), part.checks.end());
            verdicts.insert(verdicts.end(), part.verdicts.begin(), part.verdicts.end());
            for (const CheckOrigin& o : part.origins) origin_txs.push_back(o.tx_index);
            inputs += part.inputs;
        }
        EXPECT_EQ(checks, whole.checks);
        EXPECT_EQ(verdicts, whole.verdicts);
        EXPECT_EQ(inputs, whole.inputs);
        ASSERT_EQ(origin_txs.size(), whole.origins.size());
        for (size_t i = 0; i < origin_txs.size(); ++i) EXPECT_EQ(origin_txs[i], whole.origins[i].tx_index);
    }
}

/** The what() of ValidateBinary's Error, or "none". */
std::string BinaryError(const FixtureBlock& f, const std::vector<uint8_t>& raw, const std::vector<uint8_t>& spent,
                        const ValidationOptions& options) {
    try {
        ValidateBinary(f, raw, spent, options);
    } catch (const Error& e) {
        return e.what();
    }
    return "none";
}

TEST(BlockScope, ARangeFailsABadBlockOrListAsTheWholeBlockDoes) {
    const FixtureBlock f = LoadFixtureBlock(403200);
    const std::vector<uint8_t> spent = SerializeSpentOutputs(f.spent);
    const ValidationOptions early = Synchronous(1, 3, false);
    const ValidationOptions late = Synchronous(400, UINT32_MAX, false);
    // Truncated before, inside and after each range; a list one entry short or long; a list
    // cut inside its last entry.
    for (const size_t len : {size_t{81}, size_t{5000}, f.raw.size() / 2, f.raw.size() - 1}) {
        const std::vector<uint8_t> cut(f.raw.begin(), f.raw.begin() + static_cast<std::ptrdiff_t>(len));
        const std::string whole = BinaryError(f, cut, spent, Synchronous());
        EXPECT_NE(whole, "none") << len;
        EXPECT_EQ(BinaryError(f, cut, spent, early), whole) << len;
        EXPECT_EQ(BinaryError(f, cut, spent, late), whole) << len;
    }
    std::vector<SpentOutputEntry> shorter = f.spent;
    shorter.pop_back();
    std::vector<SpentOutputEntry> longer = f.spent;
    longer.push_back(f.spent.back());
    for (const auto& list : {shorter, longer}) {
        const std::vector<uint8_t> bin = SerializeSpentOutputs(list);
        const std::string whole = BinaryError(f, f.raw, bin, Synchronous());
        EXPECT_NE(whole.find("spent outputs list too"), std::string::npos) << whole;
        EXPECT_EQ(BinaryError(f, f.raw, bin, early), whole);
        EXPECT_EQ(BinaryError(f, f.raw, bin, late), whole);
    }
    const std::vector<uint8_t> cut_list(spent.begin(), spent.end() - 3);
    const std::string whole = BinaryError(f, f.raw, cut_list, Synchronous());
    EXPECT_NE(whole.find("spent output 1035"), std::string::npos) << whole;
    EXPECT_EQ(BinaryError(f, f.raw, cut_list, early), whole);
    // An outpoint mismatch is found by the range of its input (and the rules' range), not by
    // the others.
    std::vector<SpentOutputEntry> moved = f.spent;
    moved.back().prevout.n += 1;
    const std::vector<uint8_t> bin = SerializeSpentOutputs(moved);
    EXPECT_NE(BinaryError(f, f.raw, bin, late).find("spent output entry 1035 is for outpoint"), std::string::npos);
    EXPECT_NE(BinaryError(f, f.raw, bin, Synchronous(0, 1, true)).find("spent output entry 1035"), std::string::npos);
    EXPECT_EQ(BinaryError(f, f.raw, bin, early), "none");
}

TEST(SpentOutputsBinary, RoundTripsTheJsonFormOfEveryFixtureBlock) {
    for (const int height : FixtureHeights()) {
        const FixtureBlock f = LoadFixtureBlock(height);
        const std::vector<uint8_t> bin = SerializeSpentOutputs(f.spent);
        const std::vector<SpentOutputEntry> back = ParseSpentOutputsBinary(bin.data(), bin.size());
        ASSERT_EQ(back.size(), f.spent.size()) << height;
        for (size_t i = 0; i < back.size(); ++i) {
            EXPECT_TRUE(back[i].prevout == f.spent[i].prevout) << height << " entry " << i;
            EXPECT_EQ(back[i].out.value, f.spent[i].out.value);
            EXPECT_EQ(back[i].out.script_pubkey, f.spent[i].out.script_pubkey);
        }
        const BlockValidationResult a = ValidateWith(f, Synchronous());
        FixtureBlock g = f;
        g.spent = back;
        EXPECT_EQ(ValidateWith(g, Synchronous()).checks, a.checks) << height;
    }
}

TEST(SpentOutputsBinary, BadInputIsAnErrorNamingEntryAndOffset) {
    const FixtureBlock f = LoadFixtureBlock(170);
    const std::vector<uint8_t> bin = SerializeSpentOutputs(f.spent);
    const auto error_of = [](const std::vector<uint8_t>& b) {
        try {
            ParseSpentOutputsBinary(b.data(), b.size());
        } catch (const Error& e) {
            return e;
        }
        ADD_FAILURE() << "no error";
        return Error("none", Location{});
    };
    std::vector<uint8_t> magic = bin;
    magic[0] = 'X';
    EXPECT_NE(std::string(error_of(magic).what()).find("magic"), std::string::npos);
    std::vector<uint8_t> cut(bin.begin(), bin.end() - 3);
    const Error truncated = error_of(cut);
    EXPECT_NE(truncated.reason().find("spent output 0"), std::string::npos) << truncated.what();
    EXPECT_GT(truncated.where().byte_offset, 8);
    std::vector<uint8_t> extra = bin;
    extra.push_back(0);
    EXPECT_NE(error_of(extra).reason().find("trailing"), std::string::npos);
    std::vector<uint8_t> lying = bin;
    lying[4] = 0xff;  // count 255 entries in a 1-entry buffer
    EXPECT_NE(error_of(lying).reason().find("entry count"), std::string::npos);
}

}  // namespace
}  // namespace ibd
