// Implementation of coins_view.h.
#include "validation/coins_view.h"

#include <utility>
#include <vector>

#include "primitives/hex.h"
#include "script/script.h"

namespace ibd {

namespace {

std::string OutPointText(const OutPoint& o) { return HexEncodeReversed(o.txid) + ":" + std::to_string(o.n); }

}  // namespace

bool IsUnspendable(const std::vector<uint8_t>& script_pubkey) {
    return (!script_pubkey.empty() && script_pubkey[0] == OP_RETURN) || script_pubkey.size() > kMaxScriptSize;
}

CoinsViewCache::CoinsViewCache(CoinsViewCache* base, size_t max_bytes) : base_(base), max_bytes_(max_bytes) {}

const Coin* CoinsViewCache::AccessCoin(const OutPoint& outpoint) const {
    const auto it = entries_.find(outpoint);
    if (it != entries_.end()) return it->second.spent ? nullptr : &it->second.coin;
    return base_ ? base_->AccessCoin(outpoint) : nullptr;
}

bool CoinsViewCache::HaveCoin(const OutPoint& outpoint) const { return AccessCoin(outpoint) != nullptr; }

bool CoinsViewCache::HaveCoinInCache(const OutPoint& outpoint) const {
    const auto it = entries_.find(outpoint);
    return it != entries_.end() && !it->second.spent;
}

void CoinsViewCache::Reserve(size_t extra, const OutPoint& outpoint) const {
    if (usage_ + extra <= max_bytes_) return;
    throw Error("coins view full: adding the coin " + OutPointText(outpoint) + " (" + std::to_string(extra) +
                    " bytes) would take it to " + std::to_string(usage_ + extra) + " bytes, past its bound of " +
                    std::to_string(max_bytes_) + " (" + std::to_string(unspent_) + " coins held)",
                Location{});
}

bool CoinsViewCache::AddCoin(const OutPoint& outpoint, Coin coin, bool possible_overwrite) {
    if (IsUnspendable(coin.out.script_pubkey)) return true;
    coin.out.offset = 0;
    const auto it = entries_.find(outpoint);
    const bool here = it != entries_.end();
    if (!possible_overwrite && HaveCoin(outpoint)) return false;
    const size_t add = UsageOf(coin);
    const size_t old = here ? UsageOf(it->second.coin) : 0;
    if (add > old) Reserve(add - old, outpoint);
    if (here) {
        if (it->second.spent) ++unspent_;
        usage_ = usage_ - old + add;
        it->second.coin = std::move(coin);
        it->second.spent = false;
    } else {
        entries_.emplace(outpoint, Entry{std::move(coin), false});
        usage_ += add;
        ++unspent_;
    }
    return true;
}

bool CoinsViewCache::SpendCoin(const OutPoint& outpoint, Coin* moveout) {
    const auto it = entries_.find(outpoint);
    if (it != entries_.end()) {
        if (it->second.spent) return false;
        if (moveout) *moveout = it->second.coin;
        --unspent_;
        if (base_ && base_->HaveCoin(outpoint)) {
            // It shadows a coin of the base (an overwrite): that one must be spent at Flush too.
            usage_ -= it->second.coin.out.script_pubkey.size();
            it->second.coin = Coin{};
            it->second.spent = true;
        } else {
            usage_ -= UsageOf(it->second.coin);
            entries_.erase(it);
        }
        return true;
    }
    const Coin* from_base = base_ ? base_->AccessCoin(outpoint) : nullptr;
    if (!from_base) return false;
    Reserve(kCoinOverheadBytes, outpoint);
    if (moveout) *moveout = *from_base;
    entries_.emplace(outpoint, Entry{Coin{}, true});
    usage_ += kCoinOverheadBytes;
    return true;
}

void CoinsViewCache::Flush() {
    if (!base_) throw Error("CoinsViewCache::Flush: this view has no base view to write into", Location{});
    // What the base will hold afterwards, checked before anything changes (all or nothing).
    size_t usage = base_->usage_;
    for (const auto& [outpoint, entry] : entries_) {
        const auto at = base_->entries_.find(outpoint);
        const size_t old = at != base_->entries_.end() ? UsageOf(at->second.coin) : 0;
        // A base without a base of its own erases what is spent; else it keeps a spent entry.
        const size_t now = entry.spent ? (base_->base_ ? kCoinOverheadBytes : 0) : UsageOf(entry.coin);
        usage = usage - old + now;
    }
    if (usage > base_->max_bytes_) {
        throw Error("coins view full: writing a block's " + std::to_string(entries_.size()) +
                        " coin changes would take the chain's view to " + std::to_string(usage) +
                        " bytes, past its bound of " + std::to_string(base_->max_bytes_) + " (" +
                        std::to_string(base_->unspent_) + " coins held)",
                    Location{});
    }
    // Spends first, so that the base never passes its budget on the way to a total within it.
    for (auto& [outpoint, entry] : entries_) {
        if (entry.spent) base_->SpendCoin(outpoint);
    }
    for (auto& [outpoint, entry] : entries_) {
        if (!entry.spent) base_->AddCoin(outpoint, std::move(entry.coin), true);
    }
    entries_.clear();
    unspent_ = 0;
    usage_ = 0;
}

int64_t AddCoins(CoinsViewCache& view, const Transaction& tx, int32_t height) {
    const bool coinbase = tx.IsCoinBase();
    int64_t refused = -1;
    OutPoint outpoint;
    outpoint.txid = tx.txid;
    for (size_t o = 0; o < tx.vout.size(); ++o) {
        outpoint.n = static_cast<uint32_t>(o);
        Coin coin;
        coin.out = tx.vout[o];
        coin.height = height;
        coin.coinbase = coinbase;
        if (!view.AddCoin(outpoint, std::move(coin), coinbase) && refused < 0) refused = static_cast<int64_t>(o);
    }
    return refused;
}

}  // namespace ibd
