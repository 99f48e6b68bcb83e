// The host-independent half of a verify worker: the worker side of the pool's message protocol
// over one batch verifier (wasm/batch-verifier.mjs: one check-buffer region in a wasm instance's memory,
// one verifyBatch call per batch). The worker entries (verify-worker.mjs: worker_threads,
// verify-web-worker.mjs: module Web Worker) only load their engine and call serveVerifyWorker.
//
// Protocol. Pool -> worker, one message per batch, in one of two forms (verify-pool.mjs picks
// the transport):
//   shared    {id, count, offset, length, ring?: SharedArrayBuffer}
//             the records are ring[offset, offset + length), read in place; the `count`
//             verdict bytes are written to ring[offset + length, offset + length + count).
//             `ring` comes with the first batch of each buffer a worker sees (job-ring.mjs).
//   transfer  {id, count, checks: ArrayBuffer}   the records, transferred
//   validate  {id, kind: 'validate', jobs: [{block, spentOutputs, hash, height, options}]}
//             whole blocks or ranges of blocks, their bytes as Uint8Array views of a
//             SharedArrayBuffer (shared with the pool, read only) or transferred
//             ArrayBuffers: each
//             validated end to end in this worker's engine (validateBlock, wasm/API.md: parse,
//             rules, sighash, scripts, signatures verified synchronously), one call per job
//   chain     {id, kind: 'chain', file, options}
//             a block file (Core's blk?????.dat layout; a Uint8Array view of a SharedArrayBuffer
//             or a transferred ArrayBuffer) validated as a chain from genesis by a fresh
//             ChainValidation(options) in this worker's engine (connectBlockFile, wasm/API.md)
//   encode    {id, kind: 'encode', texts: string[]}
//             spent_outputs.json texts, each encoded in the engine's binary form (JS:
//             wasm/spent-outputs.mjs), so that the pool's thread never parses them
// Worker -> pool:
//   {type: 'ready', info, heapBytes}    engine loaded, check-buffer region reserved; info = engineInfo()
//   {type: 'load-error', message}       the engine could not be loaded (nothing else follows)
//   {id, status: {error, errorOffset, errorRecord}, heapBytes, verdicts?: ArrayBuffer}
//                                       verifyBatch's status; verdicts on the transfer path only
//                                       (transferred); heapBytes = wasm memory size after it
//   {id, results: object[], heapBytes}  a validate message's validateBlock result (or failure)
//                                       objects, one per job in order; their checks / origins /
//                                       verdicts / inputVerdicts buffers transferred
//   {id, results: [{bytes: ArrayBuffer} | {error: string}], heapBytes}
//                                       an encode message's binary forms (transferred) or each
//                                       text's error, one per text in order
//   {id, chain: {run, status, ms}, heapBytes}
//                                       a chain message's connectBlockFile result, the chain's
//                                       status() after it, and the worker's time in it (ms)
//   {id, error: string}                 verifyBatch, validateBlock or ChainValidation threw (a wasm trap),
//                                       or validateBlock ran out of memory: the pool
//                                       retires the worker and retries the message elsewhere
// Nothing per signature is structured-cloned on either path: a message holds a few numbers and
// at most one buffer handle.
//
// Memory sized up front: a worker reserves its check-buffer region for the largest batch the pool sends
// (MAX_BATCH_RECORDS records of MAX_RECORD_BYTES, plus their verdicts) when it starts, and the
// module's INITIAL_MEMORY (wasm/CMakeLists.txt) holds it, so no batch grows wasm memory: the
// heap views stay valid for the worker's life.
import { createBatchVerifier } from '../wasm/batch-verifier.mjs';
import { MAX_RECORD_BYTES } from '../wasm/check-buffer.mjs';
import { encodeSpentOutputs } from '../wasm/spent-outputs.mjs';

/** Most records the pool puts in one batch (verify-pool.mjs MAX_BATCH_SIZE). */
export const MAX_BATCH_RECORDS = 8192;
/** Check-buffer region a worker reserves at start: the largest batch's records and verdicts
 *  (6,651,904 bytes). */
export const CHECK_BUFFER_RESERVE_BYTES = MAX_BATCH_RECORDS * (MAX_RECORD_BYTES + 1);

/**
 * The worker side of the protocol (file header) over one verifier and its engine.
 * @param {{verify: Function, heapBytes: Function}} verifier from createBatchVerifier
 *   (wasm/batch-verifier.mjs)
 * @param {object} [engine] the wasm module the verifier runs on (its validateBlock serves
 *   validate messages, its ChainValidation chain messages; without them they get an error reply)
 * @returns {{records: (msg: object) => Uint8Array, handle: (msg: object) => {reply: object,
 *   transfer: ArrayBuffer[]}}} records: the batch's packed records (a view into the ring on the
 *   shared path, no copy); handle: verifies one batch message and returns the reply to post and
 *   the buffers to transfer with it; any exception (a wasm trap, a shared batch before any
 *   ring) becomes the reply's `error`, after which the pool retires the worker.
 */
