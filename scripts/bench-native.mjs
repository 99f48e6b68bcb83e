#!/usr/bin/env node
// `npm run bench:native`: the native anchor benchmarks (bench/native/, Google Benchmark) on the
// fixture blocks: libsecp256k1 verify per signature directly and through the batch shim at
// batch sizes 1, 16, 256, 4096; sighash per input type; whole-block validation per block. What
// Bitcoin Core's code path costs on this machine, one core, native -O3 build.
//
//   node scripts/bench-native.mjs [--quick] [--json] [--benchmark_<flag>=<value> ...]
//
//   --quick          0.05 s minimum per benchmark (about 15 s in all) instead of Google
//                    Benchmark's 0.5 s (about a minute)
//   --json           Google Benchmark's JSON report on stdout (the machine line goes to stderr)
//   --benchmark_*    passed to the binary as given, after ours (e.g. --benchmark_filter=Sighash,
//                    --benchmark_repetitions=5, --benchmark_min_time=2)
//
// Builds build/native first if it is missing (scripts/setup.mjs --only native), then the two
// targets (a no-op when up to date). Fixtures: IBD_FIXTURES or ../shared/blocks-fixtures.
// Exit status: the binary's (0 ok; 1 fixtures missing or a block failed, see its stderr; 2 an
// unknown --benchmark flag); 1 when the build fails; 2 a bad command line here.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { parseFlags } from '../bench/shared/args.mjs';
import { machineInfo } from '../bench/shared/machine.mjs';
import { NATIVE_BUILD_DIR as BUILD_DIR, NATIVE_TOOLS, REPO_ROOT as ROOT } from '../wasm/paths.mjs';

const NATIVE_BENCH = NATIVE_TOOLS.bench;

const USAGE = `usage: node scripts/bench-native.mjs [--quick] [--json] [--benchmark_<flag>=<value> ...]
  --quick        0.05 s minimum per benchmark (about 15 s in all; default: 0.5 s, about a minute)
  --json         Google Benchmark's JSON report on stdout
  --benchmark_*  passed to ibd_native_bench (e.g. --benchmark_filter=Sighash --benchmark_repetitions=5)`;

/** Minimum time per benchmark with --quick, seconds (Google Benchmark 1.7 takes plain seconds). */
const QUICK_MIN_TIME = 0.05;

/**
 * Makes sure native benchmark tools are built: configures and builds build/native through
 * scripts/setup.mjs when it has never been configured, then builds `targets` (default: the two
 * of `npm run bench:native`; bench/quadratic/ asks for ibd_quadratic).
 * @param {string[]} [targets] CMake targets of build/native
 * @throws Error with the build output when a step fails, or naming libbenchmark-dev when the
 *   build succeeded without the benchmark suite (CMake found no Google Benchmark).
 */
export function ensureNativeTools(targets = ['ibd_native_bench', 'ibd_verify_checks']) {
  const step = (cmd, args) => {
    const r = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
    if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
    if (r.status !== 0) throw new Error(`'${cmd} ${args.join(' ')}' failed (exit ${r.status})\n${r.stdout}${r.stderr}`);
  };
  if (!existsSync(path.join(BUILD_DIR, 'CMakeCache.txt'))) {
    step(process.execPath, [path.join(ROOT, 'scripts', 'setup.mjs'), '--quiet', '--only', 'native']);
  }
  step('cmake', ['--build', BUILD_DIR, '--parallel', String(os.availableParallelism()),
    '--target', ...targets]);
  if (targets.includes('ibd_native_bench') && !existsSync(NATIVE_BENCH)) {
    throw new Error(`${NATIVE_BENCH} was not built: Google Benchmark is missing (apt-get install libbenchmark-dev), then rerun`);
  }
}

/** CMAKE_BUILD_TYPE of build/native, from its CMakeCache.txt (null when absent). */
function buildType() {
  const cache = readFileSync(path.join(BUILD_DIR, 'CMakeCache.txt'), 'utf8');
  return /^CMAKE_BUILD_TYPE:\w+=(.*)$/m.exec(cache)?.[1] || null;
}

function main() {
  const argv = process.argv.slice(2);
  const passThrough = argv.filter((a) => a.startsWith('--benchmark_'));
  let opts;
  try {
    ({ values: opts } = parseFlags(argv.filter((a) => !a.startsWith('--benchmark_')), {
      quick: { type: 'boolean', default: false }, json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    }));
  } catch (err) {
    process.stderr.write(`bench-native: ${err.message}\n${USAGE}\n`);
    return 2;
  }
  if (opts.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  try {
    ensureNativeTools();
  } catch (err) {
    process.stderr.write(`bench-native: ${err.message}\n`);
    return 1;
  }

  const m = machineInfo();
  const minTime = opts.quick ? `min ${QUICK_MIN_TIME} s per benchmark (--quick)` : 'Google Benchmark default min time (0.5 s)';
  const header = `native anchor: ${m.cpu}, ${m.cores} cores, ${m.platform} ${m.arch}; build/native ${buildType() ?? '(no build type)'}; ` +
    `${minTime}; rates per CPU second, one thread; indicative on a shared machine\n`;
  (opts.json ? process.stderr : process.stdout).write(header);

  const args = [
    ...(opts.quick ? [`--benchmark_min_time=${QUICK_MIN_TIME}`] : []),
    ...(opts.json ? ['--benchmark_format=json'] : []),
    ...passThrough,
  ];
  const r = spawnSync(NATIVE_BENCH, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.error) {
    process.stderr.write(`bench-native: ${NATIVE_BENCH}: ${r.error.message}\n`);
    return 1;
  }
  return r.status ?? 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = main();
