// Used by BlockValidation (block_validation.cpp): the block-level checks that come before any
// script.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "primitives/block.h"
#include "validation/block_rules.h"
#include "validation/spent_outputs.h"

namespace ibd {

/** A block that breaks a consensus rule checked before any input is connected: the Error
 *  (reject reason, stage, location) with the rules this engine could not check for the block
 *  (RulesNotChecked), so that a rejected block's verdict says what was left out, as a valid
 *  one's does. */
class BlockRejected : public Error {
public:
    BlockRejected(const Error& failure, std::vector<NotChecked> not_checked);
    const std::vector<NotChecked>& not_checked() const { return not_checked_; }

private:
    std::vector<NotChecked> not_checked_;
};

/** Compares `expected_hash_hex` (if non-empty) with the header's hash, parses the block, runs
 *  the rules that come before any input is connected, and aligns `spent` with the
 *  non-coinbase inputs (outpoints must match; one entry per input). Fills `spent_by_tx[t]`
 *  with pointers into `spent` (entry t = 0, the coinbase, stays empty).
 *
 *  The rules, in the order of Core's ProcessNewBlock (CheckBlock, then AcceptBlock's
 *  ContextualCheckBlockHeader and ContextualCheckBlock), each thrown as a BlockRejected with
 *  Core's reject reason and stage (Error::reject_reason(), Error::stage()):
 *    CheckBlockHeader's proof of work (CheckProofOfWork, "high-hash"; skipped when
 *      context.skip_proof_of_work);
 *    CheckBlock (primitives/block.h: merkle root and mutation, sizes, coinbase shape,
 *      CheckTransaction), then its legacy sigop limit (CheckLegacySigOps);
 *    ContextualCheckBlockHeader's version and time-too-old (CheckContextualHeader);
 *    ContextualCheckBlock's finality, BIP34 coinbase height, witness commitment and weight
 *      (CheckContextualBlock).
 *  A node syncing headers first rejects a bad-version or time-too-old header before it asks
 *  for the block; for a whole block (submitblock, a block announced in full) Core's order is
 *  this one. With `run_rules` false (a range of a block whose rules another BlockValidation
 *  runs: BlockScope) the rules are skipped. Other errors (parse, hash, spent outputs) are plain
 *  Errors, with no stage. Throws
 *  as the BlockValidation constructor documents (block_validation.h). */
Block ParseAndCheckBlock(const uint8_t* block_raw, size_t block_len, const std::vector<SpentOutputEntry>& spent,
                         const std::string& expected_hash_hex, int32_t height, const ChainContext& context,
                         std::vector<std::vector<const SpentOutput*>>& spent_by_tx, bool run_rules = true);

/** ParseAndCheckBlock's work after the parse, for a block the caller parsed already (ParseBlock,
 *  primitives/block.h; ChainValidation, which needs the transactions before it has the spent
 *  outputs): the height check, the rules in the order above (unless `run_rules` is false) and
 *  the alignment of `spent`, with the same errors. */
void CheckParsedBlock(const Block& block, const std::vector<SpentOutputEntry>& spent, int32_t height,
                      const ChainContext& context, std::vector<std::vector<const SpentOutput*>>& spent_by_tx,
                      bool run_rules = true);

/** Compares `expected_hash_hex` (if non-empty) with the hash of the header at `block_raw` (when
 *  it holds 80 bytes), first of all, so that a wrong file pair is named as such. Throws Error
 *  for a hash that is not 64 hex digits or does not match (the location names the header's
 *  hash). */
void CheckExpectedHash(const uint8_t* block_raw, size_t block_len, const std::string& expected_hash_hex);

/** Non-coinbase inputs of the transactions [1, tx) of `block` (clamped): the block-order index
 *  of tx `tx`'s first input, and of its spent output entry. */
size_t InputsBefore(const Block& block, size_t tx);

/** Aligns the spent outputs of the inputs of transactions [tx_begin, tx_end) (clamped, the
 *  coinbase left out) with them: `entries[0 .. available)` are the list's entries from index
 *  `first` (the block-order index of tx_begin's first input, InputsBefore), of `total` entries
 *  in the whole list. Fills `spent_by_tx[t]` for those transactions with pointers into
 *  `entries` (the others stay empty). Throws Error naming block hash, tx, input and byte offset
 *  when an entry's outpoint is not the input's prevout ("spent output entry E is for outpoint
 *  ... but the input spends ...") and when `total` is not the block's input count: "spent
 *  outputs list too short" at the first input without an entry, in or out of the range, or
 *  "spent outputs list too long". Over the whole block (CheckParsedBlock) the errors are
 *  those of a walk through every input in block order; over a range, the outpoints outside it
 *  are not compared (the range that runs the block rules compares them all). */
void AlignSpentOutputs(const Block& block, const SpentOutputEntry* entries, size_t available, size_t first,
                       size_t total, size_t tx_begin, size_t tx_end,
                       std::vector<std::vector<const SpentOutput*>>& spent_by_tx);

}  // namespace ibd
