// The benchmark page in Debian's Chromium (playwright-core, bench/shared/chromium-launcher.mjs), served
// by the project's server (web/server.mjs): set through its controls, run on 2 workers, its
// counts checked against the Node run's on the same blocks, its charts drawn, its download in
// the --json schema. Also: the page without cross-origin isolation (transferable buffers), a
// fixture block that fails to load, a wasm build that fails to compile, and a worker that dies
// mid-batch. No timing is asserted: rates vary with the machine.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fixturesDir, readManifest } from '../blocks-fixtures/loader.mjs';
import { REPO_ROOT, WASM_BUILD_DIR } from '../wasm/paths.mjs';
import { runBench } from '../bench/cli/run.mjs';
import { startServer } from '../web/server.mjs';
import { BROWSER_ARTIFACTS, browserUnavailable, launchChromium } from '../bench/shared/chromium-launcher.mjs';

const skip = browserUnavailable() ?? false;
const FIXTURES = fixturesDir();
const manifest = readManifest(FIXTURES);
const entry = (height) => manifest.blocks.find((b) => b.height === height);
const RUN_TIMEOUT_MS = 150_000;

let browser;
let nodeDoc;
const tmp = mkdtempSync(path.join(os.tmpdir(), 'ibd-browser-page-'));

before(async () => {
  if (skip) return;
  // The reference: the CLI's run over every fixture block (1 timed round; only counts are compared).
  nodeDoc = await runBench({ workers: 2, variant: 'simd', batchSize: 2048, rounds: 1 }, () => {});
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** Opens the served page in a new tab and waits for its block picker. Page errors are collected. */
async function openPage(server) {
  const page = await browser.context.newPage();
  page.pageErrors = [];
  page.on('pageerror', (err) => page.pageErrors.push(err.message));
  await page.goto(server.url);
  await page.locator('#blocks input').first().waitFor();
  return page;
}

/**
 * Sets the controls as a user would: workers, timed rounds, which blocks (all when `heights`
 * is absent) and the extra measurements (sweep: {sizes, checks, rounds} or false).
 */
async function configure(page, { workers, rounds, heights, scaling, variants, sweep }) {
  await page.selectOption('#workers', String(workers));
  await page.fill('#rounds', String(rounds));
  if (heights) {
    await page.click('#blocks-none');
    for (const h of heights) await page.check(`#blocks input[value="${h}"]`);
  }
  await page.setChecked('#extra-scaling', scaling);
  await page.setChecked('#extra-variants', variants);
  await page.setChecked('#extra-sweep', Boolean(sweep));
  if (sweep) {
    await page.fill('#sweep-sizes', sweep.sizes.join(', '));
    await page.fill('#sweep-checks', String(sweep.checks));
    await page.fill('#sweep-rounds', String(sweep.rounds));
  }
}

/** Clicks Run, waits until the run is done (or failed) and returns the downloaded document. */
async function runAndDownload(page) {
  await page.click('#run');
  await page.waitForFunction(() => ['done', 'failed'].includes(document.body.dataset.run), null, { timeout: RUN_TIMEOUT_MS });
  const state = await page.evaluate(() => document.body.dataset.run);
  const errors = await page.locator('.error-panel').allInnerTexts();
  assert.equal(state, 'done', `run ${state}: ${errors.join(' | ')}`);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
  return { doc: JSON.parse(readFileSync(await download.path(), 'utf8')), errors };
}

/** Per block, what must equal the Node run's: identity, counts, verdicts, rounds. */
const blockCounts = (b) => ({
  height: b.height, hash: b.hash, tx_count: b.tx_count, inputs: b.inputs, checks: b.checks, valid: b.valid,
  invalid: b.invalid, block_valid: b.block_valid, coverage: b.coverage, invalid_checks: b.invalid_checks,
  error: b.error,
});

/** Asserts that every key of `reference` (the Node document) is in `doc`, recursing into objects. */
function assertSchema(doc, reference, where = 'doc') {
  for (const [key, value] of Object.entries(reference)) {
    assert.ok(key in doc, `${where}.${key} missing from the page's document`);
    if (value && typeof value === 'object' && !Array.isArray(value) && doc[key] && typeof doc[key] === 'object') {
      // Keyed by data: script types (a cost set's and a block's parts_ms's script, by type).
      if (['coverage', 'inputs_by_type', 'checks_by_type', 'script_bytes_by_type', 'script'].includes(key)) continue;
      assertSchema(doc[key], value, `${where}.${key}`);
    }
  }
}

test('isolated: 2 workers via the controls, every block valid, counts equal the Node run, charts drawn, JSON in the --json schema', { skip, timeout: 240_000 }, async () => {
  const server = await startServer({ port: 0, isolation: true });
  try {
    const page = await openPage(server);
    assert.equal(await page.locator('#blocks input').count(), manifest.blocks.length);
    await configure(page, { workers: 2, rounds: 1, scaling: true, variants: true, sweep: { sizes: [256, 2048], checks: 1000, rounds: 1 } });
    const { doc, errors } = await runAndDownload(page);
    assert.deepEqual(errors, []);
    assert.equal(await page.evaluate(() => globalThis.crossOriginIsolated), true);
    assert.equal(doc.environment.cross_origin_isolated, true);
    assert.equal(doc.environment.transport, 'shared');
    assert.equal(await page.locator('[data-env="transport"]').innerText(), 'shared memory');

    // Verdicts: every block valid; the invalid checks are all in valid blocks (CHECKMULTISIG
    // trials that the scripts tolerate), exactly as many as the Node run's.
    assert.equal(doc.workers, 2);
    assert.equal(doc.exit_code, 0);
    assert.deepEqual(doc.errors, []);
    assert.deepEqual(doc.invalid_blocks, []);
    assert.deepEqual(doc.disagreements, []);
    assert.equal(doc.worker_replacements, 0);
    assert.ok(doc.blocks.every((b) => b.block_valid === true), 'every block valid');
    assert.equal(doc.totals.invalid, doc.totals.invalid_in_valid_blocks);
    assert.deepEqual(doc.blocks.map(blockCounts), nodeDoc.blocks.map(blockCounts));
    for (const key of ['blocks', 'inputs', 'evaluated_inputs', 'checks', 'valid', 'invalid', 'invalid_in_valid_blocks']) {
      assert.equal(doc.totals[key], nodeDoc.totals[key], `totals.${key}`);
    }
    for (const type of ['ecdsa', 'schnorr']) assert.equal(doc.totals.by_type[type].checks, nodeDoc.totals.by_type[type].checks);
    assert.ok(doc.totals.checks_per_second > 0 && doc.totals.per_worker > 0);
    // The blocks table's worker ms is each block's engine_ms.median, as in the CLI's table (and
    // the cost model's measured time), not a sum of the stages' separate medians.
    const workerMs = await page.$$eval('#blocks-table tbody tr', (rows) => rows.map((r) => r.cells[8]?.textContent));
    assert.deepEqual(workerMs, doc.blocks.map((b) => (b.engine_ms ? b.engine_ms.median.toFixed(1) : '–')));
    for (const m of doc.projection.per_block ?? []) {
      const b = doc.blocks.find((x) => x.height === m.height);
      if (b) assert.equal(m.measured_ms, b.engine_ms.median, `block ${m.height}: measured_ms`);
    }

    // The chain pass, as the CLI's: blocks 1-255 connected from genesis in a worker, every one valid.
    assert.ok(doc.chain, 'the page runs the chain pass');
    const chainOf = (c) => ({ first_height: c.first_height, blocks: c.blocks, connected: c.connected, valid: c.valid,
      links_checked: c.links_checked, proof_of_work_checked: c.proof_of_work_checked, spends: c.spends, checks: c.checks,
      tip: c.tip, fixture_match: c.fixture_match, error: c.error, failure: c.failure });
    assert.deepEqual(chainOf(doc.chain), chainOf(nodeDoc.chain));
    assert.equal(doc.chain.valid, true);
    assert.match(doc.chain.file, /^http:\/\/.*\/fixtures\/mainnet-chain\/btcd-blocks1-255\.dat$/);
    assert.match(await page.locator('#details').innerText(), /Chain: blocks 1–255 connected from genesis in a worker: 255 of 255 blocks, every one valid/);

    // The download is the --json document plus the page's entries.
    assertSchema(doc, { ...nodeDoc, exit_code: 0 });
    assert.equal(doc.projection.workload_checks, nodeDoc.projection.workload_checks);
    assert.ok(doc.projection.end_to_end.hours > 0);
    // The page's main thread: no event-loop utilization in a browser, so the run's own code.
    const e = doc.end_to_end;
    assert.deepEqual([e.main_thread_busy_method, e.main_thread_busy_share], ['own code', e.main_thread_own_code_share]);
    assert.ok(e.main_thread_busy_share > 0 && e.main_thread_busy_share < 1, String(e.main_thread_busy_share));
    assert.deepEqual(doc.scaling.map((s) => s.workers), [1, 2]);
    assert.deepEqual(doc.variants.map((v) => [v.variant, v.workers]), [['simd', 2], ['scalar', 2]]);
    assert.deepEqual(doc.batch_sweep.rows.map((r) => r.batch_size), [256, 2048]);
    assert.equal(doc.batch_sweep.disagreements, 0);
    for (const name of ['scaling', 'variants', 'by_type', 'batch_sweep']) assert.ok(doc.charts[name], `charts.${name}`);
    assert.deepEqual(doc.charts.scaling.ideal, [1, 2].map((n) => doc.scaling[0].checks_per_second * n));
    // The page shows the end-to-end scaling too: a series on the chart and a sentence in the details.
    assert.deepEqual(doc.charts.scaling.end_to_end, doc.end_to_end.scaling.map((s) => s.checks_per_second));
    const e2eRate = Math.round(doc.end_to_end.scaling[1].checks_per_second).toLocaleString('en-US');
    assert.match(await page.locator('#details').innerText(), new RegExp(`End-to-end scaling .*2 workers ${e2eRate} checks/s \\(`));
    // The details name the model whose hours the headline shows: the cost model's, when made.
    const details = await page.locator('#details').innerText();
    if (doc.projection.model) {
      assert.match(details, new RegExp(`Projection: the cost model .* on 2 workers at ${(100 * doc.projection.model.efficiency).toFixed(0)}% .*Beside it, the skeleton projection`));
    } else {
      assert.match(details, /Projection: (?!the cost model)/);
    }

    // Every chart's canvas has pixels drawn on it.
    const painted = await page.$$eval('.chart canvas', (canvases) => canvases.map((c) => {
      if (c.hidden || !c.width || !c.height) return 0;
      const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) n++;
      return n;
    }));
    assert.equal(painted.length, 5);
    assert.ok(painted.every((n) => n > 1000), `painted pixels per chart: ${painted}`);

    // The projection chart: every engine of the last bench run over block height to the chain
    // data's tip, ibd-wasm's first; the worker control projects again for 16 workers.
    const proj = doc.charts.projection;
    assert.equal(proj.workers, 2);
    // Measured here in Chromium's Web Workers; Node's derived from the bench run's ratio.
    assert.deepEqual(proj.engines.map((e) => e.key), ['ibd-wasm', 'node_worker', 'wide', 'scalar', 'no_batch', 'tiny', 'noble', 'native']);
    assert.match(proj.engines[0].name, /^ibd-wasm simd, \S*Chrom\S* \d+ Web Workers \(measured\)$/);
    assert.equal(proj.engines[1].name, 'ibd-wasm simd, Node worker_threads');
    assert.equal(proj.heights[proj.heights.length - 1], 938343);
    const last = (e) => e.hours[e.hours.length - 1];
    assert.ok(Math.abs(last(proj.engines[0]) - doc.projection.full_chain_hours.value) < 1e-9 * last(proj.engines[0]));
    await page.locator('#projection-workers').fill('16');
    await page.locator('#projection-workers').dispatchEvent('change');
    const caption = await page.locator('#chart-projection [data-caption]').innerText();
    assert.match(caption, /^On 16 workers: the whole chain .*assumed: 16 workers: beyond the 2 measured/);

    // The headline shows the numbers with units; the blocks table has a row per block.
    assert.match(await page.locator('[data-stat="overall"]').innerText(), /^[\d,]+\s*checks\/s$/);
    assert.match(await page.locator('[data-stat="checks"]').innerText(), new RegExp(`^${doc.totals.valid.toLocaleString('en-US')}\\s*valid$`));
    assert.equal(await page.locator('#blocks-table tbody tr').count(), manifest.blocks.length);
    // Each block's fee (57043's is 99,000,000 sat), its verdict and the rules not checked.
    const row57043 = page.locator('#blocks-table tbody tr', { hasText: /^57,043/ });
    const cells = await row57043.locator('td').allInnerTexts();
    assert.equal(cells[9], '99,000,000', cells.join(' | '));
    assert.match(cells[10], /^valid\s+not checked: spent-outputs-unspent, .*bip30/, cells[10]);
    assert.equal(doc.blocks.find((b) => b.height === 57043).fee, 99000000);
    assert.deepEqual(page.pageErrors, []);

    await page.screenshot({ path: path.join(BROWSER_ARTIFACTS, 'page.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: path.join(BROWSER_ARTIFACTS, 'page-narrow.png'), fullPage: true });
    await page.close();
  } finally {
    await server.close();
  }
});

test('not isolated: the page says it runs in the slower mode, batches travel as transferable buffers, counts unchanged', { skip, timeout: 120_000 }, async () => {
  const server = await startServer({ port: 0, isolation: false });
  try {
    const page = await openPage(server);
    assert.equal(await page.evaluate(() => globalThis.crossOriginIsolated), false);
    assert.match(await page.locator('#notices').innerText(),
      /not cross-origin isolated: batches travel as transferable buffers \(slower mode\)/i);
    const heights = [170, 403200];
    await configure(page, { workers: 2, rounds: 1, heights, scaling: false, variants: false, sweep: false });
    const { doc, errors } = await runAndDownload(page);
    assert.deepEqual(errors, []);
    assert.equal(doc.environment.cross_origin_isolated, false);
    assert.equal(doc.environment.transport, 'transfer');
    assert.equal(await page.locator('[data-env="transport"]').innerText(), 'transferable buffers');
    const reference = nodeDoc.blocks.filter((b) => heights.includes(b.height));
    assert.deepEqual(doc.blocks.map(blockCounts), reference.map(blockCounts));
    assert.ok(doc.projection.sample.partial);
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  } finally {
    await server.close();
  }
});

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

test('a fixture block that fails to load is named in an error panel; the other blocks run to the end', { skip, timeout: 120_000 }, async () => {
  // Blocks 170, 181 and 403200 with their own manifest; 181's block.raw is changed afterwards.
  const dir = path.join(tmp, 'fixtures');
  const blocks = [170, 181, 403200].map((h) => {
    const to = path.join(dir, 'mainnet', String(h));
    mkdirSync(to, { recursive: true });
    for (const f of ['block.raw', 'spent_outputs.json']) cpSync(path.join(FIXTURES, entry(h).dir, f), path.join(to, f));
    return { ...entry(h), dir: `mainnet/${h}` };
  });
  for (const b of blocks) {
    assert.equal(b.block_raw_sha256, sha256(readFileSync(path.join(dir, b.dir, 'block.raw'))));
  }
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ blocks }));
  writeFileSync(path.join(dir, 'mainnet', '181', 'block.raw'), 'changed after the manifest');

  const server = await startServer({ port: 0, isolation: true, fixtures: dir });
  try {
    const page = await openPage(server);
    await configure(page, { workers: 2, rounds: 1, scaling: false, variants: false, sweep: false });
    const { doc, errors } = await runAndDownload(page);
    const hash = entry(181).hash;
    assert.equal(errors.length, 1, errors.join(' | '));
    assert.match(errors[0], new RegExp(`block 181 ${hash}`));
    assert.match(errors[0], new RegExp(`/fixtures/mainnet/181/block\\.raw: sha256 [0-9a-f]{64} does not match the manifest's ${entry(181).block_raw_sha256}`));
    assert.deepEqual(doc.errors.map((e) => [e.height, e.hash]), [[181, hash]]);
    assert.equal(doc.exit_code, 1);
    const ok = doc.blocks.filter((b) => !b.error);
    assert.deepEqual(ok.map(blockCounts), nodeDoc.blocks.filter((b) => [170, 403200].includes(b.height)).map(blockCounts));
    assert.match(await page.locator('#blocks-table tr.failed').innerText(), /sha256/);
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  } finally {
    await server.close();
  }
});

test('the run core (bench/core/) loads in Chromium on its own, every module from the served folder', { skip, timeout: 60_000 }, async () => {
  // tests/rooms.test.mjs checks, from the source, that the core reaches no node: module; this
  // checks that a browser really loads it: each module imported by URL into a blank tab.
  const modules = readdirSync(path.join(REPO_ROOT, 'bench', 'core')).filter((f) => f.endsWith('.mjs')).sort();
  assert.ok(modules.includes('run-core.mjs'));
  const server = await startServer({ port: 0, isolation: true });
  try {
    const page = await browser.context.newPage();
    const pageErrors = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));
    await page.goto(`${server.url}nothing-here`); // the server's origin, without the page's own modules
    const loaded = await page.evaluate(async (names) => {
      const out = {};
      for (const name of names) {
        try {
          out[name] = Object.keys(await import(`/bench/core/${name}`)).sort();
        } catch (err) {
          out[name] = `failed: ${err.message}`;
        }
      }
      return out;
    }, modules);
    for (const name of modules) assert.ok(Array.isArray(loaded[name]) && loaded[name].length > 0, `${name}: ${loaded[name]}`);
    assert.ok(loaded['run-core.mjs'].includes('runBenchCore'), loaded['run-core.mjs'].join(', '));
    assert.deepEqual(pageErrors, []);
    await page.close();
  } finally {
    await server.close();
  }
});

