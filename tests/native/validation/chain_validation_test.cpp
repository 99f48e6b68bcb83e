// ChainValidation (native/validation/chain_validation.h) over mainnet blocks 1-255
// (mainnet-chain/btcd-blocks1-255.dat): every header linked from genesis and its proof of work
// checked, the seven spends of the chain (blocks 170, 181, 182, 183, 187, 221, 248) taking their
// prevouts from the coins view, with the same spent outputs, check records (sighashes included)
// and verdicts as the fixture path (mainnet/<height>/spent_outputs.json), and not_checked without
// the rules the chain decides. Then the chain tampered with, each named by height, hash, tx and
// input with Core's reject reason: a broken link, a bad nonce, a block after a rejected one, a
// removed block (missing prevout), an output spent twice (in one block, and in a later block),
// a coinbase spent too early, a repeated coinbase (BIP30), a truncated block and a truncated file.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "crypto/sha256.h"
#include "primitives/block.h"
#include "primitives/block_file.h"
#include "primitives/hex.h"
#include "derived/block_mutation.h"
#include "support/test_support.h"
#include "validation/block_validation.h"
#include "validation/chain_validation.h"

namespace ibd {
namespace {

const std::vector<int> kSpendingHeights = {170, 181, 182, 183, 187, 221, 248};

const FixtureChain& Chain() {
    static const FixtureChain chain = LoadFixtureChain();
    return chain;
}

/** Blocks of heights [first, last] of the real chain. */
std::vector<std::vector<uint8_t>> Blocks(int first, int last) {
    const FixtureChain& c = Chain();
    return {c.blocks.begin() + (first - c.first_height), c.blocks.begin() + (last - c.first_height + 1)};
}

/** The block file of `blocks` (magic, LE32 size, block; primitives/block_file.h). */
std::vector<uint8_t> Frame(const std::vector<std::vector<uint8_t>>& blocks) {
    std::vector<uint8_t> out;
    for (const std::vector<uint8_t>& b : blocks) {
        out.insert(out.end(), kMainnetMagic.begin(), kMainnetMagic.end());
        const uint32_t n = static_cast<uint32_t>(b.size());
        for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(n >> (8 * i)));
        out.insert(out.end(), b.begin(), b.end());
    }
    return out;
}

std::string HashOf(const std::vector<uint8_t>& block) { return HexEncodeReversed(Sha256d(block.data(), kBlockHeaderSize)); }

/** Rewrites hashPrevBlock of blocks[from..] so that each links to the one before it (a chain
 *  whose blocks were removed or changed; its proof of work is then broken past `from`). */
void Relink(std::vector<std::vector<uint8_t>>& blocks, size_t from) {
    for (size_t i = std::max<size_t>(from, 1); i < blocks.size(); ++i) {
        const Hash32 prev = Sha256d(blocks[i - 1].data(), kBlockHeaderSize);
        std::memcpy(blocks[i].data() + 4, prev.data(), prev.size());
    }
}

ChainFileResult RunChain(const std::vector<std::vector<uint8_t>>& blocks, ChainOptions options = {}) {
    ChainValidation chain(options);
    const std::vector<uint8_t> file = Frame(blocks);
    return ConnectBlockFile(chain, file.data(), file.size());
}

ChainOptions Mutated() {
    ChainOptions o;
    o.skip_proof_of_work = true;
    return o;
}

std::set<std::string> Rules(const std::vector<NotChecked>& list) {
    std::set<std::string> out;
    for (const NotChecked& n : list) out.insert(n.rule);
    return out;
}

TEST(ChainValidation, Blocks1To255ConnectFromGenesisEveryOneValid) {
    const FixtureChain& c = Chain();
    ASSERT_EQ(c.first_height, 1);
    ASSERT_EQ(c.blocks.size(), 255u);
    ChainValidation chain;
    const ChainFileResult run = ConnectBlockFile(chain, c.file.data(), c.file.size());
    EXPECT_FALSE(run.file_error.has_value());
    EXPECT_EQ(run.frames, 255u);
    EXPECT_EQ(run.not_validated, 0u);
    ASSERT_EQ(run.blocks.size(), 255u);
    uint32_t from_view = 0, in_block = 0, checks = 0, spent_entries = 0;
    std::string prev = kMainnetGenesisHashHex;
    int64_t last_mtp = 0;
    for (size_t i = 0; i < run.blocks.size(); ++i) {
        const ChainBlockResult& b = run.blocks[i];
        SCOPED_TRACE("height " + std::to_string(b.height));
        EXPECT_EQ(b.height, static_cast<int32_t>(i) + 1);
        EXPECT_TRUE(b.error.empty()) << b.error;
        EXPECT_TRUE(b.connected);
        EXPECT_TRUE(b.result.valid) << b.result.error;
        EXPECT_EQ(b.result.reject_reason, "");
        EXPECT_TRUE(b.proof_of_work_checked);
        EXPECT_TRUE(b.link_checked);
        EXPECT_EQ(b.prev_hash_hex, prev);
        EXPECT_EQ(b.result.hash_hex, HashOf(c.blocks[i]));
        prev = b.result.hash_hex;
        // The median time past never decreases along a chain.
        EXPECT_GE(b.median_time_past, last_mtp);
        last_mtp = b.median_time_past;
        // The rules the chain decides are no longer listed; what needs a clock or the
        // difficulty schedule still is.
        EXPECT_EQ(Rules(b.result.not_checked), (std::set<std::string>{"time-too-new", "expected-difficulty"}));
        from_view += b.spends_from_view;
        in_block += b.spends_in_block;
        checks += static_cast<uint32_t>(b.result.origins.size());
        spent_entries += static_cast<uint32_t>(b.spent.size());
        const bool spends = std::find(kSpendingHeights.begin(), kSpendingHeights.end(), b.height) != kSpendingHeights.end();
        EXPECT_EQ(b.spends_from_view, spends ? 1u : 0u);
        EXPECT_EQ(b.result.tx_count, spends ? 2u : 1u);
        EXPECT_EQ(b.coins_spent, b.spends_from_view);
    }
    EXPECT_EQ(from_view, 7u);
    EXPECT_EQ(in_block, 0u);
    EXPECT_EQ(checks, 7u);
    EXPECT_EQ(spent_entries, 7u);
    EXPECT_EQ(chain.TipHeight(), 255);
    EXPECT_EQ(HexEncodeReversed(chain.TipHash()), c.last_hash);
    // 255 coinbases of one output each; the 7 spending txs have 12 outputs (two each but 187's
    // and 221's: 170's 10 BTC to Hal Finney and its change, ...); 7 outputs spent: 255 + 12 - 7.
    size_t outputs = 0;
    for (const std::vector<uint8_t>& raw : c.blocks) {
        for (const Transaction& tx : ParseBlock(raw.data(), raw.size()).txs) outputs += tx.vout.size();
    }
    EXPECT_EQ(outputs, 267u);
    EXPECT_EQ(chain.Coins().GetCacheSize(), 260u);
    EXPECT_EQ(run.blocks.back().coins_in_view, 260u);
}

TEST(ChainValidation, SpendsFromTheViewEqualTheFixturePathChecksAndVerdicts) {
    ChainValidation chain;
    const ChainFileResult run = ConnectBlockFile(chain, Chain().file.data(), Chain().file.size());
    ASSERT_EQ(run.blocks.size(), 255u);
    for (const int height : kSpendingHeights) {
        SCOPED_TRACE("height " + std::to_string(height));
        const ChainBlockResult& b = run.blocks[height - 1];
        const FixtureBlock f = LoadFixtureBlock(height);
        EXPECT_EQ(b.result.hash_hex, f.hash);
        // The chain's block is the fixture's block, byte for byte.
        EXPECT_EQ(Chain().blocks[height - 1], f.raw);
        // The spent outputs the view gave are the fixture's spent_outputs.json.
        ASSERT_EQ(b.spent.size(), f.spent.size());
        for (size_t k = 0; k < f.spent.size(); ++k) {
            EXPECT_EQ(b.spent[k].prevout.txid, f.spent[k].prevout.txid);
            EXPECT_EQ(b.spent[k].prevout.n, f.spent[k].prevout.n);
            EXPECT_EQ(b.spent[k].out.value, f.spent[k].out.value);
            EXPECT_EQ(b.spent[k].out.script_pubkey, f.spent[k].out.script_pubkey);
        }
        const BlockValidationResult fixture = ValidateBlock(f.raw.data(), f.raw.size(), f.spent, f.hash, height);
        ASSERT_TRUE(fixture.valid) << fixture.error;
        // The same check records (type, key, signature and sighash) and verdicts.
        EXPECT_EQ(b.result.checks, fixture.checks);
        EXPECT_EQ(b.result.verdicts, fixture.verdicts);
        ASSERT_EQ(b.result.origins.size(), fixture.origins.size());
        for (size_t k = 0; k < fixture.origins.size(); ++k) {
            EXPECT_EQ(b.result.origins[k].tx_index, fixture.origins[k].tx_index);
            EXPECT_EQ(b.result.origins[k].input_index, fixture.origins[k].input_index);
        }
        EXPECT_EQ(b.result.verdicts, std::vector<uint8_t>{1});
        EXPECT_EQ(b.result.valid, fixture.valid);
        EXPECT_EQ(b.result.fee, fixture.fee);
        EXPECT_EQ(b.result.subsidy, fixture.subsidy);
        EXPECT_EQ(b.result.sigop_cost, fixture.sigop_cost);
        EXPECT_EQ(b.result.rounds, fixture.rounds);
        EXPECT_EQ(b.result.sighashes, fixture.sighashes);
        // What the fixture path cannot check and the chain does.
        const std::set<std::string> fixture_rules = Rules(fixture.not_checked);
        for (const char* rule : {"spent-outputs-unspent", "coinbase-maturity", "bip30", "time-too-old", "previous-block"}) {
            EXPECT_EQ(fixture_rules.count(rule), 1u) << rule;
            EXPECT_EQ(Rules(b.result.not_checked).count(rule), 0u) << rule;
        }
    }
}

TEST(ChainValidation, ABrokenLinkIsPrevBlkNotFoundAtItsHeightAndHash) {
    // Block 100 removed: block 101 (its proof of work intact) does not link to block 99.
    std::vector<std::vector<uint8_t>> blocks = Blocks(1, 120);
    blocks.erase(blocks.begin() + 99);
    const ChainFileResult run = RunChain(blocks);
    ASSERT_EQ(run.blocks.size(), 100u);
    const ChainBlockResult& b = run.blocks.back();
    EXPECT_EQ(b.height, 100);
    EXPECT_EQ(b.result.hash_hex, HashOf(Blocks(101, 101)[0]));
    EXPECT_FALSE(b.connected);
    EXPECT_TRUE(b.error.empty());
    EXPECT_TRUE(b.proof_of_work_checked);
    EXPECT_FALSE(b.link_checked);
    EXPECT_EQ(b.result.reject_reason, "prev-blk-not-found");
    EXPECT_EQ(b.result.stage, "AcceptBlockHeader");
    EXPECT_EQ(b.prev_hash_hex, HashOf(Blocks(100, 100)[0]));
    EXPECT_EQ(b.result.byte_offset, 4);
    EXPECT_EQ(b.result.tx_index, -1);
    EXPECT_EQ(b.result.error, "height 100: prev-blk-not-found: its previous block " + HashOf(Blocks(100, 100)[0]) +
                                  " is not the chain's tip " + HashOf(Blocks(99, 99)[0]) + " (height 99) (at block " +
                                  b.result.hash_hex + ", byte 4) (block at byte " + std::to_string(b.file_offset) +
                                  " of the file)");
    EXPECT_EQ(run.not_validated, 19u);
    for (size_t i = 0; i + 1 < run.blocks.size(); ++i) EXPECT_TRUE(run.blocks[i].connected) << i;
}

TEST(ChainValidation, ABadNonceIsHighHashAndTheNextBlockBadPrevblk) {
    const std::vector<std::vector<uint8_t>> real = Blocks(1, 51);
    std::vector<uint8_t> bad = real[49];
    bad[76] ^= 0x01;  // nNonce
    ChainValidation chain;
    for (size_t i = 0; i < 49; ++i) ASSERT_TRUE(chain.ConnectBlock(real[i].data(), real[i].size()).connected) << i;
    const ChainBlockResult b = chain.ConnectBlock(bad.data(), bad.size());
    EXPECT_FALSE(b.connected);
    EXPECT_EQ(b.height, 50);
    EXPECT_EQ(b.result.hash_hex, HashOf(bad));
    EXPECT_EQ(b.result.reject_reason, "high-hash");
    EXPECT_EQ(b.result.stage, "CheckBlockHeader");
    EXPECT_FALSE(b.proof_of_work_checked);
    EXPECT_EQ(b.result.error, "height 50: high-hash: proof of work failed: block hash " + HashOf(bad) +
                                  " is above the target of nBits 0x1d00ffff (at block " + HashOf(bad) + ", byte 0)");
    EXPECT_EQ(b.result.byte_offset, 0);  // the header, all of which the hash covers
    EXPECT_EQ(chain.TipHeight(), 49);
    const std::vector<uint8_t> next = Blocks(51, 51)[0];
    const ChainOptions skip = Mutated();
    // A block whose parent this walk rejected is Core's bad-prevblk (its parent is known and
    // invalid). With the proof of work skipped a bad nonce is accepted, so block 50's merkle root
    // is changed instead: rejected (bad-txnmrklroot), and block 51 relinked to it names it.
    std::vector<uint8_t> bad_root = real[49];
    bad_root[36] ^= 0x01;
    ChainValidation chain3(skip);
    for (size_t i = 0; i < 49; ++i) ASSERT_TRUE(chain3.ConnectBlock(real[i].data(), real[i].size()).connected) << i;
    const ChainBlockResult r = chain3.ConnectBlock(bad_root.data(), bad_root.size());
    EXPECT_EQ(r.result.reject_reason, "bad-txnmrklroot");
    EXPECT_EQ(r.result.stage, "CheckBlock");
    std::vector<uint8_t> orphan = next;
    const Hash32 root_hash = Sha256d(bad_root.data(), kBlockHeaderSize);
    std::memcpy(orphan.data() + 4, root_hash.data(), 32);
    const ChainBlockResult o = chain3.ConnectBlock(orphan.data(), orphan.size());
    EXPECT_EQ(o.height, 50);
    EXPECT_EQ(o.result.reject_reason, "bad-prevblk");
    EXPECT_EQ(o.result.stage, "AcceptBlockHeader");
    EXPECT_EQ(o.result.hash_hex, HashOf(orphan));
}

TEST(ChainValidation, ARemovedBlockLeavesAPrevoutMissing) {
    // Block 9, whose coinbase block 170 spends, removed; the blocks after it relinked (their
    // proof of work is then broken: skipped). Block 170 comes at height 169 and its prevout is
    // not in the view.
    std::vector<std::vector<uint8_t>> blocks = Blocks(1, 170);
    const std::string coinbase9 = HexEncodeReversed(ParseBlock(blocks[8].data(), blocks[8].size()).txs[0].txid);
    blocks.erase(blocks.begin() + 8);
    Relink(blocks, 8);
    const ChainFileResult run = RunChain(blocks, Mutated());
    ASSERT_EQ(run.blocks.size(), 169u);
    const ChainBlockResult& b = run.blocks.back();
    const Block block = ParseBlock(blocks.back().data(), blocks.back().size());
    EXPECT_EQ(b.height, 169);
    EXPECT_EQ(b.result.hash_hex, block.hash_hex);
    EXPECT_FALSE(b.connected);
    EXPECT_TRUE(b.link_checked);
    EXPECT_EQ(b.result.reject_reason, "bad-txns-inputs-missingorspent");
    EXPECT_EQ(b.result.stage, "CheckTxInputs");
    EXPECT_EQ(b.result.tx_index, 1);
    EXPECT_EQ(b.result.input_index, 0);
    EXPECT_EQ(b.result.byte_offset, static_cast<int64_t>(block.txs[1].vin[0].offset));
    EXPECT_EQ(b.result.error, "height 169: bad-txns-inputs-missingorspent: prevout " + coinbase9 +
                                  ":0 is not in the coins view: never created, or already spent (at block " +
                                  block.hash_hex + ", tx 1, input 0, byte " +
                                  std::to_string(block.txs[1].vin[0].offset) + ") (block at byte " +
                                  std::to_string(b.file_offset) + " of the file)");
    // No checks of a block Core stops at before its scripts; the spent list names the prevout.
    EXPECT_TRUE(b.result.checks.empty());
    ASSERT_EQ(b.spent.size(), 1u);
    EXPECT_EQ(HexEncodeReversed(b.spent[0].prevout.txid), coinbase9);
    EXPECT_EQ(b.spends_from_view, 0u);
}

/** Block `raw` with a copy of its tx 1, whose input's nSequence is changed so that its txid
 *  differs, appended (the copy spends the same prevout again); commitments fixed up. */
std::vector<uint8_t> WithSecondSpend(const std::vector<uint8_t>& raw, const Transaction& spender) {
    Block block = ParseBlock(raw.data(), raw.size());
    Transaction copy = spender;
    copy.vin[0].sequence = 0xfffffffe;  // nLockTime 0: still final
    block.txs.push_back(copy);
    return test::SerializeBlock(block);
}

TEST(ChainValidation, AnOutputSpentTwiceInOneBlockIsMissingorspentNamingTheFirstSpend) {
    std::vector<std::vector<uint8_t>> blocks = Blocks(1, 170);
    const Block b170 = ParseBlock(blocks.back().data(), blocks.back().size());
    blocks.back() = WithSecondSpend(blocks.back(), b170.txs[1]);
    const ChainFileResult run = RunChain(blocks, Mutated());
    ASSERT_EQ(run.blocks.size(), 170u);
    const ChainBlockResult& b = run.blocks.back();
    const Block mutated = ParseBlock(blocks.back().data(), blocks.back().size());
    EXPECT_EQ(b.height, 170);
    EXPECT_EQ(b.result.hash_hex, mutated.hash_hex);
    EXPECT_EQ(b.result.reject_reason, "bad-txns-inputs-missingorspent");
    EXPECT_EQ(b.result.stage, "CheckTxInputs");
    EXPECT_EQ(b.result.tx_index, 2);
    EXPECT_EQ(b.result.input_index, 0);
    EXPECT_EQ(b.result.byte_offset, static_cast<int64_t>(mutated.txs[2].vin[0].offset));
    EXPECT_NE(b.result.error.find("it was spent earlier in this block, by tx 1 input 0"), std::string::npos) << b.result.error;
    EXPECT_EQ(b.spends_from_view, 1u);
}

TEST(ChainValidation, AnOutputSpentAgainInALaterBlockIsMissingorspent) {
    // Block 171 carries a second spend of block 9's coinbase, which block 170 spent.
    std::vector<std::vector<uint8_t>> blocks = Blocks(1, 171);
    const Block b170 = ParseBlock(blocks[169].data(), blocks[169].size());
    blocks.back() = WithSecondSpend(blocks.back(), b170.txs[1]);
    const ChainFileResult run = RunChain(blocks, Mutated());
    ASSERT_EQ(run.blocks.size(), 171u);
    const ChainBlockResult& b = run.blocks.back();
    EXPECT_EQ(b.height, 171);
    EXPECT_EQ(b.result.hash_hex, HashOf(blocks.back()));
    EXPECT_EQ(b.result.reject_reason, "bad-txns-inputs-missingorspent");
    EXPECT_EQ(b.result.tx_index, 1);
    EXPECT_EQ(b.result.input_index, 0);
    EXPECT_EQ(b.result.error.find("spent earlier in this block"), std::string::npos);
    EXPECT_TRUE(run.blocks[169].connected);
}

TEST(ChainValidation, ACoinbaseSpentTooEarlyIsPrematureSpend) {
    // Blocks 10-109 removed and the rest relinked: block 170 comes at height 70 and spends
    // block 9's coinbase at depth 61, below COINBASE_MATURITY. Its script and signature are
    // real and untouched: only the depth is wrong.
    std::vector<std::vector<uint8_t>> blocks = Blocks(1, 170);
    blocks.erase(blocks.begin() + 9, blocks.begin() + 109);
    Relink(blocks, 9);
    const ChainFileResult run = RunChain(blocks, Mutated());
    ASSERT_EQ(run.blocks.size(), 70u);
    const ChainBlockResult& b = run.blocks.back();
    const Block block = ParseBlock(blocks.back().data(), blocks.back().size());
    EXPECT_EQ(b.height, 70);
    EXPECT_EQ(b.result.hash_hex, block.hash_hex);
    EXPECT_EQ(b.result.reject_reason, "bad-txns-premature-spend-of-coinbase");
    EXPECT_EQ(b.result.stage, "CheckTxInputs");
    EXPECT_EQ(b.result.tx_index, 1);
    EXPECT_EQ(b.result.input_index, 0);
    EXPECT_EQ(b.result.byte_offset, static_cast<int64_t>(block.txs[1].vin[0].offset));
    EXPECT_NE(b.result.error.find("height 70: bad-txns-premature-spend-of-coinbase: tried to spend coinbase at depth 61: "
                                  "prevout " + HexEncodeReversed(block.txs[1].vin[0].prevout.txid) +
                                  ":0 is the coinbase output of height 9, spent at height 70"),
              std::string::npos)
        << b.result.error;
    EXPECT_EQ(b.spends_from_view, 1u);  // found: unspent, but not yet mature
    // At depth 100 it is mature: blocks 10-69 removed instead (170 at height 110, depth 101).
    std::vector<std::vector<uint8_t>> ok = Blocks(1, 170);
    ok.erase(ok.begin() + 9, ok.begin() + 69);
    Relink(ok, 9);
    const ChainFileResult mature = RunChain(ok, Mutated());
    ASSERT_EQ(mature.blocks.size(), 110u);
    EXPECT_TRUE(mature.blocks.back().connected) << mature.blocks.back().result.error;
    EXPECT_TRUE(mature.blocks.back().result.valid);
}

TEST(ChainValidation, ARepeatedCoinbaseIsBip30) {
    // Block 2 whose coinbase is block 1's (same txid, its output unspent): BIP30, before any
    // transaction is connected.
    std::vector<std::vector<uint8_t>> blocks = Blocks(1, 2);
    Block b2 = ParseBlock(blocks[1].data(), blocks[1].size());
    const Block b1 = ParseBlock(blocks[0].data(), blocks[0].size());
    b2.txs[0] = b1.txs[0];
    blocks[1] = test::SerializeBlock(b2);
    const ChainFileResult run = RunChain(blocks, Mutated());
    ASSERT_EQ(run.blocks.size(), 2u);
    const ChainBlockResult& b = run.blocks.back();
    const Block mutated = ParseBlock(blocks[1].data(), blocks[1].size());
    EXPECT_EQ(b.height, 2);
    EXPECT_EQ(b.result.reject_reason, "bad-txns-BIP30");
    EXPECT_EQ(b.result.stage, "ConnectBlock");
    EXPECT_EQ(b.result.tx_index, 0);
    EXPECT_EQ(b.result.output_index, 0);
    EXPECT_EQ(b.result.byte_offset, static_cast<int64_t>(mutated.txs[0].vout[0].offset));
    EXPECT_NE(b.result.error.find("tried to overwrite transaction: output " + HexEncodeReversed(b1.txs[0].txid) +
                                  ":0 is already an unspent coin (of height 1)"),
              std::string::npos)
        << b.result.error;
}

TEST(ChainValidation, TheRulesBeforeConnectBlockComeBeforeTheCoins) {
    // A missing prevout (block 9 removed) and a broken merkle root together: Core's CheckBlock
    // runs before ConnectBlock, so the verdict is bad-txnmrklroot.
    std::vector<std::vector<uint8_t>> blocks = Blocks(1, 170);
    blocks.erase(blocks.begin() + 8);
    blocks.back()[36] ^= 0x01;
    Relink(blocks, 8);
    const ChainFileResult run = RunChain(blocks, Mutated());
    const ChainBlockResult& b = run.blocks.back();
    EXPECT_EQ(b.height, 169);
    EXPECT_EQ(b.result.reject_reason, "bad-txnmrklroot");
    EXPECT_EQ(b.result.stage, "CheckBlock");
    EXPECT_EQ(b.result.error.rfind("height 169: bad-txnmrklroot", 0), 0u) << b.result.error;
    // A rejected block still says what it did not check (BlockRejected): here, with the chain's
    // context, only what no chain decides, and the proof of work skipped for the mutation.
    EXPECT_EQ(Rules(b.result.not_checked),
              (std::set<std::string>{"time-too-new", "expected-difficulty", "proof-of-work"}));
    EXPECT_EQ(b.result.tx_count, 2u);
}

TEST(ChainValidation, ATruncatedBlockAndATruncatedFileAreErrorsNamingWhere) {
    // A block cut short: not a verdict but an error naming the height, the tx and the byte.
    std::vector<std::vector<uint8_t>> blocks = Blocks(1, 3);
    blocks[2].resize(blocks[2].size() - 10);
    const ChainFileResult run = RunChain(blocks);
    ASSERT_EQ(run.blocks.size(), 3u);
    const ChainBlockResult& b = run.blocks.back();
    EXPECT_FALSE(b.connected);
    EXPECT_EQ(b.result.reject_reason, "");
    EXPECT_EQ(b.error.rfind("height 3: ", 0), 0u) << b.error;
    EXPECT_NE(b.error.find("block " + HashOf(blocks[2]) + ", tx 0"), std::string::npos) << b.error;
    EXPECT_NE(b.error.find("byte "), std::string::npos) << b.error;
    EXPECT_NE(b.error.find("of the file)"), std::string::npos) << b.error;

    // The file itself cut inside frame 3: frames 0-2 validated, the bad frame named.
    std::vector<uint8_t> file = Frame(Blocks(1, 4));
    file.resize(file.size() - 5);
    ChainValidation chain;
    const ChainFileResult cut = ConnectBlockFile(chain, file.data(), file.size());
    EXPECT_EQ(cut.frames, 3u);
    ASSERT_EQ(cut.blocks.size(), 3u);
    for (const ChainBlockResult& r : cut.blocks) EXPECT_TRUE(r.connected);
    ASSERT_TRUE(cut.file_error.has_value());
    const size_t frame3 = file.size() + 5 - Blocks(4, 4)[0].size() - 8;
    EXPECT_EQ(cut.file_error->where().byte_offset, static_cast<int64_t>(frame3));
    EXPECT_EQ(cut.file_error->reason(), "block file frame 3 at byte " + std::to_string(frame3) + ": size " +
                                            std::to_string(Blocks(4, 4)[0].size()) +
                                            " runs past the end of the file (" +
                                            std::to_string(Blocks(4, 4)[0].size() - 5) + " bytes left)");
}

TEST(ChainValidation, AScriptFailureOfAViewSpendIsTheBlocksVerdict) {
    // Block 170 with its signature's last byte changed (the DER length stays right): the coins
    // view finds the prevout, the script fails; Core's verdict is the script's.
    std::vector<std::vector<uint8_t>> blocks = Blocks(1, 170);
    Block b = ParseBlock(blocks.back().data(), blocks.back().size());
    std::vector<uint8_t>& sig = b.txs[1].vin[0].script_sig;
    ASSERT_GT(sig.size(), 10u);
    sig[10] ^= 0x01;  // inside r
    blocks.back() = test::SerializeBlock(b);
    const ChainFileResult run = RunChain(blocks, Mutated());
    const ChainBlockResult& r = run.blocks.back();
    EXPECT_EQ(r.height, 170);
    EXPECT_FALSE(r.connected);
    EXPECT_EQ(r.result.reject_reason, "mandatory-script-verify-flag-failed");
    EXPECT_EQ(r.result.stage, "ConnectBlock");
    EXPECT_EQ(r.result.tx_index, 1);
    EXPECT_EQ(r.result.input_index, 0);
    EXPECT_EQ(r.spends_from_view, 1u);
    EXPECT_EQ(r.result.origins.size(), 1u);
    EXPECT_EQ(r.result.verdicts, std::vector<uint8_t>{0});
    EXPECT_EQ(r.result.error.rfind("height 170: SCRIPT_ERR_", 0), 0u) << r.result.error;
}

TEST(ChainValidation, TheCoinsViewIsBounded) {
    // A budget of 20 coins' worth: the chain stops with an error naming the bound, not a crash.
    ChainOptions small;
    small.max_coins_bytes = 20 * (kCoinOverheadBytes + 67);
    ChainValidation chain(small);
    const ChainFileResult run = ConnectBlockFile(chain, Chain().file.data(), Chain().file.size());
    ASSERT_FALSE(run.blocks.empty());
    const ChainBlockResult& b = run.blocks.back();
    EXPECT_FALSE(b.connected);
    EXPECT_EQ(b.height, 21);
    EXPECT_NE(b.error.find("coins view full"), std::string::npos) << b.error;
    EXPECT_NE(b.error.find("past its bound of " + std::to_string(small.max_coins_bytes)), std::string::npos) << b.error;
    EXPECT_EQ(chain.TipHeight(), 20);
    EXPECT_LE(chain.Coins().DynamicMemoryUsage(), small.max_coins_bytes);
}

}  // namespace
}  // namespace ibd
