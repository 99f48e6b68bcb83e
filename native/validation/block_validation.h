// The engine's top level: one block and the outputs it spends in, signature checks out, and
// the block's verdict against every consensus rule its bytes, height and spent outputs decide
// (block_check.h, block_rules.h), with the rules it cannot decide listed (not_checked).
// BlockValidation and ValidateBlock (block_validation.cpp).
//
// Data flow (../shared/DESIGN.md): block.raw + spent outputs -> parse and check -> every input
// through the interpreter, signature checks recorded -> packed check buffer (check_buffer.h)
// -> batch verify (batch_verify.h) -> verdicts back into the interpreter (rounds, below).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "primitives/block.h"
#include "util/error.h"
#include "util/stage_times.h"
#include "script/sighash.h"
#include "validation/block_rules.h"
#include "validation/spent_outputs.h"
#include "verify/check_buffer.h"

namespace ibd {

/** How a BlockValidation gets its signature verdicts. */
enum class VerifyMode {
    /** Predicted verdicts in rounds (the class comment): the caller verifies each round's
     *  PendingChecks() where it likes (a pool of workers) and hands them to Resolve(). */
    kRounds,
    /** Every check verified when the interpreter asks, on this thread (VerifyBatch on its one
     *  record, batch_verify.h), as Core's script checks do: one evaluation per input, no rounds
     *  and no predictions; Done() right after the constructor. For an engine inside a worker
     *  (the workers' default: measured within noise of kRounds in the same instance, and Core's
     *  way; docs/pool.md). */
    kSynchronous,
};

/** What one BlockValidation covers of its block, so that a large block can be split over
 *  workers by transaction ranges, its block-wide rules run exactly once. */
struct BlockScope {
    /** The transactions whose inputs are evaluated: [tx_begin, tx_end), clamped to the block's
     *  tx count (tx 0, the coinbase, has none). */
    uint32_t tx_begin = 0;
    uint32_t tx_end = UINT32_MAX;
    /** Runs the block-wide rules: those before any input is connected (ParseAndCheckBlock) and
     *  ConnectBlock's amounts, fees and sigop cost (CheckConnectBlockRules), and lists
     *  not_checked. Set it on exactly one range of a block. Without it only the parse and the
     *  spent outputs' alignment are checked: Result() says block_rules_checked false, its
     *  verdict covers only the range's scripts, and its not_checked says so: the block rules'
     *  stages (BlockRulesNotRun, block_rules.h: "proof-of-work", "merkle-root", ...), the rules
     *  no call checks (RulesNotChecked), and, when the range leaves inputs out,
     *  "spent-outputs-outside-range" and "scripts-outside-range". With it, a range that leaves
     *  inputs out lists "scripts-outside-range" after RulesNotChecked's entries.
     *
     *  Without it, the range also reads only what it needs: its transactions are parsed in
     *  full, the others skimmed (ParseBlock's full_begin / full_end: their shape, no scripts,
     *  no txids), and only its inputs' spent outputs are kept (from the binary form,
     *  ParseSpentOutputsBinary's slice) and compared with their prevouts; the list's entry
     *  count is still checked against the whole block's inputs. A malformed block or list
     *  throws the same Error as for the whole block (the skim makes the parse's reads), but an
     *  outpoint mismatch outside the range is left to the range with the block rules, which
     *  compares every one. So a range costs a skim of the block (measured in docs/pool.md)
     *  rather than a parse of it, and a block can be cut into as many ranges as it has work. */
    bool block_rules = true;
};

/** BlockValidation's options beyond the block and its context. */
struct ValidationOptions {
    VerifyMode verify = VerifyMode::kRounds;
    BlockScope scope;
    /** kSynchronous only. true: the BIP340 Schnorr checks are not verified when the interpreter
     *  asks but predicted valid and deferred; once every input is evaluated they are verified
     *  together on this thread (VerifyBatch, which batch-verifies them: BIP340 "Batch
     *  Verification", batch_verify.h) and the inputs they came from settled as Resolve does,
     *  all inside the constructor. Exact, not a heuristic: a Schnorr check that fails always
     *  fails its script (a BIP341 key-path signature; a non-empty BIP342 signature, whatever
     *  the opcode: SCRIPT_ERR_SCHNORR_SIG), so an input whose prediction was wrong is
     *  re-evaluated with the real verdict and ends exactly as with the verdict at once; ECDSA
     *  checks, where a false verdict can let a script go on (CHECKMULTISIG trials, NULLFAIL
     *  off), are still verified when asked. false: every check verified when asked, as Core. */
    bool batch_schnorr = true;
};

/** Which transaction input a check came from. */
struct CheckOrigin {
    uint32_t tx_index;     // 0 is the coinbase, which has no checks
    uint32_t input_index;  // within the transaction
};

/** Script evaluation of a whole block, with its signature checks verified later, in batches.
 *
 *  Every non-coinbase input runs through the interpreter (VerifyScript, interpreter.h) under
 *  the consensus flags of the block's height (GetBlockScriptVerifyFlags, consensus_flags.h). The
 *  interpreter asks for each signature verification synchronously (CheckSink, script_checks.h),
 *  but verdicts come later, from the workers. So evaluation runs in ROUNDS, with PREDICTED
 *  verdicts:
 *
 *   1. Round 1 (the constructor): every input runs VerifyScript with a recording sink. A check
 *      whose verdict is known (the verdict cache, keyed by the check's record bytes,
 *      check_buffer.h) gets that verdict; any other check is predicted VALID and appended to
 *      the round's pending checks (once per distinct record; origin = the first input that
 *      asked for it). The script goes on with the prediction.
 *   2. The caller verifies the pending checks (PendingChecks(): packed records + origins), in
 *      batches, anywhere, and hands the verdicts to Resolve(), which adds them to the cache.
 *   3. An input whose evaluation used only predictions that turned out right is FINAL: its
 *      evaluation is exactly what it would have been with the real verdicts. An input whose
 *      evaluation used a prediction that turned out wrong is re-evaluated from scratch with the
 *      cache: its script may now take another path and ask for checks not seen before (the
 *      CHECKMULTISIG walk moving on to the next key after a failed trial; `CHECKSIG NOT`;
 *      IF branches on a verdict). Those are predicted again and become the next round's
 *      pending checks. Resolve() returns true once no check is pending: every input is final.
 *
 *  A re-evaluation re-runs the script from the start, but the sighashes of the checks reached
 *  before come from the input's sighash memo (SighashMemo, script_checks.h), and their verdicts
 *  from the cache: only script execution is repeated.
 *
 *  Every round adds at least one verdict to each re-evaluated input's history, so rounds end;
 *  blocks of single-signature inputs finish in 1 round, a multisig whose signatures match
 *  keys after the first ones in 2 or more.
 *
 *  The checks Core would perform for the block are the checks of each input's FINAL evaluation
 *  (a failing trial check of a multisig walk included, as in Core): Result().checks, in block
 *  order (tx, input, then the order the script asked for them), with their verdicts. That is
 *  the workload the benchmark times. A script that fails in its final evaluation makes the
 *  block invalid: Result() names the first such input (block order) with Core's ScriptError
 *  name. Inputs are all evaluated whatever the outcome, so counts cover the whole block.
 *
 *  Script type names (coverage): InputScriptTypeName, script_type.h. */
struct ScriptTypeCoverage {
    uint32_t inputs = 0;     // inputs of this type
    uint32_t evaluated = 0;  // of which evaluated to a final result (all of them once done)
    uint32_t checks = 0;     // signature checks of their final evaluations
    /** Bytes of script the interpreter is given for them: scriptSig, the spent scriptPubKey and
     *  every witness item (the redeem, witness and tapleaf scripts among them), in bytes. */
    uint64_t script_bytes = 0;
};

/** What BlockValidation concluded about one block (once Resolve returned true).
 *
 *  The verdict covers every rule of block_rules.h and block_check.h (the ones before any input
 *  is connected throw instead: the constructor), the amounts, fees and sigop cost of
 *  ConnectBlock (CheckConnectBlockRules) and every input's script; `not_checked` lists what it
 *  does not cover (RulesNotChecked). When a ConnectBlock-stage rule and a script both fail,
 *  the rule is the verdict, as in Core with parallel script checks (the rules of each tx are
 *  checked while its scripts are queued, bad-cb-amount before the queue's result). */
/** An input whose script failed (BlockValidationResult::input_failures). */
struct InputFailure {
    uint32_t tx = 0;
    uint32_t input = 0;
    std::string input_type;
    std::string script_error;
};

struct BlockValidationResult {
    std::string hash_hex;
    uint32_t tx_count = 0;
    uint32_t inputs = 0;  // non-coinbase inputs
    /** Block verdict: no rule failed and every input's final evaluation succeeded. */
    bool valid = true;
    /** Core's reject reason of the verdict ("" when valid): a rule's ("bad-blk-sigops",
     *  "bad-txns-in-belowout", "bad-cb-amount", ...; block_rules.h), or for a script failure
     *  "mandatory-script-verify-flag-failed" (Core's CheckInputScripts). */
    std::string reject_reason;
    /** The Core function whose check decided it: "CheckTxInputs" or "ConnectBlock" ("" when valid). */
    std::string stage;
    /** When the verdict is a script failure: the first failing input's (block order) Core
     *  ScriptError name ("EVAL_FALSE", "SIG_DER", "SCRIPT_SIZE" for a scriptSig / scriptPubKey /
     *  witness script over 10,000 bytes, ... ; ScriptErrorName) and script type; "" otherwise. */
    std::string script_error;
    /** The verdict's message: "<reject reason>: <detail>" for a rule, "SCRIPT_ERR_<name>: tx T
     *  input I (<type>) fails its script in block <hash> (input at byte B)" for a script. */
    std::string error;
    /** Where the verdict's fault is: tx, input or output (-1 when not one of them) and the byte
     *  offset in block_raw of that input (its prevout), output (its nValue) or tx; -1 when valid. */
    int64_t tx_index = -1;
    int64_t input_index = -1;
    int64_t output_index = -1;
    int64_t byte_offset = -1;
    std::string input_type;
    /** Sum of the block's fees in satoshis (inputs minus outputs of every non-coinbase tx), -1
     *  when an amount rule failed before every tx was summed; the subsidy of the height
     *  (GetBlockSubsidy); the block's sigop cost (GetTransactionSigOpCost summed, limit 80,000). */
    int64_t fee = -1;
    int64_t subsidy = 0;
    int64_t sigop_cost = 0;
    /** Rules Core applies that this verdict does not cover, with the reason (RulesNotChecked). */
    std::vector<NotChecked> not_checked;
    /** Inputs whose final evaluation failed (counted whatever the verdict). */
    uint32_t failed_inputs = 0;
    /** Whether the block-wide rules ran (BlockScope::block_rules): when false, fee is -1,
     *  subsidy and sigop_cost 0, `valid` covers only the scripts of the range and not_checked
     *  lists the block rules skipped (BlockScope::block_rules). */
    bool block_rules_checked = true;
    /** The range of transactions whose inputs this result covers (BlockScope, clamped). */
    uint32_t tx_begin = 0;
    uint32_t tx_end = 0;
    /** Where the time went, in this thread (util/stage_times.h); parse_ns includes the block
     *  rules. */
    StageTimes times;
    /** times.script_ns by the script type of the input evaluated (as in coverage), ns: what
     *  the cost model's per-input script cost by type is measured from. */
    std::map<std::string, int64_t> script_ns_by_type;
    /** Each of them, in block order: tx index, input index, script type name (as in
     *  coverage) and ScriptErrorName of its ScriptError ("EVAL_FALSE", ...). The first is the
     *  one a mandatory-script-verify-flag-failed verdict names. */
    std::vector<InputFailure> input_failures;
    /** One byte per input the result covers (the range's non-coinbase inputs, block order: tx,
     *  then input): 1 its final evaluation succeeded, 0 it failed (one of input_failures). */
    std::vector<uint8_t> input_verdicts;
    /** Per script type name (see above). */
    std::map<std::string, ScriptTypeCoverage> coverage;
    /** The final checks: packed records (check_buffer.h), origin and verdict of each. */
    std::vector<uint8_t> checks;
    std::vector<CheckOrigin> origins;
    std::vector<uint8_t> verdicts;
    uint32_t ecdsa_checks = 0;
    uint32_t schnorr_checks = 0;
    /** Rounds of pending checks the caller verified (Resolve calls with checks); 0 when the
     *  block asked for no signature check at all. */
    uint32_t rounds = 0;
    /** VerifyScript runs in total (first evaluations + re-evaluations). */
    uint32_t evaluations = 0;
    /** Distinct records verified over all rounds (pending checks handed out). */
    uint32_t verified_records = 0;
    /** Signature hashes computed over all evaluations. Each input keeps its sighashes while it
     *  waits for verdicts (SighashMemo, script_checks.h), so a re-evaluation computes only the
     *  sighashes of checks it had not reached before: normally one per distinct (hash type,
     *  scriptCode) of the input, however many rounds it needs. */
    uint32_t sighashes = 0;
    /** Those sighashes by kind (legacy, BIP143, BIP341), with the bytes of their messages
     *  (sighash.h's message sizes): the block's sighash workload, for the projection's cost
     *  model. */
    SighashCounts sighash_counts;
    /** Bytes hashed by PrecomputedTxData::Init (PrecomputeBytes): [0] for the transactions
     *  with witnesses and no BIP341 spend (BIP143 hashes), [1] for those spending a v1
     *  witness output (BIP143 and BIP341 hashes). */
    uint64_t precompute_bytes[2] = {0, 0};
};

class BlockValidation {
public:
    /** Parses `block_raw` (network serialization, BIP144 for segwit transactions), recomputes
     *  the block hash and merkle root and compares them with `expected_hash_hex` (if non-empty)
     *  and the header, checks that `spent` has one entry per non-coinbase input whose outpoint
     *  matches the input's prevout, copies what it needs (the arguments need not outlive the
     *  call), then runs round 1.
     *
     *  `height` is the block's mainnet height (required, >= 0). It selects the consensus flags
     *  (consensus_flags.h), the subsidy and the height rules (block_rules.h) and, from 227,931
     *  (BIP34), requires the coinbase scriptSig to start with SerializeScriptHeight(height)
     *  (Core's ContextualCheckBlock, "bad-cb-height"), which also cross-checks the height given.
     *  Below 227,931 the height cannot be cross-checked: a wrong one there only changes the
     *  flags (DERSIG and later) and the rules by height. `context` optionally gives the median
     *  time past (ChainContext, block_rules.h).
     *
     *  Throws Error naming block hash, tx index, input or output index and byte offset for a
     *  truncated or malformed block, a hash mismatch, a negative height or a spent-outputs list
     *  that does not match (no stage), and for a block breaking a rule of CheckBlock,
     *  ContextualCheckBlockHeader or ContextualCheckBlock (ParseAndCheckBlock, block_check.h:
     *  a BlockRejected, with Error::stage() and Error::reject_reason() set and the rules not
     *  checked for the block). A rule of CheckTxInputs or ConnectBlock,
     *  or a script failure, is not an Error: it is the block verdict in Result(). */
    BlockValidation(const uint8_t* block_raw, size_t block_len, const std::vector<SpentOutputEntry>& spent,
                    const std::string& expected_hash_hex, int32_t height, const ChainContext& context = {},
                    const ValidationOptions& options = {});
    /** The same with the spent outputs in their binary form (ParseSpentOutputsBinary,
     *  spent_outputs.h), read here: all of them for the block rules, only the range's (BlockScope)
     *  otherwise. Also throws the list's Error (wrong magic, truncated entry, ...: before the
     *  block is read, as above). The list's reading counts as parse time (StageTimes). Or
     *  `spent_binary` is the block's rev record from a node's blocks/rev?????.dat (it starts
     *  with mainnet's message start): read by SpentOutputsFromUndoRecord (spent_outputs.h),
     *  whose Errors (checksum mismatch, coin counts) it throws; that time counts as spent_ns. */
    BlockValidation(const uint8_t* block_raw, size_t block_len, const uint8_t* spent_binary, size_t spent_len,
                    const std::string& expected_hash_hex, int32_t height, const ChainContext& context = {},
                    const ValidationOptions& options = {});
    /** The same for a block already parsed (ParseBlock, primitives/block.h), which it takes
     *  over: every check and throw of the constructor above but the parse and the expected hash
     *  (CheckParsedBlock, block_check.h). For ChainValidation (chain_validation.h), which reads
     *  the transactions to find their prevouts in its coins view before it can give `spent`.
     *  The rules' time counts as parse time (StageTimes). */
    BlockValidation(Block block, const std::vector<SpentOutputEntry>& spent, int32_t height,
                    const ChainContext& context = {}, const ValidationOptions& options = {});
    ~BlockValidation();
    BlockValidation(const BlockValidation&) = delete;
    BlockValidation& operator=(const BlockValidation&) = delete;

