// The benchmark run, host-neutral: validate every loaded block whole in the pool's workers
// (the first, cold pass: parse, sighash, script evaluation and signatures in each worker's
// engine), run the chain pass in a worker, time verification passes over the final checks the
// workers returned, time the end-to-end rounds (warm), optionally compare pools (worker counts,
// wasm variants, batch sizes), and assemble the result document. The main thread runs no
// engine: it reads the blocks, encodes their spent outputs, hands out the work and reads the
// verdicts (and walks check records). Node (bench/cli/run.mjs) and the page (web/run.mjs) both
// call runBenchCore, each with its own host (fixture loading, pool factory, machine
// description), so --json and the page's download share one schema.
import { runEndToEnd, runEndToEndScaling } from './end-to-end.mjs';
import { concatChecks, checkTypeName, walkChecks } from '../../wasm/check-buffer.mjs';
import { recommendBatchSize, sweepBatchSizes } from './batch-sweep.mjs';
import { validateInWorkers } from './block-entries.mjs';
import { runChainPass } from './chain-pass.mjs';
import { projectIbd } from './projection.mjs';
import { projectChain, schnorrPerEcdsaOf, withoutKeyReuseOf } from './model-projection.mjs';
import { projectContenders } from './contenders.mjs';
import { countOf } from './format.mjs';
import { warningsOf } from './warnings.mjs';
import { runScaling, runVariants } from './scaling.mjs';
import { runVerifyPasses } from './verify-passes.mjs';

const rate = (checks, seconds) => (checks > 0 && seconds > 0 ? checks / seconds : null);

