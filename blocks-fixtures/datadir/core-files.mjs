// Bitcoin Core's block files as they lie in a node's blocks/ folder, read without Core and
// without its locks: the XOR key, and the records of blk?????.dat and rev?????.dat. Host-neutral
// (no Node import): a file is any {name, size, read(offset, length) => Promise<Uint8Array>}
// (blocks-fixtures/datadir/node-files.mjs in Node; File slices in a browser).
//
//   blocks/xor.dat   8 bytes, the obfuscation key (Core 28 and later; absent or all zero: none).
//                    Every byte at offset p of a blk or rev file is stored XOR key[p % 8]
//                    (Core's AutoFile with m_xor, node/blockstorage.cpp).
//   blk?????.dat     records: message start (mainnet f9 be b4 d9) | size (uint32 LE) | block
//   rev?????.dat     records: message start | size | CBlockUndo (size bytes) | checksum (32)
//                    (native/undo/block_undo.h); the undo of a block is in the rev file with its
//                    blk file's number, in the order the node connected the blocks.
// Core grows both kinds of file in preallocated chunks of zeros (written as they are, not
// obfuscated), so a file's records end at the first message start that is zero on disk (or at
// the end of the file).

/** Mainnet's message start (Core's pchMessageStart). */
export const MAINNET_MAGIC = Uint8Array.from([0xf9, 0xbe, 0xb4, 0xd9]);
/** Core's MAX_BLOCK_SERIALIZED_SIZE: the largest block a blk record may hold. */
export const MAX_BLOCK_SERIALIZED_SIZE = 4000000;
/** A rev record's bytes besides its CBlockUndo: message start and size (8), checksum (32). */
export const UNDO_RECORD_OVERHEAD = 40;
/** Largest CBlockUndo this reader accepts: a 4 MB block's inputs cannot spend more than this
 *  many bytes of compressed coins (each input is at least 41 bytes of block; a coin at most
 *  about 10,000 bytes of script plus 20), so a larger size field is a damaged record. */
export const MAX_UNDO_SIZE = 64 * 1024 * 1024;

/**
 * The 8-byte key of blocks/xor.dat.
 * @param {{name: string, size: number, read: Function}|null} file xor.dat, or null when the
 *   folder has none (a node before Core 28: no obfuscation)
 * @returns {Promise<Uint8Array>} 8 bytes; all zero for no file
 * @throws Error naming the file when it is not exactly 8 bytes
 */
export async function readXorKey(file) {
  if (!file) return new Uint8Array(8);
  if (file.size !== 8) throw new Error(`${file.name}: ${file.size} bytes, not the 8 of an obfuscation key (Core's blocks/xor.dat)`);
  return Uint8Array.from(await file.read(0, 8));
}

/**
 * Undoes the obfuscation of `bytes` read at `offset` of a file, in place.
 * @param {Uint8Array} bytes
 * @param {number} offset the file offset of bytes[0]
 * @param {Uint8Array} key 8 bytes
 * @returns {Uint8Array} bytes
 */
export function unxor(bytes, offset, key) {
  if (key.every((b) => b === 0)) return bytes;
  for (let i = 0; i < bytes.length; i++) bytes[i] ^= key[(offset + i) % 8];
  return bytes;
}

/** Reads `length` bytes at `offset` of `file`, de-obfuscated; fewer at the end of the file. */
export async function readPlain(file, offset, length, key) {
  return unxor(Uint8Array.from(await file.read(offset, length)), offset, key);
}

/**
 * The records of a blk or rev file, by their 8-byte headers only (no block or undo is read).
 * @param {{name: string, size: number, read: Function}} file
 * @param {Uint8Array} key the XOR key
 * @param {'blk'|'rev'} kind rev records carry a 32-byte checksum after their data
 * @returns {Promise<{records: Array<{offset: number, dataOffset: number, size: number,
 *   header?: Uint8Array}>,
 *   end: number, partial: {offset: number, size: number, available: number}|null,
 *   damage: {offset: number, message: string}|null}>}
 *   records: each whole record (offset: its message start; dataOffset: its block or CBlockUndo;
 *   header: a blk record's 80-byte block header, de-obfuscated);
 *   end: where the records end (the first zero message start, or the end of the file);
 *   partial: a last record whose size runs past the end of the file, as a node still writing
 *   it at the tip leaves it (not an error: the caller names it and skips it); damage: null, or
 *   the first damaged record ({offset, message}: "<file> at byte B: message start xx xx xx xx
 *   is not mainnet's f9 be b4 d9 (...)", "... record size N is above ...", "... zero bytes up to
 *   byte C, then data again"), where the records stop: those before it are returned
 */
