#!/usr/bin/env node
// The 'wide' variant measured where it runs: libsecp256k1's 5x52 field with wasm's wide
// arithmetic (wasm/wide-arithmetic/), against the simd variant (10x26 field) in the same
// browser, and against native and tiny-secp256k1 under Node, in one run, contenders
// interleaved round by round (speed.mjs runSpeed), one core each, warm.
//
//   node bench/compare/wide-arithmetic.mjs [--rounds N] [--batch N] [--quick] [--json]
//
// Contenders: ibd-wasm simd and wide in one module Web Worker of Chromium launched with
// --js-flags=--wasm-wide-arithmetic (the proposal is off by default in Chromium 156; Firefox
// 155 ships it, and Node 20's V8 11.3 lacks it), `--batch` records per verifyBatch call
// (default 2048), and the same in a second Chromium on V8's baseline tier alone (Liftoff:
// --liftoff --no-wasm-tier-up --no-wasm-dynamic-tiering); ibd-wasm simd in Node at the same batch size; the native build of the same
// engine and libsecp256k1 (ibd_verify_checks: one check per call, and --stock: the library's
// public API per check, as Core calls it); tiny-secp256k1 under Node, a call per signature.
// Check sets: every final check of the fixture blocks, ECDSA and Schnorr apart (--quick: 1,024
// and 512 of them, evenly spaced). Every contender's verdicts must equal the validation's
// (exit 1 otherwise). Prints sig/s per contender (median of the rounds, min-max), each over
// native single verification and over tiny-secp256k1, and wide over simd in the same browser
// round by round (median, min-max). Then, in the flagged Chromium, each variant's cold start (a
// fresh page, cache disabled: the bundled entry imported, the .wasm fetched, compiled and
// instantiated, a first verdict) and a verify Web Worker's start-up (given the page's compiled
// module, as the page's pool starts them), `--rounds` times each, interleaved; ms, median (min-max).
import { fileURLToPath } from 'node:url';
import { loadCheckSets } from './compare-checks.mjs';
import { chromiumWorkerContenders } from './browser-contenders.mjs';
import { runSpeed } from './speed.mjs';
import { median } from '../core/verify-passes.mjs';
import { int } from '../core/format.mjs';
import { fewRoundsNote, speedCommand } from './speed-command.mjs';
import { table } from './compare-report.mjs';
import { browserUnavailable, launchChromium, WIDE_ARITHMETIC_JS_FLAG } from '../shared/chromium-launcher.mjs';
import { LIFTOFF_FLAGS } from './engine-liftoff.mjs';
import { pageColdStart, pageWorkerStartup } from './chromium.mjs';
import { startServer } from '../../web/server.mjs';
import { machineInfo } from '../shared/machine.mjs';

const USAGE = 'usage: node bench/compare/wide-arithmetic.mjs [--rounds N (1..100, default 5)] [--batch N (1..8192, default 2048)] [--quick] [--json]';
const TYPES = ['ecdsa', 'schnorr'];

/** Which of speed.mjs's own contenders this comparison keeps. */
const keep = (c) => c.kind === 'native' && c.batch_size === 1 || c.kind === 'native-stock' ||
  (c.kind === 'wasm' && c.variant === 'simd') || c.name === 'tiny-secp256k1';

/**
 * The interleaved rounds and their ratios.
 * @param {{rounds: number, batch: number, quick: boolean, log: (m: string) => void}} options
 * @returns {Promise<{command: string, machine: object, browser: string, checks: object,
 *   rows: object[], ratios: object, mismatched: string[]}>} rows: runSpeed rows (sig_per_s,
 *   sig_per_s_min, sig_per_s_max, rounds_seconds, verdicts_match); ratios[type]: {wide_over_simd:
 *   {median, min, max} round by round, wide_over_native_single, wide_over_native_stock,
 *   wide_over_tiny, simd_node_over_native_single} (medians' ratios)
 * @throws (rejects) Error when Chromium is missing or a contender fails.
 */
