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
//   prevouts the block alone shows        Consensus::CheckTxInputs        bad-txns-inputs-missingorspent,
//     missing, spent or immature                                          bad-txns-premature-spend-of-coinbase
//     (CheckInBlockCoins)
//   spent values and their sum in range   Consensus::CheckTxInputs        bad-txns-inputvalues-outofrange
//   inputs >= outputs                     Consensus::CheckTxInputs        bad-txns-in-belowout
//   fee in range                          Consensus::CheckTxInputs        bad-txns-fee-outofrange
//   block's fees in range                 ConnectBlock                    bad-txns-accumulated-fee-outofrange
//   sigop cost (legacy, P2SH, witness)    ConnectBlock                    bad-blk-sigops
//     <= 80,000 (GetTransactionSigOpCost)
//   coinbase <= subsidy + fees            ConnectBlock                    bad-cb-amount
//   no output overwrites an unspent coin  ConnectBlock                    bad-txns-BIP30
//     (BIP30, against a coins view)
//
// The rules of CheckBlock / CheckTransaction, the witness commitment and the weight are
// primitives/block.h's (validation/block_check.h runs them all, in Core's order). What needs more
// of the chain than this is listed by RulesNotChecked, with the reason, unless a chain walk
// (chain_validation.h) checked it and says so in ChainContext. The coin rules of CheckTxInputs
// (missing or spent prevouts, coinbase maturity) are in tx_verify.h (CheckTxInputCoins).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "primitives/block.h"
#include "util/error.h"
#include "validation/coins_view.h"

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
    /** Set by a chain walk (ChainValidation, chain_validation.h) whose coins view gave the spent
     *  outputs: each was found unspent (bad-txns-inputs-missingorspent), coinbase maturity
     *  (bad-txns-premature-spend-of-coinbase) and BIP30 (bad-txns-BIP30) were checked against
     *  it. RulesNotChecked then leaves out spent-outputs-unspent, coinbase-maturity and bip30. */
    bool coins_checked = false;
    /** Set by a chain walk: the previous block is the tip it connected, and was valid
     *  (prev-blk-not-found, bad-prevblk checked). RulesNotChecked then leaves out previous-block. */
    bool previous_block_checked = false;
};

/** Mainnet's consensus.powLimit (chainparams.cpp): 2^224 - 1, the highest target. */
inline constexpr uint32_t kPowLimitCompact = 0x1d00ffff;

/** CheckBlockHeader's proof of work (Core pow.cpp CheckProofOfWork): nBits decoded as
 *  arith_uint256::SetCompact (size byte, 23-bit mantissa, sign bit 0x00800000) must be neither
 *  negative, zero nor overflowing 256 bits and at most mainnet's powLimit (2^224 - 1), and the
 *  block hash, read as a little-endian 256-bit number (UintToArith256), at most that target;
 *  else "high-hash" (stage CheckBlockHeader, the block hash as location; byte offset 72, nBits,
 *  for a bad nBits, 0, the header, for a hash above the target), the detail saying which. Whether nBits is the difficulty the chain expects (bad-diffbits) needs the header
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
    /** Sum of the fees (inputs minus outputs of each non-coinbase tx), satoshis; -1 when a coin
     *  or amount rule failed before every tx was summed. */
    int64_t fee = -1;
    int64_t subsidy = 0;     // GetBlockSubsidy(height)
    int64_t sigop_cost = 0;  // GetTransactionSigOpCost summed over every tx of the block
    /** The first rule broken, in Core's order (see CheckConnectBlockRules). */
    std::optional<RuleFailure> failure;
};

/** For each input of each transaction of `block`, the index of the block's transaction whose
 *  txid its prevout names, or -1 (an output from before the block; the coinbase's null prevout
 *  included). `[t][i]` for tx t, input i. */
std::vector<std::vector<int32_t>> InBlockCreators(const Block& block);

