// Implementation of ExtractBlockChecks (engine.h): parse, check, align the spent outputs, extract.
#include "engine.h"

#include <cctype>

#include "block.h"
#include "error.h"
#include "extract.h"
#include "hex.h"

namespace ibd {

namespace {

std::string ToLower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

}  // namespace

BlockChecks ExtractBlockChecks(const uint8_t* block_raw, size_t block_len, const std::vector<SpentOutputEntry>& spent,
                               const std::string& expected_hash_hex) {
    Location at_block;
    // The expected hash is compared before anything else is parsed, so that a wrong file pair
    // is reported as such rather than as whatever parse error its bytes produce.
    if (!expected_hash_hex.empty()) {
        Hash32 expected;
        if (!TryParseHashDisplayHex(expected_hash_hex, expected)) {
            throw Error("expected block hash is not 64 hex digits: '" + expected_hash_hex + "'", at_block);
        }
        if (block_len >= kBlockHeaderSize) {
            Hash32 hash;
            ParseBlockHeader(block_raw, hash);
            if (hash != expected) {
                at_block.block_hash = HexEncodeReversed(hash);
                throw Error("block hash mismatch: expected " + ToLower(expected_hash_hex) + ", header hashes to " +
                                at_block.block_hash,
                            at_block);
            }
        }
    }

    const Block block = ParseBlock(block_raw, block_len);
    at_block.block_hash = block.hash_hex;
    CheckBlock(block);

    BlockChecks out;
    out.hash_hex = block.hash_hex;
    out.tx_count = static_cast<uint32_t>(block.txs.size());
    const ScriptFlags flags = GetBlockScriptFlags(block.hash);

    size_t next = 0;  // index of the next unused entry of `spent`
    std::vector<const SpentOutput*> tx_spent;
    for (size_t t = 1; t < block.txs.size(); ++t) {
        const Transaction& tx = block.txs[t];
        tx_spent.clear();
        for (size_t i = 0; i < tx.vin.size(); ++i, ++next) {
            Location at = at_block;
            at.tx_index = static_cast<int64_t>(t);
            at.input_index = static_cast<int64_t>(i);
            at.byte_offset = static_cast<int64_t>(tx.vin[i].offset);
            if (next >= spent.size()) {
                throw Error("spent outputs list too short: " + std::to_string(spent.size()) +
                                " entries, no entry for this input",
                            at);
            }
            const SpentOutputEntry& entry = spent[next];
            const std::string prevout_txid = HexEncodeReversed(tx.vin[i].prevout.txid);
            if (ToLower(entry.txid_hex) != prevout_txid || entry.vout != tx.vin[i].prevout.n) {
                throw Error("spent output entry " + std::to_string(next) + " is for outpoint " + entry.txid_hex + ":" +
                                std::to_string(entry.vout) + " but the input spends " + prevout_txid + ":" +
                                std::to_string(tx.vin[i].prevout.n),
                            at);
            }
            tx_spent.push_back(&entry.out);
        }
        try {
            ExtractTransactionChecks(tx, static_cast<uint32_t>(t), tx_spent, flags, out);
        } catch (const Error& e) {
            throw e.with_context(at_block);
        }
    }
    if (next != spent.size()) {
        throw Error("spent outputs list too long: " + std::to_string(spent.size()) + " entries for " +
                        std::to_string(next) + " non-coinbase inputs",
                    at_block);
    }
    out.inputs = static_cast<uint32_t>(next);
    return out;
}

}  // namespace ibd
