// One benchmark run in the page: the fixture blocks over HTTP (web/fixtures.mjs) and Web Worker
// pools (workers/web-pool.mjs, each worker with its own engine) handed to the same run as the
// CLI's (bench/core/run-core.mjs), so the document is the --json document plus the page's own
// entries. The page's thread loads no engine. Problems that do not stop the run (a block that
// fails to load, a wasm variant that fails to compile, a worker that dies) are reported
// through `report` as they happen.
import { exitCodeOf, runBenchCore } from '../bench/core/run-core.mjs';
import { benchRatios } from '../bench/core/contenders.mjs';
import { webHost } from '../workers/web-host.mjs';
import { createWebPool } from '../workers/web-pool.mjs';
import { machineOf } from './environment.mjs';
import { fetchBlocks, fetchChain, fetchManifest } from './fixtures.mjs';

/**
 * The wasm variant to run: `wanted` if this browser compiles it in a Web Worker (a one-worker
 * pool that is started, awaited and closed), else the next of wide, simd, scalar. A variant
 * that fails is reported by name; SIMD is not tried where the browser lacks it, nor wide
 * arithmetic.
 * @returns {Promise<string>} the variant
 * @throws Error when no variant compiles.
 * Also used by the node files' run (web/node-run.mjs).
 */
export async function usableVariant(wanted, env, report) {
  const order = { wide: ['wide', 'simd', 'scalar'], simd: ['simd', 'scalar'] }[wanted] ?? [wanted];
  if (order[0] === 'wide' && !env.wide_arithmetic) {
    report.notice('This browser has no WebAssembly wide arithmetic: the SIMD build runs instead.');
    order.shift();
  }
  if (order[0] === 'simd' && !env.simd) {
    report.notice('This browser has no WebAssembly SIMD: the scalar build runs instead.');
    order.shift();
  }
  const failures = [];
  for (const variant of order) {
    const probe = createWebPool({ workers: 1, variant, host: webHost({ variant, workerUrl: WORKER_URL }) });
    try {
      await probe.ready();
      return variant;
    } catch (err) {
      const message = `wasm variant "${variant}" failed to load or compile: ${err?.message ?? err}`;
      failures.push(message);
      report.error(`wasm variant ${variant}`, message + (variant !== order.at(-1) ? ` (falling back to ${order.at(-1)})` : ''));
    } finally {
      await probe.close();
    }
  }
  throw new Error(failures.join('; '));
}

/** The page's verify worker: workers/verify-web-worker.mjs bundled into one file
 *  (scripts/bundle-web-worker.mjs; web/server.mjs serves it), one request where the worker's
 *  modules are otherwise fetched level by level. */
export const WORKER_URL = new URL('/dist/verify-web-worker.mjs', import.meta.url);

/** webHost (workers/web-host.mjs) whose workers' deaths are also reported by name, as they
 *  happen; the pool still replaces them and re-runs their batches. The node files' run
 *  (web/node-run.mjs) uses it too. */
export function reportingHost(variant, report) {
  const inner = webHost({ variant, workerUrl: WORKER_URL });
  return {
    spawn: (index, callbacks) => inner.spawn(index, {
      ...callbacks,
      onError: (err) => {
        report.error(`verify worker ${index} (${variant})`, `died: ${err?.message ?? err}`);
        callbacks.onError(err);
      },
    }),
  };
}

/**
 * Runs the benchmark.
 * @param {{workers: number|'auto', variant: 'wide'|'simd'|'scalar', batchSize: number, rounds: number,
 *   heights: number[], scaling: boolean, variants: boolean,
 *   batchSweep: {sizes: number[], rounds: number, checks: number}|null}} settings from the
 *   controls; workers 'auto' measures 1..navigator.hardwareConcurrency and keeps the fastest
 * @param {ReturnType<typeof import('./environment.mjs').detectEnvironment>} env
 * @param {{log: (msg: string) => void, track: Function, notice: (msg: string) => void,
 *   error: (what: string, message: string) => void}} report the progress panel and the
 *   notice / error panels
 * @returns {Promise<object>} the result document (bench/core/run-core.mjs) with `exit_code` as
 *   --json, plus `environment` (env, the pool's `transport`: 'shared' or 'transfer', and the
 *   page's URL) and `settings` (what the controls asked for).
 * @throws Error when nothing can run: no manifest, no block loads, no wasm variant compiles.
 */