export function createBatchHandler(verifier, engine) {
  let ring = null; // the last SharedArrayBuffer the pool sent
  const records = (msg) => {
    if (msg.checks) return new Uint8Array(msg.checks);
    if (msg.ring) ring = msg.ring;
    if (!ring) throw new Error(`batch ${msg.id}: shared batch but no ring buffer received yet`);
    return new Uint8Array(ring, msg.offset, msg.length);
  };
  return {
    records,
    handle(msg) {
      if (msg?.kind === 'validate') return validateJobs(engine, verifier, msg);
      if (msg?.kind === 'chain') return validateChain(engine, verifier, msg);
      if (msg?.kind === 'encode') return encodeTexts(verifier, msg);
      try {
        const checks = records(msg);
        const shared = !msg.checks;
        const out = shared ? new Uint8Array(ring, msg.offset + msg.length, msg.count) : undefined;
        const { verdicts, ...status } = verifier.verify(checks, msg.count, out);
        const reply = { id: msg.id, status, heapBytes: verifier.heapBytes() };
        if (shared) return { reply, transfer: [] };
        reply.verdicts = verdicts.buffer;
        return { reply, transfer: [verdicts.buffer] };
      } catch (err) {
        return { reply: { id: msg.id, error: String(err?.stack ?? err) }, transfer: [] };
      }
    },
  };
}

/** Answers a validate message (file header): each job through engine.validateBlock. */
function validateJobs(engine, verifier, msg) {
  try {
    if (typeof engine?.validateBlock !== 'function') throw new Error('this worker has no engine with validateBlock');
    const transfer = [];
    const results = msg.jobs.map((j) => {
      const bytes = (b) => (ArrayBuffer.isView(b) ? b : new Uint8Array(b)); // a shared view, or a transferred buffer
      const r = engine.validateBlock(bytes(j.block), bytes(j.spentOutputs), j.hash, j.height, j.options);
      // The worker's heap, not the block, may be what ran out: a worker fault, so that the pool
      // replaces the worker and runs the message again on a fresh heap (a block too large for
      // any heap fails there too, after maxAttempts, with this message).
      if (!r.ok && /^out of memory/.test(r.reason)) throw new Error(`worker out of memory: ${r.error}`);
      if (r.ok) for (const k of ['checks', 'origins', 'verdicts', 'inputVerdicts']) transfer.push(r[k].buffer);
      return r;
    });
    return { reply: { id: msg.id, results, heapBytes: verifier.heapBytes() }, transfer };
  } catch (err) {
    return { reply: { id: msg.id, error: String(err?.stack ?? err) }, transfer: [] };
  }
}

/** Answers an encode message (file header): each spent outputs text in the engine's binary
 *  form (JS, wasm/spent-outputs.mjs), or its error. */
function encodeTexts(verifier, msg) {
  const transfer = [];
  const results = msg.texts.map((text) => {
    try {
      const bytes = encodeSpentOutputs(text);
      transfer.push(bytes.buffer);
      return { bytes: bytes.buffer };
    } catch (err) {
      return { error: err.message };
    }
  });
  return { reply: { id: msg.id, results, heapBytes: verifier.heapBytes() }, transfer };
}

/** Answers a chain message (file header): one ChainValidation over the whole file, then deleted. */
function validateChain(engine, verifier, msg) {
  let chain;
  try {
    if (typeof engine?.ChainValidation !== 'function') throw new Error('this worker has no engine with ChainValidation');
    const start = performance.now();
    chain = new engine.ChainValidation(msg.options);
    const run = chain.connectBlockFile(ArrayBuffer.isView(msg.file) ? msg.file : new Uint8Array(msg.file));
    const status = chain.status();
    return { reply: { id: msg.id, chain: { run, status, ms: performance.now() - start }, heapBytes: verifier.heapBytes() }, transfer: [] };
  } catch (err) {
    return { reply: { id: msg.id, error: String(err?.stack ?? err) }, transfer: [] };
  } finally {
    try { chain?.delete(); } catch { /* the instance is retired after an error anyway */ }
  }
}

/**
 * Runs a verify worker: loads the engine, reserves the check-buffer region (CHECK_BUFFER_RESERVE_BYTES), posts
 * {type: 'ready'} and then answers every batch message (protocol in the file header). A load
 * failure is posted as {type: 'load-error', message} (the pool names the worker, and the host
 * names the script when the entry itself fails to load); no message is handled after it.
 * @param {() => Promise<object>} loadEngine resolves to the wasm module (wasm/engine.mjs loadEngine,
 *   wasm/engine-web.mjs loadWebEngine)
 * @param {{post: (msg: object, transfer: ArrayBuffer[]) => void, listen: (onMessage: (msg:
 *   object) => void) => void}} port the host's side of the worker's message channel
 * @returns {Promise<void>} resolves once ready or load-error is posted.
 */
export async function serveVerifyWorker(loadEngine, { post, listen }) {
  let handler;
  let ready;
  try {
    const engine = await loadEngine();
    const verifier = createBatchVerifier(engine, { reserveBytes: CHECK_BUFFER_RESERVE_BYTES });
    handler = createBatchHandler(verifier, engine);
    ready = { type: 'ready', info: { ...engine.engineInfo() }, heapBytes: verifier.heapBytes() };
  } catch (err) {
    post({ type: 'load-error', message: String(err?.message ?? err) }, []);
    return;
  }
  listen((msg) => {
    const { reply, transfer } = handler.handle(msg);
    post(reply, transfer);
  });
  post(ready, []);
}
