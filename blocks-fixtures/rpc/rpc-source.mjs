// A running Bitcoin Core node's JSON-RPC interface as a block source, for nodes without
// /rest/spenttxouts (before Core 30): for each height getblockhash, then getblock with verbosity 0
// (the block's bytes, hex) and verbosity 3 (each input's prevout: value and scriptPubKey; Core 23
// and later). Requests are pipelined (`concurrency` heights at once) and retried with backoff on
// transient failures, each retry told to onRetry; answers are read with a cap per method (the
// REST source's machinery, ../rest/rest-source.mjs); Core's error objects are reported with
// their code and message, a 401 as an authentication failure; after a redirect fetch followed,
// the URL that answered is named with its answer. Authentication: the URL's user and
// password, or a cookie file's "user:password" (Core's .cookie). Credentials are sent, never
// shown, and blanked out of any text of the server's that a message repeats. Host-neutral
// (fetch).
import {
  MAX_BLOCK_BYTES, MiB, answeredAt, base64, checkedTip, credentialRedactor, crossOrigin, decodeUrlPart, failure, guarded,
  networkFailure, readBody, shownUrl, withRetries,
} from '../rest/rest-source.mjs';
import { encodeSpentOutputs } from '../../wasm/spent-outputs.mjs';

/**
 * The most each answer may hold, and what a larger one cannot be. getblock verbosity 0: the
 * block's hex, two digits a byte, in a small JSON object. Verbosity 3: a block's transactions
 * with every input's prevout, parsed as JSON on the main thread; mainnet's run to tens of MB,
 * and only a block spending thousands of outputs of near 10,000-byte scripts could pass 256 MiB.
 */
const CAPS = {
  small: { bytes: MiB, not: 'a height, a hash or an error object' },
  blockHex: { bytes: 2 * MAX_BLOCK_BYTES + 64 * 1024, not: "a block's hex (a block is at most 4,000,000 bytes, Core's MAX_BLOCK_SERIALIZED_SIZE)" },
  prevouts: { bytes: 256 * MiB, not: "a block's verbosity-3 JSON this client parses (read such a block with --rest or --datadir)" },
};

/**
 * Opens a node's RPC interface.
 * @param {string} url e.g. http://127.0.0.1:8332, with user:password@ or not
 * @param {{cookie?: string, cookieFile?: string, concurrency?: number, retries?: number,
 *   backoffMs?: number, timeoutMs?: number, onRetry?: (message: string) => void, fetch?: typeof
 *   fetch}} [options] cookie: the contents of Core's cookie file ("__cookie__:<password>"), used
 *   when the URL has no user; cookieFile: its path, for messages; retries, backoffMs, timeoutMs
 *   and onRetry as openRest's
 * @returns {{read: (height: number, last?: number) => Promise<{height: number, hash: string,
 *   block: Uint8Array, undo: Uint8Array|null}>, tipHeight: () => Promise<number>, url: string}}
 *   undo: the spent outputs in the engine's binary form ("IBS1", wasm/spent-outputs.mjs), null
 *   for genesis (height 0: never connected by Core; its prevouts are not asked for)
 * @throws Error when the cookie is empty or holds no "user:password"
 */
