// The pool benchmarks' pure parts on known inputs (batch-size recommendation, percentile,
// reproducible arrival schedules), and the CLI (bench/pool/pool-bench.mjs) end to end in --quick
// mode: the JSON document's shape and its correctness fields (verdicts, counts), never its
// timings.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../wasm/paths.mjs';
import { DEFAULT_SWEEP_SIZES, recommendBatchSize } from '../bench/core/batch-sweep.mjs';
import { burstyArrivals, MIN_EXPECTED_ARRIVALS, percentile, poissonArrivals, scenarioDurationMs, seededRandom } from '../bench/pool/latency.mjs';

const CLI = path.join(REPO_ROOT, 'bench', 'pool', 'pool-bench.mjs');
const run = (args) => promisify(execFile)(process.execPath, [CLI, ...args], { timeout: 180_000, maxBuffer: 64 << 20 })
  .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }), (err) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }));

const rows = (pairs) => pairs.map(([batch_size, checks_per_second]) => ({ batch_size, checks_per_second }));

test('recommendBatchSize: the smallest size within the tolerance of the best median', () => {
  const sweep = rows([[1, 100], [2, 190], [4, 196], [8, 200], [16, 199], [32, 150]]);
  assert.equal(recommendBatchSize(sweep), 4); // 196 >= 0.98 x 200
  assert.equal(recommendBatchSize(sweep, 0), 8);
  assert.equal(recommendBatchSize(sweep, 0.05), 2);
  assert.equal(recommendBatchSize(sweep, 0.9), 1);
  assert.equal(recommendBatchSize([...sweep].reverse()), 4, 'row order does not matter');
  assert.equal(recommendBatchSize(rows([[64, 195.9], [128, 200], [256, null]])), 128, 'just outside 2%; null rates ignored');
  assert.throws(() => recommendBatchSize([]), /no row has a measured throughput/);
  assert.throws(() => recommendBatchSize(rows([[1, null]])), /no row has a measured throughput/);
  assert.throws(() => recommendBatchSize(sweep, 1), /tolerance must be a fraction in \[0, 1\)/);
  assert.throws(() => recommendBatchSize(sweep, -0.1), /tolerance must be a fraction/);
  assert.deepEqual(DEFAULT_SWEEP_SIZES, [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192]);
});

test('percentile: linear interpolation between closest ranks', () => {
  const values = [5, 1, 4, 2, 3];
  assert.equal(percentile(values, 50), 3);
  assert.equal(percentile(values, 0), 1);
  assert.equal(percentile(values, 100), 5);
  assert.equal(percentile(values, 25), 2);
  assert.equal(percentile(values, 90), 4.6);
  assert.deepEqual(values, [5, 1, 4, 2, 3], 'input not modified');
  assert.equal(percentile([4, 1, 3, 2], 50), 2.5);
  assert.equal(percentile([7], 99), 7);
  const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
  assert.ok(Math.abs(percentile(hundred, 99) - 99.01) < 1e-9);
  assert.equal(percentile([10, 2, 33], 100), 33);
  assert.throws(() => percentile([], 50), /percentile of no values/);
  assert.throws(() => percentile([1], 101), /percentile must be in 0\.\.100/);
});

test('seededRandom: reproducible uniform floats in [0, 1)', () => {
  const take = (seed, n) => Array.from({ length: n }, seededRandom(seed));
  assert.deepEqual(take(42, 1000), take(42, 1000));
  assert.notDeepEqual(take(42, 10), take(43, 10));
  const xs = take(7, 100_000);
  assert.ok(xs.every((x) => x >= 0 && x < 1));
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  assert.ok(Math.abs(mean - 0.5) < 0.005, `mean ${mean}`); // sd of the mean: 0.0009
});

test('poissonArrivals: reproducible, ascending, the right count and mean gap', () => {
  const a = poissonArrivals({ rate: 1000, durationMs: 20_000, seed: 5 });
  assert.deepEqual(a, poissonArrivals({ rate: 1000, durationMs: 20_000, seed: 5 }));
  assert.notDeepEqual(a, poissonArrivals({ rate: 1000, durationMs: 20_000, seed: 6 }));
  assert.ok(a.every((t, i) => t >= 0 && t < 20_000 && (i === 0 || t >= a[i - 1])));
  // 20,000 expected arrivals, sd sqrt(20,000) = 141: within 4 sd.
  assert.ok(Math.abs(a.length - 20_000) < 4 * 141, `${a.length} arrivals`);
  const gaps = a.slice(1).map((t, i) => t - a[i]);
  const mean = gaps.reduce((x, y) => x + y, 0) / gaps.length;
  assert.ok(Math.abs(mean - 1) < 0.03, `mean gap ${mean} ms`); // 1 ms, sd of the mean 0.007 ms
  // Exponential gaps: their sd equals their mean.
  const sd = Math.sqrt(gaps.reduce((x, g) => x + (g - mean) ** 2, 0) / gaps.length);
  assert.ok(Math.abs(sd / mean - 1) < 0.05, `sd/mean ${sd / mean}`);
  assert.throws(() => poissonArrivals({ rate: 0, durationMs: 1, seed: 1 }), /rate must be a positive number/);
  assert.throws(() => poissonArrivals({ rate: 1, durationMs: NaN, seed: 1 }), /durationMs must be a positive number/);
});

