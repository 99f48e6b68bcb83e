// Following the tip, measured: real checks submitted one at a time to a CheckStream
// (workers/check-stream.mjs) on a reproducible arrival schedule, and each check's latency from
// its scheduled arrival to its verdict. Two arrival models (Poisson, bursty), three rates
// (light, target, heavy), both batch-closing policies on the same schedule. Host-neutral.
import { CheckStream } from '../../workers/check-stream.mjs';
import { walkChecks } from '../../wasm/check-buffer.mjs';
import { timedPass, warmUp } from '../core/verify-passes.mjs';

/** Named arrival rates in checks per second; the heavy rate is measured (see heavyRate). */
export const RATES = Object.freeze({ light: 50, target: 1000 });

/** The heavy rate is this many times one worker's measured capacity: more than one worker can
 *  verify, so a stream keeps up only with full batches spread over several workers. */
export const HEAVY_FACTOR = 1.5;

/** Checks per burst of the bursty model (see burstyArrivals). */
export const DEFAULT_BURST_SIZE = 50;

/** A scenario lasts at least long enough for this many expected arrivals (single checks of the
 *  Poisson model, whole bursts of the bursty one; see scenarioDurationMs), so that a short run
 *  (--quick) or a light rate still gets some. */
export const MIN_EXPECTED_ARRIVALS = 3;

/**
 * A seeded pseudo-random generator (mulberry32): same seed, same sequence, on every host.
 * Not cryptographic; for reproducible schedules only.
 * @param {number} seed any number; its low 32 bits are used
 * @returns {() => number} uniform floats in [0, 1)
 */
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

// An exponential gap, in ms, for a process of `perSecond` events per second.
const exponentialGapMs = (random, perSecond) => (-Math.log(1 - random()) / perSecond) * 1000;

const checkSchedule = (rate, durationMs) => {
  if (typeof rate !== 'number' || !(rate > 0) || !Number.isFinite(rate)) throw new RangeError(`rate must be a positive number of checks/s, got ${rate}`);
  if (typeof durationMs !== 'number' || !(durationMs > 0) || !Number.isFinite(durationMs)) throw new RangeError(`durationMs must be a positive number of ms, got ${durationMs}`);
};

/**
 * Poisson arrivals: independent checks, exponential inter-arrival gaps of mean 1/rate.
 * @param {{rate: number, durationMs: number, seed: number}} options rate in checks/s;
 *   arrivals fall in [0, durationMs) ms; seed for seededRandom
 * @returns {Float64Array} arrival times in ms from the start, ascending (about rate x
 *   durationMs / 1000 of them)
 * @throws RangeError when rate or durationMs is not a positive finite number.
 */
export function poissonArrivals({ rate, durationMs, seed }) {
  checkSchedule(rate, durationMs);
  const random = seededRandom(seed);
  const times = [];
  for (let t = exponentialGapMs(random, rate); t < durationMs; t += exponentialGapMs(random, rate)) times.push(t);
  return Float64Array.from(times);
}

/**
 * Bursty arrivals at the same mean rate: bursts of `burstSize` checks that arrive together
 * (the same instant, like the inputs of a few transactions relayed at once), burst starts
 * being Poisson at rate / burstSize bursts per second. A burst that starts before durationMs
 * arrives whole.
 * @param {{rate: number, durationMs: number, seed: number, burstSize?: number}} options rate
 *   in checks/s (mean); durationMs in ms; seed for seededRandom; burstSize in checks, a
 *   positive integer (default DEFAULT_BURST_SIZE, 50)
 * @returns {Float64Array} arrival times in ms from the start, ascending (a multiple of
 *   burstSize of them)
 * @throws RangeError when rate or durationMs is not a positive finite number, or burstSize
 *   not a positive integer.
 */
export function burstyArrivals({ rate, durationMs, seed, burstSize = DEFAULT_BURST_SIZE }) {
  checkSchedule(rate, durationMs);
  if (!Number.isInteger(burstSize) || burstSize < 1) throw new RangeError(`burstSize must be a positive integer, got ${burstSize}`);
  const random = seededRandom(seed);
  const times = [];
  for (let t = exponentialGapMs(random, rate / burstSize); t < durationMs; t += exponentialGapMs(random, rate / burstSize)) {
    for (let k = 0; k < burstSize; k++) times.push(t);
  }
  return Float64Array.from(times);
}

