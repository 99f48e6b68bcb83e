// The npm package in browsers and bundlers (package.json "exports", the default condition): the
// engine fetched from the package's build/wasm/ (or init({wasmUrl})), its workers module Web
// Workers. The API itself is api.mjs; docs/package.md documents it.
//
// No top-level await: importing this module loads nothing. A browser thread cannot compile the
// engine synchronously, so call `await init()` once before the synchronous calls (verify,
// verifySchnorr, isPoint, verifyBatch); before it they throw an Error saying so. validateBlock
// and the pools load what they need themselves.
import { encodeCheck, CheckType, Verdict } from '../../wasm/check-buffer.mjs';
import { simdSupported } from '../../wasm/engine-web.mjs';
import { encodeSpentOutputs } from '../../wasm/spent-outputs.mjs';
import { VARIANTS } from '../../wasm/variants.mjs';
import { VerifyPool } from '../verify-pool.mjs';
import { webHost } from '../web-host.mjs';
import { packageApi } from './api.mjs';
import { defaultVariant, loadPackageEngine } from './web-engine.mjs';

export { encodeCheck, CheckType, Verdict, encodeSpentOutputs, simdSupported, VARIANTS };

let settings = { variant: undefined, wasmUrl: undefined };
let engine = null;
let loading = null;

const api = packageApi({
  engine: () => {
    if (!engine) throw new Error('ibd-wasm: call `await init()` once before verify, verifySchnorr, isPoint or verifyBatch (a browser compiles the wasm asynchronously)');
    return engine;
  },
  engineAsync: () => {
    if (engine) return Promise.resolve(engine);
    loading ??= loadPackageEngine(settings).then((e) => (engine = e), (err) => {
      loading = null;
      throw err;
    });
    return loading;
  },
  startPool: ({ workers = navigator.hardwareConcurrency || 2, variant, wasmUrl, transport = 'auto', ...limits }) => {
    const chosen = variant ?? settings.variant ?? defaultVariant();
    const at = wasmUrl ?? settings.wasmUrl;
    const host = webHost({
      // Written out as bundlers expect it: the worker script becomes a chunk of the app.
      createWorker: () => new Worker(new URL('./web-worker.mjs', import.meta.url), { type: 'module' }),
      workerUrl: workerScript(),
      settings: { variant: chosen, wasmUrl: at === undefined ? undefined : new URL(at, globalThis.location?.href).href },
    });
    return new VerifyPool({ workers, transport, host, ...limits });
  },
});

/** The worker script's URL, for error messages only (not a pattern a bundler would rewrite). */
function workerScript() {
  const here = import.meta.url;
  return new URL('web-worker.mjs', here);
}

/**
 * Loads this thread's engine (docs/package.md "init").
 * @param {{variant?: 'simd'|'scalar', wasmUrl?: string|URL}} [options] variant: default 'simd'
 *   where the browser runs wasm SIMD, else 'scalar'; wasmUrl: where to fetch ibd-<variant>.wasm
 *   (default: the package's own file, as the bundler emitted it)
 * @returns {Promise<object>} the engine's engineInfo()
 * @throws (rejects) Error naming the URL and the HTTP status, network or compile error; Error
 *   when the engine is already loaded with other options
 */
export function init(options = {}) {
  const next = { variant: options.variant ?? settings.variant, wasmUrl: options.wasmUrl ?? settings.wasmUrl };
  if ((engine || loading) && (next.variant !== settings.variant || next.wasmUrl !== settings.wasmUrl)) {
    return Promise.reject(new Error('init: this thread\'s engine is already loaded; its variant and wasmUrl cannot change'));
  }
  settings = next;
  return api.init();
}

export const { verify, verifySchnorr, isPoint, verifyBatch, validateBlock, createPool } = api;
