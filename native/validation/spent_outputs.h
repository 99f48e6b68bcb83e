// The outputs a block spends, as the fixtures give them (spent_outputs.json), one per
// non-coinbase input in block order: ParseSpentOutputsJson (spent_outputs.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "primitives/transaction.h"

namespace ibd {

/** Parses a fixture `spent_outputs.json` (format in ../shared/blocks-fixtures/README.md:
 *  object with `spent_outputs`, an array of {txid, vout, value, script_pubkey}) into the list
 *  of spent outputs, one per non-coinbase input in block order. `txid`/`vout` are kept for the
 *  outpoint cross-check of BlockValidation.
 *  Throws Error whose reason names the entry and field ("spent_outputs[2].vout: negative") on
 *  malformed JSON, a missing or mistyped field, a value that is not a 64-bit integer, or a
 *  non-hex script. A value out of money range (negative, above 21e6 BTC) is kept: it is
 *  Consensus::CheckTxInputs' bad-txns-inputvalues-outofrange, a verdict on the block. The location's input_index stays -1: an entry index is not an input index (entry k
 *  is the k-th non-coinbase input of the block, counted across transactions). JSON syntax
 *  errors carry the byte offset. Allocation failure is let through as std::bad_alloc. */
struct SpentOutputEntry {
    SpentOutput out;
    std::string txid_hex;  // display hex of the spent outpoint's txid
    uint32_t vout = 0;
};
std::vector<SpentOutputEntry> ParseSpentOutputsJson(std::string_view json);

}  // namespace ibd