export function openRpc(url, { cookie, cookieFile, concurrency = 4, retries = 4, backoffMs = 250, timeoutMs = 60000, onRetry, fetch: fetchImpl = globalThis.fetch } = {}) {
  const u = new URL(url);
  const shown = shownUrl(url);
  const cookieNamed = cookieFile === undefined ? 'the cookie given' : `the cookie file ${cookieFile}`;
  let credentials = null;
  if (cookie !== undefined && !u.username) {
    const text = cookie.trim();
    if (!text) throw new Error(`${shown}: ${cookieNamed} is empty (the node writes "__cookie__:<password>" there when it starts)`);
    const colon = text.indexOf(':');
    if (colon < 0) throw new Error(`${shown}: ${cookieNamed} holds no "user:password" (a node's .cookie is "__cookie__:<password>")`);
    credentials = { user: text.slice(0, colon), password: text.slice(colon + 1) };
  } else if (u.username) {
    credentials = { user: decodeUrlPart(u.username), password: decodeUrlPart(u.password), raw: [u.username, u.password] };
  }
  u.username = '';
  u.password = '';
  const endpoint = u.href;
  const headers = { 'Content-Type': 'application/json', ...(credentials ? { Authorization: `Basic ${base64(`${credentials.user}:${credentials.password}`)}` } : {}) };
  const redact = credentials ? credentialRedactor(credentials) : (text) => text;
  const refused = !credentials ? 'the node asks for credentials: give the URL\'s user:password@ or --rpc-cookie with the node\'s .cookie file'
    : credentials.raw ? 'the node refused the credentials: the URL\'s user:password (or give --rpc-cookie with the node\'s .cookie file instead)'
      : `the node refused the credentials of ${cookieNamed} (the node writes a new one each time it starts: is it this node's, and current?)`;
  const policy = { retries, backoffMs, onRetry: onRetry && ((message) => onRetry(redact(message))) };
  let id = 0;

  function call(method, params, what, cap) {
    const asked = `${shown} ${method} (${what})`;
    return withRetries(policy, async () => {
      const state = { headers: false, bytes: 0 };
      let where = asked;
      let res;
      let text;
      try {
        res = await fetchImpl(endpoint, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '1.0', id: ++id, method, params }), signal: AbortSignal.timeout(timeoutMs) });
        state.headers = true;
        where = answeredAt(asked, res);
        if (res.status === 401) {
          await res.body?.cancel().catch(() => {});
          throw failure(`${where}: HTTP 401: ${crossOrigin(endpoint, res) ? 'the server redirected to asks for credentials (they are never sent to another origin: give the node\'s own URL)' : refused}`);
        }
        const bytes = await readBody(res, cap.bytes, state);
        if (!bytes) throw failure(`${where}: answer larger than ${cap.bytes.toLocaleString('en-US')} bytes, not ${cap.not}`);
        text = new TextDecoder().decode(bytes);
      } catch (err) {
        throw err?.transient === undefined ? networkFailure(err, where, timeoutMs, state, 'is the node running, with its RPC server on this port?') : err;
      }
      let body = null;
      try { body = JSON.parse(text); } catch { /* not JSON: reported below */ }
      if (body && typeof body === 'object' && body.error) {
        const e = body.error;
        throw failure(`${where}: RPC error ${typeof e === 'object' ? `${e.code}: ${e.message}` : JSON.stringify(e)}`);
      }
      if (res.ok && body && typeof body === 'object' && 'result' in body) return body.result;
      throw failure(`${where}: HTTP ${res.status}${text ? ` ${text.trim().slice(0, 200)}` : ''}${res.ok ? ' (not a JSON-RPC answer)' : ''}`, res.status >= 500);
    });
  }

  async function fetchHeight(height) {
    const hash = await call('getblockhash', [height], `height ${height}`, CAPS.small);
    if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash)) throw new Error(`${shown} getblockhash (height ${height}): answered ${JSON.stringify(hash)?.slice(0, 80)}, not a block hash`);
    const hexRead = call('getblock', [hash, 0], `block ${hash} at height ${height}`, CAPS.blockHex);
    // Genesis: Core never connects it and keeps no undo data for it; not asked for.
    const [hex, verbose] = height === 0 ? [await hexRead, null]
      : await Promise.all([hexRead, call('getblock', [hash, 3], `prevouts of block ${hash} at height ${height}; Core 23 or later gives them`, CAPS.prevouts)]);
    if (typeof hex !== 'string' || hex.length % 2 !== 0 || !/^[0-9a-f]*$/i.test(hex)) {
      throw new Error(`${shown} getblock ${hash} verbosity 0 (height ${height}): not the block's hex (${typeof hex === 'string' ? `${hex.length} characters${/^[0-9a-f]*$/i.test(hex) ? '' : ', not all hex digits'}` : JSON.stringify(hex)?.slice(0, 80)})`);
    }
    if (height === 0) return { height, hash, block: hexBytes(hex), undo: null };
    const at = `${shown} getblock ${hash} verbosity 3 (height ${height})`;
    if (!verbose || !Array.isArray(verbose.tx)) throw new Error(`${at}: no "tx" array`);
    const spent = [];
    verbose.tx.forEach((tx, t) => {
      if (!tx || !Array.isArray(tx.vin)) throw new Error(`${at}: tx ${t} has no "vin" array`);
      if (t === 0) return; // the coinbase spends nothing
      tx.vin.forEach((vin, i) => spent.push(spentOutput(vin, `${at}: tx ${t} input ${i}`)));
    });
    return { height, hash, block: hexBytes(hex), undo: encodeSpentOutputs({ spent_outputs: spent }) };
  }

  const pending = new Map();
  return {
    url: shown,
    read(height, last = Infinity) {
      for (let h = height; h < Math.min(height + concurrency, last + 1); h++) {
        if (!pending.has(h)) {
          const p = guarded(fetchHeight(h), redact);
          p.catch(() => {});
          pending.set(h, p);
        }
      }
      const p = pending.get(height);
      pending.delete(height);
      return p;
    },
    tipHeight: () => guarded(call('getblockcount', [], 'the tip', CAPS.small).then((n) => checkedTip(n, `${shown} getblockcount: the answer`)), redact),
  };
}

