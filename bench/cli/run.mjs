// The benchmark run under Node (`npm start`): the fixture blocks from disk, worker_threads
// pools (every engine runs in them; this thread loads none), this machine's description, around the host-neutral run (bench/core/run-core.mjs), which
// the page (web/) calls too: --json and the page's download share one schema.
import { fixturesDir, loadBlocks, loadChain, readManifest } from '../../blocks-fixtures/loader.mjs';
import { createPool } from '../../workers/pool.mjs';
import { machineInfo } from '../shared/machine.mjs';
import { runBenchCore } from '../core/run-core.mjs';
import { readWorkloadTable } from '../workload/table.mjs';
import { readBenchRatios } from '../workload/bench-ratios.mjs';

/**
 * Runs the whole benchmark on the fixture blocks of options.fixtures, and the chain pass on its
 * consecutive chain when its manifest has one (loadChain).
 * @param {{fixtures?: string, heights?: number[], workers: number, variant: string,
 *   batchSize: number, rounds: number, scaling?: boolean, maxWorkers?: number}} options as
 *   from parseOptions (bench/cli/options.mjs)
 * @param {(msg: string) => void} log progress sink (stderr)
 * @param {ReturnType<typeof import('./progress.mjs').createProgress>} [progress] bars for the
 *   first pass and the timed passes (bench/cli/progress.mjs); none when absent
 * @returns {Promise<object>} the result document (bench/core/run-core.mjs runBenchCore: blocks,
 *   totals, projection, errors, ...); `fixtures` is the fixtures folder and `machine` this
 *   machine (bench/shared/machine.mjs machineInfo: cpu, cores, platform, arch, node, emcc).
 * @throws Error when nothing can run: no fixtures directory or manifest, no block loads, no
 *   wasm build, a worker that fails, a malformed check buffer.
 */
export async function runBench(options, log, progress) {
  const dir = fixturesDir(options.fixtures);
  const loaded = await loadBlocks(dir, { heights: options.heights });
  return runBenchCore(options, {
    loaded,
    fixtures: dir,
    fixtureBlocks: readManifest(dir).blocks.length,
    chain: await loadChain(dir),
    createPool,
    machine: machineInfo,
    workloadTable: readWorkloadTable(),
    benchRatios: lastBenchRatios(log),
  }, log, progress);
}

/** The last bench run's ratios for the other engines' projections, or null (said on the log)
 *  when there is none to read. */
function lastBenchRatios(log) {
  try {
    return readBenchRatios();
  } catch (err) {
    log(`no comparison with other engines: ${err.message}`);
    return null;
  }
}
