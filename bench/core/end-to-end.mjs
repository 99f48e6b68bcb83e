// The end-to-end pass: every block validated whole in the pool's workers (parse, block rules,
// sighash, scripts and signatures in each worker's engine: workers/block-jobs.mjs), timed over
// `rounds` rounds after the first, cold pass (block-entries.mjs), with the per-stage time the
// workers measured, each block's warm time and the main thread's busy share. Every round's
// verdicts and final checks must equal the first pass's; a difference is reported, never
// averaged away.
import { validateBlocksInPool } from '../../workers/block-jobs.mjs';
import { countOf } from './format.mjs';
import { median } from './verify-passes.mjs';

/** The main thread's event-loop utilization so far, where the host has it (Node's
 *  performance.eventLoopUtilization), else null. */
const utilization = () => globalThis.performance?.eventLoopUtilization?.() ?? null;

/** Bytes equal (two typed arrays, viewed as bytes). */
function sameBytes(a, b) {
  if (a.byteLength !== b.byteLength) return false;
  const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/** Checks in the results that validated. */
const checksOf = (results) => results.reduce((n, r) => n + (r.ok ? r.ecdsa + r.schnorr : 0), 0);

/**
 * End-to-end scaling: the same whole-block validation through pools of 1..maxWorkers workers,
 * all started (and warmed up by one untimed round each) before any is timed, then `rounds`
 * interleaved timed rounds, each running every pool once (odd rounds in reverse order).
 * @param {(o: {workers: number, variant: string}) => import('../../workers/verify-pool.mjs').VerifyPool} createPool
 * @param {object[]} jobs the first pass's jobs (block-entries.mjs validateInWorkers: blocks
 *   with their spent outputs in the binary form)
 * @param {{maxWorkers: number, variant: string, rounds: number, log: (msg: string) => void}} options
 * @returns {Promise<Array<{workers: number, checks_per_second: number, checks_per_second_min: number,
 *   checks_per_second_max: number, speedup: number, efficiency: number, efficiency_rounds:
 *   {median: number, min: number, max: number}, seconds: number, rounds_seconds: number[]}>>}
 *   per worker count: the median rate (checks/s) with the slowest / fastest round's, speedup
 *   over 1 worker and efficiency = speedup / workers (medians); efficiency_rounds: each round's
 *   efficiency against the same round's 1-worker time (1-worker time / time / workers), its
 *   median, lowest and highest
 */
export async function runEndToEndScaling(createPool, jobs, { maxWorkers, variant, rounds, log }) {
  const counts = Array.from({ length: maxWorkers }, (_, i) => i + 1);
  const pools = [];
  try {
    for (const workers of counts) {
      const pool = createPool({ workers, variant });
      pools.push(pool);
      await pool.ready();
      await validateBlocksInPool(pool, jobs); // warm-up
    }
    log(`end-to-end scaling: 1..${maxWorkers} workers, ${countOf(rounds, 'interleaved timed round')}`);
    const times = counts.map(() => []);
    let checks = 0;
    for (let r = 0; r < rounds; r++) {
      // Odd rounds run the pools in reverse order, so that a host drifting during a round
      // (these VMs drift by tens of per cent within minutes) favours no worker count.
      const order = r % 2 === 0 ? counts.map((_, k) => k) : counts.map((_, k) => counts.length - 1 - k);
      for (const k of order) {
        const start = performance.now();
        const out = await validateBlocksInPool(pools[k], jobs);
        times[k].push((performance.now() - start) / 1000);
        checks = checksOf(out);
      }
    }
    const base = checks / median(times[0]);
    return counts.map((workers, k) => {
      const rate = checks / median(times[k]);
      // Each round's efficiency against the same round's 1-worker time: pairs measured
      // seconds apart, which the host's slower drift does not move.
      const paired = times[k].map((t, r) => times[0][r] / t / workers);
      return {
        workers,
        checks_per_second: rate,
        checks_per_second_min: checks / Math.max(...times[k]),
        checks_per_second_max: checks / Math.min(...times[k]),
        speedup: rate / base,
        efficiency: rate / base / workers,
        efficiency_rounds: { median: median(paired), min: Math.min(...paired), max: Math.max(...paired) },
        seconds: median(times[k]),
        rounds_seconds: times[k],
      };
    });
  } finally {
    await Promise.all(pools.map((p) => p.close()));
  }
}

/** The median of each key over a list of {key: ms} objects, a key missing from one counting 0. */
function medianByKey(list) {
  const keys = new Set(list.flatMap((o) => Object.keys(o ?? {})));
  return Object.fromEntries([...keys].sort().map((k) => [k, median(list.map((o) => o?.[k] ?? 0))]));
}

/**
 * A block's warm times in the engine from its timed rounds: each round's times (validateBlock's
 * `times`, summed over the block's ranges: workers/block-jobs.mjs), or null where a round failed.
 * @param {Array<object|null>} list per round, the block's result `times`
 * @returns {{parseSighash: number, verify: number, stages: {parse, sighash, script, verify},
 *   parts: {sighash: {legacy, bip143, bip341}, script: {[type: string]: number}}, total: {median,
 *   min, max, rounds, range_min, range_max}}|null} ms, medians over the rounds (total: the four
 *   stages' sum: median, fastest and slowest round, and the rounds that set the projection's
 *   range: trimmedExtremes); null when a round failed or there was none
 */
export function warmBlockTimes(list) {
  if (list.length === 0 || list.some((t) => t === null)) return null;
  const total = list.map((t) => t.parseMs + t.sighashMs + t.scriptMs + t.verifyMs);
  return {
    parseSighash: median(list.map((t) => t.parseMs + t.sighashMs + t.scriptMs)),
    verify: median(list.map((t) => t.verifyMs)),
    stages: { parse: median(list.map((t) => t.parseMs)), sighash: median(list.map((t) => t.sighashMs)),
      script: median(list.map((t) => t.scriptMs)), verify: median(list.map((t) => t.verifyMs)) },
    parts: { sighash: medianByKey(list.map((t) => t.sighashMsByKind)), script: medianByKey(list.map((t) => t.scriptMsByType)) },
    total: { median: median(total), min: Math.min(...total), max: Math.max(...total), rounds: total.length, ...trimmedExtremes(total) },
  };
}

/** Rounds from which the projection's range leaves out the single fastest and slowest round. */
export const TRIM_FROM_ROUNDS = 5;

/**
 * The rounds the projection's range is set by: with TRIM_FROM_ROUNDS or more, the second fastest
 * and second slowest (one round disturbed by the machine, a preemption or another process, does
 * not set the range; a disturbance that recurs still does); with fewer, the fastest and slowest.
 * @param {number[]} times ms per round
 * @returns {{range_min: number, range_max: number}}
 */
export function trimmedExtremes(times) {
  const sorted = [...times].sort((a, b) => a - b);
  const k = sorted.length >= TRIM_FROM_ROUNDS ? 1 : 0;
  return { range_min: sorted[k], range_max: sorted[sorted.length - 1 - k] };
}

/**
 * Times whole-block validation in `pool`'s workers.
 * @param {import('../../workers/verify-pool.mjs').VerifyPool} pool a ready pool
 * @param {{entries: object[], jobs: object[], encodeSeconds: number, seconds: number, busyShare: number|null}} first
 *   the first, cold pass (block-entries.mjs validateInWorkers): its jobs are timed again, and
 *   each round's results are compared with its entries
 * @param {{rounds: number, warmUp: boolean, log: (msg: string) => void}} options warmUp: run
 *   one untimed round first (a pool other than the first pass's, whose engines are cold)
 * @returns {Promise<{endToEnd: object, blockMs: Array<object|null>}>} endToEnd: {workers,
 *   rounds, blocks, inputs, checks, bytes, seconds (median wall time of a round, s),
 *   rounds_seconds, blocks_per_second, inputs_per_second, checks_per_second (_min / _max at the
 *   slowest / fastest round), bytes_per_second (block bytes), main_thread_busy_share (median
 *   over the rounds of the main thread's event-loop utilization during the round, 0..1; where
 *   the host has none, a browser, main_thread_own_code_share), main_thread_busy_method
 *   ('event-loop utilization' or 'own code': which of the two it is), main_thread_own_code_share
 *   (median over the rounds of the time this thread spent in the run's own code, the pool's
 *   VerifyPool.busyMs plus planning and merging, over the round's wall time, 0..1: a lower
 *   bound, measured in every host), stages: {parse_s, sighash_s, script_s, verify_s}
 *   (summed over the workers, median round), cold: {seconds (the first pass's wall time),
 *   encode_seconds (spent outputs JSON to the binary form, in the workers, once before it:
 *   wall time), encode_share (encode_seconds / (encode_seconds + seconds)), main_thread_busy_share (the
 *   main thread's event-loop utilization over the encoding and the first pass, 0..1, or null)},
 *   disagreements: [{height,
 *   what}] (blocks whose verdict or checks in a timed round differ from the first pass's)};
 *   blockMs: per job, the workers' warm time in the engine for the block, ms (median over the
 *   timed rounds, each summed over the block's ranges): {parseSighash (parse, block rules,
 *   sighash, script evaluation), verify, stages: {parse, sighash, script, verify} (each stage's
 *   median), parts: {sighash: {legacy, bip143, bip341}, script: {type: ms}} (the sighash time
 *   by kind and the script time by input type, each key's median: times.sighashMsByKind and
 *   scriptMsByType), total: {median, min, max, rounds} (the four stages' sum: median, fastest
 *   and slowest round)}, or null where a round failed it
 */
export async function runEndToEnd(pool, first, { rounds, warmUp, log }) {
  const { jobs } = first;
  const expected = first.entries.filter((e) => !e.error);
  log(`end to end: ${countOf(jobs.length, 'block')} whole in ${countOf(pool.size, 'worker')}, ` +
    `${warmUp ? '1 untimed round then ' : 'warm from the first pass, '}${countOf(rounds, 'timed round')}`);
  if (warmUp) await validateBlocksInPool(pool, jobs); // each worker's engine compiled and tiered up
  const times = [];
  const busy = [];
  const stages = [];
  const perBlock = jobs.map(() => []);
  const disagreements = new Map();
  let results;
  const own = []; // per round: the share of the wall time spent in the run's own code on this thread
  for (let r = 0; r < rounds; r++) {
    const before = utilization();
    const poolBefore = pool.busyMs;
    const planning = { ms: 0 };
    const start = performance.now();
    const out = await validateBlocksInPool(pool, jobs, { busy: planning });
    const wall = performance.now() - start;
    times.push(wall / 1000);
    const after = utilization();
    busy.push(before && after ? globalThis.performance.eventLoopUtilization(after, before).utilization : null);
    own.push(wall > 0 ? (pool.busyMs - poolBefore + planning.ms) / wall : null);
    stages.push(out.reduce((s, res) => {
      if (res.ok) for (const k of Object.keys(s)) s[k] += res.times[`${k}Ms`] / 1000;
      return s;
    }, { parse: 0, sighash: 0, script: 0, verify: 0 }));
    out.forEach((res, k) => {
      perBlock[k].push(res.ok ? res.times : null);
      const what = disagreement(expected[k], res);
      if (what && !disagreements.has(k)) disagreements.set(k, { height: expected[k].height, what: `round ${r + 1}: ${what}` });
    });
    results ??= out;
  }
  const inputs = results.reduce((n, r) => n + (r.ok ? r.inputs : 0), 0);
  const checks = checksOf(results);
  const bytes = jobs.reduce((n, j) => n + j.block.length, 0);
  const seconds = median(times);
  const rate = (n, s) => (s > 0 ? n / s : null);
  const mid = stages[times.indexOf([...times].sort((a, b) => a - b)[(times.length - 1) >> 1])];
  const measured = busy.filter((x) => x !== null);
  const blockMs = perBlock.map(warmBlockTimes);
  const endToEnd = {
    workers: pool.size,
    rounds,
    blocks: jobs.length,
    inputs,
    checks,
    bytes,
    seconds,
    rounds_seconds: times,
    blocks_per_second: rate(jobs.length, seconds),
    inputs_per_second: rate(inputs, seconds),
    checks_per_second: rate(checks, seconds),
    checks_per_second_min: rate(checks, Math.max(...times)),
    checks_per_second_max: rate(checks, Math.min(...times)),
    bytes_per_second: rate(bytes, seconds),
    main_thread_busy_share: measured.length ? median(measured) : median(own),
    main_thread_busy_method: measured.length ? 'event-loop utilization' : 'own code',
    main_thread_own_code_share: median(own),
    stages: { parse_s: mid.parse, sighash_s: mid.sighash, script_s: mid.script, verify_s: mid.verify },
    cold: { seconds: first.seconds, encode_seconds: first.encodeSeconds,
      encode_share: first.encodeSeconds / (first.encodeSeconds + first.seconds), main_thread_busy_share: first.busyShare },
    disagreements: [...disagreements.values()],
  };
  return { endToEnd, blockMs };
}

/** How a timed round's result differs from the first pass's entry of the block, or null. */
function disagreement(entry, res) {
  if (!res.ok) {
    if (entry.rejected && res.stage) return res.rejectReason === entry.verdict.rejectReason ? null : `rejected as ${res.rejectReason}, first as ${entry.verdict.rejectReason}`;
    return `failed in the workers: ${res.error}`;
  }
  if (entry.rejected) return `valid or script-invalid, rejected by ${entry.verdict.rejectReason} in the first pass`;
  if (res.valid !== entry.blockValid) return `block verdict ${res.valid ? 'valid' : 'invalid'}, ${entry.blockValid ? 'valid' : 'invalid'} in the first pass`;
  if (!sameBytes(res.checks, entry.checks)) return 'final checks differ from the first pass\'s';
  if (!sameBytes(res.verdicts, entry.verdicts)) return 'verdicts differ from the first pass\'s';
  return null;
}
