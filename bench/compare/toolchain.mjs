#!/usr/bin/env node
// Toolchain A/B on whole blocks: the same engine source built several ways (C++ exception
// handling, a newer wasm-opt over the linked module, another Emscripten), each build validating
// the fixture blocks end to end in one wasm instance on this thread (the whole-block contender of
// `npm run bench`, bench/compare/blocks/wasm-blocks.mjs), the builds interleaved round by round in
// one run (block by block), per variant. It measured the choices written beside the flags in wasm/CMakeLists.txt.
// With --checks TYPE, the same A/B on signature verification alone: the fixture blocks' final
// checks of TYPE (ecdsa or schnorr, as `npm run bench` times them) through each build's
// verifyBatch, --batch records per call (default 256), interleaved slice by slice; each build's
// verdicts must equal the validation's. It measured the recurring-key tables (docs/performance.md).
//
//   node bench/compare/toolchain.mjs [--rounds N] [--quick] [--variant simd|scalar] [--builds a,b]
//                                    [--checks ecdsa|schnorr [--batch N]] [--json]
//
// The builds (BUILDS; the first one given is the baseline of the ratios):
//   js-eh            -DIBD_WASM_EXCEPTIONS=js into build/wasm-eh-js (built when missing, else brought up to date)
//   wasm-eh          -DIBD_WASM_EXCEPTIONS=wasm into build/wasm-eh-wasm (built when missing, else brought up to date)
//   js-eh+opt132     js-eh's .wasm run once more through binaryen 132's wasm-opt -O3 (npm package
//   wasm-eh+opt132   binaryen, node_modules/.bin/wasm-opt: `npm install --no-save binaryen@132.0.0`),
//                    written to build/wasm-eh-*-opt132
//   emcc-3.1.69      build/wasm-emcc-3.1.69, if present: the same source built by Debian trixie's
//                    emscripten inside a chroot (docs/build.md, "Measuring another Emscripten");
//                    never built by this script
//   wasm-eh+lto      wasm-eh with -DIBD_WASM_LTO=ON (-flto) into build/wasm-eh-wasm-lto (built when
//                    missing, else brought up to date; not a default build: --builds
//                    wasm-eh,wasm-eh+lto --variant simd)
//   tables-shipped   wasm EH, libsecp256k1's tables of multiples of G linked from the library
//   tables-computed  (-DIBD_WASM_ECMULT_TABLES=shipped) or computed at start (=computed, the
//                    default) into build/wasm-tables-*; not default builds (bench/compare/startup-ab.mjs
//                    times their start-up)
//   dynamic-execution  Embind's wrappers generated with new Function, emcc's default
//                    (-DIBD_WASM_DYNAMIC_EXECUTION=ON) instead of closures (the shipped
//                    -sDYNAMIC_EXECUTION=0), into build/wasm-dynamic-execution
//   dir:PATH         another checkout's wasm build (PATH: its build/wasm), e.g. an earlier commit
//                    in a git worktree built with scripts/setup.mjs --only wasm: two commits A/B
//   tables-start15   computed, all of them at start (-DIBD_WASM_ECMULT_START_WINDOW=15) instead of
//                    window 12 first (the default), into build/wasm-tables-start15
// Every figure is warm: each build first makes one untimed pass (cold) and untimed passes for
// WASM_PRIME_SECONDS (V8 tiers wasm up to TurboFan), then the timed rounds. Verdicts must be
// identical across builds (a difference is listed and the exit code is 1).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { fixturesDir, loadBlocks } from '../../blocks-fixtures/loader.mjs';
import { BUILD_DIR, REPO_ROOT } from '../../wasm/paths.mjs';
import { VARIANTS } from '../../wasm/variants.mjs';
import { median } from '../core/verify-passes.mjs';
import { choiceFlag, numberFlag, parseFlags, UsageError } from '../shared/args.mjs';
import { createBatchVerifier } from '../../wasm/batch-verifier.mjs';
import { concatChecks, walkChecks } from '../../wasm/check-buffer.mjs';
import { loadEngine } from '../../wasm/engine.mjs';
import { wasmPass } from '../core/wasm-pass.mjs';
import { createWasmBlockRunner } from './blocks/wasm-blocks.mjs';
import { loadCheckSets } from './compare-checks.mjs';
import { ensureWasmBuild } from './size.mjs';
import { QUICK_HEIGHTS, WASM_PRIME_SECONDS } from './whole-block.mjs';