/** The arrival models by name. */
export const ARRIVALS = Object.freeze({ poisson: poissonArrivals, bursty: burstyArrivals });

/**
 * The p-th percentile of `values`, interpolating linearly between the closest ranks (the
 * "inclusive" definition: p 0 is the minimum, 50 the median, 100 the maximum).
 * @param {ArrayLike<number>} values non-empty; not modified
 * @param {number} p percent, 0..100
 * @returns {number}
 * @throws RangeError when values is empty or p is outside 0..100.
 */
export function percentile(values, p) {
  if (!values.length) throw new RangeError('percentile of no values');
  if (typeof p !== 'number' || !(p >= 0 && p <= 100)) throw new RangeError(`percentile must be in 0..100, got ${p}`);
  const sorted = Float64Array.from(values).sort();
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
}

/**
 * The heavy rate for `pool`: HEAVY_FACTOR x one worker's capacity, measured as one untimed
 * warm-up and one timed pass over `checks` at `batchSize` (the pool's checks/s / its workers).
 * @param {{size: number, verify: Function}} pool a ready VerifyPool
 * @param {Uint8Array} checks packed real records
 * @param {number} batchSize records per worker message for the timed pass
 * @returns {Promise<{workerCapacity: number, heavy: number}>} checks/s of one worker, and the
 *   heavy rate in checks/s rounded to a multiple of 100
 */
export async function heavyRate(pool, checks, batchSize) {
  const walked = walkChecks(checks);
  await warmUp(pool, checks, walked);
  const { seconds } = await timedPass(pool, checks, batchSize);
  const workerCapacity = walked.count / seconds / pool.size;
  return { workerCapacity, heavy: Math.max(100, Math.round((HEAVY_FACTOR * workerCapacity) / 100) * 100) };
}

/**
 * Runs one schedule against a fresh CheckStream on `pool`: arrival i submits record
 * i mod count at t0 + arrivals[i] (several arrivals due at once are submitted together; a
 * late timer makes them late, and that lateness counts in their latency). At t0 + durationMs
 * the stream is closed, which flushes a batch that never filled: its checks' latencies count.
 * @param {{verify: Function}} pool a ready VerifyPool
 * @param {{checks: Uint8Array, offsets: Uint32Array, count: number}} records real packed
 *   records and their walkChecks offsets/count
 * @param {Float64Array} arrivals arrival times in ms, ascending, below durationMs
 * @param {{durationMs: number, policy: string, maxBatch: number, fillTimeoutMs: number,
 *   expected?: Uint8Array}} options durationMs: the scenario's length in ms; policy, maxBatch
 *   (records), fillTimeoutMs (ms): the CheckStream's; expected: each record's known verdict
 * @returns {Promise<{checks: number, offered_rate: number, achieved_rate: number|null,
 *   p50_ms: number|null, p99_ms: number|null, max_ms: number|null, mean_batch: number|null,
 *   batches: number, by_cause: {full: number, timeout: number, flush: number},
 *   mismatches: number, failed: number, first_error: string|null}>} latencies from scheduled
 *   arrival to verdict in ms (over the checks that got one); offered_rate: arrivals per second
 *   of duration; achieved_rate: verdicts per second from t0 to the last verdict; mean_batch in
 *   records; mismatches: verdicts that differ from `expected`; failed: submits that rejected.
 */
