#!/usr/bin/env node
// `npm run bench`: ibd-wasm against the native build of the same libsecp256k1 and against every
// peer library, on the same real mainnet checks, in one process, contenders interleaved round
// by round; then the same wasm on other engines (V8 Liftoff only, Chromium), the wasm sizes,
// the start-up times, whole blocks end to end on one core against native and against bcoin
// (bench/compare/whole-block.mjs) and the pre-registered thresholds (bench/compare/thresholds.json).
// Terminal tables by default; --json prints one JSON document on stdout (logs on stderr).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '../../wasm/paths.mjs';
import { numberFlag, parseFlags, UsageError } from '../shared/args.mjs';
import { browserUnavailable, WIDE_ARITHMETIC_JS_FLAG } from '../shared/chromium-launcher.mjs';
import { loadEngine } from '../../wasm/engine.mjs';
import { VARIANTS, WIDE_VARIANT } from '../../wasm/variants.mjs';
import { formatComparison } from './compare-report.mjs';
import { loadCheckSets } from './compare-checks.mjs';
import { measureChromium } from './chromium.mjs';
import { chromiumWorkerContenders } from './browser-contenders.mjs';
import { liftoffPasses } from './engine-liftoff.mjs';
import { machineInfo } from '../shared/machine.mjs';
import { verdictsSha256 } from './native-tool.mjs';
import { writePerformanceSection } from './perf-page.mjs';
import { measureSizes, WINDOW_BUILDS } from './size.mjs';
import { nodeColdStarts, nodeWorkerStartup } from './startup.mjs';
import { rateSummary, runSpeed } from './speed.mjs';
import { evaluateThresholds } from './thresholds.mjs';
import { runWholeBlock } from './whole-block.mjs';
import { median } from '../core/verify-passes.mjs';

const USAGE = `usage: npm run bench -- [options]      (or node bench/compare/compare.mjs [options])

Times ibd-wasm (each wasm variant x batch size, one thread), the native libsecp256k1 build and
the peer libraries on the same real mainnet ECDSA and Schnorr checks, interleaved round by
round; then V8 Liftoff-only and Chromium, wasm sizes, start-up, whole-block validation on one
core (ibd-wasm, native BM_ValidateBlock, bcoin under each crypto backend, verdicts compared;
minutes per full round: bcoin's ECDSA is pure JS), and PASS/FAIL per threshold.
  --rounds N   timed rounds, N >= 5 (default 5; --quick: default 3, any N >= 1)
  --quick      a subset of checks, batch sizes and blocks (whole-block: heights 170, 116928, 553724,
               757739), every part but the window-12 wasm build (a full run builds it; its rows
               show if it is already there), about two minutes
  --json       one JSON document on stdout (through npm: npm run bench --silent -- --json)
  --readme     save it as bench/compare/results/latest.json and rewrite docs/performance.md's generated section
  --help       this text

Exit code: 0 the run completed (whatever the thresholds say: they are reported, never a gate,
and whatever a peer's verdicts say: bcoin's disagreements are printed loudly and listed);
1 a part failed or an ibd-wasm pass disagreed with the validation's verdicts (or, whole-block,
one variant or round with another); 2 bad command line.`;

/** Batch sizes of the full sweep: powers of two, 1..8192 records per verifyBatch call. */
const FULL_BATCHES = Array.from({ length: 14 }, (_, i) => 2 ** i);
/** What each mode measures. Sample sizes are records per type (evenly spaced over all). */
const PLANS = {
  full: { limits: { ecdsa: 8192, schnorr: Infinity }, batchSizes: FULL_BATCHES, engineBatch: 256, engineBatchWide: 2048, buildWindows: true },
  quick: { limits: { ecdsa: 512, schnorr: 128 }, batchSizes: [1, 32, 256, 512], engineBatch: 256, engineBatchWide: 512, buildWindows: false },
};
/** Where --readme saves the document docs/performance.md links to. */
export const LATEST_JSON = path.join(REPO_ROOT, 'bench', 'compare', 'results', 'latest.json');

