#!/usr/bin/env node
// The pool benchmarks (npm run bench:batch, npm run bench:latency): --sweep times the real
// fixture checks at every batch size and recommends the default (bench/core/batch-sweep.mjs);
// --latency streams them one by one through a CheckStream at several arrival rates and
// reports latency from arrival to verdict for each batch-closing policy (bench/pool/latency.mjs).
// Progress goes to stderr; the report (or, with --json, one JSON document) to stdout.
import os from 'node:os';
import { fixturesDir, loadBlocks } from '../../blocks-fixtures/loader.mjs';
import { DEFAULT_FILL_TIMEOUT_MS, POLICIES } from '../../workers/check-stream.mjs';
import { VARIANTS } from '../../wasm/variants.mjs';
import { createPool, DEFAULT_BATCH_SIZE, MAX_WORKERS } from '../../workers/pool.mjs';
import { DEFAULT_SWEEP_SIZES, DEFAULT_TOLERANCE, recommendBatchSize, sweepBatchSizes } from '../core/batch-sweep.mjs';
import { fixtureChecks } from '../shared/fixture-checks.mjs';
import { DEFAULT_BURST_SIZE, HEAVY_FACTOR, heavyRate, MIN_EXPECTED_ARRIVALS, RATES, runLatency } from './latency.mjs';
import { machineInfo } from '../shared/machine.mjs';
import { choiceFlag, numberFlag, parseFlags, UsageError } from '../shared/args.mjs';
import { countOf, int } from '../core/format.mjs';

/** Defaults of the full run and of --quick (a smoke run for tests: seconds, not minutes). */
const FULL = { rounds: 3, durationSeconds: 5, sizes: DEFAULT_SWEEP_SIZES };
const QUICK = { rounds: 1, durationSeconds: 0.3, sizes: [16, 256, 2048] };
/** A sweep where some size's fastest round beat its slowest by more than this factor gets a
 *  warning: the noise is then far above the tolerance, so the recommendation is uncertain. */
const NOISY_SPREAD = 1.1;
/** Seed of the first arrival schedule (each model and rate gets the next one). */
const SEED = 1;

const USAGE = `usage: npm run bench:batch [-- options]     (the same as --sweep)
   or: npm run bench:latency [-- options]   (the same as --latency)
   or: node bench/pool/pool-bench.mjs --sweep|--latency [options]

Validates the fixture blocks once to get their final signature checks, then:
  --sweep            times verification passes of those checks through the pool at every
                     batch size (records per worker message) ${DEFAULT_SWEEP_SIZES[0]}..${DEFAULT_SWEEP_SIZES.at(-1)} (powers of two), rounds
                     interleaved; reports median and min-max checks/s per size and recommends the
                     smallest size within ${DEFAULT_TOLERANCE * 100}% of the best median (current default: ${DEFAULT_BATCH_SIZE})
  --latency          submits the checks one at a time to a CheckStream on Poisson and bursty
                     (bursts of ${DEFAULT_BURST_SIZE} checks) arrival schedules at light (${RATES.light}/s), target
                     (${RATES.target}/s) and heavy (${HEAVY_FACTOR} x one worker's measured capacity) rates, with
                     each policy (${POLICIES.join(', ')}); reports p50/p99/max latency from
                     arrival to verdict, mean batch size and batches (a scenario runs longer than
                     --duration where fewer than ${MIN_EXPECTED_ARRIVALS} arrivals, or bursts, would be expected)

  --workers N        verify workers, 1..${MAX_WORKERS} (default: available parallelism, ${os.availableParallelism()} here)
  --variant NAME     wasm build: ${VARIANTS.join(' | ')} (default: simd)
  --rounds N         sweep rounds, each timing every size once (default: ${FULL.rounds})
  --duration S       seconds per latency scenario (default: ${FULL.durationSeconds}; fractions allowed)
  --max-batch N      CheckStream batch size, records (default: the sweep's recommendation with
                     --sweep, else ${DEFAULT_BATCH_SIZE})
  --fill-timeout MS  size-or-timeout's fill timeout, ms (default: ${DEFAULT_FILL_TIMEOUT_MS})
  --fixtures DIR     fixture set (default: $IBD_FIXTURES, else ../shared/blocks-fixtures)
  --quick            a smoke test, not a measurement: sweep sizes ${QUICK.sizes.join(', ')}, ${QUICK.rounds} round,
                     ${QUICK.durationSeconds} s per scenario
  --json             one JSON document on stdout (progress on stderr)
  -h, --help         this text

Exit code: 0 done; 1 the run failed (no fixtures, no wasm build, a worker failure), a fixture
block failed to validate (the others still run) or a verdict differed from the validation's;
2 bad command line.`;