test('a wasm build that fails to compile is named; the run falls back to scalar and completes', { skip, timeout: 120_000 }, async () => {
  const wasmDir = path.join(tmp, 'wasm');
  mkdirSync(wasmDir, { recursive: true });
  for (const variant of ['simd', 'scalar']) {
    for (const ext of ['mjs', 'wasm']) cpSync(path.join(WASM_BUILD_DIR, `ibd-${variant}.${ext}`), path.join(wasmDir, `ibd-${variant}.${ext}`));
  }
  writeFileSync(path.join(wasmDir, 'ibd-simd.wasm'), Buffer.from('\0asm not a module'));
  const server = await startServer({ port: 0, isolation: true, wasmDir });
  try {
    const page = await openPage(server);
    await configure(page, { workers: 2, rounds: 1, heights: [170, 57043], scaling: false, variants: false, sweep: false });
    const { doc, errors } = await runAndDownload(page);
    assert.equal(errors.length, 1, errors.join(' | '));
    assert.match(errors[0], /^wasm variant simd\b/);
    assert.match(errors[0], /ibd-simd\.wasm/);
    assert.match(errors[0], /falling back to scalar/);
    assert.equal(doc.variant, 'scalar');
    assert.equal(doc.exit_code, 0);
    assert.deepEqual(doc.blocks.map(blockCounts), nodeDoc.blocks.filter((b) => [170, 57043].includes(b.height)).map(blockCounts));
    await page.close();
  } finally {
    await server.close();
  }
});

