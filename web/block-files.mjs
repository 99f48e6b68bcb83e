// A Bitcoin Core node's block files picked in the page, as blocks-fixtures/datadir/datadir.mjs
// reads them: the browser's counterpart of node-files.mjs. Three ways in: a directory handle
// (showDirectoryPicker), a FileList or array of File (a webkitdirectory input, or a multiple
// file input of blk?????.dat, rev?????.dat and xor.dat) and a drop (directory entries walked
// with createReader().readEntries(), or plain files). A folder that holds a blocks/ folder (the
// datadir itself) is read from its blocks/. Every read is a slice of the file
// (Blob.slice().arrayBuffer()), never the whole file; SHA256d comes from Web Crypto.
import { MAX_UNDO_SIZE, UNDO_RECORD_OVERHEAD } from '../blocks-fixtures/datadir/core-files.mjs';

const BLK = /^blk\d{5}\.dat$/;
const REV = /^rev\d{5}\.dat$/;
const XOR = 'xor.dat';
const isBlockFile = (name) => BLK.test(name) || REV.test(name) || name === XOR;

/** Bytes of one window for small reads (a record's header, a coinbase): a file of small early
 *  blocks is read 64 KiB at a time rather than one 88-byte slice per block. */
export const READ_WINDOW = 64 * 1024;
/** Reads of at most this many bytes are served from the window; larger ones are sliced alone. */
const SMALL_READ = 4096;
/** Windows kept, the least recently used dropped past this many (a mainnet node has thousands
 *  of blk and rev files, each listed once). */
const WINDOWS_KEPT = 16;
const windows = new Map(); // file-like -> {start, bytes}, in use order
/** Largest single read: a whole undo record (the largest record core-files.mjs accepts). */
const MAX_READ = MAX_UNDO_SIZE + UNDO_RECORD_OVERHEAD;

/** Why SHA256d cannot be computed here, or null: Web Crypto exists only in a secure context. */
export function webCryptoProblem() {
  return globalThis.crypto?.subtle ? null
    : 'Web Crypto (crypto.subtle, for the SHA256d of block headers and undo checksums) is missing: the page is not a secure context; open it on localhost (npm run serve) or over https';
}

/**
 * SHA256d (Bitcoin's double SHA-256) with Web Crypto.
 * @param {Uint8Array} bytes
 * @returns {Promise<Uint8Array>} 32 bytes
 * @throws Error when Web Crypto is missing (an insecure context)
 */
export async function hash256(bytes) {
  const problem = webCryptoProblem();
  if (problem) throw new Error(problem);
  const once = await crypto.subtle.digest('SHA-256', bytes);
  return new Uint8Array(await crypto.subtle.digest('SHA-256', once));
}

/**
 * A picked file as openDatadir reads it.
 * @param {File|Blob} blob the file (a snapshot: a File does not follow later writes)
 * @param {string} name its name, blk?????.dat, rev?????.dat or xor.dat
 * @param {string} where the folder it was picked from, for errors ('' for a file picked alone)
 * @param {() => Promise<File>} [refresh] gets the file again (a directory handle's getFile()):
 *   a read the browser refuses because the file changed since it was picked (a node appending
 *   to its last blk file) is tried once more on a fresh snapshot, whose bytes below the first
 *   snapshot's size are the same (Core only appends)
 * @returns {{name: string, size: number, read: (offset: number, length: number) =>
 *   Promise<Uint8Array>}} read: `length` bytes at byte `offset` (fewer at the end of the file);
 *   rejects naming the file, the byte offset and the browser's reason
 */
export function sliceFile(blob, name, where, refresh) {
  const size = blob.size;
  let current = blob;
  const slice = async (start, end) => {
    for (let attempt = 0; ; attempt++) {
      try {
        const bytes = new Uint8Array(await current.slice(start, end).arrayBuffer());
        if (bytes.length !== end - start) throw new Error(`got ${bytes.length} bytes of ${end - start}`);
        return bytes;
      } catch (err) {
        if (attempt === 0 && refresh && err?.name === 'NotReadableError') {
          try {
            current = await refresh();
            continue;
          } catch { /* reported below with the first error */ }
        }
        const why = err?.name === 'NotReadableError'
          ? `the browser cannot read it any more (${err.message}): it changed on disk since it was picked (a running node writes its last blk and rev files), or it was moved; pick the folder again`
          : `${err?.name ?? 'Error'}: ${err?.message ?? err}`;
        throw new Error(`${where ? `${where}/` : ''}${name} at byte ${start}: cannot read ${end - start} bytes: ${why}`);
      }
    }
  };
  const file = {
    name,
    size,
    async read(offset, length) {
      if (!Number.isSafeInteger(offset) || offset < 0 || !Number.isSafeInteger(length) || length < 0 || length > MAX_READ) {
        throw new RangeError(`${where ? `${where}/` : ''}${name}: bad read of ${length} bytes at byte ${offset}`);
      }
      const end = Math.min(offset + length, size);
      if (end <= offset) return new Uint8Array(0);
      if (end - offset > SMALL_READ) return slice(offset, end);
      let window = windows.get(file);
      windows.delete(file);
      if (!window || offset < window.start || end > window.start + window.bytes.length) {
        window = { start: offset, bytes: await slice(offset, Math.min(size, offset + READ_WINDOW)) };
      }
      windows.set(file, window);
      if (windows.size > WINDOWS_KEPT) windows.delete(windows.keys().next().value);
      return window.bytes.slice(offset - window.start, end - window.start);
    },
  };
  return file;
}

