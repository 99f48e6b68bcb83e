// The host-independent half of a verify worker: one job region in a wasm instance's memory, one
// verifyBatch call per batch, and the worker side of the pool's message protocol. The worker
// entries (verify-worker.mjs: worker_threads, verify-web-worker.mjs: module Web Worker) only
// load their engine and call serveVerifyWorker; tests also use createBatchVerifier on the main
// thread.
//
// Protocol. Pool -> worker, one message per batch, in one of two forms (verify-pool.mjs picks
// the transport):
//   shared    {id, count, offset, length, ring?: SharedArrayBuffer}
//             the records are ring[offset, offset + length), read in place; the `count`
//             verdict bytes are written to ring[offset + length, offset + length + count).
//             `ring` comes with the first batch of each buffer a worker sees (job-ring.mjs).
//   transfer  {id, count, checks: ArrayBuffer}   the records, transferred
// Worker -> pool:
//   {type: 'ready', info, heapBytes}    engine loaded, job region reserved; info = engineInfo()
//   {type: 'load-error', message}       the engine could not be loaded (nothing else follows)
//   {id, status: {error, errorOffset, errorRecord}, heapBytes, verdicts?: ArrayBuffer}
//                                       verifyBatch's status; verdicts on the transfer path only
//                                       (transferred); heapBytes = wasm memory size after it
//   {id, error: string}                 verifyBatch threw (a wasm trap): the pool retires the worker
// Nothing per signature is structured-cloned on either path: a message holds a few numbers and
// at most one buffer handle.
//
// Memory sized up front: a worker reserves its job region for the largest batch the pool sends
// (MAX_BATCH_RECORDS records of MAX_RECORD_BYTES, plus their verdicts) when it starts, and the
// module's INITIAL_MEMORY (wasm/CMakeLists.txt) holds it, so no batch grows wasm memory: the
// heap views stay valid for the worker's life.
import { CHECK_HEADER_SIZE, MAX_ECDSA_SIG_LEN } from './job-buffer.mjs';

/** Most records the pool puts in one batch (verify-pool.mjs MAX_BATCH_SIZE). */
export const MAX_BATCH_RECORDS = 8192;
/** Largest record in bytes: header, a 255-byte pubkey (pubkey_len is a u8), a 520-byte ECDSA
 *  signature (native/check_buffer.h). */
export const MAX_RECORD_BYTES = CHECK_HEADER_SIZE + 255 + MAX_ECDSA_SIG_LEN;
/** Job region a worker reserves at start: the largest batch's records and verdicts
 *  (6,651,904 bytes). */
export const JOB_REGION_BYTES = MAX_BATCH_RECORDS * (MAX_RECORD_BYTES + 1);

/**
 * Creates a verifier bound to one wasm module instance.
 * @param {object} engine the module from loadEngine / loadWebEngine (verifyBatch, _malloc,
 *   _free, HEAPU8)
 * @param {{reserveBytes?: number}} [options] bytes of job region to allocate now (workers:
 *   JOB_REGION_BYTES); by default it is allocated on first use.
 * @returns {{verify: (checks: Uint8Array, count: number, out?: Uint8Array) => {verdicts:
 *   Uint8Array, error: number, errorOffset: number, errorRecord: number}, heapBytes: () =>
 *   number, dispose: () => void}}
 *   verify copies `checks` (`count` packed records, native/check_buffer.h) into the job region,
 *   calls verifyBatch once and copies the `count` verdict bytes (1 valid, 0 invalid) into `out`
 *   (default: a new Uint8Array), returned as `verdicts`, with verifyBatch's status (error 0 =
 *   ok; otherwise batch_verify.h's code, the byte offset and index of the malformed record
 *   within this batch). A batch larger than the region reallocates it (never shrinks; not
 *   reached by pool workers). heapBytes: the wasm memory size in bytes.
 *   verify throws Error when wasm memory cannot be allocated or `out` holds fewer than `count`
 *   bytes, and rethrows any exception out of verifyBatch (a wasm trap); after such an exception
 *   the instance is unusable (Emscripten does not restore its stack pointer: each trap leaks
 *   stack), so every later verify throws too. Callers must discard the instance (the pool
 *   replaces the worker).
 * @throws Error when the reserved region cannot be allocated.
 */
