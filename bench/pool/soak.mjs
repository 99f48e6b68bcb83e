#!/usr/bin/env node
// Soak test (npm run soak): validates the fixture blocks once, then verifies all their final
// checks through the pool over and over for --minutes, with every worker. After a warm-up (the
// first 10% of the time or 30 s, whichever is smaller) it samples the process RSS and each
// worker's wasm memory size periodically, and at the end reports their growth (trend(): the
// peak of the last third of the samples against the peak of the first third) and whether
// every pass's verdicts equal the first pass's.
// Criterion (the 10-minute run): RSS and every worker's wasm memory grow less than 5%, no
// verdict mismatch, no worker replaced. Exit 0 PASS, 1 FAIL (or
// the run failed), 2 bad command line.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { fixturesDir, loadBlocks, readManifest } from '../../blocks-fixtures/loader.mjs';
import { VARIANTS } from '../../wasm/variants.mjs';
import { createPool, DEFAULT_BATCH_SIZE, MAX_BATCH_SIZE, MAX_WORKERS } from '../../workers/pool.mjs';
import { fixtureChecks } from '../shared/fixture-checks.mjs';
import { checkHeights, choiceFlag, numberFlag, parseFlags, UsageError } from '../shared/args.mjs';
import { int } from '../core/format.mjs';

/** Largest accepted growth, in percent, of RSS and of each wasm memory after warm-up. */
export const GROWTH_LIMIT_PERCENT = 5;
/** Warm-up: this fraction of the run, at most WARMUP_MAX_SECONDS. */
const WARMUP_FRACTION = 0.1;
const WARMUP_MAX_SECONDS = 30;
/** Samples taken after warm-up (at most this many, at least one per pass-end after 1 s). */
const SAMPLES = 60;

const USAGE = `usage: npm run soak -- [options]
   or: node bench/pool/soak.mjs [options]

Validates the fixture blocks once, then verifies all their final checks through the pool over
and over until the time is up. After a warm-up (the first 10% of the time or 30 s, whichever is
smaller) it samples the process RSS and each worker's wasm memory, and reports their growth:
the peak of the last third of the samples against the peak of the first third (a collected
heap grows and shrinks between collections; a leak raises the peaks). Also passes, checks
verified, checks/s and verdict mismatches (every pass against the first).

  --minutes M        how long to verify, in minutes (default: 10; fractions allowed)
  --workers N        verify workers, 1..${MAX_WORKERS} (default: available parallelism, ${os.availableParallelism()} here)
  --heights LIST     only these block heights, comma-separated (e.g. 170,553724)
  --fixtures DIR     fixture set (default: $IBD_FIXTURES, else ../shared/blocks-fixtures)
  --variant NAME     wasm build: ${VARIANTS.join(' | ')} (default: simd)
  --batch-size N     checks per worker message (default: ${DEFAULT_BATCH_SIZE})
  --json             one JSON document on stdout (progress on stderr)
  -h, --help         this text

Exit code: 0 PASS (RSS and every worker's wasm memory grew less than ${GROWTH_LIMIT_PERCENT}% after warm-up, every
pass's verdicts equal the first pass's, no worker was replaced); 1 FAIL, or the run failed (a
block failed to validate or is invalid, no wasm build, a worker failed to start); 2 bad command
line (an unknown height included).
The criterion is meant for the full 10-minute run; short runs are noisy.`;

