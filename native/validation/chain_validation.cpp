// Implementation of ChainValidation and ConnectBlockFile (chain_validation.h).
#include "validation/chain_validation.h"

#include <algorithm>
#include <map>
#include <utility>

#include "primitives/block.h"
#include "primitives/block_file.h"
#include "primitives/hex.h"
#include "script/consensus_flags.h"
#include "validation/block_check.h"
#include "validation/block_rules.h"
#include "validation/tx_verify.h"

namespace ibd {

namespace {

/** Core's nMedianTimeSpan (chain.h): blocks in a median time past. */
constexpr size_t kMedianTimeSpan = 11;

Hash32 HashFromDisplayHex(const char* hex) {
    Hash32 h{};
    TryParseHashDisplayHex(hex, h);
    return h;
}

struct OutPointLess {
    bool operator()(const OutPoint& a, const OutPoint& b) const { return a.txid != b.txid ? a.txid < b.txid : a.n < b.n; }
};

/** Whether the coins view's failure `coins` comes before the verdict `r` of BlockValidation in
 *  Core's ConnectBlock: BIP30 before the transaction loop; in the loop, per transaction the coin
 *  checks first (CheckTxInputs opens with them), then its amounts, fees and sigops; the coinbase
 *  amount after the loop; scripts last (their results are collected at the end, the order
 *  BlockValidation also keeps). */
bool CoinsFailureFirst(const RuleFailure& coins, const BlockValidationResult& r) {
    if (r.valid || coins.reject_reason == "bad-txns-BIP30") return true;
    if (r.reject_reason == "mandatory-script-verify-flag-failed" || r.reject_reason == "bad-cb-amount") return true;
    return coins.where.tx_index <= r.tx_index;
}

}  // namespace

ChainValidation::ChainValidation(const ChainOptions& options)
    : options_(options), coins_(nullptr, options.max_coins_bytes), tip_hash_(HashFromDisplayHex(kMainnetGenesisHashHex)) {
    recent_times_.push_back(kMainnetGenesisTime);
}

int64_t ChainValidation::TipMedianTimePast() const {
    std::vector<int64_t> times(recent_times_.begin(), recent_times_.end());
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

ChainBlockResult ChainValidation::ConnectBlock(const uint8_t* block_raw, size_t block_len) {
    ChainBlockResult out;
    out.height = tip_height_ + 1;
    out.median_time_past = TipMedianTimePast();
    const int32_t height = out.height;
    const std::string at_height = "height " + std::to_string(height) + ": ";
    BlockValidationResult& r = out.result;
    r.valid = false;
    r.fee = -1;
    Hash32 hash{};

    // A verdict reached before BlockValidation, or instead of its own.
    const auto reject = [&](const std::string& reject_reason, const std::string& stage, const std::string& message,
                            Location where) -> ChainBlockResult& {
        if (where.block_hash.empty()) where.block_hash = r.hash_hex;
        r.valid = false;
        r.reject_reason = reject_reason;
        r.stage = stage;
        r.error = at_height + Error(message, where).what();
        r.tx_index = where.tx_index;
        r.input_index = where.input_index;
        r.output_index = where.output_index;
        r.byte_offset = where.byte_offset;
        rejected_.insert(hash);
        return out;
    };
    const auto reject_rule = [&](const RuleFailure& f) -> ChainBlockResult& {
        return reject(f.reject_reason, f.stage, f.message(), f.where);
    };
    const auto not_judged = [&](const Error& e) -> ChainBlockResult& {
        Location where = e.where();
        if (where.block_hash.empty()) where.block_hash = r.hash_hex;
        out.error = at_height + Error(e.reason(), where).what();
        return out;
    };

    if (block_len < kBlockHeaderSize) {
        Location at;
        at.byte_offset = 0;
        return not_judged(Error("block of " + std::to_string(block_len) + " bytes, fewer than the " +
                                    std::to_string(kBlockHeaderSize) + " of a header",
                                at));
    }
    const BlockHeader header = ParseBlockHeader(block_raw, hash);
    r.hash_hex = HexEncodeReversed(hash);
    out.prev_hash_hex = HexEncodeReversed(header.prev_block);

    // Core's AcceptBlockHeader: CheckBlockHeader (the proof of work), then the previous block.
    if (!options_.skip_proof_of_work) {
        Block header_only;
        header_only.header = header;
        header_only.hash = hash;
        header_only.hash_hex = r.hash_hex;
        if (const std::optional<RuleFailure> f = CheckProofOfWork(header_only)) return reject_rule(*f);
        out.proof_of_work_checked = true;
    }
    if (header.prev_block != tip_hash_) {
        Location at;
        at.byte_offset = kHeaderPrevBlockOffset;
        if (rejected_.count(header.prev_block)) {
            return reject("bad-prevblk", "AcceptBlockHeader",
                          "bad-prevblk: its previous block " + out.prev_hash_hex + " was rejected", at);
        }
        return reject("prev-blk-not-found", "AcceptBlockHeader",
                      "prev-blk-not-found: its previous block " + out.prev_hash_hex + " is not the chain's tip " +
                          HexEncodeReversed(tip_hash_) + " (height " + std::to_string(tip_height_) + ")",
                      at);
    }
    out.link_checked = true;

    Block block;
    try {
        block = ParseBlock(block_raw, block_len);
    } catch (const Error& e) {
        return not_judged(e);
    }
    r.tx_count = static_cast<uint32_t>(block.txs.size());
    for (size_t t = 1; t < block.txs.size(); ++t) r.inputs += static_cast<uint32_t>(block.txs[t].vin.size());

    // The block's coins, in a view over the chain's (ConnectBlock's CCoinsViewCache over the
    // tip's), written into it only if the block is valid. Failures are noted, not returned: the
    // rules before ConnectBlock come first (BlockValidation checks them, below).
    CoinsViewCache view(&coins_, options_.max_coins_bytes);
    std::optional<RuleFailure> coins_failure;
    std::map<OutPoint, std::pair<size_t, size_t>, OutPointLess> spent_here;  // -> (tx, input) that spent it
    try {
        if (EnforceBip30(height, hash, bip34_block_matches_)) coins_failure = CheckBip30(block, coins_);
        out.spent.reserve(r.inputs);
        for (size_t t = 0; t < block.txs.size(); ++t) {
            const Transaction& tx = block.txs[t];
            if (t > 0) {
                if (!coins_failure) {
                    coins_failure = CheckTxInputCoins(tx, static_cast<uint32_t>(t), view, height);
                    if (coins_failure && coins_failure->reject_reason == "bad-txns-inputs-missingorspent") {
                        const auto by = spent_here.find(tx.vin[coins_failure->where.input_index].prevout);
                        if (by != spent_here.end()) {
                            coins_failure->detail += "; it was spent earlier in this block, by tx " +
                                                     std::to_string(by->second.first) + " input " +
                                                     std::to_string(by->second.second);
                        }
                    }
                }
                for (size_t i = 0; i < tx.vin.size(); ++i) {
                    const OutPoint& prevout = tx.vin[i].prevout;
                    SpentOutputEntry entry;
                    entry.prevout = prevout;
                    if (const Coin* coin = view.AccessCoin(prevout)) {
                        entry.out = coin->out;
                        ++(view.HaveCoinInCache(prevout) ? out.spends_in_block : out.spends_from_view);
                        view.SpendCoin(prevout);
                        spent_here.emplace(prevout, std::make_pair(t, i));
                    }
                    out.spent.push_back(std::move(entry));
                }
            }
            const int64_t refused = AddCoins(view, tx, height);
            if (refused >= 0 && !coins_failure) {
                Location at;
                at.tx_index = static_cast<int64_t>(t);
                at.output_index = refused;
                at.byte_offset = static_cast<int64_t>(tx.vout[refused].offset);
                coins_failure = RuleFailure{"bad-txns-BIP30", "ConnectBlock",
                                            "tried to overwrite transaction: output " + HexEncodeReversed(tx.txid) + ":" +
                                                std::to_string(refused) + " is already an unspent coin",
                                            at};
            }
        }
    } catch (const Error& e) {
        return not_judged(e);  // the view is full
    }

    ChainContext context;
    context.median_time_past = out.median_time_past;
    context.skip_proof_of_work = options_.skip_proof_of_work;
    context.coins_checked = true;
    context.previous_block_checked = true;
    const uint32_t tx_count = r.tx_count, inputs = r.inputs;
    try {
        r = ValidateBlock(std::move(block), out.spent, height, context);
    } catch (const BlockRejected& e) {
        // A rule before ConnectBlock: it comes before every coin rule.
        r.tx_count = tx_count;
        r.inputs = inputs;
        r.not_checked = e.not_checked();
        return reject(e.reject_reason(), e.stage(), e.reason(), e.where());
    } catch (const Error& e) {
        // An input that cannot be validated at all (cannot happen with the view's own list).
        return not_judged(e);
    }
    if (coins_failure && CoinsFailureFirst(*coins_failure, r)) {
        r.checks.clear();
        r.origins.clear();
        r.verdicts.clear();
        r.coverage.clear();
        r.ecdsa_checks = r.schnorr_checks = r.failed_inputs = r.rounds = 0;
        r.input_failures.clear();
        r.script_error.clear();
        r.input_type.clear();
        r.fee = -1;
        r.sigop_cost = 0;
        return reject_rule(*coins_failure);
    }
    if (!r.valid) {
        r.error = at_height + r.error;
        rejected_.insert(hash);
        return out;
    }
    out.coins_added = static_cast<uint32_t>(view.GetCacheSize());
    out.coins_spent = out.spends_from_view;
    try {
        view.Flush();
    } catch (const Error& e) {
        return not_judged(e);  // the chain's view is full: the tip does not move
    }
    out.connected = true;
    out.coins_in_view = coins_.GetCacheSize();
    tip_hash_ = hash;
    tip_height_ = height;
    recent_times_.push_back(header.time);
    if (recent_times_.size() > kMedianTimeSpan) recent_times_.pop_front();
    if (height == kBip34Height && r.hash_hex == kBip34HashHex) bip34_block_matches_ = true;
    return out;
}

ChainFileResult ConnectBlockFile(ChainValidation& chain, const uint8_t* data, size_t len) {
    ChainFileResult out;
    BlockFile file = ReadBlockFile(data, len);
    out.frames = file.frames.size();
    out.file_error = std::move(file.error);
    for (const BlockFileFrame& frame : file.frames) {
        ChainBlockResult b = chain.ConnectBlock(data + frame.offset, frame.size);
        b.file_offset = static_cast<int64_t>(frame.offset);
        const bool connected = b.connected;
        if (!connected) {
            const std::string where = " (block at byte " + std::to_string(frame.offset) + " of the file)";
            if (!b.error.empty()) b.error += where;
            if (!b.result.error.empty()) b.result.error += where;
        }
        out.blocks.push_back(std::move(b));
        if (!connected) break;
    }
    out.not_validated = out.frames - out.blocks.size();
    return out;
}

}  // namespace ibd
