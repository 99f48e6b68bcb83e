// The same wasm on V8's baseline tier only: a child Node process started with
// `--liftoff --no-wasm-tier-up --no-wasm-dynamic-tiering` (Liftoff compiles every function,
// TurboFan never recompiles hot ones) times each variant on the check sets, interleaved round by
// round, one batch size. Node 20's V8 11.3 tiers hot functions up under dynamic tiering even with
// `--no-wasm-tier-up`: with those two flags alone the rounds converged on TurboFan's rate (ECDSA
// 107, 91, 83, 85 µs per signature against 86, 83, 81, 83 by default; with the third flag 148,
// 143, 144, 153), so the "Liftoff only" rows measured TurboFan until 2026-12-03.
// Run as a script (`node <LIFTOFF_FLAGS> bench/compare/engine-liftoff.mjs --child JSON`) it is that
// child and prints one JSON line.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createBatchVerifier } from '../../wasm/batch-verifier.mjs';
import { loadEngine } from '../../wasm/engine.mjs';
import { walkChecks } from '../../wasm/check-buffer.mjs';
import { verdictsSha256 } from './native-tool.mjs';
import { wasmPass } from '../core/wasm-pass.mjs';

const SELF = fileURLToPath(import.meta.url);
/** The V8 flags of the baseline-only engine. */
export const LIFTOFF_FLAGS = Object.freeze(['--liftoff', '--no-wasm-tier-up', '--no-wasm-dynamic-tiering']);

/**
 * Times every variant on every set in a Liftoff-only child process.
 * @param {{variants: string[], files: {ecdsa: string, schnorr: string}, batchSize: number,
 *   rounds: number}} job files: the check sets (bench/compare/compare-checks.mjs)
 * @returns {Promise<{flags: string[], results: Array<{variant: string, type: string,
 *   checks: number, rounds_seconds: number[], verdicts_sha256: string}>}>} seconds per round
 * @throws (rejects) Error with the child's stderr when it fails
 */
export async function liftoffPasses(job) {
  const { stdout } = await promisify(execFile)(process.execPath, [...LIFTOFF_FLAGS, SELF, '--child', JSON.stringify(job)], { timeout: 1_800_000, maxBuffer: 16 << 20 })
    .catch((err) => { throw new Error(`Liftoff child failed: ${err.stderr || err.message}`); });
  return { flags: LIFTOFF_FLAGS, results: JSON.parse(stdout).results };
}

async function child({ variants, files, batchSize, rounds }) {
  const sets = Object.entries(files).map(([type, file]) => {
    const checks = readFileSync(file);
    return { type, checks, walked: walkChecks(checks) };
  });
  const runs = [];
  for (const variant of variants) {
    const verifier = createBatchVerifier(await loadEngine(variant));
    for (const set of sets) runs.push({ variant, set, verifier, rounds_seconds: [], verdicts: null });
  }
  for (let r = 0; r < rounds; r++) {
    for (const run of runs) {
      const { verdicts, seconds } = wasmPass(run.verifier, run.set, batchSize);
      run.rounds_seconds.push(seconds);
      run.verdicts ??= verdicts;
    }
  }
  return runs.map((run) => ({
    variant: run.variant, type: run.set.type, checks: run.set.walked.count,
    rounds_seconds: run.rounds_seconds, verdicts_sha256: verdictsSha256(run.verdicts),
  }));
}

if (process.argv[1] === SELF && process.argv[2] === '--child') {
  process.stdout.write(`${JSON.stringify({ results: await child(JSON.parse(process.argv[3])) })}\n`);
}
