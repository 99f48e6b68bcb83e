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
import { checkKeys, packageApi } from './api.mjs';
import { defaultVariant, loadPackageEngine } from './web-engine.mjs';

export { encodeCheck, CheckType, Verdict, encodeSpentOutputs, simdSupported, VARIANTS };

/** init's options; createPool's. */
const INIT_OPTIONS = ['variant', 'wasmUrl'];
const POOL_OPTIONS = ['workers', 'variant', 'wasmUrl', 'transport', 'batchTimeoutMs', 'recordTimeoutMs', 'maxAttempts', 'loadTimeoutMs'];

let settings = {};   // the options of the next load (init's, or none)
let loaded = null;   // {variant, wasmUrl} the engine was loaded with
let inFlight = null; // {variant, wasmUrl} of the load in progress
let engine = null;
let loading = null;

const api = packageApi({
  engine: () => {
    if (!engine) throw new Error('ibd-wasm: call `await init()` once before verify, verifySchnorr, isPoint or verifyBatch (a browser compiles the wasm asynchronously)');
    return engine;
  },
  engineAsync: () => {
    if (engine) return Promise.resolve(engine);
    if (!loading) {
      const next = { variant: settings.variant ?? defaultVariant(), wasmUrl: settings.wasmUrl };
      inFlight = next;
      loading = loadPackageEngine(next).then((e) => {
        loaded = next;
        return (engine ??= e);
      }, (err) => {
        // A later init() may try other options (the bundled wasm after a CDN failed).
        loading = null;
        settings = {};
        throw err;
      });
    }
    return loading;
  },
  poolOptions: POOL_OPTIONS,
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
 * Loads this thread's engine (docs/package.md "init"), or gives the loaded one's description.
 * @param {{variant?: 'simd'|'scalar', wasmUrl?: string|URL}} [options] variant: default 'simd'
 *   where the browser runs wasm SIMD, else 'scalar'; wasmUrl: where to fetch ibd-<variant>.wasm
 *   (default: the package's own file, as the bundler emitted it). Until a load succeeds, each
 *   call replaces the options (after a CDN failed, init() retries with the package's own file).
 * @returns {Promise<object>} the engine's engineInfo()
 * @throws (rejects) TypeError for options that are not an object or hold an unknown key; Error
 *   naming the URL and the HTTP status, network or compile error; Error when the engine is
 *   already loaded with another variant or URL than the one asked for
 */
export function init(options = {}) {
  try {
    if (options === null || typeof options !== 'object') throw new TypeError(`init options must be an object such as {variant: 'simd'}, got ${options === null ? 'null' : typeof options}`);
    checkKeys('init', options, INIT_OPTIONS);
    if (options.wasmUrl !== undefined && (options.wasmUrl === '' || (typeof options.wasmUrl !== 'string' && !(options.wasmUrl instanceof URL)))) throw new TypeError(`init: wasmUrl must be a URL or a non-empty string, got ${JSON.stringify(options.wasmUrl) ?? typeof options.wasmUrl}`);
    if (options.variant !== undefined && typeof options.variant !== 'string') throw new TypeError(`init: variant must be 'simd' or 'scalar', got ${JSON.stringify(options.variant) ?? typeof options.variant}`);
    if (engine) {
      const url = (u) => (u === undefined ? undefined : new URL(u, globalThis.location?.href).href);
      const other = (options.variant !== undefined && options.variant !== loaded.variant)
        || (options.wasmUrl !== undefined && url(options.wasmUrl) !== url(loaded.wasmUrl));
      if (other) throw new Error(`init: this thread's engine is already loaded (${loaded.variant}${loaded.wasmUrl ? ` from ${loaded.wasmUrl}` : ''}); it cannot change`);
    } else if (!loading) {
      settings = { variant: options.variant, wasmUrl: options.wasmUrl };
    } else {
      const url = (u) => (u === undefined ? undefined : new URL(u, globalThis.location?.href).href);
      if ((options.variant !== undefined && options.variant !== inFlight.variant)
        || (options.wasmUrl !== undefined && url(options.wasmUrl) !== url(inFlight.wasmUrl))) {
        throw new Error(`init: a load of ${inFlight.variant}${inFlight.wasmUrl ? ` from ${inFlight.wasmUrl}` : ''} is in progress; await it before asking for another`);
      }
    }
  } catch (err) {
    return Promise.reject(err);
  }
  return api.init();
}

export const { verify, verifySchnorr, isPoint, verifyBatch, validateBlock, createPool } = api;