/**
 * Runs the whole benchmark on the blocks the host loaded.
 * @param {{variant: string, workers: number|'auto', batchSize: number, rounds: number,
 *   scaling?: boolean, maxWorkers?: number, variants?: string[],
 *   batchSweep?: {sizes: number[], rounds: number, checks?: number}, skipProofOfWork?: boolean}} options
 *   workers: verify workers, or 'auto': time 1..maxWorkers first (the scaling passes) and run
 *   the timed passes on the count with the highest median rate; scaling: also time 1..maxWorkers
 *   (--scaling); variants: also time each listed wasm variant on the chosen worker count (the
 *   page's SIMD vs scalar); batchSweep: also time the combined pass at each batch size in
 *   `sizes` (records per worker message), `rounds` times each, on the first `checks` final
 *   checks (default all) (bench/core/batch-sweep.mjs); skipProofOfWork: BlockValidation's
 *   option of that name (wasm/API.md), for fixture blocks mutated from real ones only.
 * @param {{loaded: Array, fixtures: string, fixtureBlocks: number, chain?: object|null,
 *   createPool: (o: {workers: number, variant: string}) => import('../../workers/verify-pool.mjs').VerifyPool,
 *   machine: (engineInfo: object) => object, workloadTable?: object, benchRatios?: object,
 *   measuredOn?: string}} host loaded: loadBlocks entries
 *   (blocks-fixtures/loader.mjs; the page's web/fixtures.mjs gives the same shape); fixtures:
 *   where they came from (a folder or URL, for the report); fixtureBlocks: blocks the
 *   manifest lists; chain: the fixture set's consecutive chain (blocks-fixtures/loader.mjs
 *   loadChain: the framed file's bytes or its error), validated as a chain after the fixture
 *   blocks in a worker (bench/core/chain-pass.mjs), or null / absent for none (a set without
 *   one, the page); createPool: a started pool (no engine is loaded on the calling thread:
 *   every engine runs in the pool's workers); machine: the `machine` entry for the engine's
 *   engineInfo() (as the first worker reports it); workloadTable: the saved workload table
 *   (bench/workload/workload-table.json) for the cost model's projection (model-projection.mjs),
 *   absent for none; benchRatios: contenders.mjs benchRatios' result for the last `npm run bench`
 *   run, for the other engines' projections, absent for none; measuredOn: where the workers run,
 *   'node' (default) or the browser's name (contenders.mjs contenderCosts), naming the measured
 *   projection.
 * @param {(msg: string) => void} log progress lines
 * @param {{track: (label: string, total: number) => (((done: number) => void)|undefined)}} [progress]
 *   live progress of the first pass and each pool.verify (bench/cli/progress.mjs in a terminal,
 *   the page's display)
 * @returns {Promise<object>} the result document: {generated_at (when the run began, ISO 8601), variant, workers, batch_size, rounds,
 *   fixtures, engine, blocks[], totals, projection, chain, machine, errors[], invalid_blocks[],
 *   disagreements[], worker_replacements, warnings[]}, and `scaling` / `scaling_interleaved`,
 *   `workers_auto`, `variants`, `batch_sweep` when asked for.
 *   Per block: {height, hash, tx_count, inputs, checks: {ecdsa, schnorr} (the FINAL checks of
 *   every input: what Core verifies, failed CHECKMULTISIG trials included), valid, invalid
 *   (verdict counts of those checks), inputs_by_type, coverage: {type: {inputs, evaluated,
 *   checks}} (every input is evaluated), block_valid (Bitcoin Core's verdict on the rules the
 *   block, its height and its spent outputs decide: docs/validation.md), reject_reason (Core's, "" when valid), stage
 *   (the Core function that rejects it: CheckBlockHeader, CheckBlock, ContextualCheckBlockHeader,
 *   ContextualCheckBlock, CheckTxInputs or ConnectBlock; "" when valid), reject_message (the
 *   engine's full message: reason, detail and location; "" when valid), tx, input, output
 *   (where the fault is, -1 where none), fee, subsidy, sigop_cost (satoshis, satoshis, cost
 *   units; null when the block was rejected before ConnectBlock, fee also when an amount rule
 *   failed before every tx was summed), not_checked ([{rule, reason}]: the rules Core applies
 *   that this verdict does not cover, rejected blocks included), script_error ({tx,
 *   input, type, error, message} of the first failing input when the verdict is a script
 *   failure, else null), failed_inputs ([{tx, input, type, error}]: every input whose script
 *   failed, whatever the verdict), parse_sighash_ms and verify_ms (the workers' warm engine
 *   time for the block, ms: parse, block rules, sighash and script evaluation; signature
 *   verification; measured inside the workers, summed over a split block's ranges, median
 *   over the timed end-to-end rounds; null for a rejected block), cold_ms (the same, all four
 *   stages, in the first, cold pass), invalid_checks:
 *   [{index, type, tx, input, of_failed_input}] (of_failed_input: the check belongs to an
 *   input of failed_inputs; otherwise a check its succeeding script tolerates, such as a
 *   CHECKMULTISIG trial), error (why the block failed to load or validate, else null)}.
 *   Totals: counts (`invalid_in_valid_blocks`: the invalid checks of valid blocks, i.e. checks
 *   that succeeding scripts tolerate, such as CHECKMULTISIG trials), `seconds` (combined pass
 *   wall time, median over the timed rounds, s), `rounds_seconds` (each timed round's, s),
 *   `checks_per_second` (at the median time), `checks_per_second_min` / `_max` (at the slowest
 *   / fastest timed round) and `per_worker` (checks_per_second / workers), all sig/s;
 *   `by_type.{ecdsa,schnorr}` the same for each type's separate pass: {checks, seconds,
 *   rounds_seconds, checks_per_second, checks_per_second_min, checks_per_second_max}, and
 *   `by_type.{ecdsa,schnorr}_one_per_key` for the pass over each type's first check under each
 *   key (no key reuse: the projection's high end; checks null when the passes failed);
 *   `parse_sighash_seconds` and `verify_seconds` (the blocks' parse_sighash_ms and verify_ms
 *   summed, s: warm, in the workers). Rates are null when there is nothing to measure.
 *   Projection: projectIbd's result (bench/core/projection.mjs), or {hours: null, error}, plus
 *   `sample: {blocks, transactions, checks, fixture_blocks, partial}`: the blocks it was measured
 *   on, out of the `fixture_blocks` the manifest lists (`partial` when fewer).
 *   `disagreements` lists final-check indices (over all blocks' final checks concatenated) whose
 *   verdict in any timed pass differs from another pass's or from the workers' whole-block
 *   validation (expected empty). `worker_replacements`: workers that died (exit, trap, deadline) and were
 *   replaced over the whole run (their batches re-ran; expected 0). `warnings`: the report's
 *   warnings as plain strings (report.mjs warningsOf), empty when there is none.
 *   `scaling`: one entry per worker count 1..maxWorkers (bench/core/scaling.mjs runScaling: workers,
 *   checks_per_second and its _min / _max, speedup vs 1 worker, efficiency = speedup / workers,
 *   startup_ms, seconds, rounds_seconds); `scaling_interleaved`: whether each timed round ran
 *   every worker count once. `workers_auto` (workers 'auto'): {max_workers, chosen, rule}.
 *   `end_to_end`: runEndToEnd's entry (bench/core/end-to-end.mjs; docs/json.md).
 *   `chain`: runChainPass's entry (bench/core/chain-pass.mjs; docs/json.md), null without a chain.
 *   `variants`: runVariants rows (variant, workers, rates, startup_ms, seconds, rounds_seconds,
 *   error when the variant's pool did not start). `batch_sweep`: bench/core/batch-sweep.mjs
 *   sweepBatchSizes' result ({records, copies, workers, rounds, rows: [{batch_size,
 *   message_records, checks_per_second, _min, _max, rounds_seconds}], disagreements: a count})
 *   with `checks` (the final checks it was cut from) and `recommended` (recommendBatchSize).
 * @throws Error when nothing can run: no block loads, no wasm build, a worker that fails, a
 *   malformed check buffer.
 */
