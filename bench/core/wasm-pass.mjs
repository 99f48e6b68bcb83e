// One timed pass of ibd-wasm over a check set, host-independent (Node and the browser page
// import it): one wasm instance, one verifyBatch call per batch, as one verify worker runs it.
import { splitBatches } from '../../wasm/check-buffer.mjs';

/**
 * Verifies a check set with a batch verifier, `batchSize` records per verifyBatch call.
 * @param {{verify: Function}} verifier wasm/batch-verifier.mjs createBatchVerifier(engine)
 * @param {{checks: Uint8Array, walked: object}} set a check set (bench/compare/compare-checks.mjs)
 * @param {number} batchSize records per call, >= 1
 * @returns {{verdicts: Uint8Array, seconds: number}} verdicts in record order; wall time in s
 *   of all calls (copy in, verify, copy out), splitting into batches excluded.
 * @throws Error when a batch reports a malformed record (verifyBatch's error code and record).
 */
export function wasmPass(verifier, set, batchSize) {
  const batches = splitBatches(set.walked, batchSize).map((b) => ({ ...b, bytes: set.checks.subarray(b.byteOffset, b.byteOffset + b.byteLength) }));
  const verdicts = new Uint8Array(set.walked.count);
  const t0 = performance.now();
  for (const b of batches) {
    const r = verifier.verify(b.bytes, b.count);
    if (r.error) throw new Error(`verifyBatch error ${r.error} at record ${b.first + r.errorRecord}`);
    verdicts.set(r.verdicts, b.first);
  }
  return { verdicts, seconds: (performance.now() - t0) / 1000 };
}