test('a worker that dies mid-batch is named in an error panel; its batch is re-run and the counts are unchanged', { skip, timeout: 120_000 }, async () => {
  // The first two verify workers the page starts (the one-worker pool that checks the wasm
  // variant compiles, which is sent no work, then the first of the run's pool) run the real
  // entry, except that the first reply to a batch or validation group is never posted: it
  // throws instead (an uncaught error in the worker, its work in flight). Later workers (the
  // replacement among them) get the real script.
  const faulty = [
    'const post = self.postMessage.bind(self);',
    'let died = false;',
    'self.postMessage = (msg, transfer) => {',
    "  if (!died && typeof msg?.id === 'number') { died = true; throw new Error('injected fault: worker died mid-batch'); }",
    '  return post(msg, transfer);',
    '};',
    "await import('/dist/verify-web-worker.mjs?real=1');",
  ].join('\n');
  let served = 0;
  const server = await startServer({ port: 0, isolation: true });
  const context = browser.context;
  const pattern = '**/dist/verify-web-worker.mjs*'; // the page's worker (web/run.mjs WORKER_URL)
  await context.route(pattern, (route) => {
    if (route.request().url().includes('real=1') || served++ > 1) return route.fallback();
    return route.fulfill({
      status: 200,
      contentType: 'text/javascript',
      headers: { 'Cross-Origin-Embedder-Policy': 'require-corp', 'Cross-Origin-Opener-Policy': 'same-origin' },
      body: faulty,
    });
  });
  try {
    const page = await openPage(server);
    const heights = [170, 403200];
    await configure(page, { workers: 2, rounds: 1, heights, scaling: false, variants: false, sweep: false });
    const { doc, errors } = await runAndDownload(page);
    assert.equal(errors.length, 2, errors.join(' | '));
    assert.match(errors[0], /^verify worker \d \(simd\)\s+died: .*injected fault: worker died mid-batch/);
    assert.match(errors[1], /1 verify worker was replaced .* their batches ran again on other workers, so no verdict is missing/);
    assert.ok(doc.worker_replacements >= 1, `worker_replacements ${doc.worker_replacements}`);
    assert.equal(doc.exit_code, 0);
    assert.deepEqual(doc.blocks.map(blockCounts), nodeDoc.blocks.filter((b) => heights.includes(b.height)).map(blockCounts));
    await page.close();
  } finally {
    await context.unroute(pattern);
    await server.close();
  }
});
