// Bitcoin Core's script_tests.json (src/test/data/, see ../shared/blocks-fixtures/README.md
// "Test vectors"), run as Core's script_tests.cpp (script_json_test / DoTest) runs it: each
// case spends the output of a synthetic crediting transaction with a synthetic spending
// transaction, under the case's flags, and must end with the expected ScriptError. As in Core,
// a passing case must still pass with random flags among the low 16 removed, and a failing case
// must still fail with random flags added.
//
// Case format: [[witness items..., amount in BTC]?, scriptSig asm, scriptPubKey asm, flags,
// expected error, comment?]; one-element arrays are section comments. In witnesses, "#SCRIPT#
// asm" is a script in asm and "#CONTROLBLOCK#" the control block of a taproot output whose only
// leaf (depth 0, leaf version 0xc0) is the previous witness item and whose internal key is
// Core's key0 (private key 1, so the x-only key of G); the scriptPubKey "0x51 0x20
// #TAPROOTOUTPUT#" is then that output.
#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <secp256k1.h>
#include <secp256k1_extrakeys.h>

#include "crypto/sha256.h"
#include "primitives/hex.h"
#include "primitives/serialize.h"
#include "primitives/transaction.h"
#include "script/interpreter.h"
#include "script/script.h"
#include "script/script_checks.h"
#include "script/script_asm.h"
#include "derived/block_mutation.h"
#include "support/test_support.h"

