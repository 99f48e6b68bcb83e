// The engine's top level: one block and the outputs it spends in, signature checks out.
//
// Data flow (../shared/DESIGN.md): block.raw + spent outputs -> parse -> sighash + signature
// extraction -> packed check buffer (check_buffer.h) -> batch verify (batch_verify.h).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "check_buffer.h"

namespace ibd {

/** A spent output (CTxOut): amount in satoshis and scriptPubKey. */
struct SpentOutput {
    int64_t value = 0;
    std::vector<uint8_t> script_pubkey;
};

/** Parses a fixture `spent_outputs.json` (format in ../shared/blocks-fixtures/README.md:
 *  object with `spent_outputs`, an array of {txid, vout, value, script_pubkey}) into the list
 *  of spent outputs, one per non-coinbase input in block order. `txid`/`vout` are kept for the
 *  outpoint cross-check in ExtractBlockChecks.
 *  Throws Error whose reason names the entry and field ("spent_outputs[2].value: negative") on
 *  malformed JSON, a missing or mistyped field, a negative or over-21e6-BTC value, or non-hex
 *  script. The location's input_index stays -1: an entry index is not an input index (entry k
 *  is the k-th non-coinbase input of the block, counted across transactions). JSON syntax
 *  errors carry the byte offset. Allocation failure is let through as std::bad_alloc. */
struct SpentOutputEntry {
    SpentOutput out;
    std::string txid_hex;  // display hex of the spent outpoint's txid
    uint32_t vout = 0;
};
std::vector<SpentOutputEntry> ParseSpentOutputsJson(std::string_view json);

/** Which transaction input a check came from. */
struct CheckOrigin {
    uint32_t tx_index;     // 0 is the coinbase, which has no checks
    uint32_t input_index;  // within the transaction
};

/** Everything the engine derives from one block. */
struct BlockChecks {
    std::string hash_hex;   // block hash, display hex (double-SHA256 of the 80-byte header, reversed)
    uint32_t tx_count = 0;
    uint32_t inputs = 0;    // non-coinbase inputs (== number of spent outputs)
    std::vector<uint8_t> checks;      // packed records, layout in check_buffer.h
    std::vector<CheckOrigin> origins; // one per record, same order
    uint32_t ecdsa_checks = 0;
    uint32_t schnorr_checks = 0;
    /** Inputs whose signature checks were extracted, by script type name
     *  ("p2pk", "p2pkh", "p2wpkh", "p2sh-p2wpkh", "p2tr-keypath"). */
    std::map<std::string, uint32_t> inputs_by_type;
    /** Inputs not yet supported by the engine, by script type name
     *  ("p2sh", "p2wsh", "p2sh-p2wsh", "multisig", "p2tr-scriptpath", "nonstandard", ...). */
    std::map<std::string, uint32_t> unsupported_by_type;
};

/** Parses `block_raw` (network serialization, BIP144 for segwit transactions), recomputes the
 *  block hash and merkle root and compares them with `expected_hash_hex` (if non-empty) and the
 *  header, checks that `spent` has one entry per non-coinbase input whose outpoint matches the
 *  input's prevout, then computes the sighash of every supported input (legacy: Core's
 *  SignatureHash with SigVersion::BASE; BIP143; BIP341 "Common signature message", key path) and
 *  appends one check record per signature to `checks`.
 *
 *  `height` is the block's mainnet height (required, >= 0). It selects the height-activated
 *  rules: from 227,931 (BIP34) the coinbase scriptSig must start with SerializeScriptHeight(
 *  height) (Core's ContextualCheckBlock, "bad-cb-height"), which also cross-checks the height
 *  given; from 363,725 (BIP66) ECDSA signatures must be strict DER (extract.h, SCRIPT_ERR_SIG_DER).
 *  Below 227,931 the height cannot be cross-checked: a wrong one there only decides DERSIG.
 *
 *  Throws Error naming block hash, tx index, input index and byte offset for a truncated or
 *  malformed block, a hash or merkle mismatch, a negative height, a coinbase without the BIP34
 *  height, a spent-outputs list that does not match, or an input that fails its script
 *  regardless of signatures (extract.h). */
BlockChecks ExtractBlockChecks(const uint8_t* block_raw, size_t block_len,
                               const std::vector<SpentOutputEntry>& spent,
                               const std::string& expected_hash_hex, int32_t height);

}  // namespace ibd
