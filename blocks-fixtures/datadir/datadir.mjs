// A Bitcoin Core node's blocks/ folder as a block source: the blocks of a height range of its
// active chain, each with its rev record (the outputs it spent), read-only and without Core's
// locks. Host-neutral: files and SHA256d come from the host (node-files.mjs in Node).
import { activeChain, coinbaseHeight, displayHex, meetsOwnTarget } from './chain-order.mjs';
import { listRecords, readPlain, readXorKey } from './core-files.mjs';

const fileNumber = (name) => Number(/(\d{5})\.dat$/.exec(name)?.[1] ?? NaN);

/** Runs of heights in words: "0 to 255, 277647", the first 8 and how many more. */
export function spansText(spans) {
  return spans.slice(0, 8).map(([a, b]) => (a === b ? `${a}` : `${a} to ${b}`)).join(', ') + (spans.length > 8 ? `, and ${spans.length - 8} more run${spans.length === 9 ? '' : 's'}` : '');
}

/**
 * Opens a datadir's blocks: reads the XOR key and every blk file's record headers and block
 * headers, and orders them into the active chain (chain-order.mjs).
 * @param {{blk: object[], rev: object[], xor: object|null}} files blk?????.dat and
 *   rev?????.dat files ({name, size, read(offset, length) => Promise<Uint8Array>}) and
 *   xor.dat (null when absent)
 * @param {{hash256: (bytes: Uint8Array) => Uint8Array|Promise<Uint8Array>}} host SHA256d
 * @returns {Promise<{tip: {height: number, hash: string}|null, heights: {first: number,
 *   last: number}|null, spans: Array<[number, number]>, partial: string[], damaged: string[],
 *   unplaced: number, stale: number,
 *   read: (height: number) => Promise<{height: number, hash: string, block: Uint8Array,
 *   undo: Uint8Array|null, blockFile: string, blockOffset: number, revFile: string|null,
 *   revOffset: number|null, alternatives?: () => Promise<object[]>}>}>} (offsets in bytes of
 *   the record's frame; alternatives: the block's other stored copies and other undo records
 *   with its checksum, each {block, undo, blockFile, blockOffset, revFile, revOffset, note},
 *   for a caller whose first validation did not find the block valid)
 *   spans: the runs of consecutive heights held, each [first, last];
 *   partial: a record the node is still writing, cut by the end of the newest blk file (named,
 *   skipped); damaged: blk files' first damaged record each (their blocks before it are read),
 *   a record cut by the end of an older blk file (only the newest can be mid-write), and their
 *   first block above the target of its own nBits (left out, with the count of others); read(h): the block at height h
 *   and its rev record (null for genesis, which has none)
 * @throws Error naming the file and byte offset for a damaged record or a wrong XOR key
 */
