// The benchmark run: load fixtures, validate every block (script evaluation on the main thread,
// each round's pending checks through the pool), time verification passes over the final checks
// through the pool, and assemble the result document (the same schema for --json, the terminal and later the page).
import { fixturesDir, loadBlocks, readManifest } from '../blocks-fixtures/loader.mjs';
import { loadEngine } from '../workers/engine.mjs';
import { checkTypeName, concatChecks, walkChecks } from '../workers/job-buffer.mjs';
import { createPool } from '../workers/pool.mjs';
import { validateBlocks } from './extract.mjs';
import { machineInfo } from './machine.mjs';
import { projectIbd } from './projection.mjs';
import { warningsOf } from './report.mjs';
import { runScaling } from './scaling.mjs';
import { runVerifyPasses } from './verify-passes.mjs';

const rate = (checks, seconds) => (checks > 0 && seconds > 0 ? checks / seconds : null);

/**
 * Runs the whole benchmark.
 * @param {{fixtures?: string, heights?: number[], workers: number, variant: string,
 *   batchSize: number, rounds: number, scaling?: boolean, maxWorkers?: number}} options as from parseOptions (bench/options.mjs)
 * @param {(msg: string) => void} log progress sink (stderr)
 * @param {ReturnType<typeof import('./progress.mjs').createProgress>} [progress] bars for the
 *   validation rounds and timed passes (bench/progress.mjs); none when absent
 * @returns {Promise<object>} the result document: {variant, workers, batch_size, fixtures,
 *   engine, blocks[], totals, projection, machine, errors[], disagreements[], invalid_blocks[],
 *   warnings[]}.
 *   Per block: {height, hash, tx_count, inputs, checks: {ecdsa, schnorr} (the FINAL checks of
 *   every input: what Core verifies, failed CHECKMULTISIG trials included), valid, invalid
 *   (verdict counts of those checks), inputs_by_type, unsupported_by_type (always {}: every
 *   input is evaluated), coverage: {type: {inputs, evaluated, checks}}, rounds (validation
 *   rounds), block_valid, script_error ({tx, input, type, error, message} of the first failing
 *   input, or null), parse_sighash_ms (main-thread engine time: parse, sighash, script
 *   evaluation of every validation round; the report's `engine ms`), invalid_checks: [{index, type, tx, input}], error}.
 *   Totals: counts (`invalid_in_valid_blocks`: the invalid checks of valid blocks, i.e. checks
 *   that succeeding scripts tolerate, such as CHECKMULTISIG trials), `seconds` (combined pass
 *   wall time, median over the timed rounds, s), `rounds_seconds` (each timed round's, s),
 *   `checks_per_second` (at the median time), `checks_per_second_min` / `_max` (at the slowest
 *   / fastest timed round) and `per_worker` (checks_per_second / workers), all
 *   sig/s; `by_type.{ecdsa,schnorr}` the same for each type's separate pass: {checks, seconds,
 *   rounds_seconds, checks_per_second, checks_per_second_min, checks_per_second_max};
 *   `parse_sighash_seconds` (main-thread engine time of all blocks, as parse_sighash_ms; the
 *   untimed engine warm-up excluded). Rates are null when there is nothing to measure.
 *   Projection: projectIbd's result (bench/projection.mjs), or {hours: null, error}, plus
 *   `sample: {blocks, transactions, checks, fixture_blocks, partial}`: the blocks it was measured
 *   on, out of the `fixture_blocks` the manifest lists (`partial` when fewer).
 *   `disagreements` lists final-check indices (over all blocks' final checks concatenated) whose
 *   verdict differs between the timed passes or from the validation rounds (expected empty).
 *   `warnings`: the report's warnings as plain strings (noisy timed rounds, partial or small
 *   projection sample; report.mjs warningsOf), empty when there is none.
 *   With options.scaling only: `scaling`, one entry per worker count 1..options.maxWorkers
 *   (bench/scaling.mjs runScaling: workers, checks_per_second and its _min / _max, speedup vs 1
 *   worker, efficiency = speedup / workers, startup_ms, seconds, rounds_seconds), and
 *   `scaling_interleaved` (whether each timed round ran every worker count once); the scaling
 *   passes' verdicts join `disagreements`.
 * @throws Error when nothing can run: no fixtures directory or manifest, no block loads, no
 *   wasm build, a worker that fails, a malformed check buffer.
 */
