// The npm package under Node (package.json "exports", condition "node"): the engine loaded from
// the package's build/wasm/ (or IBD_WASM_DIR, or init({wasmDir})), its workers worker_threads.
// The API itself is api.mjs; docs/package.md documents it.
//
// No top-level await: importing this module loads nothing. The first call that needs this
// thread's engine loads it synchronously (a Node thread may compile a module synchronously), so
// verify() works on its first call as tiny-secp256k1's does; init() loads it ahead, async.
import path from 'node:path';
import { loadEngine, loadEngineSync } from '../../wasm/engine.mjs';
import { wasmDir } from '../../wasm/paths.mjs';
import { simdSupported } from '../../wasm/engine-web.mjs';
import { encodeCheck, CheckType, Verdict } from '../../wasm/check-buffer.mjs';
import { encodeSpentOutputs } from '../../wasm/spent-outputs.mjs';
import { VARIANTS } from '../../wasm/variants.mjs';
import { nodeHost } from '../node-host.mjs';
import { createPool as startNodePool } from '../pool.mjs';
import { checkKeys, packageApi } from './api.mjs';

export { encodeCheck, CheckType, Verdict, encodeSpentOutputs, simdSupported, VARIANTS };

/** The variant a load uses when none is asked for: 'simd' where the host runs wasm SIMD. */
const defaultVariant = () => (simdSupported() ? 'simd' : 'scalar');

/** init's options; createPool's. */
const INIT_OPTIONS = ['variant', 'wasmDir'];
const POOL_OPTIONS = ['workers', 'variant', 'wasmDir', 'transport', 'batchTimeoutMs', 'recordTimeoutMs', 'maxAttempts', 'loadTimeoutMs'];

let settings = {};   // the options of the next load (init's, or none)
let loaded = null;   // {variant, wasmDir} the engine was loaded with
let inFlight = null; // {variant, wasmDir} of the load in progress
let engine = null;
let loading = null;

/** The next load's variant and folder (undefined: wasm/paths.mjs wasmDir()). */
const resolved = () => ({ variant: settings.variant ?? defaultVariant(), wasmDir: settings.wasmDir });
const dirOption = ({ wasmDir }) => (wasmDir ? { dir: wasmDir } : undefined);

const api = packageApi({
  engine: () => {
    if (!engine) {
      const next = resolved();
      engine = loadEngineSync(next.variant, dirOption(next));
      loaded = next;
    }
    return engine;
  },
  engineAsync: () => {
    if (engine) return Promise.resolve(engine);
    if (!loading) {
      const next = resolved();
      inFlight = next;
      loading = loadEngine(next.variant, dirOption(next)).then((e) => {
        loaded = next;
        return (engine ??= e); // a synchronous load may have come first (Node)
      }, (err) => {
        // A later init() may try other options; a later call without init() takes the defaults.
        loading = null;
        settings = {};
        throw err;
      });
    }
    return loading;
  },
  poolOptions: POOL_OPTIONS,
  startPool: ({ workers, variant, wasmDir, ...limits }) => {
    const chosen = variant ?? settings.variant ?? defaultVariant();
    const dir = wasmDir ?? settings.wasmDir;
    return startNodePool({ workers, variant: chosen, host: nodeHost({ workerData: { variant: chosen, ...(dir ? { wasmDir: dir } : {}) } }), ...limits });
  },
});

/**
 * Loads this thread's engine (docs/package.md "init"), or gives the loaded one's description.
 * @param {{variant?: 'simd'|'scalar', wasmDir?: string}} [options] variant: default 'simd'
 *   where the host runs wasm SIMD, else 'scalar'; wasmDir: the folder holding
 *   ibd-<variant>.js and .wasm (default: IBD_WASM_DIR, else the package's build/wasm/). Until a
 *   load succeeds, each call replaces the options (a failed load can be retried with others).
 * @returns {Promise<object>} the engine's engineInfo() (variant, libsecp256k1 version, ...)
 * @throws (rejects) TypeError for options that are not an object or hold an unknown key; Error
 *   naming a missing file or an unknown variant; Error when the engine is already loaded with
 *   another variant or folder than the one asked for
 */
export function init(options = {}) {
  try {
    if (options === null || typeof options !== 'object') throw new TypeError(`init options must be an object such as {variant: 'simd'}, got ${options === null ? 'null' : typeof options}`);
    checkKeys('init', options, INIT_OPTIONS);
    if (options.wasmDir !== undefined && (typeof options.wasmDir !== 'string' || options.wasmDir === '')) throw new TypeError(`init: wasmDir must be a folder path (a non-empty string), got ${JSON.stringify(options.wasmDir) ?? typeof options.wasmDir}`);
    if (options.variant !== undefined && typeof options.variant !== 'string') throw new TypeError(`init: variant must be 'simd' or 'scalar', got ${JSON.stringify(options.variant) ?? typeof options.variant}`);
    if (engine) {
      const other = (options.variant !== undefined && options.variant !== loaded.variant)
        || (options.wasmDir !== undefined && path.resolve(options.wasmDir) !== path.resolve(loaded.wasmDir ?? wasmDir()));
      if (other) throw new Error(`init: this thread's engine is already loaded (${loaded.variant} from ${loaded.wasmDir ?? wasmDir()}); it cannot change`);
    } else if (!loading) {
      settings = { variant: options.variant, wasmDir: options.wasmDir };
    } else if ((options.variant !== undefined && options.variant !== inFlight.variant)
      || (options.wasmDir !== undefined && path.resolve(options.wasmDir) !== path.resolve(inFlight.wasmDir ?? wasmDir()))) {
      throw new Error(`init: a load of ${inFlight.variant} from ${inFlight.wasmDir ?? wasmDir()} is in progress; await it before asking for another`);
    }
  } catch (err) {
    return Promise.reject(err);
  }
  return api.init();
}

export const { verify, verifySchnorr, isPoint, verifyBatch, validateBlock, createPool } = api;
