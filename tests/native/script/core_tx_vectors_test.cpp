// Bitcoin Core's tx_valid.json and tx_invalid.json (src/test/data/, see
// ../shared/blocks-fixtures/README.md "Test vectors"), run as Core's transaction_tests.cpp runs
// them (tx_valid / tx_invalid / CheckTxScripts), through VerifyScript with a
// TransactionSignatureChecker on an ImmediateSink and PrecomputedTxData.
//
// Case format: [[[prevout txid (display hex), vout, scriptPubKey asm, amount?], ...], tx hex,
// flags]; other entries are comments.
//   - tx_valid: `flags` are the flags to EXCLUDE from the full set. The transaction must pass
//     CheckTransaction and every input must verify under the rest; removing more flags (each
//     one, and random subsets) must keep it valid; and putting back any one excluded flag must
//     make it fail (the exclusions are minimal).
//   - tx_invalid: "BADTX" means CheckTransaction must fail. Otherwise `flags` are the flags to
//     verify under and some input must fail; adding flags must keep it failing; and removing
//     any one flag must make it pass (the flags are minimal).
// Random flag subsets come from a fixed seed here (Core uses its test RNG).
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "primitives/hex.h"
#include "primitives/transaction.h"
#include "script/interpreter.h"
#include "script/script_asm.h"
#include "script/script_checks.h"
#include "support/test_support.h"
#include "util/error.h"

