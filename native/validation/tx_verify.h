// The transaction rules that need the spent outputs or the block's context, after Bitcoin
// Core's consensus/tx_verify.cpp: IsFinalTx, the sigop counts (GetLegacySigOpCount,
// GetP2SHSigOpCount, GetTransactionSigOpCost), the amount checks of CheckTxInputs and, against a
// coins view (coins_view.h), its coin checks (inputs present and unspent, coinbase maturity).
// The block sums and limits that use them are in block_rules.h.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "primitives/transaction.h"
#include "util/error.h"
#include "validation/coins_view.h"

namespace ibd {

/** Core's MAX_BLOCK_SIGOPS_COST (consensus/consensus.h) and WITNESS_SCALE_FACTOR. */
constexpr int64_t kMaxBlockSigOpsCost = 80000;
constexpr int64_t kWitnessScaleFactor = 4;
/** Core's LOCKTIME_THRESHOLD (script/script.h): nLockTime below it is a height, else a time. */
constexpr int64_t kLockTimeThreshold = 500000000;
/** Core's CTxIn::SEQUENCE_FINAL. */
constexpr uint32_t kSequenceFinal = 0xffffffff;
/** Core's COINBASE_MATURITY (consensus/consensus.h): a coinbase's outputs can be spent only in a
 *  block at least this many blocks above it. */
constexpr int32_t kCoinbaseMaturity = 100;

/** Core's MoneyRange (consensus/amount.h): 0 <= value <= MAX_MONEY. */
inline bool MoneyRange(int64_t value) { return value >= 0 && value <= kMaxMoney; }

/** Core's IsFinalTx: nLockTime 0, or below `block_height` (nLockTime < 500,000,000) /
 *  `block_time` (otherwise, seconds), or every input's nSequence 0xffffffff. */
bool IsFinalTx(const Transaction& tx, int32_t block_height, int64_t block_time);

/** Which part of a transaction some sigops come from. */
struct SigOpPart {
    enum Kind { kInputScriptSig, kOutputScriptPubKey, kInputP2SH, kInputWitness } kind;
    uint32_t index;  // input or output index
    int64_t cost;    // sigop cost (legacy and P2SH counts already times WITNESS_SCALE_FACTOR)
};

/** Calls `visit` for each part of Core's GetTransactionSigOpCost(tx, spent, flags), in this
 *  order: the legacy count of every scriptSig, then of every scriptPubKey (GetSigOpCount
 *  inaccurate, times 4); for a non-coinbase under SCRIPT_VERIFY_P2SH, then per input the P2SH
 *  count (spent output P2SH: GetP2SHScriptSigOpCount times 4) and the witness count
 *  (CountWitnessSigOps, times 1). `spent` holds one spent output per input (not read for a
 *  coinbase or without SCRIPT_VERIFY_P2SH, so it may be empty then: the legacy parts alone). Parts of cost 0 are skipped. */
void ForEachSigOpCost(const Transaction& tx, const std::vector<const SpentOutput*>& spent, uint32_t flags,
                      const std::function<void(const SigOpPart&)>& visit);

/** Core's GetLegacySigOpCount: inaccurate GetSigOpCount of every scriptSig and scriptPubKey
 *  (not weighted). */
int64_t GetLegacySigOpCount(const Transaction& tx);

/** Core's GetTransactionSigOpCost: the sum of ForEachSigOpCost. */
int64_t GetTransactionSigOpCost(const Transaction& tx, const std::vector<const SpentOutput*>& spent, uint32_t flags);

/** The amount checks of Core's Consensus::CheckTxInputs for the non-coinbase `tx` spending
 *  `spent` (one per input): every spent value and their running sum in MoneyRange, else
 *  "bad-txns-inputvalues-outofrange" at that input; inputs at least the outputs, else
 *  "bad-txns-in-belowout" at the output where the running sum of output values passes the
 *  inputs' sum; the fee in MoneyRange ("bad-txns-fee-outofrange"). Stage "CheckTxInputs", tx
 *  index `tx_index`, byte offsets of the input / output / tx. Returns the fee (satoshis) or
 *  sets `failure`. The outputs are in range already (CheckTransaction). The spent coins'
 *  existence ("bad-txns-inputs-missingorspent") and coinbase maturity
 *  ("bad-txns-premature-spend-of-coinbase") need the UTXO set: not checked here. */
std::optional<int64_t> CheckTxInputAmounts(const Transaction& tx, uint32_t tx_index,
                                           const std::vector<const SpentOutput*>& spent, RuleFailure& failure);

/** The coin checks that open Core's Consensus::CheckTxInputs, for the non-coinbase `tx` at
 *  position `tx_index` of a block at `spend_height`, against `view` (the coins before the tx:
 *  the chain's, with the block's earlier transactions applied):
 *    every prevout unspent in `view` (Core's CCoinsViewCache::HaveInputs, all inputs first),
 *      else "bad-txns-inputs-missingorspent" at the first input whose prevout is not ("prevout
 *      <txid>:<n> is not in the coins view: never created, or already spent");
 *    then no coinbase coin spent fewer than kCoinbaseMaturity (100) blocks above its own:
 *      spend_height - coin.height >= 100, else "bad-txns-premature-spend-of-coinbase" at that
 *      input ("tried to spend coinbase at depth D", Core's words, with the prevout and heights).
 *  Stage "CheckTxInputs"; the location is tx_index, the input index and the input's byte offset
 *  (TxIn::offset, in the block's bytes); the block hash is the caller's to add. The amounts are
 *  CheckTxInputAmounts'. Returns std::nullopt when both hold. */
std::optional<RuleFailure> CheckTxInputCoins(const Transaction& tx, uint32_t tx_index, const CoinsViewCache& view,
                                             int32_t spend_height);

}  // namespace ibd
