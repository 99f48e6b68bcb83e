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

void CheckExpectedHash(const uint8_t* block_raw, size_t block_len, const std::string& expected_hash_hex) {
    if (expected_hash_hex.empty()) return;
    Location at_block;
    Hash32 expected;
    if (!TryParseHashDisplayHex(expected_hash_hex, expected)) {
        throw Error("expected block hash is not 64 hex digits: '" + expected_hash_hex + "'", at_block);
    }
    if (block_len >= kBlockHeaderSize) {
        Hash32 hash;
        ParseBlockHeader(block_raw, hash);
        if (hash != expected) {
            at_block.block_hash = HexEncodeReversed(hash);
            at_block.byte_offset = 0;  // the header, which the hash covers
            throw Error("block hash mismatch: expected " + ToLower(expected_hash_hex) + ", header hashes to " +
                            at_block.block_hash,
                        at_block);
        }
    }
}

Block ParseAndCheckBlock(const uint8_t* block_raw, size_t block_len, const std::vector<SpentOutputEntry>& spent,
                         const std::string& expected_hash_hex, int32_t height, const ChainContext& context,
                         std::vector<std::vector<const SpentOutput*>>& spent_by_tx, bool run_rules) {
    if (height < 0) throw Error("block height is negative: " + std::to_string(height), Location{});
    // The expected hash is compared before anything else is parsed, so that a wrong file pair
    // is reported as such rather than as whatever parse error its bytes produce.
    CheckExpectedHash(block_raw, block_len, expected_hash_hex);
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

    AlignSpentOutputs(block, spent.data(), spent.size(), 0, spent.size(), 1, block.txs.size(), spent_by_tx);
}

size_t InputsBefore(const Block& block, size_t tx) {
    size_t n = 0;
    for (size_t t = 1; t < std::min(tx, block.txs.size()); ++t) n += block.txs[t].vin.size();
    return n;
}

void AlignSpentOutputs(const Block& block, const SpentOutputEntry* entries, size_t available, size_t first,
                       size_t total, size_t tx_begin, size_t tx_end,
                       std::vector<std::vector<const SpentOutput*>>& spent_by_tx) {
    Location at_block;
    at_block.block_hash = block.hash_hex;
    tx_end = std::min(tx_end, block.txs.size());
    tx_begin = std::max<size_t>(1, std::min(tx_begin, tx_end));
    // The input whose block-order index is `k` (k < the block's input count), located.
    const auto input_at = [&](size_t k) {
        Location at = at_block;
        for (size_t t = 1; t < block.txs.size(); ++t) {
            const std::vector<TxIn>& vin = block.txs[t].vin;
            if (k < vin.size()) {
                at.tx_index = static_cast<int64_t>(t);
                at.input_index = static_cast<int64_t>(k);
                at.byte_offset = static_cast<int64_t>(vin[k].offset);
                return at;
            }
            k -= vin.size();
        }
        return at;
    };
    const auto too_short = [&](const Location& at) {
        return Error("spent outputs list too short: " + std::to_string(total) + " entries, no entry for this input", at);
    };
    // An input before the range without an entry is the first one a whole-block walk meets.
    if (total < first) throw too_short(input_at(total));
    spent_by_tx.assign(block.txs.size(), {});
    size_t next = first;  // block-order index of the next input, and of its entry
    for (size_t t = tx_begin; t < tx_end; ++t) {
        const Transaction& tx = block.txs[t];
        std::vector<const SpentOutput*>& tx_spent = spent_by_tx[t];
        for (size_t i = 0; i < tx.vin.size(); ++i, ++next) {
            Location at = at_block;
            at.tx_index = static_cast<int64_t>(t);
            at.input_index = static_cast<int64_t>(i);
            at.byte_offset = static_cast<int64_t>(tx.vin[i].offset);
            if (next >= total) throw too_short(at);
            if (next - first >= available) {
                throw Error("spent outputs: entry " + std::to_string(next) + " was not read for this range", at);
            }
            const SpentOutputEntry& entry = entries[next - first];
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
    const size_t inputs = InputsBefore(block, block.txs.size());
    if (total < inputs) throw too_short(input_at(total));
    if (total != inputs) {
        throw Error("spent outputs list too long: " + std::to_string(total) + " entries for " + std::to_string(inputs) +
                        " non-coinbase inputs",
                    at_block);
    }
}

}  // namespace ibd
