// Phase 2 of the benchmark: timed verification passes through the pool. ECDSA and Schnorr
// checks run as separate passes so each type's throughput is measured, not inferred; then
// all checks run together (the combined pass, whose verdicts are the ones reported).
import { performance } from 'node:perf_hooks';
import { CheckType, concatChecks, selectByType } from '../workers/job-buffer.mjs';

/** Records of each type per worker verified, untimed, before the timed passes: V8 starts wasm
 *  in its baseline compiler and tiers hot functions up; measured here, the first ~256 checks
 *  run up to 1.5x slower than the rest, and background compilation can slow a first pass
 *  further; about 0.2 s of warm-up per worker made the first timed pass match later ones. */
const WARMUP_PER_WORKER = 1024;

/** Verifies `checks` once through `pool`; returns the verdicts and the wall time in seconds. */
async function timedPass(pool, checks, batchSize) {
  const t0 = performance.now();
  const verdicts = await pool.verify(checks, { batchSize });
  return { verdicts, seconds: (performance.now() - t0) / 1000 };
}

/**
 * Runs the warm-up, the ECDSA pass, the Schnorr pass and the combined pass.
 * @param {import('../workers/pool.mjs').VerifyPool} pool a ready pool
 * @param {Uint8Array} checks all records (native/check_buffer.h)
 * @param {{count: number, offsets: Uint32Array, types: Uint8Array}} walked walkChecks(checks)
 * @param {{batchSize: number, log: (msg: string) => void}} options
 * @returns {Promise<{verdicts: Uint8Array, seconds: number,
 *   byType: {ecdsa: {checks: number, seconds: number}, schnorr: {checks: number, seconds: number}},
 *   disagreements: number[]}>} combined-pass verdicts (input order) and wall time in s; per
 *   type, its pass's record count and wall time (0 s when it has no records); `disagreements`
 *   lists record indices whose per-type verdict differs from the combined one (expected empty).
 * @throws (rejects) what pool.verify rejects with (malformed record, worker failure).
 */
export async function runVerifyPasses(pool, checks, walked, { batchSize, log }) {
  const ecdsa = selectByType(checks, walked, CheckType.ECDSA);
  const schnorr = selectByType(checks, walked, CheckType.SCHNORR);
  const warmCount = WARMUP_PER_WORKER * pool.size;
  const warm = concatChecks([ecdsa, schnorr].map((sel) =>
    sel.checks.subarray(0, recordsEnd(sel, walked, Math.min(warmCount, sel.indices.length)))));
  await pool.verify(warm, { batchSize: 128 });

  const byType = {};
  const typeVerdicts = {};
  for (const [name, sel] of [['ecdsa', ecdsa], ['schnorr', schnorr]]) {
    log(`verifying ${sel.indices.length} ${name} checks (${pool.size} workers, batch ${batchSize})`);
    const pass = sel.indices.length ? await timedPass(pool, sel.checks, batchSize) : { verdicts: new Uint8Array(0), seconds: 0 };
    byType[name] = { checks: sel.indices.length, seconds: pass.seconds };
    typeVerdicts[name] = pass.verdicts;
  }
  log(`verifying all ${walked.count} checks`);
  const combined = await timedPass(pool, checks, batchSize);

  const disagreements = [];
  for (const [name, sel] of [['ecdsa', ecdsa], ['schnorr', schnorr]]) {
    sel.indices.forEach((i, k) => {
      if (typeVerdicts[name][k] !== combined.verdicts[i]) disagreements.push(i);
    });
  }
  return { verdicts: combined.verdicts, seconds: combined.seconds, byType, disagreements: disagreements.sort((a, b) => a - b) };
}

/** Byte length of the first `n` records of a selection (records keep their sizes). */
function recordsEnd(sel, walked, n) {
  let bytes = 0;
  for (let k = 0; k < n; k++) bytes += walked.offsets[sel.indices[k] + 1] - walked.offsets[sel.indices[k]];
  return bytes;
}
