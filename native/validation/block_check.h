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

/** Compares `expected_hash_hex` (if non-empty) with the header's hash, parses the block, runs
 *  the rules that come before any input is connected, and aligns `spent` with the
 *  non-coinbase inputs (outpoints must match; one entry per input). Fills `spent_by_tx[t]`
 *  with pointers into `spent` (entry t = 0, the coinbase, stays empty).
 *
 *  The rules, in this order, each thrown as an Error with Core's reject reason and stage
 *  (Error::reject_reason(), Error::stage()):
 *    CheckBlockHeader's proof of work (CheckProofOfWork, "high-hash"; skipped when
 *      context.skip_proof_of_work);
 *    CheckBlock (primitives/block.h: sizes, merkle root and mutation, coinbase shape,
 *      CheckTransaction, with the weight and witness commitment rules under stage
 *      ContextualCheckBlock as in Core), then its legacy sigop limit (CheckLegacySigOps);
 *    ContextualCheckBlock's BIP34 coinbase height (from kBip34Height, "bad-cb-height"), which
 *      cross-checks the height given;
 *    ContextualCheckBlockHeader's version and time-too-old (CheckContextualHeader);
 *    ContextualCheckBlock's finality and witness rules (CheckContextualBlock).
 *  Core checks the header before the block; here BIP34 comes first so that a wrong height is
 *  reported as one. Other errors (parse, hash, spent outputs) have no stage. Throws as the
 *  BlockValidation constructor documents (block_validation.h). */
Block ParseAndCheckBlock(const uint8_t* block_raw, size_t block_len, const std::vector<SpentOutputEntry>& spent,
                         const std::string& expected_hash_hex, int32_t height, const ChainContext& context,
                         std::vector<std::vector<const SpentOutput*>>& spent_by_tx);

}  // namespace ibd