export async function runBench(options, log, progress) {
  const dir = fixturesDir(options.fixtures);
  const loaded = await loadBlocks(dir, { heights: options.heights });
  const fixtureBlocks = readManifest(dir).blocks.length;
  let engineInfo;
  const reload = async () => {
    const engine = await loadEngine(options.variant);
    engineInfo ??= { ...engine.engineInfo() };
    return engine;
  };
  const pool = createPool({ workers: options.workers, variant: options.variant });
  try {
    await pool.ready();
    const validated = await validateBlocks(reload, loaded, pool, { batchSize: options.batchSize, log, progress });
    const ok = validated.filter((b) => !b.error);
    const checks = concatChecks(ok.map((b) => b.checks));
    const walked = walkChecks(checks);
    const passes = await runVerifyPasses(pool, checks, walked, { batchSize: options.batchSize, rounds: options.rounds, log, progress });
    let scaling = null;
    if (options.scaling) {
      await pool.close(); // its idle workers out of the way of the scaling pools
      scaling = await runScaling(checks, walked, passes.verdicts, {
        maxWorkers: options.maxWorkers, variant: options.variant, batchSize: options.batchSize, rounds: options.rounds, log,
      });
    }

    const blocks = [];
    const disagreements = new Set([...passes.disagreements, ...(scaling?.disagreements ?? [])]);
    let first = 0;
    for (const b of validated) {
      if (b.error) {
        blocks.push(errorBlock(b));
        continue;
      }
      const count = b.ecdsa + b.schnorr;
      const verdicts = passes.verdicts.subarray(first, first + count);
      verdicts.forEach((v, i) => { if (v !== b.verdicts[i]) disagreements.add(first + i); });
      blocks.push(blockResult(b, verdicts));
      first += count;
    }
    const totals = totalsOf(blocks, passes, options.workers);
    const doc = {
      variant: options.variant,
      workers: options.workers,
      batch_size: options.batchSize,
      rounds: passes.rounds,
      fixtures: dir,
      engine: engineInfo,
      blocks,
      totals,
      projection: projection(totals, ok, fixtureBlocks, options.workers),
      machine: machineInfo(engineInfo),
      errors: blocks.filter((b) => b.error).map((b) => ({ height: b.height, hash: b.hash, error: b.error })),
      invalid_blocks: blocks.filter((b) => b.block_valid === false)
        .map((b) => ({ height: b.height, hash: b.hash, ...b.script_error })),
      disagreements: [...disagreements].sort((a, b) => a - b),
    };
    if (scaling) {
      doc.scaling = scaling.scaling;
      doc.scaling_interleaved = scaling.interleaved;
    }
    doc.warnings = warningsOf(doc);
    return doc;
  } finally {
    await pool.close();
  }
}

function errorBlock(b) {
  return {
    height: b.height, hash: b.hash, tx_count: null, inputs: b.inputs, checks: null, valid: null,
    invalid: null, inputs_by_type: null, unsupported_by_type: null, coverage: null, rounds: null,
    block_valid: null, script_error: null, parse_sighash_ms: null, invalid_checks: [], error: b.error,
  };
}

/** One block's report entry; `verdicts` are its final checks' verdicts from the combined pass.
 *  Invalid checks (in a valid block: checks its scripts tolerate, such as CHECKMULTISIG trials;
 *  in an invalid block also those of failing inputs) are listed with their index within
 *  the block's records and their origin (tx, input). */
function blockResult(b, verdicts) {
  const invalidChecks = [];
  verdicts.forEach((v, i) => {
    if (v !== 1) {
      invalidChecks.push({ index: i, type: checkTypeName(b.types[i]), tx: b.origins[2 * i], input: b.origins[2 * i + 1] });
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
    unsupported_by_type: {},
    coverage: b.coverage,
    rounds: b.rounds,
    block_valid: b.blockValid,
    script_error: b.scriptError,
    parse_sighash_ms: b.parseMs,
    invalid_checks: invalidChecks,
    error: null,
  };
}

function totalsOf(blocks, passes, workers) {
  const ok = blocks.filter((b) => !b.error);
  const sum = (f) => ok.reduce((n, b) => n + f(b), 0);
  const checks = sum((b) => b.checks.ecdsa + b.checks.schnorr);
  const all = passStats(checks, passes.seconds, passes.roundsSeconds);
  const byType = {};
  for (const name of ['ecdsa', 'schnorr']) {
    const t = passes.byType[name];
    byType[name] = { checks: t.checks, ...passStats(t.checks, t.seconds, t.roundsSeconds) };
  }
  return {
    blocks: blocks.length,
    blocks_failed: blocks.length - ok.length,
    inputs: sum((b) => b.inputs),
    unsupported_inputs: sum((b) => Object.values(b.unsupported_by_type).reduce((n, v) => n + v, 0)),
    evaluated_inputs: sum((b) => Object.values(b.coverage).reduce((n, c) => n + c.evaluated, 0)),
    invalid_blocks: ok.filter((b) => !b.block_valid).length,
    validation_rounds: ok.reduce((n, b) => Math.max(n, b.rounds), 0),
    checks,
    valid: sum((b) => b.valid),
    invalid: sum((b) => b.invalid),
    invalid_in_valid_blocks: sum((b) => (b.block_valid ? b.invalid : 0)),
    ...all,
    per_worker: all.checks_per_second === null ? null : all.checks_per_second / workers,
    by_type: byType,
    parse_sighash_seconds: sum((b) => b.parse_sighash_ms) / 1000,
  };
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

/** projectIbd (bench/projection.mjs) at the separate passes' per-type rates, with the sample it
 *  used; {hours: null, error} when it cannot. */
function projection(totals, okBlocks, fixtureBlocks, workers) {
  const transactions = okBlocks.reduce((n, b) => n + b.txCount, 0);
  const sample = { blocks: okBlocks.length, transactions, checks: totals.checks,
    fixture_blocks: fixtureBlocks, partial: okBlocks.length < fixtureBlocks };
  try {
    return {
      ...projectIbd({
        ecdsaPerSecond: totals.by_type.ecdsa.checks_per_second,
        schnorrPerSecond: totals.by_type.schnorr.checks_per_second,
        workers,
        sample: { transactions, ecdsa: totals.by_type.ecdsa.checks, schnorr: totals.by_type.schnorr.checks },
      }),
      sample,
    };
  } catch (err) {
    return { hours: null, workload_checks: null, source: null, error: err.message, sample };
  }
}