/** binaryen's wasm-opt from npm: measured, not adopted (wasm/CMakeLists.txt), so not a dependency;
 *  `npm install --no-save binaryen@132.0.0` puts it here for a re-measurement. */
export const NPM_WASM_OPT = path.join(REPO_ROOT, 'node_modules', '.bin', 'wasm-opt');

/**
 * wasm-opt's features per variant and exception handling. emcc 3.1.6 strips the
 * target_features section, so they are stated: the MVP plus mutable globals (what emcc 3.1.6
 * emits by default), SIMD for 'simd', the exception-handling proposal for wasm EH. Stating them
 * keeps wasm-opt from introducing instructions (bulk memory, sign extension, ...) that the
 * variant's target engines may lack.
 */
export function wasmOptFeatures(variant, eh) {
  return ['--mvp-features', '--enable-mutable-globals',
    ...(variant === 'simd' ? ['--enable-simd'] : []), ...(eh === 'wasm' ? ['--enable-exception-handling'] : [])];
}

/** The contenders this script knows, by name. */
export const BUILDS = {
  'js-eh': { dir: path.join(BUILD_DIR, 'wasm-eh-js'), eh: 'js', make: 'cmake' },
  'wasm-eh': { dir: path.join(BUILD_DIR, 'wasm-eh-wasm'), eh: 'wasm', make: 'cmake' },
  'js-eh+opt132': { dir: path.join(BUILD_DIR, 'wasm-eh-js-opt132'), eh: 'js', make: 'wasm-opt', from: 'js-eh' },
  'wasm-eh+opt132': { dir: path.join(BUILD_DIR, 'wasm-eh-wasm-opt132'), eh: 'wasm', make: 'wasm-opt', from: 'wasm-eh' },
  'emcc-3.1.69': { dir: path.join(BUILD_DIR, 'wasm-emcc-3.1.69'), eh: null, make: 'present' },
  'wasm-eh+lto': { dir: path.join(BUILD_DIR, 'wasm-eh-wasm-lto'), eh: 'wasm', make: 'cmake', defines: { IBD_WASM_LTO: 'ON' } },
  // libsecp256k1's tables of multiples of G linked from src/precomputed_ecmult.c (1 MiB of the
  // .wasm) or computed at start (the shipped default): --builds tables-shipped,tables-computed.
  'tables-shipped': { dir: path.join(BUILD_DIR, 'wasm-tables-shipped'), eh: 'wasm', make: 'cmake', defines: { IBD_WASM_ECMULT_TABLES: 'shipped' } },
  'tables-computed': { dir: path.join(BUILD_DIR, 'wasm-tables-computed'), eh: 'wasm', make: 'cmake', defines: { IBD_WASM_ECMULT_TABLES: 'computed' } },
  // Computed tables all at start (window 15), as before they grew from window 12 (the default):
  // --builds tables-start15,tables-computed.
  // Embind's wrappers generated with new Function, emcc's default, instead of closures
  // (-sDYNAMIC_EXECUTION=0, the shipped build): --builds dynamic-execution,tables-computed.
  'dynamic-execution': { dir: path.join(BUILD_DIR, 'wasm-dynamic-execution'), eh: 'wasm', make: 'cmake', defines: { IBD_WASM_DYNAMIC_EXECUTION: 'ON' } },
  'tables-start15': { dir: path.join(BUILD_DIR, 'wasm-tables-start15'), eh: 'wasm', make: 'cmake', defines: { IBD_WASM_ECMULT_TABLES: 'computed', IBD_WASM_ECMULT_START_WINDOW: '15' } },
};
const DEFAULT_BUILDS = ['js-eh', 'wasm-eh', 'js-eh+opt132', 'wasm-eh+opt132', 'emcc-3.1.69'];

/** The build `name` names: one of BUILDS, or dir:PATH, the wasm build of another checkout of
 *  this repository (e.g. a git worktree of an earlier commit, built there with node
 *  scripts/setup.mjs --only wasm: PATH its build/wasm), never built here: an A/B of two commits'
 *  engines in one run. */
