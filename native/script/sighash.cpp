// Implementation of sighash.h. Each step names the Core function or BIP section it follows.
#include "script/sighash.h"

#include <algorithm>
#include <type_traits>

#include "primitives/serialize.h"
#include "script/script.h"
#include "util/error.h"

namespace ibd {

namespace {

/** uint256::ONE in internal byte order: returned for the legacy SIGHASH_SINGLE bug. */
Hash32 HashOne() {
    Hash32 h{};
    h[0] = 1;
    return h;
}

/** Core's CTransactionSignatureSerializer::SerializeScriptCode: the scriptCode with every
 *  OP_CODESEPARATOR removed, prefixed by its CompactSize length. The length is computed from
 *  the opcodes GetScriptOp could read; as in Core, a truncated push at the end stops the copy at
 *  the position GetScriptOp reached, so the bytes written may be fewer than the length says. */
template <typename Sink>
void SerializeScriptCode(Sink& s, const std::vector<uint8_t>& script) {
    const uint8_t* const begin = script.data();
    const uint8_t* const end = begin + script.size();
    const uint8_t* it = begin;
    uint8_t op;
    size_t separators = 0;
    while (GetScriptOp(it, end, op)) {
        if (op == OP_CODESEPARATOR) ++separators;
    }
    WriteCompactSize(s, script.size() - separators);
    it = begin;
    const uint8_t* it_begin = begin;
    while (GetScriptOp(it, end, op)) {
        if (op == OP_CODESEPARATOR) {
            s.Write(it_begin, static_cast<size_t>(it - it_begin - 1));
            it_begin = it;
        }
    }
    if (it_begin != end) s.Write(it_begin, static_cast<size_t>(it - it_begin));
}

/** CTxOut serialization of output `o` of `tx`. */
template <typename Sink>
void SerializeOutput(Sink& s, const TxOut& o) {
    SerializeTxOut(s, o.value, o.script_pubkey);
}

/** Streams 0x00 || SigMsg (BIP341 "Common signature message") into `s`, with ext_flag 0 when
 *  `ext` is null (key path) and ext_flag 1 plus the BIP342 extension otherwise (tapscript).
 *  `sha_annex` is the annex's hash, null without an annex. */
template <typename Sink>
bool WriteTaprootSigMsg(Sink& s, const Transaction& tx, size_t n_in, uint8_t hash_type,
                        const PrecomputedTxData& pre, const Hash32* sha_annex, const TapscriptSigExt* ext) {
    // BIP341 "Signature validation rules": hash_type must be 0x00-0x03 or 0x81-0x83.
    if (!(hash_type <= 0x03 || (hash_type >= 0x81 && hash_type <= 0x83))) return false;
    // SIGHASH_DEFAULT (0x00) behaves as SIGHASH_ALL for the outputs.
    const uint8_t output_type = hash_type == SIGHASH_DEFAULT ? SIGHASH_ALL : (hash_type & SIGHASH_OUTPUT_MASK);
    const uint8_t input_type = hash_type & SIGHASH_INPUT_MASK;
    // BIP341: "If hash_type & 3 equals SIGHASH_SINGLE and no output at input_index: fail".
    if (output_type == SIGHASH_SINGLE && n_in >= tx.vout.size()) return false;

    // BIP341 "Signature hash": the epoch byte 0x00 precedes SigMsg.
    WriteU8(s, 0x00);
    // Control: hash_type (1).
    WriteU8(s, hash_type);
    // Transaction data: nVersion (4), nLockTime (4).
    WriteLE32(s, static_cast<uint32_t>(tx.version));
    WriteLE32(s, tx.lock_time);
    // If not ANYONECANPAY: sha_prevouts, sha_amounts, sha_scriptpubkeys, sha_sequences.
    if (input_type != SIGHASH_ANYONECANPAY) {
        s.Write(pre.sha_prevouts.data(), 32);
        s.Write(pre.sha_amounts.data(), 32);
        s.Write(pre.sha_scriptpubkeys.data(), 32);
        s.Write(pre.sha_sequences.data(), 32);
    }
    // If output type is neither NONE nor SINGLE: sha_outputs.
    if (output_type == SIGHASH_ALL) s.Write(pre.sha_outputs.data(), 32);
    // Data about this input: spend_type = ext_flag * 2 + annex_present (BIP341; ext_flag is 0
    // for the key path, 1 for tapscript, BIP342 "Signature validation").
    const bool have_annex = sha_annex != nullptr;
    const uint8_t ext_flag = ext != nullptr ? 1 : 0;
    WriteU8(s, static_cast<uint8_t>(ext_flag * 2 + (have_annex ? 1 : 0)));
    if (input_type == SIGHASH_ANYONECANPAY) {
        // outpoint (36), amount (8), scriptPubKey (CompactSize + bytes), nSequence (4).
        const TxIn& in = tx.vin[n_in];
        SerializeOutPoint(s, in.prevout);
        SerializeTxOut(s, pre.spent[n_in]->value, pre.spent[n_in]->script_pubkey);
        WriteLE32(s, in.sequence);
    } else {
        // input_index (4).
        WriteLE32(s, static_cast<uint32_t>(n_in));
    }
    // If an annex is present: sha_annex = SHA256(CompactSize(size) || annex).
    if (have_annex) s.Write(sha_annex->data(), 32);
    // Data about this output, for SINGLE: sha_single_output = SHA256(vout[input_index]).
    if (output_type == SIGHASH_SINGLE) {
        Sha256 h;
        SerializeOutput(h, tx.vout[n_in]);
        const Hash32 sha_single_output = h.Finalize();
        s.Write(sha_single_output.data(), 32);
    }
    // BIP342 "Signature validation", ext_flag 1: tapleaf_hash (32), key_version (1) = 0x00 (the
    // only key version, 32-byte keys), codesep_pos (4, LE).
    if (ext != nullptr) {
        s.Write(ext->tapleaf_hash.data(), 32);
        WriteU8(s, 0x00);
        WriteLE32(s, ext->codesep_pos);
    }
    return true;
}

/** The TapSighash tagged hasher, prefix computed once (BIP340 tagged hash). */
const Sha256& TapSighashHasher() {
    static const Sha256 hasher = TaggedHasher("TapSighash");
    return hasher;
}

}  // namespace

void PrecomputedTxData::Init(const Transaction& tx, std::vector<const SpentOutput*> spent_outputs, bool need_bip143,
                             bool need_bip341) {
    spent = std::move(spent_outputs);
    legacy = LegacySighashCache();
    bip143_ready = bip341_ready = false;
    if (!need_bip143 && !need_bip341) return;
    if (need_bip341 && spent.size() != tx.vin.size()) {
        throw Error("BIP341 precomputation needs one spent output per input (" + std::to_string(spent.size()) +
                        " for " + std::to_string(tx.vin.size()) + " inputs)",
                    Location{});
    }
    // Core's GetPrevoutsSHA256, GetSequencesSHA256, GetOutputsSHA256 (single SHA-256).
    Sha256 prevouts, sequences, outputs;
    for (const TxIn& in : tx.vin) {
        SerializeOutPoint(prevouts, in.prevout);
        WriteLE32(sequences, in.sequence);
    }
    for (const TxOut& out : tx.vout) SerializeOutput(outputs, out);
    sha_prevouts = prevouts.Finalize();
    sha_sequences = sequences.Finalize();
    sha_outputs = outputs.Finalize();
    if (need_bip143) {
        // BIP143 double hashes = SHA256 of the single ones (Core's SHA256Uint256).
        hash_prevouts = Sha256Hash(sha_prevouts.data(), 32);
        hash_sequence = Sha256Hash(sha_sequences.data(), 32);
        hash_outputs = Sha256Hash(sha_outputs.data(), 32);
        bip143_ready = true;
    }
    if (need_bip341) {
        // Core's GetSpentAmountsSHA256 and GetSpentScriptsSHA256.
        Sha256 amounts, scripts;
        for (const SpentOutput* o : spent) {
            WriteLE64(amounts, static_cast<uint64_t>(o->value));
            WriteVarBytes(scripts, o->script_pubkey);
        }
        sha_amounts = amounts.Finalize();
        sha_scriptpubkeys = scripts.Finalize();
        bip341_ready = true;
    }
}

namespace {

/** BLANKED(k) of LegacySighashCache: input k of the legacy serialization when it is not the
 *  input being signed (Core's CTransactionSignatureSerializer::SerializeInput): prevout, an
 *  empty script, and nSequence, or 0 when `zero_sequence` (type NONE or SINGLE). */
template <typename Sink>
void SerializeBlankedInput(Sink& s, const TxIn& in, bool zero_sequence) {
    SerializeOutPoint(s, in.prevout);
    WriteCompactSize(s, 0);
    WriteLE32(s, zero_sequence ? 0 : in.sequence);
}

/** Core's SignatureHash (SigVersion::BASE): CTransactionSignatureSerializer::Serialize, then
 *  `<< nHashType`, into `s` (HashWriter). With `cache` (Sha256 sinks only; not with
 *  ANYONECANPAY, whose serialization has one input), PREFIX and, for the types that keep
 *  nSequence and every output, TAIL come from it (LegacySighashCache). The caller has ruled
 *  out an out-of-range input and the SIGHASH_SINGLE bug. */
template <typename Sink>
void WriteLegacyMessage(Sink& sink, const std::vector<uint8_t>& script_code, const Transaction& tx, size_t n_in,
                        int32_t hash_type, LegacySighashCache* cache, size_t* hashed = nullptr) {
    // Every byte goes through `s`, which counts them; the cache's prefix state is assigned to
    // `sink` itself (and counts its own).
    struct Tee {
        Sink& inner;
        size_t bytes = 0;
        Tee& Write(const uint8_t* data, size_t len) {
            inner.Write(data, len);
            bytes += len;
            return *this;
        }
    } s{sink};
    const bool anyone_can_pay = (hash_type & SIGHASH_ANYONECANPAY) != 0;
    const bool hash_single = (hash_type & 0x1f) == SIGHASH_SINGLE;
    const bool hash_none = (hash_type & 0x1f) == SIGHASH_NONE;
    const bool zero_sequences = hash_single || hash_none;  // other inputs' nSequence, so they can be updated
    if (anyone_can_pay) cache = nullptr;
    if (cache != nullptr) cache->Bind(tx);

    if (anyone_can_pay) {
        // Inputs: only n_in (SerializeInput with fAnyoneCanPay).
        WriteLE32(s, static_cast<uint32_t>(tx.version));
        WriteCompactSize(s, 1);
        SerializeOutPoint(s, tx.vin[n_in].prevout);
    } else if (cache != nullptr) {
        if constexpr (std::is_same_v<Sink, Sha256>) sink = cache->Prefix(n_in, zero_sequences, hashed);
    } else {
        WriteLE32(s, static_cast<uint32_t>(tx.version));
        WriteCompactSize(s, tx.vin.size());
        for (size_t k = 0; k < n_in; ++k) SerializeBlankedInput(s, tx.vin[k], zero_sequences);
        SerializeOutPoint(s, tx.vin[n_in].prevout);
    }
    // Input n_in: its scriptCode, and its own nSequence whatever the type.
    SerializeScriptCode(s, script_code);
    WriteLE32(s, tx.vin[n_in].sequence);
    if (cache != nullptr && !zero_sequences) {
        size_t len = 0;
        const uint8_t* tail = cache->Tail(n_in, len);
        s.Write(tail, len);
    } else {
        if (!anyone_can_pay) {
            for (size_t k = n_in + 1; k < tx.vin.size(); ++k) SerializeBlankedInput(s, tx.vin[k], zero_sequences);
        }
        // Outputs: none with NONE; n_in + 1 with SINGLE, all but the last blanked (SerializeOutput).
        const size_t n_outputs = hash_none ? 0 : (hash_single ? n_in + 1 : tx.vout.size());
        WriteCompactSize(s, n_outputs);
        for (size_t o = 0; o < n_outputs; ++o) {
            if (hash_single && o != n_in) {
                WriteLE64(s, static_cast<uint64_t>(int64_t{-1}));  // CTxOut(): nValue -1
                WriteCompactSize(s, 0);                            // empty scriptPubKey
            } else {
                SerializeOutput(s, tx.vout[o]);
            }
        }
        WriteLE32(s, tx.lock_time);
    }
    // The 4-byte hash type, as the signed int Core holds it.
    WriteLE32(s, static_cast<uint32_t>(hash_type));
    if (hashed != nullptr) *hashed += s.bytes;
}

/** Whether Core's legacy SignatureHash returns uint256::ONE without hashing: an out-of-range
 *  input, or the SIGHASH_SINGLE bug. */
bool LegacySighashIsOne(const Transaction& tx, size_t n_in, int32_t hash_type) {
    return n_in >= tx.vin.size() || ((hash_type & 0x1f) == SIGHASH_SINGLE && n_in >= tx.vout.size());
}

Hash32 LegacySighash(const std::vector<uint8_t>& script_code, const Transaction& tx, size_t n_in, int32_t hash_type,
                     LegacySighashCache* cache, size_t* hashed = nullptr) {
    if (LegacySighashIsOne(tx, n_in, hash_type)) return HashOne();
    Sha256 s;
    WriteLegacyMessage(s, script_code, tx, n_in, hash_type, cache, hashed);
    return FinalizeDouble(s);
}

/** Bytes of BLANKED(k). */
constexpr size_t kBlankedInputSize = 36 + 1 + 4;

}  // namespace

void LegacySighashCache::Bind(const Transaction& tx) {
    if (tx_ == &tx) return;
    *this = LegacySighashCache();
    tx_ = &tx;
}

void LegacySighashCache::EnsureBlanked() {
    if (!blanked_.empty()) return;
    const Transaction& tx = *tx_;
    VectorSink out{blanked_};
    WriteLE32(out, static_cast<uint32_t>(tx.version));
    WriteCompactSize(out, tx.vin.size());
    first_input_ = blanked_.size();
    blanked_.reserve(first_input_ + tx.vin.size() * kBlankedInputSize + 9 + tx.vout.size() * 34 + 4);
    for (const TxIn& in : tx.vin) SerializeBlankedInput(out, in, false);
    WriteCompactSize(out, tx.vout.size());
    for (const TxOut& o : tx.vout) SerializeOutput(out, o);
    WriteLE32(out, tx.lock_time);
}

Sha256 LegacySighashCache::Prefix(size_t n_in, bool zero_sequences, size_t* hashed) {
    size_t written = 0;
    const Transaction& tx = *tx_;
    EnsureBlanked();
    Stream& st = streams_[zero_sequences ? 1 : 0];
    if (st.checkpoints.empty()) {
        // PREFIX(0): nVersion | input count | prevout_0.
        Sha256 h;
        h.Write(blanked_.data(), first_input_ + 36);
        written += first_input_ + 36;
        st.checkpoints.push_back(h);
    }
    // Start from the cursor when it is at or before n_in and no farther than the checkpoint.
    const size_t c = std::min(n_in / kCheckpointEvery, st.checkpoints.size() - 1);
    Sha256 h;
    size_t at;
    if (st.cursor_at <= n_in && st.cursor_at >= c * kCheckpointEvery) {
        h = st.cursor;
        at = st.cursor_at;
    } else {
        h = st.checkpoints[c];
        at = c * kCheckpointEvery;
    }
    while (at < n_in) {
        // PREFIX(at) -> PREFIX(at + 1): the rest of BLANKED(at), then prevout_{at + 1}.
        if (zero_sequences) {
            WriteCompactSize(h, 0);
            WriteLE32(h, 0);
            SerializeOutPoint(h, tx.vin[at + 1].prevout);
        } else {
            h.Write(blanked_.data() + first_input_ + at * kBlankedInputSize + 36, kBlankedInputSize);
        }
        written += kBlankedInputSize;
        ++at;
        if (at % kCheckpointEvery == 0 && at / kCheckpointEvery == st.checkpoints.size()) st.checkpoints.push_back(h);
    }
    st.cursor = h;
    st.cursor_at = at;
    if (hashed != nullptr) *hashed += written;
    return h;
}

size_t LegacySighashCache::OutputsSize(const Transaction& tx) {
    Bind(tx);
    if (outputs_size_ == SIZE_MAX) {
        CountingSink out;
        WriteCompactSize(out, tx.vout.size());
        for (const TxOut& o : tx.vout) SerializeOutput(out, o);
        outputs_size_ = out.bytes;
    }
    return outputs_size_;
}

const uint8_t* LegacySighashCache::Tail(size_t n_in, size_t& len) {
    EnsureBlanked();
    const size_t from = first_input_ + (n_in + 1) * kBlankedInputSize;
    len = blanked_.size() - from;
    return blanked_.data() + from;
}

Hash32 SignatureHashLegacy(const std::vector<uint8_t>& script_code, const Transaction& tx, size_t n_in,
                           int32_t hash_type) {
    return LegacySighash(script_code, tx, n_in, hash_type, nullptr);
}

Hash32 SignatureHashLegacy(const std::vector<uint8_t>& script_code, const Transaction& tx, size_t n_in,
                           int32_t hash_type, const PrecomputedTxData& pre, size_t* hashed) {
    return LegacySighash(script_code, tx, n_in, hash_type, &pre.legacy, hashed);
}

Hash32 SignatureHashWitnessV0(const std::vector<uint8_t>& script_code, const Transaction& tx, size_t n_in,
                              int32_t hash_type, int64_t amount, const PrecomputedTxData& pre) {
    const bool anyone_can_pay = (hash_type & SIGHASH_ANYONECANPAY) != 0;
    const int type = hash_type & 0x1f;
    Hash32 hash_prevouts{}, hash_sequence{}, hash_outputs{};
    // BIP143 item 2: hashPrevouts, zero with ANYONECANPAY.
    if (!anyone_can_pay) hash_prevouts = pre.hash_prevouts;
    // BIP143 item 3: hashSequence, zero with ANYONECANPAY, SINGLE or NONE.
    if (!anyone_can_pay && type != SIGHASH_SINGLE && type != SIGHASH_NONE) hash_sequence = pre.hash_sequence;
    // BIP143 item 8: hashOutputs.
    if (type != SIGHASH_SINGLE && type != SIGHASH_NONE) {
        hash_outputs = pre.hash_outputs;
    } else if (type == SIGHASH_SINGLE && n_in < tx.vout.size()) {
        Sha256 h;
        SerializeOutput(h, tx.vout[n_in]);
        hash_outputs = FinalizeDouble(h);
    }
    const TxIn& in = tx.vin[n_in];
    Sha256 s;
    WriteLE32(s, static_cast<uint32_t>(tx.version));  // 1. nVersion
    s.Write(hash_prevouts.data(), 32);                 // 2. hashPrevouts
    s.Write(hash_sequence.data(), 32);                 // 3. hashSequence
    SerializeOutPoint(s, in.prevout);                  // 4. outpoint
    WriteVarBytes(s, script_code);                     // 5. scriptCode
    WriteLE64(s, static_cast<uint64_t>(amount));       // 6. amount
    WriteLE32(s, in.sequence);                         // 7. nSequence
    s.Write(hash_outputs.data(), 32);                  // 8. hashOutputs
    WriteLE32(s, tx.lock_time);                        // 9. nLockTime
    WriteLE32(s, static_cast<uint32_t>(hash_type));    // 10. sighash type (4 bytes)
    return FinalizeDouble(s);
}

Hash32 AnnexHash(const std::vector<uint8_t>& annex) {
    // BIP341: sha_annex = SHA256(compact_size(size of annex) || annex).
    Sha256 h;
    WriteVarBytes(h, annex);
    return h.Finalize();
}

bool TaprootSigMsgExt(const Transaction& tx, size_t n_in, uint8_t hash_type, const PrecomputedTxData& pre,
                      const Hash32* sha_annex, const TapscriptSigExt* ext, std::vector<uint8_t>& out) {
    out.clear();
    VectorSink sink{out};
    return WriteTaprootSigMsg(sink, tx, n_in, hash_type, pre, sha_annex, ext);
}

bool SignatureHashSchnorr(const Transaction& tx, size_t n_in, uint8_t hash_type, const PrecomputedTxData& pre,
                          const Hash32* sha_annex, const TapscriptSigExt* ext, Hash32& out) {
    // BIP341 "Signature hash": hash_TapSighash(0x00 || SigMsg(hash_type, ext_flag) [|| ext]).
    Sha256 h = TapSighashHasher();
    if (!WriteTaprootSigMsg(h, tx, n_in, hash_type, pre, sha_annex, ext)) return false;
    out = h.Finalize();
    return true;
}

bool TaprootSigMsg(const Transaction& tx, size_t n_in, uint8_t hash_type, const PrecomputedTxData& pre,
                   const std::vector<uint8_t>* annex, std::vector<uint8_t>& out) {
    Hash32 sha_annex{};
    if (annex != nullptr) sha_annex = AnnexHash(*annex);
    return TaprootSigMsgExt(tx, n_in, hash_type, pre, annex != nullptr ? &sha_annex : nullptr, nullptr, out);
}

bool SignatureHashTaproot(const Transaction& tx, size_t n_in, uint8_t hash_type, const PrecomputedTxData& pre,
                          const std::vector<uint8_t>* annex, Hash32& out) {
    Hash32 sha_annex{};
    if (annex != nullptr) sha_annex = AnnexHash(*annex);
    return SignatureHashSchnorr(tx, n_in, hash_type, pre, annex != nullptr ? &sha_annex : nullptr, nullptr, out);
}

bool LegacySighashMessage(const std::vector<uint8_t>& script_code, const Transaction& tx, size_t n_in,
                          int32_t hash_type, std::vector<uint8_t>& out) {
    out.clear();
    if (LegacySighashIsOne(tx, n_in, hash_type)) return false;
    VectorSink sink{out};
    WriteLegacyMessage(sink, script_code, tx, n_in, hash_type, nullptr);
    return true;
}

size_t LegacySighashMessageSize(const std::vector<uint8_t>& script_code, const Transaction& tx, size_t n_in,
                                int32_t hash_type, const PrecomputedTxData& pre) {
    if (LegacySighashIsOne(tx, n_in, hash_type)) return 0;
    const bool anyone_can_pay = (hash_type & SIGHASH_ANYONECANPAY) != 0;
    const bool hash_single = (hash_type & 0x1f) == SIGHASH_SINGLE;
    const bool hash_none = (hash_type & 0x1f) == SIGHASH_NONE;
    CountingSink script;
    SerializeScriptCode(script, script_code);
    // nVersion, the inputs (BLANKED for all but n_in), the outputs, nLockTime, hash_type.
    size_t n = 4 + script.bytes + 4;
    if (anyone_can_pay) {
        n += CompactSizeLength(1) + 36;
    } else {
        n += CompactSizeLength(tx.vin.size()) + (tx.vin.size() - 1) * kBlankedInputSize + 36;
    }
    if (hash_none) {
        n += CompactSizeLength(0);
    } else if (hash_single) {
        CountingSink out;
        SerializeOutput(out, tx.vout[n_in]);
        n += CompactSizeLength(n_in + 1) + n_in * 9 + out.bytes;  // 9: CTxOut() is -1 and an empty script
    } else {
        n += pre.legacy.OutputsSize(tx);
    }
    return n + 4 + 4;
}

size_t WitnessV0SighashMessageSize(const std::vector<uint8_t>& script_code) {
    // nVersion, hashPrevouts, hashSequence, outpoint | scriptCode | amount, nSequence,
    // hashOutputs, nLockTime, hash_type.
    return 4 + 32 + 32 + 36 + CompactSizeLength(script_code.size()) + script_code.size() + 8 + 4 + 32 + 4 + 4;
}

size_t TaprootSighashMessageSize(const Transaction& tx, size_t n_in, uint8_t hash_type, const PrecomputedTxData& pre,
                                 bool have_annex, bool tapscript) {
    if (!(hash_type <= 0x03 || (hash_type >= 0x81 && hash_type <= 0x83))) return 0;
    const uint8_t output_type = hash_type == SIGHASH_DEFAULT ? SIGHASH_ALL : (hash_type & SIGHASH_OUTPUT_MASK);
    const bool anyone_can_pay = (hash_type & SIGHASH_INPUT_MASK) == SIGHASH_ANYONECANPAY;
    if (output_type == SIGHASH_SINGLE && n_in >= tx.vout.size()) return 0;
    size_t n = 1 + 1 + 4 + 4 + 1;  // epoch, hash_type, nVersion, nLockTime, spend_type
    if (!anyone_can_pay) n += 4 * 32 + 4;  // the four per-transaction hashes, input_index
    if (output_type == SIGHASH_ALL) n += 32;
    if (anyone_can_pay) {
        const std::vector<uint8_t>& spk = pre.spent[n_in]->script_pubkey;
        n += 36 + 8 + CompactSizeLength(spk.size()) + spk.size() + 4;
    }
    if (have_annex) n += 32;
    if (output_type == SIGHASH_SINGLE) n += 32;
    if (tapscript) n += 32 + 1 + 4;  // BIP342: tapleaf_hash, key_version, codesep_pos
    return n;
}

size_t PrecomputeBytes(const Transaction& tx, const std::vector<const SpentOutput*>& spent, bool need_bip143,
                       bool need_bip341) {
    if (!need_bip143 && !need_bip341) return 0;
    CountingSink outputs;
    for (const TxOut& out : tx.vout) SerializeOutput(outputs, out);
    size_t n = tx.vin.size() * (36 + 4) + outputs.bytes;  // prevouts, sequences, outputs
    if (need_bip143) n += 3 * 32;                         // their second SHA-256
    if (need_bip341) {
        for (const SpentOutput* o : spent) n += 8 + CompactSizeLength(o->script_pubkey.size()) + o->script_pubkey.size();
    }
    return n;
}

}  // namespace ibd
