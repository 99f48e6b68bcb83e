// The projection: how long validating a span of the chain takes on N workers, from the cost
// model (cost-model.mjs: what each unit of work costs one worker, fitted on the measured blocks)
// applied to the workload table (workload-model.mjs: what the span holds), and the scaling the
// run measured. With the check that earns the model its name: every measured block predicted
// from costs fitted on the others (predictBlocks). Host-neutral.
import { DEFAULT_TARGET_INPUTS, MAX_RANGES_PER_WORKER } from '../../workers/block-jobs.mjs';
import { fitCosts, predictBlocks, predictStages, STAGE_NAMES, stagesTotal } from './cost-model.mjs';
import { INPUT_TYPES, roundFigures, roundRange, totalChecks, workloadFor } from './workload-model.mjs';
import { countOf } from './format.mjs';

/** Bitcoin Core's default assumevalid block at the newest release the chain data covers: Core
 *  30's defaultAssumeValid, height 912,683 (../shared/chain-workload/tx_count_points.csv, its
 *  row for that height: "Core 30 assumevalid block"). Core skips the scripts of the blocks up to
 *  it by default; those after it are what a default sync checks. */
export const ASSUMEVALID = Object.freeze({ height: 912683, source: 'Bitcoin Core 30 defaultAssumeValid, height 912,683 (chainparams.cpp; tx_count_points.csv)' });

/** Timed rounds a block's measured time must be the median of for the per-block check to judge. */
export const MIN_ROUNDS = 5;

/** A Schnorr check's verify cost in ECDSA checks: the run's ECDSA verify rate over its Schnorr
 *  one (its separate verify passes, `totals.by_type`), or null when either is missing. */
export function schnorrPerEcdsaOf(totals) {
  const ecdsa = totals?.by_type?.ecdsa?.checks_per_second;
  const schnorr = totals?.by_type?.schnorr?.checks_per_second;
  return ecdsa > 0 && schnorr > 0 ? ecdsa / schnorr : null;
}

/**
 * Verify prices without key reuse, from the run's passes over each type's first check under
 * each key (`totals.by_type.{ecdsa,schnorr}_one_per_key`): the fixtures reuse keys (46% of their
 * ECDSA checks are under a key an earlier check of the block used, and block 866,342's 2,375
 * Schnorr checks are under 444 keys), which the engine turns into speed (a parsed-key cache; one
 * batch term per Schnorr key), and no source here measures the chain's reuse. Null when a rate
 * is missing.
 * @returns {{ecdsa_factor: number, schnorr_per_ecdsa: number}|null} ecdsa_factor: the ECDSA rate
 *   over the one-per-key ECDSA rate, at least 1; schnorr_per_ecdsa: a one-per-key Schnorr
 *   check's cost in (key-reusing) ECDSA checks, at least schnorrPerEcdsaOf's
 */
export function withoutKeyReuseOf(totals) {
  const t = totals?.by_type;
  const ecdsa = t?.ecdsa?.checks_per_second;
  const ecdsaOne = t?.ecdsa_one_per_key?.checks_per_second;
  const schnorrOne = t?.schnorr_one_per_key?.checks_per_second;
  const reuse = schnorrPerEcdsaOf(totals);
  if (!(ecdsa > 0 && ecdsaOne > 0 && schnorrOne > 0) || reuse === null) return null;
  return { ecdsa_factor: Math.max(1, ecdsa / ecdsaOne), schnorr_per_ecdsa: Math.max(reuse, ecdsa / schnorrOne) };
}

/**
 * The engine calls per block of a span on `workers` workers, as planBlockJobs
 * (workers/block-jobs.mjs) cuts blocks: a block of more than twice the target's inputs
 * (DEFAULT_TARGET_INPUTS; the pool lowers it only for a batch too small to give every worker 4
 * messages, which a chain's stream is not) takes one call for its rules and one per range of
 * about the target's inputs, at most MAX_RANGES_PER_WORKER x workers. Taken at the span's mean
 * inputs per block.
 */
export function callsPerBlock(inputsPerBlock, workers) {
  if (!(inputsPerBlock > 2 * DEFAULT_TARGET_INPUTS)) return 1;
  return 1 + Math.min(Math.ceil(inputsPerBlock / DEFAULT_TARGET_INPUTS), MAX_RANGES_PER_WORKER * workers);
}

/** A span's workload (workloadFor's figures at `k`: 'value', 'low' or 'high') in the shape of a
 *  block's (block-workload.mjs), with its engine calls on `workers` workers, for the cost model. */