export async function measureWide({ rounds, batch, quick, log }) {
  const missing = browserUnavailable();
  if (missing) throw new Error(missing);
  const limits = quick ? { ecdsa: 1024, schnorr: 512 } : { ecdsa: Infinity, schnorr: Infinity };
  const loaded = await loadCheckSets({ limits, log });
  let chromium;
  let liftoff;
  try {
    chromium = await chromiumWorkerContenders(loaded.sets, {
      variants: ['simd', 'wide'], batchSize: batch, jsFlags: [WIDE_ARITHMETIC_JS_FLAG], label: 'Chromium Web Worker',
    });
    liftoff = await chromiumWorkerContenders(loaded.sets, {
      variants: ['simd', 'wide'], batchSize: batch, jsFlags: [WIDE_ARITHMETIC_JS_FLAG, ...LIFTOFF_FLAGS], label: 'Chromium Web Worker, Liftoff only',
    });
    for (const c of liftoff.contenders) c.kind = 'chromium-worker-liftoff';
    const { rows } = await runSpeed(loaded.sets, { rounds, batchSizes: [batch], extraBuilds: [], extra: [...chromium.contenders, ...liftoff.contenders], select: keep, log });
    const browserVersion = chromium.browser;
    await chromium.close();
    await liftoff.close();
    chromium = null;
    liftoff = null;
    log(`start-up: ${rounds} cold starts and worker start-ups per variant in Chromium with ${WIDE_ARITHMETIC_JS_FLAG}`);
    const startup = await measureStartup({ rounds, record: Array.from(loaded.sets.ecdsa.checks.subarray(0, loaded.sets.ecdsa.walked.offsets[1])),
      verdict: loaded.sets.ecdsa.verdicts[0] });
    const find = (type, pred) => rows.find((r) => r.type === type && pred(r));
    const ratios = {};
    for (const type of TYPES) {
      const wide = find(type, (r) => r.kind === 'chromium-worker' && r.variant === 'wide');
      const simd = find(type, (r) => r.kind === 'chromium-worker' && r.variant === 'simd');
      const single = find(type, (r) => r.kind === 'native');
      const stock = find(type, (r) => r.kind === 'native-stock');
      const tiny = find(type, (r) => r.name === 'tiny-secp256k1');
      const node = find(type, (r) => r.kind === 'wasm');
      const perRound = wide.rounds_seconds.map((s, i) => simd.rounds_seconds[i] / s);
      const lWide = find(type, (r) => r.kind === 'chromium-worker-liftoff' && r.variant === 'wide');
      const lSimd = find(type, (r) => r.kind === 'chromium-worker-liftoff' && r.variant === 'simd');
      const lRound = lWide.rounds_seconds.map((s, i) => lSimd.rounds_seconds[i] / s);
      const over = (a, b) => (a && b ? a.sig_per_s / b.sig_per_s : null);
      ratios[type] = {
        wide_over_simd: { median: median(perRound), min: Math.min(...perRound), max: Math.max(...perRound) },
        wide_over_simd_liftoff: { median: median(lRound), min: Math.min(...lRound), max: Math.max(...lRound) },
        wide_over_native_single: over(wide, single), wide_over_native_stock: over(wide, stock),
        wide_over_tiny: over(wide, tiny), simd_node_over_native_single: over(node, single),
      };
    }
    return {
      command: `node bench/compare/wide-arithmetic.mjs --rounds ${rounds} --batch ${batch}${quick ? ' --quick' : ''}`,
      machine: machineInfo(), browser: browserVersion,
      checks: Object.fromEntries(TYPES.map((t) => [t, { measured: loaded.sets[t].walked.count, of: loaded.total[t] }])),
      rows, ratios, startup, mismatched: rows.filter((r) => !r.verdicts_match).map((r) => `${r.name} (${r.type})`),
    };
  } finally {
    await chromium?.close();
    await liftoff?.close();
    loaded.dispose();
  }
}

/** Cold starts and worker start-ups of simd and wide in a flagged Chromium, interleaved;
 *  {variant: {cold_ms: number[], worker_ms: number[]}}. Each first verdict must be `verdict`. */
