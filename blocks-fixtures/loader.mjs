// Finds the fixture blocks (../shared/blocks-fixtures, never copied into the repo) and loads
// them, checking each file against manifest.json. One bad block is reported as that block's
// error; the others still load.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '../wasm/paths.mjs';
import { chainEntryProblem, manifestEntryProblem } from './manifest-entry.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** Absolute path of the repo's manifest (heights, hashes, SHA-256 of every fixture file). */
export const MANIFEST_PATH = path.join(HERE, 'manifest.json');

/**
 * The fixtures directory, as an absolute path. Precedence: `cliOverride` (the --fixtures flag),
 * then the IBD_FIXTURES environment variable, then ../shared/blocks-fixtures relative to the
 * repo root. Does not check that the directory exists (loadBlocks does).
 * @param {string|undefined} cliOverride
 * @returns {string}
 */
export function fixturesDir(cliOverride) {
  if (cliOverride) return path.resolve(cliOverride);
  if (process.env.IBD_FIXTURES) return path.resolve(process.env.IBD_FIXTURES);
  return path.resolve(REPO_ROOT, '..', 'shared', 'blocks-fixtures');
}

/**
 * The manifest file that describes `dir`: `<dir>/manifest.json` when the folder has one, else
 * the repo's blocks-fixtures/manifest.json for the default fixture folder (fixturesDir():
 * $IBD_FIXTURES, else ../shared/blocks-fixtures) and for any folder laid out as the shared
 * fixture set (an index.json beside mainnet/: a copy of it, or the set itself named with
 * --fixtures); every file is still checked against the manifest's SHA-256. The same rule as
 * ManifestPath in fixture_set.cpp.
 * @param {string} dir fixtures directory
 * @returns {string}
 * @throws Error naming `dir` when it does not exist, or saying that its manifest.json is missing and
 *   how to make one.
 */
export function manifestPathOf(dir) {
  if (!existsSync(dir)) {
    throw new Error(`fixtures directory ${dir} does not exist (use --fixtures DIR or set IBD_FIXTURES)`);
  }
  const own = path.join(dir, 'manifest.json');
  if (existsSync(own)) return own;
  const real = (p) => { try { return realpathSync(p); } catch { return path.resolve(p); } };
  if (real(dir) === real(fixturesDir())) return MANIFEST_PATH;
  if (existsSync(path.join(dir, 'index.json')) && existsSync(path.join(dir, 'mainnet'))) return MANIFEST_PATH;
  throw new Error(`fixtures folder ${dir} has no manifest.json, and is not laid out as the shared fixture set ` +
    `(index.json beside mainnet/), which the repo's blocks-fixtures/manifest.json describes; make one with: ` +
    `node blocks-fixtures/make-manifest.mjs --fixtures ${dir} --out ${own}`);
}

/**
 * Reads the manifest that describes `dir` (manifestPathOf).
 * @param {string} dir fixtures directory
 * @returns {{path: string, blocks: Array<{height: number, hash: string, dir: string,
 *   block_raw_sha256: string, spent_outputs_sha256: string, inputs: number}>, chain?: object}}
 *   chain: the manifest's `chain` entry as written (loadChain checks it), undefined when none
 * @throws Error naming the manifest file when it is unreadable or has no `blocks` array, or
 *   naming `dir` when it has no manifest (manifestPathOf).
 */
