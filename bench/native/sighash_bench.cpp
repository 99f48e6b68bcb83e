// Signature hashes, per input and per byte hashed, on the real inputs of the fixture blocks.
//
//   BM_Sighash/legacy           SignatureHashLegacy (Core's SignatureHash, SigVersion::BASE) of
//                               every P2PKH input: the transaction copy, hashed once per input
//   BM_Sighash/bip143           SignatureHashWitnessV0 (BIP143) of every P2WPKH input
//   BM_Sighash/bip341           SignatureHashTaproot (BIP341 key path) of every P2TR key-path input
//   BM_SighashPrecompute/bip143 PrecomputedTxData::Init, BIP143 part (Core's
//                               PrecomputedTransactionData), per transaction with a P2WPKH input
//   BM_SighashPrecompute/bip341 the same, BIP341 part, per transaction with a P2TR key-path input
//
// One input (or transaction) per iteration, cycling through the set; the per-transaction
// precomputed hashes are made beforehand for BM_Sighash, as Core makes them once per
// transaction, and timed on their own by BM_SighashPrecompute. Rates: items_per_second =
// inputs/s (transactions/s for the precompute); bytes_per_second = bytes of the signed message
// fed to SHA-256 (legacy: the serialized transaction copy and hash type; BIP143: the 10-field
// preimage; BIP341: 0x00 || SigMsg); the second SHA-256 round of SHA256d (32 bytes) and the
// precomputed TapSighash tag prefix are not counted. Only inputs signed with SIGHASH_ALL (or
// BIP341 SIGHASH_DEFAULT) are in the sets, so the byte counts are exact; every input's hash is
// checked, before timing, to verify its own signature. Not measured: script evaluation, the
// verification itself, P2SH / P2WSH / tapscript sighashes (same functions, other scriptCodes).
#include <deque>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "benchmarks.h"
#include "primitives/block.h"
#include "primitives/serialize.h"
#include "script/script.h"
#include "script/script_type.h"
#include "script/sighash.h"
#include "verify/batch_verify.h"
#include "verify/check_buffer.h"

