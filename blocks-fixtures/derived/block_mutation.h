// Shared by the native suites and the block fuzzer (fuzz/block_parser_fuzz.cpp compiles this
// file too, so it uses the engine's headers only): re-serializing a parsed block after a test
// changed it, and making its commitments match its transactions again.
#pragma once

#include <cstdint>
#include <vector>

#include "primitives/block.h"
#include "primitives/transaction.h"

namespace ibd::test {

/** Core's network serialization of `tx` (transaction.h layout), in BIP144 form when some
 *  input has a witness and `with_witness` (false: the txid preimage). */
std::vector<uint8_t> SerializeTransaction(const Transaction& tx, bool with_witness = true);

/** `block`'s header fields, transaction count and SerializeTransaction of each, then
 *  FixUpCommitments: the bytes of a block whose transactions a test changed. The header's
 *  merkle root field is rewritten; every other field is kept. */
std::vector<uint8_t> SerializeBlock(const Block& block);

/** Rewrites the witness commitment and then the header's merkle root of `block` so that they
 *  match its transactions (when it parses; leaves it as it is otherwise). The commitment is
 *  rewritten when the coinbase has one and a 32-byte witness nonce. */
void FixUpCommitments(std::vector<uint8_t>& block);

}  // namespace ibd::test