function parseOptions(argv) {
  const { values } = parseFlags(argv, {
    rounds: { type: 'string' }, quick: { type: 'boolean', default: false }, json: { type: 'boolean', default: false },
    readme: { type: 'boolean', default: false }, help: { type: 'boolean', default: false },
  });
  const min = values.quick ? 1 : 5;
  const rounds = values.rounds === undefined ? (values.quick ? 3 : 5) : numberFlag('rounds', values.rounds, { min, max: 1000,
    message: (got) => `--rounds must be an integer in ${min}..1000${values.quick ? '' : ' (at least 5 outside --quick)'}, got ${JSON.stringify(got)}` });
  return { ...values, rounds };
}

const medianOf = (entries, key) => median(entries.map((e) => e[key]));

/** Per-variant medians of start-up samples ({variant, ...ms fields}). */
function startupSummary(samples, keys) {
  return VARIANTS.filter((v) => samples.some((s) => s.variant === v)).map((variant) => {
    const mine = samples.filter((s) => s.variant === variant);
    return { variant, samples: mine.length, ...Object.fromEntries(keys.map((k) => [k, medianOf(mine, k)])) };
  });
}

/** Engine rows {engine, variant, type, checks, rounds_seconds, sig_per_s (+_min, _max),
 *  verdicts_match} from passes that carry verdicts_match or a verdicts_sha256 to check. */
function engineRows(engine, passes, reference) {
  return passes.map((p) => ({
    engine, variant: p.variant, type: p.type, checks: p.checks, rounds_seconds: p.rounds_seconds,
    ...rateSummary(p.checks, p.rounds_seconds), verdicts_match: p.verdicts_match ?? p.verdicts_sha256 === reference[p.type],
  }));
}

/** Runs one part; a failure is recorded in `errors` and the other parts still run. */
async function part(name, errors, log, fn) {
  log(`${name}...`);
  try {
    return await fn();
  } catch (err) {
    errors.push({ part: name, error: String(err?.message ?? err) });
    log(`${name} failed: ${err?.message ?? err}`);
    return null;
  }
}

/**
 * Runs every part of the benchmark.
 * @param {{quick: boolean, rounds: number}} options
 * @param {(m: string) => void} log progress (stderr)
 * @returns {Promise<object>} the document --json prints. Rates are signatures/s on one core,
 *   times ms unless named `seconds`, sizes bytes:
 *   command, mode ('full'|'quick'), rounds, generated_at (ISO 8601), machine (machine.mjs
 *   machineInfo), engine (the simd build's engineInfo), check_sets {blocks, failed_blocks,
 *   selection, ecdsa: {checks, of}, schnorr: {checks, of}}, batch_sizes, engine_batch_size,
 *   peers [{name, version, backend}],
 *   results: speed (speed.mjs runSpeed rows), skipped [{name, reason}] (contender / type pairs
 *   not measured), engines {v8_default, v8_liftoff, chromium, chromium_worker}: [{engine, variant, type, checks,
 *   rounds_seconds, sig_per_s, sig_per_s_min, sig_per_s_max, verdicts_match}], sizes
 *   (size.mjs measureSizes), startup {node_cold_start: [{variant, samples, read_ms,
 *   compile_ms, instantiate_ms, first_verdict_ms, total_ms}], node_worker_startup:
 *   [{variant, samples, ms}], chromium_cold_start: [{variant, samples, load_ms,
 *   first_verdict_ms, total_ms}], chromium_worker_startup: [{variant, samples, ms}] (the
 *   module compiled by the page and posted, as its pool does), chromium_worker_startup_own_compile:
 *   the worker fetching and compiling it, chromium_worker_startup_cached: that with the HTTP
 *   cache on} (medians),
 *   whole_block (whole-block.mjs runWholeBlock; null when that part failed),
 *   thresholds (thresholds.mjs evaluateThresholds), errors [{part, error}] (parts that could
 *   not run; the others still did), notes [string].
 * @throws (rejects) Error when the check sets cannot be built (no fixtures, no wasm build).
 */
