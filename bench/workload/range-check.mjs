// `npm run project -- --check --datadir PATH | --rest URL | --rpc URL [--from H1] [--to H2]`:
// the projection's model checked on a range of the user's own node, blocks the measurement never
// saw. The range is read (blocks-fixtures/node-source.mjs), validated and timed in a pool of wasm
// workers (bench/core/range-stream.mjs, timed rounds), and each block's measured engine time is
// set beside the time the cost model fitted on the saved measurement predicts from its workload
// (bench/core/range-check.mjs).
import { openNodeSource, rangeOf } from '../../blocks-fixtures/node-source.mjs';
import { createPool } from '../../workers/pool.mjs';
import { checkNodeRuns } from '../../wasm/engine.mjs';
import { countOf, int } from '../core/format.mjs';
import { MIN_ROUNDS } from '../core/model-projection.mjs';
import { checkRange } from '../core/range-check.mjs';
import { rangeDocument } from '../core/range-report.mjs';
import { validateRange } from '../core/range-stream.mjs';

/** Blocks a check reads when --to is not given: enough for a thousand samples, an afternoon's
 *  run at most on any era's blocks. */
export const DEFAULT_CHECK_BLOCKS = 1000;

/**
 * Runs the check.
 * @param {{source: object, from?: number, to?: number, workers?: number, rounds?: number}} args
 *   source: openNodeSource's options; workers: the pool's size (default the measurement's);
 *   rounds: timed rounds per batch (default MIN_ROUNDS, the fewest the per-block check judges)
 * @param {{doc: object, file: string}} measurement the saved measurement and its file
 * @param {object} table the workload table (bench/workload/table.mjs loadWorkloadModel)
 * @param {(msg: string) => void} log
 * @returns {Promise<{measurement: {file, measured_at, variant, workers, machine}, rounds: number,
 *   range: object, check: object|null, check_error: string|null}>} range: the validated
 *   range's document (bench/core/range-report.mjs rangeDocument, with each block's workload and
 *   warm times); check: checkRange's result, or null with check_error saying why (no block
 *   timed: the range held only genesis, or every block failed)
 * @throws Error when the source cannot be opened (folder, file and byte offset, or URL, named),
 *   --from is above --to, or this Node cannot run the measurement's build ('wide' in Node 20)
 */
export async function runRangeCheck({ source: sourceOptions, from: fromFlag, to: toFlag, workers: workersFlag, rounds = MIN_ROUNDS }, measurement, table, log) {
  // The range is validated with the measurement's build, so this Node must run it.
  try { checkNodeRuns(measurement.doc.variant); } catch (err) {
    throw new Error(`--check validates with the measurement's build (${measurement.file}): ${err.message}`);
  }
  const opened = await openNodeSource(sourceOptions, log);
  try {
    const { from, to } = rangeOf(opened, fromFlag, toFlag, { span: DEFAULT_CHECK_BLOCKS });
    const workers = workersFlag ?? measurement.doc.workers;
    log(`check: heights ${from} to ${to}${toFlag === undefined ? ` (--to defaults to ${int(DEFAULT_CHECK_BLOCKS)} blocks)` : ''} in ${countOf(workers, 'worker')}, ` +
      `${countOf(rounds, 'timed round')} per batch after its first pass`);
    const pool = createPool({ workers, variant: measurement.doc.variant });
    let run;
    try {
      await pool.ready();
      run = await validateRange(opened.source, pool, { from, to, timedRounds: rounds, onBatch: (done, total) => log(`validated and timed ${done} of ${total} blocks`) });
    } finally {
      await pool.close();
    }
    const range = rangeDocument(run, { described: opened.described, skipped: opened.skipped, from, to, workers });
    range.figures.timing = `cold first pass per batch, then ${countOf(rounds, 'timed round')} (warm, nothing read beside them)`;
    range.figures.timed_seconds = run.timedSeconds;
    let check = null;
    let checkError = null;
    try {
      check = checkRange({ measurement: measurement.doc, blocks: run.blocks, timedSeconds: run.timedSeconds, table, workers, from, to });
    } catch (err) {
      if (!(err instanceof RangeError)) throw err;
      checkError = err.message;
    }
    const d = measurement.doc;
    return {
      measurement: { file: measurement.file, measured_at: d.saved_at ?? d.generated_at ?? null, variant: d.variant, workers: d.workers, machine: d.machine ?? null },
      rounds, range, check, check_error: checkError,
    };
  } finally {
    await opened.close();
  }
}

