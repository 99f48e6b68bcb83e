// A datadir's block files in Node, for openDatadir (datadir.mjs): opened read-only, read by
// offset, never locked or written; the SHA256d it needs from node:crypto.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';

/** SHA256d of `bytes`. */
export const hash256 = (bytes) => createHash('sha256').update(createHash('sha256').update(bytes).digest()).digest();

function nodeFile(file) {
  const size = statSync(file).size;
  return {
    name: path.basename(file),
    size,
    /** Reads `length` bytes at `offset` (fewer at the end of the file); opens and closes the
     *  file per call, so no descriptor outlives a read. */
    async read(offset, length) {
      const handle = await open(file, 'r');
      try {
        const out = Buffer.alloc(Math.max(0, Math.min(length, size - offset)));
        const { bytesRead } = await handle.read(out, 0, out.length, offset);
        return out.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },
  };
}

/**
 * The block files of a Core datadir: `<dir>/blocks/` when it exists, else `dir` itself (a
 * blocks folder named directly).
 * @param {string} dir
 * @returns {{blk: object[], rev: object[], xor: object|null, folder: string}}
 * @throws Error naming the folder when it holds no blk?????.dat
 */
export function datadirFiles(dir) {
  const folder = existsSync(path.join(dir, 'blocks')) ? path.join(dir, 'blocks') : dir;
  const names = readdirSync(folder).sort();
  const pick = (re) => names.filter((n) => re.test(n)).map((n) => nodeFile(path.join(folder, n)));
  const blk = pick(/^blk\d{5}\.dat$/);
  if (blk.length === 0) throw new Error(`${folder}: no blk?????.dat files (not a Bitcoin Core datadir or blocks folder)`);
  return { blk, rev: pick(/^rev\d{5}\.dat$/), xor: names.includes('xor.dat') ? nodeFile(path.join(folder, 'xor.dat')) : null, folder };
}
