// The product in Firefox ESR (SpiderMonkey), as a user's Firefox runs it: no preferences set.
// Chromium's tests (browser-pool, browser-page, ...) cover V8; these check that the second
// engine gives the same verdicts through the same code:
//   1. the verify pool (workers/web-pool.mjs): module Web Workers verify the final checks of
//      blocks 403,200 and 866,342 with Node's verdicts, through the shared ring when the page is
//      cross-origin isolated and through transferred buffers when not, with the build the
//      browser's bestVariant() names;
//   2. the page's own run (web/app.mjs) on blocks 170 and 866,342 in 2 workers: it finishes with
//      no error panel, and its JSON download says both blocks are valid, names Firefox, and is a
//      measurement `npm run project` reads.
// The wide variant in SpiderMonkey (with its preference) is in wide-arithmetic.test.mjs.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startServer } from '../web/server.mjs';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { firefoxUnavailable, launchFirefox } from '../bench/shared/firefox-launcher.mjs';
import { measurementProblem } from '../bench/workload/measurement.mjs';
import { fixtureChecksWithVerdicts } from './support/wasm.mjs';

/** The major version in a Firefox user-agent string. */
const firefoxMajor = (ua) => Number(/Firefox\/(\d+)/.exec(ua)[1]);

const HEIGHTS = [403200, 866342]; // p2sh multisig (with invalid CHECKMULTISIG trials), segwit + taproot
const skip = firefoxUnavailable() ?? false;

let browser;
let checks; // final checks of HEIGHTS, packed
let expected; // Node single-threaded verdicts
before(async () => {
  if (skip) return;
  ({ checks, expected } = await fixtureChecksWithVerdicts(HEIGHTS));
  browser = await launchFirefox();
});
after(() => browser?.close());

/** In the page: `fn(arg)` in a tab on a fresh server started with `options`; both closed after. */
async function inPage(options, path, fn, arg) {
  const server = await startServer({ port: 0, ...options });
  const page = await browser.context.newPage();
  try {
    await page.goto(`${server.url}${path}`);
    return await page.evaluate(fn, arg);
  } finally {
    await page.close();
    await server.close();
  }
}

/** In the page: base64 `checks` through a 2-worker pool with the default build. */
async function poolInPage({ checks: b64 }) {
  const { createWebPool } = await import('/workers/web-pool.mjs');
  const { bestVariant } = await import('/wasm/engine-web.mjs');
  const pool = createWebPool({ workers: 2 });
  try {
    const infos = await pool.ready();
    const verdicts = await pool.verify(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)), { batchSize: 1000 });
    let out = '';
    for (const v of verdicts) out += String.fromCharCode(v);
    return { isolated: globalThis.crossOriginIsolated, transport: pool.transport, best: bestVariant(),
      variants: infos.map((i) => i.variant), verdicts: btoa(out), replacements: pool.replacements, ua: navigator.userAgent };
  } finally {
    await pool.close();
  }
}

for (const isolation of [true, false]) {
  test(`Firefox ESR: the verify pool, ${isolation ? 'cross-origin isolated: shared ring' : 'not isolated: transferred buffers'}, gives Node's verdicts`, { skip }, async () => {
    const r = await inPage({ isolation }, 'fixtures/manifest.json', poolInPage, { checks: Buffer.from(checks).toString('base64') });
    assert.match(r.ua, /Firefox\/\d+/);
    assert.equal(r.isolated, isolation);
    assert.equal(r.transport, isolation ? 'shared' : 'transfer');
    assert.ok(['simd', 'wide'].includes(r.best), `bestVariant() ${r.best}: Firefox runs wasm SIMD`);
    // Firefox turns wide arithmetic on by default from 155; before that, no preference, no wide.
    if (firefoxMajor(r.ua) < 155) assert.equal(r.best, 'simd');
    assert.deepEqual(r.variants, [r.best, r.best]);
    assert.deepEqual(new Uint8Array(Buffer.from(r.verdicts, 'base64')), expected);
    assert.equal(r.replacements, 0);
  });
}

