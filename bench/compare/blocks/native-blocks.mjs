// The native build's whole-block contender: BM_ValidateBlock/<height> of the Google Benchmark
// suite (bench/native/block_bench.cpp: ValidateBlock on one thread, parse to verify, the
// same engine the wasm build compiles, native -O3), one run of ibd_native_bench per round.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { NATIVE_TOOLS } from '../../../wasm/paths.mjs';

/** Google Benchmark's time units, in seconds. */
const UNIT_SECONDS = { ns: 1e-9, us: 1e-6, ms: 1e-3, s: 1 };

/** The suite's path (build/native/bench/native/ibd_native_bench), or null when it is not built
 *  (CMake builds it only when Debian's libbenchmark-dev is installed). */
export function nativeBlockBench() {
  return existsSync(NATIVE_TOOLS.bench) ? NATIVE_TOOLS.bench : null;
}

/**
 * One native round: `ibd_native_bench --benchmark_filter=^BM_ValidateBlock/(h1|h2|...)$`, each
 * block benchmarked for at least `minTime` seconds. Warm: the program validates every block
 * once before it benchmarks, and each figure is Google Benchmark's mean wall time per iteration
 * over its timed iterations. The program's start-up (reading and validating the fixtures) is
 * not in the figures.
 * @param {string} tool nativeBlockBench()
 * @param {number[]} heights fixture heights
 * @param {{fixtures: string, minTime: number}} options fixtures: the folder (IBD_FIXTURES for
 *   the program); minTime: seconds per block (--benchmark_min_time)
 * @returns {Promise<Array<{height: number, seconds: number, cpu_seconds: number, iterations: number,
 *   times: object}|{height: number, error: string}>>}
 *   one entry per height, in `heights` order; seconds: wall time per iteration; cpu_seconds: CPU
 *   time per iteration; times: the stage counters (block_bench.cpp), mean ms per iteration, named
 *   as wasm validateBlock's `times`: spentMs, parseMs, sighashMs, scriptMs, verifyMs
 * @throws (rejects) Error with the program's stderr when it fails before printing its report.
 */
export async function nativeBlocksPass(tool, heights, { fixtures, minTime }) {
  const args = [`--benchmark_filter=^BM_ValidateBlock/(${heights.join('|')})$`, `--benchmark_min_time=${minTime}`, '--benchmark_format=json'];
  let stdout;
  try {
    ({ stdout } = await promisify(execFile)(tool, args, {
      env: { ...process.env, IBD_FIXTURES: fixtures }, timeout: 600_000, maxBuffer: 64 << 20,
    }));
  } catch (err) {
    // Exit 1 with a report: a block failed to load (its row carries the error). Use the report.
    if (!err.stdout) throw new Error(`${tool} failed: ${err.stderr || err.message}`);
    stdout = err.stdout;
  }
  let report;
  try { report = JSON.parse(stdout); } catch { throw new Error(`${tool} printed no JSON report: ${stdout.slice(0, 300)}`); }
  const rows = new Map(report.benchmarks.map((b) => [b.name, b]));
  return heights.map((height) => {
    const b = rows.get(`BM_ValidateBlock/${height}`);
    if (!b) return { height, error: `no BM_ValidateBlock/${height} row in ${tool}'s report` };
    if (b.error_occurred) return { height, error: b.error_message };
    const times = {};
    for (const stage of ['spent', 'parse', 'sighash', 'script', 'verify']) times[`${stage}Ms`] = (b[`${stage}_ns`] ?? NaN) / 1e6;
    return { height, seconds: b.real_time * UNIT_SECONDS[b.time_unit], cpu_seconds: b.cpu_time * UNIT_SECONDS[b.time_unit], iterations: b.iterations, times };
  });
}