function buildOf(name) {
  if (name in BUILDS) return BUILDS[name];
  if (name.startsWith('dir:') && name.length > 4) return { dir: path.resolve(name.slice(4)), eh: null, make: 'present' };
  return undefined;
}

const USAGE = `usage: node bench/compare/toolchain.mjs [options]

Whole-block validation (every fixture block, one wasm instance, one core, warm) of the engine
built several ways, interleaved round by round, per variant: ${Object.keys(BUILDS).join(', ')}.
  --builds a,b,...   the builds, baseline first (default ${DEFAULT_BUILDS.join(',')};
                     emcc-3.1.69 only when build/wasm-emcc-3.1.69 exists; dir:PATH another
                     checkout's build/wasm, e.g. an earlier commit's in a git worktree)
  --variant V        simd or scalar (default: both)
  --rounds N         timed rounds (default 7; --quick 3)
  --quick            blocks ${QUICK_HEIGHTS.join(', ')} only
  --checks TYPE      signature verification alone instead of whole blocks: the fixture blocks'
                     final checks of TYPE (ecdsa or schnorr) through each build's verifyBatch
  --batch N          with --checks: records per verifyBatch call (default 256)
  --json             one JSON document on stdout
  --help             this text`;

function runTool(cmd, args, what) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
  if (r.error || r.status !== 0) throw new Error(`${what} failed (${cmd} ${args.join(' ')}): ${r.error?.message ?? r.stderr.slice(-2000)}`);
  return r.stdout;
}

/**
 * Makes build `name` of `variants`, or brings it up to date: cmake builds are rebuilt from the
 * current sources (incrementally), a wasm-opt post-pass is redone when its input .wasm is newer.
 * @returns {string|null} why the build is not there (null when it is)
 */
export function ensureBuild(name, variants, log) {
  const b = buildOf(name);
  const have = () => variants.every((v) => existsSync(path.join(b.dir, `ibd-${v}.wasm`)));
  if (b.make === 'cmake') { // ensureWasmBuild builds what changed, the browser glue included
    ensureWasmBuild({ dir: b.dir, defines: { IBD_WASM_EXCEPTIONS: b.eh, ...b.defines },
      what: `${b.eh} exception handling${b.defines ? ` and ${Object.entries(b.defines).map(([k, v]) => `${k}=${v}`).join(' ')}` : ''}` }, log);
    return null;
  }
  if (b.make === 'present') return have() ? null : `${name.startsWith('dir:') ? b.dir : path.relative(REPO_ROOT, b.dir)} not built (${name.startsWith('dir:') ? 'build that checkout first: node scripts/setup.mjs --only wasm' : 'docs/build.md, "Measuring another Emscripten"'})`;
  if (!existsSync(NPM_WASM_OPT)) return `${path.relative(REPO_ROOT, NPM_WASM_OPT)} missing (npm install --no-save binaryen@132.0.0)`;
  const why = ensureBuild(b.from, variants, log);
  if (why) return why;
  const from = BUILDS[b.from].dir;
  const mtime = (f) => statSync(f).mtimeMs;
  if (have() && variants.every((v) => mtime(path.join(b.dir, `ibd-${v}.wasm`)) >= mtime(path.join(from, `ibd-${v}.wasm`)))) return null;
  const version = runTool(NPM_WASM_OPT, ['--version'], 'wasm-opt --version').trim();
  mkdirSync(b.dir, { recursive: true });
  for (const v of variants) {
    log(`${name}: ${version} -O3 over ${path.relative(REPO_ROOT, from)}/ibd-${v}.wasm`);
    runTool(NPM_WASM_OPT, [...wasmOptFeatures(v, b.eh), '-O3', path.join(from, `ibd-${v}.wasm`), '-o', path.join(b.dir, `ibd-${v}.wasm`)], 'wasm-opt');
    copyFileSync(path.join(from, `ibd-${v}.js`), path.join(b.dir, `ibd-${v}.js`));
  }
  copyFileSync(path.join(from, 'package.json'), path.join(b.dir, 'package.json'));
  return null;
}

/** Records per slice of a --checks set: the unit the builds are interleaved by (about 80 ms of
 *  ECDSA verification on the development VM). */
const CHECK_SLICE_RECORDS = 1024;

