// Transactions as Bitcoin Core's CTransaction (primitives/transaction.h), parsed from the network
// serialization with BIP144 witness support, plus txid / wtxid and the byte offsets needed to
// name a problem's place in the block.
//
// Serialization (Core's SerializeTransaction / UnserializeTransaction):
//   nVersion            4   int32 LE
//   [marker 0x00, flag] 2   BIP144 "extended format", present iff the tx has witness data
//   vin count           CompactSize, then per input (CTxIn):
//       prevout.hash    32  txid of the spent tx, internal byte order
//       prevout.n       4   uint32 LE output index
//       scriptSig       CompactSize length + bytes
//       nSequence       4   uint32 LE
//   vout count          CompactSize, then per output (CTxOut):
//       nValue          8   int64 LE satoshis
//       scriptPubKey    CompactSize length + bytes
//   [witness]           per input: CompactSize item count, then each item CompactSize + bytes
//   nLockTime           4   uint32 LE
// txid = SHA256d(serialization without marker, flag and witness); wtxid = SHA256d(all of it)
// (BIP141 "Transaction ID").
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "crypto/sha256.h"
#include "primitives/serialize.h"

namespace ibd {

/** Core's COutPoint: the output being spent. */
struct OutPoint {
    Hash32 txid{};       // internal byte order (display hex is reversed)
    uint32_t n = 0;      // output index
    /** Core's COutPoint::IsNull: all-zero txid and n == 0xffffffff (the coinbase's prevout). */
    bool IsNull() const;
    bool operator==(const OutPoint& other) const { return txid == other.txid && n == other.n; }
};

/** A txid's hash for unordered containers: its first 8 bytes, already uniform (not salted, unlike
 *  Core's SaltedTxidHasher: a block or chain built to collide costs only time, which the
 *  containers' budgets bound). */
struct TxidHasher {
    size_t operator()(const Hash32& txid) const {
        uint64_t a = 0;
        std::memcpy(&a, txid.data(), sizeof a);
        return static_cast<size_t>(a);
    }
};

/** An outpoint's hash for unordered containers: TxidHasher's, mixed with the output index. */
struct OutPointHasher {
    size_t operator()(const OutPoint& o) const { return TxidHasher{}(o.txid) ^ static_cast<size_t>(uint64_t{o.n} * 0x9e3779b97f4a7c15ULL); }
};

/** Core's CTxIn plus its witness stack (CScriptWitness). */
struct TxIn {
    OutPoint prevout;
    std::vector<uint8_t> script_sig;
    uint32_t sequence = 0xffffffff;
    std::vector<std::vector<uint8_t>> witness;  // scriptWitness.stack, bottom first
    size_t offset = 0;  // absolute byte offset of the input (its prevout) in the parsed buffer
};

/** Core's CTxOut. */
struct TxOut {
    int64_t value = 0;  // satoshis
    std::vector<uint8_t> script_pubkey;
    size_t offset = 0;  // absolute byte offset of the output (its nValue) in the parsed buffer; 0 for a spent output
};

/** A spent output: the CTxOut an input spends (Core's Coin::out; PrecomputedTransactionData and
 *  the sighashes take them as CTxOut). Amount in satoshis and scriptPubKey. */
using SpentOutput = TxOut;

/** Core's Coin (coins.h): one unspent output with the height of the block that created it and
 *  whether that transaction was its coinbase (coinbase maturity, BIP30). */
struct Coin {
    TxOut out;               // value (satoshis) and scriptPubKey; out.offset is not kept (0)
    int32_t height = 0;      // nHeight: height of the block holding the creating transaction
    bool coinbase = false;   // fCoinBase: created by that block's coinbase
};


/** Core's CTransaction with hashes and positions filled in by ParseTransaction. */
struct Transaction {
    int32_t version = 0;
    std::vector<TxIn> vin;
    std::vector<TxOut> vout;
    uint32_t lock_time = 0;

    Hash32 txid{};   // SHA256d of the non-witness serialization
    Hash32 wtxid{};  // SHA256d of the full serialization (== txid without witness data)
    size_t offset = 0;         // absolute byte offset of nVersion in the parsed buffer
    size_t size = 0;           // full serialized size in bytes
    size_t stripped_size = 0;  // size without marker, flag and witnesses

    /** Core's CTransaction::IsCoinBase: exactly one input whose prevout IsNull. */
    bool IsCoinBase() const;
    /** Core's CTransaction::HasWitness: some input has a non-empty witness stack. */
    bool HasWitness() const;
};

/** Parses one transaction at the reader's position, exactly as Core's UnserializeTransaction
 *  with witness allowed, and computes txid and wtxid. Leaves the reader after nLockTime.
 *  Throws Error located at the failing byte offset (and input_index for errors inside an input
 *  or its witness) for: truncation, non-canonical or oversized CompactSize, a count larger than
 *  the data left, "superfluous witness record" (flag 1 with all witness stacks empty; located at the
 *  marker byte, nVersion + 4), and
 *  "unknown transaction optional data" (a flag other than 1). */
Transaction ParseTransaction(Reader& r);

/** Reads one transaction as ParseTransaction does, with the same checks and the same errors at
 *  the same offsets, but keeps only its shape: version, each input's prevout, nSequence and
 *  offset, each output's value and offset, nLockTime, offset, size and stripped_size. No
 *  scriptSig, scriptPubKey or witness bytes are copied and no hash is computed (txid and wtxid
 *  stay zero). For the transactions of a block that a range of it (BlockScope,
 *  validation/block_validation.h) only needs to pass over. */
Transaction SkimTransaction(Reader& r);

/** Parses a buffer holding exactly one transaction; trailing bytes are an Error. */
Transaction ParseTransaction(const uint8_t* data, size_t len);

/** Core's CheckTransaction (consensus/tx_check.cpp), context-free transaction rules: non-empty
 *  vin and vout, stripped size * 4 <= 4,000,000, each output value and their sum within
 *  0..MAX_MONEY, no duplicate prevouts, coinbase scriptSig of 2..100 bytes, no null prevout in
 *  a non-coinbase. Throws Error with Core's reject reason ("bad-txns-vin-empty", ...) and the
 *  place at fault: the output and its byte offset for bad-txns-vout-negative, -vout-toolarge and
 *  -txouttotal-toolarge (the output where the sum passes MAX_MONEY); the input for
 *  bad-txns-inputs-duplicate (the lowest-indexed input repeating an earlier one's prevout) and
 *  bad-txns-prevout-null; otherwise the tx's byte offset. */
void CheckTransaction(const Transaction& tx);

/** 21,000,000 BTC in satoshis (Core's MAX_MONEY, consensus/amount.h). */
constexpr int64_t kMaxMoney = 2100000000000000LL;

/** Serializes a COutPoint: 32-byte txid (internal order) then n as uint32 LE (36 bytes). */
template <typename Sink>
void SerializeOutPoint(Sink& s, const OutPoint& o) {
    s.Write(o.txid.data(), o.txid.size());
    WriteLE32(s, o.n);
}

/** Serializes a CTxOut: nValue as int64 LE, then scriptPubKey with its CompactSize length. */
template <typename Sink>
void SerializeTxOut(Sink& s, int64_t value, const std::vector<uint8_t>& script_pubkey) {
    WriteLE64(s, static_cast<uint64_t>(value));
    WriteVarBytes(s, script_pubkey);
}

}  // namespace ibd
