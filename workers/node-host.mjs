// The Node.js host for the verify pool: one worker_threads Worker per slot. This and
// web-host.mjs (module Web Workers) are the only host-specific parts of the pool.
//
// Host interface (used by verify-pool.mjs):
//   host.loads                     optional: what each worker loads (script, wasm), named in
//                                  the pool's error for a worker that does not load in time
//   host.spawn(index, { onMessage(msg), onError(err), onExit(code) }) -> endpoint
//                                  onExit: hosts whose workers can exit on their own (Node)
//   endpoint.post(msg, transfer)   send one message, transferring the listed ArrayBuffers
//   endpoint.ref() / unref()       keep / stop keeping the process alive for this worker
//                                  (no-ops where the host has no such notion, e.g. browsers)
//   endpoint.terminate()           -> Promise, stops the worker
import { Worker } from 'node:worker_threads';

/**
 * A host that runs `workerUrl` in worker_threads.
 * @param {{workerUrl?: URL, workerData?: any}} [options] the worker script (default: the wasm
 *   verify worker, verify-worker.mjs) and the data it receives (e.g. {variant: 'simd'}).
 * @returns {{spawn: Function}} see the host interface above.
 */
export function nodeHost({ workerUrl = new URL('./verify-worker.mjs', import.meta.url), workerData } = {}) {
  // A worker inherits the process's Node options; the ones about how the main script was given
  // (node --input-type=module -e ...) make a worker started from a file fail
  // (ERR_INPUT_TYPE_NOT_ALLOWED), so they are left out.
  const execArgv = process.execArgv.filter((a) => !/^--(input-type|eval|print)\b|^-[ep]$/.test(a));
  const wasm = workerData?.variant ? `, the ${workerData.variant} wasm build` : '';
  return {
    loads: `the worker script ${workerUrl instanceof URL ? workerUrl.href : workerUrl}${wasm}`,
    spawn(index, { onMessage, onError, onExit }) {
      const worker = new Worker(workerUrl, { workerData, execArgv, name: `ibd-verify-${index}` });
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('messageerror', (err) => onError(new Error(`message could not be deserialized: ${err?.message ?? err}`)));
      worker.on('exit', onExit);
      return {
        post: (msg, transfer) => worker.postMessage(msg, transfer),
        ref: () => worker.ref(),
        unref: () => worker.unref(),
        terminate: () => worker.terminate(),
      };
    },
  };
}
