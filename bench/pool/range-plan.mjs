// How to cut large blocks into ranges for the workers (workers/block-jobs.mjs planBlockJobs),
// measured. Two parts:
//
// 1. The fixed cost of a range: for each fixture block that the default plan splits, one call
//    of validateBlock (wasm/API.md) on this thread for the whole block and one for a range of
//    no transactions without the block rules (what every range pays beside its own inputs:
//    since BlockScope skims, a skim of the block and of its spent outputs), median of --calls
//    calls in ms, warm. With --baseline DIR (another checkout, built), its engine is timed on the
//    same calls, alternately: before and after in one run.
// 2. End to end: every fixture block validated whole in the workers (validateBlocksInPool) with
//    pools of 1..--max-workers workers, for each range cap in --caps (maxRangesPerWorker) and,
//    with --baseline, for the baseline's own plan and workers. Every pool is started and warmed
//    up by one untimed round first; then --rounds timed rounds, each running every
//    (configuration, pool) once, in turn. Prints per configuration and worker count: the
//    median wall time (s) with min and max, checks/s, speedup over 1 worker and efficiency
//    (speedup / workers, medians), the messages sent, the workers' summed busy time (s:
//    parse + sighash + script + verify, median round) and the process's CPU time (s, all
//    threads, median round), whose growth with the worker count is repeated work; on a loaded
//    machine the CPU time stays meaningful where the wall times do not.
// 3. A model of the balance, for a loaded machine: each configuration's plan for N workers, every
//    job timed once on this thread (validateBlock), its groups handed in the pool's order
//    (sendOrder) to whichever simulated worker is free first; model efficiency = the jobs' time /
//    (N x the last worker's finish). It leaves out the messages' cost and the main thread.
//
//   node bench/pool/range-plan.mjs [--rounds N] [--max-workers M] [--caps 1,2,4,8,16]
//     [--target-inputs N] [--calls N] [--baseline DIR] [--json]
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { fixturesDir, loadBlocks } from '../../blocks-fixtures/loader.mjs';
import { loadEngine } from '../../wasm/engine.mjs';
import { encodeSpentOutputs } from '../../wasm/spent-outputs.mjs';
import { DEFAULT_TARGET_INPUTS, MAX_RANGES_PER_WORKER, planBlockJobs, sendOrder, validateBlocksInPool } from '../../workers/block-jobs.mjs';
import { createPool } from '../../workers/pool.mjs';
import { numberFlag, parseFlags, UsageError } from '../shared/args.mjs';
import { median } from '../core/verify-passes.mjs';

/** Median ms of `calls` calls of validateBlock(b, options) in each engine, alternately. */
function rangeCost(engines, b, options, calls) {
  const times = engines.map(() => []);
  const call = (engine) => {
    const start = performance.now();
    const r = engine.validateBlock(b.block, b.spentOutputs, b.hash, b.height, options);
    if (!r.ok) throw new Error(`block ${b.height}: ${r.error}`);
    return performance.now() - start;
  };
  for (const e of engines) call(e); // warm-up, untimed
  for (let k = 0; k < calls; k++) engines.forEach((e, i) => times[i].push(call(e)));
  return times.map(median);
}

/** Model efficiency of `plan` (planBlockJobs' result) on `workers` workers: each job timed once
 *  in `engine`, the groups handed out in sendOrder to the first free worker. */
function modelEfficiency(engine, plan, workers) {
  const cost = plan.groups.map((g) => g.reduce((n, j) => {
    const start = performance.now();
    engine.validateBlock(j.block, j.spentOutputs, j.hash, j.height, j.options);
    return n + (performance.now() - start);
  }, 0));
  const free = new Array(workers).fill(0);
  for (const i of sendOrder(plan.groups)) {
    const w = free.indexOf(Math.min(...free));
    free[w] += cost[i];
  }
  return cost.reduce((a, b) => a + b, 0) / (workers * Math.max(...free));
}

