// The block-level consensus rules that the block's bytes, its height, the outputs it spends
// and (optionally) the median time past decide, each as a function returning Core's reject
// reason, the stage (the Core function the check sits in) and the place at fault:
//
//   rule                                  Core function                   reject reason
//   header hash at most its nBits target  CheckBlockHeader                high-hash
//     (CheckProofOfWork; nBits neither
//     negative, zero, overflowing nor
//     above mainnet's powLimit)
//   header time above the median time     ContextualCheckBlockHeader      time-too-old
//     past (only when it is supplied)
//   block version by height               ContextualCheckBlockHeader      bad-version(0x%08x)
//   legacy sigops * 4 <= 80,000           CheckBlock                      bad-blk-sigops
//   every tx final (IsFinalTx)            ContextualCheckBlock            bad-txns-nonfinal
//   BIP34 coinbase height                 ContextualCheckBlock            bad-cb-height
//   witness commitment (BIP141), and no   ContextualCheckBlock            bad-witness-nonce-size,
//     witness data without one                                            bad-witness-merkle-match,
//                                                                         unexpected-witness
//   weight <= 4,000,000                   ContextualCheckBlock            bad-blk-weight
//   spent values and their sum in range   Consensus::CheckTxInputs        bad-txns-inputvalues-outofrange
//   inputs >= outputs                     Consensus::CheckTxInputs        bad-txns-in-belowout
//   fee in range                          Consensus::CheckTxInputs        bad-txns-fee-outofrange
//   block's fees in range                 ConnectBlock                    bad-txns-accumulated-fee-outofrange
//   sigop cost (legacy, P2SH, witness)    ConnectBlock                    bad-blk-sigops
//     <= 80,000 (GetTransactionSigOpCost)
//   coinbase <= subsidy + fees            ConnectBlock                    bad-cb-amount
//
// The rules of CheckBlock / CheckTransaction, the witness commitment and the weight are
// primitives/block.h's (validation/block_check.h runs them all, in Core's order). What needs more of the chain than this is
// listed by RulesNotChecked, with the reason.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "primitives/block.h"
#include "util/error.h"

