// worker_threads entry of a verify worker: loads its own wasm instance (workerData.variant, from
// workerData.wasmDir when given, else wasm/paths.mjs wasmDir()) and serves the pool's batch
// messages (protocol and memory: batch-handler.mjs). A load failure is posted as
// {type: 'load-error', message}, which the pool reports naming this worker.
import { parentPort, workerData } from 'node:worker_threads';
import { serveVerifyWorker } from './batch-handler.mjs';
import { loadEngine } from '../wasm/engine.mjs';

await serveVerifyWorker(() => loadEngine(workerData?.variant, workerData?.wasmDir ? { dir: workerData.wasmDir } : undefined), {
  post: (msg, transfer) => parentPort.postMessage(msg, transfer),
  listen: (onMessage) => parentPort.on('message', onMessage),
});