/** In the page: picks blocks 170 and 866,342, 2 workers, 1 round, no extra passes; runs; returns
 *  the run's state, the error panels' text and the document the Download JSON button saves. */
async function runPage() {
  const $ = (s) => document.querySelector(s);
  const until = async (cond, what, ms) => {
    const t0 = performance.now();
    while (!cond()) {
      if (performance.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  await until(() => document.querySelector('#blocks input') && !$('#run').disabled, 'the block list', 30_000);
  const set = (el, prop, value) => { el[prop] = value; el.dispatchEvent(new Event('input', { bubbles: true })); el.dispatchEvent(new Event('change', { bubbles: true })); };
  set($('#workers'), 'value', '2');
  set($('#rounds'), 'value', '1');
  $('#blocks-none').click();
  for (const h of [170, 866342]) set($(`#blocks input[value="${h}"]`), 'checked', true);
  for (const box of ['#extra-scaling', '#extra-variants', '#extra-sweep']) set($(box), 'checked', false);
  const variant = $('#variant').value;
  $('#run').click();
  await until(() => ['done', 'failed'].includes(document.body.dataset.run), 'the run', 200_000);
  const saved = new Promise((resolve) => {
    const original = URL.createObjectURL;
    URL.createObjectURL = (blob) => { URL.createObjectURL = original; blob.text().then(resolve); return original(blob); };
  });
  $('#download').click();
  return { ua: navigator.userAgent, state: document.body.dataset.run, variant, panels: [...document.querySelectorAll('.error-panel')].map((p) => p.innerText),
    doc: JSON.parse(await saved) };
}

test('Firefox ESR: the page validates blocks 170 and 866,342 in 2 workers, and its download is a measurement', { skip, timeout: 240_000 }, async () => {
  const r = await inPage({}, '', runPage);
  assert.equal(r.state, 'done', r.panels.join(' | '));
  assert.deepEqual(r.panels, [], 'no variant fell back, no worker died');
  const { doc } = r;
  assert.equal(doc.variant, r.variant);
  if (firefoxMajor(r.ua) < 155) assert.equal(doc.variant, 'simd', 'the page\'s default build where Firefox has no wide arithmetic');
  assert.match(doc.environment.browser, /^Firefox \d+/);
  assert.equal(measurementProblem(doc), null);
  assert.deepEqual(doc.blocks.map((b) => [b.height, b.block_valid]), [[170, true], [866342, true]]);
  assert.equal(doc.exit_code, 0);
  assert.deepEqual(doc.disagreements, []);
});

// kill -9 of the tab's content process while a call into it runs: puppeteer alone would wait for
// an answer that never comes, then run the next call in Firefox's crash page.
test('Firefox ESR: a tab whose content process is killed mid-call fails that call and the next, naming the crash', { skip, timeout: 120_000 }, async () => {
  const own = await launchFirefox();
  const server = await startServer({ port: 0 });
  try {
    const page = await own.context.newPage();
    await page.goto(`${server.url}fixtures/manifest.json`);
    assert.equal(await page.evaluate(() => 1 + 1), 2);
    const children = () => execFileSync('pgrep', ['-f', '--', `-parentPid ${own.pid} `], { encoding: 'utf8' }).trim().split('\n').map(Number);
    // The content processes that hold sites (Fission: one per site, named so); this browser is
    // the test's own, so all of them go.
    const victims = children().filter((pid) => {
      try { return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'Isolated Web Co'; } catch { return false; }
    });
    assert.ok(victims.length > 0, `a site's content process among Firefox ${own.pid}'s`);
    const t0 = Date.now();
    const hanging = page.evaluate(() => new Promise(() => {})); // never settles in a live tab
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const pid of victims) process.kill(pid, 'SIGKILL');
    await assert.rejects(hanging, /^Error: the Firefox tab crashed: its content process died/);
    assert.ok(Date.now() - t0 < 60_000, `the call failed after ${Date.now() - t0} ms`);
    await assert.rejects(page.evaluate(() => 1), /^Error: the Firefox tab crashed/);
  } finally {
    await own.close();
    await server.close();
  }
});
