// ParseSpentOutputsJson and the binary form (spent_outputs.h). The fixtures' normalized
// spent_outputs.json is read with nlohmann::json. Format (../shared/blocks-fixtures/README.md, "spent_outputs.json"):
//   { ..., "spent_outputs": [ {"txid": "<64 hex, display order>", "vout": <uint32>,
//                              "value": <satoshis>, "script_pubkey": "<hex>"}, ... ] }
#include "validation/spent_outputs.h"

#include <algorithm>
#include <cstring>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "primitives/block.h"
#include "primitives/hex.h"
#include "primitives/serialize.h"
#include "primitives/transaction.h"
#include "undo/block_undo.h"
#include "util/error.h"

namespace ibd {

namespace {

using nlohmann::json;

/** Entry errors are named in the reason ("spent_outputs[k]..."); the location stays empty:
 *  entry k is not input k of any transaction (spent_outputs.h). */
Location EntryLocation(size_t) { return Location{}; }

[[noreturn]] void FailField(size_t index, const char* field, const std::string& problem) {
    throw Error("spent_outputs[" + std::to_string(index) + "]." + field + ": " + problem, EntryLocation(index));
}

const json& Field(const json& entry, size_t index, const char* field) {
    const auto it = entry.find(field);
    if (it == entry.end()) FailField(index, field, "missing");
    return *it;
}

/** An integer field that must be >= 0 (floats such as 1.5 or 1e3 are rejected). */
uint64_t NonNegativeInteger(const json& v, size_t index, const char* field) {
    if (!v.is_number_integer()) {
        FailField(index, field, v.is_number_float() ? "not a 64-bit integer (a fraction, or outside -2^63..2^64-1)"
                                                    : "not an integer");
    }
    if (v.is_number_unsigned()) return v.get<uint64_t>();
    const int64_t signed_value = v.get<int64_t>();
    if (signed_value < 0) FailField(index, field, "negative");
    return static_cast<uint64_t>(signed_value);
}

SpentOutputEntry ParseEntry(const json& entry, size_t index) {
    if (!entry.is_object()) {
        throw Error("spent_outputs[" + std::to_string(index) + "]: not an object", EntryLocation(index));
    }
    SpentOutputEntry out;

    const json& txid = Field(entry, index, "txid");
    if (!txid.is_string()) FailField(index, "txid", "not a string");
    if (!TryParseHashDisplayHex(txid.get_ref<const std::string&>(), out.prevout.txid)) {
        FailField(index, "txid", "not 64 hex digits");
    }

    const json& vout = Field(entry, index, "vout");
    const uint64_t n = NonNegativeInteger(vout, index, "vout");
    if (n > 0xffffffffULL) FailField(index, "vout", "above 4294967295");
    out.prevout.n = static_cast<uint32_t>(n);

    // Any 64-bit amount is taken: whether it is in range (0 to 21,000,000 BTC) is a consensus
    // rule, Consensus::CheckTxInputs' bad-txns-inputvalues-outofrange, judged with the block.
    const json& value = Field(entry, index, "value");
    if (!value.is_number_integer()) {
        // nlohmann reads an integer beyond 64 bits as a float: say so rather than "not an integer".
        FailField(index, "value", value.is_number_float() ? "not a 64-bit integer (a fraction, or outside -2^63..2^63-1)"
                                                          : "not an integer");
    }
    if (value.is_number_unsigned() && value.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
        FailField(index, "value", "above 2^63-1 satoshis (not a 64-bit amount)");
    }
    out.out.value = value.get<int64_t>();

    const json& script = Field(entry, index, "script_pubkey");
    if (!script.is_string()) FailField(index, "script_pubkey", "not a string");
    if (!TryHexDecode(script.get_ref<const std::string&>(), out.out.script_pubkey)) {
        FailField(index, "script_pubkey", "not hex");
    }
    return out;
}

}  // namespace

std::vector<SpentOutputEntry> ParseSpentOutputsJson(std::string_view text) {
    json doc;
    try {
        doc = json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        Location at;
        // nlohmann reports the 1-based index of the last byte read.
        if (e.byte > 0) at.byte_offset = static_cast<int64_t>(e.byte - 1);
        throw Error(std::string("spent outputs JSON does not parse: ") + e.what(), at);
    } catch (const json::exception& e) {
        throw Error(std::string("spent outputs JSON does not parse: ") + e.what(), Location{});
    }
    if (!doc.is_object()) throw Error("spent outputs JSON: top level is not an object", Location{});
    const auto list = doc.find("spent_outputs");
    if (list == doc.end()) throw Error("spent outputs JSON: no \"spent_outputs\" field", Location{});
    if (!list->is_array()) throw Error("spent outputs JSON: \"spent_outputs\" is not an array", Location{});

    std::vector<SpentOutputEntry> entries;
    entries.reserve(list->size());
    for (size_t i = 0; i < list->size(); ++i) {
        try {
            entries.push_back(ParseEntry((*list)[i], i));
        } catch (const json::exception& e) {
            // Type checks above make this unreachable; kept so no nlohmann exception escapes.
            throw Error("spent_outputs[" + std::to_string(i) + "]: " + e.what(), EntryLocation(i));
        }
    }
    return entries;
}

namespace {

void PutLE(std::vector<uint8_t>& out, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

void PutCompactSize(std::vector<uint8_t>& out, uint64_t n) {
    if (n < 0xfd) {
        out.push_back(static_cast<uint8_t>(n));
    } else if (n <= 0xffff) {
        out.push_back(0xfd);
        PutLE(out, n, 2);
    } else if (n <= 0xffffffffu) {
        out.push_back(0xfe);
        PutLE(out, n, 4);
    } else {
        out.push_back(0xff);
        PutLE(out, n, 8);
    }
}

}  // namespace

std::vector<uint8_t> SerializeSpentOutputs(const std::vector<SpentOutputEntry>& entries) {
    std::vector<uint8_t> out(kSpentOutputsMagic, kSpentOutputsMagic + 4);
    PutLE(out, entries.size(), 4);
    for (const SpentOutputEntry& e : entries) {
        out.insert(out.end(), e.prevout.txid.begin(), e.prevout.txid.end());
        PutLE(out, e.prevout.n, 4);
        PutLE(out, static_cast<uint64_t>(e.out.value), 8);
        PutCompactSize(out, e.out.script_pubkey.size());
        out.insert(out.end(), e.out.script_pubkey.begin(), e.out.script_pubkey.end());
    }
    return out;
}

std::vector<SpentOutputEntry> ParseSpentOutputsBinary(const uint8_t* data, size_t len) {
    return ParseSpentOutputsBinary(data, len, 0, SIZE_MAX, nullptr);
}

std::vector<SpentOutputEntry> ParseSpentOutputsBinary(const uint8_t* data, size_t len, size_t first, size_t count,
                                                      size_t* total) {
    Reader r(data, len);
    const auto fail = [&](const std::string& what) {
        Location at;
        at.byte_offset = static_cast<int64_t>(r.offset());
        throw Error("spent outputs (binary): " + what, at);
    };
    if (len < 8 || std::memcmp(data, kSpentOutputsMagic, 4) != 0) {
        Location at;
        at.byte_offset = 0;
        throw Error("spent outputs (binary): does not start with the magic \"IBS1\" and a count (" +
                        std::to_string(len) + " bytes)",
                    at);
    }
    r.ReadBytes(4, "magic");
    const uint32_t n = r.ReadLE32("entry count");
    // Each entry takes at least 45 bytes (outpoint 36, value 8, script length 1).
    if (n > r.remaining() / 45) fail("entry count " + std::to_string(n) + " exceeds what " +
                                    std::to_string(r.remaining()) + " bytes can hold");
    const size_t begin = std::min<size_t>(first, n);
    const size_t end = begin + std::min<size_t>(count, n - begin);
    std::vector<SpentOutputEntry> entries(end - begin);
    for (uint32_t i = 0; i < n; ++i) {
        // An entry outside the slice whose script length is one byte and whose bytes are all
        // there is passed over with no call that can throw (Reader::TrySkip); anything else
        // takes the checked reads, which name the problem.
        size_t script_len = 0;
        if ((i < begin || i >= end) && r.PeekShortCompactSize(44, script_len) && r.TrySkip(45 + script_len)) continue;
        try {
            if (i >= begin && i < end) {
                SpentOutputEntry& e = entries[i - begin];
                r.ReadArray(e.prevout.txid, "txid");
                e.prevout.n = r.ReadLE32("vout");
                e.out.value = r.ReadI64("value");
                e.out.script_pubkey = r.ReadVarBytes("scriptPubKey");
            } else {
                // Passed over with the same reads, so the same errors.
                r.ReadBytes(32, "txid");
                r.ReadLE32("vout");
                r.ReadI64("value");
                r.SkipVarBytes("scriptPubKey");
            }
        } catch (const Error& err) {
            throw Error("spent outputs (binary): spent output " + std::to_string(i) + ": " + err.reason(), err.where());
        }
    }
    if (!r.empty()) fail(std::to_string(r.remaining()) + " trailing bytes after " + std::to_string(n) + " entries");
    if (total) *total = n;
    return entries;
}

std::vector<uint8_t> SpentOutputsFromUndoRecord(const uint8_t* block_raw, size_t block_len, const uint8_t* record,
                                                size_t record_len) {
    const Block block = ParseBlock(block_raw, block_len, 0, 0);
    Location at;
    at.block_hash = block.hash_hex;
    const auto fail = [&](const std::string& reason) { throw Error(reason, at); };
    UndoRecord rec;
    BlockUndo undo;
    try {
        rec = SplitUndoRecord(record, record_len);
        undo = ParseBlockUndo(rec.undo, rec.undo_size, 8);
    } catch (const Error& e) {
        Location where = e.where();
        where.block_hash = block.hash_hex;
        throw Error(e.reason() + " (byte offsets in the rev record)", where);
    }
    const Hash32 checksum = BlockUndoChecksum(block.header.prev_block, rec.undo, rec.undo_size);
    if (checksum != rec.checksum) {
        fail("rev record checksum mismatch: SHA256d(hashPrevBlock " + HexEncodeReversed(block.header.prev_block) +
             " || undo data) is " + HexEncode(checksum.data(), checksum.size()) + ", the record says " +
             HexEncode(rec.checksum.data(), rec.checksum.size()) + ": the record is not this block's, or is damaged");
    }
    const size_t spends = block.txs.empty() ? 0 : block.txs.size() - 1;
    if (undo.vtxundo.size() != spends) {
        fail("rev record: " + std::to_string(undo.vtxundo.size()) + " transactions' coins for the block's " +
             std::to_string(spends) + " non-coinbase transactions");
    }
    std::vector<SpentOutputEntry> entries;
    for (size_t t = 1; t < block.txs.size(); ++t) {
        const Transaction& tx = block.txs[t];
        const std::vector<Coin>& coins = undo.vtxundo[t - 1].prevout;
        if (coins.size() != tx.vin.size()) {
            at.tx_index = static_cast<int64_t>(t);
            fail("rev record: tx " + std::to_string(t) + " has " + std::to_string(coins.size()) + " coins for its " +
                 std::to_string(tx.vin.size()) + " inputs");
        }
        for (size_t i = 0; i < coins.size(); ++i) {
            SpentOutputEntry e;
            e.prevout = tx.vin[i].prevout;
            e.out = coins[i].out;
            entries.push_back(std::move(e));
        }
    }
    return SerializeSpentOutputs(entries);
}

std::vector<uint8_t> SpentOutputsFromSpentTxOuts(const uint8_t* block_raw, size_t block_len, const uint8_t* data,
                                                 size_t len) {
    const Block block = ParseBlock(block_raw, block_len, 0, 0);
    Location at;
    at.block_hash = block.hash_hex;
    const auto fail = [&](const std::string& reason) { throw Error("spenttxouts: " + reason, at); };
    if (len < 4 || std::memcmp(data, kSpentTxOutsMagic, 4) != 0) fail("does not start with \"IBT1\"");
    std::vector<SpentOutputEntry> entries;
    try {
        Reader r(data + 4, len - 4, 4);
        // A list is at least its count (1 byte); an output at least 9 bytes.
        const size_t lists = r.ReadCount("transaction count", 1);
        if (lists != block.txs.size()) {
            fail(std::to_string(lists) + " transactions for the block's " + std::to_string(block.txs.size()));
        }
        for (size_t t = 0; t < lists; ++t) {
            const size_t n = r.ReadCount("output count", 9);
            if (t == 0) {
                if (n != 0) fail("the coinbase's list holds " + std::to_string(n) + " outputs");
                continue;
            }
            const Transaction& tx = block.txs[t];
            if (n != tx.vin.size()) {
                at.tx_index = static_cast<int64_t>(t);
                fail("tx " + std::to_string(t) + " has " + std::to_string(n) + " outputs for its " +
                     std::to_string(tx.vin.size()) + " inputs");
            }
            for (size_t i = 0; i < n; ++i) {
                SpentOutputEntry e;
                e.prevout = tx.vin[i].prevout;
                e.out.value = r.ReadI64("value");
                e.out.script_pubkey = r.ReadVarBytes("scriptPubKey");
                entries.push_back(std::move(e));
            }
        }
        if (!r.empty()) r.Fail(std::to_string(r.remaining()) + " bytes left after the lists", r.offset());
    } catch (const Error& e) {
        if (e.reason().rfind("spenttxouts: ", 0) == 0) throw;
        Location where = e.where();
        where.block_hash = block.hash_hex;
        throw Error("spenttxouts: " + e.reason() + " (byte offsets in the tagged body)", where);
    }
    return SerializeSpentOutputs(entries);
}

}  // namespace ibd