test('burstyArrivals: whole bursts of equal times, the same mean rate', () => {
  const a = burstyArrivals({ rate: 1000, durationMs: 100_000, seed: 9, burstSize: 50 });
  assert.deepEqual(a, burstyArrivals({ rate: 1000, durationMs: 100_000, seed: 9, burstSize: 50 }));
  assert.equal(a.length % 50, 0);
  const starts = [];
  for (let i = 0; i < a.length; i += 50) {
    assert.ok(a.subarray(i, i + 50).every((t) => t === a[i]), `burst at ${i}`);
    assert.ok(i === 0 || a[i] > a[i - 1]);
    starts.push(a[i]);
  }
  // 2,000 bursts expected (20/s for 100 s), sd 45: within 4 sd.
  assert.ok(Math.abs(starts.length - 2000) < 4 * 45, `${starts.length} bursts`);
  assert.ok(Math.abs(a.length / 100 - 1000) < 4 * 45 * 50 / 100, `${a.length / 100} checks/s`);
  assert.throws(() => burstyArrivals({ rate: 10, durationMs: 10, seed: 1, burstSize: 0 }), /burstSize must be a positive integer/);
});

test('scenarioDurationMs: long enough for MIN_EXPECTED_ARRIVALS arrivals (checks or bursts)', () => {
  assert.equal(MIN_EXPECTED_ARRIVALS, 3);
  assert.equal(scenarioDurationMs(300, 50, 50), 3000, '3 bursts of 50 at 50 checks/s: 3 s');
  assert.equal(scenarioDurationMs(300, 50, 1), 300, '15 single checks expected in 0.3 s');
  assert.equal(scenarioDurationMs(300, 1000, 50), 300, '6 bursts expected in 0.3 s');
  assert.equal(scenarioDurationMs(5000, 50, 50), 5000);
});

test('pool-bench --sweep --latency --quick --json: the documented document, verdicts all agree', async () => {
  const { code, stdout, stderr } = await run(['--sweep', '--latency', '--quick', '--json', '--workers', '2']);
  assert.equal(code, 0, stderr);
  const doc = JSON.parse(stdout);
  assert.deepEqual(doc.problems, []);
  for (const key of ['cpu', 'cores', 'node']) assert.ok(key in doc.machine, `machine.${key}`);
  assert.match(doc.command, /pool-bench\.mjs --sweep --latency --quick --json --workers 2$/);
  assert.equal(doc.workers, 2);
  assert.equal(doc.quick, true);
  assert.ok(doc.blocks > 0 && doc.checks > 0);

  const s = doc.sweep;
  assert.equal(s.rounds, 1);
  assert.equal(s.disagreements, 0);
  assert.equal(s.records, s.copies * doc.checks);
  assert.deepEqual(s.rows.map((r) => r.batch_size), [16, 256, 2048]);
  for (const r of s.rows) {
    for (const k of ['checks_per_second', 'checks_per_second_min', 'checks_per_second_max']) assert.equal(typeof r[k], 'number', k);
    assert.equal(r.rounds_seconds.length, 1);
    assert.ok(r.message_records >= 1 && r.message_records <= r.batch_size);
  }
  assert.equal(s.recommended_batch_size, recommendBatchSize(s.rows));
  assert.equal(s.tolerance, 0.02);
  assert.equal(s.max_spread, 1, 'one round: fastest = slowest');

  const l = doc.latency;
  assert.deepEqual(Object.keys(l.rates), ['light', 'target', 'heavy']);
  assert.deepEqual([l.rates.light, l.rates.target], [50, 1000]);
  assert.ok(l.rates.heavy > 0 && l.worker_capacity > 0);
  assert.equal(l.max_batch, s.recommended_batch_size, 'the stream uses the sweep\'s recommendation');
  assert.equal(l.rows.length, 2 * 3 * 2);
  for (const r of l.rows) {
    const what = `${r.arrival} ${r.rate_name} ${r.policy}`;
    assert.ok(['poisson', 'bursty'].includes(r.arrival) && ['size', 'size-or-timeout'].includes(r.policy), what);
    assert.equal(r.mismatches, 0, what);
    assert.equal(r.failed, 0, what);
    assert.equal(r.batches, r.by_cause.full + r.by_cause.timeout + r.by_cause.flush, what);
    if (r.policy === 'size') assert.equal(r.by_cause.timeout, 0, what);
    // Each scenario lasts long enough for 3 expected arrivals (bursts of 50 for the bursty model).
    const perArrival = r.arrival === 'bursty' ? l.burst_size : 1;
    const duration = Math.max(l.duration_seconds, (l.min_expected_arrivals * perArrival) / r.rate);
    assert.ok(Math.abs(r.duration_seconds - duration) < 1e-9, `${what}: ${r.duration_seconds} s`);
    assert.ok(r.checks > 0, `${what}: no arrivals`);
    assert.ok(Math.abs(r.mean_batch * r.batches - r.checks) < 1e-6, `${what}: every check in one batch`);
    assert.ok(r.mean_batch <= l.max_batch, what);
    assert.ok(r.p50_ms <= r.p99_ms && r.p99_ms <= r.max_ms, what);
  }
});

test('pool-bench: bad command lines exit 2 naming the flag', async () => {
  for (const [args, re] of [
    [[], /give --sweep and\/or --latency/],
    [['--sweep', '--workers', '0'], /--workers must be an integer from 1 to 256, got "0"/],
    [['--latency', '--duration', 'abc'], /--duration must be a number/],
    [['--sweep', '--rounds', '1.5'], /--rounds must be an integer/],
    [['--sweep', '--variant', 'avx'], /--variant must be one of simd, scalar/],
    [['--sweep', '--bogus'], /Unknown option '--bogus'/],
  ]) {
    const { code, stderr } = await run(args);
    assert.equal(code, 2, `${args.join(' ')}: ${stderr}`);
    assert.match(stderr, re);
  }
});
