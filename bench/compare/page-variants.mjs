#!/usr/bin/env node
// The benchmark page's own run, build against build, in one Chromium: what a user of the page
// sees with each wasm variant. Each run opens the page fresh (web/server.mjs), picks the
// variant, the workers and the timed rounds in its controls, validates every fixture block in
// its Web Workers and downloads the result document; the variants alternate run by run.
//
//   node bench/compare/page-variants.mjs [--variants wide,simd] [--runs N] [--rounds N]
//                                        [--workers N] [--json]
//
// Chromium is launched with --js-flags=--wasm-wide-arithmetic, so that the 'wide' variant runs
// (Firefox 155 has it on by default; Chromium 156 does not). Per run and variant: the blocks'
// checks/s over all workers and per worker (medians of the timed rounds), and the page's
// projection of the whole chain and of the blocks after assumevalid (hours, with its range),
// and whether its cost-model check trusted it. Every block must be valid (exit 1 otherwise).
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../web/server.mjs';
import { ALL_VARIANTS } from '../../wasm/variants.mjs';
import { median } from '../core/verify-passes.mjs';
import { int } from '../core/format.mjs';
import { choiceFlag, numberFlag, parseFlags, UsageError } from '../shared/args.mjs';
import { browserUnavailable, launchChromium, WIDE_ARITHMETIC_JS_FLAG } from '../shared/chromium-launcher.mjs';
import { machineInfo } from '../shared/machine.mjs';

const USAGE = 'usage: node bench/compare/page-variants.mjs [--variants wide,simd] [--runs N (1..20, default 3)] ' +
  '[--rounds N (1..15, default 5)] [--workers N (default: the cores)] [--json]';
const RUN_TIMEOUT_MS = 900_000;

/** One page run with `variant`: the downloaded result document. */
async function pageRun(browser, server, { variant, workers, rounds }) {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(err.message));
  try {
    await page.goto(server.url);
    await page.locator('#blocks input').first().waitFor();
    await page.selectOption('#variant', variant);
    await page.selectOption('#workers', String(workers));
    await page.fill('#rounds', String(rounds));
    await page.click('#blocks-all');
    for (const box of ['#extra-scaling', '#extra-variants', '#extra-sweep']) await page.setChecked(box, false);
    await page.click('#run');
    await page.waitForFunction(() => ['done', 'failed'].includes(document.body.dataset.run), null, { timeout: RUN_TIMEOUT_MS });
    const panels = await page.locator('.error-panel').allInnerTexts();
    if (await page.evaluate(() => document.body.dataset.run) !== 'done') throw new Error(`the page's run with ${variant} failed: ${panels.join(' | ')}`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
    const doc = JSON.parse(readFileSync(await download.path(), 'utf8'));
    if (doc.variant !== variant) throw new Error(`asked for ${variant}, the page ran ${doc.variant}: ${panels.join(' | ')}`);
    return { doc, errors: [...errors, ...panels] };
  } finally {
    await page.close();
  }
}

/** What one run shows. */
function summary(variant, { doc, errors }) {
  const p = doc.projection ?? {};
  const hours = (h) => (h ? { value: h.value, low: h.low, high: h.high } : null);
  return {
    variant, checks_per_second: doc.totals.checks_per_second, per_worker: doc.totals.per_worker,
    blocks: doc.blocks.length, invalid_blocks: doc.invalid_blocks.length, exit_code: doc.exit_code,
    full_chain_hours: hours(p.full_chain_hours), after_assumevalid_hours: hours(p.after_assumevalid_hours),
    trusted: p.trusted?.trusted ?? p.trusted ?? null, errors,
  };
}

/**
 * Runs the page `runs` times per variant, alternating.
 * @param {{variants: string[], runs: number, rounds: number, workers: number, log: (m: string) => void}} options
 * @returns {Promise<{command: string, machine: object, browser: string, workers: number, rounds: number,
 *   runs: object[], ratios: object|null}>} runs: summary() per run; ratios (with wide and simd):
 *   wide's checks/s over simd's, run pair by run pair, {median, min, max}
 * @throws (rejects) Error when Chromium is missing or a run fails.
 */
