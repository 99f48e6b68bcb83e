#!/usr/bin/env node
// Fuzzing: builds the libFuzzer targets of fuzz/ in build/fuzz (clang, -fsanitize=fuzzer,address,
// undefined, every finding fatal), has ibd_fuzz_seeds (fuzz/seed_corpus.cpp, build/native) write
// their seed corpora from the fixtures and runs each target for a bounded time. `npm test` runs
// it briefly (tests/fuzz.test.mjs); a long run is
//
//   npm run fuzz -- --seconds 3600
//
// Flags and files: `npm run fuzz -- --help` (USAGE below).
//
// Layout under build/fuzz: the CMake build (targets in fuzz/), corpus/<target>/ (seeds named
// seed-*, written fresh each run, plus whatever libFuzzer adds: the corpus grows over runs),
// artifacts/<target>/ (reproducers of findings), logs/<target>.log (libFuzzer's full output).
// The fixtures (../shared/blocks-fixtures or IBD_FIXTURES) are only read.
//
// Exit code: 0 no finding; 1 a crash, leak, timeout or out-of-memory (the reproducer's path, its
// hex and the tail of the log with the stack trace are printed) or a build / set-up failure.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, createWriteStream } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

import { ensureSecp256k1Source } from './secp256k1-source.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUILD = path.join(ROOT, 'build');
const FUZZ = path.join(BUILD, 'fuzz');
const FIXTURES = process.env.IBD_FIXTURES
  ? path.resolve(process.env.IBD_FIXTURES)
  : path.resolve(ROOT, '..', 'shared', 'blocks-fixtures');
const TARGETS = ['block_parser_fuzz', 'script_eval_fuzz'];

const USAGE = `usage: npm run fuzz -- [options]
   or: node scripts/fuzz.mjs [options]

Builds the libFuzzer targets of fuzz/ in build/fuzz (clang with ASan, UBSan and libFuzzer; any
finding is fatal), writes their seed corpora from the fixtures, then runs each target for a
bounded time and reports runs, coverage and any crash, leak, timeout or out-of-memory.

  --seconds N     run time per target, seconds (default: 30)
  --target NAME   only this target: ${TARGETS.join(' | ')} (default: each built one)
  --jobs N        parallel build jobs (default: every core, ${os.availableParallelism()} here)
  -h, --help      this text

Files, under build/fuzz:
  corpus/<target>/    the corpus: seed-* files rewritten from the fixtures each run, plus the
                      inputs libFuzzer added in this and earlier runs (kept: it grows over runs)
  artifacts/<target>/ reproducers of findings
  logs/<target>.log   libFuzzer's full output of the last run
The fixtures (${path.relative(ROOT, FIXTURES) || '.'}, or $IBD_FIXTURES) are only read.

Exit code: 0 no finding; 1 a finding (its reproducer, hex and stack trace are printed) or a build
or set-up failure; 2 bad command line.`;

/** A command-line mistake: one line on stderr, exit 2. */
function usageError(message) {
  process.stderr.write(`[fuzz] error: ${message} (npm run fuzz -- --help for usage)\n`);
  process.exit(2);
}