async function measureStartup({ rounds, record, verdict }) {
  const server = await startServer({ port: 0 });
  const browser = await launchChromium({ jsFlags: [WIDE_ARITHMETIC_JS_FLAG] });
  const out = { simd: { cold_ms: [], worker_ms: [] }, wide: { cold_ms: [], worker_ms: [] } };
  try {
    for (let r = 0; r < rounds; r++) {
      for (const variant of r % 2 ? ['wide', 'simd'] : ['simd', 'wide']) {
        const page = await browser.context.newPage();
        const cdp = await browser.context.newCDPSession(page);
        await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
        await page.goto(`${server.url}fixtures/manifest.json`);
        const cold = await page.evaluate(pageColdStart, { variant, record, bundled: true });
        if (cold.verdict !== verdict) throw new Error(`${variant}: the cold start's first verdict is ${cold.verdict}, the validation's ${verdict}`);
        out[variant].cold_ms.push(cold.total_ms);
        out[variant].worker_ms.push(await page.evaluate(pageWorkerStartup, { variant, compileOnce: true }));
        await page.close();
      }
    }
    return out;
  } finally {
    await browser.close();
    await server.close();
  }
}

/** The text report of measureWide's result. */
export function wideReport(res) {
  const x = (v) => (v === null || v === undefined ? '-' : `${v.toFixed(2)}x`);
  const lines = [
    'the wide variant (5x52 field, wasm wide arithmetic) against simd, native and tiny-secp256k1, one run, interleaved round by round',
    `command: ${res.command}`,
    `machine: ${res.machine.cpu}, ${res.machine.cores} cores, Node ${res.machine.node}, V8 ${res.machine.v8}; Chromium ${res.browser} with --js-flags=${WIDE_ARITHMETIC_JS_FLAG}`,
    'note: one core per contender, warm (256 records untimed first); sig/s median of the rounds (min - max)',
  ];
  const few = fewRoundsNote(res.rows);
  if (few) lines.push(few);
  for (const type of TYPES) {
    const rows = res.rows.filter((r) => r.type === type).sort((a, b) => b.sig_per_s - a.sig_per_s);
    const single = rows.find((r) => r.kind === 'native');
    const tiny = rows.find((r) => r.name === 'tiny-secp256k1');
    lines.push('', `${type.toUpperCase()}: ${int(res.checks[type].measured)} of ${int(res.checks[type].of)} checks`);
    lines.push(table(['contender', 'backend', 'sig/s', 'min - max', 'x native single', 'x tiny', 'verdicts'],
      rows.map((r) => [r.name + (r.batch_size && r.kind !== 'native' ? ` (batch ${r.batch_size})` : ''), r.backend, int(r.sig_per_s),
        `${int(r.sig_per_s_min)} - ${int(r.sig_per_s_max)}`, single ? x(r.sig_per_s / single.sig_per_s) : '-',
        tiny ? x(r.sig_per_s / tiny.sig_per_s) : '-', r.verdicts_match ? 'match' : 'MISMATCH']), 2));
    const q = res.ratios[type];
    lines.push(`wide / simd, same browser, round by round: ${x(q.wide_over_simd.median)} (${x(q.wide_over_simd.min)} - ${x(q.wide_over_simd.max)}); Liftoff only: ${x(q.wide_over_simd_liftoff.median)} (${x(q.wide_over_simd_liftoff.min)} - ${x(q.wide_over_simd_liftoff.max)})`);
    lines.push(`wide / native single ${x(q.wide_over_native_single)}, / native stock ${x(q.wide_over_native_stock)}, / tiny-secp256k1 ${x(q.wide_over_tiny)}; simd in Node / native single ${x(q.simd_node_over_native_single)}`);
  }
  const ms = (a) => `${median(a).toFixed(1)} (${Math.min(...a).toFixed(1)} - ${Math.max(...a).toFixed(1)})`;
  lines.push('', `start-up in Chromium with ${WIDE_ARITHMETIC_JS_FLAG}, ms, median (min - max) of ${res.startup.simd.cold_ms.length}`);
  for (const v of ['simd', 'wide']) lines.push(`${v.padEnd(5)} cold start to the first verdict ${ms(res.startup[v].cold_ms)}; verify Web Worker start-up ${ms(res.startup[v].worker_ms)}`);
  if (res.mismatched.length) lines.push('', `!!! verdicts differ from the validation's: ${res.mismatched.join(', ')}`);
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exitCode = await speedCommand({ name: 'wide-arithmetic', usage: USAGE, argv: process.argv.slice(2), measure: measureWide, report: wideReport });
}
