// A datadir's block files in Node, for openDatadir (datadir.mjs): opened read-only, read by
// offset, never locked or written; the SHA256d it needs from node:crypto.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';

/** SHA256d of `bytes`. */
export const hash256 = (bytes) => createHash('sha256').update(createHash('sha256').update(bytes).digest()).digest();

/** Read-only handles kept open between reads, the least recently used closed past this many
 *  (a mainnet node has thousands of blk and rev files). A read-only open takes no lock. */
const OPEN_HANDLES = 16;

function handleCache() {
  const open_ = new Map(); // path -> Promise<FileHandle>, in use order
  return {
    async get(file) {
      let h = open_.get(file);
      if (h) {
        open_.delete(file);
      } else {
        h = open(file, 'r');
        if (open_.size >= OPEN_HANDLES) {
          const [oldest, handle] = open_.entries().next().value;
          open_.delete(oldest);
          handle.then((x) => x.close(), () => {});
        }
      }
      open_.set(file, h);
      return h;
    },
    async closeAll() {
      const all = [...open_.values()];
      open_.clear();
      await Promise.all(all.map((h) => h.then((x) => x.close(), () => {})));
    },
  };
}

function nodeFile(file, handles) {
  const size = statSync(file).size;
  return {
    name: path.basename(file),
    size,
    /** Reads `length` bytes at `offset` (fewer at the end of the file). */
    async read(offset, length) {
      const handle = await handles.get(file);
      const out = Buffer.alloc(Math.max(0, Math.min(length, size - offset)));
      const { bytesRead } = await handle.read(out, 0, out.length, offset);
      return out.subarray(0, bytesRead);
    },
  };
}

/**
 * The block files of a Core datadir: `<dir>/blocks/` when it exists, else `dir` itself (a
 * blocks folder named directly).
 * @param {string} dir
 * @returns {{blk: object[], rev: object[], xor: object|null, folder: string, close: () =>
 *   Promise<void>}} close: closes the read-only handles the files keep open between reads
 * @throws Error naming the folder when it holds no blk?????.dat
 */
export function datadirFiles(dir) {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`${dir}: no such folder (a Bitcoin Core datadir, or its blocks/ folder, is expected)`);
  const folder = existsSync(path.join(dir, 'blocks')) ? path.join(dir, 'blocks') : dir;
  const names = readdirSync(folder).sort();
  const handles = handleCache();
  const pick = (re) => names.filter((n) => re.test(n) && statSync(path.join(folder, n)).isFile()).map((n) => nodeFile(path.join(folder, n), handles));
  const blk = pick(/^blk\d{5}\.dat$/);
  if (blk.length === 0) throw new Error(`${folder}: no blk?????.dat files (not a Bitcoin Core datadir or blocks folder)`);
  return {
    blk, rev: pick(/^rev\d{5}\.dat$/), xor: names.includes('xor.dat') ? nodeFile(path.join(folder, 'xor.dat'), handles) : null, folder,
    /** Closes the handles the reads keep open. */
    close: () => handles.closeAll(),
  };
}
