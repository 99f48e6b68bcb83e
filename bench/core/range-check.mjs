// The projection checked on blocks it has never seen: the cost model fitted on a saved
// measurement's blocks (model-projection.mjs projectChain) predicts each block of a range read
// from a node (range-stream.mjs validateRange with timed rounds) from that block's own workload,
// beside the time the workers measured for it; and the projection of the same heights from the
// workload table, beside the range's measured wall time. Host-neutral.
import { JUDGED, predictStages, STAGE_NAMES, stagesTotal } from './cost-model.mjs';
import { MIN_ROUNDS, projectChain, schnorrPerEcdsaOf, withoutKeyReuseOf } from './model-projection.mjs';

const sumStages = (list) => Object.fromEntries(STAGE_NAMES.map((s) => [s, list.reduce((n, x) => n + x[s], 0)]));
const checksOf = (w) => w.checks.ecdsa_single + w.checks.ecdsa_multisig + w.checks.schnorr_keypath + w.checks.schnorr_scriptpath;
const within = (ratio) => Math.abs(ratio - 1) <= JUDGED.tolerance;

/**
 * Checks the model of `measurement` on the blocks of a range.
 * @param {{measurement: object, blocks: object[], timedSeconds: number, table: object,
 *   workers: number, from: number, to: number}} args measurement: a main job's document (a saved
 *   measurement: bench/workload/measurement.mjs), its blocks the only ones the costs are fitted
 *   on, less any block of the range (by hash or height); blocks: validateRange's, with timed rounds
 *   (workload, engine_ms, stages_ms); timedSeconds: validateRange's (the range's validation wall
 *   time, reading excluded); table: the workload table; workers: the range's pool size
 * @returns {{fitted_on: {blocks: number, heights: number[], left_out: number[]}, costs: object,
 *   per_block: Array<{height, hash, checks, predicted_ms, measured_ms, ratio, judged, within,
 *   rounds}>, judged: number, misses: Array<{height, ratio}>, totals: {blocks, predicted_ms,
 *   measured_ms, ratio, within, stages: {predicted: object, measured: object}}, wall:
 *   {workers, efficiency, efficiency_measured, assumption, predicted_seconds, measured_seconds,
 *   ratio}, span: {from, to, hours: {value, low, high}, measured_hours, ratio, within_range}|null
 *   (from..to: the heights of the first and last block timed),
 *   span_note: string|null, holds: boolean, reasons: string[]}} times in ms of one worker's
 *   engine (per block, totals) and s or h of wall time (wall, span); ratio: predicted /
 *   measured; judged: a block with JUDGED.minChecks or more checks measured over MIN_ROUNDS or
 *   more rounds; holds: every judged block and the total within +-JUDGED.tolerance, and at
 *   least one block judged (reasons names what fails); verdict: 'holds', 'cannot judge' (no
 *   block judged, the total within +-JUDGED.tolerance) or 'does not hold'
 * @throws {RangeError} when the measurement has no Schnorr/ECDSA rates or fewer than two usable
 *   blocks once the range's are left out, or the range has no timed block
 */
