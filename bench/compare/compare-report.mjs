// Terminal text of `npm run bench` (bench/compare/compare.mjs): the speed table per signature type
// (signatures/s on one core, median and min–max over the rounds, ratio to native and to
// tiny-secp256k1, verdict mismatches), the batch-size sweep, the engines, sizes, start-up and
// the whole-block part (whole-block-report.mjs) and the thresholds. docs/performance.md embeds
// this same text.
import { int } from '../core/format.mjs';
import { formatWholeBlock } from './whole-block-report.mjs';

const ms = (n) => (n === null || n === undefined ? '-' : n.toFixed(1));
const ratio = (a, b) => (a && b ? `${(a / b).toFixed(2)}x` : '-');
const kb = (n) => (n ? `${(n / 1024).toFixed(0)} KiB` : '-');

/** Left-aligns the first column(s) and right-aligns the rest of a table of strings; the lines joined. */
export function table(header, rows, leftCols = 1) {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => String(r[i]).length)));
  return all.map((r) => r.map((c, i) => (i < leftCols ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ').trimEnd()).join('\n');
}

function speedTable(doc, type) {
  const rows = doc.results.speed.filter((r) => r.type === type);
  if (!rows.length) return `${type}: nothing measured`;
  const native = rows.find((r) => r.kind === 'native' && r.batch_size === null); // the whole file in one call
  const tiny = rows.find((r) => r.name === 'tiny-secp256k1');
  // ibd-wasm: each variant (and window build) at its best batch size; the sweep is printed apart.
  const bestWasm = new Map();
  for (const r of rows.filter((x) => x.kind === 'wasm')) {
    if (!bestWasm.has(r.name) || r.sig_per_s > bestWasm.get(r.name).sig_per_s) bestWasm.set(r.name, r);
  }
  const shown = [...bestWasm.values(), ...rows.filter((r) => r.kind !== 'wasm')].sort((a, b) => b.sig_per_s - a.sig_per_s);
  const body = shown.map((r) => [
    r.kind === 'wasm' ? `${r.name} (batch ${r.batch_size})` : r.name, r.version ?? '', r.backend,
    int(r.sig_per_s), `${int(r.sig_per_s_min)} – ${int(r.sig_per_s_max)}`, ratio(r.sig_per_s, native?.sig_per_s),
    ratio(r.sig_per_s, tiny?.sig_per_s), r.mismatches === null ? 'verdicts differ' : String(r.mismatches),
  ]);
  const set = doc.check_sets[type];
  return `${type.toUpperCase()}: ${int(set.checks)} of ${int(set.of)} checks, signatures/s on one core (median of ${doc.rounds} rounds, min – max)\n${
    table(['contender', 'version', 'backend', 'sig/s', 'min – max', 'x native', 'x tiny', 'mismatches'], body, 3)}`;
}

function sweepTable(doc) {
  const wasm = doc.results.speed.filter((r) => r.kind === 'wasm' && r.window === 15);
  const cols = [...new Set(wasm.map((r) => `${r.variant} ${r.type}`))];
  const rows = doc.batch_sizes.map((b) => [String(b), ...cols.map((c) => int(wasm.find((r) => r.batch_size === b && `${r.variant} ${r.type}` === c)?.sig_per_s))]);
  return `ibd-wasm batch sweep: records per verifyBatch call, signatures/s on one core (median)\n${table(['batch', ...cols], rows)}`;
}

function enginesTable(doc) {
  const rows = Object.values(doc.results.engines).flat().map((r) => [
    r.engine, r.variant, r.type, int(r.sig_per_s), `${int(r.sig_per_s_min)} – ${int(r.sig_per_s_max)}`, r.verdicts_match ? 'yes' : 'NO',
  ]);
  const ranking = Object.values(doc.results.engines).flatMap((rs) => ['ecdsa', 'schnorr'].map((type) => {
    const order = rs.filter((r) => r.type === type).sort((a, b) => b.sig_per_s - a.sig_per_s);
    return order.length ? `  ${order[0].engine}, ${type}: ${order.map((r) => r.variant).join(' > ')}` : null;
  })).filter(Boolean);
  return `engines: the same wasm, batch ${doc.engine_batch_size}, signatures/s (median of ${doc.rounds} rounds)\n${
    table(['engine', 'variant', 'type', 'sig/s', 'min – max', 'verdicts match'], rows, 3)}\nvariant ranking per engine (by median):\n${ranking.join('\n')}`;
}

function sizeTable(doc) {
  const rows = doc.results.sizes.map((s) => (s.skipped
    ? [s.variant, String(s.window), '-', '-', '-', '-']
    : [s.variant, String(s.window), int(s.raw), int(s.gzip), int(s.oz), int(s.oz_gzip)]));
  const skipped = doc.results.sizes.filter((s) => s.skipped).map((s) => `  ${s.variant}, window ${s.window}: skipped: ${s.skipped}`);
  return [`wasm size, bytes (ECMULT_WINDOW_SIZE: precomputed table window; -Oz: Debian binaryen wasm-opt)`,
    table(['variant', 'window', 'raw', 'gzip -9', 'wasm-opt -Oz', '-Oz gzip'], rows, 2), ...skipped].join('\n');
}

function startupTable(doc) {
  const s = doc.results.startup;
  const rows = [];
  for (const c of s.node_cold_start ?? []) rows.push(['Node cold start', c.variant, ms(c.total_ms), `read ${ms(c.read_ms)}, compile ${ms(c.compile_ms)}, instantiate ${ms(c.instantiate_ms)}, first verdict ${ms(c.first_verdict_ms)}`]);
  for (const c of s.node_worker_startup ?? []) rows.push(['Node worker start-up', c.variant, ms(c.ms), 'worker_threads worker: thread start, engine load']);
  for (const c of s.chromium_cold_start ?? []) rows.push(['Chromium cold start', c.variant, ms(c.total_ms), `the bundled entry: import + fetch + compile + instantiate ${ms(c.load_ms)}, first verdict ${ms(c.first_verdict_ms)}`]);
  for (const c of s.chromium_cold_start_modules ?? []) rows.push(['Chromium cold start, modules', c.variant, ms(c.total_ms), `the modules as written: import + fetch + compile + instantiate ${ms(c.load_ms)}, first verdict ${ms(c.first_verdict_ms)}`]);
  for (const c of s.chromium_worker_startup ?? []) rows.push(['Chromium worker start-up', c.variant, ms(c.ms), 'module Web Worker until ready, given the module the page compiled (as its pool starts them)']);
  for (const c of s.chromium_worker_startup_own_compile ?? []) rows.push(['Chromium worker start-up, own compile', c.variant, ms(c.ms), 'the same worker fetching and compiling the .wasm itself']);
  for (const c of s.chromium_worker_startup_cached ?? []) rows.push(['Chromium worker start-up, cached', c.variant, ms(c.ms), 'own compile, HTTP cache on, after one worker']);
  return `start-up, ms (median of ${doc.rounds})\n${table(['what', 'variant', 'ms', 'parts (ms)'], rows, 2)}`;
}

function thresholdLines(doc) {
  return ['thresholds (bench/compare/thresholds.json, written before tuning):', ...doc.thresholds.map((t) => {
    const measured = t.measured === null ? 'not measured' : `${t.unit === 'bytes' ? int(t.measured) : t.measured.toFixed(2)} ${t.unit}`;
    return `  ${t.pass ? 'PASS' : 'FAIL'}  ${t.name}: ${measured} (target ${t.op} ${t.unit === 'bytes' ? int(t.target) : t.target} ${t.unit})${t.note ? `; ${t.note}` : ''}`;
  })].join('\n');
}

/**
 * @param {object} doc bench/compare/compare.mjs runComparison result
 * @returns {string} the report, several tables separated by blank lines
 */
export function formatComparison(doc) {
  const m = doc.machine;
  const head = [
    `ibd-wasm vs native vs peers (${doc.mode} run, ${doc.rounds} rounds, contenders interleaved round by round)`,
    `command: ${doc.command}`,
    `machine: ${m.cpu}, ${m.cores} cores, ${m.platform} ${m.arch}, Node ${m.node}, V8 ${m.v8}, emcc ${m.emcc ?? 'unknown'}; libsecp256k1 ${doc.engine.secp256k1} (wasm: ${doc.engine.field} field)`,
    `checks: ECDSA ${int(doc.check_sets.ecdsa.checks)} of ${int(doc.check_sets.ecdsa.of)}, Schnorr ${int(doc.check_sets.schnorr.checks)} of ${int(doc.check_sets.schnorr.of)} final checks of ${doc.check_sets.blocks} fixture blocks (${doc.check_sets.selection})`,
    `peers: ${doc.peers.map((p) => `${p.name} ${p.version} (${p.backend})`).join('; ')}`,
    ...doc.notes.map((n) => `note: ${n}`),
  ].join('\n');
  const skipped = doc.results.skipped.length ? `not measured:\n${doc.results.skipped.map((s) => `  ${s.name}: ${s.reason}`).join('\n')}` : '';
  const errors = doc.errors.length ? `ERRORS:\n${doc.errors.map((e) => `  ${e.part}: ${e.error}`).join('\n')}` : '';
  // Documents saved before the whole-block part existed have no results.whole_block.
  const wholeBlock = doc.results.whole_block ? formatWholeBlock(doc.results.whole_block) : '';
  return [head, speedTable(doc, 'ecdsa'), speedTable(doc, 'schnorr'), sweepTable(doc), enginesTable(doc), sizeTable(doc), startupTable(doc),
    wholeBlock, thresholdLines(doc), skipped, errors].filter(Boolean).join('\n\n');
}