export async function runBenchCore(options, host, log, progress) {
  const generatedAt = new Date().toISOString();
  const auto = options.workers === 'auto';
  if (auto && !(options.maxWorkers >= 1)) throw new RangeError('workers "auto" needs maxWorkers (1 or more)');
  const pools = []; // every pool of the run, for its worker replacements and the final close
  const createPool = (config) => {
    const pool = host.createPool(config);
    pools.push(pool);
    return pool;
  };
  const common = { variant: options.variant, batchSize: options.batchSize, rounds: options.rounds, createPool, log, progress };

  let workers = auto ? options.maxWorkers : options.workers;
  let pool = createPool({ workers, variant: options.variant });
  const firstPool = pool;
  try {
    const engineInfo = { ...(await pool.ready())[0] };
    const first = await validateInWorkers(pool, host.loaded, { skipProofOfWork: options.skipProofOfWork, log, progress });
    const validated = first.entries;
    const chain = host.chain ? await runChainPass(pool, host.chain, validated, { skipProofOfWork: options.skipProofOfWork, log }) : null;
    const ok = validated.filter((b) => !b.error);
    const checks = concatChecks(ok.map((b) => b.checks));
    const walked = walkChecks(checks);
    const reference = concatChecks(ok.map((b) => b.verdicts));
    const extra = {};
    const disagreements = new Set();
    const addDisagreements = (list) => list.forEach((i) => disagreements.add(i));

    const scale = async () => {
      const scaling = await runScaling(checks, walked, reference, { ...common, maxWorkers: options.maxWorkers });
      addDisagreements(scaling.disagreements);
      extra.scaling = scaling.scaling;
      extra.scaling_interleaved = scaling.interleaved;
      return scaling.scaling;
    };

    if (auto) {
      await pool.close(); // its idle workers out of the way of the scaling pools
      workers = bestWorkerCount(await scale());
      extra.workers_auto = { max_workers: options.maxWorkers, chosen: workers,
        rule: 'the worker count with the highest median checks/s of the scaling passes (fewest on a tie)' };
      log(`auto: ${countOf(workers, 'worker')} (highest median rate of 1..${options.maxWorkers})`);
      pool = createPool({ workers, variant: options.variant });
      await pool.ready();
    }
    let passes;
    try {
      passes = await runVerifyPasses(pool, checks, walked, { batchSize: options.batchSize, rounds: options.rounds, log, progress });
    } catch (err) {
      // A batch whose workers died on it every time: the passes have no rate, the blocks keep
      // the workers' verdicts, and the run goes on (exit 1, the error in `verify_error`).
      const error = withBlocks(err.message, ok);
      log(`verify passes failed: ${error}`);
      passes = failedPasses(reference, walked, options.rounds, error);
    }
    addDisagreements(passes.disagreements);
    passes.verdicts.forEach((v, i) => { if (v !== reference[i]) disagreements.add(i); });
    if (options.batchSweep) extra.batch_sweep = await runBatchSweep(pool, checks, walked, options.batchSweep, log);
    // The first pass warmed the first pool's engines; a pool started since (workers 'auto') is cold.
    const { endToEnd, blockMs } = await runEndToEnd(pool, first, { rounds: options.rounds, warmUp: pool !== firstPool, log });
    await pool.close(); // its idle workers out of the way of the pools compared next
    if (options.scaling && !auto) await scale();
    if (options.scaling) {
      endToEnd.scaling = await runEndToEndScaling(createPool, first.jobs,
        { maxWorkers: options.maxWorkers, variant: options.variant, rounds: options.rounds, log });
    }
    if (options.variants?.length) {
      const variants = await runVariants(checks, walked, reference, { ...common, workers, variants: options.variants });
      addDisagreements(variants.disagreements);
      extra.variants = variants.variants;
    }

    const blocks = [];
    let at = 0;
    for (const b of validated) {
      if (b.error) {
        blocks.push(errorBlock(b));
        continue;
      }
      const count = b.ecdsa + b.schnorr;
      blocks.push(blockResult(b, passes.verdicts.subarray(at, at + count), blockMs[b.job]));
      at += count;
    }
    const totals = totalsOf(blocks, passes, workers);
    const doc = {
      generated_at: generatedAt,
      variant: options.variant,
      workers,
      batch_size: options.batchSize,
      rounds: passes.rounds,
      fixtures: host.fixtures,
      engine: engineInfo,
      blocks,
      totals,
      projection: {
        ...projection(totals, ok.filter((b) => !b.rejected), host.fixtureBlocks, workers, endToEnd),
        ...modelProjection(blocks, totals, endToEnd, host.workloadTable, host.benchRatios, host.measuredOn, options.variant),
      },
      end_to_end: endToEnd,
      chain,
      machine: host.machine(engineInfo),
      errors: blocks.filter((b) => b.error).map((b) => ({ height: b.height, hash: b.hash, error: b.error })),
      invalid_blocks: blocks.filter((b) => b.block_valid === false).map((b) => ({
        height: b.height, hash: b.hash, reject_reason: b.reject_reason, stage: b.stage, tx: b.tx, input: b.input,
        output: b.output, message: b.reject_message, script_error: b.script_error,
      })),
      disagreements: [...disagreements].sort((a, b) => a - b),
      verify_error: passes.error ?? null,
      ...extra,
    };
    doc.worker_replacements = pools.reduce((n, p) => n + p.replacements, 0);
    doc.warnings = warningsOf(doc);
    return doc;
  } finally {
    await Promise.all(pools.map((p) => p.close())); // closing a pool again is harmless
  }
}

