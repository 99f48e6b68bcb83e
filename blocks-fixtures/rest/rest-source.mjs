// A running Bitcoin Core node's REST interface (-rest; Core 30 and later for spenttxouts) as a
// block source: for each height, /rest/blockhashbyheight/<h>.bin, /rest/block/<hash>.bin and
// /rest/spenttxouts/<hash>.bin, in binary form (Core's rest.cpp). Requests are pipelined: the
// next heights are fetched while one is used, at most `concurrency` at once; a transient
// failure (a dropped connection, no complete answer in time, a 5xx) is retried with exponential
// backoff, each retry told to onRetry; a 4xx is Core's answer and is reported with its text
// (after a redirect fetch followed, the answer is the other server's, and the URL that answered
// is named with it; the Authorization header is not sent to another origin).
// Bodies are read through their stream with a cap per kind of answer, and a larger one stops
// the read at once. Host-neutral (fetch). The URL's credentials, if any, are never shown, and
// are blanked out of any text of the server's that a message repeats. The HTTP machinery here
// is shared with the RPC source (../rpc/rpc-source.mjs).
import { displayHex } from '../datadir/chain-order.mjs';

/** Tag of a spenttxouts body given to the engine (native/validation/spent_outputs.h). */
const SPENT_TXOUTS_MAGIC = Uint8Array.from([0x49, 0x42, 0x54, 0x31]); // "IBT1"

/** Core's MAX_BLOCK_SERIALIZED_SIZE (consensus/consensus.h). */
export const MAX_BLOCK_BYTES = 4_000_000;
/** Core's MAX_MONEY (consensus/amount.h), in satoshis: 21,000,000 BTC. */
export const MAX_MONEY_SAT = 2_100_000_000_000_000;
/** Heights are int in Core: a tip at or above this is not a height. */
export const HEIGHT_LIMIT = 2 ** 31;
export const MiB = 1024 * 1024;
/** Of a refused request's answer (a 4xx or 5xx) this much is read: 200 characters are shown. */
export const ERROR_TEXT_BYTES = 4096;

/**
 * The most each REST answer may hold, and what a larger one cannot be. A block's spent outputs:
 * its non-witness bytes (at most 1,000,000) hold at most 24,390 inputs of 41 bytes, each spending
 * a script of at most 10,000 bytes (MAX_SCRIPT_SIZE: a larger one cannot be spent), 10,011 bytes
 * each in Core's form: about 244 MB, under 256 MiB.
 */
