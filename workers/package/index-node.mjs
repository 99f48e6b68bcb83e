// The npm package under Node (package.json "exports", condition "node"): the engine loaded from
// the package's build/wasm/ (or IBD_WASM_DIR, or init({wasmDir})), its workers worker_threads.
// The API itself is api.mjs; docs/package.md documents it.
//
// No top-level await: importing this module loads nothing. The first call that needs this
// thread's engine loads it synchronously (a Node thread may compile a module synchronously), so
// verify() works on its first call as tiny-secp256k1's does; init() loads it ahead, async.
import { loadEngine, loadEngineSync } from '../../wasm/engine.mjs';
import { simdSupported } from '../../wasm/engine-web.mjs';
import { encodeCheck, CheckType, Verdict } from '../../wasm/check-buffer.mjs';
import { encodeSpentOutputs } from '../../wasm/spent-outputs.mjs';
import { VARIANTS } from '../../wasm/variants.mjs';
import { nodeHost } from '../node-host.mjs';
import { createPool as startNodePool } from '../pool.mjs';
import { packageApi } from './api.mjs';

export { encodeCheck, CheckType, Verdict, encodeSpentOutputs, simdSupported, VARIANTS };

/** The variant a load uses when none is asked for: 'simd' where the host runs wasm SIMD. */
const defaultVariant = () => (simdSupported() ? 'simd' : 'scalar');

let settings = { variant: undefined, wasmDir: undefined };
let engine = null;
let loading = null;

const loadOptions = () => (settings.wasmDir ? { dir: settings.wasmDir } : undefined);

const api = packageApi({
  engine: () => (engine ??= loadEngineSync(settings.variant ?? defaultVariant(), loadOptions())),
  engineAsync: () => {
    if (engine) return Promise.resolve(engine);
    loading ??= loadEngine(settings.variant ?? defaultVariant(), loadOptions()).then((e) => (engine = e), (err) => {
      loading = null;
      throw err;
    });
    return loading;
  },
  startPool: ({ workers, variant, wasmDir, ...limits }) => {
    const chosen = variant ?? settings.variant ?? defaultVariant();
    const dir = wasmDir ?? settings.wasmDir;
    return startNodePool({ workers, variant: chosen, host: nodeHost({ workerData: { variant: chosen, ...(dir ? { wasmDir: dir } : {}) } }), ...limits });
  },
});

/**
 * Loads this thread's engine (docs/package.md "init").
 * @param {{variant?: 'simd'|'scalar', wasmDir?: string}} [options] variant: default 'simd'
 *   where the host runs wasm SIMD, else 'scalar'; wasmDir: the folder holding
 *   ibd-<variant>.js and .wasm (default: IBD_WASM_DIR, else the package's build/wasm/)
 * @returns {Promise<object>} the engine's engineInfo() (variant, libsecp256k1 version, ...)
 * @throws (rejects) Error naming a missing file or an unknown variant; Error when the engine is
 *   already loaded with other options
 */
export function init(options = {}) {
  const next = { variant: options.variant ?? settings.variant, wasmDir: options.wasmDir ?? settings.wasmDir };
  if ((engine || loading) && (next.variant !== settings.variant || next.wasmDir !== settings.wasmDir)) {
    return Promise.reject(new Error('init: this thread\'s engine is already loaded; its variant and wasmDir cannot change'));
  }
  settings = next;
  return api.init();
}

export const { verify, verifySchnorr, isPoint, verifyBatch, validateBlock, createPool } = api;
