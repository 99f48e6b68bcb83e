// The fixture blocks over HTTP: the manifest the server publishes (/fixtures/manifest.json,
// web/server.mjs) and each block's block.raw and spent_outputs.json, checked against the
// manifest's SHA-256 (Web Crypto). The entries have the shape of Node's loadBlocks
// (blocks-fixtures/loader.mjs), so the run (bench/run-core.mjs) takes either. One bad block is
// that block's error; the others still load.

/** Where the server mounts the fixture set (web/server.mjs). */
export const FIXTURES_URL = new URL('/fixtures/', location.href).href;

const HEX64 = /^[0-9a-f]{64}$/;

/**
 * Fetches the manifest.
 * @param {string} [base] the fixtures URL (default FIXTURES_URL)
 * @returns {Promise<{url: string, base: string, blocks: Array<{height: number, hash: string,
 *   dir: string, block_raw_sha256: string, spent_outputs_sha256: string, inputs: number}>}>}
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
  return { url, base, blocks: parsed.blocks };
}

/** What is wrong with a manifest entry (a field the page needs is missing or malformed), or null. */
function entryProblem(e) {
  if (!Number.isInteger(e?.height) || e.height < 0) return 'height is not a block height';
  for (const field of ['hash', 'block_raw_sha256', 'spent_outputs_sha256']) {
    if (typeof e[field] !== 'string' || !HEX64.test(e[field])) return `${field} is not 64 lowercase hex digits`;
  }
  if (!Number.isInteger(e.inputs) || e.inputs < 0) return 'inputs is not a count';
  if (typeof e.dir !== 'string' || e.dir === '' || e.dir.startsWith('/') || e.dir.split('/').includes('..')) {
    return `dir ${JSON.stringify(e.dir)} is not a path inside the fixture set`;
  }
  return null;
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
    const problem = entryProblem(e);
    let out;
    if (problem) {
      out = { ...base, error: `${manifest.url}: entry for height ${e.height}: ${problem}` };
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