async function main() {
  const { values } = parseFlags(process.argv.slice(2), {
    rounds: { type: 'string', default: '5' },
    'max-workers': { type: 'string', default: '2' },
    caps: { type: 'string', default: '1,2,4,8,16' },
    'target-inputs': { type: 'string', default: String(DEFAULT_TARGET_INPUTS) },
    calls: { type: 'string', default: '11' },
    baseline: { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  const rounds = numberFlag('rounds', values.rounds, { min: 1, max: 1000 });
  const maxWorkers = numberFlag('max-workers', values['max-workers'], { min: 1, max: 64 });
  const targetInputs = numberFlag('target-inputs', values['target-inputs'], { min: 16, max: 1 << 20 });
  const calls = numberFlag('calls', values.calls, { min: 1, max: 1000 });
  const caps = values.caps.split(',').map((c) => numberFlag('caps', c.trim(), { min: 1, max: 256 }));
  const log = (msg) => process.stderr.write(`[range-plan] ${msg}\n`);

  const loaded = await loadBlocks(fixturesDir());
  const blocks = loaded.filter((b) => !b.error)
    .map((b) => ({ block: b.block, spentOutputs: encodeSpentOutputs(b.spentOutputsJson), hash: b.hash, height: b.height }));
  const baselineDir = values.baseline && path.resolve(values.baseline);
  const baseline = baselineDir && {
    engine: await loadEngine('simd', { dir: path.join(baselineDir, 'build', 'wasm') }),
    pool: await import(pathToFileURL(path.join(baselineDir, 'workers', 'pool.mjs')).href),
    jobs: await import(pathToFileURL(path.join(baselineDir, 'workers', 'block-jobs.mjs')).href),
  };

  // 1. The fixed cost of a range.
  const engines = [await loadEngine('simd'), ...(baseline ? [baseline.engine] : [])];
  const { parts } = planBlockJobs(blocks, { workers: maxWorkers, targetInputs });
  const split = blocks.filter((_, i) => parts[i].length > 1);
  const cost = split.map((b) => {
    const txCount = engines[0].validateBlock(b.block, b.spentOutputs, b.hash, b.height, undefined).txCount;
    const [whole] = rangeCost(engines.slice(0, 1), b, undefined, Math.min(3, calls));
    const empty = rangeCost(engines, b, { txBegin: txCount, txEnd: txCount, blockRules: false }, calls);
    return { height: b.height, txs: txCount, bytes: b.block.length, whole_ms: whole, range_ms: empty[0],
      ...(baseline ? { baseline_range_ms: empty[1] } : {}) };
  });

  // 2. End to end.
  const configs = caps.map((cap) => ({ name: `cap ${cap}`, cap, make: createPool, run: validateBlocksInPool }));
  if (baseline) {
    configs.push({ name: 'baseline', cap: null, make: baseline.pool.createPool, run: baseline.jobs.validateBlocksInPool });
  }
  const setups = [];
  try {
    for (const c of configs) {
      for (let workers = 1; workers <= maxWorkers; workers++) {
        const pool = c.make({ workers });
        setups.push({ c, workers, pool, times: [], busy: [], cpu: [], messages: 0 });
        await pool.ready();
        const options = c.cap === null ? { targetInputs } : { targetInputs, maxRangesPerWorker: c.cap };
        await c.run(pool, blocks, options); // warm-up, untimed
      }
    }
    log(`${blocks.length} blocks, ${configs.length} configurations x 1..${maxWorkers} workers, ${rounds} interleaved timed rounds`);
    let checks = 0;
    for (let r = 0; r < rounds; r++) {
      for (const s of setups) {
        const options = s.c.cap === null ? { targetInputs } : { targetInputs, maxRangesPerWorker: s.c.cap };
        let messages = 0;
        const cpu = process.cpuUsage();
        const start = performance.now();
        const out = await s.c.run(s.pool, blocks, { ...options, onProgress: (_, total) => { messages = total; } });
        s.times.push((performance.now() - start) / 1000);
        const used = process.cpuUsage(cpu);
        s.cpu.push((used.user + used.system) / 1e6);
        s.messages = messages;
        const bad = out.find((x) => !x.ok || !x.valid);
        if (bad) throw new Error(`${s.c.name}, ${s.workers} workers: block ${bad.blockHash || bad.hash}: ${bad.error}`);
        s.busy.push(out.reduce((n, x) => n + (x.times.parseMs + x.times.sighashMs + x.times.scriptMs + x.times.verifyMs) / 1000, 0));
        checks = out.reduce((n, x) => n + x.ecdsa + x.schnorr, 0);
      }
      log(`round ${r + 1} of ${rounds} done`);
    }
    const rows = setups.map((s) => {
      const one = setups.find((x) => x.c === s.c && x.workers === 1);
      const speedup = median(one.times) / median(s.times);
      return { config: s.c.name, workers: s.workers, seconds: median(s.times), seconds_min: Math.min(...s.times),
        seconds_max: Math.max(...s.times), checks_per_second: checks / median(s.times), speedup, efficiency: speedup / s.workers,
        messages: s.messages, worker_busy_seconds: median(s.busy), cpu_seconds: median(s.cpu) };
    });
    // 3. The model, after the pools are done (on this thread).
    for (const r of rows) {
      const c = configs.find((x) => x.name === r.config);
      const plan = c.cap === null
        ? baseline.jobs.planBlockJobs(blocks, { workers: r.workers, targetInputs })
        : planBlockJobs(blocks, { workers: r.workers, targetInputs, maxRangesPerWorker: c.cap });
      r.model_efficiency = r.workers === 1 ? 1 : modelEfficiency(c.cap === null ? baseline.engine : engines[0], plan, r.workers);
    }
    const report = { rounds, max_workers: maxWorkers, target_inputs: targetInputs, default_cap: MAX_RANGES_PER_WORKER,
      baseline: baselineDir ?? null, range_cost: cost, end_to_end: rows };
    if (values.json) {
      process.stdout.write(`${JSON.stringify(report, null, 1)}\n`);
      return;
    }
    console.log(`Fixed cost of a range (no transactions of its own, no block rules), this thread, median of ${calls} calls, ms:`);
    for (const c of cost) {
      console.log(`  ${String(c.height).padStart(7)}  ${String(c.txs).padStart(5)} txs  whole ${c.whole_ms.toFixed(2).padStart(8)}` +
        `  range ${c.range_ms.toFixed(2).padStart(7)}${baseline ? `  baseline range ${c.baseline_range_ms.toFixed(2).padStart(7)}` : ''}`);
    }
    console.log(`End to end, ${blocks.length} blocks in the workers, ${rounds} interleaved rounds (median, min-max):`);
    for (const r of rows) {
      console.log(`  ${r.config.padEnd(9)} ${r.workers}w  ${r.seconds.toFixed(3)} s (${r.seconds_min.toFixed(3)}-${r.seconds_max.toFixed(3)})` +
        `  ${Math.round(r.checks_per_second)} checks/s  speedup ${r.speedup.toFixed(2)}x  efficiency ${(100 * r.efficiency).toFixed(1)}%` +
        `  ${r.messages} messages  busy ${r.worker_busy_seconds.toFixed(3)} s  cpu ${r.cpu_seconds.toFixed(3)} s` +
        `  model efficiency ${(100 * r.model_efficiency).toFixed(1)}%`);
    }
  } finally {
    await Promise.all(setups.map((s) => s.pool.close()));
  }
}

main().catch((err) => {
  process.stderr.write(`range-plan: ${err.message}\n`);
  process.exit(err instanceof UsageError ? 2 : 1);
});
