// Core's undo data (undo.h) and its records in the rev?????.dat files (node/blockstorage.cpp,
// WriteBlockUndo / ReadBlockUndo): the outputs each block spent, which is what a block needs
// besides its own bytes to be validated, so that a node's block files stand in for a UTXO set.
//
//   CBlockUndo   CompactSize n | CTxUndo * n       one per transaction but the coinbase, block order
//   CTxUndo      CompactSize m | Coin * m          one per input, input order
//   Coin         VARINT(nHeight * 2 + fCoinBase)   (TxInUndoFormatter)
//                | VARINT(0) when nHeight > 0      a former nVersion field, read and ignored
//                | TxOutCompression                (undo/compressor.h)
//
//   rev record   message start (4, mainnet f9 be b4 d9) | size (uint32 LE, of the CBlockUndo)
//                | CBlockUndo | checksum (32)
//   checksum     SHA256d(hashPrevBlock (32 bytes, internal order) || CBlockUndo): the block's
//                own previous-block hash ties the record to the block.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "crypto/sha256.h"
#include "primitives/transaction.h"

namespace ibd {

/** Core's CTxUndo: the coins one transaction's inputs spent, input order. */
struct TxUndo {
    std::vector<Coin> prevout;
};

/** Core's CBlockUndo: one CTxUndo per transaction but the coinbase, block order. */
struct BlockUndo {
    std::vector<TxUndo> vtxundo;
};

/** Bytes of a rev record besides its CBlockUndo: message start and size (8), checksum (32);
 *  Core's UNDO_DATA_DISK_OVERHEAD. */
inline constexpr size_t kUndoRecordOverhead = 40;

/** Parses a CBlockUndo (layout above) from `data[0..len)`; offsets in errors are
 *  `base_offset` + the position. Throws Error with the byte offset and a reason naming the
 *  transaction and input it belongs to ("undo data: tx 3 input 1: compressed script: ...",
 *  tx counted in the block, so the first CTxUndo is tx 1) for a truncated or non-canonical
 *  count, an oversized VARINT, a bad compressed script, or bytes left after it. */
BlockUndo ParseBlockUndo(const uint8_t* data, size_t len, size_t base_offset = 0);

/** Core's serialization of `undo` (the inverse of ParseBlockUndo; what WriteBlockUndo writes
 *  between the size and the checksum). */
std::vector<uint8_t> SerializeBlockUndo(const BlockUndo& undo);

/** The rev record's checksum: SHA256d(prev_block_hash || undo bytes), hashes in internal
 *  byte order (Core's WriteBlockUndo / ReadBlockUndo). */
Hash32 BlockUndoChecksum(const Hash32& prev_block_hash, const uint8_t* undo, size_t len);

/** A whole rev record (layout above) as Core writes it for a block whose previous block is
 *  `prev_block_hash`. */
std::vector<uint8_t> SerializeUndoRecord(const BlockUndo& undo, const Hash32& prev_block_hash);

/** Where a rev record's parts are. */
struct UndoRecord {
    const uint8_t* undo = nullptr;  // the CBlockUndo
    size_t undo_size = 0;
    Hash32 checksum{};
};

/** Splits one rev record, `data[0..len)` being exactly that record, into its parts. Throws
 *  Error at the byte offset for: fewer than 40 bytes, a message start other than mainnet's,
 *  a size that disagrees with the record's length. */
UndoRecord SplitUndoRecord(const uint8_t* data, size_t len);

/** Whether `data` starts like a rev record (mainnet's message start): how the engine tells a
 *  rev record from the other forms of spent outputs (JSON text, "IBS1"). */
bool LooksLikeUndoRecord(const uint8_t* data, size_t len);

}  // namespace ibd