/**
 * The block files among named files, as openDatadir takes them.
 * @param {Array<{name: string, open: () => Promise<{blob: Blob, refresh?: () => Promise<File>}>|
 *   {blob: Blob, refresh?: Function}}>} named the picked folder's files (or the files picked)
 * @param {string} folder what was picked, for the summary and errors: a folder's name, or
 *   "N files"
 * @param {number} [others] files that were picked but are not block files (named in the summary)
 * @param {boolean} [isFolder] `folder` is a folder's path (read errors name the file under it)
 * @returns {Promise<{blk: object[], rev: object[], xor: object|null, folder: string,
 *   ignored: number, missingRev: string[]}>} blk and rev sorted by name, each a sliceFile;
 *   ignored: files that are none of blk?????.dat, rev?????.dat and xor.dat; missingRev: blk
 *   files without their rev file (their blocks cannot be validated: no spent outputs)
 * @throws Error naming the folder when no blk?????.dat is among them, or a name twice
 */
async function blockFiles(named, folder, others = 0, isFolder = true) {
  const mine = named.filter((f) => isBlockFile(f.name)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const ignored = others + named.length - mine.length;
  const twice = mine.find((f, i) => i > 0 && mine[i - 1].name === f.name);
  if (twice) throw new Error(`${folder}: ${twice.name} picked twice (from two folders?): pick one node's blocks/ folder`);
  if (!mine.some((f) => BLK.test(f.name))) {
    const n = named.length + others;
    throw new Error(`${folder}: no blk?????.dat among ${n === 0 ? 'its files (none)' : `${n} file${n === 1 ? '' : 's'}`}: pick a Bitcoin Core datadir, its blocks/ folder, or its blk?????.dat, rev?????.dat and xor.dat files`);
  }
  const files = await Promise.all(mine.map(async (f) => {
    const { blob, refresh } = await f.open();
    return sliceFile(blob, f.name, isFolder ? folder : '', refresh);
  }));
  const xor = files.find((f) => f.name === XOR) ?? null;
  const blk = files.filter((f) => BLK.test(f.name));
  const rev = files.filter((f) => REV.test(f.name));
  const revNames = new Set(rev.map((f) => f.name));
  const missingRev = blk.map((f) => f.name).filter((n) => !revNames.has(`rev${n.slice(3)}`));
  return { blk, rev, xor, folder, ignored, missingRev };
}

/**
 * From a FileList or array of File: a webkitdirectory input's (each with its
 * webkitRelativePath) or a multiple file input's.
 * @param {FileList|File[]} list
 * @returns {Promise<ReturnType<typeof blockFiles>>} folder: the blocks folder's path as picked
 *   (e.g. "datadir/blocks"), or "N files" for files picked one by one
 * @throws Error naming the folder when it holds no blk?????.dat (nor its blocks/ folder), or
 *   when several of its folders do
 */
export async function filesFromList(list) {
  const all = [...list];
  const withPath = all.filter((f) => f.webkitRelativePath);
  if (withPath.length === 0) {
    return blockFiles(all.map((f) => ({ name: f.name, open: () => ({ blob: f }) })), `${all.length} file${all.length === 1 ? '' : 's'}`, 0, false);
  }
  // A folder picked whole: its files come with paths below it ("datadir/blocks/blk00000.dat").
  // The folder read is the picked one's blocks/ when that holds blk files, else the picked one,
  // else the one folder that holds them.
  const parent = (f) => f.webkitRelativePath.split('/').slice(0, -1).join('/');
  const root = withPath[0].webkitRelativePath.split('/')[0];
  const holding = [...new Set(withPath.filter((f) => BLK.test(f.name)).map(parent))].sort();
  const folder = holding.includes(`${root}/blocks`) ? `${root}/blocks`
    : holding.includes(root) ? root : holding.length === 1 ? holding[0] : null;
  if (folder === null && holding.length > 1) {
    throw new Error(`${root}: blk?????.dat files in ${holding.length} folders (${holding.join(', ')}): pick one blocks/ folder`);
  }
  const chosen = folder === null ? [] : withPath.filter((f) => parent(f) === folder);
  return blockFiles(chosen.map((f) => ({ name: f.name, open: () => ({ blob: f }) })), folder ?? root, all.length - chosen.length);
}

/**
 * From a directory handle (showDirectoryPicker): the folder itself, or its blocks/ folder when
 * it has one (the datadir picked). Only that folder's files are opened.
 * @param {FileSystemDirectoryHandle} handle
 * @returns {Promise<ReturnType<typeof blockFiles>>} folder: "name" or "name/blocks"; a file
 *   the node changed after the pick is read again from its handle
 * @throws Error naming the folder when it holds no blk?????.dat, or a file cannot be opened
 */
export async function filesFromDirectoryHandle(handle) {
  let dir = handle;
  let folder = handle.name;
  try {
    dir = await handle.getDirectoryHandle('blocks');
    folder = `${handle.name}/blocks`;
  } catch (err) {
    if (err?.name !== 'NotFoundError' && err?.name !== 'TypeMismatchError') throw new Error(`${handle.name}/blocks: cannot open: ${err?.message ?? err}`);
  }
  const named = [];
  let others = 0;
  for await (const entry of dir.values()) {
    if (entry.kind !== 'file' || !isBlockFile(entry.name)) {
      others++;
      continue;
    }
    named.push({
      name: entry.name,
      open: async () => {
        try {
          return { blob: await entry.getFile(), refresh: () => entry.getFile() };
        } catch (err) {
          throw new Error(`${folder}/${entry.name}: cannot open: ${err?.name}: ${err?.message ?? err}`);
        }
      },
    });
  }
  return blockFiles(named, folder, others);
}

/** Every entry of a directory entry: readEntries() answers in batches (100 in Chromium) until
 *  an empty one. */
async function readAllEntries(dirEntry) {
  const reader = dirEntry.createReader();
  const out = [];
  for (;;) {
    const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject)).catch((err) => {
      throw new Error(`${dirEntry.fullPath || dirEntry.name}: cannot list the folder: ${err?.message ?? err}`);
    });
    if (batch.length === 0) return out;
    out.push(...batch);
  }
}

