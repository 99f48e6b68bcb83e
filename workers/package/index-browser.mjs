// The npm package in browsers and bundlers (package.json "exports", the default condition): the
// engine fetched from the package's build/wasm/ (or init({wasmUrl})), its workers module Web
// Workers. The API itself is api.mjs; docs/package.md documents it.
//
// No top-level await: importing this module loads nothing. A browser thread cannot compile the
// engine synchronously, so call `await init()` once before the synchronous calls (verify,
// verifySchnorr, isPoint, verifyBatch); before it they throw an Error saying so. validateBlock
// and the pools load what they need themselves.
import { encodeCheck, CheckType, Verdict } from '../../wasm/check-buffer.mjs';
import { simdSupported, wideArithmeticSupported } from '../../wasm/engine-web.mjs';
import { encodeSpentOutputs } from '../../wasm/spent-outputs.mjs';
import { VARIANTS } from '../../wasm/variants.mjs';
import { VerifyPool } from '../verify-pool.mjs';
import { webHost } from '../web-host.mjs';
import { engineSlot, packageApi } from './api.mjs';
import { defaultVariant, loadPackageEngine } from './web-engine.mjs';

export { encodeCheck, CheckType, Verdict, encodeSpentOutputs, simdSupported, wideArithmeticSupported, VARIANTS };

/** createPool's options. */
const POOL_OPTIONS = ['workers', 'variant', 'wasmUrl', 'transport', 'batchTimeoutMs', 'recordTimeoutMs', 'stallFactor', 'minStallMs', 'maxAttempts', 'loadTimeoutMs'];

const absolute = (url) => new URL(url, globalThis.location?.href).href;

const slot = engineSlot({
  key: 'wasmUrl',
  checkLocation: (url, what) => {
    if (url === '' || (typeof url !== 'string' && !(url instanceof URL))) throw new TypeError(`${what}: wasmUrl must be a URL or a non-empty string, got ${JSON.stringify(url) ?? typeof url}`);
  },
  where: (url) => (url === undefined ? "the package's own file" : absolute(url)),
  defaultVariant,
  load: (next) => loadPackageEngine(next),
  notLoaded: 'ibd-wasm: call `await init()` once before verify, verifySchnorr, isPoint or verifyBatch (a browser compiles the wasm asynchronously)',
});

const api = packageApi({
  slot,
  poolOptions: POOL_OPTIONS,
  startPool: ({ workers = navigator.hardwareConcurrency || 2, variant, wasmUrl = slot.settings().wasmUrl, transport = 'auto', ...limits }) => {
    const chosen = variant ?? slot.settings().variant ?? defaultVariant();
    const host = webHost({
      // Written out as bundlers expect it: the worker script becomes a chunk of the app.
      createWorker: () => new Worker(new URL('./web-worker.mjs', import.meta.url), { type: 'module' }),
      workerUrl: workerScript(),
      settings: { variant: chosen, wasmUrl: wasmUrl === undefined ? undefined : absolute(wasmUrl) },
    });
    return new VerifyPool({ workers, transport, host, ...limits });
  },
});

/** The worker script's URL, for error messages only (not a pattern a bundler would rewrite). */
function workerScript() {
  const here = import.meta.url;
  return new URL('web-worker.mjs', here);
}

/** init, the drop-in calls, verifyBatch, validateBlock and createPool: docs/package.md, index.d.ts. */
export const { init, verify, verifySchnorr, isPoint, verifyBatch, validateBlock, createPool } = api;