/** Throws Error when a spent output given for an input that spends an output of an earlier
 *  transaction of the same block (created by tx c < t, output n within it) is not that output:
 *  its value or scriptPubKey differs. The block's bytes decide such a spent output, so a list
 *  that contradicts them is bad input (a lying node, a wrong file), not a rule the block breaks.
 *  The location is the spending input (tx, input, byte offset); the message names the output
 *  and both values. `creators` is InBlockCreators(block). */
void CheckSpentOutputsMatchBlock(const Block& block, const std::vector<std::vector<const SpentOutput*>>& spent_by_tx,
                                 const std::vector<std::vector<int32_t>>& creators);

/** Consensus::CheckTxInputs' coin rules (Core tx_verify.cpp) as far as the block alone decides
 *  them, for tx `t` (not the coinbase), before the block's earlier transactions' inputs in
 *  `spent_so_far` are added to it. In Core's order, each in input order:
 *    "bad-txns-inputs-missingorspent" (HaveInputs) at the first input whose prevout an earlier
 *      transaction of the block spent already, or that names a transaction of the block at or
 *      after t, or an output index past that transaction's outputs, or an output no coins view
 *      ever holds (CScript::IsUnspendable: OP_RETURN, or above 10,000 bytes: the block's own
 *      output, or the spent output given for one from before the block);
 *    "bad-txns-premature-spend-of-coinbase" at the first input spending an output of this
 *      block's own coinbase (0 confirmations, where 100 are needed).
 *  Outputs from before the block are taken to exist (RulesNotChecked says so) unless one of
 *  the above shows otherwise. Stage "CheckTxInputs"; location: tx, input, its byte offset. */
std::optional<RuleFailure> CheckInBlockCoins(const Block& block, size_t t, const std::vector<const SpentOutput*>& spent,
                                             const std::vector<std::vector<int32_t>>& creators,
                                             const std::unordered_set<OutPoint, OutPointHasher>& spent_so_far);

/** The rules of Consensus::CheckTxInputs and ConnectBlock that the spent outputs decide, except
 *  scripts (BlockValidation evaluates those) and what needs the UTXO set (RulesNotChecked).
 *  `spent_by_tx[t]` holds one spent output per input of tx t (empty for the coinbase), `flags`
 *  the block's ScriptVerifyFlag bits (GetBlockScriptVerifyFlags: P2SH and witness sigops count
 *  only under SCRIPT_VERIFY_P2SH / SCRIPT_VERIFY_WITNESS, as in Core). Order, as ConnectBlock's
 *  loop: per tx in block order, the amounts (CheckTxInputAmounts), the accumulated fees
 *  ("bad-txns-accumulated-fee-outofrange"), then the running sigop cost ("bad-blk-sigops" at
 *  the input or output where it passes 80,000); after the loop, the coinbase's outputs against
 *  subsidy + fees ("bad-cb-amount" at the output where their running sum passes it). The first
 *  failure is kept; the sigop cost is still summed over the whole block. With
 *  `in_block_creators` (InBlockCreators(block); null where a chain walk's coins view already
 *  checked the coins), each tx's CheckInBlockCoins comes first, before its amounts, as HaveInputs
 *  and the maturity check come first in CheckTxInputs. */
ConnectBlockOutcome CheckConnectBlockRules(const Block& block, const std::vector<std::vector<const SpentOutput*>>& spent_by_tx,
                                           int32_t height, uint32_t flags,
                                           const std::vector<std::vector<int32_t>>* in_block_creators = nullptr);

/** Core's IsBIP30Repeat (validation.cpp): the two mainnet blocks whose coinbases repeat an earlier
 *  coinbase's txid while it was unspent, before BIP30 existed: height 91,842 with hash
 *  00000000000a4d0a398161ffc163c503763b1f4360639393e0e4c8e300e0caec and 91,880 with
 *  00000000000743f190a18c5577a3c2d2a1f610ae9601ac046a38084ccb7cd721. `hash` in internal byte
 *  order. */
bool IsBip30Repeat(int32_t height, const Hash32& hash);

