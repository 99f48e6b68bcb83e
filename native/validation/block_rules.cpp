// Implementation of block_rules.h.
#include "validation/block_rules.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <unordered_map>

#include "primitives/hex.h"
#include "script/consensus_flags.h"
#include "script/interpreter.h"
#include "validation/tx_verify.h"

namespace ibd {

namespace {

constexpr int64_t kCoin = 100000000;
constexpr int32_t kSubsidyHalvingInterval = 210000;
/** BIP68: an input's nSequence with this bit set has no relative lock. */
constexpr uint32_t kSequenceLockTimeDisableFlag = 1U << 31;

Location TxLocation(const Block& block, size_t t) {
    Location at;
    at.tx_index = static_cast<int64_t>(t);
    at.byte_offset = static_cast<int64_t>(block.txs[t].offset);
    return at;
}

/** The place of a sigop part: the input (scriptSig, P2SH, witness) or the output (scriptPubKey). */
Location PartLocation(const Block& block, size_t t, const SigOpPart& part) {
    const Transaction& tx = block.txs[t];
    Location at = TxLocation(block, t);
    if (part.kind == SigOpPart::kOutputScriptPubKey) {
        at.output_index = part.index;
        at.byte_offset = static_cast<int64_t>(tx.vout[part.index].offset);
    } else {
        at.input_index = part.index;
        at.byte_offset = static_cast<int64_t>(tx.vin[part.index].offset);
    }
    return at;
}

const char* PartName(SigOpPart::Kind kind) {
    switch (kind) {
        case SigOpPart::kInputScriptSig: return "scriptSig";
        case SigOpPart::kOutputScriptPubKey: return "scriptPubKey";
        case SigOpPart::kInputP2SH: return "P2SH redeem script";
        case SigOpPart::kInputWitness: return "witness";
    }
    return "";
}

/** Adds each part of tx t to `total`; when `total` first passes the limit, sets `failure`
 *  (stage `stage`) at that part. */
void AddSigOps(const Block& block, size_t t, const std::vector<const SpentOutput*>& spent, uint32_t flags,
               const char* stage, int64_t& total, std::optional<RuleFailure>& failure) {
    ForEachSigOpCost(block.txs[t], spent, flags, [&](const SigOpPart& part) {
        total += part.cost;
        if (failure || total <= kMaxBlockSigOpsCost) return;
        failure = RuleFailure{"bad-blk-sigops", stage,
                              "sigop cost " + std::to_string(total) + " above " + std::to_string(kMaxBlockSigOpsCost) +
                                  " once this " + PartName(part.kind) + " (cost " + std::to_string(part.cost) +
                                  ") is counted",
                              PartLocation(block, t, part)};
    });
}

/** Whether IsFinalTx's verdict on `tx` depends on the time cutoff. */
bool FinalityNeedsTime(const Transaction& tx) {
    if (tx.lock_time == 0 || static_cast<int64_t>(tx.lock_time) < kLockTimeThreshold) return false;
    for (const TxIn& in : tx.vin) {
        if (in.sequence != kSequenceFinal) return true;
    }
    return false;
}

}  // namespace

int64_t GetBlockSubsidy(int32_t height) {
    const int halvings = height / kSubsidyHalvingInterval;
    if (halvings >= 64) return 0;
    return (50 * kCoin) >> halvings;
}

namespace {

/** arith_uint256::SetCompact into a big-endian 32-byte `target`; sets `negative` and `overflow`
 *  as Core does. */
void SetCompact(uint32_t compact, std::array<uint8_t, 32>& target, bool& negative, bool& overflow) {
    const uint32_t size = compact >> 24;
    uint32_t word = compact & 0x007fffff;
    target.fill(0);
    // As Core, the sign and overflow are judged on the mantissa after a small size's shift.
    if (size <= 3) word >>= 8 * (3 - size);
    negative = word != 0 && (compact & 0x00800000) != 0;
    overflow = word != 0 && (size > 34 || (word > 0xff && size > 33) || (word > 0xffff && size > 32));
    if (overflow) return;
    if (size <= 3) {
        for (int i = 0; i < 3; ++i) target[31 - i] = static_cast<uint8_t>(word >> (8 * i));
        return;
    }
    // word << 8 * (size - 3): its three bytes end at big-endian index 31 - (size - 3); bytes
    // shifted past the top are dropped (only zero bytes, since not overflowing).
    for (int i = 0; i < 3; ++i) {
        const int at = 31 - static_cast<int>(size - 3) - i;
        if (at >= 0) target[at] = static_cast<uint8_t>(word >> (8 * i));
    }
}

}  // namespace

std::optional<RuleFailure> CheckProofOfWork(const Block& block) {
    std::array<uint8_t, 32> target{};
    std::array<uint8_t, 32> limit{};
    bool negative = false;
    bool overflow = false;
    bool unused = false;
    SetCompact(kPowLimitCompact, limit, unused, unused);
    SetCompact(block.header.bits, target, negative, overflow);
    char bits[11];
    std::snprintf(bits, sizeof bits, "0x%08x", block.header.bits);
    // An nBits fault points at nBits; a hash above its target at the header (offset 0), all of
    // which the hash covers.
    const auto fail = [&](const std::string& why, int64_t byte_offset = kHeaderBitsOffset) {
        Location at;
        at.byte_offset = byte_offset;
        return RuleFailure{"high-hash", "CheckBlockHeader", "proof of work failed: " + why, at};
    };
    const bool zero = std::all_of(target.begin(), target.end(), [](uint8_t b) { return b == 0; });
    if (negative) return fail("nBits " + std::string(bits) + " is negative");
    if (overflow) return fail("nBits " + std::string(bits) + " overflows 256 bits");
    if (zero) return fail("nBits " + std::string(bits) + " is a zero target");
    if (std::lexicographical_compare(limit.begin(), limit.end(), target.begin(), target.end())) {
        return fail("nBits " + std::string(bits) + " is above mainnet's powLimit (0x1d00ffff)");
    }
    std::array<uint8_t, 32> hash{};  // big-endian: the internal byte order reversed
    std::reverse_copy(block.hash.begin(), block.hash.end(), hash.begin());
    if (std::lexicographical_compare(target.begin(), target.end(), hash.begin(), hash.end())) {
        return fail("block hash " + block.hash_hex + " is above the target of nBits " + bits, 0);
    }
    return std::nullopt;
}

namespace {

/** The location of a header field: its byte offset in the block. */
Location HeaderField(int64_t byte_offset) {
    Location at;
    at.byte_offset = byte_offset;
    return at;
}

}  // namespace

std::optional<RuleFailure> CheckContextualHeader(const Block& block, int32_t height, const ChainContext& context) {
    // Core's order: the time (time-too-old) before the version.
    if (context.median_time_past && static_cast<int64_t>(block.header.time) <= *context.median_time_past) {
        return RuleFailure{"time-too-old", "ContextualCheckBlockHeader",
                           "header time " + std::to_string(block.header.time) + " is not above the median time past " +
                               std::to_string(*context.median_time_past),
                           HeaderField(kHeaderTimeOffset)};
    }
    const int32_t version = block.header.version;
    const int32_t needed = height >= kBip65Height ? 4 : height >= kBip66Height ? 3 : height >= kBip34Height ? 2 : 0;
    if (version < needed) {
        char reason[32];
        std::snprintf(reason, sizeof reason, "bad-version(0x%08x)", static_cast<uint32_t>(version));
        return RuleFailure{reason, "ContextualCheckBlockHeader",
                           "block version " + std::to_string(version) + " at height " + std::to_string(height) +
                               ", where version " + std::to_string(needed) + " or above is required",
                           HeaderField(kHeaderVersionOffset)};
    }
    return std::nullopt;
}

std::optional<RuleFailure> CheckLegacySigOps(const Block& block) {
    int64_t total = 0;
    std::optional<RuleFailure> failure;
    // SCRIPT_VERIFY_NONE: the legacy parts only (no spent outputs needed).
    for (size_t t = 0; t < block.txs.size() && !failure; ++t) {
        AddSigOps(block, t, {}, SCRIPT_VERIFY_NONE, "CheckBlock", total, failure);
    }
    if (failure) failure->detail = "legacy " + failure->detail + " (legacy sigops count 4 each)";
    return failure;
}

std::optional<RuleFailure> CheckContextualBlock(const Block& block, int32_t height, const ChainContext& context) {
    const bool bip113 = height >= kCsvHeight;
    for (size_t t = 0; t < block.txs.size(); ++t) {
        const Transaction& tx = block.txs[t];
        int64_t cutoff = block.header.time;
        if (bip113 && !context.median_time_past && FinalityNeedsTime(tx)) {
            // A valid header's time is above its median time past (time-too-old otherwise), so a
            // time lock at or above the header's time is above the median time past too: not
            // final whatever the median time past is. Below the header's time it depends on the
            // median time past: not judged (RulesNotChecked lists it).
            if (static_cast<int64_t>(tx.lock_time) < static_cast<int64_t>(block.header.time)) continue;
            return RuleFailure{"bad-txns-nonfinal", "ContextualCheckBlock",
                               "nLockTime " + std::to_string(tx.lock_time) + " is not below the block's time " +
                                   std::to_string(block.header.time) +
                                   ", so not below its median time past either (BIP113), and some input's "
                                   "nSequence is not 0xffffffff",
                               TxLocation(block, t)};
        }
        if (bip113) cutoff = context.median_time_past.value_or(0);
        if (!IsFinalTx(tx, height, cutoff)) {
            const bool by_height = static_cast<int64_t>(tx.lock_time) < kLockTimeThreshold;
            return RuleFailure{"bad-txns-nonfinal", "ContextualCheckBlock",
                               "nLockTime " + std::to_string(tx.lock_time) + " is not below the block's " +
                                   (by_height ? "height " + std::to_string(height)
                                              : std::string(bip113 ? "median time past " : "time ") +
                                                    std::to_string(cutoff)) +
                                   " and some input's nSequence is not 0xffffffff",
                               TxLocation(block, t)};
        }
    }
    // BIP34: the coinbase scriptSig starts with CScript() << height.
    if (height >= kBip34Height) {
        const std::vector<uint8_t> expect = SerializeScriptHeight(height);
        const TxIn& cb_in = block.txs[0].vin[0];  // CheckBlock: txs[0] is a coinbase, one input
        if (cb_in.script_sig.size() < expect.size() ||
            !std::equal(expect.begin(), expect.end(), cb_in.script_sig.begin())) {
            Location at = TxLocation(block, 0);
            at.input_index = 0;
            at.byte_offset = static_cast<int64_t>(cb_in.offset);
            const size_t shown = std::min<size_t>(cb_in.script_sig.size(), 8);
            return RuleFailure{"bad-cb-height", "ContextualCheckBlock",
                               "block " + block.hash_hex + " given height " + std::to_string(height) + " (BIP34 active from " +
                                   std::to_string(kBip34Height) + ") but its coinbase scriptSig does not start with " +
                                   HexEncode(expect) + " (it starts with " + HexEncode(cb_in.script_sig.data(), shown) +
                                   ")",
                               at};
        }
    }
    try {
        CheckWitnessMalleation(block, height >= kSegwitHeight);
        CheckBlockWeight(block);
    } catch (const Error& e) {
        const Error staged = e.with_stage("ContextualCheckBlock");
        RuleFailure f{staged.reject_reason(), staged.stage(), "", e.where()};
        const std::string& reason = e.reason();
        const size_t colon = reason.find(':');
        if (colon != std::string::npos) f.detail = reason.substr(colon + 1);
        if (!f.detail.empty() && f.detail[0] == ' ') f.detail.erase(0, 1);
        return f;
    }
    return std::nullopt;
}

std::vector<std::vector<int32_t>> InBlockCreators(const Block& block) {
    std::unordered_map<Hash32, int32_t, TxidHasher> index;
    index.reserve(block.txs.size());
    // Two transactions of a block with one txid break CheckBlock (bad-txns-duplicate) first;
    // the first is kept.
    for (size_t t = 0; t < block.txs.size(); ++t) index.emplace(block.txs[t].txid, static_cast<int32_t>(t));
    std::vector<std::vector<int32_t>> creators(block.txs.size());
    for (size_t t = 0; t < block.txs.size(); ++t) {
        const Transaction& tx = block.txs[t];
        creators[t].assign(tx.vin.size(), -1);
        if (t == 0) continue;  // the coinbase's prevout is null
        for (size_t i = 0; i < tx.vin.size(); ++i) {
            const auto it = index.find(tx.vin[i].prevout.txid);
            if (it != index.end()) creators[t][i] = it->second;
        }
    }
    return creators;
}

namespace {

Location InputLocation(const Block& block, size_t t, size_t i) {
    Location at = TxLocation(block, t);
    at.input_index = static_cast<int64_t>(i);
    at.byte_offset = static_cast<int64_t>(block.txs[t].vin[i].offset);
    return at;
}

std::string OutPointText(const OutPoint& o) { return HexEncodeReversed(o.txid) + ":" + std::to_string(o.n); }

}  // namespace

void CheckSpentOutputsMatchBlock(const Block& block, const std::vector<std::vector<const SpentOutput*>>& spent_by_tx,
                                 const std::vector<std::vector<int32_t>>& creators) {
    for (size_t t = 1; t < block.txs.size() && t < spent_by_tx.size(); ++t) {
        const Transaction& tx = block.txs[t];
        for (size_t i = 0; i < tx.vin.size() && i < spent_by_tx[t].size(); ++i) {
            const int32_t c = creators[t][i];
            const uint32_t n = tx.vin[i].prevout.n;
            if (c < 0 || static_cast<size_t>(c) >= t || n >= block.txs[c].vout.size()) continue;
            const TxOut& made = block.txs[c].vout[n];
            const SpentOutput& given = *spent_by_tx[t][i];
            if (given.value == made.value && given.script_pubkey == made.script_pubkey) continue;
            throw Error("the spent output given for this input (prevout " + OutPointText(tx.vin[i].prevout) +
                            ", output " + std::to_string(n) + " of tx " + std::to_string(c) + " of this block) is " +
                            std::to_string(given.value) + " sat with a " + std::to_string(given.script_pubkey.size()) +
                            "-byte scriptPubKey " + HexEncode(given.script_pubkey.data(), std::min<size_t>(given.script_pubkey.size(), 40)) +
                            (given.script_pubkey.size() > 40 ? "..." : "") + ", where the block's output is " +
                            std::to_string(made.value) + " sat with a " + std::to_string(made.script_pubkey.size()) +
                            "-byte scriptPubKey " + HexEncode(made.script_pubkey.data(), std::min<size_t>(made.script_pubkey.size(), 40)) +
                            (made.script_pubkey.size() > 40 ? "..." : "") + ": the spent outputs contradict the block",
                        InputLocation(block, t, i));
        }
    }
}

std::optional<RuleFailure> CheckInBlockCoins(const Block& block, size_t t, const std::vector<const SpentOutput*>& spent,
                                             const std::vector<std::vector<int32_t>>& creators,
                                             const std::unordered_set<OutPoint, OutPointHasher>& spent_so_far) {
    const Transaction& tx = block.txs[t];
    for (size_t i = 0; i < tx.vin.size(); ++i) {  // HaveInputs
        const OutPoint& prevout = tx.vin[i].prevout;
        const int32_t c = creators[t][i];
        std::string why;
        if (spent_so_far.count(prevout)) {
            why = "an earlier transaction of this block spends it already";
        } else if (c >= 0 && static_cast<size_t>(c) >= t) {
            why = "it names tx " + std::to_string(c) + " of this block, which comes after tx " + std::to_string(t);
        } else if (c >= 0 && prevout.n >= block.txs[c].vout.size()) {
            why = "tx " + std::to_string(c) + " of this block has " + std::to_string(block.txs[c].vout.size()) + " output" +
                  (block.txs[c].vout.size() == 1 ? "" : "s");
        } else if (c >= 0 ? IsUnspendable(block.txs[c].vout[prevout.n].script_pubkey)
                          : i < spent.size() && IsUnspendable(spent[i]->script_pubkey)) {
            why = std::string(c >= 0 ? "the block's output" : "the spent output given") +
                  " is unspendable (OP_RETURN, or a scriptPubKey above 10,000 bytes): no coins view holds it";
        } else {
            continue;
        }
        return RuleFailure{"bad-txns-inputs-missingorspent", "CheckTxInputs",
                           "prevout " + OutPointText(prevout) + " is missing or spent: " + why, InputLocation(block, t, i)};
    }
    for (size_t i = 0; i < tx.vin.size(); ++i) {  // coinbase maturity
        if (creators[t][i] != 0) continue;
        return RuleFailure{"bad-txns-premature-spend-of-coinbase", "CheckTxInputs",
                           "prevout " + OutPointText(tx.vin[i].prevout) +
                               " is an output of this block's own coinbase: 0 confirmations, 100 needed",
                           InputLocation(block, t, i)};
    }
    return std::nullopt;
}

ConnectBlockOutcome CheckConnectBlockRules(const Block& block, const std::vector<std::vector<const SpentOutput*>>& spent_by_tx,
                                           int32_t height, uint32_t flags, const std::vector<std::vector<int32_t>>* in_block_creators) {
    ConnectBlockOutcome out;
    out.subsidy = GetBlockSubsidy(height);
    int64_t fees = 0;
    bool amounts_ok = true;
    std::unordered_set<OutPoint, OutPointHasher> spent_so_far;
    for (size_t t = 0; t < block.txs.size(); ++t) {
        const Transaction& tx = block.txs[t];
        if (t > 0 && amounts_ok && in_block_creators) {
            std::optional<RuleFailure> coins = CheckInBlockCoins(block, t, spent_by_tx[t], *in_block_creators, spent_so_far);
            if (coins) {
                amounts_ok = false;
                if (!out.failure) out.failure = std::move(coins);
            }
            for (const TxIn& in : tx.vin) spent_so_far.insert(in.prevout);
        }
        if (t > 0 && amounts_ok) {
            RuleFailure failure;
            const std::optional<int64_t> fee = CheckTxInputAmounts(tx, static_cast<uint32_t>(t), spent_by_tx[t], failure);
            if (!fee) {
                amounts_ok = false;
                if (!out.failure) out.failure = failure;
            } else {
                fees += *fee;  // both in range: no overflow
                if (!MoneyRange(fees)) {
                    amounts_ok = false;
                    if (!out.failure) {
                        out.failure = RuleFailure{"bad-txns-accumulated-fee-outofrange", "ConnectBlock",
                                                  "the fees up to this tx sum to " + std::to_string(fees) +
                                                      " sat, above 21,000,000 BTC",
                                                  TxLocation(block, t)};
                    }
                }
            }
        }
        AddSigOps(block, t, spent_by_tx[t], flags, "ConnectBlock", out.sigop_cost, out.failure);
    }
    if (!amounts_ok) return out;
    out.fee = fees;
    if (out.failure) return out;
    const int64_t reward = out.subsidy + fees;
    const Transaction& cb = block.txs[0];
    int64_t paid = 0;
    for (size_t o = 0; o < cb.vout.size(); ++o) {
        paid += cb.vout[o].value;  // CheckTransaction: each and the sum in range
        if (paid > reward) {
            int64_t total = 0;
            for (const TxOut& txout : cb.vout) total += txout.value;
            Location at = TxLocation(block, 0);
            at.output_index = static_cast<int64_t>(o);
            at.byte_offset = static_cast<int64_t>(cb.vout[o].offset);
            out.failure = RuleFailure{"bad-cb-amount", "ConnectBlock",
                                      "coinbase pays " + std::to_string(total) + " sat, above subsidy " +
                                          std::to_string(out.subsidy) + " + fees " + std::to_string(fees) + " = " +
                                          std::to_string(reward) + " sat (passed at this output)",
                                      at};
            break;
        }
    }
    return out;
}

bool IsBip30Repeat(int32_t height, const Hash32& hash) {
    const std::string hex = HexEncodeReversed(hash);
    return (height == 91842 && hex == "00000000000a4d0a398161ffc163c503763b1f4360639393e0e4c8e300e0caec") ||
           (height == 91880 && hex == "00000000000743f190a18c5577a3c2d2a1f610ae9601ac046a38084ccb7cd721");
}

bool EnforceBip30(int32_t height, const Hash32& hash, bool bip34_block_matches) {
    if (height >= kBip34ImpliesBip30Limit) return true;
    if (IsBip30Repeat(height, hash)) return false;
    // Core: the ancestor at BIP34Height exists (height above it) and is BIP34Hash.
    return !(height > kBip34Height && bip34_block_matches);
}

std::optional<RuleFailure> CheckBip30(const Block& block, const CoinsViewCache& view) {
    OutPoint outpoint;
    for (size_t t = 0; t < block.txs.size(); ++t) {
        const Transaction& tx = block.txs[t];
        outpoint.txid = tx.txid;
        for (size_t o = 0; o < tx.vout.size(); ++o) {
            outpoint.n = static_cast<uint32_t>(o);
            const Coin* coin = view.AccessCoin(outpoint);
            if (!coin) continue;
            Location at = TxLocation(block, t);
            at.output_index = static_cast<int64_t>(o);
            at.byte_offset = static_cast<int64_t>(tx.vout[o].offset);
            return RuleFailure{"bad-txns-BIP30", "ConnectBlock",
                               "tried to overwrite transaction: output " + HexEncodeReversed(tx.txid) + ":" +
                                   std::to_string(o) + " is already an unspent coin (of height " +
                                   std::to_string(coin->height) + ")",
                               at};
        }
    }
    return std::nullopt;
}

std::vector<NotChecked> RulesNotChecked(const Block& block, int32_t height, const ChainContext& context) {
    std::vector<NotChecked> out;
    size_t inputs = 0, relative_locks = 0, time_locks = 0;
    for (size_t t = 1; t < block.txs.size(); ++t) {
        const Transaction& tx = block.txs[t];
        inputs += tx.vin.size();
        // BIP68 applies from nVersion 2 read as unsigned (Core's CalculateSequenceLocks casts).
        if (static_cast<uint32_t>(tx.version) >= 2) {
            for (const TxIn& in : tx.vin) relative_locks += (in.sequence & kSequenceLockTimeDisableFlag) == 0;
        }
    }
    // Only the time locks below the header's time depend on the median time past (the others
    // are not final whatever it is: CheckContextualBlock rejects them).
    for (const Transaction& tx : block.txs) {
        time_locks += FinalityNeedsTime(tx) && static_cast<int64_t>(tx.lock_time) < static_cast<int64_t>(block.header.time);
    }
    if (inputs > 0 && !context.coins_checked) {
        out.push_back({"spent-outputs-unspent",
                       "each spent output from before this block exists and is unspent "
                       "(bad-txns-inputs-missingorspent): needs the UTXO set, so the spent outputs given for them are "
                       "taken as they are (outputs this block creates, outpoints it spends twice and unspendable "
                       "outputs are checked)"});
        out.push_back({"coinbase-maturity",
                       "a coinbase output from an earlier block is spent 100 blocks after its own at the earliest "
                       "(bad-txns-premature-spend-of-coinbase): needs the heights of the spent coins (a spend of "
                       "this block's own coinbase is checked)"});
    }
    if (!context.coins_checked) {
        out.push_back({"bip30",
                       "no transaction overwrites an unspent output of the same txid (bad-txns-BIP30): needs the UTXO "
                       "set (from BIP34 Core relies on the coinbase heights of its own chain instead)"});
    }
    if (height >= kCsvHeight && relative_locks > 0) {
        out.push_back({"bip68-sequence-locks", std::to_string(relative_locks) +
                                                   " inputs of version-2 transactions have relative lock-times "
                                                   "(bad-txns-nonfinal in ConnectBlock): needs the heights and median "
                                                   "times past of the blocks of the spent coins"});
    }
    if (height >= kCsvHeight && !context.median_time_past && time_locks > 0) {
        out.push_back({"bip113-finality", std::to_string(time_locks) +
                                              " transactions have a time nLockTime and an input that is not final: "
                                              "from BIP113 their finality (bad-txns-nonfinal) is judged against the "
                                              "median time past, which was not supplied"});
    }
    if (!context.median_time_past) {
        out.push_back({"time-too-old", "the header's time is above the median time past of the 11 blocks before it: "
                                       "needs the median time past, which was not supplied"});
    }
    out.push_back({"time-too-new", "the header's time is at most 2 hours ahead of the node's clock: needs a clock, "
                                   "and is not a rule of the block alone"});
    out.push_back({"expected-difficulty",
                   "nBits is the difficulty the header chain expects at this height (bad-diffbits): needs the header "
                   "chain (the header hash against its own nBits target, high-hash, is checked)"});
    if (context.skip_proof_of_work) {
        out.push_back({"proof-of-work", "the header hash against its own nBits target (high-hash) was skipped at the "
                                        "caller's request (skipProofOfWork), as for a block mutated from a real one"});
    }
    if (!context.previous_block_checked) {
        out.push_back({"previous-block", "the previous block is known and valid (prev-blk-not-found, bad-prevblk) "
                                         "and no checkpoint is forked from: needs the header chain"});
    }
    return out;
}

std::vector<NotChecked> BlockRulesNotRun() {
    const std::string why =
        ": this call ran without the block rules (blockRules false: a range of a block whose rules another call "
        "runs; workers/block-jobs.mjs joins them)";
    return {
        {"proof-of-work", "the header hash against its own nBits target (high-hash, CheckBlockHeader)" + why},
        {"merkle-root", "the header's merkle root is the transactions' (bad-txnmrklroot) and the tree is not mutated "
                        "(bad-txns-duplicate), CheckBlock" + why},
        {"check-block", "CheckBlock's other rules: the size and transaction count (bad-blk-length), the coinbase first and "
                        "alone (bad-cb-missing, bad-cb-multiple), each transaction's CheckTransaction (bad-txns-vin-empty, "
                        "...) and the legacy sigop limit (bad-blk-sigops)" + why},
        {"contextual-header", "ContextualCheckBlockHeader: the version for the height (bad-version) and, with the median "
                              "time past, the header's time above it (time-too-old)" + why},
        {"contextual-block", "ContextualCheckBlock: every transaction final (bad-txns-nonfinal), the coinbase height "
                             "(bad-cb-height, BIP34: the cross-check of the height given), the witness commitment "
                             "(bad-witness-nonce-size, bad-witness-merkle-match, unexpected-witness) and the weight "
                             "(bad-blk-weight)" + why},
        {"tx-inputs", "Consensus::CheckTxInputs: what the block shows of the prevouts (bad-txns-inputs-missingorspent, "
                      "bad-txns-premature-spend-of-coinbase), the spent values and each fee "
                      "(bad-txns-inputvalues-outofrange, bad-txns-in-belowout, bad-txns-fee-outofrange), and the spent "
                      "outputs given for the block's own outputs against them" + why},
        {"connect-block", "ConnectBlock's totals: the fees (bad-txns-accumulated-fee-outofrange), the sigop cost "
                          "(bad-blk-sigops) and the coinbase against subsidy plus fees (bad-cb-amount); fee, subsidy and "
                          "sigop cost are not given" + why},
    };
}

}  // namespace ibd
