// Where things are on disk, for every Node loader and tool: the repo root, the build folders, the
// native tools' binaries and the wasm folder (IBD_WASM_DIR overrides it). The one owner of these
// paths: wasm/engine.mjs, web/server.mjs, blocks-fixtures/loader.mjs, bench/, scripts/ and tests/
// import them instead of recomputing them.
//
// Why here: this folder is the lowest room of the JS graph. The engine's loaders live here and the
// pool (workers/), the run (bench/), the page's server (web/), the set-up (scripts/) and the tests
// all import it, while it imports none of them; in scripts/ or bench/ the wasm loader would have
// to import upwards. Node only (node:path, node:url); the page never loads this file.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of the repository root (the parent of wasm/). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Every build output lives under build/ (setup.mjs builds native/ and wasm/ there). */
export const BUILD_DIR = path.join(REPO_ROOT, 'build');
/** The native CMake build (native engine, GoogleTest suites, Google Benchmark, native tools). */
export const NATIVE_BUILD_DIR = path.join(BUILD_DIR, 'native');
/** The Emscripten build: ibd-<variant>.js (Node), .mjs (browsers) and .wasm per variant. */
export const WASM_BUILD_DIR = path.join(BUILD_DIR, 'wasm');

/** The native tools, as built into NATIVE_BUILD_DIR. */
export const NATIVE_TOOLS = Object.freeze({
  /** The Google Benchmark suite (bench/native/bench_main.cpp). */
  bench: path.join(NATIVE_BUILD_DIR, 'bench', 'native', 'ibd_native_bench'),
  /** The native verifier of a packed check file (bench/native/verify_checks.cpp): one JSON line. */
  verifyChecks: path.join(NATIVE_BUILD_DIR, 'bench', 'native', 'ibd_verify_checks'),
  /** The native side of `npm run bench:quadratic` (bench/native/quadratic.cpp): the synthetic
   *  legacy stress block, ValidateBlock timings, SHA-256 throughput; one JSON line each. */
  quadratic: path.join(NATIVE_BUILD_DIR, 'bench', 'native', 'ibd_quadratic'),
  /** The native engine's check-buffer dump of one block (tests/native/dump_checks.cpp). */
  dumpChecks: path.join(NATIVE_BUILD_DIR, 'tests', 'native', 'ibd_dump_checks'),
  /** The native engine's chain validation of a block file, as JSON (tests/native/dump_chain.cpp). */
  dumpChain: path.join(NATIVE_BUILD_DIR, 'tests', 'native', 'ibd_dump_chain'),
  /** The GoogleTest suites (tests/native/). */
  nativeTests: path.join(NATIVE_BUILD_DIR, 'tests', 'native', 'ibd_native_tests'),
});

/**
 * The folder the wasm loaders read the build from: IBD_WASM_DIR when set (resolved against the
 * working directory), else WASM_BUILD_DIR. Read at each call, so a test may set the variable.
 * Honoured by wasm/engine.mjs (Node) and web/server.mjs (what it serves under /wasm/ibd-*).
 * @returns {string} absolute path
 */
export function wasmDir() {
  if (process.env.IBD_WASM_DIR) return path.resolve(process.env.IBD_WASM_DIR);
  return WASM_BUILD_DIR;
}