export async function runComparison({ quick, rounds }, log) {
  const plan = quick ? PLANS.quick : PLANS.full;
  const errors = [];
  const sizes = await part('size', errors, log, () => measureSizes({ build: plan.buildWindows, log })) ?? [];
  const loaded = await loadCheckSets({ limits: plan.limits, log });
  try {
    return await measure(plan, rounds, quick, sizes, loaded, errors, log);
  } finally {
    loaded.dispose();
  }
}

/** The parts after the check sets are built (runComparison's document). */
async function measure(plan, rounds, quick, sizes, loaded, errors, log) {
  const { sets } = loaded;
  const reference = { ecdsa: verdictsSha256(sets.ecdsa.verdicts), schnorr: verdictsSha256(sets.schnorr.verdicts) };
  const extraBuilds = WINDOW_BUILDS.slice(1).filter((b) => sizes.some((s) => s.window === b.window && !s.skipped))
    .map((b) => ({ ...b, batchSize: plan.engineBatch }));
  // The wide variant where it runs: a Chromium launched with --wasm-wide-arithmetic (off by
  // default in Chromium 156; Firefox 155 ships it), simd beside it in the same worker, timed in
  // the same rounds as every other contender (browser-contenders.mjs).
  const noBrowser = browserUnavailable();
  const wide = noBrowser ? null : await part('Chromium, wide arithmetic', errors, log, () => chromiumWorkerContenders(sets, {
    variants: ['simd', WIDE_VARIANT], batchSize: plan.engineBatchWide, jsFlags: [WIDE_ARITHMETIC_JS_FLAG], label: 'Chromium Web Worker',
  }));
  let speed;
  try {
    speed = await runSpeed(sets, { rounds, batchSizes: plan.batchSizes, extraBuilds, extra: wide?.contenders ?? [], log });
  } finally {
    await wide?.close();
  }
  if (noBrowser) speed.skipped.push({ name: `ibd-wasm ${WIDE_VARIANT}, Chromium Web Worker`, reason: noBrowser });

  const engines = {
    v8_default: engineRows('V8 default (Liftoff, then TurboFan)', speed.rows
      .filter((r) => r.kind === 'wasm' && r.window === 15 && r.batch_size === plan.engineBatch), reference),
  };
  const files = { ecdsa: sets.ecdsa.file, schnorr: sets.schnorr.file };
  const liftoff = await part('V8 Liftoff only', errors, log, () => liftoffPasses({ variants: VARIANTS, files, batchSize: plan.engineBatch, rounds }));
  if (liftoff) engines.v8_liftoff = engineRows(`V8 ${liftoff.flags.join(' ')}`, liftoff.results, reference);
  const startupRounds = rounds;
  if (noBrowser) speed.skipped.push({ name: 'Chromium', reason: noBrowser });
  const chromium = noBrowser ? null : await part('Chromium', errors, log, () => measureChromium({
    variants: VARIANTS, sets, batchSize: plan.engineBatch, rounds, startupRounds, log,
  }));
  if (chromium) {
    engines.chromium = engineRows(`Chromium ${chromium.browser}`, chromium.speed, reference);
    engines.chromium_worker = engineRows(`Chromium ${chromium.browser}, Web Worker`, chromium.speed_worker, reference);
  }

  const startup = {};
  await part('Node start-up', errors, log, async () => {
    const cold = [];
    const workers = [];
    for (let r = 0; r < startupRounds; r++) {
      for (const variant of VARIANTS) {
        cold.push(...(await nodeColdStarts(variant, sets.ecdsa.file, 1)).map((c) => ({ variant, ...c })));
        workers.push({ variant, ms: await nodeWorkerStartup(variant) });
      }
    }
    startup.node_cold_start = startupSummary(cold, ['read_ms', 'compile_ms', 'instantiate_ms', 'first_verdict_ms', 'total_ms']);
    startup.node_worker_startup = startupSummary(workers, ['ms']);
  });
  if (chromium) {
    startup.chromium_cold_start = startupSummary(chromium.cold_start, ['load_ms', 'first_verdict_ms', 'total_ms']);
    startup.chromium_cold_start_modules = startupSummary(chromium.cold_start_modules, ['load_ms', 'first_verdict_ms', 'total_ms']);
    startup.chromium_worker_startup = startupSummary(chromium.worker_startup, ['ms']);
    startup.chromium_worker_startup_own_compile = startupSummary(chromium.worker_startup_own_compile, ['ms']);
    startup.chromium_worker_startup_cached = startupSummary(chromium.worker_startup_cached, ['ms']);
  }

  // Last: bcoin's pure-JS ECDSA makes it the longest part by far (minutes per full round).
  const wholeBlock = await part('whole-block', errors, log, () => runWholeBlock({ quick, rounds, log }));
  if (wholeBlock) errors.push(...wholeBlock.errors);

  const engineInfo = (await loadEngine('simd')).engineInfo();
  const results = { speed: speed.rows, skipped: speed.skipped, engines, sizes, startup, whole_block: wholeBlock };
  const peers = [...new Map(speed.rows.filter((r) => r.kind === 'peer')
    .map((r) => [r.name, { name: r.name, version: r.version, backend: r.backend }])).values()];
  return {
    command: `npm run bench --${quick ? ' --quick' : ''} --rounds ${rounds}`,
    mode: quick ? 'quick' : 'full',
    rounds,
    generated_at: new Date().toISOString(),
    machine: machineInfo(engineInfo),
    engine: { ...engineInfo },
    check_sets: {
      blocks: loaded.blocks, failed_blocks: loaded.failedBlocks, selection: 'an evenly spaced sample of each type\'s final checks',
      ecdsa: { checks: sets.ecdsa.walked.count, of: loaded.total.ecdsa },
      schnorr: { checks: sets.schnorr.walked.count, of: loaded.total.schnorr },
    },
    batch_sizes: plan.batchSizes,
    engine_batch_size: plan.engineBatch,
    peers,
    results,
    thresholds: evaluateThresholds(results),
    errors,
    notes: [
      'one thread per contender: signatures/s on one core',
      'peers take 64-byte compact ECDSA signatures: the DER signatures were converted first (untimed) with Core\'s lax parser and low-S normalization, as the engine does',
      'whole-block: each block end to end on one core (one wasm instance, one native thread, one bcoin process per crypto backend), warm after an untimed cold pass; the blocks were read from disk and bcoin\'s and ibd-wasm\'s spent outputs decoded from JSON beforehand (untimed: bcoin\'s into coins, ibd-wasm\'s into the binary form that each timed validateBlock and native BM_ValidateBlock decode, as a worker does)',
      ...(quick ? [`--quick: ${sets.ecdsa.walked.count} ECDSA and ${sets.schnorr.walked.count} Schnorr checks, batch sizes ${plan.batchSizes.join(', ')}; figures are a smoke test, not a measurement`] : []),
    ],
  };
}

async function main() {
  let options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`bench: ${err.message}\n${USAGE}\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const log = (m) => process.stderr.write(`[bench] ${m}\n`);
  const doc = await runComparison(options, log);
  if (options.readme) {
    writeFileSync(LATEST_JSON, `${JSON.stringify(doc, null, 2)}\n`);
    writePerformanceSection(doc, LATEST_JSON);
    log(`wrote ${path.relative(REPO_ROOT, LATEST_JSON)} and docs/performance.md`);
  }
  process.stdout.write(options.json ? `${JSON.stringify(doc, null, 2)}\n` : `${formatComparison(doc)}\n`);
  const wasmDisagrees = doc.results.speed.some((r) => r.kind === 'wasm' && !r.verdicts_match) ||
    (doc.results.whole_block?.disagreements ?? []).some((d) => d.contender.startsWith('ibd-wasm'));
  return doc.errors.length || wasmDisagrees ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then((code) => { process.exitCode = code; }, (err) => {
    process.stderr.write(`bench: ${err?.stack ?? err}\n`);
    process.exitCode = 1;
  });
}