export function checkRange({ measurement, blocks, timedSeconds, table, workers, from, to }) {
  const schnorrPerEcdsa = schnorrPerEcdsaOf(measurement.totals);
  if (schnorrPerEcdsa === null) throw new RangeError('the measurement has no ECDSA and Schnorr verify rates (totals.by_type): a Schnorr check\'s cost cannot be set; measure again on the fixture set (npm start, or --measure --check)');
  // Left out by hash, and by height too: a measurement's block at a height of the range is
  // that block, or one of its fork, and either way no block the check has never seen.
  const inRange = new Set(blocks.flatMap((b) => [b.hash, `height ${b.height}`]));
  const held = (b) => inRange.has(b.hash) || inRange.has(`height ${b.height}`);
  const seen = measurement.blocks.filter(held);
  const fitOn = measurement.blocks.filter((b) => !held(b));
  const timed = blocks.filter((b) => b.workload && b.engine_ms);
  if (timed.length === 0) throw new RangeError(`no block of heights ${from}-${to} was validated and timed`);
  // The span's projection and the costs, from the measurement's blocks alone; the span is the
  // heights validated (a range stopped by a read error ends before `to`).
  const first = Math.max(from, Math.min(...timed.map((b) => b.height)));
  const last = Math.min(to, Math.max(...timed.map((b) => b.height)));
  const p = projectChain({ blocks: fitOn, table, endToEnd: measurement.end_to_end, schnorrPerEcdsa,
    withoutKeyReuse: withoutKeyReuseOf(measurement.totals), workers,
    from: Math.min(first, table.tip), to: Math.min(last, table.tip) });
  const costs = p.costs.median;
  const perBlock = timed.map((b) => {
    const predicted = predictStages(costs, b.workload);
    const predictedMs = stagesTotal(predicted);
    const checks = checksOf(b.workload);
    const ratio = predictedMs / b.engine_ms.median;
    const judged = checks >= JUDGED.minChecks && b.engine_ms.rounds >= MIN_ROUNDS;
    return { height: b.height, hash: b.hash, checks, predicted_ms: predictedMs, measured_ms: b.engine_ms.median, ratio, judged,
      within: judged ? within(ratio) : null, rounds: b.engine_ms.rounds, stages: { predicted, measured: b.stages_ms } };
  });
  const misses = perBlock.filter((x) => x.judged && !x.within).map((x) => ({ height: x.height, ratio: x.ratio }));
  const predictedMs = perBlock.reduce((n, x) => n + x.predicted_ms, 0);
  const measuredMs = perBlock.reduce((n, x) => n + x.measured_ms, 0);
  const totalRatio = predictedMs / measuredMs;
  // The range's wall time as the projection prices it: its engine time over the workers, each
  // busy at the measured run's efficiency.
  const predictedWall = predictedMs / 1000 / (workers * p.efficiency);
  const span = last <= table.tip
    ? { from: first, to: last, hours: p.range_hours, measured_hours: timedSeconds / 3600,
      ratio: p.range_hours.value / (timedSeconds / 3600),
      within_range: timedSeconds / 3600 >= p.range_hours.low && timedSeconds / 3600 <= p.range_hours.high }
    : null;
  const judged = perBlock.filter((x) => x.judged).length;
  const reasons = [];
  if (judged === 0) reasons.push(`no block with ${JUDGED.minChecks}+ checks timed over ${MIN_ROUNDS}+ rounds`);
  if (misses.length) reasons.push(`${misses.length} of ${judged} judged blocks outside +-${JUDGED.tolerance * 100}%`);
  if (!within(totalRatio)) reasons.push(`the range's total engine time predicted ${((totalRatio - 1) * 100).toFixed(1)}% off`);
  return {
    fitted_on: { blocks: fitOn.length, heights: fitOn.map((b) => b.height), left_out: seen.map((b) => b.height) },
    costs,
    per_block: perBlock,
    judged,
    misses,
    totals: {
      blocks: perBlock.length, predicted_ms: predictedMs, measured_ms: measuredMs, ratio: totalRatio, within: within(totalRatio),
      stages: { predicted: sumStages(perBlock.map((x) => x.stages.predicted)), measured: sumStages(perBlock.map((x) => x.stages.measured)) },
    },
    wall: { workers, efficiency: p.efficiency, efficiency_measured: p.efficiency_measured, assumption: p.assumption,
      predicted_seconds: predictedWall, measured_seconds: timedSeconds, ratio: predictedWall / timedSeconds },
    span,
    span_note: span ? null : `heights past ${table.tip} (the newest sourced transaction count) have no workload table row: no span projection`,
    holds: reasons.length === 0,
    // 'holds'; 'cannot judge' when no block could be judged and the total is within the
    // tolerance (a range of early blocks: too few checks); else 'does not hold'.
    verdict: reasons.length === 0 ? 'holds' : judged === 0 && within(totalRatio) ? 'cannot judge' : 'does not hold',
    reasons,
  };
}
