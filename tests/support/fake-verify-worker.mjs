// A worker_threads verify worker running the fake engine (fake-engine.mjs) through the real
// batch verifier, for pool tests. workerData: {failOnLoad?: bool}. A batch holding a record
// whose msg32 starts with 0xdd makes the worker throw outside any handler, which the pool sees
// as this worker's 'error' event.
import { parentPort, workerData } from 'node:worker_threads';
import { createBatchVerifier, handleVerifyMessage } from '../../workers/batch-verifier.mjs';
import { walkChecks } from '../../workers/job-buffer.mjs';
import { createFakeEngine } from './fake-engine.mjs';

if (workerData?.failOnLoad) throw new Error('fake engine failed to load');
const engine = createFakeEngine();
const verifier = createBatchVerifier(engine);

parentPort.on('message', (msg) => {
  const checks = new Uint8Array(msg.checks);
  let crash = false;
  try {
    const { offsets, count } = walkChecks(checks);
    for (let i = 0; i < count; i++) crash ||= checks[offsets[i] + 4] === 0xdd;
  } catch { /* malformed: let the verifier report it */ }
  if (crash) {
    setTimeout(() => { throw new Error('fake worker crashed'); });
    return;
  }
  const { reply, transfer } = handleVerifyMessage(verifier, msg);
  parentPort.postMessage(reply, transfer);
});
parentPort.postMessage({ type: 'ready', info: engine.engineInfo() });
