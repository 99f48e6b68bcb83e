// Start-up in Node, per wasm variant: the cold start (a fresh process reads the .wasm, compiles
// it, instantiates it and verifies one real check: time to first verdict) and a verify worker's
// start-up (createPool with one worker until ready: thread start, engine load). All in ms.
// Run as a script (`node bench/compare/startup.mjs --child VARIANT CHECKS_FILE [WASM_DIR]`) it is
// the fresh process of one cold start and prints one JSON line.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createBatchVerifier } from '../../wasm/batch-verifier.mjs';
import { wasmDir } from '../../wasm/paths.mjs';
import { walkChecks } from '../../wasm/check-buffer.mjs';
import { createPool } from '../../workers/pool.mjs';

const SELF = fileURLToPath(import.meta.url);

/**
 * One cold start, in this process: read (the "fetch"), WebAssembly.compile, instantiate
 * (Emscripten's instantiateWasm hook, so its runtime start is included), first verifyBatch.
 * @param {string} variant a VARIANTS entry
 * @param {Uint8Array} record one packed check record
 * @returns {Promise<{read_ms: number, compile_ms: number, instantiate_ms: number,
 *   first_verdict_ms: number, total_ms: number, verdict: number}>} each step's ms; total_ms
 *   from the read's start to the first verdict.
 */
async function coldStart(variant, record, dir = wasmDir()) {
  const t0 = performance.now();
  const bytes = readFileSync(path.join(dir, `ibd-${variant}.wasm`));
  const t1 = performance.now();
  const module = await WebAssembly.compile(bytes);
  const t2 = performance.now();
  const factory = createRequire(import.meta.url)(path.join(dir, `ibd-${variant}.js`));
  const engine = await factory({
    instantiateWasm(imports, done) {
      WebAssembly.instantiate(module, imports).then((instance) => done(instance, module));
      return {};
    },
  });
  const t3 = performance.now();
  const { verdicts } = createBatchVerifier(engine).verify(record, 1);
  const t4 = performance.now();
  return { read_ms: t1 - t0, compile_ms: t2 - t1, instantiate_ms: t3 - t2, first_verdict_ms: t4 - t3, total_ms: t4 - t0, verdict: verdicts[0] };
}

/**
 * Cold starts of `variant`, each in a fresh Node process.
 * @param {string} variant
 * @param {string} checksFile a check set file; its first record is the one verified
 * @param {number} rounds processes to start
 * @param {string} [dir] the folder of ibd-<variant>.wasm and .js (default: build/wasm)
 * @returns {Promise<object[]>} coldStart results, one per process (see above)
 * @throws (rejects) Error with the child's stderr when a child fails
 */
export async function nodeColdStarts(variant, checksFile, rounds, dir = wasmDir()) {
  const out = [];
  for (let i = 0; i < rounds; i++) {
    const { stdout } = await promisify(execFile)(process.execPath, [SELF, '--child', variant, checksFile, dir], { timeout: 60_000 })
      .catch((err) => { throw new Error(`cold start child (${variant}) failed: ${err.stderr || err.message}`); });
    out.push(JSON.parse(stdout));
  }
  return out;
}

/**
 * One verify worker's start-up: createPool({workers: 1}) until ready(), in ms; then closed.
 * @param {string} variant
 * @returns {Promise<number>} ms
 */
export async function nodeWorkerStartup(variant) {
  const t0 = performance.now();
  const pool = createPool({ workers: 1, variant });
  try {
    await pool.ready();
    return performance.now() - t0;
  } finally {
    await pool.close();
  }
}

if (process.argv[1] === SELF && process.argv[2] === '--child') {
  const [variant, file, dir] = process.argv.slice(3);
  const checks = readFileSync(file);
  const { offsets } = walkChecks(checks);
  process.stdout.write(`${JSON.stringify(await coldStart(variant, checks.subarray(0, offsets[1]), dir || undefined))}\n`);
}