export async function runScenario(pool, records, arrivals, { durationMs, policy, maxBatch, fillTimeoutMs, expected }) {
  const stream = new CheckStream(pool, { policy, maxBatch, fillTimeoutMs });
  const n = arrivals.length;
  const latencies = [];
  let mismatches = 0;
  let failed = 0;
  let firstError = null;
  let lastVerdict = 0;
  const pending = [];
  const t0 = performance.now();
  const submit = (i) => {
    const r = i % records.count;
    const due = t0 + arrivals[i];
    pending.push(stream.submit(records.checks.subarray(records.offsets[r], records.offsets[r + 1])).then((verdict) => {
      lastVerdict = performance.now();
      latencies.push(lastVerdict - due);
      if (expected && verdict !== expected[r]) mismatches++;
    }, (err) => {
      failed++;
      firstError ??= err.message;
    }));
  };
  await new Promise((resolve) => {
    let next = 0;
    const tick = () => {
      const now = performance.now() - t0;
      while (next < n && arrivals[next] <= now) submit(next++);
      if (next < n) setTimeout(tick, arrivals[next] - (performance.now() - t0));
      else setTimeout(resolve, durationMs - (performance.now() - t0));
    };
    tick();
  });
  await stream.close();
  await Promise.all(pending);
  const stats = stream.stats();
  return {
    checks: n,
    offered_rate: n / (durationMs / 1000),
    achieved_rate: latencies.length ? latencies.length / ((lastVerdict - t0) / 1000) : null,
    p50_ms: latencies.length ? percentile(latencies, 50) : null,
    p99_ms: latencies.length ? percentile(latencies, 99) : null,
    max_ms: latencies.length ? percentile(latencies, 100) : null,
    mean_batch: stats.meanBatchSize,
    batches: stats.batches,
    by_cause: stats.byCause,
    mismatches,
    failed,
    first_error: firstError,
  };
}

/**
 * How long one scenario runs: `durationMs`, stretched where fewer than MIN_EXPECTED_ARRIVALS
 * arrivals of `checksPerArrival` checks each would be expected at `rate`. Pure.
 * @param {number} durationMs the requested length, ms
 * @param {number} rate checks/s (mean)
 * @param {number} checksPerArrival 1 for Poisson arrivals, the burst size for bursty ones
 * @returns {number} ms
 */
export function scenarioDurationMs(durationMs, rate, checksPerArrival) {
  return Math.max(durationMs, (MIN_EXPECTED_ARRIVALS * checksPerArrival * 1000) / rate);
}

/**
 * Every scenario: each arrival model at each named rate, each policy on the same schedule
 * (one seed per model and rate), one after another on `pool`.
 * @param {{verify: Function}} pool a ready VerifyPool
 * @param {Uint8Array} checks packed real records; arrival i uses record i mod their count
 * @param {{rates: Object<string, number>, durationMs: number, policies: string[],
 *   maxBatch: number, fillTimeoutMs: number, seed: number, burstSize?: number,
 *   expected?: Uint8Array, onScenario?: (row: object) => void}} options rates: name ->
 *   checks/s; durationMs per scenario (ms; longer where scenarioDurationMs says so);
 *   burstSize: checks per burst (default DEFAULT_BURST_SIZE); policies: CheckStream policies; maxBatch
 *   (records) and fillTimeoutMs (ms) for every stream; seed of the first schedule; expected:
 *   verdict per record; onScenario: called with each row as it completes
 * @returns {Promise<object[]>} one row per scenario: {arrival, rate_name, rate, policy,
 *   duration_seconds} and runScenario's result
 */
export async function runLatency(pool, checks, {
  rates, durationMs, policies, maxBatch, fillTimeoutMs, seed, burstSize = DEFAULT_BURST_SIZE, expected, onScenario,
}) {
  const walked = walkChecks(checks);
  const records = { checks, offsets: walked.offsets, count: walked.count };
  const rows = [];
  let scheduleSeed = seed;
  for (const [arrival, schedule] of Object.entries(ARRIVALS)) {
    for (const [rateName, rate] of Object.entries(rates)) {
      const scenarioMs = scenarioDurationMs(durationMs, rate, schedule === burstyArrivals ? burstSize : 1);
      const arrivals = schedule({ rate, durationMs: scenarioMs, seed: scheduleSeed++, burstSize });
      for (const policy of policies) {
        const result = await runScenario(pool, records, arrivals, { durationMs: scenarioMs, policy, maxBatch, fillTimeoutMs, expected });
        const row = { arrival, rate_name: rateName, rate, policy, duration_seconds: scenarioMs / 1000, ...result };
        rows.push(row);
        onScenario?.(row);
      }
    }
  }
  return rows;
}
