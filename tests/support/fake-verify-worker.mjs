// A worker_threads verify worker running the fake engine (fake-engine.mjs) through the real
// batch handler (workers/batch-handler.mjs), for pool tests. workerData: {failOnLoad?: bool,
// starts?: Int32Array (shared: the workers started so far), exitBeforeReady?: n, neverReady?: n}:
// the first n workers started (by `starts`) exit before they are ready, or never say so.
// A batch holding a record whose msg32 starts with 0xdd makes the worker throw outside any
// handler, which the pool sees as this worker's 'error' event. Each reply also says how the
// batch arrived: `seen: {keys, records}` = the message's keys and the constructor name of the
// buffer the records were read from (SharedArrayBuffer on the shared path: read in place).
import { parentPort, workerData } from 'node:worker_threads';
import { createBatchVerifier } from '../../wasm/batch-verifier.mjs';
import { createBatchHandler } from '../../workers/batch-handler.mjs';
import { walkChecks } from '../../wasm/check-buffer.mjs';
import { createFakeEngine } from './fake-engine.mjs';

if (workerData?.failOnLoad) throw new Error('fake engine failed to load');
const start = workerData?.starts ? Atomics.add(workerData.starts, 0, 1) : 0;
if (start < (workerData?.exitBeforeReady ?? 0)) process.exit(1);
const engine = createFakeEngine();
const handler = createBatchHandler(createBatchVerifier(engine));

parentPort.on('message', (msg) => {
  const checks = handler.records(msg);
  let crash = false;
  try {
    const { offsets, count } = walkChecks(checks);
    for (let i = 0; i < count; i++) crash ||= checks[offsets[i] + 4] === 0xdd;
  } catch { /* malformed: let the verifier report it */ }
  if (crash) {
    setTimeout(() => { throw new Error('fake worker crashed'); });
    return;
  }
  const { reply, transfer } = handler.handle(msg);
  reply.seen = { keys: Object.keys(msg).sort(), records: checks.buffer.constructor.name };
  parentPort.postMessage(reply, transfer);
});
if (start >= (workerData?.neverReady ?? 0)) {
  parentPort.postMessage({ type: 'ready', info: engine.engineInfo(), heapBytes: engine.HEAPU8.length });
}
