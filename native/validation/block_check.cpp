// Implementation of ParseAndCheckBlock (block_check.h): parse, check, align the spent outputs.
#include "validation/block_check.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "primitives/block.h"
#include "primitives/hex.h"
#include "util/error.h"
#include "validation/block_rules.h"

namespace ibd {

namespace {

std::string ToLower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

void ThrowIf(const std::optional<RuleFailure>& failure, const Location& at_block) {
    if (!failure) return;
    RuleFailure f = *failure;
    if (f.where.block_hash.empty()) f.where.block_hash = at_block.block_hash;
    throw Error(f);
}

}  // namespace

BlockRejected::BlockRejected(const Error& failure, std::vector<NotChecked> not_checked)
    : Error(failure), not_checked_(std::move(not_checked)) {}

Block ParseAndCheckBlock(const uint8_t* block_raw, size_t block_len, const std::vector<SpentOutputEntry>& spent,
                         const std::string& expected_hash_hex, int32_t height, const ChainContext& context,
                         std::vector<std::vector<const SpentOutput*>>& spent_by_tx, bool run_rules) {
    Location at_block;
    if (height < 0) throw Error("block height is negative: " + std::to_string(height), at_block);
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

    Block block = ParseBlock(block_raw, block_len);
    CheckParsedBlock(block, spent, height, context, spent_by_tx, run_rules);
    return block;
}

void CheckParsedBlock(const Block& block, const std::vector<SpentOutputEntry>& spent, int32_t height,
                      const ChainContext& context, std::vector<std::vector<const SpentOutput*>>& spent_by_tx,
                      bool run_rules) {
    Location at_block;
    if (height < 0) throw Error("block height is negative: " + std::to_string(height), at_block);
    at_block.block_hash = block.hash_hex;
    if (run_rules) try {
        // Core's ProcessNewBlock order: CheckBlock (CheckBlockHeader's proof of work first, its
        // legacy sigop limit last), then AcceptBlock's ContextualCheckBlockHeader and
        // ContextualCheckBlock.
        if (!context.skip_proof_of_work) ThrowIf(CheckProofOfWork(block), at_block);
        try {
            CheckBlock(block);
        } catch (const Error& e) {
            throw e.with_stage("CheckBlock");
        }
        ThrowIf(CheckLegacySigOps(block), at_block);
        ThrowIf(CheckContextualHeader(block, height, context), at_block);
        ThrowIf(CheckContextualBlock(block, height, context), at_block);
    } catch (const Error& e) {
        if (e.stage().empty()) throw;
        throw BlockRejected(e, RulesNotChecked(block, height, context));
    }

    spent_by_tx.assign(block.txs.size(), {});
    size_t next = 0;  // index of the next unused entry of `spent`
    for (size_t t = 1; t < block.txs.size(); ++t) {
        const Transaction& tx = block.txs[t];
        std::vector<const SpentOutput*>& tx_spent = spent_by_tx[t];
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
            if (!(entry.prevout == tx.vin[i].prevout)) {
                throw Error("spent output entry " + std::to_string(next) + " is for outpoint " +
                                HexEncodeReversed(entry.prevout.txid) + ":" + std::to_string(entry.prevout.n) +
                                " but the input spends " + HexEncodeReversed(tx.vin[i].prevout.txid) + ":" +
                                std::to_string(tx.vin[i].prevout.n),
                            at);
            }
            tx_spent.push_back(&entry.out);
        }
    }
    if (next != spent.size()) {
        throw Error("spent outputs list too long: " + std::to_string(spent.size()) + " entries for " +
                        std::to_string(next) + " non-coinbase inputs",
                    at_block);
    }
}

}  // namespace ibd