export async function runInPage(settings, env, report) {
  report.log('loading the fixture manifest');
  const manifest = await fetchManifest();
  let fetched = 0;
  const loaded = await fetchBlocks(manifest, settings.heights, (b) => {
    fetched++;
    report.log(`loading fixture blocks: ${fetched} / ${settings.heights.length}`);
    if (b.error) report.error(`block ${b.height}${b.hash ? ` ${b.hash}` : ''}`, `failed to load: ${b.error}`);
  });
  if (loaded.length === 0 || loaded.every((b) => b.error)) {
    throw new Error(`no fixture block could be loaded from ${manifest.base} (${loaded.length} selected)`);
  }

  report.log('loading the fixture chain');
  // The chain pass (bench/core/chain-pass.mjs), as the CLI's: the manifest's consecutive blocks
  // connected from genesis in one worker; its `chain` entry null when the manifest names none.
  const chain = await fetchChain(manifest);
  if (chain?.error) report.error('fixture chain', `failed to load: ${chain.error}`);

  report.log('compiling the wasm engine in a worker');
  const variant = await usableVariant(settings.variant, env, report);
  const transports = new Set();
  const host = {
    loaded,
    fixtures: manifest.base,
    fixtureBlocks: manifest.blocks.length,
    chain,
    createPool: (config) => {
      const pool = createWebPool({ ...config, transport: 'auto', host: reportingHost(config.variant, report) });
      transports.add(pool.transport);
      return pool;
    },
    machine: (engineInfo) => machineOf(env, engineInfo),
    workloadTable: await fetchWorkloadTable(report),
    benchRatios: await fetchBenchRatios(report),
    measuredOn: env.browser,
  };
  projectionInputs = { table: host.workloadTable, bench: host.benchRatios, measuredOn: env.browser };
  const options = {
    variant,
    workers: settings.workers,
    maxWorkers: env.hardware_concurrency,
    batchSize: settings.batchSize,
    rounds: settings.rounds,
    scaling: settings.scaling,
    variants: settings.variants ? ['wide', 'simd', 'scalar'].filter((v) => (v !== 'simd' || env.simd) && (v !== 'wide' || env.wide_arithmetic)) : [],
    batchSweep: settings.batchSweep,
  };
  const doc = await runBenchCore(options, host, report.log, report);
  if (doc.worker_replacements > 0) {
    report.error('Web Workers', `${doc.worker_replacements} verify worker${doc.worker_replacements === 1 ? ' was' : 's were'} ` +
      'replaced (died, trapped or missed a deadline); their batches ran again on other workers, so no verdict is missing');
  }
  for (const v of doc.variants ?? []) {
    if (v.error) report.error(`wasm variant ${v.variant}`, `its pool did not start: ${v.error}`);
  }
  return {
    ...doc,
    exit_code: exitCodeOf(doc),
    environment: { ...env, transport: [...transports].join(', ') || null, page: location.href },
    settings,
  };
}

/** The saved workload table the cost model's projection reads (bench/workload/workload-table.json,
 *  served by web/server.mjs), or null with an error panel naming why: the run goes on without
 *  that projection. */
async function fetchWorkloadTable(report) {
  const url = new URL('/bench/workload/workload-table.json', location.href).href;
  try {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return await response.json();
  } catch (err) {
    report.error('projection', `cannot load the workload table ${url}: ${err.message}`);
    return null;
  }
}

/** The last bench run's ratios (bench/core/contenders.mjs benchRatios) for the other engines'
 *  projections, or null, said in the log: the page then projects ibd-wasm alone. */
async function fetchBenchRatios(report) {
  const url = new URL('/bench/compare/results/latest.json', location.href).href;
  try {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return benchRatios(await response.json());
  } catch (err) {
    report.log(`no comparison with other engines: cannot load ${url}: ${err.message}`);
    return null;
  }
}

/** What the last run's projection was made from: {table, bench} (null before a run); the page's
 *  worker-count control projects again from them (web/app.mjs). */
let projectionInputs = null;
export const lastProjectionInputs = () => projectionInputs;
