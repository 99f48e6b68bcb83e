// The verify pool under Node: worker_threads workers (node-host.mjs) running the wasm verify
// worker, with Node's defaults. The pool logic itself is host-independent (verify-pool.mjs).
import os from 'node:os';
import { nodeHost } from './node-host.mjs';
import { DEFAULT_BATCH_SIZE, MAX_WORKERS, VerifyPool } from './verify-pool.mjs';

export { DEFAULT_BATCH_SIZE, MAX_WORKERS, VerifyPool };

/**
 * Creates a pool and starts its workers (they load their wasm in the background).
 * @param {{workers?: number, variant?: 'simd'|'scalar', host?: object}} [options]
 *   workers: 1..MAX_WORKERS, default os.availableParallelism(); variant: the wasm build each
 *   worker loads (default 'simd'); host: default worker_threads running verify-worker.mjs
 *   (tests pass nodeHost({workerUrl}) with a fake worker).
 * @returns {VerifyPool} verify(checks, {batchSize}) -> Promise<Uint8Array>, ready(), close().
 * @throws RangeError when `workers` is not an integer in 1..MAX_WORKERS.
 */
export function createPool({ workers = os.availableParallelism(), variant = 'simd', host } = {}) {
  return new VerifyPool({ workers, host: host ?? nodeHost({ workerData: { variant } }) });
}
