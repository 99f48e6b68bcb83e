#!/usr/bin/env node
// ibd-wasm in each engine this machine has, per build, in one run: Node 20 (V8 11.3), Chromium
// (V8) and Firefox ESR (SpiderMonkey), each browser in a module Web Worker as the product
// verifies there, with no flags or preferences (as a user's browser runs) and, for the 'wide'
// build, with the wide-arithmetic proposal turned on (Chromium's --js-flags=--wasm-wide-arithmetic,
// Firefox's javascript.options.wasm_wide_arithmetic). Beside them the native build of the same
// engine (one check per call) and tiny-secp256k1 under Node. Contenders interleaved round by
// round (speed.mjs runSpeed), one core each, warm (256 records untimed first).
//
//   node bench/compare/browsers.mjs [--rounds N] [--batch N] [--quick] [--json]
//
// Check sets: every final check of the fixture blocks, ECDSA and Schnorr apart (--quick: 1,024
// and 512 of them, evenly spaced). Every contender's verdicts must equal the validation's (exit 1
// otherwise). Prints sig/s per contender (median of the rounds, min-max), each over native single
// verification, over tiny-secp256k1 and over simd in Node; then, round by round (median, min-max):
// each browser's simd over Node's, simd over scalar in each engine, and wide (proposal on) over
// simd (none) in each browser.
import { fileURLToPath } from 'node:url';
import { loadCheckSets } from './compare-checks.mjs';
import { chromiumWorkerContenders, firefoxWorkerContenders } from './browser-contenders.mjs';
import { runSpeed } from './speed.mjs';
import { median } from '../core/verify-passes.mjs';
import { int } from '../core/format.mjs';
import { fewRoundsNote, speedCommand } from './speed-command.mjs';
import { table } from './compare-report.mjs';
import { browserUnavailable, WIDE_ARITHMETIC_JS_FLAG } from '../shared/chromium-launcher.mjs';
import { firefoxUnavailable, WIDE_ARITHMETIC_FIREFOX_PREF } from '../shared/firefox-launcher.mjs';
import { machineInfo } from '../shared/machine.mjs';

const USAGE = 'usage: node bench/compare/browsers.mjs [--rounds N (1..100, default 5)] [--batch N (1..8192, default 2048)] [--quick] [--json]';
const TYPES = ['ecdsa', 'schnorr'];
const ENGINES = ['Node', 'Chromium', 'Firefox ESR'];

/** Which of speed.mjs's own contenders this comparison keeps. */
const keep = (c) => (c.kind === 'native' && c.batch_size === 1) || (c.kind === 'wasm' && ['simd', 'scalar'].includes(c.variant)) ||
  c.name === 'tiny-secp256k1';

/** A row's engine: 'Node', 'Chromium' or 'Firefox ESR' (null for native and tiny-secp256k1). */
const engineOf = (r) => (r.kind === 'wasm' ? 'Node' : r.kind === 'chromium-worker' ? 'Chromium' : r.kind === 'firefox-worker' ? 'Firefox ESR' : null);

/**
 * The interleaved rounds and their ratios.
 * @param {{rounds: number, batch: number, quick: boolean, log: (m: string) => void}} options
 * @returns {Promise<{command: string, machine: object, browsers: {chromium: string, firefox: string},
 *   checks: object, rows: object[], ratios: object, mismatched: string[]}>} rows: runSpeed rows
 *   (sig_per_s, sig_per_s_min, sig_per_s_max, rounds_seconds, verdicts_match); ratios[type]:
 *   {browser_over_node: {Chromium, 'Firefox ESR'}, simd_over_scalar: {Node, Chromium,
 *   'Firefox ESR'}, wide_over_simd: {Chromium, 'Firefox ESR'}}, each {median, min, max} of the
 *   time ratios round by round
 * @throws (rejects) Error when a browser is missing or a contender fails.
 */
