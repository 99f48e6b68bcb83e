// Side-by-side pool measurements: the same final checks verified through several pool
// configurations in one run, so ratios between them are ratios of rates measured together.
// --scaling compares 1, 2, .. N workers; the page also compares the wasm variants (SIMD vs
// scalar) at one worker count. Worker start-up (pool creation until every worker has loaded
// its wasm) is timed per pool and kept out of the rates. Rounds are interleaved: each timed
// round runs every configuration once, so machine noise over the run hits all of them alike.
// Host-neutral: the pool factory is a parameter (workers/pool.mjs createPool under Node,
// workers/web-pool.mjs createWebPool in the page).
import { countOf } from './format.mjs';
import { median, timedPass, warmUp } from './verify-passes.mjs';

/** Most workers alive at once across the kept pools (1 + 2 + .. + N for --scaling); past it
 *  each configuration runs all its rounds with its own pool, closed before the next starts. */
const MAX_KEPT_WORKERS = 64;

const rate = (checks, seconds) => (checks > 0 && seconds > 0 ? checks / seconds : null);

/**
 * Times `rounds` combined passes over `checks` through one pool per configuration.
 * @param {Array<{workers: number, variant: string}>} configs pools to compare, in order
 * @param {Uint8Array} checks all final records (native/verify/check_buffer.h)
 * @param {{count: number, offsets: Uint32Array, types: Uint8Array}} walked walkChecks(checks)
 * @param {Uint8Array} reference the verdicts every pass must give (input order)
 * @param {{createPool: (o: {workers: number, variant: string}) => import('../../workers/verify-pool.mjs').VerifyPool,
 *   batchSize: number, rounds: number, log: (msg: string) => void, optional?: boolean,
 *   progress?: {track: (label: string, total: number) => ((done: number) => void)|undefined}}} options
 *   optional: a pool that fails to start becomes its row's `error` instead of rejecting;
 *   progress: shows each timed pass (bench/cli/progress.mjs or the page's); none when absent
 * @returns {Promise<{rows: Array<{workers: number, variant: string, checks_per_second: number|null,
 *   checks_per_second_min: number|null, checks_per_second_max: number|null, startup_ms: number|null,
 *   seconds: number|null, rounds_seconds: number[], error?: string}>, interleaved: boolean,
 *   disagreements: number[]}>} per configuration: the median rate over the rounds (sig/s) with
 *   the slowest / fastest round's, start-up in ms and the pass times in s; `interleaved` false
 *   when the pools were too many to keep (MAX_KEPT_WORKERS); `disagreements`: record indices
 *   whose verdict differed from `reference` in any pass.
 * @throws (rejects) when a pool fails to start (unless optional) or a pass fails.
 */
export async function measurePools(configs, checks, walked, reference, { createPool, batchSize, rounds, log, optional = false, progress }) {
  const interleaved = configs.reduce((n, c) => n + c.workers, 0) <= MAX_KEPT_WORKERS;
  const entries = configs.map((config) => ({ config, pool: null, startupMs: null, times: [], error: null }));
  const disagreeing = new Set();
  const name = ({ workers, variant }) => `${countOf(workers, 'worker')} (${variant})`;

  const start = async (e) => {
    log(`starting ${name(e.config)}`);
    const t0 = performance.now();
    try {
      e.pool = createPool(e.config);
      await e.pool.ready();
    } catch (err) {
      await stop(e);
      if (!optional) throw err;
      e.error = err?.message ?? String(err);
      log(`${name(e.config)}: ${e.error}`);
      return;
    }
    e.startupMs = performance.now() - t0;
    await warmUp(e.pool, checks, walked);
  };
  const pass = async (e, round) => {
    if (e.error) return;
    log(`round ${round}/${rounds}: verifying all ${countOf(walked.count, 'check')} on ${name(e.config)}`);
    const p = await timedPass(e.pool, checks, batchSize, progress?.track(`round ${round}/${rounds} ${name(e.config)}`, walked.count));
    e.times.push(p.seconds);
    p.verdicts.forEach((v, i) => { if (v !== reference[i]) disagreeing.add(i); });
  };
  async function stop(e) {
    const pool = e.pool;
    e.pool = null;
    await pool?.close();
  }

  try {
    if (interleaved) {
      // Pools started one after another, so each start-up is timed alone.
      for (const e of entries) await start(e);
      for (let round = 1; round <= rounds; round++) {
        for (const e of entries) await pass(e, round);
      }
    } else {
      for (const e of entries) {
        await start(e);
        for (let round = 1; round <= rounds; round++) await pass(e, round);
        await stop(e);
      }
    }
  } finally {
    await Promise.all(entries.map(stop));
  }

  const rows = entries.map(({ config, times, startupMs, error }) => {
    const seconds = times.length ? median(times) : null;
    return {
      workers: config.workers,
      variant: config.variant,
      checks_per_second: seconds === null ? null : rate(walked.count, seconds),
      checks_per_second_min: times.length ? rate(walked.count, Math.max(...times)) : null,
      checks_per_second_max: times.length ? rate(walked.count, Math.min(...times)) : null,
      startup_ms: startupMs,
      seconds,
      rounds_seconds: times,
      ...(error ? { error } : {}),
    };
  });
  return { rows, interleaved, disagreements: [...disagreeing].sort((a, b) => a - b) };
}

