// The verify pool in a browser: module Web Workers (web-host.mjs) running the wasm verify
// worker, with the browser's defaults. The pool logic itself is host-independent
// (verify-pool.mjs); pool.mjs is the Node counterpart.
import { VerifyPool } from './verify-pool.mjs';
import { bestVariant } from '../wasm/variants.mjs';
import { webHost } from './web-host.mjs';

/**
 * Creates a pool and starts its workers (they load their wasm in the background).
 * @param {{workers?: number, variant?: 'simd'|'scalar'|'wide', transport?: 'auto'|'shared'|'transfer',
 *   baseUrl?: URL|string, host?: object, batchTimeoutMs?: number, recordTimeoutMs?: number,
 *   maxAttempts?: number, stallFactor?: number, minStallMs?: number, loadTimeoutMs?: number}} [options]
 *   workers: 1..MAX_WORKERS, default navigator.hardwareConcurrency; variant: the wasm build
 *   each worker loads (default: the fastest this browser runs, wasm/variants.mjs bestVariant():
 *   'wide' where it has wasm wide arithmetic, else 'simd', else 'scalar');
 *   transport: 'auto' (default) batches through a SharedArrayBuffer ring when the page is
 *   cross-origin isolated, else as transferred ArrayBuffers; 'shared' / 'transfer' force one;
 *   baseUrl: folder URL of the wasm build (default /wasm/ as web/server.mjs serves it, i.e.
 *   ../wasm/ beside this file); host: default webHost({variant, baseUrl}); the limits as in
 *   VerifyPool.
 * @returns {VerifyPool} verify(checks, {batchSize, onProgress}), ready(), close(), transport,
 *   heapBytes, replacements (verify-pool.mjs).
 * @throws RangeError for a bad worker count, transport or limit; Error when transport is
 *   'shared' and the page is not cross-origin isolated. A worker that fails to load rejects
 *   ready() and verify() naming the URL that failed.
 */
export function createWebPool({ workers = navigator.hardwareConcurrency, variant = bestVariant(), transport = 'auto',
  baseUrl, host, ...limits } = {}) {
  return new VerifyPool({ workers, transport, host: host ?? webHost({ variant, baseUrl }), ...limits });
}