export async function measurePageVariants({ variants, runs, rounds, workers, log }) {
  const missing = browserUnavailable();
  if (missing) throw new Error(missing);
  const server = await startServer({ port: 0 });
  const browser = await launchChromium({ jsFlags: [WIDE_ARITHMETIC_JS_FLAG] });
  try {
    const out = [];
    for (let r = 0; r < runs; r++) {
      for (const variant of r % 2 ? [...variants].reverse() : variants) {
        log(`run ${r + 1}/${runs}: ${variant}`);
        out.push({ run: r + 1, ...summary(variant, await pageRun(browser, server, { variant, workers, rounds })) });
      }
    }
    let ratios = null;
    if (variants.includes('wide') && variants.includes('simd')) {
      const pairs = Array.from({ length: runs }, (_, r) => {
        const of = (v) => out.find((x) => x.run === r + 1 && x.variant === v).checks_per_second;
        return of('wide') / of('simd');
      });
      ratios = { wide_over_simd: { median: median(pairs), min: Math.min(...pairs), max: Math.max(...pairs) } };
    }
    return {
      command: `node bench/compare/page-variants.mjs --variants ${variants.join(',')} --runs ${runs} --rounds ${rounds} --workers ${workers}`,
      machine: machineInfo(), browser: browser.context.browser()?.version() ?? 'Chromium', workers, rounds, runs: out, ratios,
    };
  } finally {
    await browser.close();
    await server.close();
  }
}

/** The text report. */
export function pageVariantsReport(res) {
  const h = (x) => (x ? `${x.value.toFixed(1)} h (${x.low.toFixed(1)}–${x.high.toFixed(1)})` : '-');
  const lines = [
    `the benchmark page's own run, per wasm variant, in Chromium ${res.browser} with --js-flags=${WIDE_ARITHMETIC_JS_FLAG}`,
    `command: ${res.command}`,
    `machine: ${res.machine.cpu}, ${res.machine.cores} cores; ${res.workers} Web Workers, ${res.rounds} timed round${res.rounds === 1 ? '' : 's'} per run, every fixture block`,
    '',
  ];
  const table = [['run', 'variant', 'checks/s', 'per worker', 'whole chain', 'after assumevalid', 'model check', 'blocks valid'],
    ...res.runs.map((r) => [String(r.run), r.variant, int(r.checks_per_second), int(r.per_worker), h(r.full_chain_hours),
      h(r.after_assumevalid_hours), r.trusted === null ? '-' : r.trusted ? 'trusted' : 'NOT trusted', `${r.blocks - r.invalid_blocks}/${r.blocks}`])];
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
  for (const row of table) lines.push(row.map((c, i) => (i >= 2 && i <= 3 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  '));
  if (res.ratios) {
    const q = res.ratios.wide_over_simd;
    lines.push('', `wide / simd, checks/s, run by run: ${q.median.toFixed(2)}x (${q.min.toFixed(2)}x - ${q.max.toFixed(2)}x)`);
  }
  const bad = res.runs.filter((r) => r.invalid_blocks || r.exit_code);
  if (bad.length) lines.push('', `!!! runs with invalid blocks or a failing exit code: ${bad.map((r) => `${r.run} ${r.variant}`).join(', ')}`);
  return lines.join('\n');
}

async function main() {
  let values;
  try {
    ({ values } = parseFlags(process.argv.slice(2), {
      variants: { type: 'string' }, runs: { type: 'string' }, rounds: { type: 'string' }, workers: { type: 'string' },
      json: { type: 'boolean', default: false }, help: { type: 'boolean', default: false },
    }));
    if (values.help) { console.log(USAGE); return 0; }
    values.variants = (values.variants ?? 'wide,simd').split(',').map((v) => choiceFlag('variants', v, ALL_VARIANTS));
    if (new Set(values.variants).size !== values.variants.length) throw new UsageError('--variants names a variant twice');
    values.runs = values.runs === undefined ? 3 : numberFlag('runs', values.runs, { min: 1, max: 20 });
    values.rounds = values.rounds === undefined ? 5 : numberFlag('rounds', values.rounds, { min: 1, max: 15 });
    values.workers = values.workers === undefined ? os.availableParallelism() : numberFlag('workers', values.workers, { min: 1, max: 64 });
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`${err.message}\n${USAGE}`);
    return 2;
  }
  try {
    const res = await measurePageVariants({ ...values, log: (m) => (values.json ? null : console.error(m)) });
    console.log(values.json ? JSON.stringify(res, null, 2) : pageVariantsReport(res));
    return res.runs.some((r) => r.invalid_blocks || r.exit_code) ? 1 : 0;
  } catch (err) {
    console.error(`page-variants: ${err.message}`);
    return 1;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = await main();
