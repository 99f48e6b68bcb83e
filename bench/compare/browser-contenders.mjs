// ibd-wasm in a browser's module Web Worker as contenders of the interleaved speed rounds
// (speed.mjs runSpeed `extra`): one worker holds one engine per variant and both check sets,
// and times one pass (bench/core/wasm-pass.mjs) per request, so that its rounds interleave with
// the native tool's and the Node contenders' round by round. Chromium (V8) with the flags it is
// launched with, Firefox ESR (SpiderMonkey) with the preferences it is launched with: `npm run
// bench` (Chromium with --wasm-wide-arithmetic, for the 'wide' variant),
// bench/compare/wide-arithmetic.mjs, bench/compare/browsers.mjs (both browsers, with and
// without the proposal).
import { launchChromium } from '../shared/chromium-launcher.mjs';
import { launchFirefox } from '../shared/firefox-launcher.mjs';
import { startServer } from '../../web/server.mjs';

/** Runs in the page: starts the worker (its source passed in), loads the variants and the sets,
 *  and keeps it as globalThis.ibdBench.call(message) -> Promise<result>. */
async function startWorker({ source, init }) {
  const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  const worker = new Worker(url, { type: 'module' });
  const waiting = new Map();
  let next = 0;
  worker.onmessage = ({ data }) => {
    const w = waiting.get(data.id);
    waiting.delete(data.id);
    if (data.ok) w.resolve(data.result); else w.reject(new Error(`in the Web Worker: ${data.error}`));
  };
  worker.onerror = (e) => { for (const w of waiting.values()) w.reject(new Error(`Web Worker error: ${e.message}`)); waiting.clear(); };
  globalThis.ibdBench = {
    call: (message) => new Promise((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve, reject });
      worker.postMessage({ id, ...message });
    }),
  };
  return globalThis.ibdBench.call({ op: 'init', ...init });
}

/** The worker's source: init (engines, sets), warm (the first 256 records), pass (a timed pass;
 *  verdicts returned as base64). */
const WORKER_SOURCE = `
let state;
const decode = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
const encode = (a) => { let t = ''; for (const x of a) t += String.fromCharCode(x); return btoa(t); };
onmessage = async ({ data }) => {
  try {
    let result = null;
    if (data.op === 'init') {
      const at = (p) => new URL(p, data.origin).href;
      const { loadWebEngine } = await import(at('/wasm/engine-web.mjs'));
      const { createBatchVerifier } = await import(at('/wasm/batch-verifier.mjs'));
      const { walkChecks } = await import(at('/wasm/check-buffer.mjs'));
      const { wasmPass } = await import(at('/bench/core/wasm-pass.mjs'));
      const sets = {};
      for (const [type, b64] of Object.entries(data.sets)) {
        const checks = decode(b64);
        const walked = walkChecks(checks);
        const n = Math.min(256, walked.count);
        const headChecks = checks.subarray(0, walked.offsets[n]);
        sets[type] = { set: { checks, walked }, head: { checks: headChecks, walked: walkChecks(headChecks) } };
      }
      const verifiers = {};
      for (const v of data.variants) verifiers[v] = createBatchVerifier(await loadWebEngine(v, { baseUrl: at('/wasm/') }));
      state = { sets, verifiers, wasmPass };
      result = { userAgent: navigator.userAgent };
    } else if (data.op === 'warm') {
      state.wasmPass(state.verifiers[data.variant], state.sets[data.type].head, data.batchSize);
    } else if (data.op === 'pass') {
      const r = state.wasmPass(state.verifiers[data.variant], state.sets[data.type].set, data.batchSize);
      result = { seconds: r.seconds, verdicts: encode(r.verdicts) };
    }
    postMessage({ id: data.id, ok: true, result });
  } catch (e) {
    postMessage({ id: data.id, ok: false, error: String((e && e.stack) || e) });
  }
};`;