namespace ibd {

/** What the caller knows of the chain before the block, beyond its height. */
struct ChainContext {
    /** Median of the timestamps of the 11 blocks before this one (Core's
     *  pindexPrev->GetMedianTimePast()), seconds since the epoch. From kCsvHeight (BIP113) it is
     *  the cutoff of IsFinalTx; when given, the header's time must also be above it. */
    std::optional<int64_t> median_time_past;
    /** Skips CheckProofOfWork (high-hash), which the block's bytes decide. Only for callers
     *  that validate blocks mutated from real ones (tests, fuzzers): any changed header byte, or
     *  a changed transaction through the merkle root, breaks the proof of work. RulesNotChecked
     *  then lists "proof-of-work". */
    bool skip_proof_of_work = false;
};

/** Mainnet's consensus.powLimit (chainparams.cpp): 2^224 - 1, the highest target. */
inline constexpr uint32_t kPowLimitCompact = 0x1d00ffff;

/** CheckBlockHeader's proof of work (Core pow.cpp CheckProofOfWork): nBits decoded as
 *  arith_uint256::SetCompact (size byte, 23-bit mantissa, sign bit 0x00800000) must be neither
 *  negative, zero nor overflowing 256 bits and at most mainnet's powLimit (2^224 - 1), and the
 *  block hash, read as a little-endian 256-bit number (UintToArith256), at most that target;
 *  else "high-hash" (stage CheckBlockHeader, the block hash as location), the detail saying
 *  which. Whether nBits is the difficulty the chain expects (bad-diffbits) needs the header
 *  chain: RulesNotChecked lists it. */
std::optional<RuleFailure> CheckProofOfWork(const Block& block);

/** Core's GetBlockSubsidy (validation.cpp): 50 BTC halved every 210,000 blocks (integer
 *  shift), 0 from the 64th halving on. Satoshis. */
int64_t GetBlockSubsidy(int32_t height);

/** ContextualCheckBlockHeader's rules that need no earlier header, in Core's order: when
 *  `context` has the median time past, header time above it ("time-too-old"); then nVersion at
 *  least 2 from BIP34 (227,931), 3 from BIP66 (363,725), 4 from BIP65 (388,381)
 *  ("bad-version(0x%08x)"). */
std::optional<RuleFailure> CheckContextualHeader(const Block& block, int32_t height, const ChainContext& context);

/** CheckBlock's legacy sigop limit: the GetLegacySigOpCount of all transactions, times 4, at
 *  most 80,000, else "bad-blk-sigops" at the tx and the input (scriptSig) or output
 *  (scriptPubKey) where the running count passes the limit. */
std::optional<RuleFailure> CheckLegacySigOps(const Block& block);

/** Core's ContextualCheckBlock, in its order, for a block that passed CheckBlock:
 *    every transaction IsFinalTx at `height` with the cutoff Core uses (the header's time below
 *      kCsvHeight; from it, BIP113, the median time past: when `context` lacks it, a time lock
 *      at or above the header's time is still not final, one below it is skipped and
 *      RulesNotChecked says so), "bad-txns-nonfinal" at that tx;
 *    from kBip34Height the coinbase scriptSig starts with SerializeScriptHeight(height)
 *      ("bad-cb-height", tx 0 input 0: also what a wrong height given by the caller shows as);
 *    the witness commitment (primitives/block.h CheckWitnessMalleation, with the commitment
 *      expected from kSegwitHeight: "bad-witness-nonce-size", "bad-witness-merkle-match",
 *      "unexpected-witness");
 *    the weight (CheckBlockWeight, "bad-blk-weight").
 *  Returns the first failure, stage "ContextualCheckBlock". */
std::optional<RuleFailure> CheckContextualBlock(const Block& block, int32_t height, const ChainContext& context);

/** What the ConnectBlock-stage rules found (CheckConnectBlockRules). */
struct ConnectBlockOutcome {
    /** Sum of the fees (inputs minus outputs of each non-coinbase tx), satoshis; -1 when an
     *  amount rule failed before every tx was summed. */
    int64_t fee = -1;
    int64_t subsidy = 0;     // GetBlockSubsidy(height)
    int64_t sigop_cost = 0;  // GetTransactionSigOpCost summed over every tx of the block
    /** The first rule broken, in Core's order (see CheckConnectBlockRules). */
    std::optional<RuleFailure> failure;
};

/** The rules of Consensus::CheckTxInputs and ConnectBlock that the spent outputs decide, except
 *  scripts (BlockValidation evaluates those) and what needs the UTXO set (RulesNotChecked).
 *  `spent_by_tx[t]` holds one spent output per input of tx t (empty for the coinbase), `flags`
 *  the block's ScriptVerifyFlag bits (GetBlockScriptVerifyFlags: P2SH and witness sigops count
 *  only under SCRIPT_VERIFY_P2SH / SCRIPT_VERIFY_WITNESS, as in Core). Order, as ConnectBlock's
 *  loop: per tx in block order, the amounts (CheckTxInputAmounts), the accumulated fees
 *  ("bad-txns-accumulated-fee-outofrange"), then the running sigop cost ("bad-blk-sigops" at
 *  the input or output where it passes 80,000); after the loop, the coinbase's outputs against
 *  subsidy + fees ("bad-cb-amount" at the output where their running sum passes it). The first
 *  failure is kept; the sigop cost is still summed over the whole block. */
ConnectBlockOutcome CheckConnectBlockRules(const Block& block, const std::vector<std::vector<const SpentOutput*>>& spent_by_tx,
                                           int32_t height, uint32_t flags);

/** A consensus rule Core applies to the block that this engine cannot check, and why. */
struct NotChecked {
    std::string rule;    // short name, e.g. "bip30"
    std::string reason;  // what it needs that the engine does not have
};

/** The rules left unchecked for this block: "spent-outputs-unspent" (the spent outputs exist
 *  and are unspent: the UTXO set; the caller's list is taken as given) and
 *  "coinbase-maturity" (the spent coins' heights) when the block spends anything; "bip30"
 *  (the UTXO set); "bip68-sequence-locks" from kCsvHeight when some tx of version >= 2 (read as unsigned, as Core) has an
 *  input with sequence locks enabled (the spent coins' heights and times); "bip113-finality"
 *  from kCsvHeight when the median time past is missing and some tx's finality depends on it;
 *  "time-too-old" without the median time past; "time-too-new" (the node's clock);
 *  "expected-difficulty" (bad-diffbits) and "previous-block" (the header chain); "proof-of-work"
 *  when `context.skip_proof_of_work`. */
std::vector<NotChecked> RulesNotChecked(const Block& block, int32_t height, const ChainContext& context);

}  // namespace ibd
