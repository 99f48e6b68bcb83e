// The end-to-end pass: every loaded block validated whole in the pool's workers (parse, block
// rules, sighash, scripts and signatures in each worker's engine: workers/block-jobs.mjs), timed
// over `rounds` rounds after one untimed warm-up round, with the per-stage time the workers
// measured and the main thread's busy share. Its verdicts and final checks must equal those of
// the validation rounds (validation-rounds.mjs); a difference is reported, never averaged away.
import { encodeSpentOutputs } from '../../wasm/spent-outputs.mjs';
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

/** The blocks both paths can validate, and their jobs (spent outputs in the binary form). */
function prepareJobs(loaded, validated, skipProofOfWork) {
  const usable = loaded.map((b, i) => ({ b, v: validated[i] })).filter(({ b, v }) => !b.error && v && !v.error);
  const jobs = usable.map(({ b }) => ({ block: b.block, spentOutputs: encodeSpentOutputs(b.spentOutputsJson), hash: b.hash,
    height: b.height, options: skipProofOfWork ? { skipProofOfWork: true } : undefined }));
  return { usable, jobs };
}

/** Checks in the results that validated. */
const checksOf = (results) => results.reduce((n, r) => n + (r.ok ? r.ecdsa + r.schnorr : 0), 0);

/**
 * End-to-end scaling: the same whole-block validation through pools of 1..maxWorkers workers,
 * all started (and warmed up by one untimed round each) before any is timed, then `rounds`
 * interleaved timed rounds, each running every pool once.
 * @param {(o: {workers: number, variant: string}) => import('../../workers/verify-pool.mjs').VerifyPool} createPool
 * @param {object[]} loaded as runEndToEnd
 * @param {object[]} validated as runEndToEnd
 * @param {{maxWorkers: number, variant: string, rounds: number, skipProofOfWork?: boolean,
 *   log: (msg: string) => void}} options
 * @returns {Promise<Array<{workers: number, checks_per_second: number, checks_per_second_min: number,
 *   checks_per_second_max: number, speedup: number, efficiency: number, seconds: number,
 *   rounds_seconds: number[]}>>} per worker count: the median rate (checks/s) with the slowest /
 *   fastest round's, speedup over 1 worker and efficiency = speedup / workers (medians)
 */
export async function runEndToEndScaling(createPool, loaded, validated, { maxWorkers, variant, rounds, skipProofOfWork = false, log }) {
  const { jobs } = prepareJobs(loaded, validated, skipProofOfWork);
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
      for (let k = 0; k < pools.length; k++) {
        const start = performance.now();
        const out = await validateBlocksInPool(pools[k], jobs);
        times[k].push((performance.now() - start) / 1000);
        checks = checksOf(out);
      }
    }
    const base = checks / median(times[0]);
    return counts.map((workers, k) => {
      const rate = checks / median(times[k]);
      return {
        workers,
        checks_per_second: rate,
        checks_per_second_min: checks / Math.max(...times[k]),
        checks_per_second_max: checks / Math.min(...times[k]),
        speedup: rate / base,
        efficiency: rate / base / workers,
        seconds: median(times[k]),
        rounds_seconds: times[k],
      };
    });
  } finally {
    await Promise.all(pools.map((p) => p.close()));
  }
}

/**
 * Times whole-block validation in `pool`'s workers.
 * @param {import('../../workers/verify-pool.mjs').VerifyPool} pool a ready pool
 * @param {object[]} loaded blocks as blocks-fixtures/loader.mjs gives them (block, spentOutputsJson,
 *   hash, height; those with `error` are left out)
 * @param {object[]} validated the validation rounds' entries (validation-rounds.mjs), same order,
 *   to compare verdicts and checks with
 * @param {{rounds: number, skipProofOfWork?: boolean, log: (msg: string) => void}} options
 * @returns {Promise<object>} {workers, rounds, blocks, inputs, checks, bytes, seconds (median
 *   wall time of a round, s), rounds_seconds, blocks_per_second, inputs_per_second,
 *   checks_per_second (_min / _max at the slowest / fastest round), bytes_per_second (block
 *   bytes), main_thread_busy_share (median over the rounds of the main thread's event-loop
 *   utilization during the round, 0..1; null where the host cannot measure it),
 *   stages: {parse_s, sighash_s, script_s, verify_s} (summed over the workers, median round),
 *   encode_seconds (spent outputs JSON to the binary form, once, untimed in the rounds),
 *   disagreements: [{height, what}] (blocks whose verdict or checks differ from the rounds')}
 */
export async function runEndToEnd(pool, loaded, validated, { rounds, skipProofOfWork = false, log }) {
  const t0 = performance.now();
  const { usable, jobs } = prepareJobs(loaded, validated, skipProofOfWork);
  const encodeSeconds = (performance.now() - t0) / 1000;
  log(`end to end: ${countOf(jobs.length, 'block')} whole in ${countOf(pool.size, 'worker')}, ` +
    `1 untimed round then ${countOf(rounds, 'timed round')}`);
  await validateBlocksInPool(pool, jobs); // warm-up: each worker's engine compiled and tiered up
  const times = [];
  const busy = [];
  const stages = [];
  let results;
  for (let r = 0; r < rounds; r++) {
    const before = utilization();
    const start = performance.now();
    const out = await validateBlocksInPool(pool, jobs);
    times.push((performance.now() - start) / 1000);
    const after = utilization();
    busy.push(before && after ? globalThis.performance.eventLoopUtilization(after, before).utilization : null);
    stages.push(out.reduce((s, res) => {
      if (res.ok) for (const k of Object.keys(s)) s[k] += res.times[`${k}Ms`] / 1000;
      return s;
    }, { parse: 0, sighash: 0, script: 0, verify: 0 }));
    results ??= out;
  }
  const disagreements = [];
  usable.forEach(({ b, v }, i) => {
    const res = results[i];
    const what = !res.ok ? `failed in the workers: ${res.error}`
      : res.valid !== v.blockValid ? `block verdict ${res.valid ? 'valid' : 'invalid'} in the workers, ${v.blockValid ? 'valid' : 'invalid'} in the rounds`
        : v.rejected ? null
          : !sameBytes(res.checks, v.checks) ? 'final checks differ'
            : !sameBytes(res.verdicts, v.verdicts) ? 'verdicts differ' : null;
    if (what) disagreements.push({ height: b.height, what });
  });
  const inputs = results.reduce((n, r) => n + (r.ok ? r.inputs : 0), 0);
  const checks = checksOf(results);
  const bytes = jobs.reduce((n, j) => n + j.block.length, 0);
  const seconds = median(times);
  const rate = (n, s) => (s > 0 ? n / s : null);
  const mid = stages[times.indexOf([...times].sort((a, b) => a - b)[(times.length - 1) >> 1])];
  const measured = busy.filter((x) => x !== null);
  return {
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
    main_thread_busy_share: measured.length ? median(measured) : null,
    stages: { parse_s: mid.parse, sighash_s: mid.sighash, script_s: mid.script, verify_s: mid.verify },
    encode_seconds: encodeSeconds,
    disagreements,
  };
}
