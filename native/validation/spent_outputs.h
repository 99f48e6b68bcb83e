// The outputs a block spends, one per non-coinbase input in block order: as the fixtures give
// them (spent_outputs.json, ParseSpentOutputsJson) and in the binary form the JS side passes
// to the engine (ParseSpentOutputsBinary).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "primitives/transaction.h"

namespace ibd {

/** Parses a fixture `spent_outputs.json` (format in ../shared/blocks-fixtures/README.md:
 *  object with `spent_outputs`, an array of {txid, vout, value, script_pubkey}) into the list
 *  of spent outputs, one per non-coinbase input in block order. `txid`/`vout` are kept (as the
 *  prevout) for the outpoint cross-check of BlockValidation.
 *  Throws Error whose reason names the entry and field ("spent_outputs[2].vout: negative") on
 *  malformed JSON, a missing or mistyped field, a value that is not a 64-bit integer, or a
 *  non-hex script. A value out of money range (negative, above 21e6 BTC) is kept: it is
 *  Consensus::CheckTxInputs' bad-txns-inputvalues-outofrange, a verdict on the block. The location's input_index stays -1: an entry index is not an input index (entry k
 *  is the k-th non-coinbase input of the block, counted across transactions). JSON syntax
 *  errors carry the byte offset. Allocation failure is let through as std::bad_alloc. */
struct SpentOutputEntry {
    SpentOutput out;
    OutPoint prevout;  // the outpoint it was at, for the cross-check with the input's prevout
};
std::vector<SpentOutputEntry> ParseSpentOutputsJson(std::string_view json);

/** The binary form's first 4 bytes. */
inline constexpr uint8_t kSpentOutputsMagic[4] = {'I', 'B', 'S', '1'};

/** The binary form of a spent outputs list, what the JS side hands the engine (no JSON in the
 *  validation path):
 *    magic "IBS1" (4 bytes) | entry count (uint32 LE) | entries
 *    entry: prevout txid (32 bytes, internal byte order) | prevout n (uint32 LE) |
 *           value (int64 LE, satoshis) | scriptPubKey length (CompactSize) | scriptPubKey
 *  one entry per non-coinbase input in block order, as in the JSON form. */
std::vector<uint8_t> SerializeSpentOutputs(const std::vector<SpentOutputEntry>& entries);

/** Parses the binary form (SerializeSpentOutputs). Throws Error with the byte offset (and the
 *  entry index in the reason: "spent outputs (binary): spent output 3: truncated ...", the byte offset into the spent outputs) for a wrong magic, a count
 *  larger than the bytes can hold, a truncated entry, a non-canonical or oversized script
 *  length, or trailing bytes. Any int64 value is kept (range is a verdict, as for the JSON
 *  form). */
std::vector<SpentOutputEntry> ParseSpentOutputsBinary(const uint8_t* data, size_t len);

/** ParseSpentOutputsBinary for the entries a range of the block needs (BlockScope,
 *  block_validation.h): the whole form is read with every check above, so a malformed list
 *  gives the same Error, but only entries [first, first + count) (clamped to the entry count)
 *  are kept, entry `first` at index 0; the others are passed over without a copy. `total`, when
 *  given, receives the entry count. */
std::vector<SpentOutputEntry> ParseSpentOutputsBinary(const uint8_t* data, size_t len, size_t first, size_t count,
                                                      size_t* total);

/** The spent outputs of the block `block_raw` from its rev record (`record`: message start,
 *  size, CBlockUndo, checksum; undo/block_undo.h), as a Bitcoin Core node keeps them in
 *  blocks/rev?????.dat, in the binary form above: one entry per non-coinbase input in block
 *  order, its prevout from the block's input and its output from the input's Coin. Every
 *  check that ties the record to the block is made, each an Error located at the block's hash:
 *    - the record's frame (SplitUndoRecord) and its CBlockUndo (ParseBlockUndo), byte offsets
 *      in the record: "rev record: ...", "undo data: tx T input I: ...";
 *    - its checksum, SHA256d(the block's hashPrevBlock || CBlockUndo) (Core's ReadBlockUndo):
 *      "rev record checksum mismatch: ...", never a silent skip;
 *    - one CTxUndo per non-coinbase transaction and one Coin per input: "rev record: N
 *      transactions' coins for the block's M non-coinbase transactions", "rev record: tx T has
 *      N coins for its M inputs".
 *  The block is only skimmed (ParseBlock with no transaction in full), and its parse errors
 *  are thrown as ParseBlock's. */
std::vector<uint8_t> SpentOutputsFromUndoRecord(const uint8_t* block_raw, size_t block_len, const uint8_t* record,
                                                size_t record_len);

/** The first 4 bytes of a /rest/spenttxouts/<hash>.bin body given to the engine as spent
 *  outputs: "IBT1", then the body as Core 30's REST interface serves it (rest.cpp
 *  SerializeBlockUndo):
 *    CompactSize(transactions) | CompactSize(0) for the coinbase |
 *    per other transaction: CompactSize(m) | CTxOut * m (int64 LE value, CompactSize script
 *    length, script), one per input in input order. */
inline constexpr uint8_t kSpentTxOutsMagic[4] = {'I', 'B', 'T', '1'};

/** The spent outputs of the block `block_raw` from a tagged /rest/spenttxouts body (`data`:
 *  kSpentTxOutsMagic then the body), in the binary form above, prevouts from the block's
 *  inputs. Errors, located at the block's hash: the body's own (truncated, a non-canonical
 *  count, trailing bytes: "spenttxouts: ...", byte offsets in the tagged buffer), and a body
 *  that does not fit the block ("spenttxouts: N transactions for the block's M", "spenttxouts:
 *  the coinbase's list holds N outputs", "spenttxouts: tx T has N outputs for its M inputs"). */
std::vector<uint8_t> SpentOutputsFromSpentTxOuts(const uint8_t* block_raw, size_t block_len, const uint8_t* data,
                                                 size_t len);

}  // namespace ibd