export async function measureBrowsers({ rounds, batch, quick, log }) {
  const missing = browserUnavailable() ?? firefoxUnavailable();
  if (missing) throw new Error(missing);
  const limits = quick ? { ecdsa: 1024, schnorr: 512 } : { ecdsa: Infinity, schnorr: Infinity };
  const loaded = await loadCheckSets({ limits, log });
  const groups = [];
  try {
    const batchSize = batch;
    groups.push(await chromiumWorkerContenders(loaded.sets, { variants: ['simd', 'scalar'], batchSize, label: 'Chromium Web Worker' }));
    groups.push(await chromiumWorkerContenders(loaded.sets, { variants: ['wide'], batchSize, jsFlags: [WIDE_ARITHMETIC_JS_FLAG], label: 'Chromium Web Worker' }));
    groups.push(await firefoxWorkerContenders(loaded.sets, { variants: ['simd', 'scalar'], batchSize, label: 'Firefox ESR Web Worker' }));
    groups.push(await firefoxWorkerContenders(loaded.sets, { variants: ['wide'], batchSize, prefs: { [WIDE_ARITHMETIC_FIREFOX_PREF]: true }, label: 'Firefox ESR Web Worker' }));
    const { rows } = await runSpeed(loaded.sets, { rounds, batchSizes: [batch], extraBuilds: [], extra: groups.flatMap((g) => g.contenders), select: keep, log });
    const browsers = { chromium: groups[0].browser, firefox: groups[2].browser };
    const ratios = {};
    for (const type of TYPES) {
      const find = (engine, variant) => rows.find((r) => r.type === type && engineOf(r) === engine && r.variant === variant);
      // time(b) / time(a) round by round: how many times faster a is than b.
      const perRound = (a, b) => {
        const q = a.rounds_seconds.map((s, i) => b.rounds_seconds[i] / s);
        return { median: median(q), min: Math.min(...q), max: Math.max(...q) };
      };
      ratios[type] = {
        browser_over_node: Object.fromEntries(['Chromium', 'Firefox ESR'].map((e) => [e, perRound(find(e, 'simd'), find('Node', 'simd'))])),
        simd_over_scalar: Object.fromEntries(ENGINES.map((e) => [e, perRound(find(e, 'simd'), find(e, 'scalar'))])),
        wide_over_simd: Object.fromEntries(['Chromium', 'Firefox ESR'].map((e) => [e, perRound(find(e, 'wide'), find(e, 'simd'))])),
      };
    }
    return {
      command: `node bench/compare/browsers.mjs --rounds ${rounds} --batch ${batch}${quick ? ' --quick' : ''}`,
      machine: machineInfo(), browsers,
      checks: Object.fromEntries(TYPES.map((t) => [t, { measured: loaded.sets[t].walked.count, of: loaded.total[t] }])),
      rows, ratios, mismatched: rows.filter((r) => !r.verdicts_match).map((r) => `${r.name} (${r.type})`),
    };
  } finally {
    for (const g of groups) await g.close();
    loaded.dispose();
  }
}

/** The text report of measureBrowsers's result. */
export function browsersReport(res) {
  const x = (v) => (v === null || v === undefined ? '-' : `${v.toFixed(2)}x`);
  const span = (q) => `${x(q.median)} (${x(q.min)} - ${x(q.max)})`;
  const lines = [
    'ibd-wasm in each engine here, per build, one run, contenders interleaved round by round',
    `command: ${res.command}`,
    `machine: ${res.machine.cpu}, ${res.machine.cores} cores, Node ${res.machine.node}, V8 ${res.machine.v8}; Chromium ${res.browsers.chromium}; ${res.browsers.firefox}`,
    'note: one core per contender, warm (256 records untimed first); sig/s median of the rounds (min - max); browsers in a module Web Worker,',
    `      no flags or preferences except for the wide build (Chromium --js-flags=${WIDE_ARITHMETIC_JS_FLAG}, Firefox ${WIDE_ARITHMETIC_FIREFOX_PREF}=true)`,
  ];
  const few = fewRoundsNote(res.rows);
  if (few) lines.push(few);
  for (const type of TYPES) {
    const rows = res.rows.filter((r) => r.type === type).sort((a, b) => b.sig_per_s - a.sig_per_s);
    const single = rows.find((r) => r.kind === 'native');
    const tiny = rows.find((r) => r.name === 'tiny-secp256k1');
    const node = rows.find((r) => r.kind === 'wasm' && r.variant === 'simd');
    lines.push('', `${type.toUpperCase()}: ${int(res.checks[type].measured)} of ${int(res.checks[type].of)} checks`);
    lines.push(table(['contender', 'backend', 'sig/s', 'min - max', 'x native single', 'x tiny', 'x Node simd', 'verdicts'],
      rows.map((r) => [r.name + (r.batch_size && r.kind !== 'native' ? ` (batch ${r.batch_size})` : ''), r.backend, int(r.sig_per_s),
        `${int(r.sig_per_s_min)} - ${int(r.sig_per_s_max)}`, x(r.sig_per_s / single.sig_per_s), x(r.sig_per_s / tiny.sig_per_s),
        x(r.sig_per_s / node.sig_per_s), r.verdicts_match ? 'match' : 'MISMATCH']), 2));
    const q = res.ratios[type];
    lines.push(`simd in a browser's Web Worker / simd in Node, round by round: Chromium ${span(q.browser_over_node.Chromium)}, Firefox ESR ${span(q.browser_over_node['Firefox ESR'])}`);
    lines.push(`simd / scalar: Node ${span(q.simd_over_scalar.Node)}, Chromium ${span(q.simd_over_scalar.Chromium)}, Firefox ESR ${span(q.simd_over_scalar['Firefox ESR'])}`);
    lines.push(`wide (proposal on) / simd (none): Chromium ${span(q.wide_over_simd.Chromium)}, Firefox ESR ${span(q.wide_over_simd['Firefox ESR'])}`);
  }
  if (res.mismatched.length) lines.push('', `!!! verdicts differ from the validation's: ${res.mismatched.join(', ')}`);
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exitCode = await speedCommand({ name: 'browsers', usage: USAGE, argv: process.argv.slice(2), measure: measureBrowsers, report: browsersReport });
}