const CAPS = {
  hash: { bytes: 64, not: 'a 32-byte block hash' },
  block: { bytes: MAX_BLOCK_BYTES, not: "a block (Core's MAX_BLOCK_SERIALIZED_SIZE is 4,000,000 bytes)" },
  spent: { bytes: 256 * MiB, not: "one block's spent outputs (at most about 244 MB: 24,390 inputs spending 10,000-byte scripts)" },
  json: { bytes: MiB, not: "Core's chain info" },
};

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
 *   onRetry?: (message: string) => void, fetch?: typeof fetch}} [options] concurrency: heights
 *   in flight (default 4); retries: further tries of a request after a transient failure (a
 *   dropped connection, no complete answer within timeoutMs, default 60,000 ms; a 5xx) (default
 *   4), waiting backoffMs (default 250) doubled each time; onRetry: told before each retry what
 *   failed and "try k of n"
 * @returns {{read: (height: number, last?: number) => Promise<{height: number, hash: string,
 *   block: Uint8Array, undo: Uint8Array|null}>, tipHeight: () => Promise<number>, url: string}}
 *   read: the block at `height` on the node's active chain and its spent outputs ("IBT1" + the
 *   spenttxouts body), undo null for genesis (height 0: Core never connects it; its spent outputs
 *   are not asked for); rejects with an Error naming the URL (without credentials), the height
 *   and Core's answer ("HTTP 404 Block height out of range", "HTTP 404 <hash> not found", a
 *   refused connection, an answer over its cap, a spent output's value that is not an amount),
 *   and after a redirect the URL that answered ("<url> (height h), redirected to <other url>,
 *   which answered: HTTP 404 ...")
 */
export function openRest(baseUrl, { concurrency = 4, retries = 4, backoffMs = 250, timeoutMs = 60000, onRetry, fetch: fetchImpl = globalThis.fetch } = {}) {
  const base = String(baseUrl).replace(/\/+$/, '');
  const shown = shownUrl(base);
  const u = new URL(base);
  const credentials = u.username ? { user: decodeUrlPart(u.username), password: decodeUrlPart(u.password), raw: [u.username, u.password] } : null;
  const auth = credentials ? { Authorization: `Basic ${base64(`${credentials.user}:${credentials.password}`)}` } : {};
  const redact = credentials ? credentialRedactor(credentials) : (text) => text;
  const plain = shown;
  const policy = { retries, backoffMs, onRetry: onRetry && ((message) => onRetry(redact(message))) };

  function get(path, what, cap, type = 'application/octet-stream') {
    const asked = `${shown}${path} (${what})`;
    return withRetries(policy, async () => {
      const state = { headers: false, bytes: 0 };
      let where = asked;
      try {
        const res = await fetchImpl(`${plain}${path}`, { headers: auth, signal: AbortSignal.timeout(timeoutMs) });
        state.headers = true;
        where = answeredAt(asked, res);
        if (!res.ok) {
          const text = new TextDecoder().decode(await readBody(res, ERROR_TEXT_BYTES, state, { truncate: true })).trim().slice(0, 200);
          if (res.status === 401) {
            throw failure(`${where}: HTTP 401: ${crossOrigin(base, res) ? 'the server redirected to asks for credentials (the URL\'s are never sent to another origin: give the node\'s own URL)'
              : `${credentials ? "the server refused the URL's credentials" : 'the server asks for credentials'} (Core's REST interface asks for none: a proxy in front of the node does; give its user:password@ in the URL, as http://user:password@host:port)`}`);
          }
          const hint = res.status === 404 && !res.redirected && /^\/rest\/(block|spenttxouts)\//.test(path) && !text ? ' (is the node running with -rest?)' : '';
          throw failure(`${where}: HTTP ${res.status}${text ? ` ${text}` : ''}${hint}`, res.status >= 500);
        }
        const got = (res.headers.get('content-type') ?? '').split(';')[0].trim();
        if (got && got !== type) {
          await res.body?.cancel().catch(() => {});
          throw failure(`${where}: HTTP 200 with ${got}, not ${type}: not a Bitcoin Core REST answer (a proxy or login page?)`);
        }
        const body = await readBody(res, cap.bytes, state);
        if (!body) throw failure(`${where}: answer larger than ${cap.bytes.toLocaleString('en-US')} bytes, not ${cap.not}`);
        return body;
      } catch (err) {
        throw err?.transient === undefined ? networkFailure(err, where, timeoutMs, state, 'is the node running, with -rest?') : err;
      }
    });
  }

  async function fetchHeight(height) {
    const hashPath = `/rest/blockhashbyheight/${height}.bin`;
    const hashBytes = await get(hashPath, `height ${height}`, CAPS.hash);
    if (hashBytes.length !== 32) throw new Error(`${shown}${hashPath} (height ${height}): ${hashBytes.length} bytes, not a 32-byte hash`);
    const hash = displayHex(hashBytes);
    const blockRead = get(`/rest/block/${hash}.bin`, `block ${hash} at height ${height}`, CAPS.block);
    // Genesis: Core never connects it and keeps no undo data for it; not asked for.
    if (height === 0) return { height, hash, block: await blockRead, undo: null };
    const spentPath = `/rest/spenttxouts/${hash}.bin`;
    const [block, spent] = await Promise.all([
      blockRead,
      get(spentPath, `spent outputs of block ${hash} at height ${height}; Core 30 or later serves them`, CAPS.spent),
    ]);
    checkSpentAmounts(spent, `${shown}${spentPath} (spent outputs of block ${hash} at height ${height})`);
    const undo = new Uint8Array(4 + spent.length);
    undo.set(SPENT_TXOUTS_MAGIC, 0);
    undo.set(spent, 4);
    return { height, hash, block, undo };
  }

  const pending = new Map();
  const start = (h) => {
    if (!pending.has(h)) {
      const p = guarded(fetchHeight(h), redact);
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
    tipHeight: () => guarded((async () => {
      const text = new TextDecoder().decode(await get('/rest/chaininfo.json', 'chain info', CAPS.json, 'application/json'));
      let blocks;
      try {
        blocks = JSON.parse(text).blocks;
      } catch {
        throw new Error(`${shown}/rest/chaininfo.json: not JSON: ${JSON.stringify(text.slice(0, 80))}`);
      }
      return checkedTip(blocks, `${shown}/rest/chaininfo.json: "blocks"`);
    })(), redact),
  };
}

/**
 * What a message names as the answer's source: `asked` (the URL asked, without credentials, and
 * what for), and when fetch followed a redirect, the URL that answered (Response.redirected,
 * Response.url; without credentials): an error answer is then that server's, not the node's.
 * @param {string} asked
 * @param {Response} res
 * @returns {string} "<asked>, redirected to <url>, which answered", or asked
 */
export function answeredAt(asked, res) {
  return res?.redirected && res.url ? `${asked}, redirected to ${shownUrl(res.url)}, which answered` : asked;
}

/** Whether `res` came from another origin than `url` after a redirect: fetch sends no
 *  Authorization header there (the Fetch standard drops it across origins). */
export function crossOrigin(url, res) {
  return Boolean(res?.redirected && res.url) && new URL(res.url).origin !== new URL(url).origin;
}

/**
 * A tip height as a node answered it, or an Error: Core's heights are int, so a whole number
 * from 0 to 2^31 - 1.
 * @param {unknown} n
 * @param {string} where the URL and the field or method, for the message
 */
export function checkedTip(n, where) {
  if (!Number.isSafeInteger(n) || n < 0 || n >= HEIGHT_LIMIT) {
    throw new Error(`${where} is ${JSON.stringify(n)?.slice(0, 80) ?? 'missing'}, not a height (a whole number from 0 to 2,147,483,647)`);
  }
  return n;
}

/**
 * Checks each value of a spenttxouts body (CompactSize(transactions) | CompactSize(0) for the
 * coinbase | per other transaction CompactSize(m) | m × (int64 LE value, CompactSize script
 * length, script)): a value below 0 or above MAX_MONEY cannot be one Core connected a block
 * with, so the node's answer is wrong, and is a read error naming where. A body that does not
 * parse to its last byte is the engine's to name (its shape, against the block): its values are
 * not judged here.
 * @param {Uint8Array} body
 * @param {string} where the URL, the block's hash and height
 */
export function checkSpentAmounts(body, where) {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  let at = 0;
  const compact = () => {
    if (at >= body.length) return -1;
    const first = body[at++];
    if (first < 0xfd) return first;
    const width = first === 0xfd ? 2 : first === 0xfe ? 4 : 8;
    if (at + width > body.length) return -1;
    const n = width === 2 ? view.getUint16(at, true) : width === 4 ? view.getUint32(at, true) : Number(view.getBigUint64(at, true));
    at += width;
    return n;
  };
  let bad = null;
  const transactions = compact();
  for (let t = 0; t < transactions; t++) {
    const outputs = compact();
    if (outputs < 0) return;
    for (let i = 0; i < outputs; i++) {
      if (at + 8 > body.length) return;
      const high = view.getInt32(at + 4, true);
      const value = high * 4294967296 + view.getUint32(at, true); // exact up to 2^53; beyond, still too large
      if (!bad && (high < 0 || value > MAX_MONEY_SAT)) {
        bad = `tx ${t} input ${i}: spent output value ${view.getBigInt64(at, true)} sat is ${high < 0 ? 'negative' : 'above 21,000,000 BTC (2,100,000,000,000,000 sat)'}`;
      }
      at += 8;
      const scriptLength = compact();
      if (scriptLength < 0) return;
      at += scriptLength;
    }
  }
  if (bad && at === body.length) throw new Error(`${where}: ${bad}: not a real amount; the node's answer is wrong`);
}

/** An Error of a request; `transient`: worth another try. */
export function failure(message, transient = false, cause = undefined) {
  return Object.assign(new Error(message, cause === undefined ? undefined : { cause }), { transient });
}

/**
 * The failure of a request that threw (no answer, a dropped connection, a refused one, a
 * timeout): transient but for a refused connection or an unknown host.
 * @param {unknown} err what fetch or the body's stream threw
 * @param {string} where the URL and what was asked
 * @param {number} timeoutMs
 * @param {{headers: boolean, bytes: number}} state whether the answer's headers came, and how
 *   many bytes of its body
 * @param {string} refusedHint what a refused connection suggests
 */
export function networkFailure(err, where, timeoutMs, state, refusedHint) {
  const code = err?.name === 'TimeoutError' ? 'TIMEOUT' : err?.cause?.code ?? err?.code ?? '';
  if (code === 'TIMEOUT') {
    const seconds = timeoutMs / 1000;
    return failure(`${where}: ${state.headers
      ? `no complete answer within ${seconds} s (the headers came, then ${state.bytes.toLocaleString('en-US')} bytes of the body)`
      : `no answer within ${seconds} s (not even the headers)`}`, true, err);
  }
  if (code === 'ECONNREFUSED') return failure(`${where}: connection refused (${refusedHint})`, false, err);
  // The Fetch standard's blocked ports (1, 7, 9, 21, 22, 25, ...): fetch never connects to them.
  if (err?.cause?.message === 'bad port') {
    return failure(`${where}: fetch refuses this port (a port the Fetch standard blocks: ` +
      'run the node\'s REST or RPC server on another, e.g. 8332)', false, err);
  }
  const why = `${code || err?.message}${err?.cause?.message ? ` (${err.cause.message})` : ''}`;
  return failure(`${where}: ${why}`, code !== 'ENOTFOUND', err);
}

/**
 * Runs `attempt` until it succeeds, throws a failure that is not transient, or has been tried
 * 1 + retries times, waiting backoffMs doubled after each try; onRetry is told each retry.
 * @template T
 * @param {{retries: number, backoffMs: number, onRetry?: (message: string) => void}} policy
 * @param {() => Promise<T>} attempt
 * @returns {Promise<T>}
 */
export async function withRetries({ retries, backoffMs, onRetry }, attempt) {
  let wait = backoffMs;
  for (let tried = 1; ; tried++) {
    try {
      return await attempt();
    } catch (err) {
      if (!err?.transient) throw err;
      if (tried > retries) throw tried > 1 ? failure(`${err.message}; gave up after ${tried} tries`, false, err.cause) : err;
      onRetry?.(`${err.message}; retrying in ${wait / 1000} s (try ${tried + 1} of ${retries + 1})`);
      await sleep(wait);
      wait *= 2;
    }
  }
}

/**
 * A response's body read through its stream, at most `cap` bytes: past it (or a Content-Length
 * above it) the read stops and the connection is dropped. `state.bytes` counts what came.
 * @param {Response} res
 * @param {number} cap
 * @param {{bytes: number}} state
 * @param {{truncate?: boolean}} [options] truncate: give the first `cap` bytes of a larger body
 * @returns {Promise<Uint8Array|null>} null for a body larger than cap (unless truncate)
 */
export async function readBody(res, cap, state, { truncate = false } = {}) {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (!truncate && declared > cap) {
    await res.body?.cancel().catch(() => {});
    return null;
  }
  if (!res.body) return new Uint8Array(0);
  const reader = res.body.getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    state.bytes += value.length;
    if (total + value.length > cap) {
      await reader.cancel().catch(() => {});
      if (!truncate) return null;
      chunks.push(value.subarray(0, cap - total));
      total = cap;
      break;
    }
    chunks.push(value);
    total += value.length;
  }
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** The shortest password blanked out of messages on its own (credentialRedactor). */
export const MIN_BLANKED_PASSWORD = 6;

/**
 * Blanks the client's own credentials out of a text (a server's answer repeated in a message):
 * the user:password pair, its base64 (HTTP basic authentication's form, with and without
 * padding), the password, and their forms as written in the URL, each replaced by <credentials>.
 * A password alone is blanked only from MIN_BLANKED_PASSWORD characters on: blanking a short
 * one everywhere (every "2" of a message for the password "2") garbled the message and, by the
 * pattern of what it blanked, showed the password.
 * @param {{user: string, password: string, raw?: string[]}} credentials raw: the URL's own
 *   (percent-encoded) user and password
 * @returns {(text: string) => string}
 */
export function credentialRedactor({ user, password, raw = [] }) {
  const pair = `${user}:${password}`;
  const encoded = base64(pair);
  const alone = [password, raw[1] ?? ''].filter((s) => s.length >= MIN_BLANKED_PASSWORD);
  const secrets = [pair, encoded, encoded.replace(/=+$/, ''), raw.length === 2 ? `${raw[0]}:${raw[1]}` : '', ...alone]
    .filter((s, i, all) => s && all.indexOf(s) === i)
    .sort((a, b) => b.length - a.length);
  return (text) => secrets.reduce((t, s) => t.split(s).join('<credentials>'), String(text));
}

/** The promise, its rejection's message with the credentials blanked out (a new Error then). */
export function guarded(promise, redact) {
  return promise.catch((err) => {
    const message = redact(String(err?.message ?? err));
    throw message === err?.message ? err : new Error(message);
  });
}

/** Base64 of the text's UTF-8 bytes (HTTP basic authentication; btoa alone takes only Latin-1). */
export function base64(text) {
  let binary = '';
  for (const b of new TextEncoder().encode(text)) binary += String.fromCharCode(b);
  return btoa(binary);
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