export function spanWorkload(figures, blocks, k, workers) {
  const f = (name) => figures[name][k];
  const calls = callsPerBlock(f('inputs') / blocks, workers);
  return {
    calls: calls * blocks, extra_call_bytes: f('block_bytes') * (calls - 1),
    bytes: f('block_bytes'), txs: f('transactions'), inputs: f('inputs'),
    checks: { ecdsa_single: f('checks_ecdsa_single'), ecdsa_multisig: f('checks_ecdsa_multisig'),
      schnorr_keypath: f('checks_schnorr_keypath'), schnorr_scriptpath: f('checks_schnorr_scriptpath') },
    sighash_bytes: { legacy: f('sighash_bytes_legacy'), bip143: f('sighash_bytes_bip143'), bip341: f('sighash_bytes_bip341') },
    sighashes: { legacy: f('sighashes_legacy'), bip143: f('sighashes_bip143'), bip341: f('sighashes_bip341') },
    legacy_sighash_hashed: f('sighash_hashed_legacy'),
    inputs_by_type: Object.fromEntries(INPUT_TYPES.map(({ type, key }) => [type, f(`inputs_${key}`)])),
  };
}

/**
 * The span's inputs by script type at the cheapest (`k` 'low') or dearest ('high') mix its
 * figures allow: every type between its low and high figure, the types adding up to the span's
 * inputs at `k` (where each type at its high would count some inputs twice: the 0-150,000 era's
 * P2PK and P2PKH shares each range 0 to 1). From every type at its low, the rest of the inputs
 * go to the cheapest (dearest) types first, each up to its high; inputs beyond every high go to
 * the cheapest (dearest) type. A type's cost: its own (costs.script), else the pooled per input.
 * @returns {{[type: string]: number}} inputs
 */
export function extremeMix(costs, figures, k) {
  const total = figures.inputs[k];
  const types = INPUT_TYPES.map(({ type, key }) => ({ type, low: figures[`inputs_${key}`].low, high: figures[`inputs_${key}`].high,
    cost: Object.hasOwn(costs.script, type) ? costs.script[type] : costs.script.per_input }));
  const lows = types.reduce((n, t) => n + t.low, 0);
  const scale = lows > total && lows > 0 ? total / lows : 1;
  const mix = Object.fromEntries(types.map((t) => [t.type, t.low * scale]));
  let rest = total - lows * scale;
  const order = [...types].sort((a, b) => (k === 'high' ? b.cost - a.cost : a.cost - b.cost));
  for (const t of order) {
    const add = Math.min(rest, Math.max(0, t.high - mix[t.type]));
    mix[t.type] += add;
    rest -= add;
  }
  if (rest > 0) mix[order[0].type] += rest;
  return mix;
}

/** Milliseconds one worker spends on a span's workload under `costs` (cost-model.mjs
 *  fitCosts') on a pool of `workers`: {value, low, high} of the workload, as a block's time is
 *  predicted; low and high with the cheapest and dearest mix of input types (extremeMix). */
export function spanMs(costs, figures, blocks, workers) {
  const out = {};
  for (const k of ['value', 'low', 'high']) {
    const w = spanWorkload(figures, blocks, k, workers);
    if (k !== 'value') w.inputs_by_type = extremeMix(costs, figures, k);
    out[k] = stagesTotal(predictStages(costs, w));
  }
  return out;
}

/**
 * The pool's efficiency at `workers`: the share of the wall time each worker spends in the engine.
 * Measured at the run's own worker count (the stages summed over the workers over wall x
 * workers); other counts scale it by the end-to-end scaling curve where measured, and beyond
 * the curve keep its last efficiency (stated in `assumption`).
 * @param {{workers: number, seconds: number, stages: {parse_s, sighash_s, script_s, verify_s},
 *   scaling?: Array<{workers: number, efficiency: number}>}} endToEnd the run's end_to_end
 * @param {number} workers 1..64
 * @returns {{efficiency: number, measured: boolean, assumption: string|null}}
 */