/** Core's BIP34Height and BIP34Hash (kernel/chainparams.cpp) and BIP34_IMPLIES_BIP30_LIMIT
 *  (validation.cpp): on the chain whose block 227,931 is that hash, unique coinbase heights
 *  (BIP34) imply BIP30 up to 1,983,702, the first height whose coinbase could repeat an earlier
 *  one's. */
inline constexpr const char* kBip34HashHex = "000000000000024b89b42a942fe0d9fea3bb44ab7bd1b19115dd6a759c0808b8";
inline constexpr int32_t kBip34ImpliesBip30Limit = 1983702;

/** Whether Core's ConnectBlock checks BIP30 for the block at `height` with hash `hash`: not for
 *  the two repeats (IsBip30Repeat); not from BIP34's height while the chain's block at height
 *  227,931 is kBip34HashHex (`bip34_block_matches`: the walk connected that block) and the height
 *  is below kBip34ImpliesBip30Limit; everywhere else. */
bool EnforceBip30(int32_t height, const Hash32& hash, bool bip34_block_matches);

/** ConnectBlock's BIP30 check (Core validation.cpp, before the transaction loop): no output of
 *  any transaction of `block` may already exist unspent in `view` (the coins before the block;
 *  an output whose scriptPubKey IsUnspendable is never in it), else "bad-txns-BIP30" ("tried to
 *  overwrite transaction": the txid and output, the coin's height), stage ConnectBlock, at that
 *  tx and output (byte offset of its nValue). The caller decides whether it applies
 *  (EnforceBip30). */
std::optional<RuleFailure> CheckBip30(const Block& block, const CoinsViewCache& view);

/** A consensus rule Core applies to the block that this engine cannot check, and why. */
struct NotChecked {
    std::string rule;    // short name, e.g. "bip30"
    std::string reason;  // what it needs that the engine does not have
};

/** The rules left unchecked for this block: "spent-outputs-unspent" (the spent outputs exist
 *  and are unspent: the UTXO set; the caller's list is taken as given) and
 *  "coinbase-maturity" (the spent coins' heights) when the block spends anything, and "bip30"
 *  (the UTXO set), none of the three when `context.coins_checked`; "bip68-sequence-locks" from
 *  kCsvHeight when some tx of version >= 2 (read as unsigned, as Core) has an
 *  input with sequence locks enabled (the spent coins' heights and times); "bip113-finality"
 *  from kCsvHeight when the median time past is missing and some tx's finality depends on it;
 *  "time-too-old" without the median time past; "time-too-new" (the node's clock);
 *  "expected-difficulty" (bad-diffbits) and, unless `context.previous_block_checked`,
 *  "previous-block" (the header chain); "proof-of-work" when `context.skip_proof_of_work`. */
std::vector<NotChecked> RulesNotChecked(const Block& block, int32_t height, const ChainContext& context);

/** What a BlockValidation without the block rules (BlockScope::block_rules false, a range of a
 *  block whose rules another call runs; block_validation.h) leaves unchecked of them, one entry
 *  per stage, each reason naming Core's function and reject reasons and saying why:
 *  "proof-of-work" (CheckBlockHeader: high-hash), "merkle-root" (CheckBlock: bad-txnmrklroot,
 *  bad-txns-duplicate), "check-block" (CheckBlock's sizes, coinbase, CheckTransaction and legacy
 *  sigop limit), "contextual-header" (ContextualCheckBlockHeader: bad-version, time-too-old),
 *  "contextual-block" (ContextualCheckBlock: finality, BIP34 height, witness commitment, weight),
 *  "tx-inputs" (Consensus::CheckTxInputs: in-block coins and amounts) and "connect-block"
 *  (ConnectBlock's fees, sigop cost and coinbase amount). Such a BlockValidation lists them
 *  first, then RulesNotChecked (which no call checks). */
std::vector<NotChecked> BlockRulesNotRun();

}  // namespace ibd