/**
 * A check set cut into slices of whole batches, in order.
 * @param {{checks: Uint8Array, walked: object}} set one type's checks (loadCheckSets)
 * @param {number} batch records per verifyBatch call
 * @returns {Array<{checks: Uint8Array, walked: object}>}
 */
function sliceChecks(set, batch) {
  const per = Math.max(batch, Math.floor(CHECK_SLICE_RECORDS / batch) * batch);
  const slices = [];
  for (let first = 0; first < set.walked.count; first += per) {
    const end = Math.min(set.walked.count, first + per);
    const checks = concatChecks([set.checks.subarray(set.walked.offsets[first], set.walked.offsets[end])]);
    slices.push({ checks, walked: walkChecks(checks) });
  }
  return slices;
}

/** The validation's verdicts of slice i of a --checks set, hex: what every build must give. */
const expectedOf = (work, i) => Buffer.from(work.expected.subarray(i * work.sliceRecords, i * work.sliceRecords + work.slices[i].walked.count)).toString('hex');

/**
 * The contender of one build for the work: whole blocks (createWasmBlockRunner's pass per
 * block) or a check set's slices (verifyBatch, `work.batch` records per call).
 * @returns {Promise<{verdicts: () => string[], time: (i: number) => number, dispose: () => void}>}
 *   verdicts: one string per unit (a block's verdict or error, a slice's verdict bytes, hex);
 *   time(i): one timed pass over unit i, s
 */
async function contenderOf(variant, dir, work) {
  if (work.kind === 'blocks') {
    const runner = await createWasmBlockRunner(variant, { dir });
    return {
      verdicts: () => runner.pass(work.blocks).blocks.map((e) => JSON.stringify(e.verdict ?? e.error)),
      time: (i) => runner.pass([work.blocks[i]]).seconds,
      dispose: () => runner.dispose(),
    };
  }
  const verifier = createBatchVerifier(await loadEngine(variant, { dir }));
  const pass = (i) => wasmPass(verifier, work.slices[i], work.batch);
  const hex = (v) => Buffer.from(v).toString('hex');
  return {
    verdicts: () => work.slices.map((_, i) => hex(pass(i).verdicts)),
    // Every timed pass's verdicts are checked too (after its clock stops): the key cache carries
    // over between passes, so a fault that shows only once it is warm is caught.
    time: (i) => {
      const p = pass(i);
      if (hex(p.verdicts) !== expectedOf(work, i)) work.timedDisagreements.add(`${unitName(work, i)} in a timed pass`);
      return p.seconds;
    },
    dispose: () => verifier.dispose(),
  };
}

/** What unit i of the work is called in a disagreement. */
const unitName = (work, i) => (work.kind === 'blocks' ? `block ${work.blocks[i].height}`
  : `${work.type} checks ${i * work.sliceRecords}-${Math.min(work.count, (i + 1) * work.sliceRecords) - 1}`);

/**
 * Runs the rounds for one variant.
 * @returns {Promise<{variant, builds: [{name, dir, wasm_bytes, wasm_gzip_bytes, cold_s,
 *   seconds: number[] (each round's pass, wall clock, s), seconds_median, x_baseline_median,
 *   x_baseline_min, x_baseline_max (baseline's round time / this build's, same round),
 *   cpu_seconds, cpu_seconds_median, x_baseline_cpu_* (the same from the process's CPU time,
 *   user + system, every thread: what other processes on the machine disturb least)}],
 *   disagreements: string[]}>}
 */
