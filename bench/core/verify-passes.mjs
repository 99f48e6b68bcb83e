// Phase 2 of the benchmark: timed verification passes through the pool. ECDSA and Schnorr
// checks run as separate passes so each type's throughput is measured, not inferred; each type
// again with only the first check under each key (the rate without key reuse, which the
// projection's high end prices); then all checks run together (the combined pass, whose
// verdicts are the ones reported).
import { CheckType, concatChecks, selectByType, selectFirstPerKey } from '../../wasm/check-buffer.mjs';
import { countOf } from './format.mjs';

/** Records of each type per worker verified, untimed, before the timed passes: V8 starts wasm
 *  in its baseline compiler and tiers hot functions up; measured here, the first ~256 checks
 *  run up to 1.5x slower than the rest, and background compilation can slow a first pass
 *  further; about 0.2 s of warm-up per worker made the first timed pass match later ones. */
const WARMUP_PER_WORKER = 1024;

/** Verifies `checks` once through `pool`; returns the verdicts and the wall time in seconds. */
export async function timedPass(pool, checks, batchSize, onProgress = undefined) {
  const t0 = performance.now();
  const verdicts = await pool.verify(checks, { batchSize, onProgress });
  return { verdicts, seconds: (performance.now() - t0) / 1000 };
}

/**
 * The untimed warm-up before timed passes: up to WARMUP_PER_WORKER records of each type per
 * worker of `pool`, in small batches so every worker gets some.
 * @param {import('../../workers/verify-pool.mjs').VerifyPool} pool a ready pool
 * @param {Uint8Array} checks all records
 * @param {{count: number, offsets: Uint32Array, types: Uint8Array}} walked walkChecks(checks)
 * @param {{ecdsa?: object, schnorr?: object}} [selections] selectByType results, if at hand
 */
export async function warmUp(pool, checks, walked, selections = {}) {
  const ecdsa = selections.ecdsa ?? selectByType(checks, walked, CheckType.ECDSA);
  const schnorr = selections.schnorr ?? selectByType(checks, walked, CheckType.SCHNORR);
  const warmCount = WARMUP_PER_WORKER * pool.size;
  const warm = concatChecks([ecdsa, schnorr].map((sel) =>
    sel.checks.subarray(0, recordsEnd(sel, walked, Math.min(warmCount, sel.indices.length)))));
  await pool.verify(warm, { batchSize: 128 });
}

/** Median of a non-empty list of numbers. */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The separate passes of a round, in order: [name, selection of the checks]. */
function typePasses(checks, walked) {
  const ecdsa = selectByType(checks, walked, CheckType.ECDSA);
  const schnorr = selectByType(checks, walked, CheckType.SCHNORR);
  return [['ecdsa', ecdsa], ['schnorr', schnorr],
    ['ecdsa_one_per_key', selectFirstPerKey(checks, walked, CheckType.ECDSA)],
    ['schnorr_one_per_key', selectFirstPerKey(checks, walked, CheckType.SCHNORR)]];
}

/**
 * Runs the warm-up, then `rounds` timed rounds of: the ECDSA pass, the Schnorr pass, each type's
 * first check under each key (wasm/check-buffer.mjs selectFirstPerKey), the combined pass. Times
 * reported are medians over the rounds (s), with every round's time beside them; every round's
 * verdicts must agree.
 * @param {import('../../workers/verify-pool.mjs').VerifyPool} pool a ready pool
 * @param {Uint8Array} checks all records (native/verify/check_buffer.h)
 * @param {{count: number, offsets: Uint32Array, types: Uint8Array}} walked walkChecks(checks)
 * @param {{batchSize: number, rounds: number, log: (msg: string) => void,
 *   progress?: {track: (label: string, total: number) => (((done: number) => void)|undefined)}}} options progress:
 *   shows each timed pass (bench/cli/progress.mjs); none when absent
 * @returns {Promise<{verdicts: Uint8Array, seconds: number, roundsSeconds: number[], rounds: number,
 *   byType: {[pass in 'ecdsa'|'schnorr'|'ecdsa_one_per_key'|'schnorr_one_per_key']:
 *            {checks: number, seconds: number, roundsSeconds: number[]}},
 *   disagreements: number[]}>} combined-pass verdicts (input order), median wall time in s and
 *   each round's wall time in s (round order); per separate pass, its record count, median wall
 *   time and round times (0 s and [] when it has no records);
 *   `disagreements` lists record indices whose verdict differs between any two passes
 *   (expected empty).
 * @throws (rejects) what pool.verify rejects with (malformed record, worker failure).
 */
export async function runVerifyPasses(pool, checks, walked, { batchSize, rounds = 1, log, progress }) {
  const passes = typePasses(checks, walked);
  const [[, ecdsa], [, schnorr]] = passes;
  await warmUp(pool, checks, walked, { ecdsa, schnorr });

  const times = { all: [], ...Object.fromEntries(passes.map(([name]) => [name, []])) };
  const disagreeing = new Set();
  let reference = null;
  for (let round = 1; round <= rounds; round++) {
    const roundVerdicts = {};
    for (const [name, sel] of passes) {
      if (sel.indices.length === 0) continue;
      const what = name.endsWith('_one_per_key') ? `${name.replace('_one_per_key', '')} check` : `${name} check`;
      log(`timed round ${round}/${rounds}: verifying ${countOf(sel.indices.length, what)}` +
        `${name.endsWith('_one_per_key') ? ' (the first under each key)' : ''} ` +
        `(${countOf(pool.size, 'worker')}, batch ${batchSize.toLocaleString('en-US')})`);
      const pass = await timedPass(pool, sel.checks, batchSize,
        progress?.track(`round ${round}/${rounds} ${name.replaceAll('_', ' ')}`, sel.indices.length));
      times[name].push(pass.seconds);
      roundVerdicts[name] = pass.verdicts;
    }
    log(`timed round ${round}/${rounds}: verifying all ${countOf(walked.count, 'check')}`);
    const combined = await timedPass(pool, checks, batchSize, progress?.track(`round ${round}/${rounds} all`, walked.count));
    times.all.push(combined.seconds);
    reference ??= combined.verdicts;
    combined.verdicts.forEach((v, i) => { if (v !== reference[i]) disagreeing.add(i); });
    for (const [name, sel] of passes) {
      sel.indices.forEach((i, k) => { if (roundVerdicts[name]?.[k] !== reference[i]) disagreeing.add(i); });
    }
  }
  const typePass = (sel, t) => ({ checks: sel.indices.length, seconds: t.length ? median(t) : 0, roundsSeconds: t });
  return {
    verdicts: reference, seconds: median(times.all), roundsSeconds: times.all, rounds,
    byType: Object.fromEntries(passes.map(([name, sel]) => [name, typePass(sel, times[name])])),
    disagreements: [...disagreeing].sort((a, b) => a - b),
  };
}

/** Byte length of the first `n` records of a selection (records keep their sizes). */
function recordsEnd(sel, walked, n) {
  let bytes = 0;
  for (let k = 0; k < n; k++) bytes += walked.offsets[sel.indices[k] + 1] - walked.offsets[sel.indices[k]];
  return bytes;
}
