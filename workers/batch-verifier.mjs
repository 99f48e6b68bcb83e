// The host-independent half of a verify worker: owns one job region in a wasm instance's
// memory and runs one verifyBatch call per batch. Used by the worker_threads worker
// (verify-worker.mjs), by tests on the main thread, and later by a Web Worker.

/** Initial job region size in bytes (about 2,048 typical records plus their verdicts). */
const INITIAL_REGION_BYTES = 256 * 1024;

/**
 * Creates a verifier bound to one wasm module instance.
 * @param {object} engine the module from loadEngine (verifyBatch, _malloc, _free, HEAPU8)
 * @returns {{verify: (checks: Uint8Array, count: number) => {verdicts: Uint8Array,
 *   error: number, errorOffset: number, errorRecord: number}, dispose: () => void}}
 *   verify copies `checks` (`count` packed records, native/check_buffer.h) into the job region,
 *   calls verifyBatch once and returns a copy of the `count` verdict bytes (1 valid, 0 invalid)
 *   with verifyBatch's status (error 0 = ok; otherwise batch_verify.h's code, the byte offset
 *   and index of the malformed record within this batch). The region is allocated on first use
 *   and reallocated (never shrunk) when a batch needs more.
 *   verify throws Error when wasm memory cannot be allocated, and rethrows any exception out of
 *   verifyBatch (a wasm trap); after such an exception the instance is unusable (Emscripten
 *   does not restore its stack pointer: each trap leaks stack), so every later verify throws
 *   too. Callers must discard the instance (the pool replaces the worker).
 */
export function createBatchVerifier(engine) {
  let region = 0;
  let capacity = 0;
  let broken = null; // message of the exception that made the instance unusable

  function ensureCapacity(bytes) {
    if (bytes <= capacity) return;
    const size = Math.max(bytes, capacity * 2, INITIAL_REGION_BYTES);
    if (region) engine._free(region);
    region = engine._malloc(size);
    capacity = region ? size : 0;
    if (!region) throw new Error(`wasm _malloc(${size}) failed: out of memory for the job region`);
  }

  return {
    verify(checks, count) {
      if (broken) throw new Error(`engine instance unusable after an earlier exception: ${broken}`);
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
      const verdicts = engine.HEAPU8.slice(verdictsPtr, verdictsPtr + count);
      return {
        verdicts,
        error: Number(status.error),
        errorOffset: Number(status.errorOffset),
        errorRecord: Number(status.errorRecord),
      };
    },
    /** The instance's wasm memory size in bytes (HEAPU8.length; grows, never shrinks). */
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
 * Serves one pool message (the protocol between pool.mjs and any worker host).
 * @param {{verify: Function}} verifier from createBatchVerifier
 * @param {{id: number, checks: ArrayBuffer, count: number}} msg one batch
 * @returns {{reply: {id: number, verdicts?: ArrayBuffer, status?: {error: number,
 *   errorOffset: number, errorRecord: number}, heapBytes?: number, error?: string},
 *   transfer: ArrayBuffer[]}} the reply to post (heapBytes: the instance's wasm memory size
 *   after the batch, when the verifier reports it; informational, for the soak test) and the buffers to transfer with it; an exception becomes `error`, after
 *   which the pool terminates and replaces the worker (its instance is not reused).
 */
export function handleVerifyMessage(verifier, msg) {
  try {
    const { verdicts, ...status } = verifier.verify(new Uint8Array(msg.checks), msg.count);
    const heapBytes = verifier.heapBytes?.();
    return { reply: { id: msg.id, verdicts: verdicts.buffer, status, heapBytes }, transfer: [verdicts.buffer] };
  } catch (err) {
    return { reply: { id: msg.id, error: String(err?.stack ?? err) }, transfer: [] };
  }
}
