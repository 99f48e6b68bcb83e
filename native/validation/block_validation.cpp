// Implementation of BlockValidation and ValidateBlock (block_validation.h): every input through
// VerifyScript, in rounds with predicted verdicts; the design is documented at the class there.
#include "validation/block_validation.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "primitives/block.h"
#include "script/consensus_flags.h"
#include "script/interpreter.h"
#include "script/script.h"
#include "script/script_checks.h"
#include "script/script_type.h"
#include "script/sighash.h"
#include "util/error.h"
#include "undo/block_undo.h"
#include "util/stage_times.h"
#include "validation/block_check.h"
#include "validation/block_rules.h"
#include "verify/batch_verify.h"
#include "verify/check_buffer.h"

namespace ibd {

namespace {

bool IsP2TR(const std::vector<uint8_t>& spk) {
    return spk.size() == 34 && spk[0] == OP_1 && spk[1] == 32;
}

/** One input's evaluation state. */
struct InputState {
    uint32_t tx = 0;
    uint32_t input = 0;
    uint16_t type = 0;                 // index into Impl::type_names
    bool final = false;
    bool ok = false;
    ScriptError serror = ScriptError::OK;
    int64_t script_ns = 0;             // its evaluations' time less sighash and verify (StageTimes::script_ns)
    std::vector<std::string> checks;   // record bytes of each check of the latest evaluation, in order
    std::vector<bool> predicted;       // whether that check's verdict was predicted
    /** Sighashes of this input's checks, kept while the input waits for verdicts so that a
     *  re-evaluation does not recompute the sighash of every earlier check (freed once final). */
    std::unique_ptr<SighashMemo> memo;
};

/** Bytes of scriptCode/key data all sighash memos of one block may hold together. */
constexpr size_t kSighashMemoBudget = size_t{64} << 20;

}  // namespace

struct BlockValidation::Impl {
    Block block;
    int32_t height = 0;
    uint32_t flags = 0;
    ConnectBlockOutcome connect;          // the ConnectBlock-stage rules (block_rules.h)
    std::vector<NotChecked> not_checked;  // RulesNotChecked
    std::vector<SpentOutput> spent_store;                      // copies, in input order
    std::vector<std::vector<const SpentOutput*>> spent_by_tx;  // into spent_store
    std::vector<std::unique_ptr<PrecomputedTxData>> pre;       // per tx (null for the coinbase)
    size_t memo_budget = kSighashMemoBudget;  // before `inputs`: their memos give it back when destroyed
    std::vector<InputState> inputs;
    std::vector<std::string> type_names;

    std::unordered_map<std::string, uint8_t> cache;     // record bytes -> verdict
    std::unordered_map<std::string, uint32_t> pending;  // record bytes -> index in this round
    std::vector<uint8_t> pending_checks;
    std::vector<CheckOrigin> pending_origins;
    std::vector<size_t> waiting;  // inputs whose latest evaluation used predictions

    uint32_t rounds = 0;
    uint32_t evaluations = 0;
    uint32_t verified_records = 0;
    uint32_t sighashes = 0;
    SighashCounts sighash_counts;       // by kind, with message bytes (SighashMemo::counts)
    uint64_t precompute_bytes[2] = {0, 0};  // PrecomputedTxData: [0] BIP143 txs, [1] BIP341 txs

    ValidationOptions options;
    uint32_t tx_begin = 0;  // options.scope clamped to the block
    uint32_t tx_end = 0;
    StageTimes times;

