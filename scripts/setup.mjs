#!/usr/bin/env node
// Set-up for ibd-wasm, run by `npm start` and `npm test` (and on its own: `node scripts/setup.mjs`).
// Idempotent: a second run finds everything in place and only lets CMake confirm the builds are
// up to date.
//
//   1. Debian packages: installs the missing ones when run as root, else says what to install.
//   2. libsecp256k1 v0.5.0 source into build/deps/, checked by SHA-256 before use
//      (see scripts/secp256k1-source.mjs for where it comes from).
//   3. npm dependencies (npm ci) when node_modules is missing or stale.
//   4. The native build (build/native) and the wasm build (build/wasm, variants simd, scalar and wide),
//      then the page's verify worker bundled into build/web (scripts/bundle-web-worker.mjs).
//
// Flags: --skip-build (steps 1-3 only), --only native|wasm, --quiet.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { BUILD_DIR as BUILD, REPO_ROOT as ROOT } from '../wasm/paths.mjs';
import { ensureSecp256k1Source } from './secp256k1-source.mjs';
import { fixturesDir } from '../blocks-fixtures/loader.mjs';

/** Debian packages the build and tests need, each with the command or file that shows it is there. */
const DEBIAN_PACKAGES = [
  'cmake', 'g++', 'make', 'xz-utils', 'emscripten', 'nlohmann-json3-dev',
  'libgtest-dev', 'libbenchmark-dev',
  'clang', 'libclang-rt-14-dev',  // scripts/fuzz.mjs: libFuzzer, ASan and UBSan runtimes
  'chromium',                     // browser tests and bench (bench/shared/chromium-launcher.mjs), never a downloaded browser
  'firefox-esr',                  // the same in SpiderMonkey (bench/shared/firefox-launcher.mjs, driven by puppeteer-core)
  'binaryen',                     // wasm-opt -Oz size figures (npm run bench)
];

let opts;
try {
  ({ values: opts } = parseArgs({
    options: {
      'skip-build': { type: 'boolean', default: false },
      only: { type: 'string' },
      quiet: { type: 'boolean', default: false },
    },
    strict: true,
  }));
  if (opts.only !== undefined && !['native', 'wasm'].includes(opts.only)) {
    throw new Error(`--only must be one of native, wasm, got "${opts.only}"`);
  }
} catch (err) {
  // A usage error, as every command line gives it: one line naming the flag, exit code 2.
  process.stderr.write(`[setup] ${err.message}\n`);
  process.exit(2);
}

const say = (msg) => process.stderr.write(`[setup] ${msg}\n`);
const log = (msg) => { if (!opts.quiet) say(msg); };

function run(cmd, args, { env, cwd = ROOT, capture = false } = {}) {
  const r = spawnSync(cmd, args, {
    cwd, env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024,
    stdio: capture ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'],
  });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) {
    const detail = capture ? `\n${r.stdout}${r.stderr}` : '';
    throw new Error(`'${cmd} ${args.join(' ')}' failed with exit code ${r.status}${detail}`);
  }
  return r.stdout;
}

function missingDebianPackages() {
  return DEBIAN_PACKAGES.filter((pkg) => {
    const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
    return r.status !== 0 || !r.stdout.includes('install ok installed');
  });
}

function ensureDebianPackages() {
  const missing = missingDebianPackages();
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `missing Debian packages: ${missing.join(' ')}\n` +
      `  install them with:  sudo apt-get update && sudo apt-get install -y ${missing.join(' ')}`);
  }
  say(`installing Debian packages: ${missing.join(' ')}`);
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-qq'], { env });
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { env });
}

function ensureNpmDependencies() {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const deps = { ...pkg.dependencies, ...pkg.devDependencies };
  if (Object.keys(deps).length === 0) return;
  const lock = path.join(ROOT, 'package-lock.json');
  const installed = path.join(ROOT, 'node_modules', '.package-lock.json');
  if (existsSync(installed) && existsSync(lock) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) return;
  // Said even with --quiet: the first install takes a while, and nothing else shows it.
  say('installing npm dependencies (npm ci)');
  // With --quiet its output is shown only if it fails, as the builds'.
  run('npm', existsSync(lock) ? ['ci', '--no-audit', '--no-fund'] : ['install', '--no-audit', '--no-fund'], { capture: opts.quiet });
}

/** Emscripten's optimizer needs acorn; Debian ships it under /usr/share/nodejs. */
function emscriptenEnv() {
  const nodePath = [process.env.NODE_PATH, '/usr/share/nodejs'].filter(Boolean).join(path.delimiter);
  return { NODE_PATH: nodePath };
}

function cmakeBuild(kind, secpDir) {
  const dir = path.join(BUILD, kind);
  const jobs = String(os.availableParallelism?.() ?? os.cpus().length);
  const env = kind === 'wasm' ? emscriptenEnv() : {};
  if (!existsSync(path.join(dir, 'CMakeCache.txt'))) {
    process.stderr.write(`[setup] first ${kind} build in build/${kind} (a few minutes on two cores)\n`);
    const configure = ['-S', ROOT, '-B', dir, `-DIBD_SECP256K1_DIR=${secpDir}`, '-DCMAKE_BUILD_TYPE=Release'];
    if (kind === 'wasm') run('emcmake', ['cmake', ...configure], { env, capture: opts.quiet });
    else run('cmake', configure, { env, capture: opts.quiet });
  }
  // Up to date, this is a no-op; with --quiet its output is shown only if it fails.
  log(`building ${kind}`);
  run('cmake', ['--build', dir, '--parallel', jobs], { env, capture: opts.quiet });
}

async function main() {
  // Said before a build of minutes, not after it: npm start and npm test read the fixtures.
  const fixtures = fixturesDir();
  if (!existsSync(fixtures)) {
    const how = process.env.IBD_FIXTURES ? 'IBD_FIXTURES names a folder that does not exist' : 'set IBD_FIXTURES=DIR, or pass --fixtures DIR to npm start';
    process.stderr.write(`[setup] warning: no fixture set at ${fixtures}; npm start and npm test will need one (${how}); building anyway\n`);
  }
  ensureDebianPackages();
  const secpDir = await ensureSecp256k1Source(path.join(BUILD, 'deps'), log, say);
  ensureNpmDependencies();
  if (opts['skip-build']) return;
  if (!opts.only || opts.only === 'native') cmakeBuild('native', secpDir);
  if (!opts.only || opts.only === 'wasm') {
    cmakeBuild('wasm', secpDir);
    // The page's verify worker as one file (scripts/bundle-web-worker.mjs): rebuilt each time,
    // so it never lags the sources.
    log('bundling the page\'s verify worker (build/web)');
    const { bundleWebWorker } = await import('./bundle-web-worker.mjs');
    await bundleWebWorker();
  }
}

main().catch((err) => {
  process.stderr.write(`[setup] error: ${err.message}\n`);
  process.exit(1);
});