/** A file entry's File, or an Error naming it. */
const fileOf = (entry) => new Promise((resolve, reject) => entry.file(resolve, reject)).catch((err) => {
  throw new Error(`${entry.fullPath || entry.name}: cannot open: ${err?.message ?? err}`);
});

/**
 * What a drop carries, taken synchronously inside the drop event's handler (a DataTransfer's
 * items are gone once it returns): each item's entry (webkitGetAsEntry) or, where the browser
 * gives none, its File.
 * @param {DataTransfer} dataTransfer
 * @returns {Array<{entry: object|null, file: File|null}>}
 */
export function dropItems(dataTransfer) {
  const items = [...(dataTransfer.items ?? [])].filter((i) => i.kind === 'file');
  if (items.length === 0) return [...(dataTransfer.files ?? [])].map((file) => ({ entry: null, file }));
  return items.map((i) => ({ entry: i.webkitGetAsEntry?.() ?? null, file: i.getAsFile() }));
}

/**
 * From a drop: one folder (read as filesFromDirectoryHandle reads a handle: itself, or its
 * blocks/), or files.
 * @param {ReturnType<typeof dropItems>} items
 * @returns {Promise<ReturnType<typeof blockFiles>>}
 * @throws Error when the drop holds folders and anything else besides one folder, or as
 *   blockFiles
 */
export async function filesFromDrop(items) {
  const folders = items.filter((i) => i.entry?.isDirectory);
  if (folders.length === 0) {
    const files = (await Promise.all(items.map((i) => (i.entry?.isFile ? fileOf(i.entry) : i.file)))).filter(Boolean);
    return blockFiles(files.map((f) => ({ name: f.name, open: () => ({ blob: f }) })), `${files.length} file${files.length === 1 ? '' : 's'}`, 0, false);
  }
  if (items.length > 1) {
    throw new Error(`dropped ${items.length} items, ${folders.length} of them folders: drop one folder (a datadir or its blocks/), or the blk, rev and xor.dat files themselves`);
  }
  let dir = folders[0].entry;
  let folder = dir.name;
  let entries = await readAllEntries(dir);
  const blocks = entries.find((e) => e.isDirectory && e.name === 'blocks');
  if (blocks) {
    dir = blocks;
    folder = `${folder}/blocks`;
    entries = await readAllEntries(dir);
  }
  const files = entries.filter((e) => e.isFile && isBlockFile(e.name));
  return blockFiles(files.map((e) => ({ name: e.name, open: async () => ({ blob: await fileOf(e) }) })), folder, entries.length - files.length);
}

/**
 * What was picked, in one line: "datadir/blocks: 2 blk files, 2 rev files, xor.dat".
 * @param {Awaited<ReturnType<typeof blockFiles>>} picked
 * @returns {string}
 */
export function pickedSummary(picked) {
  const n = (k, noun) => `${k} ${noun}${k === 1 ? '' : 's'}`;
  return `${picked.folder}: ${n(picked.blk.length, 'blk file')}, ${n(picked.rev.length, 'rev file')}, ${picked.xor ? 'xor.dat (obfuscated)' : 'no xor.dat'}` +
    (picked.ignored ? `; ${n(picked.ignored, 'other file')} ignored` : '') +
    (picked.missingRev.length ? `; no rev file for ${picked.missingRev.join(', ')} (its blocks cannot be validated)` : '');
}