/**
 * The exit code of a finished run (npm start; the page's download carries it as `exit_code`
 * too): 1 a failed block or inconsistent passes (the timed end-to-end rounds disagreeing with
 * the first pass included, a block failing in a timed round among them), or a chain pass that could not judge its chain
 * (the file did not load, a bad frame, a block that could not be read, spends whose checks or
 * verdicts differ from the fixture path's, fewer blocks connected than the manifest lists or a
 * tip other than its last block: chainShortfall); 3 an invalid block (Core rejects it: a rule or a
 * script fails), a fixture block or a block of the chain; else 0.
 * Invalid checks alone (CHECKMULTISIG trials and other checks a valid script tolerates) are
 * not a failure.
 * @param {object} doc runBenchCore's result document
 * @returns {0|1|3}
 */
export function exitCodeOf(doc) {
  if (doc.errors.length > 0 || doc.disagreements.length > 0 || doc.verify_error || doc.end_to_end?.disagreements?.length) return 1;
  const c = doc.chain;
  if (c && (c.error || c.file_error || (c.failure && !c.failure.judged) || c.fixture_match?.differing.length)) return 1;
  if (c && !c.failure && chainShortfall(c)) return 1;
  if (doc.totals.invalid_blocks > 0 || c?.failure) return 3;
  return 0;
}

