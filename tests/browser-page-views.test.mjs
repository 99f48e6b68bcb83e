// What the page shows after a run, in Debian's Chromium (playwright-core,
// bench/shared/chromium-launcher.mjs), as a new user met it: the blocks table's verdict column
// readable within its card; the projection chart's legend, at a phone's width and a wide one and
// for 1, 2 and 16 workers, every entry whole with none over another or over the plot; and each
// source's results shown only while that source is chosen (a fixture run's numbers are not
// left under "your node's block files", nor the node's under the fixture blocks), the Download
// JSON button giving the chosen source's document or nothing. No timing is asserted.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fixturesDir } from '../blocks-fixtures/loader.mjs';
import { startServer } from '../web/server.mjs';
import { BROWSER_ARTIFACTS, browserUnavailable, launchChromium } from '../bench/shared/chromium-launcher.mjs';
import { writeDatadir } from './support/write-datadir.mjs';

const skip = browserUnavailable() ?? false;
const RUN_TIMEOUT_MS = 120_000;
// A one-input block and a 131-input one; both valid, each with a not-checked list.
const HEIGHTS = [170, 57043];

let browser;
let server;
let work;

before(async () => {
  if (skip) return;
  work = mkdtempSync(path.join(os.tmpdir(), 'ibd-browser-page-views-'));
  await writeDatadir(path.join(work, 'datadir'), fixturesDir());
  server = await startServer({ port: 0, isolation: true });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The page in a new tab at `width` x 800; page errors are collected. */
async function openPage(width = 1280) {
  const page = await browser.context.newPage();
  page.pageErrors = [];
  page.on('pageerror', (err) => page.pageErrors.push(err.message));
  await page.setViewportSize({ width, height: 800 });
  await page.goto(server.url);
  await page.locator('#blocks input').first().waitFor();
  return page;
}

/** Clicks Run (or Validate blocks) and waits until the run is done. */
async function runToEnd(page) {
  await page.click('#run');
  await page.waitForFunction(() => ['done', 'failed'].includes(document.body.dataset.run), null, { timeout: RUN_TIMEOUT_MS });
  const state = await page.evaluate(() => document.body.dataset.run);
  assert.equal(state, 'done', (await page.locator('.error-panel').allInnerTexts()).join(' | '));
}

/** The fixture run of HEIGHTS on 2 workers, 1 timed round, no extra measurements. */
async function runFixtures(page) {
  await page.selectOption('#workers', '2');
  await page.fill('#rounds', '1');
  await page.click('#blocks-none');
  for (const h of HEIGHTS) await page.check(`#blocks input[value="${h}"]`);
  for (const id of ['#extra-scaling', '#extra-variants', '#extra-sweep']) await page.setChecked(id, false);
  await runToEnd(page);
}

/** Sets the viewport, then waits two frames: the charts resize to it (a ResizeObserver, then a frame). */
async function resize(page, width, height = 800) {
  await page.setViewportSize({ width, height });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** The document the Download JSON button gives. */
async function download(page) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
  return JSON.parse(readFileSync(await file.path(), 'utf8'));
}

test('the blocks table: the verdict and its not-checked list wrap within the card; on a phone the table scrolls in its card, the page does not', { skip, timeout: 120_000 }, async () => {
  const page = await openPage(1400);
  await runFixtures(page);
  assert.equal(await page.locator('#blocks-table tbody tr').count(), HEIGHTS.length);
  const fit = () => page.evaluate(() => {
    const box = document.querySelector('#blocks-table').closest('.table-scroll');
    const right = box.getBoundingClientRect().right;
    return {
      overflow: box.scrollWidth - box.clientWidth,
      pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      lists: [...box.querySelectorAll('td .not-checked')].map((el) => ({
        text: el.textContent, past: el.getBoundingClientRect().right - right, clipped: el.scrollWidth - el.clientWidth, width: el.clientWidth,
      })),
    };
  });
  for (const width of [1400, 1280, 1000]) {
    await resize(page, width);
    const f = await fit();
    assert.equal(f.lists.length, HEIGHTS.length);
    assert.ok(f.overflow <= 0, `${width} px: the table is ${f.overflow} px wider than its card`);
    for (const l of f.lists) {
      assert.match(l.text, /^not checked: spent-outputs-unspent, .*bip30/);
      assert.ok(l.past <= 0 && l.clipped <= 0, `${width} px: "${l.text}" cut off (${l.past} px past the card, ${l.clipped} px clipped)`);
    }
  }
  // A phone: the table scrolls within its card (the list kept at least 12em wide), the page does not.
  await resize(page, 390, 844);
  const f = await fit();
  assert.ok(f.overflow > 0, 'the table fits a phone? then this check says nothing');
  assert.equal(await page.locator('#blocks-table').evaluate((t) => getComputedStyle(t.closest('.table-scroll')).overflowX), 'auto');
  assert.ok(f.pageOverflow <= 0, `the page scrolls sideways by ${f.pageOverflow} px`);
  for (const l of f.lists) assert.ok(l.width >= 140 && l.clipped <= 0, JSON.stringify(l));
  await resize(page, 1280);
  await page.locator('#blocks-table').screenshot({ path: path.join(BROWSER_ARTIFACTS, 'blocks-table.png') });
  assert.deepEqual(page.pageErrors, []);
  await page.close();
});

test('the projection chart\'s legend: at 360 to 1920 px and on 1, 2 and 16 workers, every entry whole, none over another or over the plot; a click hides a line', { skip, timeout: 120_000 }, async () => {
  const page = await openPage();
  await runFixtures(page);
  const figure = page.locator('#chart-projection');
  const layout = () => figure.evaluate((fig) => {
    const rect = (el) => el.getBoundingClientRect();
    const chart = globalThis.Chart.getChart(fig.querySelector('canvas'));
    const items = [...fig.querySelectorAll('.legend li')].map((li) => {
      const r = rect(li);
      const button = li.querySelector('button');
      return { text: li.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom, clipped: button.scrollWidth - button.clientWidth };
    });
    const overlaps = [];
    for (const [i, a] of items.entries()) {
      for (const b of items.slice(i + 1)) {
        if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) overlaps.push(`"${a.text}" over "${b.text}"`);
      }
    }
    const box = rect(fig.querySelector('.canvas-box'));
    const inner = rect(fig);
    return {
      items, overlaps,
      // Engines: the chart's datasets but the ibd-wasm band's two edges.
      engines: chart.data.datasets.filter((d) => !d.label.startsWith('_')).map((d) => d.label),
      canvasLegend: chart.legend.legendHitBoxes.length,
      plotHeight: chart.chartArea.bottom - chart.chartArea.top,
      canvasBottom: box.bottom, figureLeft: inner.left, figureRight: inner.right,
    };
  });
  for (const width of [360, 390, 600, 800, 1280, 1920]) {
    await resize(page, width);
    for (const workers of [1, 2, 16]) {
      await page.fill('#projection-workers', String(workers));
      await page.press('#projection-workers', 'Enter'); // a change event, as on leaving the box
      const at = `${width} px, ${workers} workers`;
      assert.match(await figure.locator('[data-caption]').innerText(), new RegExp(`^On ${workers} workers?: `), at);
      const l = await layout();
      assert.equal(l.engines.length, 8, at); // measured, Node, wide, scalar, no batch, tiny, noble, native
      assert.deepEqual(l.items.map((i) => i.text), l.engines, at);
      assert.equal(l.canvasLegend, 0, `${at}: the legend drawn twice`);
      assert.deepEqual(l.overlaps, [], at);
      for (const i of l.items) {
        assert.ok(i.left >= l.figureLeft && i.right <= l.figureRight && i.clipped <= 0, `${at}: "${i.text}" cut off`);
        assert.ok(i.top >= l.canvasBottom, `${at}: "${i.text}" over the plot`);
      }
      assert.ok(l.plotHeight >= 100, `${at}: the plot is ${l.plotHeight} px high`);
    }
    if (width === 390 || width === 1280) await figure.screenshot({ path: path.join(BROWSER_ARTIFACTS, `chart-projection-${width}.png`) });
  }
  // A click on an entry hides its line, a second shows it again, as on Chart.js's own legend.
  const entry = figure.locator('.legend button', { hasText: 'tiny-secp256k1' });
  const visible = () => figure.evaluate((fig) => {
    const chart = globalThis.Chart.getChart(fig.querySelector('canvas'));
    return chart.isDatasetVisible(chart.data.datasets.findIndex((d) => d.label.startsWith('tiny-secp256k1')));
  });
  await entry.click();
  assert.equal(await visible(), false);
  assert.equal(await entry.getAttribute('aria-pressed'), 'false');
  await entry.click();
  assert.equal(await visible(), true);
  assert.equal(await entry.getAttribute('aria-pressed'), 'true');
  assert.deepEqual(page.pageErrors, []);
  await page.close();
});

test('each source shows its own last run only: the fixture run is not left under your node\'s block files, nor the node\'s under the fixtures; Download JSON gives the chosen source\'s document or nothing', { skip, timeout: 180_000 }, async () => {
  const page = await openPage();
  const source = (value) => page.check(`input[name="source"][value="${value}"]`);
  const shown = async () => ({
    results: await page.locator('#results').isVisible(),
    range: await page.locator('#range-results').isVisible(),
    progress: await page.locator('#progress').isVisible() ? await page.locator('#progress [data-phase]').innerText() : null,
    errors: await page.locator('#errors').isVisible() ? await page.locator('#errors').innerText() : '',
    download: await page.locator('#download').isEnabled(),
    note: await page.locator('#other-run').isVisible() ? await page.locator('#other-run').innerText() : null,
  });
  const time = String.raw`\d{1,2}:\d\d:\d\d`;

  await runFixtures(page);
  const fixtureDoc = await download(page);
  assert.deepEqual(fixtureDoc.blocks.map((b) => b.height), HEIGHTS);
  let s = await shown();
  assert.equal(s.results, true);
  assert.match(s.progress, /^done in [\d.]+ s$/);
  assert.equal(s.note, null);
  const fixtureLine = s.progress;

  // The node's files chosen: none of the fixture run's numbers, no download; a line says whose
  // run is kept, and when.
  await source('node');
  s = await shown();
  assert.deepEqual({ ...s, note: null }, { results: false, range: false, progress: null, errors: '', download: false, note: null });
  assert.match(s.note, new RegExp(`^Nothing run on your node's block files yet; the results of the fixture blocks' run \\(done at ${time}.*\\) are kept under that source\\.$`));
  await page.locator('main').screenshot({ path: path.join(BROWSER_ARTIFACTS, 'node-source-after-fixtures.png') });
  // Validate blocks with nothing picked: the error is the node source's own.
  await page.click('#run');
  assert.match((await shown()).errors, /pick your node's blocks\/ folder/);

  // Back to the fixtures: their run as it was, its closing line and its download; the node's error not shown.
  await source('fixtures');
  s = await shown();
  assert.deepEqual(s, { results: true, range: false, progress: fixtureLine, errors: '', download: true, note: null });
  assert.deepEqual(await download(page), fixtureDoc);

  // The node's files validated: their range shown and downloaded; the fixtures' kept, each under its source.
  await source('node');
  await page.selectOption('#workers', '2');
  await page.setInputFiles('#folder-input', path.join(work, 'datadir'));
  await page.waitForFunction(() => /blk files/.test(document.querySelector('#picked').textContent));
  await page.fill('#from-height', '1');
  await page.fill('#to-height', '3');
  await runToEnd(page);
  s = await shown();
  assert.deepEqual({ ...s, progress: null }, { results: false, range: true, progress: null, errors: '', download: true, note: null });
  assert.match(s.progress, /^done in [\d.]+ s: 3 blocks, 3 valid, 0 invalid, 0 not judged \(exit code 0\)$/);
  const nodeLine = s.progress;
  const nodeDoc = await download(page);
  assert.deepEqual(nodeDoc.range, { from: 1, to: 3 });
  assert.deepEqual(nodeDoc.blocks.map((b) => b.height), [1, 2, 3]);

  await source('fixtures');
  s = await shown();
  assert.deepEqual(s, { results: true, range: false, progress: fixtureLine, errors: '', download: true, note: null });
  assert.deepEqual(await download(page), fixtureDoc);
  // The charts are drawn at the card's size after being hidden.
  const canvas = await page.locator('#chart-projection canvas').evaluate((c) => [c.clientWidth, c.closest('figure').clientWidth]);
  assert.ok(canvas[0] > 0.8 * canvas[1], `the projection canvas is ${canvas[0]} px in a ${canvas[1]} px card`);

  await source('node');
  s = await shown();
  assert.deepEqual(s, { results: false, range: true, progress: nodeLine, errors: '', download: true, note: null });
  assert.deepEqual(await download(page), nodeDoc);
  assert.deepEqual(page.pageErrors, []);
  await page.close();
});

test('the Workers hint says what the chosen setting does, for each source; the headline tile says it projects validation work only', { skip, timeout: 60_000 }, async () => {
  const page = await openPage();
  const note = () => page.locator('#workers-note').innerText();
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  const coresText = `${cores} core${cores === 1 ? '' : 's'}`;
  await page.selectOption('#workers', '2');
  assert.equal(await note(), `2 Web Workers (${coresText} here)`);
  await page.selectOption('#workers', 'auto');
  assert.equal(await note(), `measures 1–${cores} workers and keeps the fastest`);
  await page.check('input[name="source"][value="node"]');
  assert.equal(await note(), `every core: ${cores} Web Worker${cores === 1 ? '' : 's'}`);
  await page.selectOption('#workers', '1');
  assert.equal(await note(), `1 Web Worker (${coresText} here)`);
  const label = await page.locator('.stat.projection .label').innerText();
  assert.match(label, /^full-chain validation \(parse, sighash, script, verify\)$/i);
  assert.deepEqual(page.pageErrors, []);
  await page.close();
});