export function createBatchVerifier(engine, { reserveBytes = 0 } = {}) {
  let region = 0;
  let capacity = 0;
  let broken = null; // message of the exception that made the instance unusable

  function ensureCapacity(bytes) {
    if (bytes <= capacity) return;
    const size = Math.max(bytes, capacity * 2);
    if (region) engine._free(region);
    region = engine._malloc(size);
    capacity = region ? size : 0;
    if (!region) throw new Error(`wasm _malloc(${size}) failed: out of memory for the job region`);
  }
  if (reserveBytes > 0) ensureCapacity(reserveBytes);

  return {
    verify(checks, count, out = new Uint8Array(count)) {
      if (broken) throw new Error(`engine instance unusable after an earlier exception: ${broken}`);
      if (out.length < count) throw new Error(`verdict buffer of ${out.length} bytes for ${count} records`);
      ensureCapacity(checks.length + count);
      const checksPtr = region;
      const verdictsPtr = region + checks.length;
      engine.HEAPU8.set(checks, checksPtr); // HEAPU8 re-read: _malloc may have grown memory
      engine.HEAPU8.fill(0, verdictsPtr, verdictsPtr + count);
      let status;
      try {
        status = engine.verifyBatch(checksPtr, checks.length, count, verdictsPtr);
      } catch (err) {
        broken = String(err?.message ?? err);
        throw err;
      }
      out.set(engine.HEAPU8.subarray(verdictsPtr, verdictsPtr + count));
      return {
        verdicts: out,
        error: Number(status.error),
        errorOffset: Number(status.errorOffset),
        errorRecord: Number(status.errorRecord),
      };
    },
    heapBytes() {
      return engine.HEAPU8?.length ?? 0;
    },
    dispose() {
      if (region) engine._free(region);
      region = 0;
      capacity = 0;
    },
  };
}

/**
 * The worker side of the protocol (file header) over one verifier.
 * @param {{verify: Function, heapBytes: Function}} verifier from createBatchVerifier
 * @returns {{records: (msg: object) => Uint8Array, handle: (msg: object) => {reply: object,
 *   transfer: ArrayBuffer[]}}} records: the batch's packed records (a view into the ring on the
 *   shared path, no copy); handle: verifies one batch message and returns the reply to post and
 *   the buffers to transfer with it; any exception (a wasm trap, a shared batch before any
 *   ring) becomes the reply's `error`, after which the pool retires the worker.
 */
export function createBatchHandler(verifier) {
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

/**
 * Runs a verify worker: loads the engine, reserves the job region (JOB_REGION_BYTES), posts
 * {type: 'ready'} and then answers every batch message (protocol in the file header). A load
 * failure is posted as {type: 'load-error', message} (the pool names the worker, and the host
 * names the script when the entry itself fails to load); no message is handled after it.
 * @param {() => Promise<object>} loadEngine resolves to the wasm module (engine.mjs loadEngine,
 *   engine-web.mjs loadWebEngine)
 * @param {{post: (msg: object, transfer: ArrayBuffer[]) => void, listen: (onMessage: (msg:
 *   object) => void) => void}} port the host's side of the worker's message channel
 * @returns {Promise<void>} resolves once ready or load-error is posted.
 */
export async function serveVerifyWorker(loadEngine, { post, listen }) {
  let handler;
  let ready;
  try {
    const engine = await loadEngine();
    const verifier = createBatchVerifier(engine, { reserveBytes: JOB_REGION_BYTES });
    handler = createBatchHandler(verifier);
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