/**
 * Why a chain pass with no failing block still did not validate the chain the manifest names,
 * or null: fewer blocks connected than the manifest lists (a file shorter than its entry says),
 * or a tip other than the manifest's last block.
 * @param {object} c the document's `chain` entry (chain-pass.mjs)
 * @returns {string|null}
 */
export function chainShortfall(c) {
  if (c.error || c.failure || c.file_error) return null;
  if (c.connected !== c.blocks) return `${c.connected} of the manifest's ${c.blocks} blocks connected`;
  if (!c.tip?.matches_manifest) return `the tip ${c.tip?.hash} (height ${c.tip?.height}) is not the manifest's last block`;
  return null;
}

/** The passes' result when they failed: no times, the workers' verdicts, `error`. */
function failedPasses(reference, walked, rounds, error) {
  const none = (checks) => ({ checks, seconds: null, roundsSeconds: [] });
  return { verdicts: reference, seconds: null, roundsSeconds: [], rounds, disagreements: [], error,
    byType: { ecdsa: none(walked.byType.ecdsa), schnorr: none(walked.byType.schnorr),
      ecdsa_one_per_key: none(null), schnorr_one_per_key: none(null) } };
}

/** `message` with the blocks its "record N" (an index over the blocks' final checks,
 *  concatenated) falls in named after it. */
function withBlocks(message, blocks) {
  const at = /record (\d+)/.exec(message);
  if (!at) return message;
  let first = 0;
  for (const b of blocks) {
    const count = b.ecdsa + b.schnorr;
    if (Number(at[1]) < first + count) return `${message} (record ${at[1]}: block ${b.height} ${b.hash}, its check ${Number(at[1]) - first})`;
    first += count;
  }
  return message;
}

/** The worker count of the highest median rate; the fewest workers on a tie. */
function bestWorkerCount(rows) {
  return rows.reduce((best, r) => ((r.checks_per_second ?? 0) > (best.checks_per_second ?? 0) ? r : best)).workers;
}

/** The batch-size sweep (bench/core/batch-sweep.mjs) on the first `checks` final checks (all by
 *  default): {checks, records, copies, workers, rounds, rows, disagreements, recommended}. */
async function runBatchSweep(pool, checks, walked, { sizes, rounds, checks: limit }, log) {
  const count = Math.min(limit ?? walked.count, walked.count);
  log(`batch sweep: ${countOf(count, 'check')} at batch sizes ${sizes.join(', ')}, ${countOf(rounds, 'round')}`);
  const sweep = await sweepBatchSizes(pool, checks.subarray(0, walked.offsets[count]), {
    sizes, rounds,
    onProgress: (p) => log(`batch sweep round ${p.round}/${p.rounds}: batch ${p.batchSize}: ` +
      `${Math.round(p.checksPerSecond ?? 0).toLocaleString('en-US')} checks/s`),
  });
  return { checks: count, ...sweep, recommended: recommendBatchSize(sweep.rows) };
}

function errorBlock(b) {
  return {
    height: b.height, hash: b.hash, tx_count: null, inputs: b.inputs, checks: null, valid: null,
    invalid: null, inputs_by_type: null, coverage: null,
    block_valid: null, ...verdictFields(null), script_error: null, failed_inputs: [], parse_sighash_ms: null,
    verify_ms: null, cold_ms: null, invalid_checks: [],
    error: b.error,
  };
}