/**
 * Contenders that verify in one module Web Worker of a headless Chromium launched with
 * `jsFlags`, one per variant, for speed.mjs runSpeed's `extra`.
 * @param {{ecdsa: object, schnorr: object}} sets the check sets (compare-checks.mjs)
 * @param {{variants: string[], batchSize: number, jsFlags?: string[], label: string}} options
 *   label: where the contender runs, after its variant in its name ('ibd-wasm simd, <label>');
 *   the backend column names the browser's version and its flags
 * @returns {Promise<{contenders: object[], browser: string, close: () => Promise<void>}>}
 *   contenders as speed.mjs builds them ({name, kind: 'chromium-worker', variant, batch_size,
 *   backend, types, warm, pass}; pass(type) -> {seconds (wall time of the pass inside the worker),
 *   verdicts}); close() stops the browser and the server.
 * @throws (rejects) Error when Chromium or the server cannot start, or a variant does not load
 *   there (the message names it: e.g. 'wide' without --wasm-wide-arithmetic).
 */
export function chromiumWorkerContenders(sets, { variants, batchSize, jsFlags = [], label }) {
  return workerContenders(sets, {
    variants, batchSize, label, kind: 'chromium-worker',
    launch: async () => {
      const browser = await launchChromium({ jsFlags });
      const version = browser.context.browser()?.version() ?? '';
      return { browser, backend: `Chromium ${version}${jsFlags.length ? ` --js-flags=${jsFlags.join(' ')}` : ''}`, version };
    },
  });
}

/**
 * The same contenders in one module Web Worker of a headless Firefox ESR (SpiderMonkey) with
 * `prefs` set (bench/shared/firefox-launcher.mjs).
 * @param {{ecdsa: object, schnorr: object}} sets the check sets (compare-checks.mjs)
 * @param {{variants: string[], batchSize: number, prefs?: Record<string, boolean>, label: string}} options
 *   label: as chromiumWorkerContenders's; the backend column names the version and the prefs
 * @returns {Promise<{contenders: object[], browser: string, close: () => Promise<void>}>} as
 *   chromiumWorkerContenders, with kind 'firefox-worker' and browser e.g. 'Firefox 153.8.0'.
 * @throws (rejects) Error when Firefox or the server cannot start, or a variant does not load there.
 */
export function firefoxWorkerContenders(sets, { variants, batchSize, prefs = {}, label }) {
  return workerContenders(sets, {
    variants, batchSize, label, kind: 'firefox-worker',
    launch: async () => {
      const browser = await launchFirefox({ prefs });
      const set = Object.entries(prefs).map(([k, v]) => ` ${k}=${v}`).join('');
      return { browser, backend: `${browser.version}${set}`, version: browser.version };
    },
  });
}

async function workerContenders(sets, { variants, batchSize, label, kind, launch }) {
  const server = await startServer({ port: 0 });
  let browser;
  try {
    const launched = await launch();
    browser = launched.browser;
    const page = await browser.context.newPage();
    await page.goto(`${server.url}fixtures/manifest.json`);
    const b64 = Object.fromEntries(Object.entries(sets).map(([t, s]) => [t, Buffer.from(s.checks).toString('base64')]));
    await page.evaluate(startWorker, { source: WORKER_SOURCE, init: { variants, sets: b64, origin: server.url } });
    const call = (message) => page.evaluate((m) => globalThis.ibdBench.call(m), message);
    const contenders = variants.map((variant) => ({
      name: `ibd-wasm ${variant}, ${label}`, kind, variant, batch_size: batchSize,
      backend: `${launched.backend}, module Web Worker`,
      types: Object.keys(sets),
      warm: (type) => call({ op: 'warm', variant, type, batchSize }),
      pass: async (type) => {
        const r = await call({ op: 'pass', variant, type, batchSize });
        return { seconds: r.seconds, verdicts: Buffer.from(r.verdicts, 'base64') };
      },
    }));
    const b = browser;
    return { contenders, browser: launched.version, close: async () => { await b.close(); await server.close(); } };
  } catch (err) {
    await browser?.close();
    await server.close();
    throw err;
  }
}
