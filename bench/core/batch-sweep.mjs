// Batch sizing by measurement: the same real checks verified through one pool at every batch
// size (records per worker message) of a sweep, rounds interleaved, and the smallest size
// whose throughput is within a tolerance of the best chosen as the default. Host-neutral.
import { concatChecks, splitBatches, walkChecks } from '../../wasm/check-buffer.mjs';
import { median, timedPass, warmUp } from './verify-passes.mjs';

/** Batch sizes swept by default: the powers of two 1, 2, 4, .. 8,192 (records). */
export const DEFAULT_SWEEP_SIZES = Object.freeze(Array.from({ length: 14 }, (_, i) => 2 ** i));

/** Default tolerance of recommendBatchSize: 2% below the best median throughput. */
export const DEFAULT_TOLERANCE = 0.02;

const rate = (records, seconds) => (seconds > 0 ? records / seconds : null);

/**
 * Times verification passes over `checks` at each batch size. The checks are first repeated
 * whole (same type mix) until there are at least max(sizes) x pool.size records, so that the
 * largest size still fills a message for every worker. After an untimed warm-up
 * (verify-passes.mjs warmUp), each round verifies every record once at every size; the order
 * of the sizes rotates by one each round, so no size always runs first or last.
 * Note: VerifyPool.verify balances a call's batches over the workers (wasm/check-buffer.mjs
 * splitBatches), so the records actually sent per message (`message_records`) can be below
 * the requested size; both are reported.
 * @param {{size: number, verify: Function}} pool a ready VerifyPool (workers/verify-pool.mjs)
 * @param {Uint8Array} checks packed records (native/verify/check_buffer.h), real signatures for a
 *   meaningful figure
 * @param {{sizes?: number[], rounds?: number, onProgress?: (p: {round: number, rounds: number,
 *   batchSize: number, checksPerSecond: number|null}) => void}} [options] sizes: batch sizes
 *   in records, positive integers (default DEFAULT_SWEEP_SIZES); rounds: positive integer
 *   (default 3); onProgress: called after every timed pass
 * @returns {Promise<{records: number, copies: number, workers: number, rounds: number,
 *   rows: Array<{batch_size: number, message_records: number, checks_per_second: number|null,
 *   checks_per_second_min: number|null, checks_per_second_max: number|null,
 *   rounds_seconds: number[]}>, disagreements: number}>} records per pass and how many copies
 *   of `checks` they are; per size (in the order given): the rate at the median pass time and
 *   at the slowest / fastest pass (checks/s) and every pass's time (s, round order);
 *   disagreements: verdicts (over all passes) that differ from the first pass's, expected 0.
 * @throws RangeError for an empty `checks`, empty or non-integer sizes, or bad rounds; rejects
 *   with what pool.verify rejects with.
 */
export async function sweepBatchSizes(pool, checks, { sizes = DEFAULT_SWEEP_SIZES, rounds = 3, onProgress } = {}) {
  if (!Array.isArray(sizes) || sizes.length === 0 || !sizes.every((s) => Number.isInteger(s) && s >= 1)) {
    throw new RangeError(`sizes must be a non-empty list of positive integers, got ${JSON.stringify(sizes)}`);
  }
  if (!Number.isInteger(rounds) || rounds < 1) throw new RangeError(`rounds must be a positive integer, got ${rounds}`);
  const once = walkChecks(checks).count;
  if (once === 0) throw new RangeError('sweepBatchSizes: no checks to verify');
  const copies = Math.ceil((Math.max(...sizes) * pool.size) / once);
  const all = copies === 1 ? checks : concatChecks(Array(copies).fill(checks));
  const walked = walkChecks(all);
  await warmUp(pool, all, walked);

  const times = sizes.map(() => []);
  let reference = null;
  let disagreements = 0;
  for (let round = 1; round <= rounds; round++) {
    for (let k = 0; k < sizes.length; k++) {
      const i = (k + round - 1) % sizes.length;
      const pass = await timedPass(pool, all, sizes[i]);
      times[i].push(pass.seconds);
      if (reference === null) reference = pass.verdicts;
      else for (let r = 0; r < walked.count; r++) if (pass.verdicts[r] !== reference[r]) disagreements++;
      onProgress?.({ round, rounds, batchSize: sizes[i], checksPerSecond: rate(walked.count, pass.seconds) });
    }
  }
  const rows = sizes.map((size, i) => ({
    batch_size: size,
    message_records: splitBatches(walked, size, pool.size)[0].count,
    checks_per_second: rate(walked.count, median(times[i])),
    checks_per_second_min: rate(walked.count, Math.max(...times[i])),
    checks_per_second_max: rate(walked.count, Math.min(...times[i])),
    rounds_seconds: times[i],
  }));
  return { records: walked.count, copies, workers: pool.size, rounds, rows, disagreements };
}

/**
 * The default batch size a sweep supports: the smallest size whose median throughput is
 * within `tolerance` of the best median (>= best x (1 - tolerance)). Pure.
 * @param {Array<{batch_size: number, checks_per_second: number|null}>} rows sweepBatchSizes rows
 *   (any order; rows with a null rate are ignored)
 * @param {number} [tolerance=0.02] fraction of the best throughput, in [0, 1)
 * @returns {number} a batch size (records) taken from `rows`
 * @throws RangeError when tolerance is outside [0, 1) or no row has a rate.
 */
export function recommendBatchSize(rows, tolerance = DEFAULT_TOLERANCE) {
  if (typeof tolerance !== 'number' || !(tolerance >= 0 && tolerance < 1)) {
    throw new RangeError(`tolerance must be a fraction in [0, 1), got ${tolerance}`);
  }
  const measured = rows.filter((r) => typeof r.checks_per_second === 'number' && r.checks_per_second > 0);
  if (measured.length === 0) throw new RangeError('recommendBatchSize: no row has a measured throughput');
  const best = Math.max(...measured.map((r) => r.checks_per_second));
  return Math.min(...measured.filter((r) => r.checks_per_second >= best * (1 - tolerance)).map((r) => r.batch_size));
}
