// The 2,760 taproot cases of Bitcoin Core's feature_taproot.py in Core's script_assets_test
// format (vectors/btcd-taproot-ref/taproot_script_assets.json, see
// ../shared/blocks-fixtures/README.md "Test vectors"), run as Core's script_assets_test
// (script_tests.cpp, AssetTest) runs them:
//   {tx, prevouts: [serialized CTxOut hex...], index, flags, comment, final?,
//    success?: {scriptSig, witness}, failure?: {scriptSig, witness}}
// Input `index` of `tx` gets the success (failure) scriptSig and witness. With the success
// variant it must verify under every consensus flag combination that is a subset of `flags`
// (every combination when "final" is true); with the failure variant it must fail under every
// combination that is a superset of `flags`. The consensus flag combinations are Core's
// ALL_CONSENSUS_FLAGS: any of P2SH, DERSIG, NULLDUMMY, CHECKLOCKTIMEVERIFY, CHECKSEQUENCEVERIFY,
// WITNESS, TAPROOT where WITNESS needs P2SH and TAPROOT needs WITNESS.
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "primitives/hex.h"
#include "primitives/serialize.h"
#include "primitives/transaction.h"
#include "script/interpreter.h"
#include "script/script_checks.h"
#include "script/script_asm.h"
#include "support/test_support.h"

