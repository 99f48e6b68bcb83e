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
import { bestVariant, simdSupported, wideArithmeticSupported } from '../../wasm/engine-web.mjs';
import { encodeCheck, CheckType, Verdict } from '../../wasm/check-buffer.mjs';
import { encodeSpentOutputs } from '../../wasm/spent-outputs.mjs';
import { VARIANTS } from '../../wasm/variants.mjs';
import { nodeHost } from '../node-host.mjs';
import { createPool as startNodePool } from '../pool.mjs';
import { engineSlot, packageApi } from './api.mjs';

export { encodeCheck, CheckType, Verdict, encodeSpentOutputs, simdSupported, wideArithmeticSupported, VARIANTS };

/** The variant a load uses when none is asked for: 'wide' where the host runs wasm wide
 *  arithmetic (no Node release this package supports does), else 'simd' where it runs wasm SIMD,
 *  else 'scalar' (variants.mjs bestVariant). */
const defaultVariant = () => bestVariant();

/** createPool's options. */
const POOL_OPTIONS = ['workers', 'variant', 'wasmDir', 'transport', 'batchTimeoutMs', 'recordTimeoutMs', 'stallFactor', 'minStallMs', 'maxAttempts', 'loadTimeoutMs'];

const dirOption = ({ wasmDir: dir }) => (dir ? { dir } : undefined);

const slot = engineSlot({
  key: 'wasmDir',
  checkLocation: (dir, what) => {
    if (typeof dir !== 'string' || dir === '') throw new TypeError(`${what}: wasmDir must be a folder path (a non-empty string), got ${JSON.stringify(dir) ?? typeof dir}`);
  },
  where: (dir) => path.resolve(dir ?? wasmDir()),
  defaultVariant,
  load: (next) => loadEngine(next.variant, dirOption(next)),
  loadSync: (next) => loadEngineSync(next.variant, dirOption(next)),
});

const api = packageApi({
  slot,
  poolOptions: POOL_OPTIONS,
  startPool: ({ workers, variant, wasmDir: dir = slot.settings().wasmDir, ...limits }) => {
    const chosen = variant ?? slot.settings().variant ?? defaultVariant();
    return startNodePool({ workers, variant: chosen, host: nodeHost({ workerData: { variant: chosen, ...(dir ? { wasmDir: dir } : {}) } }), ...limits });
  },
});

/** init, the drop-in calls, verifyBatch, validateBlock and createPool: docs/package.md, index.d.ts. */
export const { init, verify, verifySchnorr, isPoint, verifyBatch, validateBlock, createPool } = api;
