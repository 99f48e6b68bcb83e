// A worker_threads verify worker with injected faults, for pool fault tests. It runs the real
// batch handler (workers/batch-handler.mjs) over the fake engine (fake-engine.mjs) or, with workerData.variant, the wasm
// engine. workerData:
//   variant?: 'simd'|'scalar'   load the wasm engine instead of the fake one
//   counter?: Int32Array        over a SharedArrayBuffer: batch, validate and chain messages seen by
//                               all workers of the pool (incremented before each)
//   faults?: {[n: number]: 'exit'|'throw'|'hang'|'slow'|'trap'|'oom'}
//                               fault on the n-th batch message pool-wide (1-based, counter)
//   slowMs?: number             how long a 'slow' fault keeps the worker busy (default 1,000 ms)
//   exitOnLoad?: true           exit (code 7) before reporting ready: a worker that fails to load
//   trapHeight?: number         validateBlock of a block at this height traps (wasm), every time
//   trapMarker?: true           a batch holding a record whose msg32 starts de ad be ef makes
//                               verifyBatch trap (fake: throws WebAssembly.RuntimeError; wasm:
//                               a real out-of-bounds trap, through _free), every time
// Faults: exit = process.exit(3) in the handler; throw = uncaught exception in the handler;
// hang = busy loop forever; slow = busy for slowMs, then the message is handled as usual (a
// worker alive but late); trap = this batch's verifyBatch (a validate message's validateBlock,
// a chain message's ChainValidation) traps; oom = the worker's wasm heap is filled (_malloc
// until it fails) before the message is handled: a worker whose memory ran out, not the block's.
import { parentPort, workerData } from 'node:worker_threads';
import { createBatchVerifier } from '../../wasm/batch-verifier.mjs';
import { createBatchHandler, CHECK_BUFFER_RESERVE_BYTES } from '../../workers/batch-handler.mjs';
import { loadEngine } from '../../wasm/engine.mjs';
import { walkChecks } from '../../wasm/check-buffer.mjs';
import { createFakeEngine } from './fake-engine.mjs';

if (workerData?.exitOnLoad) process.exit(7);
const engine = workerData?.variant ? await loadEngine(workerData.variant) : createFakeEngine();
const realVerifyBatch = engine.verifyBatch.bind(engine);
const trap = () => {
  if (workerData?.variant) engine._free(0x7ffffff0); // a real trap: reads a chunk header out of bounds
  throw new WebAssembly.RuntimeError('memory access out of bounds (injected)');
};
let trapNext = false;
engine.verifyBatch = (...args) => {
  if (trapNext) trap();
  return realVerifyBatch(...args);
};
if (engine.validateBlock) {
  const realValidateBlock = engine.validateBlock.bind(engine);
  engine.validateBlock = (...args) => {
    if (trapNext || args[3] === workerData?.trapHeight) trap();
    return realValidateBlock(...args);
  };
}
if (engine.ChainValidation) {
  const RealChainValidation = engine.ChainValidation;
  engine.ChainValidation = function ChainValidation(...args) {
    if (trapNext) trap();
    return new RealChainValidation(...args);
  };
}
const handler = createBatchHandler(createBatchVerifier(engine, { reserveBytes: workerData?.variant ? CHECK_BUFFER_RESERVE_BYTES : 0 }), engine);

const hasTrapMarker = (checks) => {
  try {
    const { offsets, count } = walkChecks(checks);
    for (let i = 0; i < count; i++) {
      const at = offsets[i] + 4;
      if (checks[at] === 0xde && checks[at + 1] === 0xad && checks[at + 2] === 0xbe && checks[at + 3] === 0xef) return true;
    }
  } catch { /* malformed: let the verifier report it */ }
  return false;
};

parentPort.on('message', (msg) => {
  const n = workerData?.counter ? Atomics.add(workerData.counter, 0, 1) + 1 : 0;
  const fault = workerData?.faults?.[n];
  if (fault === 'exit') process.exit(3);
  if (fault === 'throw') throw new Error(`injected exception in the message handler (batch ${n})`);
  if (fault === 'hang') for (;;);
  if (fault === 'slow') for (const end = performance.now() + (workerData.slowMs ?? 1000); performance.now() < end;);
  if (fault === 'oom' && workerData?.variant) {
    for (const size of [1 << 24, 1 << 20]) while (engine._malloc(size)); // under 1 MiB left: the call's own strings fit
  }
  trapNext = fault === 'trap' || (workerData?.trapMarker && !msg.kind && hasTrapMarker(handler.records(msg)));
  const { reply, transfer } = handler.handle(msg);
  parentPort.postMessage(reply, transfer);
});
parentPort.postMessage({ type: 'ready', info: { ...engine.engineInfo() } });
