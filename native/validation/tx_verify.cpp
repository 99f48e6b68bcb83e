// Implementation of tx_verify.h.
#include "validation/tx_verify.h"

#include <string>

#include "primitives/hex.h"
#include "script/interpreter.h"
#include "script/script.h"
#include "script/sigops.h"

namespace ibd {

bool IsFinalTx(const Transaction& tx, int32_t block_height, int64_t block_time) {
    if (tx.lock_time == 0) return true;
    const int64_t lock_time = tx.lock_time;
    if (lock_time < (lock_time < kLockTimeThreshold ? static_cast<int64_t>(block_height) : block_time)) return true;
    for (const TxIn& in : tx.vin) {
        if (in.sequence != kSequenceFinal) return false;
    }
    return true;
}

void ForEachSigOpCost(const Transaction& tx, const std::vector<const SpentOutput*>& spent, uint32_t flags,
                      const std::function<void(const SigOpPart&)>& visit) {
    auto emit = [&visit](SigOpPart::Kind kind, size_t index, int64_t cost) {
        if (cost != 0) visit(SigOpPart{kind, static_cast<uint32_t>(index), cost});
    };
    for (size_t i = 0; i < tx.vin.size(); ++i) {
        emit(SigOpPart::kInputScriptSig, i, GetSigOpCount(tx.vin[i].script_sig, false) * kWitnessScaleFactor);
    }
    for (size_t o = 0; o < tx.vout.size(); ++o) {
        emit(SigOpPart::kOutputScriptPubKey, o, GetSigOpCount(tx.vout[o].script_pubkey, false) * kWitnessScaleFactor);
    }
    // Core counts P2SH sigops under SCRIPT_VERIFY_P2SH, witness ones under SCRIPT_VERIFY_WITNESS,
    // which it only sets together with P2SH.
    if (tx.IsCoinBase() || (flags & SCRIPT_VERIFY_P2SH) == 0) return;
    for (size_t i = 0; i < tx.vin.size(); ++i) {
        const TxIn& in = tx.vin[i];
        const std::vector<uint8_t>& spk = spent[i]->script_pubkey;
        if (IsPayToScriptHash(spk)) {
            emit(SigOpPart::kInputP2SH, i, GetP2SHScriptSigOpCount(spk, in.script_sig) * kWitnessScaleFactor);
        }
        emit(SigOpPart::kInputWitness, i, CountWitnessSigOps(in.script_sig, spk, in.witness, flags));
    }
}

int64_t GetLegacySigOpCount(const Transaction& tx) {
    int64_t n = 0;
    for (const TxIn& in : tx.vin) n += GetSigOpCount(in.script_sig, false);
    for (const TxOut& out : tx.vout) n += GetSigOpCount(out.script_pubkey, false);
    return n;
}

int64_t GetTransactionSigOpCost(const Transaction& tx, const std::vector<const SpentOutput*>& spent, uint32_t flags) {
    int64_t cost = 0;
    ForEachSigOpCost(tx, spent, flags, [&cost](const SigOpPart& part) { cost += part.cost; });
    return cost;
}

std::optional<int64_t> CheckTxInputAmounts(const Transaction& tx, uint32_t tx_index,
                                           const std::vector<const SpentOutput*>& spent, RuleFailure& failure) {
    auto fail = [&](const char* reason, std::string detail, Location where) {
        where.tx_index = tx_index;
        failure = RuleFailure{reason, "CheckTxInputs", std::move(detail), where};
        return std::optional<int64_t>{};
    };
    int64_t value_in = 0;
    for (size_t i = 0; i < tx.vin.size(); ++i) {
        const int64_t value = spent[i]->value;
        // Both terms are in range when the sum is formed: no overflow.
        if (MoneyRange(value)) value_in += value;
        if (!MoneyRange(value) || !MoneyRange(value_in)) {
            Location at;
            at.input_index = static_cast<int64_t>(i);
            at.byte_offset = static_cast<int64_t>(tx.vin[i].offset);
            return fail("bad-txns-inputvalues-outofrange",
                        MoneyRange(value) ? "the spent values up to this input sum to " + std::to_string(value_in) +
                                                " sat, above 21,000,000 BTC"
                                          : "the spent output's value " + std::to_string(value) +
                                                " sat is outside 0..21,000,000 BTC",
                        at);
        }
    }
    int64_t value_out = 0;
    for (size_t o = 0; o < tx.vout.size(); ++o) {
        value_out += tx.vout[o].value;  // CheckTransaction: each and the sum in range
        if (value_out > value_in) {
            Location at;
            at.output_index = static_cast<int64_t>(o);
            at.byte_offset = static_cast<int64_t>(tx.vout[o].offset);
            int64_t total_out = 0;
            for (const TxOut& out : tx.vout) total_out += out.value;
            return fail("bad-txns-in-belowout",
                        "value in " + std::to_string(value_in) + " sat < value out " + std::to_string(total_out) +
                            " sat (the outputs pass the inputs at this output)",
                        at);
        }
    }
    const int64_t fee = value_in - value_out;
    if (!MoneyRange(fee)) {
        Location at;
        at.byte_offset = static_cast<int64_t>(tx.offset);
        return fail("bad-txns-fee-outofrange", "fee " + std::to_string(fee) + " sat", at);
    }
    return fee;
}

std::optional<RuleFailure> CheckTxInputCoins(const Transaction& tx, uint32_t tx_index, const CoinsViewCache& view,
                                             int32_t spend_height) {
    auto at_input = [&](size_t i) {
        Location at;
        at.tx_index = tx_index;
        at.input_index = static_cast<int64_t>(i);
        at.byte_offset = static_cast<int64_t>(tx.vin[i].offset);
        return at;
    };
    auto prevout = [&](size_t i) {
        return HexEncodeReversed(tx.vin[i].prevout.txid) + ":" + std::to_string(tx.vin[i].prevout.n);
    };
    // HaveInputs: every input before any maturity check, as Core.
    for (size_t i = 0; i < tx.vin.size(); ++i) {
        if (!view.HaveCoin(tx.vin[i].prevout)) {
            return RuleFailure{"bad-txns-inputs-missingorspent", "CheckTxInputs",
                               "prevout " + prevout(i) + " is not in the coins view: never created, or already spent",
                               at_input(i)};
        }
    }
    for (size_t i = 0; i < tx.vin.size(); ++i) {
        const Coin& coin = *view.AccessCoin(tx.vin[i].prevout);
        const int64_t depth = static_cast<int64_t>(spend_height) - coin.height;
        if (coin.coinbase && depth < kCoinbaseMaturity) {
            return RuleFailure{"bad-txns-premature-spend-of-coinbase", "CheckTxInputs",
                               "tried to spend coinbase at depth " + std::to_string(depth) + ": prevout " + prevout(i) +
                                   " is the coinbase output of height " + std::to_string(coin.height) +
                                   ", spent at height " + std::to_string(spend_height) + " (" +
                                   std::to_string(kCoinbaseMaturity) + " blocks needed)",
                               at_input(i)};
        }
    }
    return std::nullopt;
}

}  // namespace ibd
