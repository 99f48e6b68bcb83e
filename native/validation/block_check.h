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

}  // namespace ibd