async function runVariant(variant, names, work, rounds, log) {
  const runners = [];
  const units = work.kind === 'blocks' ? work.blocks.length : work.slices.length;
  for (const name of names) {
    const dir = buildOf(name).dir;
    const runner = await contenderOf(variant, dir, work);
    const wasm = readFileSync(path.join(dir, `ibd-${variant}.wasm`));
    runners.push({ name, dir, runner, seconds: [], cpu_seconds: [], verdicts: null, wasm_bytes: wasm.length, wasm_gzip_bytes: gzipSync(wasm, { level: 9 }).length });
  }
  const disagreements = [];
  try {
    for (const c of runners) {
      const t0 = performance.now();
      c.verdicts = c.runner.verdicts();
      c.cold_s = (performance.now() - t0) / 1000;
      for (const t1 = performance.now(); performance.now() - t1 < WASM_PRIME_SECONDS * 1000;) c.runner.verdicts();
    }
    for (const c of runners.slice(1)) {
      c.verdicts.forEach((v, i) => {
        if (v !== runners[0].verdicts[i]) disagreements.push(`${variant} ${c.name} ${unitName(work, i)}: ${v} vs ${runners[0].name}: ${runners[0].verdicts[i]}`);
      });
    }
    if (work.kind === 'checks') { // and every build's verdicts are the validation's
      for (const c of runners) {
        c.verdicts.forEach((v, i) => {
          if (v !== expectedOf(work, i)) disagreements.push(`${variant} ${c.name} ${unitName(work, i)}: ${v} vs the validation's ${expectedOf(work, i)}`);
        });
      }
      work.timedDisagreements = new Set();
    }
    for (let r = 0; r < rounds; r++) {
      // Interleaved unit by unit (block, or slice of checks), the builds' order rotating each
      // round: on a loaded machine the builds being compared then see the same load within
      // milliseconds of each other.
      const order = runners.map((_, i) => runners[(i + r) % runners.length]);
      for (const c of runners) c.seconds.push(0), c.cpu_seconds.push(0);
      for (let u = 0; u < units; u++) {
        for (const c of order) {
          const cpu0 = process.cpuUsage();
          c.seconds[r] += c.runner.time(u);
          const cpu = process.cpuUsage(cpu0);
          c.cpu_seconds[r] += (cpu.user + cpu.system) / 1e6;
        }
      }
      log(`${variant} round ${r + 1}/${rounds}: ${runners.map((c) => `${c.name} ${c.seconds[r].toFixed(3)} s`).join(', ')}`);
    }
    for (const d of work.timedDisagreements ?? []) disagreements.push(`${variant}: ${d}: verdicts differ from the validation's`);
  } finally {
    for (const c of runners) c.runner.dispose();
  }
  const base = runners[0];
  return {
    variant,
    builds: runners.map((c) => {
      const x = c.seconds.map((s, r) => base.seconds[r] / s);
      const xCpu = c.cpu_seconds.map((s, r) => base.cpu_seconds[r] / s);
      return {
        name: c.name, dir: path.relative(REPO_ROOT, c.dir), wasm_bytes: c.wasm_bytes, wasm_gzip_bytes: c.wasm_gzip_bytes,
        cold_s: c.cold_s, seconds: c.seconds, seconds_median: median(c.seconds),
        x_baseline_median: median(x), x_baseline_min: Math.min(...x), x_baseline_max: Math.max(...x),
        cpu_seconds: c.cpu_seconds, cpu_seconds_median: median(c.cpu_seconds),
        x_baseline_cpu_median: median(xCpu), x_baseline_cpu_min: Math.min(...xCpu), x_baseline_cpu_max: Math.max(...xCpu),
      };
    }),
    disagreements,
  };
}

function format(doc) {
  const what = doc.checks
    ? `verifyBatch over the fixture blocks' ${doc.checks.count.toLocaleString('en-US')} final ${doc.checks.type} checks, ${doc.checks.batch} per call`
    : `whole-block validation, ${doc.blocks.length} blocks (${doc.mode})`;
  const lines = [`${what}, ${doc.rounds} rounds, one core, warm; x = ${doc.baseline}'s time / the build's, same round (median, min-max); wall: wall-clock time, cpu: this process's CPU time (user + system, every thread), the steadier one on a loaded machine`];
  for (const v of doc.variants) {
    lines.push('', `${v.variant}:`);
    for (const b of v.builds) {
      const perCheck = doc.checks ? `  ${((b.seconds_median / doc.checks.count) * 1e6).toFixed(2)} us/check` : '';
      lines.push(`  ${b.name.padEnd(16)} wall ${b.seconds_median.toFixed(3)} s${perCheck}  x ${b.x_baseline_median.toFixed(3)} (${b.x_baseline_min.toFixed(3)}-${b.x_baseline_max.toFixed(3)})  ` +
        `cpu ${b.cpu_seconds_median.toFixed(3)} s  x ${b.x_baseline_cpu_median.toFixed(3)} (${b.x_baseline_cpu_min.toFixed(3)}-${b.x_baseline_cpu_max.toFixed(3)})  ` +
        `cold ${b.cold_s.toFixed(2)} s  wasm ${b.wasm_bytes} B, gzip ${b.wasm_gzip_bytes} B`);
    }
    for (const d of v.disagreements) lines.push(`  !!! VERDICT DIFFERS: ${d}`);
  }
  for (const s of doc.skipped) lines.push(`skipped ${s.name}: ${s.reason}`);
  return lines.join('\n');
}

