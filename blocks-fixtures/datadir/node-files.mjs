// A datadir's block files in Node, for openDatadir (datadir.mjs): opened read-only, read by
// offset, never locked or written; the SHA256d it needs from node:crypto.
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, statSync } from 'node:fs';
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
 * @returns {{blk: object[], rev: object[], xor: object|null, folder: string, ignored: string[],
 *   close: () => Promise<void>}} ignored: entries named like block files that are no readable
 *   file (a folder, a dangling link), named; close: closes the read-only handles the files
 *   keep open between reads
 * @throws Error naming the path when it is no folder, when blocks/ is no folder, when xor.dat
 *   is no file, or when it holds no blk?????.dat
 */
export function datadirFiles(dir) {
  const kind = (p) => {
    try {
      const st = statSync(p);
      return st.isDirectory() ? 'folder' : st.isFile() ? 'file' : st.isFIFO() ? 'named pipe' : st.isCharacterDevice() || st.isBlockDevice() ? 'device' : st.isSocket() ? 'socket' : 'special file';
    } catch (err) {
      if (err.code !== 'ENOENT') return `unreadable (${err.code})`;
      try {
        lstatSync(p); // the entry is there: a symbolic link whose target is not
        return 'missing';
      } catch {
        return null;
      }
    }
  };
  const top = kind(dir);
  if (top !== 'folder') throw new Error(`${dir}: ${top === null ? 'no such folder' : top === 'file' ? 'a file, not a folder' : `not a folder (${top})`} (a Bitcoin Core datadir, or its blocks/ folder, is expected)`);
  const inner = path.join(dir, 'blocks');
  const innerKind = kind(inner);
  const what = (k) => (k.startsWith('unreadable') ? k : `a ${k}`); // "a named pipe", "unreadable (EACCES)"
  if (innerKind !== null && innerKind !== 'folder') throw new Error(`${inner}: ${what(innerKind)}, not the datadir's blocks folder`);
  const folder = innerKind === 'folder' ? inner : dir;
  const names = readdirSync(folder).sort();
  const handles = handleCache();
  // Entries with a block file's name that are no readable file (a folder, a dangling link) are
  // named and left out, never read and never fatal.
  const ignored = [];
  const pick = (re) => names.filter((n) => re.test(n)).filter((n) => {
    const k = kind(path.join(folder, n));
    if (k === 'file') return true;
    ignored.push(`${n}: ${k === 'missing' ? 'a link to nothing' : k === null ? 'gone while listed' : `${what(k)}, not a file`}; ignored`);
    return false;
  }).map((n) => nodeFile(path.join(folder, n), handles));
  const blk = pick(/^blk\d{5}\.dat$/);
  const rev = pick(/^rev\d{5}\.dat$/);
  const xor = pick(/^xor\.dat$/);
  if (names.includes('xor.dat') && xor.length === 0) throw new Error(`${path.join(folder, 'xor.dat')}: ${ignored.find((x) => x.startsWith('xor.dat')).slice(9)}: the obfuscation key cannot be read`);
  if (blk.length === 0) throw new Error(`${folder}: no blk?????.dat files (not a Bitcoin Core datadir or blocks folder)${ignored.length ? `; ${ignored.join('; ')}` : ''}`);
  return {
    blk, rev, xor: xor[0] ?? null, folder, ignored,
    /** Closes the handles the reads keep open. */
    close: () => handles.closeAll(),
  };
}
