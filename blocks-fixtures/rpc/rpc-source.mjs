// A running Bitcoin Core node's JSON-RPC interface as a block source, for nodes without
// /rest/spenttxouts (before Core 30): for each height getblockhash, then getblock with verbosity 0
// (the block's bytes, hex) and verbosity 3 (each input's prevout: value and scriptPubKey; Core 23
// and later). Requests are pipelined (`concurrency` heights at once) and retried with backoff on
// transient failures; Core's error objects are reported with their code and message, a 401 as
// an authentication failure. Authentication: the URL's user and password, or a cookie file's
// "user:password" (Core's .cookie). Credentials are sent, never shown. Host-neutral (fetch).
import { decodeUrlPart, shownUrl } from '../rest/rest-source.mjs';
import { encodeSpentOutputs } from '../../wasm/spent-outputs.mjs';

/**
 * Opens a node's RPC interface.
 * @param {string} url e.g. http://127.0.0.1:8332, with user:password@ or not
 * @param {{cookie?: string, concurrency?: number, retries?: number, backoffMs?: number,
 *   fetch?: typeof fetch}} [options] cookie: the contents of Core's cookie file
 *   ("__cookie__:<password>"), used when the URL has no user
 * @returns {{read: (height: number, last?: number) => Promise<{height: number, hash: string,
 *   block: Uint8Array, undo: Uint8Array}>, tipHeight: () => Promise<number>, url: string}}
 *   undo: the spent outputs in the engine's binary form ("IBS1", wasm/spent-outputs.mjs)
 */
export function openRpc(url, { cookie, concurrency = 4, retries = 4, backoffMs = 250, timeoutMs = 60000, fetch: fetchImpl = globalThis.fetch } = {}) {
  const u = new URL(url);
  const user = u.username ? `${decodeUrlPart(u.username)}:${decodeUrlPart(u.password)}` : cookie?.trim();
  u.username = '';
  u.password = '';
  const endpoint = u.href;
  const shown = shownUrl(url);
  const headers = { 'Content-Type': 'application/json', ...(user ? { Authorization: `Basic ${btoa(user)}` } : {}) };
  let id = 0;

  async function call(method, params, what) {
    let wait = backoffMs;
    const where = `${shown} ${method} (${what})`;
    for (let attempt = 0; ; attempt++) {
      let res;
      let text;
      try {
        res = await fetchImpl(endpoint, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '1.0', id: ++id, method, params }), signal: AbortSignal.timeout(timeoutMs) });
        text = await res.text(); // a connection dropped mid-body is retried too
      } catch (err) {
        const code = err.name === 'TimeoutError' ? 'TIMEOUT' : err.cause?.code ?? err.code ?? '';
        if (attempt < retries && code !== 'ECONNREFUSED' && code !== 'ENOTFOUND') { await sleep(wait); wait *= 2; continue; }
        throw new Error(`${where}: ${code === 'ECONNREFUSED' ? 'connection refused (is the node running, with its RPC server on this port?)' : code === 'TIMEOUT' ? `no answer within ${timeoutMs / 1000} s, ${retries + 1} tries` : code || err.message}`, { cause: err });
      }
      if (res.status === 401) throw new Error(`${where}: HTTP 401: the node refused the credentials (give the URL's user:password or --rpc-cookie with the node's .cookie file)`);
      let body = null;
      try { body = JSON.parse(text); } catch { /* not JSON: reported below */ }
      if (body && typeof body === 'object' && body.error) {
        const e = body.error;
        throw new Error(`${where}: RPC error ${typeof e === 'object' ? `${e.code}: ${e.message}` : JSON.stringify(e)}`);
      }
      if (res.ok && body && typeof body === 'object' && 'result' in body) return body.result;
      if (res.status >= 500 && attempt < retries) { await sleep(wait); wait *= 2; continue; }
      throw new Error(`${where}: HTTP ${res.status}${text ? ` ${text.trim().slice(0, 200)}` : ''}${res.ok ? ' (not a JSON-RPC answer)' : ''}`);
    }
  }

  async function fetchHeight(height) {
    const hash = await call('getblockhash', [height], `height ${height}`);
    if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash)) throw new Error(`${shown} getblockhash (height ${height}): answered ${JSON.stringify(hash)?.slice(0, 80)}, not a block hash`);
    const [hex, verbose] = await Promise.all([
      call('getblock', [hash, 0], `block ${hash} at height ${height}`),
      call('getblock', [hash, 3], `prevouts of block ${hash} at height ${height}; Core 23 or later gives them`),
    ]);
    if (typeof hex !== 'string' || hex.length % 2 !== 0 || !/^[0-9a-f]*$/i.test(hex)) {
      throw new Error(`${shown} getblock ${hash} verbosity 0 (height ${height}): not the block's hex (${typeof hex === 'string' ? `${hex.length} characters${/^[0-9a-f]*$/i.test(hex) ? '' : ', not all hex digits'}` : JSON.stringify(hex)?.slice(0, 80)})`);
    }
    if (!verbose || !Array.isArray(verbose.tx)) throw new Error(`${shown} getblock ${hash} verbosity 3 (height ${height}): no "tx" array`);
    const spent = [];
    verbose.tx.forEach((tx, t) => {
      if (!tx || !Array.isArray(tx.vin)) throw new Error(`${shown} getblock ${hash} verbosity 3: tx ${t} has no "vin" array`);
      if (t === 0) return; // the coinbase spends nothing
      tx.vin.forEach((vin, i) => {
        if (!vin?.prevout || typeof vin.prevout.value !== 'number' || typeof vin.prevout.scriptPubKey?.hex !== 'string') throw new Error(`${shown} getblock ${hash} verbosity 3: tx ${t} input ${i} has no prevout with a value and a scriptPubKey hex (a node before Core 23, or a pruned undo)`);
        // BTC with 8 decimals as a JS number: times 1e8, rounded, is the exact satoshi count
        // below 2^53 (21e14).
        spent.push({ txid: vin.txid, vout: vin.vout, value: Math.round(vin.prevout.value * 1e8), script_pubkey: vin.prevout.scriptPubKey.hex });
      });
    });
    return { height, hash, block: hexBytes(hex), undo: encodeSpentOutputs({ spent_outputs: spent }) };
  }

  const pending = new Map();
  return {
    url: shown,
    read(height, last = Infinity) {
      for (let h = height; h < Math.min(height + concurrency, last + 1); h++) {
        if (!pending.has(h)) {
          const p = fetchHeight(h);
          p.catch(() => {});
          pending.set(h, p);
        }
      }
      const p = pending.get(height);
      pending.delete(height);
      return p;
    },
    async tipHeight() {
      const n = await call('getblockcount', [], 'the tip');
      if (!Number.isInteger(n) || n < 0) throw new Error(`${shown} getblockcount: answered ${JSON.stringify(n)?.slice(0, 80)}, not a height`);
      return n;
    },
  };
}

function hexBytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
  return out;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
