// worker_threads entry of a verify worker: loads its own wasm instance (workerData.variant),
// then answers each batch message with its verdicts (protocol: batch-verifier.mjs).
// Posts {type: 'ready', info} once loaded; a load failure is thrown, which the pool sees as
// this worker's 'error' event.
import { parentPort, workerData } from 'node:worker_threads';
import { createBatchVerifier, handleVerifyMessage } from './batch-verifier.mjs';
import { loadEngine } from './engine.mjs';

const engine = await loadEngine(workerData?.variant ?? 'simd');
const verifier = createBatchVerifier(engine);

parentPort.on('message', (msg) => {
  const { reply, transfer } = handleVerifyMessage(verifier, msg);
  parentPort.postMessage(reply, transfer);
});
parentPort.postMessage({ type: 'ready', info: { ...engine.engineInfo() } });