namespace ibd {
namespace {

/** Cases left out, by file and index, each with its reason. Empty: every case runs. */
const std::map<std::pair<std::string, size_t>, std::string>& Excluded() {
    static const std::map<std::pair<std::string, size_t>, std::string> excluded = {};
    return excluded;
}

/** Every flag bit Core's mapFlagNames knows (bits 0..20); "all flags" of tx_valid. */
uint32_t AllFlags() {
    uint32_t all = 0;
    for (const auto& [name, bit] : ScriptFlagNames()) all |= bit;
    return all;
}

/** Core's FillFlags: CLEANSTACK implies WITNESS, WITNESS implies P2SH. */
uint32_t FillFlags(uint32_t flags) {
    if (flags & SCRIPT_VERIFY_CLEANSTACK) flags |= SCRIPT_VERIFY_WITNESS;
    if (flags & SCRIPT_VERIFY_WITNESS) flags |= SCRIPT_VERIFY_P2SH;
    return flags;
}

/** Core's TrimFlags: WITNESS requires P2SH, CLEANSTACK requires WITNESS. */
uint32_t TrimFlags(uint32_t flags) {
    if (!(flags & SCRIPT_VERIFY_P2SH)) flags &= ~static_cast<uint32_t>(SCRIPT_VERIFY_WITNESS);
    if (!(flags & SCRIPT_VERIFY_WITNESS)) flags &= ~static_cast<uint32_t>(SCRIPT_VERIFY_CLEANSTACK);
    return flags;
}

/** Core's ExcludeIndividualFlags: `flags` with each flag removed in turn (trimmed), distinct and
 *  different from `flags`. */
std::set<uint32_t> ExcludeIndividualFlags(uint32_t flags) {
    std::set<uint32_t> combos;
    for (const auto& [name, bit] : ScriptFlagNames()) {
        const uint32_t without = TrimFlags(flags & ~bit);
        if (without != flags) combos.insert(without);
    }
    return combos;
}

/** The prevouts of a case: scriptPubKey and amount (0 when not given) by outpoint. */
struct Prevouts {
    std::map<std::pair<Hash32, uint32_t>, SpentOutput> by_outpoint;
};

/** A parsed case with everything VerifyScript needs per input. */
struct TxCase {
    Transaction tx;
    std::vector<SpentOutput> spent;  // one per input, in input order
    PrecomputedTxData pre;
    std::string flags_text;
};

/** Core's CheckTxScripts: verifies every input under `flags` (stopping at the first failure)
 *  and returns whether the outcome equals `expect_valid`. `*detail` gets the failing input and
 *  its ScriptError when the transaction fails. */
bool CheckTxScripts(const TxCase& c, uint32_t flags, bool expect_valid, std::string* detail) {
    bool tx_valid = true;
    for (size_t i = 0; i < c.tx.vin.size() && tx_valid; ++i) {
        const TxIn& in = c.tx.vin[i];
        ImmediateSink sink;
        const TransactionSignatureChecker checker(c.tx, i, c.spent[i].value, c.pre, sink);
        ScriptError err = ScriptError::UNKNOWN_ERROR;
        tx_valid = VerifyScript(in.script_sig, c.spent[i].script_pubkey, &in.witness, flags, checker, &err);
        if (!tx_valid && detail != nullptr) {
            *detail = "input " + std::to_string(i) + " " + ScriptErrorName(err);
        }
        // Core also requires err == OK for a passing input and err != OK for a failing one.
        if (tx_valid && err != ScriptError::OK) {
            if (detail != nullptr) {
                *detail = "input " + std::to_string(i) + " passed with error " + ScriptErrorName(err);
            }
            return false;
        }
    }
    if (tx_valid && detail != nullptr) *detail = "valid";
    return tx_valid == expect_valid;
}

/** Parses the prevouts and the transaction of case `test`. Throws on a malformed case, or
 *  (std::runtime_error "missing prevout") when an input spends an outpoint not listed. */
void ParseTxCase(const nlohmann::json& test, TxCase& c) {
    Prevouts prevouts;
    for (const nlohmann::json& input : test[0]) {
        if (!input.is_array() || input.size() < 3 || input.size() > 4) throw std::runtime_error("bad prevout");
        std::pair<Hash32, uint32_t> key;
        if (!TryParseHashDisplayHex(input[0].get<std::string>(), key.first)) throw std::runtime_error("bad txid");
        // Core: uint32_t(vinput[1].getInt<int>()), so -1 is 0xffffffff.
        key.second = static_cast<uint32_t>(input[1].get<int64_t>());
        SpentOutput out;
        out.script_pubkey = ParseScriptAsm(input[2].get<std::string>());
        out.value = input.size() >= 4 ? input[3].get<int64_t>() : 0;
        prevouts.by_outpoint[key] = out;
    }
    const std::vector<uint8_t> raw = HexDecode(test[1].get<std::string>());
    c.tx = ParseTransaction(raw.data(), raw.size());
    c.flags_text = test[2].get<std::string>();
    c.spent.clear();
    for (const TxIn& in : c.tx.vin) {
        const auto it = prevouts.by_outpoint.find({in.prevout.txid, in.prevout.n});
        if (it == prevouts.by_outpoint.end()) throw std::runtime_error("missing prevout");
        c.spent.push_back(it->second);
    }
}

void InitPrecomputed(TxCase& c) {
    std::vector<const SpentOutput*> spent;
    for (const SpentOutput& o : c.spent) spent.push_back(&o);
    c.pre.Init(c.tx, spent, /*need_bip143=*/true, /*need_bip341=*/true);
}

/** Runs one tx_valid case; returns "" when it behaves as Core requires. */
std::string RunValid(const nlohmann::json& test, size_t idx) {
    TxCase c;
    ParseTxCase(test, c);
    try {
        CheckTransaction(c.tx);
    } catch (const Error& e) {
        return "CheckTransaction failed: " + e.reason();
    }
    InitPrecomputed(c);
    const uint32_t verify_flags = ParseScriptFlags(c.flags_text);  // flags to exclude
    const uint32_t all = AllFlags();
    if ((~verify_flags & all) != FillFlags(~verify_flags & all)) return "bad test flags";
    std::string detail;
    if (!CheckTxScripts(c, ~verify_flags & all, true, &detail)) return "failed: " + detail;
    // Removing any flag(s) must not invalidate a valid transaction.
    std::mt19937 rng(static_cast<uint32_t>(idx));
    for (const auto& [name, bit] : ScriptFlagNames()) {
        uint32_t flags = TrimFlags(~(verify_flags | bit) & all);
        if (!CheckTxScripts(c, flags, true, &detail)) return "failed with " + name + " unset: " + detail;
        flags = TrimFlags(~(verify_flags | (rng() & all)) & all);
        char buf[64];
        std::snprintf(buf, sizeof buf, "failed with random flags 0x%x: ", flags);
        if (!CheckTxScripts(c, flags, true, &detail)) return buf + detail;
    }
    // The excluded flags are minimal: putting any one back must make it fail.
    for (const uint32_t excluding_one : ExcludeIndividualFlags(verify_flags)) {
        if (!CheckTxScripts(c, ~excluding_one & all, false, &detail)) {
            char buf[96];
            std::snprintf(buf, sizeof buf, "too many flags unset: still valid with flags 0x%x", ~excluding_one & all);
            return buf;
        }
    }
    return "";
}

/** Runs one tx_invalid case; returns "" when it behaves as Core requires. */
std::string RunInvalid(const nlohmann::json& test, size_t idx) {
    TxCase c;
    ParseTxCase(test, c);
    try {
        CheckTransaction(c.tx);
    } catch (const Error& e) {
        if (c.flags_text == "BADTX") return "";
        return "CheckTransaction failed (" + e.reason() + ") but flags are not BADTX";
    }
    if (c.flags_text == "BADTX") return "BADTX but CheckTransaction passed";
    InitPrecomputed(c);
    const uint32_t verify_flags = ParseScriptFlags(c.flags_text);
    if (verify_flags != FillFlags(verify_flags)) return "bad test flags";
    std::string detail;
    if (!CheckTxScripts(c, verify_flags, false, &detail)) return "passed (" + detail + ")";
    // Adding any flag(s) must not validate an invalid transaction.
    std::mt19937 rng(static_cast<uint32_t>(idx));
    const uint32_t all = AllFlags();
    for (const auto& [name, bit] : ScriptFlagNames()) {
        uint32_t flags = FillFlags(verify_flags | bit);
        if (!CheckTxScripts(c, flags, false, &detail)) return "passed with " + name + " set";
        flags = FillFlags(verify_flags | (rng() & all));
        char buf[64];
        std::snprintf(buf, sizeof buf, "passed with random flags 0x%x", flags);
        if (!CheckTxScripts(c, flags, false, &detail)) return buf;
    }
    // The flags are minimal: removing any one must make it pass.
    for (const uint32_t excluding_one : ExcludeIndividualFlags(verify_flags)) {
        if (!CheckTxScripts(c, excluding_one, true, &detail)) {
            char buf[96];
            std::snprintf(buf, sizeof buf, "too many flags set: still fails with flags 0x%x: ", excluding_one);
            return buf + detail;
        }
    }
    return "";
}

/** The comment entries just before case `idx` (Core's files describe each case above it). */
std::string CommentBefore(const nlohmann::json& tests, size_t idx) {
    std::string comment;
    for (size_t k = idx; k-- > 0;) {
        const nlohmann::json& t = tests[k];
        if (t.is_array() && !t.empty() && t[0].is_array()) break;
        if (t.is_array() && !t.empty() && t[0].is_string()) {
            comment = t[0].get<std::string>() + (comment.empty() ? "" : " ") + comment;
        }
    }
    return comment;
}

void RunFile(const std::string& file, bool valid, size_t expected_cases) {
    const nlohmann::json tests = ReadJsonFile(FixturePath("vectors/bitcoin-core/" + file));
    ASSERT_TRUE(tests.is_array());
    size_t total = 0, passed = 0, excluded = 0;
    std::vector<std::string> failures;
    for (size_t idx = 0; idx < tests.size(); ++idx) {
        const nlohmann::json& test = tests[idx];
        if (!test.is_array() || test.empty() || !test[0].is_array()) continue;  // comment
        ++total;
        if (Excluded().count({file, idx}) != 0) {
            ++excluded;
            continue;
        }
        std::string problem;
        try {
            if (test.size() != 3 || !test[1].is_string() || !test[2].is_string()) throw std::runtime_error("bad test");
            problem = valid ? RunValid(test, idx) : RunInvalid(test, idx);
        } catch (const std::exception& e) {
            problem = std::string("bad test: ") + e.what();
        }
        if (problem.empty()) {
            ++passed;
        } else {
            failures.push_back("#" + std::to_string(idx) + " \"" + CommentBefore(tests, idx) + "\" flags " +
                               test[2].dump() + ": " + problem);
        }
    }
    std::printf("%s: %zu/%zu passed (%zu excluded)\n", file.c_str(), passed, total - excluded, excluded);
    std::string list;
    for (const std::string& f : failures) list += "  " + f + "\n";
    if (!failures.empty()) std::printf("failing cases:\n%s", list.c_str());
    EXPECT_TRUE(failures.empty()) << failures.size() << " failing cases in " << file << ":\n" << list;
    EXPECT_EQ(total, expected_cases) << file << " case count changed";
}

TEST(CoreTxVectors, TxValid) { RunFile("tx_valid.json", /*valid=*/true, 121); }

TEST(CoreTxVectors, TxInvalid) { RunFile("tx_invalid.json", /*valid=*/false, 93); }

}  // namespace
}  // namespace ibd
