// A running Bitcoin Core node's REST interface (-rest; Core 30 and later for spenttxouts) as a
// block source: for each height, /rest/blockhashbyheight/<h>.bin, /rest/block/<hash>.bin and
// /rest/spenttxouts/<hash>.bin, in binary form (Core's rest.cpp). Requests are pipelined: the
// next heights are fetched while one is used, at most `concurrency` at once; a transient
// failure (a dropped connection, a 5xx) is retried with exponential backoff; a 4xx is Core's
// answer and is reported with its text. Host-neutral (fetch). The URL's credentials, if any,
// are never shown.
import { displayHex } from '../datadir/chain-order.mjs';

/** Tag of a spenttxouts body given to the engine (native/validation/spent_outputs.h). */
const SPENT_TXOUTS_MAGIC = Uint8Array.from([0x49, 0x42, 0x54, 0x31]); // "IBT1"

/** The URL without user and password, for messages. */
export function shownUrl(url) {
  const u = new URL(url);
  u.username = '';
  u.password = '';
  return u.href.replace(/\/+$/, '');
}

/**
 * Opens a node's REST interface.
 * @param {string} baseUrl e.g. http://127.0.0.1:8332 (the /rest/ paths are added)
 * @param {{concurrency?: number, retries?: number, backoffMs?: number, timeoutMs?: number,
 *   fetch?: typeof fetch}} [options] concurrency: heights in flight (default 4); retries:
 *   further tries of a request after a transient failure (a dropped connection, no answer
 *   within timeoutMs, default 60,000 ms; a 5xx) (default 4), waiting backoffMs (default 250)
 *   doubled each time
 * @returns {{read: (height: number) => Promise<{height: number, hash: string, block: Uint8Array,
 *   undo: Uint8Array}>, tipHeight: () => Promise<number>, url: string}} read: the block at
 *   `height` on the node's active chain and its spent outputs ("IBT1" + the spenttxouts body);
 *   rejects with an Error naming the URL (without credentials), the height and Core's answer
 *   ("HTTP 404 Block height out of range", "HTTP 404 <hash> not found", a refused connection)
 */
export function openRest(baseUrl, { concurrency = 4, retries = 4, backoffMs = 250, timeoutMs = 60000, fetch: fetchImpl = globalThis.fetch } = {}) {
  const base = String(baseUrl).replace(/\/+$/, '');
  const shown = shownUrl(base);
  const auth = (() => {
    const u = new URL(base);
    return u.username ? { Authorization: `Basic ${btoa(`${decodeUrlPart(u.username)}:${decodeUrlPart(u.password)}`)}` } : {};
  })();
  const plain = (() => { const u = new URL(base); u.username = ''; u.password = ''; return u.href.replace(/\/+$/, ''); })();

  async function get(path, what, type = 'application/octet-stream') {
    let wait = backoffMs;
    for (let attempt = 0; ; attempt++) {
      let res;
      let body;
      try {
        res = await fetchImpl(`${plain}${path}`, { headers: auth, signal: AbortSignal.timeout(timeoutMs) });
        if (res.ok) body = new Uint8Array(await res.arrayBuffer()); // a connection dropped mid-body is retried too
      } catch (err) {
        const code = err.name === 'TimeoutError' ? 'TIMEOUT' : err.cause?.code ?? err.code ?? '';
        if (attempt < retries && code !== 'ECONNREFUSED' && code !== 'ENOTFOUND') { await sleep(wait); wait *= 2; continue; }
        const why = code === 'ECONNREFUSED' ? 'connection refused (is the node running, with -rest?)'
          : code === 'TIMEOUT' ? `no answer within ${timeoutMs / 1000} s, ${retries + 1} tries` : `${code || err.message}${err.cause?.message ? ` (${err.cause.message})` : ''}`;
        throw new Error(`${shown}${path} (${what}): ${why}`, { cause: err });
      }
      if (res.ok) {
        const got = (res.headers.get('content-type') ?? '').split(';')[0].trim();
        if (got && got !== type) throw new Error(`${shown}${path} (${what}): HTTP 200 with ${got}, not ${type}: not a Bitcoin Core REST answer (a proxy or login page?)`);
        return body;
      }
      const text = (await res.text().catch(() => '')).trim().slice(0, 200);
      if (res.status >= 500 && attempt < retries) { await sleep(wait); wait *= 2; continue; }
      throw new Error(`${shown}${path} (${what}): HTTP ${res.status}${text ? ` ${text}` : ''}${res.status === 404 && /^\/rest\/(block|spenttxouts)\//.test(path) && !text ? ' (is the node running with -rest?)' : ''}`);
    }
  }

  async function fetchHeight(height) {
    const hashBytes = await get(`/rest/blockhashbyheight/${height}.bin`, `height ${height}`);
    if (hashBytes.length !== 32) throw new Error(`${shown}/rest/blockhashbyheight/${height}.bin: ${hashBytes.length} bytes, not a 32-byte hash`);
    const hash = displayHex(hashBytes);
    const [block, spent] = await Promise.all([
      get(`/rest/block/${hash}.bin`, `block ${hash} at height ${height}`),
      get(`/rest/spenttxouts/${hash}.bin`, `spent outputs of block ${hash} at height ${height}; Core 30 or later serves them`),
    ]);
    const undo = new Uint8Array(4 + spent.length);
    undo.set(SPENT_TXOUTS_MAGIC, 0);
    undo.set(spent, 4);
    return { height, hash, block, undo };
  }

  const pending = new Map();
  const start = (h) => {
    if (!pending.has(h)) {
      const p = fetchHeight(h);
      p.catch(() => {}); // read() reports it when that height is asked for
      pending.set(h, p);
    }
  };
  return {
    url: shown,
    read(height, last = Infinity) {
      for (let h = height; h < Math.min(height + concurrency, last + 1); h++) start(h);
      const p = pending.get(height);
      pending.delete(height);
      // Heights read ahead but never asked for are dropped with the source.
      return p;
    },
    async tipHeight() {
      const text = new TextDecoder().decode(await get('/rest/chaininfo.json', 'chain info', 'application/json'));
      let blocks;
      try {
        blocks = JSON.parse(text).blocks;
      } catch {
        throw new Error(`${shown}/rest/chaininfo.json: not JSON: ${JSON.stringify(text.slice(0, 80))}`);
      }
      if (!Number.isInteger(blocks) || blocks < 0) throw new Error(`${shown}/rest/chaininfo.json: "blocks" is ${JSON.stringify(blocks) ?? 'missing'}, not a height`);
      return blocks;
    },
  };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** decodeURIComponent, or the text as it is when it is not valid percent-encoding. */
export function decodeUrlPart(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
