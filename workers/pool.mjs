// The verify pool under Node: worker_threads workers (node-host.mjs) running the wasm verify
// worker, with Node's defaults. The pool logic itself is host-independent (verify-pool.mjs);
// web-pool.mjs is the browser counterpart.
import os from 'node:os';
import { bestVariant } from '../wasm/variants.mjs';
import { nodeHost } from './node-host.mjs';
import {
  DEFAULT_BATCH_SIZE, DEFAULT_BATCH_TIMEOUT_MS, DEFAULT_MAX_ATTEMPTS, DEFAULT_RECORD_TIMEOUT_MS,
  MAX_BATCH_SIZE, MAX_WORKERS, TRANSPORTS, VerifyPool,
} from './verify-pool.mjs';

export {
  DEFAULT_BATCH_SIZE, DEFAULT_BATCH_TIMEOUT_MS, DEFAULT_MAX_ATTEMPTS, DEFAULT_RECORD_TIMEOUT_MS,
  MAX_BATCH_SIZE, MAX_WORKERS, TRANSPORTS, VerifyPool,
};

/**
 * Creates a pool and starts its workers (they load their wasm in the background).
 * @param {{workers?: number, variant?: 'simd'|'scalar'|'wide', transport?: 'auto'|'shared'|'transfer',
 *   host?: object, batchTimeoutMs?: number, recordTimeoutMs?: number, maxAttempts?: number,
 *   stallFactor?: number, minStallMs?: number, loadTimeoutMs?: number}} [options]
 *   workers: 1..MAX_WORKERS, default os.availableParallelism(); variant: the wasm build each
 *   worker loads (default: bestVariant(), the fastest this Node runs: 'simd' in Node 20,
 *   which lacks wasm wide arithmetic); transport: 'auto' (default) is 'shared' under Node (a
 *   SharedArrayBuffer ring), 'transfer' forces transferred ArrayBuffers (verify-pool.mjs);
 *   host: default worker_threads running verify-worker.mjs (tests pass nodeHost({workerUrl})
 *   with a fake worker); batchTimeoutMs + n * recordTimeoutMs: milliseconds a batch of n
 *   records may take before its worker is terminated, replaced and the batch retried (defaults
 *   60,000 and 2); stallFactor, minStallMs: the shorter deadline of a first attempt once tasks
 *   have completed (defaults 20 and 10,000; verify-pool.mjs); maxAttempts: tries per batch (default 3).
 * @returns {VerifyPool} verify(checks, {batchSize, onProgress}) -> Promise<Uint8Array>,
 *   ready(), close(), transport, heapBytes, replacements.
 * @throws RangeError when `workers` is not an integer in 1..MAX_WORKERS, transport is unknown,
 *   or a timeout / maxAttempts is not positive. A worker that fails to load (unknown variant,
 *   missing build) rejects ready() and verify() naming the worker and the reason.
 */
export function createPool({ workers = os.availableParallelism(), variant = bestVariant(), host, ...options } = {}) {
  return new VerifyPool({ workers, host: host ?? nodeHost({ workerData: { variant } }), ...options });
}