export function poolEfficiency(endToEnd, workers) {
  const s = endToEnd.stages;
  // A worker cannot spend more than the whole wall time in its engine: capped at 1.
  const cap = (x) => Math.min(1, x);
  const base = cap((s.parse_s + s.sighash_s + s.script_s + s.verify_s) / (endToEnd.seconds * endToEnd.workers));
  const curve = endToEnd.scaling ?? [];
  const at = (w) => curve.find((c) => c.workers === w)?.efficiency;
  if (workers === endToEnd.workers) return { efficiency: base, measured: true, assumption: null };
  const runEff = at(endToEnd.workers);
  if (runEff && at(workers)) return { efficiency: cap(base * (at(workers) / runEff)), measured: true, assumption: null };
  const counts = curve.length ? curve.map((c) => c.workers) : [endToEnd.workers];
  const top = Math.max(...counts);
  const bottom = Math.min(...counts);
  // The nearest measured count at or below `workers` (its efficiency carries over), else the smallest.
  const nearest = Math.max(bottom, ...counts.filter((c) => c <= workers));
  const eff = curve.length && runEff && at(nearest) ? cap(base * (at(nearest) / runEff)) : base;
  const pct = `${(eff * 100).toFixed(0)}% of the wall time in the engine`;
  return {
    efficiency: eff,
    measured: false,
    assumption: workers > top
      ? `${workers} workers: beyond the ${top} measured, each worker assumed as busy as at ${top} (${pct}): a machine ` +
        `with ${workers} cores as fast as these; on a machine with fewer, workers share cores and run no faster`
      : `${workers} worker${workers === 1 ? '' : 's'}: not measured (the run measured ${counts.join(', ')}; --scaling measures ` +
        `1..N), each assumed as busy as at ${nearest} (${pct})`,
  };
}

/**
 * Hours to validate heights from..to on `workers` workers at `efficiency` (poolEfficiency's), the
 * span's workload at its value under costs.median; low: the least of its low workload under
 * the three cost sets (fast, median, slow) and the value, high: the most of its high workload
 * under them and the value; priced era by era (each era's blocks split into engine calls by its own mean
 * inputs per block), so a span's hours are the sum of its eras'.
 * @param {{costs: {median: object, fast: object, slow: object}, table: object, efficiency: number,
 *   workers: number, from: number, to: number}} args table: workloadFor's model
 * @returns {{value: number, low: number, high: number, checks: {value, low, high}}} hours, and the
 *   span's signature checks (whole numbers: roundRange)
 */
export function spanHours({ costs, table, efficiency, workers, from, to }) {
  // Era by era: a block's engine calls follow its era's mean inputs per block (callsPerBlock), and
  // the whole span is then the sum of its eras' parts.
  const parts = table.eras.filter((e) => e.to > from && e.from <= to)
    .map((e) => workloadFor(table, Math.max(from, e.from), Math.min(to, e.to - 1)));
  const ms = (c, k) => parts.reduce((n, w) => n + spanMs(c, w.figures, w.blocks, workers)[k], 0);
  const wall = (x) => x / (workers * efficiency) / 3.6e6;
  // Each cost set is fitted on its own (the blocks' fastest or slowest rounds scale by different
  // factors), so a type's fast cost can exceed its median one: the range takes the extremes over
  // the three sets, and always holds the value.
  const value = ms(costs.median, 'value');
  const sets = [costs.fast, costs.median, costs.slow];
  const low = Math.min(value, ...sets.map((c) => ms(c, 'low')));
  const high = Math.max(value, ...sets.map((c) => ms(c, 'high')));
  return { value: wall(value), low: wall(low), high: wall(high), checks: roundRange(totalChecks(workloadFor(table, from, to))) };
}

/**
 * The projection of the chain's validation.
 * @param {{blocks: object[], table: object, endToEnd: object, schnorrPerEcdsa: number,
 *   withoutKeyReuse?: object|null, workers?: number, from?: number, to?: number}} args blocks: the run's block entries (with
 *   workload, stages_ms, engine_ms); table: the saved workload table
 *   (bench/workload/workload-table.json, the model of workload-model.mjs); endToEnd: the run's
 *   end_to_end; schnorrPerEcdsa: the ECDSA verify rate over the Schnorr one, from the run's
 *   verify passes (cost-model.mjs stagesOf); withoutKeyReuse: withoutKeyReuseOf's prices, which
 *   the slow cost set (the range's high end) then verifies at, or null to keep the fixtures'
 *   key reuse throughout; workers: 1..64 (default the run's)
 * @returns {object} {workers, efficiency, assumption, costs: {median, fast, slow} (ms per unit, one
 *   worker), without_key_reuse (the argument), full_chain_hours, after_assumevalid_hours, range_hours (from..to) each {value, low,
 *   high}, assumevalid, per_block [{height, checks, predicted_ms, measured_ms, ratio, judged,
 *   within}], trusted, misses, blocks_fitted, eras [{name, from, to, hours, workload, ratios}] (the
 *   workload table used, era by era; its figures in whole units, roundFigures)}; low: the least of the span's low workload under the
 *   three cost sets (never above the value), high: the most of its high workload (spanHours)
 * @throws {RangeError} with fewer than two measured blocks, or a bad worker count or span
 */
