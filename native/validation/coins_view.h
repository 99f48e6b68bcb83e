// The unspent outputs of a chain, in memory: Bitcoin Core's Coin and CCoinsViewCache (coins.h),
// cut down to what a chain walk from genesis needs (chain_validation.h). One class, used two
// ways, as Core layers its caches:
//   - the chain's view: no base; holds every unspent output of the blocks connected so far;
//   - a block's view: a cache over the chain's view, holding what the block spends and creates
//     (the base is read through, never changed) until Flush() writes it into the chain's view,
//     once the block is valid; a block that is not valid is simply dropped with its view.
//
// Bounded: every view has a byte budget (DynamicMemoryUsage, an estimate: kCoinOverheadBytes
// per coin plus its scriptPubKey's bytes); adding past it throws Error, never grows silently.
// Not Core's: no disk, no undo data, no salted hasher (an outpoint's txid is already a hash of
// data the adversary chose, so, as in Core's SaltedOutpointHasher, a chain built to collide in
// this table is possible; the budget bounds what it can cost).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <unordered_map>

#include "primitives/transaction.h"
#include "util/error.h"

namespace ibd {

/** Core's CScript::IsUnspendable: a scriptPubKey starting with OP_RETURN, or longer than
 *  MAX_SCRIPT_SIZE (10,000 bytes), can never be spent; Core never adds such outputs to its coins
 *  views (CCoinsViewCache::AddCoin), so neither does this one. */
bool IsUnspendable(const std::vector<uint8_t>& script_pubkey);

/** Estimated bytes of one coin besides its scriptPubKey: the hash-table node (pointers, cached
 *  hash), the outpoint (36), the amount, height and flags, the script vector's header. */
inline constexpr size_t kCoinOverheadBytes = 112;
/** Default budget of a view (DynamicMemoryUsage): 64 MiB, some 450,000 P2PKH coins, far above
 *  the ~200 coins of blocks 1-255 and well inside a wasm instance's memory. */
inline constexpr size_t kDefaultCoinsViewMaxBytes = size_t{64} << 20;

/** Core's CCoinsViewCache (coins.h), in memory, with an optional base view (see the top of this
 *  file). Outpoints are Core's COutPoint (txid in internal byte order, output index). Not
 *  thread-safe; a base must outlive the views over it and must not change while they hold
 *  entries (Flush them or drop them first). */
class CoinsViewCache {
public:
    /** `base`: the view this one caches (nullptr: none, this is the chain's view). `max_bytes`:
     *  the budget of DynamicMemoryUsage (entries of this view only; a base has its own). */
    explicit CoinsViewCache(CoinsViewCache* base = nullptr, size_t max_bytes = kDefaultCoinsViewMaxBytes);
    CoinsViewCache(const CoinsViewCache&) = delete;
    CoinsViewCache& operator=(const CoinsViewCache&) = delete;

    /** Core's AccessCoin, with nullptr for Core's empty coin: the unspent coin at `outpoint`,
     *  from this view's entries, else from the base's; nullptr when neither has it unspent (never
     *  created, already spent, or spent in this view). The pointer is valid until this view or
     *  its base next changes. */
    const Coin* AccessCoin(const OutPoint& outpoint) const;
    /** Core's HaveCoin: AccessCoin(outpoint) != nullptr. */
    bool HaveCoin(const OutPoint& outpoint) const;
    /** Whether `outpoint` is unspent in this view's own entries (created through this view), as
     *  opposed to read through from the base. */
    bool HaveCoinInCache(const OutPoint& outpoint) const;

    /** Core's AddCoin: adds `coin` at `outpoint`, unless its scriptPubKey IsUnspendable (then
     *  nothing is added; returns true). An unspent coin already at `outpoint` (here or in the
     *  base) is overwritten only with `possible_overwrite` (Core passes it for coinbases: the two
     *  BIP30 exceptions, 91,842 and 91,880, overwrite earlier coinbases); otherwise nothing
     *  changes and false is returned (Core throws std::logic_error there, a state its BIP30 check
     *  keeps it from reaching; chain_validation.cpp reports it as bad-txns-BIP30). Throws Error
     *  naming the outpoint when the coin would take DynamicMemoryUsage past the budget. */
    bool AddCoin(const OutPoint& outpoint, Coin coin, bool possible_overwrite);
    /** Core's SpendCoin: marks the unspent coin at `outpoint` spent, moving it to `*moveout` if
     *  given. Returns false (and changes nothing) when there is none (AccessCoin is nullptr). A
     *  coin of this view's own is erased; one of the base is recorded as spent here, for Flush. */
    bool SpendCoin(const OutPoint& outpoint, Coin* moveout = nullptr);

    /** Core's Flush (BatchWrite into the base): every coin added here is written into the base
     *  (overwriting), every base coin spent here is spent there; then this view is empty.
     *  All or nothing: throws Error (and changes neither view) when the base would pass its
     *  budget, or when this view has no base. */
    void Flush();

    /** Core's GetCacheSize: unspent coins in this view's own entries (a base's not counted). */
    size_t GetCacheSize() const { return unspent_; }
    /** Core's DynamicMemoryUsage, estimated: kCoinOverheadBytes per entry plus the scriptPubKey
     *  bytes of each, in bytes; this view's entries only. */
    size_t DynamicMemoryUsage() const { return usage_; }
    /** The budget given to the constructor, bytes (DynamicMemoryUsage never passes it). */
    size_t MaxBytes() const { return max_bytes_; }

private:
    struct Entry {
        Coin coin;
        bool spent = false;  // a base coin spent in this view (only in a view with a base)
    };
    static size_t UsageOf(const Coin& coin) { return kCoinOverheadBytes + coin.out.script_pubkey.size(); }
    /** Throws Error when `extra` more bytes would pass the budget. */
    void Reserve(size_t extra, const OutPoint& outpoint) const;

    CoinsViewCache* base_;
    size_t max_bytes_;
    std::unordered_map<OutPoint, Entry, OutPointHasher> entries_;
    size_t unspent_ = 0;
    size_t usage_ = 0;
};

/** Core's AddCoins (coins.cpp) as UpdateCoins calls it (check_for_overwrite false): every output
 *  of `tx` into `view` as a coin of `height` (coinbase = tx.IsCoinBase()), overwriting only for
 *  a coinbase. Returns the index of the first output that could not be added because an unspent
 *  coin of a non-coinbase was already there (see AddCoin), or -1 when all were added. Throws as
 *  AddCoin when the budget is exceeded. */
int64_t AddCoins(CoinsViewCache& view, const Transaction& tx, int32_t height);

}  // namespace ibd