    void Evaluate(size_t k);
};

namespace {

/** The round's sink: known verdicts from the cache, otherwise "valid" predicted and the record
 *  added to the round's pending checks. */
class RecordingSink : public CheckSink {
public:
    RecordingSink(BlockValidation::Impl& impl, InputState& in) : impl_(impl), in_(in) {}
    bool Check(CheckType type, const Hash32& msg, const uint8_t* pubkey, size_t pubkey_len, const uint8_t* sig,
               size_t sig_len) override {
        // A record cannot carry these lengths (check_buffer.h); no such key or signature
        // verifies (TransactionSignatureChecker rejects such keys before asking anyway).
        if (pubkey_len > 0xff || sig_len > 0xffff) return false;
        std::vector<uint8_t> rec;
        AppendCheckRecord(rec, type, pubkey, pubkey_len, sig, sig_len, msg);
        std::string key(reinterpret_cast<const char*>(rec.data()), rec.size());
        const auto hit = impl_.cache.find(key);
        if (hit != impl_.cache.end()) {
            in_.checks.push_back(std::move(key));
            in_.predicted.push_back(false);
            return hit->second == static_cast<uint8_t>(Verdict::kValid);
        }
        const bool deferred = type == CheckType::kSchnorr && impl_.options.batch_schnorr;
        if (impl_.options.verify == VerifyMode::kSynchronous && !deferred) {
            // As Core: the verdict now, on this thread (and cached, for a repeat of the check).
            uint8_t verdict = static_cast<uint8_t>(Verdict::kInvalid);
            const int64_t started = MonotonicNanos();
            const BatchStatus st = VerifyBatch(rec.data(), rec.size(), 1, &verdict);
            impl_.times.verify_ns += MonotonicNanos() - started;
            ++impl_.verified_records;
            // A record this sink wrote is well formed; were it not, the check fails.
            if (st.error != 0) verdict = static_cast<uint8_t>(Verdict::kInvalid);
            if (verdict != static_cast<uint8_t>(Verdict::kValid)) verdict = static_cast<uint8_t>(Verdict::kInvalid);
            impl_.cache.emplace(key, verdict);
            in_.checks.push_back(std::move(key));
            in_.predicted.push_back(false);
            return verdict == static_cast<uint8_t>(Verdict::kValid);
        }
        if (impl_.pending.find(key) == impl_.pending.end()) {
            impl_.pending.emplace(key, static_cast<uint32_t>(impl_.pending_origins.size()));
            impl_.pending_checks.insert(impl_.pending_checks.end(), rec.begin(), rec.end());
            impl_.pending_origins.push_back({in_.tx, in_.input});
        }
        in_.checks.push_back(std::move(key));
        in_.predicted.push_back(true);
        return true;  // predicted valid
    }

private:
    BlockValidation::Impl& impl_;
    InputState& in_;
};

}  // namespace

void BlockValidation::Impl::Evaluate(size_t k) {
    InputState& in = inputs[k];
    in.checks.clear();
    in.predicted.clear();
    const Transaction& tx = block.txs[in.tx];
    const TxIn& txin = tx.vin[in.input];
    const SpentOutput& out = *spent_by_tx[in.tx][in.input];
    RecordingSink sink(*this, in);
    if (!in.memo) {
        in.memo = std::make_unique<SighashMemo>(&memo_budget);
        in.memo->counts = &sighash_counts;
    }
    const uint32_t computed_before = in.memo->computed;
    const int64_t sighash_before = in.memo->sighash_ns;
    int64_t kind_before[3];
    for (int k = 0; k < 3; ++k) kind_before[k] = in.memo->sighash_kind_ns[k];
    const int64_t verify_before = times.verify_ns;
    const int64_t started = MonotonicNanos();
    TransactionSignatureChecker checker(tx, in.input, out.value, *pre[in.tx], sink, in.memo.get());
    in.serror = ScriptError::OK;
    const Stack* witness = txin.witness.empty() ? nullptr : &txin.witness;
    in.ok = VerifyScript(txin.script_sig, out.script_pubkey, witness, flags, checker, &in.serror);
    const int64_t sighash_ns = in.memo->sighash_ns - sighash_before;
    times.sighash_ns += sighash_ns;
    for (int k = 0; k < 3; ++k) times.sighash_kind_ns[k] += in.memo->sighash_kind_ns[k] - kind_before[k];
    const int64_t script_ns = MonotonicNanos() - started - sighash_ns - (times.verify_ns - verify_before);
    times.script_ns += script_ns;
    in.script_ns += script_ns;
    ++evaluations;
    sighashes += in.memo->computed - computed_before;
    in.final = std::none_of(in.predicted.begin(), in.predicted.end(), [](bool p) { return p; });
    if (in.final) {
        in.memo.reset();
    } else {
        waiting.push_back(k);
    }
}

BlockValidation::BlockValidation(const uint8_t* block_raw, size_t block_len, const std::vector<SpentOutputEntry>& spent,
                                 const std::string& expected_hash_hex, int32_t height, const ChainContext& context,
                                 const ValidationOptions& options)
    : impl_(std::make_unique<Impl>()) {
    impl_->options = options;
    const int64_t parse_started = MonotonicNanos();
    if (!options.scope.block_rules) {
        StartRange(block_raw, block_len, expected_hash_hex, height, context, parse_started,
                   [&spent](size_t first, size_t count, size_t& total) {
                       total = spent.size();
                       const size_t begin = std::min(first, spent.size());
                       const size_t end = begin + std::min(count, spent.size() - begin);
                       return std::vector<SpentOutputEntry>(spent.begin() + begin, spent.begin() + end);
                   });
        return;
    }
    std::vector<std::vector<const SpentOutput*>> by_tx;
    impl_->block = ParseAndCheckBlock(block_raw, block_len, spent, expected_hash_hex, height, context, by_tx,
                                      options.scope.block_rules);
    Start(spent.data(), spent.size(), 1, height, context, parse_started);
}

BlockValidation::BlockValidation(const uint8_t* block_raw, size_t block_len, const uint8_t* spent_binary,
                                 size_t spent_len, const std::string& expected_hash_hex, int32_t height,
                                 const ChainContext& context, const ValidationOptions& options)
    : impl_(std::make_unique<Impl>()) {
    impl_->options = options;
    // Decoding the list is its own stage (spent_ns), taken out of parse_ns, which Start measures
    // from parse_started.
    int64_t spent_ns = 0;
    // A rev record (a node's undo data) or a /rest/spenttxouts body is turned into the binary
    // form first.
    // (Before parse_started: its time is spent_ns's alone.)
    std::vector<uint8_t> from_undo;
    int64_t undo_ns = 0;
    const bool rest = spent_len >= 4 && std::memcmp(spent_binary, kSpentTxOutsMagic, 4) == 0;
    if (rest || LooksLikeUndoRecord(spent_binary, spent_len)) {
        const int64_t started = MonotonicNanos();
        from_undo = rest ? SpentOutputsFromSpentTxOuts(block_raw, block_len, spent_binary, spent_len)
                         : SpentOutputsFromUndoRecord(block_raw, block_len, spent_binary, spent_len);
        undo_ns = MonotonicNanos() - started;
        spent_binary = from_undo.data();
        spent_len = from_undo.size();
    }
    const auto decode = [&](size_t first, size_t count, size_t* total) {
        const int64_t started = MonotonicNanos();
        std::vector<SpentOutputEntry> entries = ParseSpentOutputsBinary(spent_binary, spent_len, first, count, total);
        spent_ns += MonotonicNanos() - started;
        return entries;
    };
    const int64_t parse_started = MonotonicNanos();
    if (!options.scope.block_rules) {
        // The whole list is read (and its errors thrown) before the block, as for a whole block.
        size_t total = 0;
        decode(0, 0, &total);
        StartRange(block_raw, block_len, expected_hash_hex, height, context, parse_started,
                   [&](size_t first, size_t count, size_t& n) { return decode(first, count, &n); });
    } else {
        const std::vector<SpentOutputEntry> spent = ParseSpentOutputsBinary(spent_binary, spent_len);
        spent_ns = MonotonicNanos() - parse_started;
        std::vector<std::vector<const SpentOutput*>> by_tx;
        impl_->block = ParseAndCheckBlock(block_raw, block_len, spent, expected_hash_hex, height, context, by_tx, true);
        Start(spent.data(), spent.size(), 1, height, context, parse_started);
    }
    impl_->times.spent_ns += spent_ns + undo_ns;
    impl_->times.parse_ns -= spent_ns;
}

BlockValidation::BlockValidation(Block block, const std::vector<SpentOutputEntry>& spent, int32_t height,
                                 const ChainContext& context, const ValidationOptions& options)
    : impl_(std::make_unique<Impl>()) {
    impl_->options = options;
    const int64_t parse_started = MonotonicNanos();
    std::vector<std::vector<const SpentOutput*>> by_tx;
    CheckParsedBlock(block, spent, height, context, by_tx, options.scope.block_rules);
    impl_->block = std::move(block);
    Start(spent.data(), spent.size(), 1, height, context, parse_started);
}

void BlockValidation::StartRange(const uint8_t* block_raw, size_t block_len, const std::string& expected_hash_hex,
                                 int32_t height, const ChainContext& context, int64_t parse_started,
                                 const SpentReader& read_spent) {
    Impl& m = *impl_;
    if (height < 0) throw Error("block height is negative: " + std::to_string(height), Location{});
    CheckExpectedHash(block_raw, block_len, expected_hash_hex);
    // Only the range's transactions in full; the others skimmed (their input counts and
    // offsets are all the range needs of them).
    const size_t begin = std::max<uint32_t>(1, m.options.scope.tx_begin);
    m.block = ParseBlock(block_raw, block_len, begin, m.options.scope.tx_end);
    const size_t end = std::max(begin, std::min<size_t>(m.options.scope.tx_end, m.block.txs.size()));
    const size_t first = InputsBefore(m.block, begin);
    size_t total = 0;
    const std::vector<SpentOutputEntry> spent = read_spent(first, InputsBefore(m.block, end) - first, total);
    std::vector<std::vector<const SpentOutput*>> by_tx;
    AlignSpentOutputs(m.block, spent.data(), spent.size(), first, total, begin, end, by_tx);
    Start(spent.data(), spent.size(), begin, height, context, parse_started);
}

void BlockValidation::Start(const SpentOutputEntry* spent, size_t spent_count, size_t spent_tx_begin, int32_t height,
                            const ChainContext& context, int64_t parse_started) {
    Impl& m = *impl_;
    m.height = height;
    m.flags = GetBlockScriptVerifyFlags(m.block.hash, height);
    const uint32_t tx_count = static_cast<uint32_t>(m.block.txs.size());
    m.tx_end = std::min(m.options.scope.tx_end, tx_count);
    m.tx_begin = std::min(m.options.scope.tx_begin, m.tx_end);
    // The inputs evaluated are those of transactions [first, tx_end): the coinbase has none. A
    // range with none and no block rules validates nothing, and says so by its counts (inputs 0,
    // blockRulesChecked false); bench/pool/range-plan.mjs times such calls for a range's fixed cost.
    const uint32_t first = std::max<uint32_t>(m.tx_begin, 1);
    // Own copies of the spent outputs (the caller's list need not outlive the constructor): the
    // entries of the inputs of transactions spent_tx_begin onwards, as far as they go.
    m.spent_store.reserve(spent_count);
    for (size_t k = 0; k < spent_count; ++k) m.spent_store.push_back(spent[k].out);
    m.spent_by_tx.assign(m.block.txs.size(), {});
    m.pre.resize(m.block.txs.size());
    size_t next = 0;
    for (size_t t = spent_tx_begin; t < m.block.txs.size() && next < spent_count; ++t) {
        for (size_t i = 0; i < m.block.txs[t].vin.size() && next < spent_count; ++i, ++next) {
            m.spent_by_tx[t].push_back(&m.spent_store[next]);
        }
    }
    m.times.parse_ns += MonotonicNanos() - parse_started;
    const int64_t rules_started = MonotonicNanos();
    if (m.options.scope.block_rules) {
        // The coins a chain walk's view gave were checked there (ChainContext::coins_checked);
        // otherwise what the block alone decides of them is checked here.
        std::vector<std::vector<int32_t>> creators;
        if (!context.coins_checked) {
            creators = InBlockCreators(m.block);
            CheckSpentOutputsMatchBlock(m.block, m.spent_by_tx, creators);
        }
        m.connect = CheckConnectBlockRules(m.block, m.spent_by_tx, height, m.flags, context.coins_checked ? nullptr : &creators);
        m.not_checked = RulesNotChecked(m.block, height, context);
    } else {
        // A verdict never claims more than was checked: the block rules this call skipped, then
        // what no call checks (RulesNotChecked reads only what a skim keeps: versions, sequences,
        // lock times, input counts). Its proof-of-work entry is the skipped one's.
        m.not_checked = BlockRulesNotRun();
        for (NotChecked& n : RulesNotChecked(m.block, height, context)) {
            if (n.rule != "proof-of-work") m.not_checked.push_back(std::move(n));
        }
    }
    const bool holds_none = first >= m.tx_end && tx_count > 1;
    const bool leaves_out = holds_none || first > 1 || m.tx_end < tx_count;
    if (leaves_out && !m.options.scope.block_rules) {
        m.not_checked.push_back({"spent-outputs-outside-range",
                                 "the outpoints of the spent outputs given for the inputs outside this call's range "
                                 "against those inputs' prevouts (the list's entry count is checked): the range with the "
                                 "block rules compares every one"});
    }
    if (holds_none) {
        m.not_checked.push_back({"scripts-outside-range",
                                 "the scripts of every input: this call's range holds none of the block's " +
                                     std::to_string(tx_count) + " transactions' inputs, so it checked " +
                                     (m.options.scope.block_rules ? "the block rules alone"
                                                                  : "the block's parse and its spent outputs' count alone") +
                                     " (a block's ranges of inputs are validated in calls of their own, which "
                                     "workers/block-jobs.mjs joins)"});
    } else if (leaves_out) {
        m.not_checked.push_back({"scripts-outside-range",
                                 "the scripts of the inputs of transactions outside [" + std::to_string(first) + ", " +
                                     std::to_string(m.tx_end) + ") of the block's " + std::to_string(tx_count) +
                                     ": this call evaluated its range's only (a block's other ranges are validated "
                                     "in calls of their own, which workers/block-jobs.mjs joins)"});
    }
    m.times.parse_ns += MonotonicNanos() - rules_started;
    std::unordered_map<std::string, uint16_t> type_index;
    for (size_t t = std::max<uint32_t>(m.tx_begin, 1); t < m.tx_end; ++t) {
        const Transaction& tx = m.block.txs[t];
        bool any_taproot = false;
        for (const SpentOutput* out : m.spent_by_tx[t]) any_taproot = any_taproot || IsP2TR(out->script_pubkey);
        // Core's PrecomputedTransactionData::Init: BIP143 hashes for transactions with
        // witnesses, BIP341 ones when some spent output is a v1 witness program.
        const int64_t pre_started = MonotonicNanos();
        m.pre[t] = std::make_unique<PrecomputedTxData>();
        m.pre[t]->Init(tx, m.spent_by_tx[t], tx.HasWitness(), any_taproot);
        const int64_t pre_ns = MonotonicNanos() - pre_started;
        m.times.sighash_ns += pre_ns;
        m.times.sighash_kind_ns[any_taproot ? 2 : tx.HasWitness() ? 1 : 0] += pre_ns;
        if (any_taproot) {
            m.precompute_bytes[1] += PrecomputeBytes(tx, m.spent_by_tx[t], tx.HasWitness(), true);
        } else if (tx.HasWitness()) {
            m.precompute_bytes[0] += PrecomputeBytes(tx, m.spent_by_tx[t], true, false);
        }
        for (size_t i = 0; i < tx.vin.size(); ++i) {
            InputState s;
            s.tx = static_cast<uint32_t>(t);
            s.input = static_cast<uint32_t>(i);
            const std::string name = InputScriptTypeName(tx.vin[i], m.spent_by_tx[t][i]->script_pubkey);
            const auto [it, fresh] = type_index.emplace(name, static_cast<uint16_t>(m.type_names.size()));
            if (fresh) m.type_names.push_back(name);
            s.type = it->second;
            m.inputs.push_back(std::move(s));
        }
    }
    // Round 1 (or, synchronous, the only evaluation). Every input is evaluated whatever the
    // rules found, so counts cover the block.
    for (size_t k = 0; k < m.inputs.size(); ++k) m.Evaluate(k);
    // Synchronous with batch_schnorr: the deferred Schnorr checks, verified together here.
    if (m.options.verify == VerifyMode::kSynchronous) VerifyPendingHere();
}

void BlockValidation::VerifyPendingHere() {
    std::vector<uint8_t> verdicts;
    while (!Done()) {
        verdicts.assign(PendingCount(), static_cast<uint8_t>(Verdict::kInvalid));
        const int64_t started = MonotonicNanos();
        const BatchStatus st = VerifyBatch(PendingChecks().data(), PendingChecks().size(), PendingCount(), verdicts.data());
        impl_->times.verify_ns += MonotonicNanos() - started;
        if (st.error != 0) {
            Location at;
            at.block_hash = impl_->block.hash_hex;
            at.tx_index = PendingOrigins()[st.error_record].tx_index;
            at.input_index = PendingOrigins()[st.error_record].input_index;
            throw Error("VerifyBatch: malformed record " + std::to_string(st.error_record) + " (error " +
                            std::to_string(st.error) + ")",
                        at);
        }
        Resolve(verdicts.data(), verdicts.size());
    }
}

BlockValidation::~BlockValidation() = default;

const std::vector<uint8_t>& BlockValidation::PendingChecks() const { return impl_->pending_checks; }
const std::vector<CheckOrigin>& BlockValidation::PendingOrigins() const { return impl_->pending_origins; }
uint32_t BlockValidation::PendingCount() const { return static_cast<uint32_t>(impl_->pending_origins.size()); }
bool BlockValidation::Done() const { return impl_->pending_origins.empty(); }

bool BlockValidation::Resolve(const uint8_t* verdicts, size_t n) {
    Impl& m = *impl_;
    if (n != m.pending_origins.size()) {
        Location at;
        at.block_hash = m.block.hash_hex;
        throw Error("Resolve: " + std::to_string(n) + " verdicts for " + std::to_string(m.pending_origins.size()) +
                        " pending checks",
                    at);
    }
    if (n == 0) return true;
    ++m.rounds;
    m.verified_records += static_cast<uint32_t>(n);
    for (auto& [key, index] : m.pending) {
        m.cache[key] = verdicts[index] == static_cast<uint8_t>(Verdict::kValid) ? static_cast<uint8_t>(Verdict::kValid)
                                                                               : static_cast<uint8_t>(Verdict::kInvalid);
    }
    m.pending.clear();
    m.pending_checks.clear();
    m.pending_origins.clear();
    std::vector<size_t> waiting;
    waiting.swap(m.waiting);
    for (size_t k : waiting) {
        InputState& in = m.inputs[k];
        // Every check of the evaluation is now known. If each predicted one was indeed valid,
        // the evaluation is the one the real verdicts give: final.
        bool right = true;
        for (size_t c = 0; c < in.checks.size() && right; ++c) {
            if (in.predicted[c]) right = m.cache.at(in.checks[c]) == static_cast<uint8_t>(Verdict::kValid);
        }
        if (right) {
            std::fill(in.predicted.begin(), in.predicted.end(), false);
            in.final = true;
            in.memo.reset();
        } else {
            m.Evaluate(k);  // with the cache; may add pending checks and wait again
        }
    }
    return m.pending_origins.empty();
}

BlockValidationResult BlockValidation::Result() const {
    const Impl& m = *impl_;
    Location at;
    at.block_hash = m.block.hash_hex;
    if (!m.pending_origins.empty()) {
        throw Error("BlockValidation::Result: " + std::to_string(m.pending_origins.size()) +
                        " checks are still pending (call Resolve with their verdicts)",
                    at);
    }
    BlockValidationResult r;
    r.hash_hex = m.block.hash_hex;
    r.tx_count = static_cast<uint32_t>(m.block.txs.size());
    r.inputs = static_cast<uint32_t>(m.inputs.size());
    r.rounds = m.rounds;
    r.evaluations = m.evaluations;
    r.verified_records = m.verified_records;
    r.sighashes = m.sighashes;
    r.sighash_counts = m.sighash_counts;
    r.precompute_bytes[0] = m.precompute_bytes[0];
    r.precompute_bytes[1] = m.precompute_bytes[1];
    r.fee = m.connect.fee;
    r.subsidy = m.connect.subsidy;
    r.sigop_cost = m.connect.sigop_cost;
    r.not_checked = m.not_checked;
    r.block_rules_checked = m.options.scope.block_rules;
    r.tx_begin = m.tx_begin;
    r.tx_end = m.tx_end;
    r.times = m.times;
    if (!r.block_rules_checked) {
        r.fee = -1;
        r.subsidy = 0;
        r.sigop_cost = 0;
    }
    if (m.connect.failure) {
        const RuleFailure& f = *m.connect.failure;
        r.valid = false;
        r.reject_reason = f.reject_reason;
        r.stage = f.stage;
        r.error = f.message() + " (tx " + std::to_string(f.where.tx_index) +
                  (f.where.input_index >= 0 ? " input " + std::to_string(f.where.input_index) : "") +
                  (f.where.output_index >= 0 ? " output " + std::to_string(f.where.output_index) : "") +
                  " in block " + m.block.hash_hex + ", byte " + std::to_string(f.where.byte_offset) + ")";
        r.tx_index = f.where.tx_index;
        r.input_index = f.where.input_index;
        r.output_index = f.where.output_index;
        r.byte_offset = f.where.byte_offset;
    }
    bool script_failed = false;
    r.input_verdicts.reserve(m.inputs.size());
    for (const InputState& in : m.inputs) {
        r.input_verdicts.push_back(in.ok ? 1 : 0);
        const std::string& type = m.type_names[in.type];
        ScriptTypeCoverage& cov = r.coverage[type];
        r.script_ns_by_type[type] += in.script_ns;
        ++cov.inputs;
        const TxIn& txin = m.block.txs[in.tx].vin[in.input];
        cov.script_bytes += txin.script_sig.size() + m.spent_by_tx[in.tx][in.input]->script_pubkey.size();
        for (const auto& item : txin.witness) cov.script_bytes += item.size();
        if (in.final) ++cov.evaluated;
        cov.checks += static_cast<uint32_t>(in.checks.size());
        for (const std::string& key : in.checks) {
            r.checks.insert(r.checks.end(), key.begin(), key.end());
            r.origins.push_back({in.tx, in.input});
            r.verdicts.push_back(m.cache.at(key));
            if (static_cast<uint8_t>(key[0]) == static_cast<uint8_t>(CheckType::kSchnorr)) {
                ++r.schnorr_checks;
            } else {
                ++r.ecdsa_checks;
            }
        }
        if (!in.ok) {
            ++r.failed_inputs;
            r.input_failures.push_back({in.tx, in.input, type, ScriptErrorName(in.serror)});
            if (!script_failed && !m.connect.failure) {
                r.valid = false;
                r.reject_reason = "mandatory-script-verify-flag-failed";
                r.stage = "ConnectBlock";
                r.script_error = ScriptErrorName(in.serror);
                r.tx_index = in.tx;
                r.input_index = in.input;
                r.input_type = type;
                r.byte_offset = static_cast<int64_t>(m.block.txs[in.tx].vin[in.input].offset);
                r.error = "SCRIPT_ERR_" + r.script_error + ": tx " + std::to_string(in.tx) + " input " +
                          std::to_string(in.input) + " (" + type + ") fails its script in block " + m.block.hash_hex +
                          " (input at byte " + std::to_string(r.byte_offset) + ")";
            }
            script_failed = true;
        }
    }
    return r;
}

namespace {

/** Every round of `v` verified with VerifyBatch on this thread (none pending for
 *  VerifyMode::kSynchronous), then its result. */
BlockValidationResult RunToEnd(BlockValidation& v) {
    v.VerifyPendingHere();
    return v.Result();
}

}  // namespace

BlockValidationResult ValidateBlock(const uint8_t* block_raw, size_t block_len,
                                    const std::vector<SpentOutputEntry>& spent, const std::string& expected_hash_hex,
                                    int32_t height, const ChainContext& context, const ValidationOptions& options) {
    BlockValidation v(block_raw, block_len, spent, expected_hash_hex, height, context, options);
    return RunToEnd(v);
}

BlockValidationResult ValidateBlock(const uint8_t* block_raw, size_t block_len, const uint8_t* spent_binary,
                                    size_t spent_len, const std::string& expected_hash_hex, int32_t height,
                                    const ChainContext& context, const ValidationOptions& options) {
    BlockValidation v(block_raw, block_len, spent_binary, spent_len, expected_hash_hex, height, context, options);
    return RunToEnd(v);
}

BlockValidationResult ValidateBlock(Block block, const std::vector<SpentOutputEntry>& spent, int32_t height,
                                    const ChainContext& context, const ValidationOptions& options) {
    BlockValidation v(std::move(block), spent, height, context, options);
    return RunToEnd(v);
}

}  // namespace ibd
