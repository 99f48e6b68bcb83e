// Blocks validated as a chain from mainnet's genesis, one after the other, the way Bitcoin Core
// connects them (AcceptBlockHeader, then ConnectBlock on a coins view): ChainValidation and
// ConnectBlockFile (chain_validation.cpp). The first step toward an IBD: one chain, no forks, no
// reorganisation, no disk; the coins view is bounded (coins_view.h).
//
// Per block, in Core's order:
//   1. the header: its proof of work (CheckProofOfWork, block_rules.h; "high-hash", stage
//      CheckBlockHeader) and its link: hashPrevBlock is the tip's hash ("prev-blk-not-found";
//      "bad-prevblk" when it names a block this walk rejected; stage AcceptBlockHeader);
//   2. the block parsed once (ParseBlock) and its prevouts looked up in a coins view over the
//      chain's (CoinsViewCache with a base, as ConnectBlock's): BIP30 before any transaction
//      (CheckBip30, when EnforceBip30), then per transaction its prevouts present and unspent and
//      coinbase maturity (CheckTxInputCoins, tx_verify.h), its inputs spent and its outputs added
//      (AddCoins), so a later transaction of the block may spend them;
//   3. the existing BlockValidation (block_validation.h) with the spent outputs the view gave,
//      the median time past of the 11 blocks before it (time-too-old, BIP113) and
//      ChainContext::coins_checked / previous_block_checked: every rule of CheckBlock, the
//      contextual checks, CheckTxInputs' amounts, ConnectBlock's sums and every input's script,
//      each round's signature checks verified on this thread (VerifyBatch, as ValidateBlock);
//   4. the verdict: the first failure in Core's order (a rule before ConnectBlock; BIP30; per
//      transaction the coin checks, then its amounts and sigops; bad-cb-amount; scripts); if the
//      block is valid, the block's view is written into the chain's (Flush) and it becomes the tip.
//
// Nothing here re-implements a rule of BlockValidation: the chain adds the header link, the
// coins view and the rules that need it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "crypto/sha256.h"
#include "util/error.h"
#include "validation/block_validation.h"
#include "validation/coins_view.h"
#include "validation/spent_outputs.h"

namespace ibd {

/** Mainnet's genesis block (Core's CreateGenesisBlock in kernel/chainparams.cpp): its hash
 *  (display hex) and nTime. Its coinbase is never in the coins view (Core does not connect the
 *  genesis block: that output cannot be spent). */
inline constexpr const char* kMainnetGenesisHashHex = "000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f";
inline constexpr int64_t kMainnetGenesisTime = 1231006505;

/** How ChainValidation runs. */
struct ChainOptions {
    /** ChainContext::skip_proof_of_work for every block, and no high-hash check of the header:
     *  only for chains mutated from real ones (tests), whose proof of work the mutation broke.
     *  The blocks' not_checked then lists "proof-of-work". */
    bool skip_proof_of_work = false;
    /** Budget of the chain's coins view and of each block's view (CoinsViewCache max_bytes). */
    size_t max_coins_bytes = kDefaultCoinsViewMaxBytes;
};

/** What ChainValidation::ConnectBlock found for one block. */
struct ChainBlockResult {
    /** The height the block was given: the tip's height + 1 when it was offered. */
    int32_t height = -1;
    /** Its header's hashPrevBlock, display hex ("" when the bytes hold no header). */
    std::string prev_hash_hex;
    /** Valid, and now the tip: its outputs are in the coins view, its spent prevouts gone. */
    bool connected = false;
    /** Why the block could not be judged at all, "height H: <what() of the Error>": its bytes do
     *  not parse (naming tx, input and byte offset within the block) or the coins view is full.
     *  Empty when it was judged; then `result` holds the verdict. */
    std::string error;
    /** The verdict and everything BlockValidation reports (block_validation.h), its `error`
     *  prefixed with "height H: ". A block rejected at its header has only hash_hex and the
     *  verdict's fields; one rejected by a rule before ConnectBlock also tx_count, inputs and
     *  not_checked (BlockRejected, block_check.h); one the coins view rejects has not_checked,
     *  but no checks, coverage, input failures or fee (Core stops at that transaction; the
     *  scripts were evaluated against placeholder outputs for the missing prevouts, so their
     *  checks are dropped). */
    BlockValidationResult result;
    /** The spent outputs the coins view gave, one per non-coinbase input in block order, as
     *  spent_outputs.json's entries are parsed (the prevout, its value and scriptPubKey); a
     *  missing prevout has value 0 and an empty script. Empty when the view was not reached. */
    std::vector<SpentOutputEntry> spent;
    /** Prevouts found unspent in the chain's view (outputs of earlier blocks) / created by an
     *  earlier transaction of this block. */
    uint32_t spends_from_view = 0;
    uint32_t spends_in_block = 0;
    /** When connected: coins the block left in the view (its spendable outputs not spent inside
     *  it) and coins it removed (spends_from_view); the view's coins afterwards. */
    uint32_t coins_added = 0;
    uint32_t coins_spent = 0;
    size_t coins_in_view = 0;
    /** Median time past of the 11 blocks before it (Core's GetMedianTimePast of the tip),
     *  seconds; given to BlockValidation. */
    int64_t median_time_past = 0;
    /** Whether its header's proof of work / its link to the tip were checked and held. */
    bool proof_of_work_checked = false;
    bool link_checked = false;
    /** ConnectBlockFile only: byte offset of the block in the file; -1 otherwise. */
    int64_t file_offset = -1;
};

/** A chain from mainnet's genesis (see the top of this file). Not thread-safe. */
class ChainValidation {
public:
    /** An empty chain whose tip is mainnet's genesis (height 0; the coins view empty; the median
     *  time past window holds genesis's time). */
    explicit ChainValidation(const ChainOptions& options = {});