export function readManifest(dir) {
  const file = manifestPathOf(dir);
  let parsed;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read fixture manifest ${file}: ${err.message}`);
  }
  if (!Array.isArray(parsed?.blocks)) throw new Error(`fixture manifest ${file} has no "blocks" array`);
  if (parsed.blocks.length === 0) throw new Error(`fixture manifest ${file} lists no blocks`);
  return { path: file, blocks: parsed.blocks, chain: parsed.chain };
}

/** SHA-256 of `bytes`, lowercase hex. */
function sha256Hex(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Reads one file of a block folder and checks its SHA-256.
 * @returns {Promise<Buffer>}
 * @throws Error naming the file (missing, unreadable, or checksum mismatch).
 */
async function readChecked(file, expectedSha256) {
  let bytes;
  try {
    bytes = await readFile(file);
  } catch (err) {
    throw new Error(`cannot read ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
  }
  const actual = sha256Hex(bytes);
  if (actual !== expectedSha256) {
    throw new Error(`${file}: sha256 ${actual} does not match the manifest's ${expectedSha256} ` +
      `(${bytes.length} bytes; file changed or truncated)`);
  }
  return bytes;
}

/**
 * Loads the fixture blocks of `dir`, in manifest order (ascending height).
 * @param {string} dir fixtures directory (see fixturesDir)
 * @param {{heights?: number[]}} [options] only these heights, in the given order; a height that
 *   the manifest does not list becomes an error entry.
 * @returns {Promise<Array<{height: number, hash: string|null, dir: string, inputs: number|null,
 *   block?: Uint8Array, spentOutputsJson?: string, error?: string}>>} one entry per block:
 *   `block` (block.raw bytes) and `spentOutputsJson` (spent_outputs.json text) on success, else
 *   `error`, a message naming the folder or file (missing folder, unreadable file, checksum
 *   mismatch, a malformed or repeated manifest entry, whose `dir` is null). Never rejects for
 *   one block's problem while another block loads.
 * @throws Error when `dir` does not exist, holds neither manifest.json nor mainnet/ (the layout
 *   it should have), has no manifest of its own and is not the default folder (manifestPathOf),
 *   the manifest is unreadable, or no block loads (nothing can run): one line naming `dir`.
 *   The native twin, fixture_set.cpp LoadFixtureFiles, follows the same rules.
 */
export async function loadBlocks(dir, { heights } = {}) {
  if (!existsSync(dir)) {
    throw new Error(`fixtures directory ${dir} does not exist (use --fixtures DIR or set IBD_FIXTURES)`);
  }
  if (!statSync(dir).isDirectory()) {
    throw new Error(`fixtures path ${dir} is not a directory (use --fixtures DIR or set IBD_FIXTURES)`);
  }
  if (!existsSync(path.join(dir, 'manifest.json')) && !existsSync(path.join(dir, 'mainnet'))) {
    throw new Error(nothingLoaded(dir, [])); // nothing of a fixture set here: say what the layout is
  }
  const manifest = readManifest(dir);
  // Sound entries by height; a malformed or repeated entry becomes that entry's error only.
  const byHeight = new Map();
  const heightOfHash = new Map();
  const bad = [];
  manifest.blocks.forEach((entry, index) => {
    let problem = manifestEntryProblem(entry, index);
    if (!problem && byHeight.has(entry.height)) problem = `manifest entry ${index} repeats height ${entry.height}`;
    // One block has one height: listed again under another, it would be validated, counted and
    // projected twice, once at a height it is not (a folder copied under another height).
    if (!problem && heightOfHash.has(entry.hash)) {
      problem = `manifest entry ${index} (height ${entry.height}) repeats block ${entry.hash}, listed at height ${heightOfHash.get(entry.hash)}: a block has one height`;
    }
    if (!problem) heightOfHash.set(entry.hash, entry.height);
    if (problem) {
      const height = Number.isInteger(entry?.height) ? entry.height : null;
      bad.push({ height, hash: null, dir: null, inputs: null, error: `${manifest.path}: ${problem}` });
    } else {
      byHeight.set(entry.height, entry);
    }
  });
  const wanted = heights ?? [...byHeight.keys()];
  const out = heights ? [] : [...bad];
  for (const height of wanted) {
    const entry = byHeight.get(height);
    if (!entry) {
      out.push({ height, hash: null, dir: path.join(dir, 'mainnet', String(height)), inputs: null,
        error: `height ${height} is not listed in the fixture manifest ${manifest.path}` });
      continue;
    }
    out.push(await loadOne(dir, entry));
  }
  if (out.length > 0 && out.every((b) => b.error)) throw new Error(nothingLoaded(dir, out));
  return out;
}