const WRONG = "the node's answer is wrong";

/**
 * One input's spent output from getblock verbosity 3, in wasm/spent-outputs.mjs's form, every
 * field checked: an Error naming `where` (URL, block hash, height, tx and input index) for a
 * missing prevout, a txid that is not 64 hex digits, a vout that is not an output index, a value
 * that is not an amount (not a number, negative, above 21,000,000 BTC, not whole satoshis), a
 * scriptPubKey hex that is not hex bytes.
 */
function spentOutput(vin, where) {
  if (!vin || typeof vin !== 'object') throw new Error(`${where}: not an input object; ${WRONG}`);
  const { prevout } = vin;
  if (!prevout || typeof prevout !== 'object') throw new Error(`${where}: no prevout (a node before Core 23, or the block's undo data pruned)`);
  if (typeof vin.txid !== 'string' || !/^[0-9a-f]{64}$/i.test(vin.txid)) throw new Error(`${where}: txid ${JSON.stringify(vin.txid)?.slice(0, 80) ?? 'missing'} is not 64 hex digits; ${WRONG}`);
  if (!Number.isInteger(vin.vout) || vin.vout < 0 || vin.vout > 0xffffffff) throw new Error(`${where}: vout ${JSON.stringify(vin.vout)?.slice(0, 80) ?? 'missing'} is not an output index (0 to 4,294,967,295); ${WRONG}`);
  const v = prevout.value;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`${where}: prevout value ${JSON.stringify(v)?.slice(0, 80) ?? 'missing'} is not a number of BTC; ${WRONG}`);
  if (v < 0 || v > 21e6) throw new Error(`${where}: prevout value ${v} BTC is ${v < 0 ? 'negative' : 'above 21,000,000 BTC'}: not a real amount; ${WRONG}`);
  // Core writes 8 decimals; times 1e8, rounded, is the exact satoshi count (below 2^53), and that
  // count over 1e8 is the same number again unless the value had more decimals.
  const sat = Math.round(v * 1e8);
  if (sat / 1e8 !== v) throw new Error(`${where}: prevout value ${v} BTC is not a whole number of satoshis; ${WRONG}`);
  const script = prevout.scriptPubKey?.hex;
  if (typeof script !== 'string') throw new Error(`${where}: the prevout has no scriptPubKey hex; ${WRONG}`);
  if (script.length % 2 !== 0 || !/^[0-9a-f]*$/i.test(script)) {
    throw new Error(`${where}: prevout scriptPubKey hex is not hex bytes (${script.length} characters${/^[0-9a-f]*$/i.test(script) ? ', an odd count' : ', not all hex digits'}); ${WRONG}`);
  }
  return { txid: vin.txid, vout: vin.vout, value: sat, script_pubkey: script };
}

function hexBytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
  return out;
}
