// Terminal text of `npm run bench`'s whole-block part (bench/compare/whole-block.mjs): the
// disagreements first and loudly, the end-to-end rates per contender on one core, ibd-wasm
// against native on every block, the per-block times and what was left out. compare-report.mjs
// appends it to the report, and so docs/performance.md embeds it (perf-page.mjs).
import { int } from '../core/format.mjs';

const secs = (n) => (n === null || n === undefined ? '-' : n < 10 ? n.toFixed(3) : n.toFixed(1));
const msOf = (n) => (n === null || n === undefined || Number.isNaN(n) ? '-' : (n * 1000).toFixed(n < 0.01 ? 2 : 1));
const rate = (n) => (n === null || n === undefined ? '-' : n < 100 ? n.toFixed(1) : int(n));
const ratio = (n) => (n === null || n === undefined ? '-' : `${n.toFixed(2)}x`);
const median = (xs) => {
  const s = xs.filter((x) => typeof x === 'number' && !Number.isNaN(x)).sort((a, b) => a - b);
  if (!s.length) return null;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Left-aligns the first `leftCols` columns and right-aligns the rest. */
function table(header, rows, leftCols = 1) {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => String(r[i]).length)));
  return all.map((r) => r.map((c, i) => (i < leftCols ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ').trimEnd()).join('\n');
}

const setWords = (s) => `${s.blocks} blocks, ${int(s.inputs)} inputs, ${int(s.checks)} checks, ${(s.bytes / 1e6).toFixed(2)} MB`;

/** The rates table over one set: key 'common' or 'all'. */
function ratesTable(wb, key, rounds) {
  const rows = wb.contenders.filter((c) => c[key]).sort((a, b) => a[key].seconds_median - b[key].seconds_median).map((c) => {
    const r = c[key];
    return [
      c.kind === 'bcoin' ? `bcoin ${c.version} (${c.variant})` : c.name, c.backend,
      secs(r.seconds_median), `${secs(Math.min(...r.seconds))} – ${secs(Math.max(...r.seconds))}`,
      rate(r.blocks_per_s), rate(r.inputs_per_s), `${rate(r.inputs_per_s_min)} – ${rate(r.inputs_per_s_max)}`,
      rate(r.checks_per_s), `${rate(r.checks_per_s_min)} – ${rate(r.checks_per_s_max)}`,
      ratio(key === 'common' ? c.x_native_common : c.x_native_all),
    ];
  });
  return table(['contender', 'backend', 'pass s', 'min – max', 'blocks/s', 'inputs/s', 'min – max', 'checks/s', 'min – max', 'x native'], rows, 2) +
    `\n(median of ${rounds} rounds, warm; x native: native's pass time over the contender's)`;
}

/** What each row of the stage table is (whole-block.mjs STAGES). */
const STAGE_WORDS = {
  copyInMs: 'copy in (block + spent outputs into wasm memory)', spentMs: 'spent outputs: binary decode',
  parseMs: 'parse + block rules', sighashMs: 'sighash', scriptMs: 'script evaluation', verifyMs: 'signature verify',
  resultMs: 'result object (Embind)', otherMs: 'other (call wall less the above)', wallMs: 'whole calls, wall', cpuMs: 'whole calls, process CPU',
};

/** Stage by stage, every block run, native against each wasm variant (medians over rounds). */
function stageTable(wb, staged) {
  const native = staged.find((c) => c.kind === 'native');
  const wasm = staged.filter((c) => c.kind === 'wasm');
  const cell = (v) => (v === null || v === undefined ? '-' : v.toFixed(1));
  const rows = Object.keys(STAGE_WORDS).map((k) => [STAGE_WORDS[k], cell(native.stages.median[k]),
    ...wasm.flatMap((c) => [cell(c.stages.median[k]), ratio(c.x_native_stages[k])])]);
  return `where the time goes, ms per pass over every block run (${wb.sets.all.blocks} blocks; median of ${wb.rounds} rounds, warm; ` +
    'stages: the engine\'s StageTimes, wall clock; x native: native ms / wasm ms, as the threshold)\n' +
    table(['stage', 'native', ...wasm.flatMap((c) => [c.name, 'x native'])], rows, 1);
}

/**
 * @param {object} wb results.whole_block (bench/compare/whole-block.mjs runWholeBlock)
 * @returns {string} the section, tables separated by blank lines
 */
export function formatWholeBlock(wb) {
  const parts = [];
  if (wb.disagreements.length) {
    parts.push([`!!! VERDICT DISAGREEMENTS (${wb.disagreements.length}):`,
      ...wb.disagreements.map((d) => `!!!   block ${d.height} ${d.hash ?? ''} (${d.contender}): ${d.what}`)].join('\n'));
  }
  const bcoin = wb.contenders.filter((c) => c.kind === 'bcoin');
  const judged = wb.verdicts.filter((v) => Object.keys(v.bcoin).length);
  const agreeing = judged.filter((v) => v.agree).length;
  const invalid = wb.verdicts.filter((v) => v.ibd_wasm && !v.ibd_wasm.valid).map((v) => v.height);
  parts.push([
    `whole-block validation on one core: parse, block rules, sighash, scripts, signature verification, each block end to end (${wb.mode} run)`,
    `blocks every contender ran: ${setWords(wb.sets.common)} (heights ${wb.sets.common.heights.join(', ')})`,
    ...(wb.left_out.length ? wb.left_out.map((x) => `left out for bcoin: block ${x.height}: ${x.reason}`) : []),
    `verdicts: ${bcoin.length ? `bcoin (${bcoin.map((c) => c.variant).join(', ')}) and ibd-wasm agree on ${agreeing} of ${judged.length} blocks` +
      ` (block verdict, reject reason, failing inputs)${agreeing === judged.length ? '' : ', DISAGREEMENTS above'}` : 'bcoin did not run'}; ` +
      `${invalid.length ? `invalid blocks: ${invalid.join(', ')}` : 'every block valid'}`,
    ratesTable(wb, 'common', wb.rounds),
  ].join('\n'));
  if (wb.sets.all.blocks > wb.sets.common.blocks) {
    parts.push(`ibd-wasm and native on every block run (${setWords(wb.sets.all)})\n${ratesTable(wb, 'all', wb.rounds)}`);
  }
  const cold = wb.contenders.filter((c) => c.cold).map((c) => `${c.name} ${secs(c.cold.seconds)} s`);
  const bcoinLoad = bcoin.map((c) => `bcoin ${c.variant}: required in ${int(c.load_ms)} ms, process ready in ${int(c.start_ms)} ms`);
  parts.push([`cold: the first pass over blocks ${wb.warmup_heights.join(', ')} in a fresh instance or process: ${cold.join(', ') || 'none'}; ` +
    `native is timed warm only (Google Benchmark, at least ${wb.native_min_time_s} s per block and round)`, ...bcoinLoad].join('\n'));

  const order = wb.contenders;
  const rows = wb.blocks.map((b) => {
    const bc = bcoin.map((c) => c.per_block.find((p) => p.height === b.height));
    return [String(b.height), int(b.inputs), int(b.checks), bc[0]?.checks === undefined ? '-' : int(bc[0].checks),
      ...order.map((c) => msOf(median(c.per_block.find((p) => p.height === b.height)?.seconds ?? [])))];
  });
  const staged = wb.contenders.filter((c) => c.stages);
  if (staged.some((c) => c.kind === 'native') && staged.length > 1) parts.push(stageTable(wb, staged));
  parts.push(`per block, ms (median, warm)\n${table(['height', 'inputs', 'checks', 'bcoin checks', ...order.map((c) => c.name)], rows, 1)}`);
  if (wb.skipped.length) parts.push(`whole-block, not measured:\n${wb.skipped.map((s) => `  ${s.name}: ${s.reason}`).join('\n')}`);
  return parts.join('\n\n');
}