const pct = (r) => `${r >= 1 ? '+' : ''}${((r - 1) * 100).toFixed(1)}%`;
const ms = (x) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(2)} ms`);
const sec = (x) => ms(x * 1000);

/** The check in words: the range read, how the model did block by block and in total, and the
 *  span's projection beside the measured wall time. */
export function rangeCheckLines(doc) {
  const r = doc.range;
  const m = doc.measurement;
  const lines = [
    `Model check on heights ${int(r.range.from)}-${int(r.range.to)} of ${r.source.kind === 'datadir' ? `the datadir ${r.source.folder}` : `${r.source.kind.toUpperCase()} ${r.source.url}`}: ` +
      `${countOf(r.totals.blocks, 'block')} (${r.totals.valid} valid, ${r.totals.invalid} invalid, ${r.totals.failed} not judged), ` +
      `${int(r.totals.checks)} signature checks, each batch timed over ${countOf(doc.rounds, 'round')} in ${countOf(r.figures.workers, 'worker')}`,
    `  costs fitted on the measurement of ${m.measured_at ?? 'an unknown time'} (${m.variant}, ${countOf(m.workers, 'worker')}, ${m.machine?.cpu ?? 'unknown CPU'}; ${m.file})`,
  ];
  if (r.read_error) lines.push(`  READ ERROR at height ${r.read_error.height}: ${r.read_error.message}; the blocks before it are checked`);
  for (const s of r.skipped) lines.push(`  skipped: ${s}`);
  const c = doc.check;
  if (!c) return [...lines, `  no check: ${doc.check_error}`];
  lines.push(`  fitted on ${countOf(c.fitted_on.blocks, 'block')} of the measurement` +
    (c.fitted_on.left_out.length ? `, less ${c.fitted_on.left_out.length} also in this range (heights ${c.fitted_on.left_out.join(', ')})` : '; none of them in this range'));
  lines.push(`  engine time, every block (one worker, warm, median of the rounds): predicted ${ms(c.totals.predicted_ms)}, measured ${ms(c.totals.measured_ms)} (${pct(c.totals.ratio)})`);
  const offStages = [];
  for (const s of Object.keys(c.totals.stages.predicted)) {
    const [p, m] = [c.totals.stages.predicted[s], c.totals.stages.measured[s]];
    if (m > 0 && Math.abs(p / m - 1) > 0.5 && m >= 0.05 * c.totals.measured_ms) offStages.push(s);
    lines.push(`    ${s.padEnd(8)} predicted ${ms(p)}, measured ${ms(m)}${m > 0 ? ` (${pct(p / m)})` : ''}`);
  }
  if (offStages.length && c.totals.within) {
    lines.push(`    (${offStages.join(' and ')} off by more than 50% but the total within +-15%: the stages' errors offset each other; the model prices the whole block better than its parts)`);
  }
  const within = c.per_block.filter((x) => x.within).length;
  lines.push(c.judged
    ? `  per block: ${within} of ${countOf(c.judged, 'judged block')} (100+ checks) within +-15%` +
      (c.misses.length ? `; outside: ${c.misses.slice(0, 12).map((x) => `${x.height} ${pct(x.ratio)}`).join(', ')}${c.misses.length > 12 ? `, and ${c.misses.length - 12} more` : ''}` : '')
    : `  per block: none judged (no block with 100+ checks timed over ${MIN_ROUNDS}+ rounds; the total above still checks the model)`);
  lines.push(`  wall time on ${countOf(c.wall.workers, 'worker')}, reading excluded: predicted ${sec(c.wall.predicted_seconds)} at the measured ` +
    `${(c.wall.efficiency * 100).toFixed(0)}% engine share, measured ${sec(c.wall.measured_seconds)} (${pct(c.wall.ratio)})${c.wall.assumption ? `; ASSUMED: ${c.wall.assumption}` : ''}` +
    (c.wall.ratio < 0.5 ? ' (the pool\'s own time per batch, its messages, planning and merging, is in no engine time: a range of small blocks is mostly that)' : ''));
  lines.push(c.span
    ? `  the projection of these heights from the workload table (era estimates, not these blocks): ${sec(c.span.hours.value * 3600)} ` +
      `(${sec(c.span.hours.low * 3600)} to ${sec(c.span.hours.high * 3600)}), measured ${sec(c.span.measured_hours * 3600)}: ${c.span.within_range ? 'within' : 'OUTSIDE'} its range`
    : `  ${c.span_note}`);
  lines.push(c.verdict === 'holds' ? '  verdict: the model HOLDS on these blocks (every judged block and the total within +-15%)'
    : c.verdict === 'cannot judge' ? `  verdict: CANNOT JUDGE the model block by block here: ${c.reasons.join('; ')}; their total engine time is within +-15% (check a range of later blocks)`
      : `  verdict: the model does NOT hold on these blocks: ${c.reasons.join('; ')}${c.misses.length ? ' (on a loaded machine, measure again with --measure --check on an idle one)' : ''}`);
  return lines;
}