/** Parses the soak's arguments; throws UsageError naming the bad flag. */
export function parseSoakOptions(argv) {
  const { values } = parseFlags(argv, {
    minutes: { type: 'string', default: '10' },
    workers: { type: 'string' },
    heights: { type: 'string' },
    fixtures: { type: 'string' },
    variant: { type: 'string', default: 'simd' },
    'batch-size': { type: 'string' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  // Number.MIN_VALUE: any positive number of minutes (0 is refused).
  const minutes = numberFlag('minutes', values.minutes, { min: Number.MIN_VALUE, integer: false,
    message: (got) => `--minutes must be a positive number, got "${got}"` });
  choiceFlag('variant', values.variant, VARIANTS);
  let heights;
  if (values.heights !== undefined) {
    heights = values.heights.split(',').map((h) => h.trim());
    if (heights.some((h) => !/^\d+$/.test(h))) throw new UsageError(`--heights must be comma-separated block heights, got "${values.heights}"`);
    heights = [...new Set(heights.map(Number))];
  }
  return {
    help: values.help,
    minutes,
    workers: values.workers === undefined ? Math.min(os.availableParallelism(), MAX_WORKERS)
      : numberFlag('workers', values.workers, { min: 1, max: MAX_WORKERS }),
    heights,
    fixtures: values.fixtures,
    variant: values.variant,
    batchSize: values['batch-size'] === undefined ? DEFAULT_BATCH_SIZE
      : numberFlag('batch-size', values['batch-size'], { min: 1, max: MAX_BATCH_SIZE }),
    json: values.json,
  };
}

const growth = (base, end) => (base > 0 && end !== null ? ((end - base) / base) * 100 : null);

/**
 * How a memory size moved over the samples taken after warm-up. A garbage-collected heap
 * breathes (V8 grows and shrinks its heap by tens of MiB between collections), so two single
 * samples tell where in a breath each fell, not whether memory is leaking: the growth compares
 * the peak of the last third of the samples with the peak of the first third, which a leak
 * raises and breathing does not.
 * @param {Array<number|null>} values bytes, in sample order (null: not reported yet)
 * @returns {{after_warmup: number|null, end: number|null, min: number|null, max: number|null,
 *   first_third_peak: number|null, last_third_peak: number|null, growth_percent: number|null}}
 *   bytes; growth_percent = (last_third_peak - first_third_peak) / first_third_peak x 100
 */
export function trend(values) {
  const known = values.filter((v) => v !== null && v !== undefined);
  if (known.length === 0) {
    return { after_warmup: null, end: null, min: null, max: null, first_third_peak: null, last_third_peak: null, growth_percent: null };
  }
  const third = Math.max(1, Math.floor(known.length / 3));
  const first = Math.max(...known.slice(0, third));
  const last = Math.max(...known.slice(-third));
  return {
    after_warmup: known[0],
    end: known.at(-1),
    min: Math.min(...known),
    max: Math.max(...known),
    first_third_peak: first,
    last_third_peak: last,
    growth_percent: growth(first, last),
  };
}

/**
 * Runs the soak.
 * @returns {Promise<object>} the result document (see docs/cli.md / --json): passes,
 *   checks_verified, checks_per_second, rss and wasm_memory (trend(): after_warmup, end, min,
 *   max, first_third_peak, last_third_peak in bytes, growth_percent), samples, mismatches,
 *   replacements, pass, failures.
 */
export async function runSoak(options, log) {
  const dir = fixturesDir(options.fixtures);
  const loaded = await loadBlocks(dir, { heights: options.heights });
  const pool = createPool({ workers: options.workers, variant: options.variant });
  try {
    await pool.ready();
    const { ok, failed, checks, count, verdicts: validationVerdicts } =
      await fixtureChecks(loaded, pool, { log });

    const totalMs = options.minutes * 60_000;
    const warmupMs = Math.min(WARMUP_FRACTION * totalMs, WARMUP_MAX_SECONDS * 1000);
    const sampleEveryMs = Math.max(1000, (totalMs - warmupMs) / SAMPLES);
    log(`soak: verifying ${count.toLocaleString('en-US')} checks of ${ok.length} blocks with ${options.workers} workers ` +
      `for ${(totalMs / 1000).toFixed(1)} s (warm-up ${(warmupMs / 1000).toFixed(1)} s)`);

    let reference = null;
    let mismatches = 0;
    let mismatchedPasses = 0;
    let passes = 0;
    let baseline = null;
    let passesAfterBaseline = 0;
    let nextSample = 0;
    const samples = [];
    const snapshot = (t) => ({ t: t / 1000, rss: process.memoryUsage().rss, wasm: pool.heapBytes });
    const t0 = performance.now();
    let now = t0;
    while (now - t0 < totalMs || baseline === null || passesAfterBaseline === 0) {
      const verdicts = await pool.verify(checks, { batchSize: options.batchSize });
      passes++;
      if (reference === null) {
        reference = verdicts;
        for (let i = 0; i < count; i++) if (verdicts[i] !== validationVerdicts[i]) mismatches++;
        if (mismatches) mismatchedPasses++;
      } else {
        let m = 0;
        for (let i = 0; i < count; i++) if (verdicts[i] !== reference[i]) m++;
        mismatches += m;
        if (m) mismatchedPasses++;
      }
      now = performance.now();
      const t = now - t0;
      if (baseline === null) {
        if (t >= warmupMs) {
          baseline = snapshot(t);
          samples.push(baseline);
          nextSample = t + sampleEveryMs;
          log(`soak: warm-up done after ${passes} passes: RSS ${mb(baseline.rss)}, wasm memory ${workersMb(baseline.wasm)}`);
        }
      } else {
        passesAfterBaseline++;
        if (t >= nextSample) {
          const s = snapshot(t);
          samples.push(s);
          nextSample = t + sampleEveryMs;
          log(`soak: ${s.t.toFixed(0)} s, ${passes} passes: RSS ${mb(s.rss)}, wasm memory ${workersMb(s.wasm)}`);
        }
      }
    }
    const seconds = (performance.now() - t0) / 1000;
    const end = snapshot(seconds * 1000);
    if (samples.at(-1).t !== end.t) samples.push(end);

    const rss = trend(samples.map((s) => s.rss));
    const wasm = end.wasm.map((_, worker) => ({ worker, ...trend(samples.map((s) => s.wasm[worker])) }));
    const failures = [];
    if (failed.length) failures.push(`${failed.length} block(s) failed to validate: ${failed.map((b) => b.error).join('; ')}`);
    const invalid = ok.filter((b) => b.blockValid === false);
    if (invalid.length) {
      failures.push(`${invalid.length} invalid block(s) (Core rejects them): ${invalid.map((b) =>
        `${b.height} ${b.hash}: ${b.verdict.message}`).join('; ')}`);
    }
    if (!(rss.growth_percent < GROWTH_LIMIT_PERCENT)) failures.push(`RSS grew ${pct(rss.growth_percent)} (limit ${GROWTH_LIMIT_PERCENT}%)`);
    for (const w of wasm) {
      if (w.growth_percent !== null && !(w.growth_percent < GROWTH_LIMIT_PERCENT)) {
        failures.push(`worker ${w.worker}'s wasm memory grew ${pct(w.growth_percent)} (limit ${GROWTH_LIMIT_PERCENT}%)`);
      }
    }
    if (mismatches) failures.push(`${mismatches} verdict mismatch(es) in ${mismatchedPasses} pass(es)`);
    if (pool.replacements) failures.push(`${pool.replacements} worker(s) replaced (died or timed out)`);
    return {
      minutes: options.minutes,
      workers: options.workers,
      variant: options.variant,
      batch_size: options.batchSize,
      fixtures: dir,
      blocks: ok.length,
      warmup_seconds: warmupMs / 1000,
      seconds,
      passes,
      checks_per_pass: count,
      checks_verified: passes * count,
      checks_per_second: (passes * count) / seconds,
      rss,
      wasm_memory: wasm,
      growth_limit_percent: GROWTH_LIMIT_PERCENT,
      growth_ok: rss.growth_percent < GROWTH_LIMIT_PERCENT &&
        wasm.every((w) => w.growth_percent === null || w.growth_percent < GROWTH_LIMIT_PERCENT),
      mismatches,
      mismatched_passes: mismatchedPasses,
      replacements: pool.replacements,
      samples,
      pass: failures.length === 0,
      failures,
    };
  } finally {
    await pool.close();
  }
}

const mb = (bytes) => (bytes === null || bytes === undefined ? 'n/a' : `${(bytes / 2 ** 20).toFixed(1)} MiB`);
/** Each worker's wasm memory, named: "worker 0 16.0 MiB, worker 1 19.3 MiB". */
const workersMb = (list) => list.map((bytes, i) => `worker ${i} ${mb(bytes)}`).join(', ');
const pct = (p) => (p === null ? 'n/a' : `${p >= 0 ? '+' : ''}${p.toFixed(2)}%`);

/** The soak's terminal report. */
export function formatSoak(doc) {
  const lines = [
    `soak: ${int(doc.passes)} passes in ${doc.seconds.toFixed(1)} s (warm-up ${doc.warmup_seconds.toFixed(1)} s), ` +
      `${doc.workers} workers, ${doc.variant}, ${doc.blocks} block${doc.blocks === 1 ? '' : 's'}`,
    `checks verified: ${int(doc.checks_verified)} (${int(doc.checks_per_pass)} per pass), ${int(doc.checks_per_second)} checks/s`,
    `RSS: ${mb(doc.rss.after_warmup)} after warm-up, ${mb(doc.rss.end)} at end, ${mb(doc.rss.min)} – ${mb(doc.rss.max)}; ` +
      `peak ${mb(doc.rss.first_third_peak)} in the first third, ${mb(doc.rss.last_third_peak)} in the last (${pct(doc.rss.growth_percent)})`,
    ...doc.wasm_memory.map((w) => `wasm memory, worker ${w.worker}: ${mb(w.after_warmup)} after warm-up, ` +
      `${mb(w.end)} at end; peak ${mb(w.first_third_peak)} in the first third, ${mb(w.last_third_peak)} in the last (${pct(w.growth_percent)})`),
    `verdict mismatches vs first pass: ${int(doc.mismatches)}`,
    `workers replaced: ${int(doc.replacements)}`,
    `growth under ${doc.growth_limit_percent}%: ${doc.growth_ok ? 'PASS' : 'FAIL'}`,
    `soak: ${doc.pass ? 'PASS' : `FAIL (${doc.failures.join('; ')})`}`,
  ];
  return lines.join('\n');
}

async function main() {
  let options;
  try {
    options = parseSoakOptions(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`soak: ${err.message} (node bench/pool/soak.mjs --help for usage)\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const log = (msg) => process.stderr.write(`${msg}\n`);
  let doc;
  try {
    checkHeights(options.heights, readManifest(fixturesDir(options.fixtures)));
    doc = await runSoak(options, log);
  } catch (err) {
    process.stderr.write(`soak: ${err?.message ?? err}\n`);
    return err instanceof UsageError ? 2 : 1;
  }
  process.stdout.write(options.json ? `${JSON.stringify(doc, null, 2)}\n` : `${formatSoak(doc)}\n`);
  return doc.pass ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('bench/pool/soak.mjs')) {
  process.exitCode = await main();
}