export function projectChain({ blocks, table, endToEnd, schnorrPerEcdsa, withoutKeyReuse = null, workers = endToEnd.workers, from = 0, to = table.tip }) {
  if (!(Number.isInteger(workers) && workers >= 1 && workers <= 64)) throw new RangeError(`workers must be an integer in 1..64, got ${workers}`);
  const measured = blocks.filter((b) => b.workload && b.stages_ms && b.engine_ms && !b.error)
    .map((b) => ({ height: b.height, workload: b.workload, stages_ms: b.stages_ms, parts_ms: b.parts_ms ?? null, engine_ms: b.engine_ms }));
  if (measured.length < 2) throw new RangeError(`the cost model needs at least 2 measured blocks, got ${measured.length}`);
  // The fastest and slowest rounds' costs: each block's stages scaled to its fastest / slowest
  // round, leaving one round out at each end where there are enough (range_min, range_max:
  // end-to-end.mjs trimmedExtremes; a measurement saved before them: min and max).
  const scaled = (which) => measured.map((b) => {
    const f = (b.engine_ms[`range_${which}`] ?? b.engine_ms[which]) / b.engine_ms.median;
    const scale = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v * f]));
    return { ...b, stages_ms: Object.fromEntries(STAGE_NAMES.map((s) => [s, b.stages_ms[s] * f])),
      parts_ms: b.parts_ms && { sighash: scale(b.parts_ms.sighash), script: scale(b.parts_ms.script) } };
  });
  const costs = { median: fitCosts(measured, schnorrPerEcdsa), fast: fitCosts(scaled('min'), schnorrPerEcdsa),
    slow: fitCosts(scaled('max'), schnorrPerEcdsa) };
  // The slow set verifies without key reuse: fitted on the blocks as measured, then each check
  // priced as the one-per-key passes ran (a block too: its costs by key class are dropped).
  if (withoutKeyReuse) {
    const v = costs.slow.verify;
    costs.slow.verify = { per_ecdsa: v.per_ecdsa * withoutKeyReuse.ecdsa_factor, per_schnorr: v.per_ecdsa * withoutKeyReuse.schnorr_per_ecdsa };
  }
  const eff = poolEfficiency(endToEnd, workers);
  const hours = (a, b) => spanHours({ costs, table, efficiency: eff.efficiency, workers, from: a, to: b });
  const check = predictBlocks(measured, schnorrPerEcdsa);
  // A block's measured time is a median of the timed rounds: fewer than MIN_ROUNDS judge nothing.
  const rounds = Math.min(...measured.map((b) => b.engine_ms.rounds ?? 0));
  const enough = rounds >= MIN_ROUNDS;
  return {
    workers,
    efficiency: eff.efficiency,
    efficiency_measured: eff.measured,
    assumption: eff.assumption,
    costs,
    without_key_reuse: withoutKeyReuse,
    full_chain_hours: hours(0, table.tip),
    after_assumevalid_hours: hours(ASSUMEVALID.height + 1, table.tip),
    range_hours: { from, to, ...hours(from, to) },
    assumevalid: ASSUMEVALID,
    tip: table.tip,
    per_block: check.per_block,
    trusted: check.trusted && enough,
    misses: check.misses,
    at_mix: check.at_mix,
    rounds,
    untrusted_reason: !enough ? `each block's measured time is a median of ${countOf(rounds, 'round')}; the check needs ${MIN_ROUNDS} or more (--rounds; on the page, the Timed rounds box)`
      : check.trusted ? null : check.misses.length ? 'blocks outside +-15%' : 'no block with 100 or more checks',
    blocks_fitted: measured.length,
    // The table used, era by era: its workload (workloadFor's figures) and ratios, and its hours.
    eras: table.eras.map((e) => ({ name: e.name, from: e.from, to: e.to - 1, hours: hours(e.from, e.to - 1),
      workload: roundFigures(workloadFor(table, e.from, e.to - 1).figures), ratios: e.ratios })),
  };
}