let opts;
try {
  ({ values: opts } = parseArgs({
    options: {
      seconds: { type: 'string', default: '30' },
      target: { type: 'string' },
      jobs: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: false,
  }));
} catch (err) {
  // parseArgs' messages run on with advice about '--'; the first sentence names the problem.
  usageError(err.message.split(/\.(\s|$)/)[0]);
}
if (opts.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const positiveInteger = (name, text) => {
  if (!/^\d+$/.test(text) || Number(text) < 1) usageError(`--${name} must be a positive integer, got '${text}'`);
  return Number(text);
};
const SECONDS = positiveInteger('seconds', opts.seconds);
if (opts.jobs !== undefined) positiveInteger('jobs', opts.jobs);
if (opts.target && !TARGETS.includes(opts.target)) {
  usageError(`unknown --target '${opts.target}' (known: ${TARGETS.join(', ')})`);
}

const log = (msg) => process.stderr.write(`[fuzz] ${msg}\n`);

function run(cmd, args, { capture = true, env } = {}) {
  const r = spawnSync(cmd, args, {
    cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, env: { ...process.env, ...env },
    stdio: capture ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'],
  });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) {
    throw new Error(`'${cmd} ${args.join(' ')}' failed with exit code ${r.status}\n${r.stdout ?? ''}${r.stderr ?? ''}`);
  }
  return r.stdout;
}

// ---------------------------------------------------------------------------------------------
// Build

/** Parallel build jobs: --jobs, else every core. */
function buildJobs() {
  return opts.jobs ?? String(os.availableParallelism?.() ?? os.cpus().length);
}

function build(secpDir) {
  const jobs = buildJobs();
  const started = Date.now();
  if (!existsSync(path.join(FUZZ, 'CMakeCache.txt'))) {
    log('configuring build/fuzz (clang, ASan + UBSan + libFuzzer)');
    run('cmake', ['-S', ROOT, '-B', FUZZ, '-DIBD_FUZZ=ON', `-DIBD_SECP256K1_DIR=${secpDir}`,
      '-DCMAKE_BUILD_TYPE=Release', '-DCMAKE_C_COMPILER=clang', '-DCMAKE_CXX_COMPILER=clang++']);
  }
  run('cmake', ['--build', FUZZ, '--target', 'ibd_fuzz_targets', '--parallel', jobs]);
  log(`build ok (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

// ---------------------------------------------------------------------------------------------
// Seeds: written by ibd_fuzz_seeds (fuzz/seed_corpus.cpp, a tool of the native build) with the
// engine's own parsers, in the layouts documented at the top of fuzz/block_parser_fuzz.cpp and
// fuzz/script_eval_fuzz.cpp; which seeds, at the top of fuzz/seed_corpus.cpp.

const NATIVE = path.join(BUILD, 'native');
const SEED_TOOL = path.join(NATIVE, 'fuzz', 'ibd_fuzz_seeds');

/** Builds the seed writer in build/native (configured through scripts/setup.mjs when it never was). */
function buildSeedTool() {
  if (!existsSync(path.join(NATIVE, 'CMakeCache.txt'))) {
    run(process.execPath, [path.join(ROOT, 'scripts', 'setup.mjs'), '--quiet', '--only', 'native'], { capture: false });
  }
  run('cmake', ['--build', NATIVE, '--target', 'ibd_fuzz_seeds', '--parallel', buildJobs()]);
}

/** Rewrites the seed-* files of `target`'s corpus (the tool removes the old ones first; the
 *  inputs libFuzzer added stay) and returns the folder and the number of seeds. */
function writeSeeds(target) {
  const dir = path.join(FUZZ, 'corpus', target);
  const r = spawnSync(SEED_TOOL, [target, dir], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.error) throw new Error(`${SEED_TOOL}: ${r.error.message}`);
  for (const line of r.stderr.split('\n').filter(Boolean)) log(line.replace(/^ibd_fuzz_seeds: /, ''));
  if (r.status !== 0) throw new Error(`ibd_fuzz_seeds ${target} failed with exit code ${r.status}`);
  const m = r.stdout.match(/^(\d+) seeds written to /);
  if (!m) throw new Error(`ibd_fuzz_seeds ${target} printed no seed count: ${r.stdout}`);
  return { dir, count: Number(m[1]) };
}

// ---------------------------------------------------------------------------------------------
// Run

function runTarget(target, seconds) {
  const exe = path.join(FUZZ, 'fuzz', target);
  const artifacts = path.join(FUZZ, 'artifacts', target);
  const logs = path.join(FUZZ, 'logs');
  mkdirSync(artifacts, { recursive: true });
  mkdirSync(logs, { recursive: true });
  const { dir, count } = writeSeeds(target);
  const filesBefore = readdirSync(dir).length;
  log(`${target}: ${seconds} s; corpus ${path.relative(ROOT, dir)}: ${count} seeds + ${filesBefore - count} files found earlier`);
  const logFile = path.join(logs, `${target}.log`);
  const args = [
    `-max_total_time=${seconds}`, '-timeout=10', '-rss_limit_mb=2048', `-artifact_prefix=${artifacts}/`,
    '-print_final_stats=1', dir,
  ];
  return new Promise((resolve) => {
    const out = createWriteStream(logFile);
    let text = '';
    // Past max_total_time libFuzzer stops at the next unit; a hung unit is its own -timeout.
    // This outer limit only guards against libFuzzer itself not stopping.
    const child = spawn(exe, args, {
      cwd: FUZZ, stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=1:abort_on_error=0', UBSAN_OPTIONS: 'print_stacktrace=1' },
    });
    const guard = setTimeout(() => child.kill('SIGKILL'), (seconds + 120) * 1000);
    const take = (chunk) => { out.write(chunk); text += chunk; if (text.length > 4e6) text = text.slice(-2e6); };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      out.end();
      const done = text.match(/^Done (\d+) runs in (\d+) second.*$/m);
      const cov = [...text.matchAll(/^#\d+\s+\w+\s+cov: (\d+) ft: (\d+) corp: (\d+)/gm)].pop();
      const reproducer = text.match(/Test unit written to (\S+)/)?.[1] ?? null;
      const filesAfter = existsSync(dir) ? readdirSync(dir).length : 0;
      resolve({ target, code: code ?? 1, signal, runs: done ? Number(done[1]) : 0, done: done?.[0] ?? null,
        cov: cov ? { edges: Number(cov[1]), features: Number(cov[2]), corpus: Number(cov[3]) } : null,
        corpus: { dir, before: filesBefore, after: filesAfter }, reproducer, text, logFile });
    });
  });
}

function report(r) {
  const rel = (p) => path.relative(ROOT, p);
  if (r.code === 0 && r.done) {
    const cov = r.cov ? `, cov ${r.cov.edges} edges, ${r.cov.features} features` : '';
    log(`${r.target}: ${r.done}${cov}; no crash, leak or timeout (log ${rel(r.logFile)})`);
    // libFuzzer's own "corp: N" is its in-memory working set: the inputs it kept because they add
    // coverage; the files it skipped stay on disk, so N is far below the file count.
    const added = r.corpus.after - r.corpus.before;
    log(`${r.target}: corpus ${rel(r.corpus.dir)} now ${r.corpus.after} files (${added >= 0 ? '+' : ''}${added} this run)` +
      (r.cov ? `; libFuzzer's in-memory working set ("corp") is the ${r.cov.corpus} of them that add coverage` : ''));
    return true;
  }
  const lines = r.text.split('\n');
  const from = Math.max(0, lines.findIndex((l) => /^==\d+==ERROR|runtime error|^==\d+== ERROR|ALARM|out-of-memory|deadly signal/.test(l)));
  log(`${r.target}: FAILED (exit code ${r.code}${r.signal ? `, signal ${r.signal}` : ''})`);
  process.stderr.write(`${lines.slice(from, from + 80).join('\n')}\n`);
  if (r.reproducer) {
    const bytes = readFileSync(r.reproducer);
    log(`reproducer: ${r.reproducer} (${bytes.length} bytes)`);
    log(`reproducer hex${bytes.length > 4096 ? ' (first 4096 bytes)' : ''}: ${bytes.subarray(0, 4096).toString('hex')}`);
    log(`rerun: ${rel(path.join(FUZZ, 'fuzz', r.target))} ${r.reproducer}`);
  }
  log(`full log: ${rel(r.logFile)}`);
  return false;
}

async function main() {
  // Debian packages (clang, libclang-rt-14-dev: installed when root, else named) and the
  // libsecp256k1 source; of the native build only the seed writer is needed, the wasm build not.
  run(process.execPath, [path.join(ROOT, 'scripts', 'setup.mjs'), '--quiet', '--skip-build'], { capture: false });
  const secpDir = await ensureSecp256k1Source(path.join(BUILD, 'deps'), () => {});
  build(secpDir);
  buildSeedTool();
  const built = TARGETS.filter((t) => existsSync(path.join(FUZZ, 'fuzz', t)));
  if (!existsSync(path.join(ROOT, 'native', 'script', 'interpreter.cpp'))) {
    log('script_eval_fuzz not built: native/script/interpreter.cpp does not exist yet');
  }
  const targets = opts.target ? [opts.target] : built;
  for (const t of targets) {
    if (!built.includes(t)) throw new Error(`${t} was not built (see fuzz/CMakeLists.txt)`);
  }
  let ok = true;
  for (const t of targets) {
    const r = await runTarget(t, SECONDS);
    ok = report(r) && ok;
  }
  process.exit(ok ? 0 : 1);
}

main().catch((err) => {
  log(`error: ${err.message}`);
  process.exit(1);
});