export async function openDatadir(files, { hash256 }) {
  const key = await readXorKey(files.xor);
  const revByNumber = new Map(files.rev.map((f) => [fileNumber(f.name), f]));
  const blkByNumber = new Map(files.blk.map((f) => [fileNumber(f.name), f]));
  // One small object per block, nothing else kept of it (its header bytes are dropped once
  // hashed): a mainnet datadir holds nearly a million.
  const headers = [];
  const partial = [];
  const damaged = [];
  // Core writes new blocks at the end of its newest blk file (FindNextBlockPos, once a file is
  // full it moves on to the next number): only there can a record still be cut by the end of
  // the file. One cut in an older file is damage (the file cut short, or copied short).
  const newest = Math.max(...files.blk.map((f) => fileNumber(f.name)));
  for (const file of files.blk) {
    const number = fileNumber(file.name);
    const { records, partial: cut, damage } = await listRecords(file, key, 'blk');
    if (damage) damaged.push(`${damage.message}; the file's blocks after it are not read`);
    const record = cut && `${file.name} at byte ${cut.offset}: a block record of ${cut.size} bytes with ${Math.max(0, cut.available)} written`;
    if (cut && number === newest) partial.push(`${record} (a block the node is still writing; skipped)`);
    else if (cut) {
      damaged.push(`${record}, cut by the end of the file: only the newest blk file (blk${String(newest).padStart(5, '0')}.dat) ` +
        'can hold a block the node is still writing, so this file is cut short (damaged, or copied incompletely); its block is not read');
    }
    let badWork = null;
    for (const record of records) {
      const { header } = record;
      const hash = displayHex(await hash256(header));
      const bits = new DataView(header.buffer, header.byteOffset, 80).getUint32(72, true);
      // A header above its own target is damage or forgery (Core checks it before storing):
      // left out of the chain, so that it cannot claim work it never did.
      if (!meetsOwnTarget(hash, bits)) {
        badWork ??= { offset: record.offset, hash, bits, count: 0 };
        badWork.count++;
        continue;
      }
      headers.push({ hash, prev: displayHex(header.subarray(4, 36)), bits, file: number, offset: record.offset, size: record.size });
    }
    if (badWork) {
      damaged.push(`${file.name} at byte ${badWork.offset}: block ${badWork.hash} is above the target of its own nBits ${badWork.bits.toString(16).padStart(8, '0')} ` +
        `(no proof of work: Core never stores such a block)${badWork.count > 1 ? `, and ${badWork.count - 1} more in the file` : ''}; left out of the chain`);
    }
  }
  // Nothing readable at all (a wrong key, or no block files): an error, not an empty chain.
  if (headers.length === 0 && damaged.length) throw new Error(damaged[0]);
  const { chain, tip, unplaced, stale, duplicates } = await activeChain(headers, {
    coinbaseHeight: async (h) => coinbaseHeight(await readPlain(blkByNumber.get(h.file), h.offset + 8, Math.min(h.size, 200), key)),
  });
  // Heights held, from the sparse chain's own keys (never a loop up to its length).
  const placed = Object.keys(chain).map(Number).sort((a, b) => a - b);
  const heights = placed.length ? { first: placed[0], last: placed[placed.length - 1] } : null;
  // Runs of consecutive heights held, [first, last] each.
  const spans = [];
  for (const h of placed) {
    if (spans.length && spans[spans.length - 1][1] === h - 1) spans[spans.length - 1][1] = h;
    else spans.push([h, h]);
  }

  // Rev records per file number, in the order the node connected the blocks of that blk file:
  // the k-th block of a file (by height, on the active chain) expects the k-th record. A record
  // of a block since disconnected (a reorganization) shifts that, so a record whose checksum
  // does not match is looked for among the file's others, the nearest first.
  const revCache = new Map();
  const revRecords = async (number) => {
    if (!revCache.has(number)) {
      const file = revByNumber.get(number);
      revCache.set(number, file ? listRecords(file, key, 'rev').then((r) => ({ file, ...r })) : Promise.resolve(null));
    }
    return revCache.get(number);
  };
  const seen = new Map();
  for (const h of placed) {
    if (h === 0) continue; // genesis is never connected: it has no undo record
    const header = chain[h];
    const k = seen.get(header.file) ?? 0;
    header.rank = k; // its index among the chain's blocks of its file
    seen.set(header.file, k + 1);
  }
  const checksumOf = async (prevInternal, body) => {
    const joined = new Uint8Array(32 + body.length);
    joined.set(prevInternal, 0);
    joined.set(body, 32);
    return hash256(joined);
  };
  const revName = (number) => `rev${String(number).padStart(5, '0')}.dat`;
  const revOf = async (header) => {
    const rev = await revRecords(header.file);
    if (!rev) throw new Error(`block ${header.hash}: its undo data file ${revName(header.file)} is missing (pruned, or not copied with blk${String(header.file).padStart(5, '0')}.dat)`);
    return rev;
  };
  // The record's bytes (frame, CBlockUndo, checksum) when its checksum is the block's, else null.
  const tryRecord = async (rev, record, prev) => {
    const bytes = await readPlain(rev.file, record.offset, 8 + record.size + 32, key);
    const sum = await checksumOf(prev, bytes.subarray(8, 8 + record.size));
    return sum.every((b, i) => b === bytes[8 + record.size + i]) ? bytes : null;
  };
  const readUndo = async (header, blockBytes) => {
    const rev = await revOf(header);
    const prev = blockBytes.subarray(4, 36);
    const k = header.rank ?? 0;
    for (let d = 0; d <= rev.records.length; d++) {
      for (const i of d === 0 ? [k] : [k + d, k - d]) {
        const record = rev.records[i];
        const found = record && await tryRecord(rev, record, prev);
        if (found) return { bytes: found, offset: record.offset };
      }
      if (k + d >= rev.records.length && k - d < 0) break;
    }
    throw new Error(`block ${header.hash}: no undo record in ${revName(header.file)} (${rev.records.length} records${rev.partial ? ', the last one still being written' : ''}${rev.damage ? `; read up to the damage: ${rev.damage.message}` : ''}) has its checksum (SHA256d of its previous block's hash and the undo data): the node has not connected it yet, or the file is damaged`);
  };
  // Every record of the block's rev file whose checksum is the block's: after a reorganization
  // the record of a block since disconnected has the same previous block, so its checksum
  // matches too.
  const allUndos = async (header, blockBytes) => {
    const rev = await revOf(header);
    const out = [];
    for (const record of rev.records) {
      const bytes = await tryRecord(rev, record, blockBytes.subarray(4, 36));
      if (bytes) out.push({ bytes, offset: record.offset });
    }
    return out;
  };
  const where = (blockFile, blockOffset, revOffset, file) => ({ blockFile: blockFile.name, blockOffset, revFile: revName(file), revOffset });

  return {
    tip, heights, spans, partial, damaged, unplaced, stale,
    /** The block at `height` on the active chain with its rev record (layout in core-files.mjs). */
    async read(height) {
      const header = chain[height];
      if (!header) {
        const span = (heights ? `the files hold heights ${spansText(spans)}` : 'the files hold no block with a known height') +
          (damaged.length ? `; damaged: ${damaged.join('; ')}` : '') +
          (unplaced ? `; ${unplaced} block${unplaced === 1 ? '' : 's'} in the files ha${unplaced === 1 ? 's' : 've'} no height (a missing or damaged parent: neither linked to genesis nor placed by a BIP34 coinbase height)` : '');
        throw new Error(`height ${height}: no block at this height in the datadir's blk files (pruned, not yet downloaded, or past the tip): ${span}`);
      }
      const blockFile = blkByNumber.get(header.file);
      const block = await readPlain(blockFile, header.offset + 8, header.size, key);
      if (height === 0) return { height, hash: header.hash, block, undo: null, blockFile: blockFile.name, blockOffset: header.offset, revFile: null, revOffset: null };
      const undo = await readUndo(header, block);
      return {
        height, hash: header.hash, block, undo: undo.bytes, ...where(blockFile, header.offset, undo.offset, header.file),
        /** The other ways to read this block, for a verdict other than valid: each other stored
         *  copy of it, and each other undo record with its checksum, with what each is. */
        alternatives: async () => {
          const out = [];
          const undos = await allUndos(header, block);
          for (const u of undos) {
            if (u.offset === undo.offset) continue;
            out.push({ block, undo: u.bytes, ...where(blockFile, header.offset, u.offset, header.file),
              note: `its undo record at ${revName(header.file)} byte ${u.offset}, one of ${undos.length} with its checksum (a block disconnected in a reorganization left the others)` });
          }
          for (const copy of duplicates.get(header.hash) ?? []) {
            const file = blkByNumber.get(copy.file);
            const bytes = await readPlain(file, copy.offset + 8, copy.size, key);
            for (const u of copy.file === header.file ? undos : await allUndos(copy, bytes).catch(() => [])) {
              out.push({ block: bytes, undo: u.bytes, ...where(file, copy.offset, u.offset, copy.file),
                note: `its copy at ${file.name} byte ${copy.offset} (the block is stored more than once; the first copy did not validate)` });
            }
          }
          return out;
        },
      };
    },
  };
}