/**
 * Parses the command line.
 * @param {string[]} argv arguments after the script name
 * @returns {{help: boolean, sweep: boolean, latency: boolean, workers: number, variant: string,
 *   rounds: number, durationSeconds: number, maxBatch: number|undefined, fillTimeoutMs: number,
 *   sizes: number[], fixtures: string|undefined, json: boolean, quick: boolean}}
 * @throws UsageError naming the bad flag (also when neither --sweep nor --latency is given).
 */
export function parsePoolBenchOptions(argv) {
  const { values } = parseFlags(argv, {
    sweep: { type: 'boolean', default: false },
    latency: { type: 'boolean', default: false },
    workers: { type: 'string' },
    variant: { type: 'string', default: 'simd' },
    rounds: { type: 'string' },
    duration: { type: 'string' },
    'max-batch': { type: 'string' },
    'fill-timeout': { type: 'string' },
    fixtures: { type: 'string' },
    quick: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) return { help: true };
  if (!values.sweep && !values.latency) throw new UsageError('give --sweep and/or --latency');
  choiceFlag('variant', values.variant, VARIANTS);
  const base = values.quick ? QUICK : FULL;
  const opt = (name, spec, fallback) => (values[name] === undefined ? fallback : numberFlag(name, values[name], spec));
  return {
    help: false,
    sweep: values.sweep,
    latency: values.latency,
    workers: opt('workers', { min: 1, max: MAX_WORKERS, integer: true }, Math.min(os.availableParallelism(), MAX_WORKERS)),
    variant: values.variant,
    rounds: opt('rounds', { min: 1, max: 1000, integer: true }, base.rounds),
    durationSeconds: opt('duration', { min: 0.01, max: 3600, integer: false }, base.durationSeconds),
    maxBatch: opt('max-batch', { min: 1, max: DEFAULT_SWEEP_SIZES.at(-1), integer: true }, undefined),
    fillTimeoutMs: opt('fill-timeout', { min: 0.01, max: 600_000, integer: false }, DEFAULT_FILL_TIMEOUT_MS),
    sizes: base.sizes,
    fixtures: values.fixtures,
    json: values.json,
    quick: values.quick,
  };
}

/**
 * Runs the requested benchmarks.
 * @param {ReturnType<typeof parsePoolBenchOptions>} options
 * @param {(msg: string) => void} log progress sink (stderr)
 * @returns {Promise<object>} {command, machine, workers, variant, quick, fixtures, blocks,
 *   checks, sweep?, latency?}: quick: --quick (figures are a smoke test); sweep = sweepBatchSizes' result plus tolerance, recommended_batch_size,
 *   current_default_batch_size and max_spread (the largest fastest / slowest round ratio of a
 *   size; 1 with one round); latency = {duration_seconds, max_batch, fill_timeout_ms,
 *   burst_size, min_expected_arrivals, seed, heavy_factor, worker_capacity (checks/s), rates
 *   (name -> checks/s), rows (runLatency rows; their duration_seconds can exceed
 *   duration_seconds, see bench/pool/latency.mjs scenarioDurationMs)}.
 * @throws (rejects) when nothing can run (no fixtures, no wasm build, a worker failure).
 */
export async function runPoolBench(options, log) {
  const dir = fixturesDir(options.fixtures);
  const loaded = await loadBlocks(dir);
  const pool = createPool({ workers: options.workers, variant: options.variant });
  try {
    const infos = await pool.ready();
    const fixture = await fixtureChecks(loaded, pool, { log });
    const doc = {
      command: `node bench/pool/pool-bench.mjs ${process.argv.slice(2).join(' ')}`.trim(),
      machine: machineInfo(infos[0]),
      workers: options.workers,
      variant: options.variant,
      quick: options.quick,
      fixtures: dir,
      blocks: fixture.ok.length,
      blocks_failed: fixture.failed.map((b) => b.error),
      checks: fixture.count,
    };
    if (options.sweep) {
      log(`sweep: ${options.sizes.length} batch sizes x ${countOf(options.rounds, 'round')} on ${countOf(options.workers, 'worker')}`);
      const sweep = await sweepBatchSizes(pool, fixture.checks, {
        sizes: options.sizes,
        rounds: options.rounds,
        onProgress: (p) => log(`sweep round ${p.round}/${p.rounds}: batch ${int(p.batchSize)}: ${int(p.checksPerSecond)} checks/s`),
      });
      doc.sweep = {
        ...sweep,
        tolerance: DEFAULT_TOLERANCE,
        recommended_batch_size: recommendBatchSize(sweep.rows),
        current_default_batch_size: DEFAULT_BATCH_SIZE,
        max_spread: Math.max(...sweep.rows.map((r) => r.checks_per_second_max / r.checks_per_second_min)),
      };
    }
    if (options.latency) {
      const maxBatch = options.maxBatch ?? doc.sweep?.recommended_batch_size ?? DEFAULT_BATCH_SIZE;
      log(`latency: measuring one worker's capacity (batch ${int(maxBatch)})`);
      const { workerCapacity, heavy } = await heavyRate(pool, fixture.checks, maxBatch);
      const rates = { ...RATES, heavy };
      const rows = await runLatency(pool, fixture.checks, {
        rates,
        durationMs: options.durationSeconds * 1000,
        policies: POLICIES,
        maxBatch,
        fillTimeoutMs: options.fillTimeoutMs,
        seed: SEED,
        burstSize: DEFAULT_BURST_SIZE,
        expected: fixture.verdicts,
        onScenario: (r) => log(`latency: ${r.arrival} ${r.rate_name} ${r.policy}: ` +
          (r.checks ? `${countOf(r.checks, 'check')}, p50 ${ms(r.p50_ms)} ms, p99 ${ms(r.p99_ms)} ms` : noArrivals(r))),
      });
      doc.latency = {
        duration_seconds: options.durationSeconds,
        max_batch: maxBatch,
        fill_timeout_ms: options.fillTimeoutMs,
        burst_size: DEFAULT_BURST_SIZE,
        min_expected_arrivals: MIN_EXPECTED_ARRIVALS,
        seed: SEED,
        heavy_factor: HEAVY_FACTOR,
        worker_capacity: workerCapacity,
        rates,
        rows,
      };
    }
    return doc;
  } finally {
    await pool.close();
  }
}

/** Fixture blocks that failed to validate, verdicts that differed from the validation's (sweep
 *  disagreements, latency mismatches), and failed latency submits. */
function problemsOf(doc) {
  const problems = [];
  if (doc.blocks_failed?.length) problems.push(`${countOf(doc.blocks_failed.length, 'fixture block')} failed to validate (left out)`);
  if (doc.sweep?.disagreements) problems.push(`${countOf(doc.sweep.disagreements, 'sweep verdict')} differed between passes`);
  for (const r of doc.latency?.rows ?? []) {
    if (r.mismatches) problems.push(`${r.arrival} ${r.rate_name} ${r.policy}: ${countOf(r.mismatches, 'verdict')} differed from the validation's`);
    if (r.failed) problems.push(`${r.arrival} ${r.rate_name} ${r.policy}: ${countOf(r.failed, 'check')} failed (${r.first_error})`);
  }
  return problems;
}

const ms = (v) => (v === null || v === undefined ? '-' : v < 10 ? v.toFixed(2) : int(v));
const oneDecimal = (v) => (v === null || v === undefined ? '-' : v.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 }));
const noArrivals = (r) => `no checks arrived in ${r.duration_seconds} s (the schedule drew none); nothing measured`;
const table = (rows, widths) => rows.map((cells) => cells.map((c, i) => String(c).padStart(widths[i])).join('  ')).join('\n');