/**
 * Times `rounds` combined passes over `checks` on 1..maxWorkers workers (measurePools).
 * @param {Uint8Array} checks all final records
 * @param {{count: number, offsets: Uint32Array, types: Uint8Array}} walked walkChecks(checks)
 * @param {Uint8Array} reference the verdicts every pass must give (input order)
 * @param {{maxWorkers: number, variant: string, batchSize: number, rounds: number,
 *   createPool: (o: {workers: number, variant: string}) => object, log: (msg: string) => void,
 *   progress?: object}} options createPool: a pool factory (workers/pool.mjs createPool, or the
 *   page's); progress: as measurePools
 * @returns {Promise<{scaling: Array<{workers: number, checks_per_second: number|null,
 *   checks_per_second_min: number|null, checks_per_second_max: number|null, speedup: number|null,
 *   efficiency: number|null, startup_ms: number, seconds: number, rounds_seconds: number[]}>,
 *   interleaved: boolean, disagreements: number[]}>} per worker count: median rate over the
 *   rounds with the slowest / fastest round's (sig/s), speedup (rate / 1 worker's rate),
 *   efficiency (speedup / workers), start-up in ms (pool creation to all workers ready) and the
 *   pass times in s; `interleaved` false when the pools were too many to keep;
 *   `disagreements`: record indices whose verdict differed from `reference` in any pass.
 * @throws (rejects) when a pool fails to start or a pass fails.
 */
export async function runScaling(checks, walked, reference, { maxWorkers, variant, batchSize, rounds, createPool, log, progress }) {
  const configs = Array.from({ length: maxWorkers }, (_, i) => ({ workers: i + 1, variant }));
  const { rows, interleaved, disagreements } = await measurePools(configs, checks, walked, reference,
    { createPool, batchSize, rounds, log: (msg) => log(`scaling: ${msg}`), progress });
  const base = rows[0].checks_per_second;
  const scaling = rows.map(({ variant: _, ...r }) => {
    const speedup = r.checks_per_second === null || base === null ? null : r.checks_per_second / base;
    return { ...r, speedup, efficiency: speedup === null ? null : speedup / r.workers };
  });
  return { scaling, interleaved, disagreements };
}

/**
 * Times `rounds` combined passes over `checks` with each wasm variant on `workers` workers
 * (measurePools); a variant whose pool does not start (e.g. no SIMD in this browser, or a wasm
 * that fails to compile) gets `error` and no rates, and the others still run.
 * @param {{workers: number, variants: string[], batchSize: number, rounds: number,
 *   createPool: (o: {workers: number, variant: string}) => object, log: (msg: string) => void,
 *   progress?: object}} options as runScaling
 * @returns {Promise<{variants: Array<{variant: string, workers: number, checks_per_second: number|null,
 *   checks_per_second_min: number|null, checks_per_second_max: number|null, startup_ms: number|null,
 *   seconds: number|null, rounds_seconds: number[], error?: string}>, disagreements: number[]}>}
 *   rates in sig/s, times in s, start-up in ms, as measurePools.
 * @throws (rejects) when a pass fails.
 */
export async function runVariants(checks, walked, reference, { workers, variants, batchSize, rounds, createPool, log, progress }) {
  const { rows, disagreements } = await measurePools(variants.map((variant) => ({ workers, variant })), checks, walked,
    reference, { createPool, batchSize, rounds, log: (msg) => log(`variants: ${msg}`), optional: true, progress });
  return { variants: rows.map(({ variant, ...r }) => ({ variant, ...r })), disagreements };
}