export async function listRecords(file, key, kind) {
  const records = [];
  const tail = kind === 'rev' ? 32 : 0;
  const max = kind === 'rev' ? MAX_UNDO_SIZE : MAX_BLOCK_SERIALIZED_SIZE;
  const damaged = (offset, what) => {
    const after = records.length
      ? ` (the record before it, at byte ${records[records.length - 1].offset}, may have a wrong size field)`
      : ` (a wrong or missing XOR key, blocks/xor.dat, or not a ${kind} file)`;
    return { records, end: offset, partial: null, damage: { offset, message: `${file.name} at byte ${offset}: ${what}${after}` } };
  };
  const read = chunkedReader(file);
  let offset = 0;
  while (offset + 8 <= file.size) {
    // A blk record's block header comes in the same read (88 bytes).
    const raw = await read(offset, kind === 'blk' ? 88 : 8);
    // Preallocated space is zeros on disk, never obfuscated: the records end there, provided
    // the rest of the file is zeros too (zeros in the middle are damage, never an end).
    if (raw[0] === 0 && raw[1] === 0 && raw[2] === 0 && raw[3] === 0) {
      const data = await firstNonZero(file, offset);
      if (data === null) break;
      return damaged(offset, `zero bytes up to byte ${data}, then data again: a damaged ${kind} file`);
    }
    const head = unxor(raw, offset, key);
    if (!MAINNET_MAGIC.every((b, i) => head[i] === b)) {
      const hex = [...head.subarray(0, 4)].map((b) => b.toString(16).padStart(2, '0')).join(' ');
      return damaged(offset, `message start ${hex} is not mainnet's f9 be b4 d9`);
    }
    const size = new DataView(head.buffer, head.byteOffset, 8).getUint32(4, true);
    if (size > max || (kind === 'blk' && size < 80)) {
      return damaged(offset, `record size ${size} is ${size > max ? `above ${max} bytes` : 'below the 80 of a block header'}: a damaged ${kind} record`);
    }
    if (offset + 8 + size + tail > file.size) {
      return { records, end: offset, partial: { offset, size, available: file.size - offset - 8 }, damage: null };
    }
    records.push(kind === 'blk' ? { offset, dataOffset: offset + 8, size, header: head.subarray(8, 88) } : { offset, dataOffset: offset + 8, size });
    offset += 8 + size + tail;
  }
  return { records, end: offset, partial: null, damage: null };
}

/** Bytes read at once while walking a file's records: the early chain's blocks are a few
 *  hundred bytes, so one read serves thousands of records instead of one each. */
const RECORD_CHUNK = 1 << 20;

/** Reads of `file` served from RECORD_CHUNK-byte chunks read in order: read(offset, length) gives
 *  a copy of the bytes (fewer at the end of the file), as read, obfuscated. */
function chunkedReader(file) {
  let start = 0;
  let chunk = new Uint8Array(0);
  return async (offset, length) => {
    if (offset < start || offset + length > start + chunk.length) {
      start = offset;
      chunk = await file.read(offset, Math.max(length, RECORD_CHUNK));
    }
    return chunk.slice(offset - start, Math.min(chunk.length, offset - start + length));
  };
}

/** The offset of the first non-zero byte of `file` from `offset`, or null when the rest of the
 *  file is zeros (read in 1 MiB slices). */
async function firstNonZero(file, offset) {
  for (let at = offset; at < file.size; at += 1 << 20) {
    const chunk = await file.read(at, Math.min(1 << 20, file.size - at));
    const i = chunk.findIndex((b) => b !== 0);
    if (i >= 0) return at + i;
  }
  return null;
}
