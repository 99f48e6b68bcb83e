// The engine's batch entry point from JavaScript: one check-buffer region in one wasm instance's memory
// (the records of a check buffer, native/verify/check_buffer.h, then their verdict bytes), one
// verifyBatch call per batch (wasm/API.md). The pool's verify workers run one each
// (workers/batch-handler.mjs); single-thread passes (bench/) and tests call it directly.

/**
 * Creates a verifier bound to one wasm module instance.
 * @param {object} engine the module from loadEngine / loadWebEngine (verifyBatch, _malloc,
 *   _free, HEAPU8)
 * @param {{reserveBytes?: number}} [options] bytes of check-buffer region to allocate now (pool workers:
 *   CHECK_BUFFER_RESERVE_BYTES, workers/batch-handler.mjs); by default it is allocated on first use.
 * @returns {{verify: (checks: Uint8Array, count: number, out?: Uint8Array) => {verdicts:
 *   Uint8Array, error: number, errorOffset: number, errorRecord: number}, heapBytes: () =>
 *   number, dispose: () => void}}
 *   verify copies `checks` (`count` packed records, native/verify/check_buffer.h) into the check-buffer region,
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
    if (!region) throw new Error(`wasm _malloc(${size}) failed: out of memory for the check-buffer region`);
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
