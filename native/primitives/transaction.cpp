// Implementation of transaction.h, following Core's primitives/transaction.h serialization and
// consensus/tx_check.cpp.
#include "primitives/transaction.h"

#include <algorithm>

namespace ibd {

namespace {

// Smallest serialized CTxIn: 36-byte prevout, 1-byte empty scriptSig, 4-byte nSequence.
constexpr size_t kMinTxInSize = 41;
// Smallest serialized CTxOut: 8-byte value, 1-byte empty scriptPubKey.
constexpr size_t kMinTxOutSize = 9;
// Core's MAX_BLOCK_WEIGHT and WITNESS_SCALE_FACTOR (consensus/consensus.h).
constexpr size_t kMaxBlockWeight = 4000000;
constexpr size_t kWitnessScaleFactor = 4;

/** Re-throws `e` with the input index filled in. */
[[noreturn]] void RethrowForInput(const Error& e, size_t input_index) {
    Location in;
    in.input_index = static_cast<int64_t>(input_index);
    throw e.with_context(in);
}

/** Reads `vin` (Core's `s >> tx.vin`); without `keep`, each scriptSig is passed over
 *  (SkimTransaction). */
void ReadInputs(Reader& r, std::vector<TxIn>& vin, bool keep) {
    const size_t count = r.ReadCount("input count", kMinTxInSize);
    vin.resize(count);
    for (size_t i = 0; i < count; ++i) {
        TxIn& in = vin[i];
        // The skim's fast path: an input whose scriptSig length is one byte and whose bytes are
        // all there, read with no call that can throw (Reader::TrySkip). Anything else takes
        // the checked reads below, which name the problem.
        size_t script_len = 0;
        if (!keep && r.PeekShortCompactSize(36, script_len) && r.remaining() >= 41 + script_len) {
            const uint8_t* p = r.cursor();
            in.offset = r.offset();
            std::copy(p, p + 32, in.prevout.txid.begin());
            in.prevout.n = LoadLE32(p + 32);
            in.sequence = LoadLE32(p + 37 + script_len);
            r.TrySkip(41 + script_len);
            continue;
        }
        try {
            in.offset = r.offset();
            r.ReadArray(in.prevout.txid, "prevout txid");
            in.prevout.n = r.ReadLE32("prevout index");
            if (keep) {
                in.script_sig = r.ReadVarBytes("scriptSig");
            } else {
                r.SkipVarBytes("scriptSig");
            }
            in.sequence = r.ReadLE32("nSequence");
        } catch (const Error& e) {
            RethrowForInput(e, i);
        }
    }
}

/** Reads `vout` (Core's `s >> tx.vout`); without `keep`, each scriptPubKey is passed over. */
void ReadOutputs(Reader& r, std::vector<TxOut>& vout, bool keep) {
    const size_t count = r.ReadCount("output count", kMinTxOutSize);
    vout.resize(count);
    for (size_t i = 0; i < count; ++i) {
        vout[i].offset = r.offset();
        vout[i].value = r.ReadI64("output value");
        if (keep) {
            vout[i].script_pubkey = r.ReadVarBytes("scriptPubKey");
        } else {
            r.SkipVarBytes("scriptPubKey");
        }
    }
}

/** ParseTransaction (`keep`: scripts, witnesses and hashes) or SkimTransaction (without them):
 *  the same reads in the same order, so the same errors at the same offsets. */
Transaction ReadTransaction(Reader& r, bool keep);

}  // namespace

bool OutPoint::IsNull() const {
    if (n != 0xffffffffu) return false;
    for (uint8_t b : txid) {
        if (b != 0) return false;
    }
    return true;
}

bool Transaction::IsCoinBase() const { return vin.size() == 1 && vin[0].prevout.IsNull(); }

bool Transaction::HasWitness() const {
    for (const TxIn& in : vin) {
        if (!in.witness.empty()) return true;
    }
    return false;
}

Transaction ParseTransaction(Reader& r) { return ReadTransaction(r, true); }

Transaction SkimTransaction(Reader& r) { return ReadTransaction(r, false); }

namespace {

Transaction ReadTransaction(Reader& r, bool keep) {
    Transaction tx;
    const size_t start = r.pos();
    tx.offset = r.offset();
    tx.version = r.ReadI32("nVersion");

    // Core's UnserializeTransaction: try to read vin; with the BIP144 marker this reads as an
    // empty vector, and the next byte is the flag.
    uint8_t flags = 0;
    size_t body_begin = r.pos();  // first byte of the non-witness vin..vout range
    ReadInputs(r, tx.vin, keep);
    if (tx.vin.empty()) {
        flags = r.ReadU8("segwit flag");
        if (flags != 0) {
            body_begin = r.pos();
            ReadInputs(r, tx.vin, keep);
            ReadOutputs(r, tx.vout, keep);
        }
    } else {
        ReadOutputs(r, tx.vout, keep);
    }
    const size_t body_end = r.pos();

    if (flags & 1) {
        // BIP144: the witness flag is present; one witness stack per input.
        flags ^= 1;
        bool any_witness = false;  // tx.HasWitness(), also when the stacks are skipped
        for (size_t i = 0; i < tx.vin.size(); ++i) {
            try {
                const size_t items = r.ReadCount("witness item count", 1);
                any_witness = any_witness || items > 0;
                if (keep) {
                    std::vector<std::vector<uint8_t>>& stack = tx.vin[i].witness;
                    stack.resize(items);
                    for (size_t k = 0; k < items; ++k) stack[k] = r.ReadVarBytes("witness item");
                } else {
                    for (size_t k = 0; k < items; ++k) {
                        size_t len = 0;  // fast path as in ReadInputs
                        if (r.PeekShortCompactSize(0, len) && r.TrySkip(1 + len)) continue;
                        r.SkipVarBytes("witness item");
                    }
                }
            } catch (const Error& e) {
                RethrowForInput(e, i);
            }
        }
        if (!any_witness) {
            // It is illegal to encode witnesses when all witness stacks are empty.
            // Located at the marker (0x00, flag 0x01) that announced them.
            r.Fail("superfluous witness record: witness flag set but every input's witness stack is empty", tx.offset + 4);
        }
    }
    if (flags != 0) r.Fail("unknown transaction optional data (flag " + std::to_string(flags) + ")", body_begin - 1);
    tx.lock_time = r.ReadLE32("nLockTime");
    const size_t end = r.pos();

    tx.size = end - start;
    const uint8_t* base = r.data();
    if (!keep) {
        tx.stripped_size = body_begin == start + 4 ? tx.size : 4 + (body_end - body_begin) + 4;
    } else if (body_begin == start + 4) {
        // No marker/flag: the whole serialization is the non-witness one.
        tx.stripped_size = tx.size;
        tx.txid = Sha256d(base + start, tx.size);
        tx.wtxid = tx.txid;
    } else {
        // txid hashes nVersion || vin..vout || nLockTime, skipping marker, flag and witnesses.
        Sha256 h;
        h.Write(base + start, 4);
        h.Write(base + body_begin, body_end - body_begin);
        h.Write(base + end - 4, 4);
        tx.txid = FinalizeDouble(h);
        tx.wtxid = Sha256d(base + start, tx.size);
        tx.stripped_size = 4 + (body_end - body_begin) + 4;
    }
    return tx;
}

}  // namespace

Transaction ParseTransaction(const uint8_t* data, size_t len) {
    Reader r(data, len);
    Transaction tx = ParseTransaction(r);
    if (!r.empty()) {
        r.Fail(std::to_string(r.remaining()) + " trailing bytes after the transaction", r.offset());
    }
    return tx;
}

void CheckTransaction(const Transaction& tx) {
    Location where;
    where.byte_offset = static_cast<int64_t>(tx.offset);
    // Basic checks that don't depend on any context.
    if (tx.vin.empty()) throw Error("bad-txns-vin-empty", where);
    if (tx.vout.empty()) throw Error("bad-txns-vout-empty", where);
    // Size limits (this doesn't take the witness into account, as that hasn't been checked).
    if (tx.stripped_size * kWitnessScaleFactor > kMaxBlockWeight) throw Error("bad-txns-oversize", where);

    // Check for negative or overflow output values.
    const auto at_output = [&](size_t o) {
        Location at;
        at.output_index = static_cast<int64_t>(o);
        at.byte_offset = static_cast<int64_t>(tx.vout[o].offset);
        return at;
    };
    int64_t total = 0;
    for (size_t o = 0; o < tx.vout.size(); ++o) {
        const int64_t value = tx.vout[o].value;
        if (value < 0) throw Error("bad-txns-vout-negative: output value " + std::to_string(value) + " sat", at_output(o));
        if (value > kMaxMoney) {
            throw Error("bad-txns-vout-toolarge: output value " + std::to_string(value) + " sat, above 21,000,000 BTC",
                        at_output(o));
        }
        total += value;  // both <= kMaxMoney: no overflow
        if (total > kMaxMoney) {
            throw Error("bad-txns-txouttotal-toolarge: the outputs up to this one sum to " + std::to_string(total) +
                            " sat, above 21,000,000 BTC",
                        at_output(o));
        }
    }

    // Check for duplicate inputs (CVE-2018-17144): input indices sorted by prevout, then index,
    // so that equal neighbours are a repeat of the earlier input.
    std::vector<size_t> order(tx.vin.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    auto less = [&](size_t a, size_t b) {
        const OutPoint& pa = tx.vin[a].prevout;
        const OutPoint& pb = tx.vin[b].prevout;
        if (pa.txid != pb.txid) return pa.txid < pb.txid;
        if (pa.n != pb.n) return pa.n < pb.n;
        return a < b;
    };
    std::sort(order.begin(), order.end(), less);
    size_t repeat = tx.vin.size(), first = 0;  // the lowest input index that repeats an earlier one
    for (size_t k = 1; k < order.size(); ++k) {
        if (tx.vin[order[k - 1]].prevout == tx.vin[order[k]].prevout && order[k] < repeat) {
            repeat = order[k];
            first = order[k - 1];
        }
    }
    if (repeat < tx.vin.size()) {
        Location at;
        at.input_index = static_cast<int64_t>(repeat);
        at.byte_offset = static_cast<int64_t>(tx.vin[repeat].offset);
        throw Error("bad-txns-inputs-duplicate: input " + std::to_string(repeat) + " spends the same prevout as input " +
                        std::to_string(first),
                    at);
    }

    if (tx.IsCoinBase()) {
        const size_t n = tx.vin[0].script_sig.size();
        if (n < 2 || n > 100) throw Error("bad-cb-length", where);
    } else {
        for (size_t i = 0; i < tx.vin.size(); ++i) {
            if (tx.vin[i].prevout.IsNull()) {
                Location at;
                at.input_index = static_cast<int64_t>(i);
                at.byte_offset = static_cast<int64_t>(tx.vin[i].offset);
                throw Error("bad-txns-prevout-null", at);
            }
        }
    }
}

}  // namespace ibd
