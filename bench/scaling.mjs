// The --scaling report: the same final checks verified through pools of 1, 2, .. N workers, in
// one run, so speedup and efficiency are ratios of rates measured side by side. Worker start-up
// (pool creation until every worker has loaded its wasm) is timed per pool and kept out of the
// rates. Rounds are interleaved: each timed round runs every worker count once, so machine
// noise over the run hits every count alike.
import { createPool } from '../workers/pool.mjs';
import { countOf } from './report.mjs';
import { median, timedPass, warmUp } from './verify-passes.mjs';

/** Most workers alive at once across the kept pools (1 + 2 + .. + N); past it each worker count
 *  runs all its rounds with its own pool, which is closed before the next count starts. */
const MAX_KEPT_WORKERS = 64;

const rate = (checks, seconds) => (checks > 0 && seconds > 0 ? checks / seconds : null);

/**
 * Times `rounds` combined passes over `checks` on 1..maxWorkers workers.
 * @param {Uint8Array} checks all final records
 * @param {{count: number, offsets: Uint32Array, types: Uint8Array}} walked walkChecks(checks)
 * @param {Uint8Array} reference the verdicts of the main timed passes (input order)
 * @param {{maxWorkers: number, variant: string, batchSize: number, rounds: number,
 *   log: (msg: string) => void}} options
 * @returns {Promise<{scaling: Array<{workers: number, checks_per_second: number|null,
 *   checks_per_second_min: number|null, checks_per_second_max: number|null, speedup: number|null,
 *   efficiency: number|null, startup_ms: number, seconds: number, rounds_seconds: number[]}>,
 *   interleaved: boolean, disagreements: number[]}>} per worker count: median rate over the
 *   rounds with the slowest / fastest round's, speedup (rate / 1 worker's rate), efficiency
 *   (speedup / workers), start-up in ms (pool creation to all workers ready) and the pass
 *   times in s; `interleaved` false when the pools were too many to keep (MAX_KEPT_WORKERS);
 *   `disagreements`: record indices whose verdict differed from `reference` in any pass.
 * @throws (rejects) when a pool fails to start or a pass fails.
 */
export async function runScaling(checks, walked, reference, { maxWorkers, variant, batchSize, rounds, log }) {
  const counts = Array.from({ length: maxWorkers }, (_, i) => i + 1);
  const interleaved = (maxWorkers * (maxWorkers + 1)) / 2 <= MAX_KEPT_WORKERS;
  const entries = new Map(counts.map((n) => [n, { pool: null, startupMs: null, times: [] }]));
  const disagreeing = new Set();

  const start = async (n) => {
    const e = entries.get(n);
    log(`scaling: starting ${countOf(n, 'worker')}`);
    const t0 = performance.now();
    e.pool = createPool({ workers: n, variant });
    await e.pool.ready();
    e.startupMs = performance.now() - t0;
    await warmUp(e.pool, checks, walked);
  };
  const pass = async (n, round) => {
    const e = entries.get(n);
    log(`scaling round ${round}/${rounds}: verifying all ${countOf(walked.count, 'check')} on ${countOf(n, 'worker')}`);
    const p = await timedPass(e.pool, checks, batchSize);
    e.times.push(p.seconds);
    p.verdicts.forEach((v, i) => { if (v !== reference[i]) disagreeing.add(i); });
  };
  const stop = async (n) => {
    const e = entries.get(n);
    const pool = e.pool;
    e.pool = null;
    await pool?.close();
  };

  try {
    if (interleaved) {
      // Pools started one after another, so each start-up is timed alone.
      for (const n of counts) await start(n);
      for (let round = 1; round <= rounds; round++) {
        for (const n of counts) await pass(n, round);
      }
    } else {
      for (const n of counts) {
        await start(n);
        for (let round = 1; round <= rounds; round++) await pass(n, round);
        await stop(n);
      }
    }
  } finally {
    await Promise.all(counts.map(stop));
  }

  const base = rate(walked.count, median(entries.get(1).times));
  const scaling = counts.map((n) => {
    const { times, startupMs } = entries.get(n);
    const seconds = median(times);
    const cps = rate(walked.count, seconds);
    const speedup = cps === null || base === null ? null : cps / base;
    return {
      workers: n,
      checks_per_second: cps,
      checks_per_second_min: rate(walked.count, Math.max(...times)),
      checks_per_second_max: rate(walked.count, Math.min(...times)),
      speedup,
      efficiency: speedup === null ? null : speedup / n,
      startup_ms: startupMs,
      seconds,
      rounds_seconds: times,
    };
  });
  return { scaling, interleaved, disagreements: [...disagreeing].sort((a, b) => a - b) };
}
