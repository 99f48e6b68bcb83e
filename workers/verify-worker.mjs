// worker_threads entry of a verify worker: loads its own wasm instance (workerData.variant) and
// serves the pool's batch messages (protocol and memory: batch-verifier.mjs). A load failure
// is posted as {type: 'load-error', message}, which the pool reports naming this worker.
import { parentPort, workerData } from 'node:worker_threads';
import { serveVerifyWorker } from './batch-verifier.mjs';
import { loadEngine } from './engine.mjs';

await serveVerifyWorker(() => loadEngine(workerData?.variant ?? 'simd'), {
  post: (msg, transfer) => parentPort.postMessage(msg, transfer),
  listen: (onMessage) => parentPort.on('message', onMessage),
});
