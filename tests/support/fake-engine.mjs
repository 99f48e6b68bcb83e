// A stand-in for the wasm module's verify surface (verifyBatch, _malloc, _free, HEAPU8), in
// plain JavaScript, so the pool and the batch verifier can be tested without a wasm build.
// Verdict rule: a record is valid when the first byte of its msg32 is even. Framing errors
// follow batch_verify.h (1 truncated, 2 unknown type, 3 bad length).

/** Creates a fake engine with `bytes` of "wasm memory" (grown by _malloc when needed). */
export function createFakeEngine(bytes = 1 << 16) {
  const engine = {
    HEAPU8: new Uint8Array(bytes),
    _next: 8,
    mallocCalls: 0,
    _malloc(n) {
      engine.mallocCalls++;
      const at = engine._next;
      engine._next += n;
      if (engine._next > engine.HEAPU8.length) {
        const grown = new Uint8Array(engine._next * 2); // as memory growth: a new view
        grown.set(engine.HEAPU8);
        engine.HEAPU8 = grown;
      }
      return at;
    },
    _free() {},
    engineInfo: () => ({ variant: 'fake', secp256k1: 'none', field: 'none', simd: false }),
    verifyBatch(checksPtr, checksLen, count, verdictsPtr) {
      const heap = engine.HEAPU8;
      let offset = 0;
      for (let i = 0; i < count; i++) {
        const status = (error) => ({ error, errorOffset: offset, errorRecord: i });
        if (checksLen - offset < 36) return status(1);
        const type = heap[checksPtr + offset];
        const pk = heap[checksPtr + offset + 1];
        const sig = heap[checksPtr + offset + 2] | (heap[checksPtr + offset + 3] << 8);
        if (type !== 1 && type !== 2) return status(2);
        if (type === 2 && (pk !== 32 || sig !== 64)) return status(3);
        if (checksLen - offset < 36 + pk + sig) return status(1);
        heap[verdictsPtr + i] = heap[checksPtr + offset + 4] % 2 === 0 ? 1 : 0;
        offset += 36 + pk + sig;
      }
      return { error: 0, errorOffset: 0, errorRecord: 0 };
    },
  };
  return engine;
}