/** The verdict's fields of a block entry from its `verdict` (block-entries.mjs; null: a load failure). */
function verdictFields(v) {
  return {
    reject_reason: v?.rejectReason ?? null, stage: v?.stage ?? null, reject_message: v?.message ?? null,
    tx: v?.txIndex ?? null, input: v?.inputIndex ?? null, output: v?.outputIndex ?? null,
    fee: v?.fee ?? null, subsidy: v?.subsidy ?? null, sigop_cost: v?.sigopCost ?? null, not_checked: v?.notChecked ?? null,
  };
}

/** One block's report entry; `verdicts` are its final checks' verdicts from the combined pass,
 *  `warm` its warm engine times (end-to-end.mjs runEndToEnd's blockMs entry, or null).
 *  Invalid checks (in a valid block: checks its scripts tolerate, such as CHECKMULTISIG trials;
 *  in an invalid block also those of failing inputs) are listed with their index within
 *  the block's records and their origin (tx, input). */
function blockResult(b, verdicts, warm) {
  const failing = new Set(b.inputFailures.map((f) => `${f.tx}:${f.input}`));
  const invalidChecks = [];
  verdicts.forEach((v, i) => {
    if (v !== 1) {
      const tx = b.origins[2 * i];
      const input = b.origins[2 * i + 1];
      invalidChecks.push({ index: i, type: checkTypeName(b.types[i]), tx, input, of_failed_input: failing.has(`${tx}:${input}`) });
    }
  });
  return {
    height: b.height,
    hash: b.hash,
    tx_count: b.txCount,
    inputs: b.inputs,
    checks: { ecdsa: b.ecdsa, schnorr: b.schnorr },
    valid: verdicts.length - invalidChecks.length,
    invalid: invalidChecks.length,
    inputs_by_type: b.inputsByType,
    coverage: b.coverage,
    block_valid: b.blockValid,
    ...verdictFields(b.verdict),
    script_error: b.scriptError,
    failed_inputs: b.inputFailures,
    parse_sighash_ms: warm?.parseSighash ?? null,
    verify_ms: warm?.verify ?? null,
    stages_ms: warm?.stages ?? null,
    parts_ms: warm?.parts ?? null,
    engine_ms: warm?.total ?? null,
    workload: b.workload,
    cold_ms: b.coldMs,
    invalid_checks: invalidChecks,
    error: null,
  };
}

/** The separate verify passes (verify-passes.mjs), as named in totals.by_type. */
const SEPARATE_PASSES = ['ecdsa', 'schnorr', 'ecdsa_one_per_key', 'schnorr_one_per_key'];

function totalsOf(blocks, passes, workers) {
  const ok = blocks.filter((b) => !b.error);
  const sum = (f) => ok.reduce((n, b) => n + f(b), 0);
  const checks = sum((b) => b.checks.ecdsa + b.checks.schnorr);
  const all = passStats(checks, passes.seconds, passes.roundsSeconds);
  const byType = {};
  for (const name of SEPARATE_PASSES) {
    const t = passes.byType[name];
    if (t) byType[name] = { checks: t.checks, ...passStats(t.checks, t.seconds, t.roundsSeconds) };
  }
  return {
    blocks: blocks.length,
    blocks_failed: blocks.length - ok.length,
    inputs: sum((b) => b.inputs),
    evaluated_inputs: sum((b) => Object.values(b.coverage).reduce((n, c) => n + c.evaluated, 0)),
    invalid_blocks: ok.filter((b) => !b.block_valid).length,
    checks,
    valid: sum((b) => b.valid),
    invalid: sum((b) => b.invalid),
    invalid_in_valid_blocks: sum((b) => (b.block_valid ? b.invalid : 0)),
    ...all,
    per_worker: all.checks_per_second === null ? null : all.checks_per_second / workers,
    by_type: byType,
    parse_sighash_seconds: sum((b) => b.parse_sighash_ms ?? 0) / 1000,
    verify_seconds: sum((b) => b.verify_ms ?? 0) / 1000,
  };
}

