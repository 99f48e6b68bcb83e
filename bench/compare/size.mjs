// Size of each wasm build: raw, gzip (level 9) and after Debian binaryen's `wasm-opt -Oz`
// (raw and gzip), per variant and per ECMULT_WINDOW_SIZE setting (the precomputed table of
// multiples of G: cmake/secp256k1.cmake IBD_ECMULT_WINDOW_SIZE). Sizes are bytes.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { BUILD_DIR, REPO_ROOT, WASM_BUILD_DIR } from '../../wasm/paths.mjs';
import { ALL_VARIANTS, VARIANTS } from '../../wasm/variants.mjs';

/** The default build (window 15) and the smaller-table build the full run adds. */
export const WINDOW_BUILDS = Object.freeze([
  { window: 15, dir: WASM_BUILD_DIR },
  { window: 12, dir: path.join(BUILD_DIR, 'wasm-window12') },
]);

const emEnv = () => ({ ...process.env, NODE_PATH: [process.env.NODE_PATH, '/usr/share/nodejs'].filter(Boolean).join(path.delimiter) });

function run(cmd, args, what) {
  const r = spawnSync(cmd, args, { env: emEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.error || r.status !== 0) {
    throw new Error(`${what} failed (${cmd} ${args.join(' ')}): ${r.error?.message ?? r.stderr.slice(-2000)}`);
  }
}

/**
 * Builds the wasm variants (.wasm, the Node glue and its ES module form for browsers) into `dir`,
 * configured like build/wasm (with the same libsecp256k1 source: its IBD_SECP256K1_DIR) plus the
 * cache `defines`: configured when `dir` has no CMakeCache.txt, then always built, which
 * rebuilds what the sources changed since (seconds when nothing did), so that an A/B build never
 * measures an earlier commit's engine.
 * @param {{dir: string, defines: Record<string, string|number>, what: string}} build what: the
 *   build's description for the log ("ECMULT_WINDOW_SIZE=12")
 * @param {(m: string) => void} log
 * @throws Error when build/wasm is not configured or emcmake / cmake fail (their stderr tail).
 */
export function ensureWasmBuild({ dir, defines, what }, log) {
  if (!existsSync(path.join(dir, 'CMakeCache.txt'))) {
    const cache = path.join(WASM_BUILD_DIR, 'CMakeCache.txt');
    const secpDir = existsSync(cache) && /^IBD_SECP256K1_DIR:PATH=(.*)$/m.exec(readFileSync(cache, 'utf8'))?.[1];
    if (!secpDir) throw new Error(`${cache} has no IBD_SECP256K1_DIR: run node scripts/setup.mjs first`);
    log(`building the wasm variants with ${what} into ${path.relative(REPO_ROOT, dir)} (a few minutes)`);
    mkdirSync(dir, { recursive: true });
    run('emcmake', ['cmake', '-S', REPO_ROOT, '-B', dir, `-DIBD_SECP256K1_DIR=${secpDir}`,
      '-DCMAKE_BUILD_TYPE=Release', ...Object.entries(defines).map(([k, v]) => `-D${k}=${v}`)], 'configure');
  } else {
    log(`bringing the wasm variants with ${what} in ${path.relative(REPO_ROOT, dir)} up to date with the sources`);
  }
  run('cmake', ['--build', dir, '--parallel', '2', '--target', ...VARIANTS.flatMap((v) => [`ibd-${v}`, `ibd-${v}-esm`])], 'build');
}

/** The window build `wb` (an entry of WINDOW_BUILDS), built by ensureWasmBuild. */
export function ensureWindowBuild({ window, dir }, log) {
  ensureWasmBuild({ dir, defines: { IBD_ECMULT_WINDOW_SIZE: window }, what: `ECMULT_WINDOW_SIZE=${window}` }, log);
}

/** wasm-opt's feature flags per variant: the emitted .wasm carries no target_features
 *  section, so binaryen's defaults apply and SIMD must be enabled by hand for 'simd'. */
const WASM_OPT_FEATURES = { simd: ['--enable-simd'], scalar: [], wide: ['--enable-simd'] };

/**
 * Measures one .wasm file.
 * @param {string} file path of a .wasm
 * @param {string} variant its variant (picks wasm-opt's feature flags)
 * @param {string} scratch an existing folder for the wasm-opt output
 * @returns {{raw: number, gzip: number, oz: number|null, oz_gzip: number|null, oz_error?: string}}
 *   bytes; oz / oz_gzip null (with oz_error) when wasm-opt is missing or fails.
 */
export function wasmSizes(file, variant, scratch) {
  const bytes = readFileSync(file);
  const sizes = { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, oz: null, oz_gzip: null };
  const out = path.join(scratch, `${path.basename(path.dirname(file))}-${path.basename(file, '.wasm')}.Oz.wasm`);
  const r = spawnSync('wasm-opt', ['-Oz', ...WASM_OPT_FEATURES[variant], file, '-o', out], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 << 20 });
  if (r.error || r.status !== 0) {
    sizes.oz_error = r.error?.code === 'ENOENT' ? 'wasm-opt not found (apt-get install binaryen)'
      : `wasm-opt exit ${r.status}: ${r.stderr.split('\n').find((l) => /error|Fatal/.test(l)) ?? ''}`.slice(0, 300);
    return sizes;
  }
  sizes.oz = statSync(out).size;
  sizes.oz_gzip = gzipSync(readFileSync(out), { level: 9 }).length;
  return sizes;
}

/**
 * Sizes of every variant of every window build present.
 * @param {{build: boolean, log: (m: string) => void}} options build: build the missing window
 *   builds first (the full run); otherwise absent builds are listed as skipped
 * @returns {Array<{variant: string, window: number, dir: string, raw?: number, gzip?: number,
 *   oz?: number|null, oz_gzip?: number|null, oz_error?: string, skipped?: string}>} bytes
 */
export function measureSizes({ build, log }) {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'ibd-wasm-opt-'));
  try {
    return WINDOW_BUILDS.flatMap((wb) => windowSizes(wb, { build, log, scratch }));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Sizes of each variant of one window build (built first when `build`), as measureSizes. */
function windowSizes(wb, { build, log, scratch }) {
  let skipped = null;
  if (build) {
    try { ensureWindowBuild(wb, log); } catch (err) { skipped = err.message; }
  }
  // The wide variant is built in the default build only (window 15).
  return (wb.window === 15 ? ALL_VARIANTS : VARIANTS).map((variant) => {
    const file = path.join(wb.dir, `ibd-${variant}.wasm`);
    const base = { variant, window: wb.window, dir: path.relative(REPO_ROOT, wb.dir) };
    if (!existsSync(file)) return { ...base, skipped: skipped ?? `${path.relative(REPO_ROOT, file)} not built (the full run builds it)` };
    return { ...base, ...wasmSizes(file, variant, scratch) };
  });
}