namespace ibd {
namespace {

/** Cases left out, by index in script_tests.json, each with its reason. Empty: every case runs. */
const std::map<size_t, std::string>& Excluded() {
    static const std::map<size_t, std::string> excluded = {};
    return excluded;
}

/** Core's BuildCreditingTransaction: version 1, one null-prevout input with scriptSig
 *  OP_0 OP_0 (`CScript() << CScriptNum(0) << CScriptNum(0)`), one output paying `value` to
 *  `script_pubkey`, nLockTime 0. */
Transaction BuildCreditingTransaction(const std::vector<uint8_t>& script_pubkey, int64_t value) {
    Transaction tx;
    tx.version = 1;
    tx.lock_time = 0;
    TxIn in;
    in.prevout.txid = Hash32{};
    in.prevout.n = 0xffffffff;
    in.script_sig = {OP_0, OP_0};
    in.sequence = 0xffffffff;
    tx.vin.push_back(in);
    tx.vout.push_back(TxOut{value, script_pubkey});
    const std::vector<uint8_t> ser = test::SerializeTransaction(tx, /*with_witness=*/false);  // the txid preimage
    tx.txid = Sha256d(ser.data(), ser.size());
    return tx;
}

/** Core's BuildSpendingTransaction: version 1, one input spending output 0 of `credit` with
 *  `script_sig` and `witness`, nSequence final, one output of the same value with an empty
 *  script, nLockTime 0. */
Transaction BuildSpendingTransaction(const std::vector<uint8_t>& script_sig, const Stack& witness,
                                     const Transaction& credit) {
    Transaction tx;
    tx.version = 1;
    tx.lock_time = 0;
    TxIn in;
    in.prevout.txid = credit.txid;
    in.prevout.n = 0;
    in.script_sig = script_sig;
    in.sequence = 0xffffffff;
    in.witness = witness;
    tx.vin.push_back(in);
    tx.vout.push_back(TxOut{credit.vout[0].value, {}});
    return tx;
}

/** The single-leaf taproot tree Core's TaprootBuilder makes for "#CONTROLBLOCK#": leaf
 *  `script` at depth 0 with leaf version 0xc0 under the internal key x(G). */
struct TaprootLeafOutput {
    std::vector<uint8_t> control_block;  // (0xc0 | parity of Q) || internal key (BIP341)
    std::vector<uint8_t> output_key;     // x(Q), 32 bytes
};

TaprootLeafOutput BuildTaprootLeaf(const std::vector<uint8_t>& script) {
    // Core's key0: private key 1, whose public key G has an even Y (x-only key = x(G)).
    const std::vector<uint8_t> internal_key =
        HexDecode("79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798");
    // BIP341: tapleaf hash = hash_TapLeaf(leaf_version || compact_size(script) || script); with
    // one leaf at depth 0 it is the merkle root.
    std::vector<uint8_t> leaf;
    VectorSink ls{leaf};
    WriteU8(ls, 0xc0);
    WriteVarBytes(ls, script);
    const Hash32 root = TaggedHash("TapLeaf", leaf.data(), leaf.size());
    // BIP341 taproot_tweak_pubkey: t = hash_TapTweak(P || root), Q = P + tG.
    std::vector<uint8_t> tweak_msg = internal_key;
    tweak_msg.insert(tweak_msg.end(), root.begin(), root.end());
    const Hash32 tweak = TaggedHash("TapTweak", tweak_msg.data(), tweak_msg.size());
    secp256k1_xonly_pubkey p;
    secp256k1_pubkey q;
    secp256k1_xonly_pubkey q_x;
    int parity = 0;
    TaprootLeafOutput out;
    if (!secp256k1_xonly_pubkey_parse(secp256k1_context_static, &p, internal_key.data()) ||
        !secp256k1_xonly_pubkey_tweak_add(secp256k1_context_static, &q, &p, tweak.data()) ||
        !secp256k1_xonly_pubkey_from_pubkey(secp256k1_context_static, &q_x, &parity, &q)) {
        ADD_FAILURE() << "taproot tweak failed";
        return out;
    }
    out.output_key.resize(32);
    secp256k1_xonly_pubkey_serialize(secp256k1_context_static, out.output_key.data(), &q_x);
    out.control_block.push_back(static_cast<uint8_t>(0xc0 | parity));
    out.control_block.insert(out.control_block.end(), internal_key.begin(), internal_key.end());
    return out;
}

/** One case, parsed. */
struct ScriptCase {
    size_t index = 0;
    Stack witness;
    int64_t amount = 0;
    std::vector<uint8_t> script_sig, script_pubkey;
    uint32_t flags = 0;
    std::string expected;
    std::string text;  // the whole JSON case, for messages
};

/** Core's script_json_test parsing of one case. Returns false for a comment entry. */
bool ParseCase(const nlohmann::json& test, size_t index, ScriptCase& c) {
    c.index = index;
    c.text = test.dump();
    size_t pos = 0;
    TaprootLeafOutput taproot;
    bool have_taproot = false;
    if (!test.empty() && test[0].is_array()) {
        const nlohmann::json& w = test[0];
        if (w.empty()) throw std::runtime_error("witness array without an amount");
        for (size_t i = 0; i + 1 < w.size(); ++i) {
            const std::string element = w[i].get<std::string>();
            static const std::string kScriptFlag = "#SCRIPT#";
            if (element.rfind(kScriptFlag, 0) == 0) {
                c.witness.push_back(ParseScriptAsm(element.substr(kScriptFlag.size())));
            } else if (element == "#CONTROLBLOCK#") {
                if (c.witness.empty()) throw std::runtime_error("#CONTROLBLOCK# without a script before it");
                taproot = BuildTaprootLeaf(c.witness.back());
                have_taproot = true;
                c.witness.push_back(taproot.control_block);
            } else {
                c.witness.push_back(HexDecode(element));
            }
        }
        // Core's AmountFromValue: the amount in BTC, exact to the satoshi.
        c.amount = std::llround(w.back().get<double>() * 1e8);
        pos = 1;
    }
    if (test.size() < 4 + pos) {
        if (test.size() != 1) throw std::runtime_error("bad test");
        return false;
    }
    c.script_sig = ParseScriptAsm(test[pos++].get<std::string>());
    const std::string spk = test[pos++].get<std::string>();
    if (spk == "0x51 0x20 #TAPROOTOUTPUT#") {
        if (!have_taproot) throw std::runtime_error("#TAPROOTOUTPUT# without #CONTROLBLOCK#");
        c.script_pubkey = {OP_1, 0x20};
        c.script_pubkey.insert(c.script_pubkey.end(), taproot.output_key.begin(), taproot.output_key.end());
    } else {
        c.script_pubkey = ParseScriptAsm(spk);
    }
    c.flags = ParseScriptFlags(test[pos++].get<std::string>());
    c.expected = test[pos++].get<std::string>();
    return true;
}

/** Core's DoTest. Returns an empty string when the case behaves as expected, else what went
 *  wrong ("got X" for the main run, or the flags of a failing variation). */
std::string RunCase(const ScriptCase& c, std::string& got) {
    const bool expect = c.expected == "OK";
    uint32_t flags = c.flags;
    // Core's DoTest: CLEANSTACK is only defined with P2SH and WITNESS.
    if (flags & SCRIPT_VERIFY_CLEANSTACK) flags |= SCRIPT_VERIFY_P2SH | SCRIPT_VERIFY_WITNESS;
    const Transaction credit = BuildCreditingTransaction(c.script_pubkey, c.amount);
    const Transaction spend = BuildSpendingTransaction(c.script_sig, c.witness, credit);
    const SpentOutput spent{credit.vout[0].value, credit.vout[0].script_pubkey};
    PrecomputedTxData pre;
    pre.Init(spend, {&spent}, /*need_bip143=*/true, /*need_bip341=*/true);
    ImmediateSink sink;
    const TransactionSignatureChecker checker(spend, 0, credit.vout[0].value, pre, sink);

    ScriptError err = ScriptError::UNKNOWN_ERROR;
    const bool ok = VerifyScript(c.script_sig, c.script_pubkey, &spend.vin[0].witness, flags, checker, &err);
    got = ScriptErrorName(err);
    if (ok != expect || got != c.expected) return "got " + got;

    // Core: removing flags from a passing case, or adding flags to a failing one, must not
    // change the result (16 random subsets of the low 16 bits; fixed seed here).
    std::mt19937 rng(static_cast<uint32_t>(c.index));
    for (int i = 0; i < 16; ++i) {
        const uint32_t extra = rng() & 0xffff;
        const uint32_t combined = expect ? (flags & ~extra) : (flags | extra);
        if ((combined & SCRIPT_VERIFY_CLEANSTACK) &&
            (~combined & (SCRIPT_VERIFY_P2SH | SCRIPT_VERIFY_WITNESS))) {
            continue;
        }
        if ((combined & SCRIPT_VERIFY_WITNESS) && (~combined & SCRIPT_VERIFY_P2SH)) continue;
        ScriptError err2 = ScriptError::UNKNOWN_ERROR;
        const bool ok2 = VerifyScript(c.script_sig, c.script_pubkey, &spend.vin[0].witness, combined, checker, &err2);
        if (ok2 != expect) {
            char buf[96];
            std::snprintf(buf, sizeof buf, "with flags 0x%x: %s", combined, ScriptErrorName(err2));
            return buf;
        }
    }
    return "";
}

std::string CommentOf(const nlohmann::json& test) {
    // The comment, when present, is the string after the expected error.
    const size_t base = (!test.empty() && test[0].is_array()) ? 5 : 4;
    if (test.size() > base && test[base].is_string()) return test[base].get<std::string>();
    return "";
}

TEST(CoreScriptTests, AllCases) {
    const nlohmann::json tests = ReadJsonFile(FixturePath("vectors/bitcoin-core/script_tests.json"));
    ASSERT_TRUE(tests.is_array());
    size_t total = 0, passed = 0, excluded = 0;
    std::vector<std::string> failures;
    for (size_t idx = 0; idx < tests.size(); ++idx) {
        const nlohmann::json& test = tests[idx];
        ScriptCase c;
        std::string problem, got;
        try {
            if (!ParseCase(test, idx, c)) continue;
        } catch (const std::exception& e) {
            ++total;
            failures.push_back("#" + std::to_string(idx) + " bad test (" + e.what() + "): " + test.dump());
            continue;
        }
        ++total;
        if (Excluded().count(idx) != 0) {
            ++excluded;
            continue;
        }
        problem = RunCase(c, got);
        if (problem.empty()) {
            ++passed;
        } else {
            failures.push_back("#" + std::to_string(idx) + " \"" + CommentOf(test) + "\" expected " + c.expected +
                               ", " + problem + "  " + c.text);
        }
    }
    std::printf("script_tests.json: %zu/%zu passed (%zu excluded)\n", passed, total - excluded, excluded);
    std::string list;
    for (const std::string& f : failures) list += "  " + f + "\n";
    if (!failures.empty()) std::printf("failing cases:\n%s", list.c_str());
    EXPECT_TRUE(failures.empty()) << failures.size() << " failing cases:\n" << list;
    EXPECT_EQ(total, 1212u) << "script_tests.json case count changed";
}

}  // namespace
}  // namespace ibd