namespace ibd {
namespace {

/** Cases left out, by index in the file, each with its reason. Empty: every case runs. */
const std::map<size_t, std::string>& Excluded() {
    static const std::map<size_t, std::string> excluded = {};
    return excluded;
}

/** Core's AllConsensusFlags (script_tests.cpp). */
std::vector<uint32_t> AllConsensusFlags() {
    std::vector<uint32_t> ret;
    for (uint32_t i = 0; i < 128; ++i) {
        uint32_t flag = 0;
        if (i & 1) flag |= SCRIPT_VERIFY_P2SH;
        if (i & 2) flag |= SCRIPT_VERIFY_DERSIG;
        if (i & 4) flag |= SCRIPT_VERIFY_NULLDUMMY;
        if (i & 8) flag |= SCRIPT_VERIFY_CHECKLOCKTIMEVERIFY;
        if (i & 16) flag |= SCRIPT_VERIFY_CHECKSEQUENCEVERIFY;
        if (i & 32) flag |= SCRIPT_VERIFY_WITNESS;
        if (i & 64) flag |= SCRIPT_VERIFY_TAPROOT;
        if ((flag & SCRIPT_VERIFY_WITNESS) && !(flag & SCRIPT_VERIFY_P2SH)) continue;
        if ((flag & SCRIPT_VERIFY_TAPROOT) && !(flag & SCRIPT_VERIFY_WITNESS)) continue;
        ret.push_back(flag);
    }
    return ret;
}

/** An ImmediateSink with a verdict cache (Core's signature cache in
 *  CachingTransactionSignatureChecker): the same check recurs under every flag combination. */
class CachingSink : public CheckSink {
public:
    bool Check(CheckType type, const Hash32& msg, const uint8_t* pubkey, size_t pubkey_len, const uint8_t* sig,
               size_t sig_len) override {
        std::string key(1, static_cast<char>(type));
        key.append(reinterpret_cast<const char*>(msg.data()), msg.size());
        key.push_back(static_cast<char>(pubkey_len));  // lengths keep the key unambiguous
        key.append(reinterpret_cast<const char*>(pubkey), pubkey_len);
        key.append(reinterpret_cast<const char*>(sig), sig_len);
        const auto it = cache_.find(key);
        if (it != cache_.end()) return it->second;
        const bool verdict = inner_.Check(type, msg, pubkey, pubkey_len, sig, sig_len);
        cache_.emplace(std::move(key), verdict);
        return verdict;
    }

private:
    ImmediateSink inner_;
    std::map<std::string, bool> cache_;
};

std::string FlagsText(uint32_t flags) {
    std::string s;
    for (const auto& [name, bit] : ScriptFlagNames()) {
        if (flags & bit) s += (s.empty() ? "" : ",") + name;
    }
    return s.empty() ? "NONE" : s;
}

/** Runs one variant ("success" or "failure") of case `test`; returns "" when it behaves as
 *  required, else the first flag combination that does not. */
std::string RunVariant(const nlohmann::json& test, const char* variant, CachingSink& sink) {
    const std::vector<uint8_t> raw = HexDecode(test.at("tx").get<std::string>());
    Transaction tx = ParseTransaction(raw.data(), raw.size());
    std::vector<SpentOutput> prevouts;
    for (const nlohmann::json& p : test.at("prevouts")) {
        const std::vector<uint8_t> bytes = HexDecode(p.get<std::string>());
        Reader r(bytes.data(), bytes.size());
        SpentOutput o;
        o.value = r.ReadI64("prevout value");
        o.script_pubkey = r.ReadVarBytes("prevout scriptPubKey");
        if (!r.empty()) throw std::runtime_error("trailing bytes after a prevout");
        prevouts.push_back(std::move(o));
    }
    if (prevouts.size() != tx.vin.size()) throw std::runtime_error("prevout count != input count");
    const size_t idx = test.at("index").get<size_t>();
    if (idx >= tx.vin.size()) throw std::runtime_error("index out of range");
    const uint32_t test_flags = ParseScriptFlags(test.at("flags").get<std::string>());
    const bool fin = test.contains("final") && test.at("final").get<bool>();
    const bool success = std::string(variant) == "success";

    const nlohmann::json& v = test.at(variant);
    tx.vin[idx].script_sig = HexDecode(v.at("scriptSig").get<std::string>());
    tx.vin[idx].witness.clear();
    for (const nlohmann::json& item : v.at("witness")) {
        tx.vin[idx].witness.push_back(HexDecode(item.get<std::string>()));
    }

    std::vector<const SpentOutput*> spent;
    for (const SpentOutput& o : prevouts) spent.push_back(&o);
    PrecomputedTxData pre;
    pre.Init(tx, spent, /*need_bip143=*/true, /*need_bip341=*/true);
    const TransactionSignatureChecker checker(tx, idx, prevouts[idx].value, pre, sink);

    static const std::vector<uint32_t> kAllConsensusFlags = AllConsensusFlags();
    for (const uint32_t flags : kAllConsensusFlags) {
        // Success: valid under every subset of test_flags ("final": under all). Failure:
        // invalid under every superset of test_flags.
        const bool applies = success ? (fin || (flags & test_flags) == flags) : (flags & test_flags) == test_flags;
        if (!applies) continue;
        ScriptError err = ScriptError::UNKNOWN_ERROR;
        const bool ok = VerifyScript(tx.vin[idx].script_sig, prevouts[idx].script_pubkey, &tx.vin[idx].witness,
                                     flags, checker, &err);
        if (ok != success) {
            return std::string(variant) + (success ? " failed" : " passed") + " under " + FlagsText(flags) + ": " +
                   ScriptErrorName(err);
        }
    }
    return "";
}

TEST(TaprootScriptAssets, AllCases) {
    const nlohmann::json tests = ReadJsonFile(FixturePath("vectors/btcd-taproot-ref/taproot_script_assets.json"));
    ASSERT_TRUE(tests.is_array());
    size_t success_total = 0, success_passed = 0, failure_total = 0, failure_passed = 0, excluded = 0;
    std::vector<std::string> failures;
    CachingSink sink;
    for (size_t idx = 0; idx < tests.size(); ++idx) {
        const nlohmann::json& test = tests[idx];
        if (Excluded().count(idx) != 0) {
            ++excluded;
            continue;
        }
        for (const char* variant : {"success", "failure"}) {
            if (!test.contains(variant)) continue;
            const bool is_success = std::string(variant) == "success";
            (is_success ? success_total : failure_total)++;
            std::string problem;
            try {
                problem = RunVariant(test, variant, sink);
            } catch (const std::exception& e) {
                problem = std::string("bad test: ") + e.what();
            }
            if (problem.empty()) {
                (is_success ? success_passed : failure_passed)++;
            } else {
                failures.push_back("#" + std::to_string(idx) + " \"" + test.value("comment", "") + "\" flags " +
                                   test.value("flags", "") + ": " + problem);
            }
        }
    }
    std::printf("taproot_script_assets.json: success %zu/%zu, failure %zu/%zu passed (%zu cases excluded)\n",
                success_passed, success_total, failure_passed, failure_total, excluded);
    std::string list;
    for (const std::string& f : failures) list += "  " + f + "\n";
    if (!failures.empty()) std::printf("failing cases:\n%s", list.c_str());
    EXPECT_TRUE(failures.empty()) << failures.size() << " failing variants:\n" << list;
    EXPECT_EQ(tests.size(), 2760u) << "taproot_script_assets.json case count changed";
}

}  // namespace
}  // namespace ibd