namespace ibd::bench {
namespace {

/** A serializer sink that only counts the bytes written (serialize.h Sink). */
struct ByteCounter {
    size_t n = 0;
    ByteCounter& Write(const uint8_t*, size_t len) {
        n += len;
        return *this;
    }
};

enum Kind { kLegacy, kBip143, kBip341, kKinds };
const char* const kKindNames[kKinds] = {"legacy", "bip143", "bip341"};

/** One input and everything its sighash needs. */
struct SighashInput {
    const Transaction* tx;
    uint32_t n_in;
    int32_t hash_type;
    std::vector<uint8_t> script_code;   // legacy, BIP143
    int64_t amount = 0;                 // BIP143
    const PrecomputedTxData* pre = nullptr;     // BIP143, BIP341
    const std::vector<uint8_t>* annex = nullptr;  // BIP341, when the input has one
    size_t preimage_bytes = 0;
};

/** One transaction's precomputation inputs. */
struct TxPrecompute {
    const Transaction* tx;
    std::vector<const SpentOutput*> spent;
    size_t bytes;  // bytes fed to SHA-256 by Init for this kind
};

/** The parsed blocks and the sets; pointers into `blocks` and `pre` (deques: stable). */
struct Sample {
    std::deque<Block> blocks;
    std::deque<PrecomputedTxData> pre;
    std::vector<SighashInput> inputs[kKinds];
    std::vector<TxPrecompute> precompute[kKinds];  // kBip143 and kBip341 only
    std::vector<uint8_t> records[kKinds];          // one check per input (the self-check)
};

Hash32 ComputeSighash(Kind kind, const SighashInput& in) {
    if (kind == kLegacy) return SignatureHashLegacy(in.script_code, *in.tx, in.n_in, in.hash_type);
    if (kind == kBip143) {
        return SignatureHashWitnessV0(in.script_code, *in.tx, in.n_in, in.hash_type, in.amount, *in.pre);
    }
    Hash32 h{};
    SignatureHashTaproot(*in.tx, in.n_in, static_cast<uint8_t>(in.hash_type), *in.pre, in.annex, h);
    return h;
}

/** The first two pushes of a P2PKH scriptSig: <sig> <pubkey>. */
bool SigAndPubkey(const std::vector<uint8_t>& script_sig, const uint8_t*& sig, size_t& sig_len,
                  const uint8_t*& pubkey, size_t& pubkey_len) {
    const uint8_t* pc = script_sig.data();
    const uint8_t* end = pc + script_sig.size();
    uint8_t op;
    sig = pubkey = nullptr;
    return GetScriptOp(pc, end, op, &sig, &sig_len) && sig != nullptr && sig_len > 0 &&
           GetScriptOp(pc, end, op, &pubkey, &pubkey_len) && pubkey != nullptr && pc == end;
}

/** Bytes PrecomputedTxData::Init hashes for `tx`: prevouts, sequences and outputs, then the
 *  BIP143 second rounds (3 x 32) or the BIP341 amounts and scriptPubKeys. */
size_t PrecomputeBytes(const Transaction& tx, const std::vector<const SpentOutput*>& spent, Kind kind) {
    ByteCounter c;
    for (const TxIn& in : tx.vin) {
        SerializeOutPoint(c, in.prevout);
        WriteLE32(c, in.sequence);
    }
    for (const TxOut& out : tx.vout) SerializeTxOut(c, out.value, out.script_pubkey);
    if (kind == kBip143) c.n += 3 * 32;
    if (kind == kBip341) {
        for (const SpentOutput* o : spent) {
            WriteLE64(c, static_cast<uint64_t>(o->value));
            WriteVarBytes(c, o->script_pubkey);
        }
    }
    return c.n;
}

/** Adds input `n` of `tx` to its kind's set when it is a P2PKH, P2WPKH or P2TR key-path spend
 *  signed with SIGHASH_ALL / SIGHASH_DEFAULT, with its check record for the self-check. */
void AddInput(Sample& s, const Transaction& tx, uint32_t n, const std::string& type, const SpentOutput& spent,
              const PrecomputedTxData* pre) {
    const TxIn& in = tx.vin[n];
    SighashInput si{&tx, n, SIGHASH_ALL, {}, spent.value, pre, nullptr, 0};
    Kind kind;
    const uint8_t *sig = nullptr, *pubkey = nullptr;
    size_t sig_len = 0, pubkey_len = 0;
    CheckType check_type = CheckType::kEcdsa;
    if (type == "p2pkh") {
        if (!SigAndPubkey(in.script_sig, sig, sig_len, pubkey, pubkey_len) || sig[sig_len - 1] != SIGHASH_ALL) return;
        kind = kLegacy;
        sig_len -= 1;  // the hash type byte
        si.script_code = spent.script_pubkey;
        ByteCounter script_sigs, code;
        for (const TxIn& other : tx.vin) WriteVarBytes(script_sigs, other.script_sig);
        WriteVarBytes(code, si.script_code);
        // The copy: every scriptSig emptied (1 byte each) but n's, which becomes the scriptCode;
        // then the 4-byte hash type.
        si.preimage_bytes = tx.stripped_size - script_sigs.n + (tx.vin.size() - 1) + code.n + 4;
    } else if (type == "p2wpkh") {
        if (in.witness.size() != 2 || in.witness[0].empty() || in.witness[0].back() != SIGHASH_ALL) return;
        kind = kBip143;
        sig = in.witness[0].data();
        sig_len = in.witness[0].size() - 1;  // without the hash type byte
        pubkey = in.witness[1].data();
        pubkey_len = in.witness[1].size();
        // BIP143: the P2WPKH scriptCode is 76 a9 14 <20-byte program> 88 ac.
        si.script_code = {0x76, 0xa9, 0x14};
        si.script_code.insert(si.script_code.end(), spent.script_pubkey.begin() + 2, spent.script_pubkey.end());
        si.script_code.insert(si.script_code.end(), {0x88, 0xac});
        ByteCounter code;
        WriteVarBytes(code, si.script_code);
        // nVersion 4, hashPrevouts 32, hashSequence 32, outpoint 36, amount 8, nSequence 4,
        // hashOutputs 32, nLockTime 4, hash type 4 = 156, plus the scriptCode.
        si.preimage_bytes = 156 + code.n;
    } else if (type == "p2tr-keypath") {
        const bool annex = in.witness.size() >= 2 && !in.witness.back().empty() && in.witness.back()[0] == kAnnexTag;
        const std::vector<uint8_t>& sig_item = in.witness[0];
        if (!(sig_item.size() == 64 || (sig_item.size() == 65 && sig_item[64] == SIGHASH_ALL))) return;
        kind = kBip341;
        check_type = CheckType::kSchnorr;
        si.hash_type = sig_item.size() == 64 ? SIGHASH_DEFAULT : SIGHASH_ALL;
        si.annex = annex ? &in.witness.back() : nullptr;
        sig = sig_item.data();
        sig_len = 64;
        pubkey = spent.script_pubkey.data() + 2;  // OP_1 <32-byte x-only key>
        pubkey_len = 32;
        std::vector<uint8_t> msg;
        TaprootSigMsg(tx, n, static_cast<uint8_t>(si.hash_type), *pre, si.annex, msg);
        si.preimage_bytes = msg.size();
    } else {
        return;
    }
    AppendCheckRecord(s.records[kind], check_type, pubkey, pubkey_len, sig, sig_len, ComputeSighash(kind, si));
    s.inputs[kind].push_back(std::move(si));
}

/** Parses the blocks and builds every set; throws when an input's sighash fails its signature. */
std::shared_ptr<Sample> BuildSample(const std::vector<FixtureBlock>& blocks) {
    auto s = std::make_shared<Sample>();
    for (const FixtureBlock& b : blocks) {
        if (!b.error.empty()) continue;
        const Block& block = s->blocks.emplace_back(ParseBlock(b.raw.data(), b.raw.size()));
        size_t k = 0;  // spent_outputs.json entry: one per non-coinbase input, block order
        for (const Transaction& tx : block.txs) {
            if (tx.IsCoinBase()) continue;
            std::vector<const SpentOutput*> spent;
            std::vector<std::string> types;
            bool need[kKinds] = {false, false, false};
            for (const TxIn& in : tx.vin) {
                spent.push_back(&b.spent[k++].out);
                types.push_back(InputScriptTypeName(in, spent.back()->script_pubkey));
                need[kBip143] |= types.back() == "p2wpkh";
                need[kBip341] |= types.back() == "p2tr-keypath";
            }
            const PrecomputedTxData* pre = nullptr;
            if (need[kBip143] || need[kBip341]) {
                PrecomputedTxData& p = s->pre.emplace_back();
                p.Init(tx, spent, need[kBip143], need[kBip341]);
                pre = &p;
            }
            for (Kind kind : {kBip143, kBip341}) {
                if (need[kind]) s->precompute[kind].push_back({&tx, spent, PrecomputeBytes(tx, spent, kind)});
            }
            for (uint32_t n = 0; n < tx.vin.size(); ++n) AddInput(*s, tx, n, types[n], *spent[n], pre);
        }
    }
    for (int kind = 0; kind < kKinds; ++kind) {
        const uint32_t count = static_cast<uint32_t>(s->inputs[kind].size());
        std::vector<uint8_t> verdicts(count);
        const std::vector<uint8_t>& records = s->records[kind];
        const BatchStatus status = VerifyBatch(records.data(), records.size(), count, verdicts.data());
        uint32_t valid = 0;
        for (uint8_t v : verdicts) valid += v == static_cast<uint8_t>(Verdict::kValid);
        if (status.error != 0 || valid != count) {
            throw std::runtime_error(std::string(kKindNames[kind]) + " sighash sample: " +
                                     std::to_string(count - valid) + " of " + std::to_string(count) +
                                     " inputs' sighashes do not verify their signature");
        }
    }
    return s;
}

}  // namespace

void RegisterSighashBenchmarks(const std::vector<FixtureBlock>& blocks) {
    const std::shared_ptr<Sample> s = BuildSample(blocks);
    for (Kind kind : {kLegacy, kBip143, kBip341}) {
        if (s->inputs[kind].empty()) continue;
        const std::string name = std::string("BM_Sighash/") + kKindNames[kind];
        benchmark::RegisterBenchmark(name.c_str(), [s, kind](benchmark::State& state) {
            const std::vector<SighashInput>& inputs = s->inputs[kind];
            size_t i = 0;
            int64_t bytes = 0;
            for (auto _ : state) {
                benchmark::DoNotOptimize(ComputeSighash(kind, inputs[i]));
                bytes += static_cast<int64_t>(inputs[i].preimage_bytes);
                if (++i == inputs.size()) i = 0;
            }
            state.SetItemsProcessed(state.iterations());
            state.SetBytesProcessed(bytes);
            state.SetLabel(std::to_string(inputs.size()) + " fixture inputs");
        });
    }
    for (Kind kind : {kBip143, kBip341}) {
        if (s->precompute[kind].empty()) continue;
        const std::string name = std::string("BM_SighashPrecompute/") + kKindNames[kind];
        benchmark::RegisterBenchmark(name.c_str(), [s, kind](benchmark::State& state) {
            const std::vector<TxPrecompute>& txs = s->precompute[kind];
            PrecomputedTxData pre;
            size_t i = 0;
            int64_t bytes = 0;
            for (auto _ : state) {
                pre.Init(*txs[i].tx, txs[i].spent, kind == kBip143, kind == kBip341);
                benchmark::DoNotOptimize(pre.sha_outputs);
                bytes += static_cast<int64_t>(txs[i].bytes);
                if (++i == txs.size()) i = 0;
            }
            state.SetItemsProcessed(state.iterations());
            state.SetBytesProcessed(bytes);
            state.SetLabel(std::to_string(txs.size()) + " fixture transactions");
        });
    }
}

}  // namespace ibd::bench
