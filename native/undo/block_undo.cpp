#include "undo/block_undo.h"

#include <cstring>
#include <string>

#include "primitives/block_file.h"
#include "primitives/serialize.h"
#include "undo/compressor.h"
#include "util/error.h"

namespace ibd {

namespace {

/** Smallest serialized Coin: nCode (1), compressed amount (1), script kind 6 with no bytes (1). */
constexpr size_t kMinCoinSize = 3;

Coin ReadCoin(Reader& r) {
    Coin c;
    const uint64_t code = r.ReadVarInt("coin height and coinbase flag", UINT32_MAX);
    c.height = static_cast<int32_t>(code >> 1);
    c.coinbase = (code & 1) != 0;
    if (c.height > 0) r.ReadVarInt("coin's former nVersion", INT32_MAX);
    c.out = ReadCompressedTxOut(r);
    return c;
}

}  // namespace

BlockUndo ParseBlockUndo(const uint8_t* data, size_t len, size_t base_offset) {
    Reader r(data, len, base_offset);
    BlockUndo undo;
    // An empty CTxUndo is one byte (its count).
    undo.vtxundo.resize(r.ReadCount("undo data: transaction count", 1));
    for (size_t t = 0; t < undo.vtxundo.size(); ++t) {
        size_t input = SIZE_MAX;
        try {
            std::vector<Coin>& coins = undo.vtxundo[t].prevout;
            coins.resize(r.ReadCount("coin count", kMinCoinSize));
            for (input = 0; input < coins.size(); ++input) coins[input] = ReadCoin(r);
        } catch (const Error& e) {
            const std::string where = "undo data: tx " + std::to_string(t + 1) +
                                      (input == SIZE_MAX ? "" : " input " + std::to_string(input));
            throw Error(where + ": " + e.reason(), e.where());
        }
    }
    if (!r.empty()) {
        r.Fail("undo data: " + std::to_string(r.remaining()) + " bytes left after the " +
                   std::to_string(undo.vtxundo.size()) + " transactions' coins",
               r.offset());
    }
    return undo;
}

std::vector<uint8_t> SerializeBlockUndo(const BlockUndo& undo) {
    std::vector<uint8_t> out;
    VectorSink s{out};
    WriteCompactSize(s, undo.vtxundo.size());
    for (const TxUndo& tx : undo.vtxundo) {
        WriteCompactSize(s, tx.prevout.size());
        for (const Coin& c : tx.prevout) {
            WriteVarInt(s, static_cast<uint64_t>(c.height) * 2 + (c.coinbase ? 1 : 0));
            if (c.height > 0) WriteVarInt(s, 0);
            WriteCompressedTxOut(out, c.out);
        }
    }
    return out;
}

Hash32 BlockUndoChecksum(const Hash32& prev_block_hash, const uint8_t* undo, size_t len) {
    Sha256 h;
    h.Write(prev_block_hash.data(), prev_block_hash.size());
    h.Write(undo, len);
    return FinalizeDouble(h);
}

std::vector<uint8_t> SerializeUndoRecord(const BlockUndo& undo, const Hash32& prev_block_hash) {
    const std::vector<uint8_t> body = SerializeBlockUndo(undo);
    std::vector<uint8_t> out(kMainnetMagic.begin(), kMainnetMagic.end());
    VectorSink s{out};
    WriteLE32(s, static_cast<uint32_t>(body.size()));
    out.insert(out.end(), body.begin(), body.end());
    const Hash32 checksum = BlockUndoChecksum(prev_block_hash, body.data(), body.size());
    out.insert(out.end(), checksum.begin(), checksum.end());
    return out;
}

bool LooksLikeUndoRecord(const uint8_t* data, size_t len) {
    return len >= 4 && std::memcmp(data, kMainnetMagic.data(), 4) == 0;
}

UndoRecord SplitUndoRecord(const uint8_t* data, size_t len) {
    Location at;
    at.byte_offset = 0;
    if (len < kUndoRecordOverhead) {
        throw Error("rev record: " + std::to_string(len) + " bytes, fewer than the " +
                        std::to_string(kUndoRecordOverhead) + " of message start, size and checksum",
                    at);
    }
    if (!LooksLikeUndoRecord(data, len)) throw Error("rev record: message start is not mainnet's f9 be b4 d9", at);
    const uint32_t size = LoadLE32(data + 4);
    if (size != len - kUndoRecordOverhead) {
        at.byte_offset = 4;
        throw Error("rev record: size field says " + std::to_string(size) + " bytes of undo data, the record holds " +
                        std::to_string(len - kUndoRecordOverhead),
                    at);
    }
    UndoRecord rec;
    rec.undo = data + 8;
    rec.undo_size = size;
    std::memcpy(rec.checksum.data(), data + 8 + size, 32);
    return rec;
}

}  // namespace ibd
