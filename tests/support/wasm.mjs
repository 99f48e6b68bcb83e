// Shared by the wasm tests: verify a check buffer on the calling thread (the same batch
// verifier the workers run), and validate a fixture block.
import { createBatchVerifier } from '../../wasm/batch-verifier.mjs';
import assert from 'node:assert/strict';
import { fixturesDir, loadBlocks } from '../../blocks-fixtures/loader.mjs';
import { concatChecks, walkChecks } from '../../wasm/check-buffer.mjs';
import { loadEngine } from '../../wasm/engine.mjs';

const verifiers = new WeakMap();

/**
 * Verdicts of every record of `checks`, one verifyBatch call.
 * @param {object} engine wasm module (wasm/engine.mjs)
 * @param {Uint8Array} checks packed records
 * @returns {Uint8Array} one byte per record (1 valid, 0 invalid)
 * @throws Error when the buffer is malformed (naming record and offset).
 */
export function verifyChecks(engine, checks) {
  if (!verifiers.has(engine)) verifiers.set(engine, createBatchVerifier(engine));
  const { count } = walkChecks(checks);
  const r = verifiers.get(engine).verify(checks, count);
  if (r.error !== 0) throw new Error(`verifyBatch error ${r.error} at record ${r.errorRecord}, byte ${r.errorOffset}`);
  return r.verdicts;
}

/** Index of the first differing byte of two byte arrays, or -1 when they are equal. */
export function firstDifference(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

/**
 * BlockValidation (wasm/API.md) of a loaded fixture block run to the end on the calling
 * thread: each round's pending checks verified with `verify` (default: verifyChecks on
 * `engine`; pass a pool-backed function to verify through workers).
 * @returns {Promise<object>} BlockValidation.result() plus `pendingPerRound` (the pending
 *   check count of each round)
 * @throws Error with the engine's message when loading or validation failed.
 */
export async function validateFixture(engine, block, verify = (checks) => verifyChecks(engine, checks)) {
  if (block.error) throw new Error(block.error);
  const v = new engine.BlockValidation(block.block, block.spentOutputsJson, block.hash, block.height);
  try {
    const status = v.status();
    if (!status.ok) throw new Error(`block ${block.height}: ${status.error}`);
    const pendingPerRound = [];
    for (let done = false; !done;) {
      const p = v.pending();
      if (p.count === 0) break;
      pendingPerRound.push(p.count);
      done = v.resolve(await verify(p.checks));
    }
    const res = v.result();
    if (!res.ok) throw new Error(`block ${block.height}: ${res.error}`);
    return { ...res, pendingPerRound };
  } finally {
    v.delete();
  }
}

/**
 * The final checks of the fixture blocks at `heights`, packed in height order, and their
 * verdicts from a single-threaded validation in the simd variant under Node.
 * @param {number[]} heights fixture heights (blocks-fixtures/manifest.json)
 * @returns {Promise<{checks: Uint8Array, expected: Uint8Array}>} expected: one byte per record
 * @throws (rejects) AssertionError when the checks hold no invalid or no valid verdict (a browser
 *   test on them would prove less than it says).
 */
export async function fixtureChecksWithVerdicts(heights) {
  const engine = await loadEngine('simd');
  const results = [];
  for (const block of await loadBlocks(fixturesDir(), { heights })) results.push(await validateFixture(engine, block));
  const checks = concatChecks(results.map((r) => r.checks));
  const expected = verifyChecks(engine, checks);
  assert.ok(expected.includes(0) && expected.includes(1), 'the fixture checks hold valid and invalid ones');
  return { checks, expected };
}