/**
 * Loads the fixture set's consecutive chain (the manifest's `chain` entry, written by
 * make-manifest.mjs: mainnet-chain/btcd-blocks1-255.dat in the shared set), its SHA-256 checked.
 * The same folder rule as loadBlocks: `dir` from fixturesDir (--fixtures, IBD_FIXTURES, else
 * ../shared/blocks-fixtures) and its manifest (manifestPathOf).
 * @param {string} dir fixtures directory
 * @returns {Promise<null|{file: string, firstHeight: number, blocks: number, prevHash: string,
 *   lastHash: string, bytes?: Uint8Array, error?: string}>} null when the manifest has no chain
 *   entry (a fixture set of one's own need not have one); else the entry with `bytes` (the
 *   framed file: magic f9beb4d9, 4-byte LE size, block, for each block) or `error`, one line
 *   naming the manifest or the file (a malformed entry, a missing or unreadable file, a
 *   checksum mismatch). Never rejects for the chain's own problem.
 * @throws Error as readManifest when the manifest itself cannot be read.
 */
export async function loadChain(dir) {
  const manifest = readManifest(dir);
  if (manifest.chain === undefined) return null;
  const problem = chainEntryProblem(manifest.chain);
  const c = manifest.chain ?? {};
  const file = typeof c.file === 'string' ? path.join(dir, c.file) : null;
  const base = { file, firstHeight: c.first_height, blocks: c.blocks, prevHash: c.prev_hash, lastHash: c.last_hash };
  if (problem) return { ...base, error: `${manifest.path}: ${problem}` };
  try {
    const bytes = await readChecked(file, c.sha256);
    return { ...base, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
  } catch (err) {
    return { ...base, error: err.message };
  }
}

/** The one-line reason why no block of `dir` loaded: the expected layout when no block folder
 *  is there (with a hint when `dir` is the parent of a fixture set), else the first error. */
function nothingLoaded(dir, failed) {
  const present = failed.filter((b) => b.dir === null || existsSync(b.dir));
  if (present.length === 0) {
    const nested = path.join(dir, 'blocks-fixtures');
    return `no fixture blocks found in ${dir}: expected ${path.join(dir, 'mainnet', '<height>')}` +
      `${path.sep}block.raw and spent_outputs.json` +
      (existsSync(nested) ? `; did you mean ${nested}?` : ' (use --fixtures DIR or set IBD_FIXTURES)');
  }
  const more = failed.length > 1 ? ` (and ${failed.length - 1} more failed block${failed.length > 2 ? 's' : ''})` : '';
  return `no fixture block of ${dir} could be loaded: ${present[0].error}${more}`;
}

/** Loads one manifest entry; returns the block or an error entry, never throws. */
async function loadOne(dir, entry) {
  const blockDir = path.join(dir, entry.dir);
  const base = { height: entry.height, hash: entry.hash, dir: blockDir, inputs: entry.inputs };
  if (!existsSync(blockDir)) return { ...base, error: `fixture folder ${blockDir} is missing` };
  try {
    const block = await readChecked(path.join(blockDir, 'block.raw'), entry.block_raw_sha256);
    const spent = await readChecked(path.join(blockDir, 'spent_outputs.json'), entry.spent_outputs_sha256);
    return {
      ...base,
      block: new Uint8Array(block.buffer, block.byteOffset, block.byteLength),
      // TextDecoder as the page's loader decodes it: UTF-8, a leading byte-order mark dropped.
      spentOutputsJson: new TextDecoder().decode(spent),
    };
  } catch (err) {
    return { ...base, error: err.message };
  }
}