async function main() {
  let values;
  try {
    ({ values } = parseFlags(process.argv.slice(2), {
      builds: { type: 'string' }, variant: { type: 'string' }, rounds: { type: 'string' },
      quick: { type: 'boolean', default: false }, json: { type: 'boolean', default: false }, help: { type: 'boolean', default: false },
      checks: { type: 'string' }, batch: { type: 'string' },
    }));
    if (values.variant !== undefined) choiceFlag('variant', values.variant, VARIANTS);
    if (values.checks !== undefined) choiceFlag('checks', values.checks, ['ecdsa', 'schnorr']);
    if (values.batch !== undefined && values.checks === undefined) throw new UsageError('--batch needs --checks (whole blocks take no batch size)');
    if (values.checks !== undefined && values.quick) throw new UsageError('--quick picks blocks; with --checks every fixture check of the type is verified');
    values.batch = values.batch === undefined ? 256 : numberFlag('batch', values.batch, { min: 1, max: 65536 });
    values.rounds = values.rounds === undefined ? (values.quick ? 3 : 7) : numberFlag('rounds', values.rounds, { min: 1, max: 1000 });
    values.builds = values.builds?.split(',') ?? null;
    for (const n of values.builds ?? []) if (!buildOf(n)) throw new UsageError(`--builds: unknown build "${n}" (known: ${Object.keys(BUILDS).join(', ')}, or dir:PATH)`);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`toolchain: ${err.message}\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const log = (m) => process.stderr.write(`[toolchain] ${m}\n`);
  const skipped = [];
  const names = [];
  const variants = values.variant ? [values.variant] : VARIANTS;
  for (const n of values.builds ?? DEFAULT_BUILDS) {
    const why = ensureBuild(n, variants, log);
    if (why) skipped.push({ name: n, reason: why });
    else names.push(n);
  }
  // Builds named with --builds are an A/B: one missing leaves nothing to compare it with, and
  // a missing first one would silently change the baseline.
  if (skipped.length && (values.builds || names.length === 0)) {
    process.stderr.write(`toolchain: ${skipped.map((x) => `${x.name}: ${x.reason}`).join('; ')}\n`);
    return 1;
  }
  const dir = fixturesDir();
  const all = (await loadBlocks(dir)).filter((b) => !b.error);
  const blocks = values.quick ? all.filter((b) => QUICK_HEIGHTS.includes(b.height)) : all;
  let work = { kind: 'blocks', blocks };
  let sets = null;
  if (values.checks) {
    sets = await loadCheckSets({ limits: { ecdsa: Infinity, schnorr: Infinity }, log });
    const set = sets.sets[values.checks];
    if (set.walked.count === 0) throw new Error(`the fixture blocks hold no ${values.checks} check`);
    const slices = sliceChecks(set, values.batch);
    work = { kind: 'checks', type: values.checks, batch: values.batch, slices, sliceRecords: slices[0].walked.count, count: set.walked.count, expected: set.verdicts };
  }
  const doc = {
    command: `node bench/compare/toolchain.mjs ${process.argv.slice(2).join(' ')}`.trim(),
    mode: values.quick ? 'quick' : 'full', rounds: values.rounds, baseline: names[0],
    blocks: blocks.map((b) => b.height), checks: work.kind === 'checks' ? { type: work.type, count: work.count, batch: work.batch } : null,
    generated_at: new Date().toISOString(), variants: [], skipped,
  };
  try {
    for (const variant of variants) {
      doc.variants.push(await runVariant(variant, names, work, values.rounds, log));
    }
  } finally {
    sets?.dispose();
  }
  process.stdout.write(values.json ? `${JSON.stringify(doc, null, 2)}\n` : `${format(doc)}\n`);
  return doc.variants.some((v) => v.disagreements.length) ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then((code) => { process.exitCode = code; }, (err) => {
    process.stderr.write(`toolchain: ${err?.stack ?? err}\n`);
    process.exitCode = 1;
  });
}
