// Height-activated rules: BIP66 strict DER (IsValidSignatureEncoding, SCRIPT_ERR_SIG_DER from
// height 363,725) and the BIP34 coinbase height (from 227,931), on hand-made encodings, on
// Core's script_tests.json DER cases, and on real fixture blocks through ValidateBlock with one
// signature re-encoded with an extra 0x00 in R (lax DER accepts it, strict DER does not).
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <cstdint>
#include <string>
#include <vector>

#include "primitives/block.h"
#include "primitives/hex.h"
#include "script/consensus_flags.h"
#include "script/interpreter.h"
#include "support/test_support.h"
#include "support/tx_checks.h"
#include "util/error.h"
#include "validation/block_validation.h"
#include "verify/batch_verify.h"
#include "verify/ecdsa_lax_der.h"

namespace ibd {
namespace {

bool Strict(const std::string& hex) {
    const std::vector<uint8_t> sig = HexDecode(hex);
    std::vector<uint8_t> heap(sig);  // exactly sized: a sanitizer would see an overread
    return IsValidSignatureEncoding(heap.data(), heap.size());
}

// A real strict signature (BIP66 "example" shape): R with a 0x00 pad, 32-byte S, SIGHASH_ALL.
const std::string kR = "00813ef79ccefa9a56f7ba805f0e478584fe5f0dd5f567bc09b5123ccbc9832365";
const std::string kS = "6ff18a52dcc0336f7af62400a6dd9b810732baf1ff758000d6f613a556eb31ba";
const std::string kGood = "3045" "0221" + kR + "0220" + kS + "01";

TEST(IsValidSignatureEncoding, HandMadeCases) {
    EXPECT_TRUE(Strict(kGood));
    EXPECT_TRUE(Strict("300602010102010101"));  // smallest: 9 bytes (BIP66 example 4)
    EXPECT_TRUE(Strict("3006020101020101ff"));  // hash_type value is not DERSIG's business
    // 73 bytes: two 33-byte integers, both needing their pad.
    const std::string r33 = "0080" + std::string(62, '1'), s33 = "00ff" + std::string(62, '2');
    EXPECT_TRUE(Strict("3046" "0221" + r33 + "0221" + s33 + "01"));
    // 74 bytes: too long even if well formed.
    EXPECT_FALSE(Strict("3047" "0222" "00" + r33 + "0221" + s33 + "01"));
    EXPECT_FALSE(Strict(""));
    EXPECT_FALSE(Strict("3005020101020101"));    // 8 bytes
    EXPECT_FALSE(Strict("310602010102010101"));  // not a SEQUENCE
    EXPECT_FALSE(Strict("300702010102010101"));  // L != len - 3
    EXPECT_FALSE(Strict("300502010102010101"));
    EXPECT_FALSE(Strict("300603010102010101"));  // R not an INTEGER
    EXPECT_FALSE(Strict("300602010103010101"));  // S not an INTEGER
    EXPECT_FALSE(Strict("300602000202008001"));  // lenR 0
    EXPECT_FALSE(Strict("300602018102010101"));  // negative R
    EXPECT_FALSE(Strict("300602010102018101"));  // negative S
    EXPECT_FALSE(Strict("30070202000102010101"));  // R padded without need
    EXPECT_FALSE(Strict("30070201010202000101"));  // S padded without need
    EXPECT_TRUE(Strict("30070202008002010101"));   // R padded with need
    EXPECT_TRUE(Strict("30070201010202008001"));   // S padded with need
    EXPECT_FALSE(Strict("30060201010201010100"));  // trailing byte after hash_type
    EXPECT_FALSE(Strict("3006020101020201"));      // S runs into the hash_type
    EXPECT_FALSE(Strict("300602ff0102010101"));    // lenR past the end
    EXPECT_FALSE(Strict("3006020401020101ff"));    // lenR leaves no room for S tag + length
    // The mutation used on the blocks below: one more 0x00 in front of an unpadded R.
    const std::string r32 = kR.substr(2, 62) + "00";  // 32 bytes, top bit clear
    ASSERT_EQ(r32.size(), 64u);
    EXPECT_TRUE(Strict("3044" "0220" + std::string("7") + r32.substr(1) + "0220" + kS + "01"));
    EXPECT_FALSE(Strict("3045" "0221" "00" "7" + r32.substr(1) + "0220" + kS + "01"));
}

/** Core's script_tests.json: every case whose flags make CHECKSIG run IsValidSignatureEncoding
 *  (DERSIG, STRICTENC or LOW_S), whose scriptSig is one push of a signature and whose
 *  scriptPubKey is a single CHECKSIG. SIG_DER expected <=> the encoding is not strict (or the
 *  signature is empty, which the check lets through). */
TEST(IsValidSignatureEncoding, CoreScriptTestsDerCases) {
    const nlohmann::json cases = ReadJsonFile(FixturePath("vectors/bitcoin-core/script_tests.json"));
    size_t der_bad = 0, der_ok = 0;
    for (const nlohmann::json& t : cases) {
        if (!t.is_array() || t.size() < 4 || !t[0].is_string()) continue;
        const std::string sig_asm = t[0], spk = t[1], flags = t[2], expect = t[3];
        if (flags.find("DERSIG") == std::string::npos && flags.find("STRICTENC") == std::string::npos &&
            flags.find("LOW_S") == std::string::npos) {
            continue;
        }
        // "0xNN 0x<NN bytes>" exactly.
        if (sig_asm.size() < 8 || sig_asm.compare(0, 2, "0x") != 0 || sig_asm[4] != ' ' ||
            sig_asm.compare(5, 2, "0x") != 0) {
            continue;
        }
        std::vector<uint8_t> push, sig;
        if (!TryHexDecode(sig_asm.substr(2, 2), push) || !TryHexDecode(sig_asm.substr(7), sig)) continue;
        if (push.size() != 1 || push[0] != sig.size() || push[0] >= 0x4c) continue;
        const bool single_checksig = spk.find("CHECKMULTISIG") == std::string::npos &&
                                     std::count(spk.begin(), spk.end(), ' ') <= 3 &&
                                     spk.find("CHECKSIG") != std::string::npos &&
                                     spk.find("CHECKSIGVERIFY") == std::string::npos;
        if (!single_checksig) continue;
        SCOPED_TRACE(t.dump());
        if (expect == "SIG_DER") {
            EXPECT_FALSE(IsValidSignatureEncoding(sig.data(), sig.size()));
            ++der_bad;
        } else {
            EXPECT_TRUE(IsValidSignatureEncoding(sig.data(), sig.size()));
            ++der_ok;
        }
    }
    EXPECT_GE(der_bad, 16u);
    EXPECT_GE(der_ok, 8u);
    std::cout << "[ vectors  ] script_tests.json: " << der_bad << " SIG_DER, " << der_ok << " strict\n";
}

TEST(Bip34, SerializeScriptHeight) {
    EXPECT_EQ(HexEncode(SerializeScriptHeight(0)), "00");
    EXPECT_EQ(HexEncode(SerializeScriptHeight(1)), "51");
    EXPECT_EQ(HexEncode(SerializeScriptHeight(16)), "60");
    EXPECT_EQ(HexEncode(SerializeScriptHeight(17)), "0111");
    EXPECT_EQ(HexEncode(SerializeScriptHeight(127)), "017f");
    EXPECT_EQ(HexEncode(SerializeScriptHeight(128)), "028000");
    EXPECT_EQ(HexEncode(SerializeScriptHeight(255)), "02ff00");
    EXPECT_EQ(HexEncode(SerializeScriptHeight(256)), "020001");
    EXPECT_EQ(HexEncode(SerializeScriptHeight(227931)), "035b7a03");
    EXPECT_EQ(HexEncode(SerializeScriptHeight(8388608)), "0400008000");
}

TEST(ScriptFlags, BuriedDeploymentsFromTheirHeights) {
    const Hash32 h{};
    const uint32_t base = SCRIPT_VERIFY_P2SH | SCRIPT_VERIFY_WITNESS | SCRIPT_VERIFY_TAPROOT;
    EXPECT_EQ(GetBlockScriptVerifyFlags(h, 0), base);
    EXPECT_EQ(GetBlockScriptVerifyFlags(h, kBip66Height - 1), base);
    EXPECT_EQ(GetBlockScriptVerifyFlags(h, kBip66Height), base | SCRIPT_VERIFY_DERSIG);
    EXPECT_EQ(GetBlockScriptVerifyFlags(h, kBip65Height),
              base | SCRIPT_VERIFY_DERSIG | SCRIPT_VERIFY_CHECKLOCKTIMEVERIFY);
    EXPECT_EQ(GetBlockScriptVerifyFlags(h, kCsvHeight),
              base | SCRIPT_VERIFY_DERSIG | SCRIPT_VERIFY_CHECKLOCKTIMEVERIFY | SCRIPT_VERIFY_CHECKSEQUENCEVERIFY);
    EXPECT_EQ(GetBlockScriptVerifyFlags(h, kSegwitHeight), base | SCRIPT_VERIFY_DERSIG |
                                                               SCRIPT_VERIFY_CHECKLOCKTIMEVERIFY |
                                                               SCRIPT_VERIFY_CHECKSEQUENCEVERIFY | SCRIPT_VERIFY_NULLDUMMY);
    // The BIP16 exception block (height 170,060) keeps SCRIPT_VERIFY_NONE; DERSIG is added by
    // height after the exception, as in Core.
    Hash32 bip16{};
    ASSERT_TRUE(TryParseHashDisplayHex("00000000000002dc756eebf4f49723ed8d30cc28a5f108eb94b1ba88ac4f9c22", bip16));
    EXPECT_EQ(GetBlockScriptVerifyFlags(bip16, 170060), static_cast<uint32_t>(SCRIPT_VERIFY_NONE));
    EXPECT_EQ(GetBlockScriptVerifyFlags(bip16, kBip66Height), static_cast<uint32_t>(SCRIPT_VERIFY_DERSIG));
    // The taproot exception block (height 692,261): P2SH and WITNESS, no TAPROOT.
    Hash32 taproot{};
    ASSERT_TRUE(TryParseHashDisplayHex("0000000000000000000f14c35b2d841e986ab5441de8c585d5ffe55ea1e395ad", taproot));
    EXPECT_EQ(GetBlockScriptVerifyFlags(taproot, 692261) & (base | SCRIPT_VERIFY_NULLDUMMY),
              static_cast<uint32_t>(SCRIPT_VERIFY_P2SH | SCRIPT_VERIFY_WITNESS | SCRIPT_VERIFY_NULLDUMMY));
}

using Loaded = FixtureBlock;

Loaded Load(int height) { return LoadFixtureBlock(height); }

struct Target {
    size_t tx = 0, input = 0;
};

/** A P2PKH input (25-byte spent scriptPubKey) of a transaction without witness whose outputs
 *  are not spent inside the block (so changing its txid breaks no other outpoint) and whose
 *  signature's R has no pad (first byte < 0x80). */
Target FindP2pkhInput(const Loaded& l) {
    const Block b = ParseBlock(l.raw.data(), l.raw.size());
    std::vector<std::string> spent_txids;
    for (const SpentOutputEntry& e : l.spent) spent_txids.push_back(HexEncodeReversed(e.prevout.txid));
    size_t k = 0;
    for (size_t t = 1; t < b.txs.size(); ++t) {
        const Transaction& tx = b.txs[t];
        const bool spent_here =
            std::find(spent_txids.begin(), spent_txids.end(), HexEncodeReversed(tx.txid)) != spent_txids.end();
        for (size_t i = 0; i < tx.vin.size(); ++i, ++k) {
            const std::vector<uint8_t>& ss = tx.vin[i].script_sig;
            if (spent_here || tx.HasWitness() || l.spent[k].out.script_pubkey.size() != 25) continue;
            // 47|48 30 L 02 lenR R...: an unpadded R of 32 bytes.
            if (ss.size() < 8 || ss[1] != 0x30 || ss[3] != 0x02 || ss[4] != 0x20 || (ss[5] & 0x80)) continue;
            if (ss[0] != 0x47 && ss[0] != 0x48) continue;
            return {t, i};
        }
    }
    ADD_FAILURE() << "no suitable P2PKH input";
    return {};
}

/** Re-encodes the signature of `target` with one more leading 0x00 in R (adjusting the push,
 *  sequence and R lengths and the scriptSig length), then recomputes the header's merkle root.
 *  The block hash changes; lax DER still reads the same (r, s). */
std::vector<uint8_t> PadR(const std::vector<uint8_t>& raw, const Target& target) {
    const Block b = ParseBlock(raw.data(), raw.size());
    const size_t in_off = b.txs[target.tx].vin[target.input].offset;
    const size_t len_off = in_off + 36;  // CompactSize of the scriptSig, after the prevout
    std::vector<uint8_t> out(raw);
    EXPECT_LT(out[len_off], 0xfc);
    out[len_off] += 1;                    // scriptSig length
    out[len_off + 1] += 1;                // push opcode (still a direct push)
    out[len_off + 3] += 1;                // SEQUENCE length
    out[len_off + 5] += 1;                // R length
    out.insert(out.begin() + static_cast<std::ptrdiff_t>(len_off + 6), 0x00);
    const Block changed = ParseBlock(out.data(), out.size());
    const Hash32 root = BlockMerkleRoot(changed);
    std::copy(root.begin(), root.end(), out.begin() + 36);
    return out;
}

Error ErrorOf(const std::vector<uint8_t>& raw, const std::vector<SpentOutputEntry>& spent, int32_t height) {
    try {
        ValidateBlock(raw.data(), raw.size(), spent, "", height, MutatedBlockContext());
    } catch (const Error& e) {
        return e;
    }
    ADD_FAILURE() << "no error at height " << height;
    return Error("none", Location{});
}

/** ValidateBlock, which must load the block (a test failure and an empty result otherwise). */
BlockValidationResult Validate(const std::vector<uint8_t>& raw, const std::vector<SpentOutputEntry>& spent,
                               int32_t height) {
    try {
        return ValidateBlock(raw.data(), raw.size(), spent, "", height, MutatedBlockContext());
    } catch (const Error& e) {
        ADD_FAILURE() << "height " << height << ": " << e.what();
        return {};
    }
}

TEST(Bip66Blocks, PaddedRInPostBip66BlockIsSigDer) {
    const Loaded l = Load(403200);
    const Target t = FindP2pkhInput(l);
    const std::vector<uint8_t> bad = PadR(l.raw, t);
    const BlockValidationResult r = Validate(bad, l.spent, 403200);
    EXPECT_FALSE(r.valid);
    EXPECT_EQ(r.script_error, "SIG_DER");
    EXPECT_EQ(r.failed_inputs, 1u);
    const std::string named = "SCRIPT_ERR_SIG_DER: tx " + std::to_string(t.tx) + " input " + std::to_string(t.input) + " (p2pkh)";
    EXPECT_EQ(r.error.rfind(named, 0), 0u) << r.error;
    EXPECT_EQ(r.tx_index, static_cast<int64_t>(t.tx));
    EXPECT_EQ(r.input_index, static_cast<int64_t>(t.input));
    EXPECT_EQ(r.input_type, "p2pkh");
    EXPECT_FALSE(r.hash_hex.empty());
    EXPECT_NE(r.error.find(r.hash_hex), std::string::npos);
    // Unchanged, the block is valid at its height.
    EXPECT_TRUE(Validate(l.raw, l.spent, 403200).valid);
    // Below BIP34 and BIP66 the padded R would be fine (lax DER: PaddedRInPreBip66BlockIsAccepted),
    // but this block cannot be given such a height: tx 1's nLockTime 403,188 is a height, and
    // IsFinalTx (ContextualCheckBlock) rejects it below that.
    const Error e = ErrorOf(bad, l.spent, 200000);
    EXPECT_EQ(e.reject_reason(), "bad-txns-nonfinal") << e.what();
    EXPECT_EQ(e.stage(), "ContextualCheckBlock");
    EXPECT_EQ(e.where().tx_index, 1);
}

TEST(Bip66Blocks, PaddedRInPreBip66BlockIsAccepted) {
    // Block 300,025: BIP34 active (its coinbase height is checked), BIP66 not yet.
    const Loaded l = Load(300025);
    const Target t = FindP2pkhInput(l);
    const std::vector<uint8_t> lax = PadR(l.raw, t);
    const BlockValidationResult r = Validate(lax, l.spent, 300025);
    EXPECT_TRUE(r.valid) << r.error;
    EXPECT_EQ(r.origins.size(), 1427u);  // block_validation_test: 1427 checks at 300,025
    size_t valid = 0;
    for (uint8_t v : r.verdicts) valid += v == static_cast<uint8_t>(Verdict::kValid);
    EXPECT_EQ(valid, r.verdicts.size());
    // The same bytes claimed to be at a post-BIP66 height are refused before any signature is
    // looked at: first, in Core's order, by ContextualCheckBlockHeader (a version-2 block at
    // BIP66's height), then, at a height whose version rule it meets, by the BIP34 cross-check.
    const Error e = ErrorOf(lax, l.spent, kBip66Height);
    EXPECT_EQ(e.reject_reason(), "bad-version(0x00000002)") << e.what();
    EXPECT_EQ(e.stage(), "ContextualCheckBlockHeader") << e.what();
    const Error e2 = ErrorOf(lax, l.spent, kBip66Height - 1);
    EXPECT_EQ(e2.reject_reason(), "bad-cb-height") << e2.what();
}

TEST(Bip66Blocks, SegwitSignaturesAreCheckedToo) {
    // Block 553724 (p2pkh, p2sh-p2wpkh, p2wpkh inputs): pad R of each witness signature in the
    // parsed transactions and evaluate the transaction under the block's flags.
    const Loaded l = Load(553724);
    const Block b = ParseBlock(l.raw.data(), l.raw.size());
    const uint32_t flags = GetBlockScriptVerifyFlags(b.hash, 553724);
    const uint32_t pre_bip66 = GetBlockScriptVerifyFlags(b.hash, kBip66Height - 1);
    size_t k = 0, checked = 0;
    for (size_t t = 1; t < b.txs.size(); ++t) {
        std::vector<const SpentOutput*> spent;
        for (size_t i = 0; i < b.txs[t].vin.size(); ++i) spent.push_back(&l.spent[k + i].out);
        for (size_t i = 0; i < b.txs[t].vin.size(); ++i) {
            SCOPED_TRACE("tx " + std::to_string(t) + " input " + std::to_string(i));
            Transaction tx = b.txs[t];
            if (tx.vin[i].witness.size() != 2) continue;
            const uint32_t tx_index = static_cast<uint32_t>(t);
            EXPECT_TRUE(test::EvaluateTransaction(tx, tx_index, spent, flags).inputs[i].ok);
            std::vector<uint8_t>& sig = tx.vin[i].witness[0];
            ASSERT_TRUE(IsValidSignatureEncoding(sig.data(), sig.size()));
            sig.insert(sig.begin() + 4, 0x00);
            sig[1] += 1;
            sig[3] += 1;
            ASSERT_FALSE(IsValidSignatureEncoding(sig.data(), sig.size()));
            test::InputEvaluation r = test::EvaluateTransaction(tx, tx_index, spent, flags).inputs[i];
            EXPECT_FALSE(r.ok);
            EXPECT_EQ(r.serror, ScriptError::SIG_DER);
            EXPECT_EQ(r.checks, 0u);  // refused before any verification
            // Before BIP66 the lax parser reads the same (r, s): the input is valid.
            r = test::EvaluateTransaction(tx, tx_index, spent, pre_bip66).inputs[i];
            EXPECT_TRUE(r.ok) << ScriptErrorName(r.serror);
            EXPECT_EQ(r.checks, 1u);
            // An empty signature is not a DER error: CHECKSIG is just false.
            sig.clear();
            r = test::EvaluateTransaction(tx, tx_index, spent, flags).inputs[i];
            EXPECT_FALSE(r.ok);
            EXPECT_EQ(r.serror, ScriptError::EVAL_FALSE);
            ++checked;
        }
        k += b.txs[t].vin.size();
    }
    EXPECT_EQ(checked, 2u);
}

TEST(Bip34, WrongHeightIsAnError) {
    const Loaded l = Load(403200);
    for (const int32_t h : {403201, 403300, 1000000}) {
        const Error e = ErrorOf(l.raw, l.spent, h);
        EXPECT_EQ(e.reason().rfind("bad-cb-height: block ", 0), 0u) << e.what();
        EXPECT_NE(e.reason().find("given height " + std::to_string(h)), std::string::npos) << e.what();
        EXPECT_NE(e.reason().find(HexEncodeReversed(ParseBlock(l.raw.data(), l.raw.size()).hash)), std::string::npos);
        EXPECT_EQ(e.where().tx_index, 0);
    }
    // A height below a tx's height nLockTime fails finality first: ContextualCheckBlock checks
    // it before BIP34, as Core does (tx 37's 403,199; tx 1's 403,188).
    for (const auto& [h, tx] : {std::pair<int32_t, int64_t>{403199, 37}, {227931, 1}}) {
        const Error e = ErrorOf(l.raw, l.spent, h);
        EXPECT_EQ(e.reject_reason(), "bad-txns-nonfinal") << e.what();
        EXPECT_EQ(e.where().tx_index, tx) << e.what();
    }
    // Below BIP34 the coinbase cannot cross-check the height; here a height nLockTime does
    // (tx 1's 403,188: IsFinalTx), and just above it the block is valid.
    EXPECT_EQ(ErrorOf(l.raw, l.spent, kBip34Height - 1).reject_reason(), "bad-txns-nonfinal");
    EXPECT_TRUE(Validate(l.raw, l.spent, 403200).valid);
    // Negative: an Error, not a wrap-around.
    EXPECT_NE(std::string(ErrorOf(l.raw, l.spent, -1).what()).find("negative"), std::string::npos);
}

}  // namespace
}  // namespace ibd