    /** Validates the block `block_raw[0..block_len)` (network serialization) as the child of the
     *  tip, at the tip's height + 1, and connects it when valid (steps 1-4 above). The bytes need
     *  not outlive the call. Never throws for what the block holds: every failure is in the
     *  result, a consensus one as result.valid false with Core's reject reason, stage
     *  ("CheckBlockHeader", "AcceptBlockHeader", "CheckBlock", "ContextualCheckBlockHeader",
     *  "ContextualCheckBlock", "CheckTxInputs" or "ConnectBlock"), tx / input / output index and
     *  byte offset in the block (-1 where none; the link's is 4, hashPrevBlock's offset), with
     *  result.error = "height H: <reason>: <detail> (at block <hash>, tx T, input I, byte B)";
     *  anything else (unparseable bytes, the coins view full) as `error`. A rejected block's hash
     *  is remembered: a later block whose parent it is gets "bad-prevblk". Only std::bad_alloc
     *  passes through. */
    ChainBlockResult ConnectBlock(const uint8_t* block_raw, size_t block_len);

    /** The tip: the last block connected (genesis, height 0, before any), its hash in internal
     *  byte order (HexEncodeReversed gives the display hex). */
    int32_t TipHeight() const { return tip_height_; }
    const Hash32& TipHash() const { return tip_hash_; }
    /** Core's GetMedianTimePast of the tip: the median of the times of the tip and the 10 blocks
     *  before it (fewer near genesis), seconds. */
    int64_t TipMedianTimePast() const;
    /** The chain's coins view: every unspent output of the connected blocks. */
    const CoinsViewCache& Coins() const { return coins_; }

private:
    ChainOptions options_;
    CoinsViewCache coins_;
    Hash32 tip_hash_{};
    int32_t tip_height_ = 0;
    std::deque<int64_t> recent_times_;  // nTime of the tip and up to 10 blocks before it
    std::set<Hash32> rejected_;          // hashes of the blocks this walk rejected (32 bytes + a node each)
    bool bip34_block_matches_ = false;   // block 227,931 of this chain is kBip34HashHex
};

/** What ConnectBlockFile did with a block file (primitives/block_file.h). */
struct ChainFileResult {
    /** Frames found before the end of the file or its first bad frame. */
    size_t frames = 0;
    /** One result per block offered, in file order; the last one is the first block that did not
     *  connect, if any (the blocks after it cannot: their chain is invalid). */
    std::vector<ChainBlockResult> blocks;
    /** Frames not offered because an earlier block did not connect. */
    size_t not_validated = 0;
    /** The file's first bad frame (ReadBlockFile), when there is one: its reason names the frame
     *  and its byte offset in the file. */
    std::optional<Error> file_error;
};

/** Offers the blocks of the block file `data[0..len)` (Core's blk?????.dat layout,
 *  primitives/block_file.h) to `chain` in file order, until one does not connect, and sets each
 *  result's file_offset; a failed block's messages (error, result.error) end with " (block at
 *  byte X of the file)". The blocks before a bad frame are validated; the bad frame is
 *  `file_error`. Never throws but std::bad_alloc. */
ChainFileResult ConnectBlockFile(ChainValidation& chain, const uint8_t* data, size_t len);

}  // namespace ibd