/**
 * The terminal report: the machine and command, then the sweep table (batch size, records per
 * message, median and min-max checks/s, vs the best median) with the recommended default, then
 * the latency table (arrival, rate, policy, checks, p50/p99/max ms, mean batch, batches by
 * cause, achieved checks/s).
 * @param {object} doc runPoolBench's result
 * @returns {string} text ending with a newline
 */
export function formatPoolBench(doc) {
  const m = doc.machine;
  const out = [
    `pool-bench: ${countOf(doc.workers, 'worker')}, wasm ${doc.variant}, ${countOf(doc.checks, 'real check')} from ${countOf(doc.blocks, 'fixture block')}`,
    `machine: ${m.cpu}, ${m.cores} cores, ${m.platform}/${m.arch}, Node ${m.node}, emcc ${m.emcc ?? 'unknown'}`,
    `command: ${doc.command}`,
  ];
  if (doc.sweep) {
    const s = doc.sweep;
    const best = Math.max(...s.rows.map((r) => r.checks_per_second ?? 0));
    out.push('', `batch-size sweep: ${countOf(s.records, 'record')} per pass (${s.copies} x the fixture checks), ` +
      `median of ${countOf(s.rounds, 'round')}, interleaved${doc.quick ? '; --quick: figures are a smoke test, not a measurement' : ''}`);
    out.push(table([
      ['batch', 'per message', 'checks/s', 'min', 'max', 'vs best'],
      ...s.rows.map((r) => [int(r.batch_size), int(r.message_records), int(r.checks_per_second), int(r.checks_per_second_min),
        int(r.checks_per_second_max), `${((r.checks_per_second / best - 1) * 100).toFixed(1)}%`]),
    ], [6, 11, 9, 9, 9, 7]));
    const noisy = s.max_spread > NOISY_SPREAD;
    const caveat = doc.quick ? '; from a smoke test only: a full run (--rounds 5 or more, on an idle machine) decides'
      : noisy ? '; uncertain: the rounds were noisy (see the warning below)' : '';
    out.push(`recommended default: ${int(s.recommended_batch_size)} (smallest size within ${s.tolerance * 100}% of ` +
      `the best median; current DEFAULT_BATCH_SIZE ${int(s.current_default_batch_size)})${caveat}`);
    if (noisy) {
      out.push(`WARNING: noisy machine: the rounds of one size differed by up to ${s.max_spread.toFixed(2)}x, far more than ` +
        `the ${s.tolerance * 100}% tolerance; the recommendation is uncertain (rerun on an idle machine, or with more --rounds)`);
    }
  }
  if (doc.latency) {
    const l = doc.latency;
    const stretched = [...new Set(l.rows.filter((r) => r.duration_seconds > l.duration_seconds)
      .map((r) => `${r.arrival} ${r.rate_name} ${+r.duration_seconds.toFixed(2)} s`))];
    out.push('', `latency, arrival to verdict: ${l.duration_seconds} s per scenario` +
      (stretched.length ? ` (longer for ${l.min_expected_arrivals} expected arrivals: ${stretched.join(', ')})` : '') +
      `, max batch ${int(l.max_batch)}, fill timeout ${l.fill_timeout_ms} ms, bursts of ${l.burst_size}; ` +
      `heavy = ${l.heavy_factor} x one worker's measured ${int(l.worker_capacity)} checks/s` +
      (doc.quick ? '; --quick: figures are a smoke test, not a measurement' : ''));
    out.push(table([
      ['arrival', 'rate', '/s', 'policy', 'checks', 'p50 ms', 'p99 ms', 'max ms', 'mean batch', 'batches', 'full/timeout/flush', 'done/s'],
      ...l.rows.map((r) => [r.arrival, r.rate_name, int(r.rate), r.policy, ...(r.checks === 0 ? [noArrivals(r)] : [
        int(r.checks), ms(r.p50_ms), ms(r.p99_ms), ms(r.max_ms), oneDecimal(r.mean_batch), int(r.batches),
        `${int(r.by_cause.full)}/${int(r.by_cause.timeout)}/${int(r.by_cause.flush)}`, int(r.achieved_rate)])]),
    ], [7, 6, 6, 15, 7, 7, 7, 7, 10, 7, 18, 7]));
  }
  const problems = problemsOf(doc);
  if (doc.blocks_failed.length) out.push('', `blocks that failed to validate (left out): ${doc.blocks_failed.join('; ')}`);
  if (problems.length) out.push('', ...problems.map((p) => `ERROR: ${p}`));
  return `${out.join('\n')}\n`;
}

async function main() {
  let options;
  try {
    options = parsePoolBenchOptions(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`pool-bench: ${err.message} (node bench/pool/pool-bench.mjs --help for usage)\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const log = (msg) => process.stderr.write(`[pool-bench] ${msg}\n`);
  let doc;
  try {
    doc = await runPoolBench(options, log);
  } catch (err) {
    log(`error: ${err?.message ?? err}`);
    return 1;
  }
  const problems = problemsOf(doc);
  process.stdout.write(options.json ? `${JSON.stringify({ ...doc, problems }, null, 1)}\n` : formatPoolBench(doc));
  return problems.length ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('bench/pool/pool-bench.mjs')) {
  process.exitCode = await main();
}