/** The cost model's projection (model-projection.mjs projectChain) over the saved workload
 *  table, on the run's worker count: {model: the whole result, contenders: the other engines'
 *  (contenders.mjs projectContenders, from `bench`: benchRatios' result of the last bench run;
 *  null without one)} plus its headline fields at the top (full_chain_hours,
 *  after_assumevalid_hours, per_block, trusted, at_mix, eras); {model: null, model_error} without a
 *  table or when it cannot be made. */
function modelProjection(blocks, totals, endToEnd, table, bench, measuredOn = 'node', variant = 'simd') {
  if (!table) return { model: null, model_error: 'no workload table given (bench/workload/workload-table.json)' };
  try {
    const schnorrPerEcdsa = schnorrPerEcdsaOf(totals) ?? 1;
    const m = projectChain({ blocks, table, endToEnd, schnorrPerEcdsa, withoutKeyReuse: withoutKeyReuseOf(totals) });
    m.schnorr_per_ecdsa = schnorrPerEcdsa;
    // The other engines, from the last bench run's ratios when the host has them.
    const contenders = bench ? { bench_run: bench.run, missing: bench.missing, engines: projectContenders(m, table, bench.ratios, { measuredOn, variant }) } : null;
    return { model: m, contenders, full_chain_hours: m.full_chain_hours, after_assumevalid_hours: m.after_assumevalid_hours,
      per_block: m.per_block.map(({ height, predicted_ms, measured_ms, ratio, judged, within, pooled, ratio_at_mix }) => ({ height, predicted_ms, measured_ms, ratio, judged, within, pooled, ratio_at_mix })),
      trusted: m.trusted, at_mix: m.at_mix, eras: m.eras };
  } catch (err) {
    return { model: null, model_error: err.message };
  }
}

/** A pass's median time, round times (s) and rates (sig/s) at the median, slowest, fastest round. */
function passStats(checks, seconds, roundsSeconds) {
  return {
    seconds,
    rounds_seconds: roundsSeconds,
    checks_per_second: rate(checks, seconds),
    checks_per_second_min: roundsSeconds.length ? rate(checks, Math.max(...roundsSeconds)) : null,
    checks_per_second_max: roundsSeconds.length ? rate(checks, Math.min(...roundsSeconds)) : null,
  };
}

/** projectIbd (bench/core/projection.mjs) at the separate passes' per-type rates, with the sample it
 *  used, and `end_to_end`: the same workload at the end-to-end pass's whole-block rate ({hours,
 *  checks_per_second, workers}, null without a rate); {hours: null, error} when it cannot. */
function projection(totals, okBlocks, fixtureBlocks, workers, endToEnd) {
  const transactions = okBlocks.reduce((n, b) => n + b.txCount, 0);
  const sample = { blocks: okBlocks.length, transactions, checks: totals.checks,
    fixture_blocks: fixtureBlocks, partial: okBlocks.length < fixtureBlocks };
  try {
    const out = {
      ...projectIbd({
        ecdsaPerSecond: totals.by_type.ecdsa.checks_per_second,
        schnorrPerSecond: totals.by_type.schnorr.checks_per_second,
        workers,
        sample: { transactions, ecdsa: totals.by_type.ecdsa.checks, schnorr: totals.by_type.schnorr.checks },
      }),
      sample,
    };
    // The same workload at the whole-block rate (parse, sighash, script and verify in the
    // workers), the question's own terms: validating, not only verifying signatures.
    const rate = endToEnd?.checks_per_second;
    out.end_to_end = rate > 0 && out.workload_checks > 0
      ? { hours: out.workload_checks / rate / 3600, checks_per_second: rate, workers: endToEnd.workers } : null;
    return out;
  } catch (err) {
    return { hours: null, workload_checks: null, source: null, error: err.message, sample };
  }
}
