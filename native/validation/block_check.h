// Used by BlockValidation (block_validation.cpp): the block-level checks that come before any
// script.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "primitives/block.h"
#include "validation/spent_outputs.h"

namespace ibd {

/** Compares `expected_hash_hex` (if non-empty) with the header's hash, parses the block,
 *  runs CheckBlock and the BIP34 coinbase-height check (from kBip34Height), and aligns `spent`
 *  with the non-coinbase inputs (outpoints must match; one entry per input). Fills
 *  `spent_by_tx[t]` with pointers into `spent` (entry t = 0, the coinbase, stays empty).
 *  Throws Error as the BlockValidation constructor documents (block_validation.h). */
Block ParseAndCheckBlock(const uint8_t* block_raw, size_t block_len, const std::vector<SpentOutputEntry>& spent,
                         const std::string& expected_hash_hex, int32_t height,
                         std::vector<std::vector<const SpentOutput*>>& spent_by_tx);

}  // namespace ibd
