// The fixture blocks over HTTP: the manifest the server publishes (/fixtures/manifest.json,
// web/server.mjs) and each block's block.raw and spent_outputs.json, checked against the
// manifest's SHA-256 (Web Crypto). The entries have the shape of Node's loadBlocks
// (blocks-fixtures/loader.mjs), so the run (bench/core/run-core.mjs) takes either. One bad block is
// that block's error; the others still load.
import { chainEntryProblem, manifestEntryProblem } from '../blocks-fixtures/manifest-entry.mjs';

/** Where the server mounts the fixture set (web/server.mjs). */
export const FIXTURES_URL = new URL('/fixtures/', location.href).href;

/**
 * Fetches the manifest.
 * @param {string} [base] the fixtures URL (default FIXTURES_URL)
 * @returns {Promise<{url: string, base: string, blocks: Array<{height: number, hash: string,
 *   dir: string, block_raw_sha256: string, spent_outputs_sha256: string, inputs: number}>,
 *   chain: object|undefined}>} chain: the manifest's `chain` entry as written (fetchChain checks it)
 * @throws Error naming the manifest's URL when it cannot be fetched or has no blocks.
 */
export async function fetchManifest(base = FIXTURES_URL) {
  const url = new URL('manifest.json', base).href;
  let parsed;
  try {
    const res = await fetch(url);
    if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText}`);
    parsed = await res.json();
  } catch (err) {
    throw new Error(`cannot load the fixture manifest ${url}: ${err.message}`);
  }
  if (!Array.isArray(parsed?.blocks) || parsed.blocks.length === 0) throw new Error(`fixture manifest ${url} lists no blocks`);
  return { url, base, blocks: parsed.blocks, chain: parsed.chain };
}

const hex = (buf) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, '0')).join('');

/** Fetches one file and checks its SHA-256; resolves to its bytes, or rejects naming the URL. */
async function fetchChecked(url, expectedSha256) {
  let bytes;
  try {
    const res = await fetch(url);
    if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText}`);
    bytes = new Uint8Array(await res.arrayBuffer());
  } catch (err) {
    throw new Error(`cannot fetch ${url}: ${err.message}`);
  }
  if (!crypto.subtle) {
    throw new Error(`cannot check ${url}: Web Crypto (SHA-256) needs a secure context (open the page on localhost or https)`);
  }
  const actual = hex(await crypto.subtle.digest('SHA-256', bytes));
  if (actual !== expectedSha256) {
    throw new Error(`${url}: sha256 ${actual} does not match the manifest's ${expectedSha256} ` +
      `(${bytes.length} bytes; file changed or truncated)`);
  }
  return bytes;
}

/**
 * Loads the blocks of `heights` (manifest order), two files each.
 * @param {Awaited<ReturnType<typeof fetchManifest>>} manifest
 * @param {number[]} heights heights to load (each one the manifest lists)
 * @param {(entry: object) => void} [onBlock] called as each block loads or fails
 * @returns {Promise<Array<{height: number, hash: string|null, dir: string, inputs: number|null,
 *   block?: Uint8Array, spentOutputsJson?: string, error?: string}>>} as loadBlocks: `block`
 *   and `spentOutputsJson` on success, else `error` naming the URL and the reason (HTTP
 *   status, checksum mismatch, malformed manifest entry). Never rejects for one block.
 */
export async function fetchBlocks(manifest, heights, onBlock = () => {}) {
  const wanted = new Set(heights);
  const entries = manifest.blocks.filter((e) => wanted.has(e?.height));
  return Promise.all(entries.map(async (e) => {
    const dir = new URL(`${e.dir}/`, manifest.base).href;
    const base = { height: e.height, hash: e.hash ?? null, dir, inputs: e.inputs ?? null };
    const problem = manifestEntryProblem(e, manifest.blocks.indexOf(e));
    let out;
    if (problem) {
      out = { ...base, error: `${manifest.url}: ${problem}` };
    } else {
      try {
        const [block, spent] = await Promise.all([
          fetchChecked(new URL('block.raw', dir).href, e.block_raw_sha256),
          fetchChecked(new URL('spent_outputs.json', dir).href, e.spent_outputs_sha256),
        ]);
        out = { ...base, block, spentOutputsJson: new TextDecoder().decode(spent) };
      } catch (err) {
        out = { ...base, error: err.message };
      }
    }
    onBlock(out);
    return out;
  }));
}

/**
 * Loads the fixture set's consecutive chain (the manifest's `chain`: mainnet blocks 1-255 in one
 * framed file), as Node's loadChain (blocks-fixtures/loader.mjs), for the chain pass
 * (bench/core/chain-pass.mjs).
 * @param {Awaited<ReturnType<typeof fetchManifest>>} manifest
 * @returns {Promise<{file: string|null, firstHeight, blocks, prevHash, lastHash, bytes?: Uint8Array,
 *   error?: string}|null>} null when the manifest names no chain; else `bytes`, or `error` naming
 *   the URL and the reason (malformed entry, HTTP status, checksum mismatch). Never rejects.
 */
export async function fetchChain(manifest) {
  if (manifest.chain === undefined) return null;
  const problem = chainEntryProblem(manifest.chain);
  const c = manifest.chain ?? {};
  const file = typeof c.file === 'string' ? new URL(c.file, manifest.base).href : null;
  const base = { file, firstHeight: c.first_height, blocks: c.blocks, prevHash: c.prev_hash, lastHash: c.last_hash };
  if (problem) return { ...base, error: `${manifest.url}: ${problem}` };
  try {
    return { ...base, bytes: await fetchChecked(file, c.sha256) };
  } catch (err) {
    return { ...base, error: err.message };
  }
}