    /** The current round's pending checks: packed records (check_buffer.h), one origin each,
     *  PendingCount() records. Empty when done. Valid until the next Resolve. */
    const std::vector<uint8_t>& PendingChecks() const;
    const std::vector<CheckOrigin>& PendingOrigins() const;
    uint32_t PendingCount() const;

    /** Applies one verdict byte per pending check (`n` must equal PendingCount(); a byte other
     *  than Verdict::kValid counts as invalid), re-evaluates the inputs whose predictions were
     *  wrong, and returns true when no check is pending (every input final). Throws Error when
     *  `n` does not match. */
    bool Resolve(const uint8_t* verdicts, size_t n);
    bool Done() const;

    /** Verifies every pending check on this thread (VerifyBatch, batch_verify.h: its Schnorr
     *  checks batch-verified) and resolves them, round after round, until Done(); the time goes
     *  to times.verify_ns. What ValidateBlock runs, and the constructor in kSynchronous mode
     *  (the deferred Schnorr checks). Throws Error when VerifyBatch finds a record malformed
     *  (not a record this class wrote), naming the block and the check's input. */
    void VerifyPendingHere();

    /** The block's result; throws Error while checks are still pending. */
    BlockValidationResult Result() const;

    struct Impl;

private:
    /** Round 1 and what it needs, once impl_->block is parsed and checked (the parse and the
     *  rules timed from `parse_started`, MonotonicNanos): `spent[0 .. spent_count)` are the
     *  entries of the inputs from transaction `spent_tx_begin` on (1 and all of them for the
     *  whole block), copied. */
    void Start(const SpentOutputEntry* spent, size_t spent_count, size_t spent_tx_begin, int32_t height,
               const ChainContext& context, int64_t parse_started);
    /** Reads the entries [first, first + count) of the spent outputs list and sets `total` to
     *  its entry count (throwing the list's Error). */
    using SpentReader = std::function<std::vector<SpentOutputEntry>(size_t first, size_t count, size_t& total)>;
    /** A range without the block rules (BlockScope::block_rules): checks the height and the
     *  expected hash, parses the range's transactions and skims the others, reads and aligns
     *  the range's spent outputs (AlignSpentOutputs, block_check.h), then Start. */
    void StartRange(const uint8_t* block_raw, size_t block_len, const std::string& expected_hash_hex, int32_t height,
                    const ChainContext& context, int64_t parse_started, const SpentReader& read_spent);
    std::unique_ptr<Impl> impl_;
};

/** Runs a BlockValidation to the end on this thread, verifying each round's pending checks
 *  with VerifyBatch (batch_verify.h), or each check as it is asked for with
 *  VerifyMode::kSynchronous (the same final checks, verdicts and block verdict). For workers,
 *  tools and tests. Throws as the BlockValidation constructor. */
BlockValidationResult ValidateBlock(const uint8_t* block_raw, size_t block_len,
                                    const std::vector<SpentOutputEntry>& spent, const std::string& expected_hash_hex,
                                    int32_t height, const ChainContext& context = {},
                                    const ValidationOptions& options = {});

/** ValidateBlock with the spent outputs in their binary form (the BlockValidation constructor
 *  that takes it): what the wasm bindings' validateBlock runs in the workers. */
BlockValidationResult ValidateBlock(const uint8_t* block_raw, size_t block_len, const uint8_t* spent_binary,
                                    size_t spent_len, const std::string& expected_hash_hex, int32_t height,
                                    const ChainContext& context = {}, const ValidationOptions& options = {});

/** ValidateBlock of a parsed block (the BlockValidation constructor that takes a Block). */
BlockValidationResult ValidateBlock(Block block, const std::vector<SpentOutputEntry>& spent, int32_t height,
                                    const ChainContext& context = {}, const ValidationOptions& options = {});

}  // namespace ibd
