// The page's controller: the environment strip, the controls (the source: the fixture blocks or
// a node's block files picked by the user; workers, wasm build, batch size, rounds, fixture
// blocks, extra measurements; the files and the height range), one run at a time with live
// progress, then the numbers, charts and blocks table (a node range: its report and blocks) and
// the JSON download. Each source keeps its own last run: what the page shows (results, the
// progress panel's closing line, error panels) and what Download JSON gives are the chosen
// source's only, the other's kept until its source is chosen again (a line says so).
// document.body.dataset.run says where a run is: idle, running, done or failed (the browser
// tests wait on it).
import { DEFAULT_BATCH_SIZE } from '../workers/verify-pool.mjs';
import { drawCharts, drawProjectionChart } from './charts.mjs';
import { projectContenders } from '../bench/core/contenders.mjs';
import { projectChain } from '../bench/core/model-projection.mjs';
import { detectEnvironment } from './environment.mjs';
import { fetchManifest } from './fixtures.mjs';
import { createProgressPanel } from './progress.mjs';
import { plural, renderBlocks, renderCaptions, renderDetails, renderHeadline, showError, showNotice } from './results.mjs';
import { lastProjectionInputs, runInPage } from './run.mjs';
import { dropItems, filesFromDirectoryHandle, filesFromDrop, filesFromList, pickedSummary } from './block-files.mjs';
import { openPicked, runNodeFiles } from './node-run.mjs';
import { renderRange } from './range-view.mjs';

const $ = (sel) => document.querySelector(sel);
const BATCH_SIZES = [64, 128, 256, 512, 1024, 2048, 4096, 8192];
const SLOW_MODE = 'Not cross-origin isolated: batches travel as transferable buffers (slower mode). ' +
  'Serve the page with COOP same-origin and COEP require-corp (npm run serve) for shared memory.';

const env = detectEnvironment();
const notices = $('#notices');
const errors = $('#errors');
const progress = createProgressPanel($('#progress'));
const figures = { projection: $('#chart-projection'), scaling: $('#chart-scaling'), variants: $('#chart-variants'), byType: $('#chart-by-type'), sweep: $('#chart-sweep') };
/** Each source's last run: the document of the last that finished (shown, and what Download JSON
 *  gives), when it finished, and the progress panel's closing line of its last attempt. */
const runs = { fixtures: { doc: null, at: null, closing: null }, node: { doc: null, at: null, closing: null } };
const SOURCE_NAMES = { fixtures: 'the fixture blocks', node: 'your node\'s block files' };
let manifestLoaded = false;
/** The node's block files picked (web/block-files.mjs), or null. */
let picked = null;
document.body.dataset.run = 'idle';

/** 'fixtures' or 'node': the source the controls are set to. */
const sourceOf = () => $('#controls').dataset.source;
errors.dataset.source = sourceOf();

/** The error panels' container, for panels about `source`: it holds one source's at a time (the
 *  other's are dropped) and is shown only while that source is chosen. */
function errorsFor(source) {
  if (errors.dataset.source !== source) errors.replaceChildren();
  errors.dataset.source = source;
  errors.hidden = source !== sourceOf();
  return errors;
}

function showEnvironment(transport) {
  const put = (key, text, ok) => {
    const dd = $(`[data-env="${key}"]`);
    dd.textContent = text;
    if (ok !== undefined) dd.className = ok ? 'yes' : 'no';
  };
  put('browser', env.browser);
  put('cores', String(env.hardware_concurrency));
  put('isolated', env.cross_origin_isolated ? 'yes' : 'no', env.cross_origin_isolated);
  put('simd', env.simd ? 'yes' : 'no', env.simd);
  put('wide', env.wide_arithmetic ? 'yes' : 'no', env.wide_arithmetic);
  const shared = transport ? transport === 'shared' : env.cross_origin_isolated;
  put('transport', shared ? 'shared memory' : 'transferable buffers', shared);
}

function fillControls() {
  const workers = $('#workers');
  workers.add(new Option(`auto (measure 1–${env.hardware_concurrency})`, 'auto'));
  for (let n = 1; n <= env.hardware_concurrency; n++) workers.add(new Option(String(n), String(n)));
  workers.value = String(env.hardware_concurrency);
  const batch = $('#batch-size');
  for (const n of BATCH_SIZES) batch.add(new Option(n.toLocaleString('en-US'), String(n)));
  batch.value = String(DEFAULT_BATCH_SIZE);
  // The fastest build this browser runs: 'wide' (wasm wide arithmetic: Firefox >= 155), else
  // SIMD, else scalar.
  $('#variant').value = env.wide_arithmetic ? 'wide' : 'simd';
  if (env.wide_arithmetic) $('#variant-note').textContent = 'wide arithmetic: 5x52 field';
  if (!env.wide_arithmetic) $('#variant option[value="wide"]').disabled = true;
  if (!env.simd) {
    $('#variant option[value="simd"]').disabled = true;
    $('#variant').value = 'scalar';
    $('#variant-note').textContent = 'no SIMD in this browser';
    showNotice(notices, 'This browser has no WebAssembly SIMD: the scalar build runs (SIMD vs scalar shows scalar only).', 'no-simd');
  }
  if (!env.cross_origin_isolated) showNotice(notices, SLOW_MODE, 'slow-mode');
}

async function fillBlocks() {
  const box = $('#blocks');
  try {
    const manifest = await fetchManifest();
    box.replaceChildren(...manifest.blocks.map((b) => {
      const label = document.createElement('label');
      label.className = 'chip';
      label.title = `${b.hash} · ${plural(b.inputs, 'input')}`;
      const input = Object.assign(document.createElement('input'), { type: 'checkbox', value: String(b.height), checked: true });
      label.append(input, b.height.toLocaleString('en-US'));
      return label;
    }));
  } catch (err) {
    box.textContent = '';
    showError(errorsFor('fixtures'), 'Fixture manifest', err.message);
  }
  manifestLoaded = box.querySelector('input') !== null;
  updateRunButton();
}

/** The Run button says what it runs; without a manifest only the node's files can run. */
function updateRunButton() {
  const node = sourceOf() === 'node';
  $('#run').textContent = node ? 'Validate blocks' : 'Run benchmark';
  $('#run').disabled = document.body.dataset.run === 'running' || (!node && !manifestLoaded);
}

/** The line under Workers says what the chosen setting does, for the chosen source. */
function updateWorkersNote() {
  const value = $('#workers').value;
  const cores = env.hardware_concurrency;
  $('#workers-note').textContent = value !== 'auto'
    ? `${plural(Number(value), 'Web Worker')} (${plural(cores, 'core')} here)`
    : sourceOf() === 'node' ? `every core: ${plural(cores, 'Web Worker')}` : `measures 1–${cores} workers and keeps the fastest`;
}

function setSource(value) {
  $('#controls').dataset.source = value;
  updateRunButton();
  updateWorkersNote();
  progress.restore(runs[value].closing);
  showSource();
}

/**
 * Shows the chosen source's last run and nothing of the other's (a run on the fixture blocks is
 * no result for the node's files, nor the reverse): its results section, its error panels, the
 * Download JSON button for its document; when it has none, a line says whose run is kept and when.
 */
function showSource() {
  const source = sourceOf();
  const own = runs[source];
  const otherSource = source === 'node' ? 'fixtures' : 'node';
  const other = runs[otherSource];
  $('#results').hidden = !(source === 'fixtures' && own.doc);
  $('#range-results').hidden = !(source === 'node' && own.doc);
  errors.hidden = errors.dataset.source !== source;
  $('#download').disabled = own.doc === null || document.body.dataset.run === 'running';
  const note = $('#other-run');
  note.hidden = own.doc !== null || other.doc === null;
  note.textContent = note.hidden ? '' : `Nothing run on ${SOURCE_NAMES[source]} yet; the results of ` +
    `${SOURCE_NAMES[otherSource]}' run (done at ${other.at.toLocaleTimeString()}) are kept under that source.`;
}

/** Shows what was picked (and, once opened, the tip and the lowest height the files hold). */
function showPicked(text, bad = false) {
  const p = $('#picked');
  p.textContent = text;
  p.classList.toggle('bad', bad);
}

/**
 * Takes a pick: `getFiles` gives the block files (web/block-files.mjs) or throws naming the
 * folder or file; the summary and, on a problem, an error panel say what came of it.
 */
async function usePick(getFiles) {
  if (document.body.dataset.run === 'running') return;
  errorsFor('node').replaceChildren();
  showPicked('reading the folder…');
  try {
    picked = await getFiles();
    showPicked(`${pickedSummary(picked)}.`);
  } catch (err) {
    picked = null;
    showPicked('Nothing usable picked.', true);
    showError(errorsFor('node'), 'Block files', err?.message ?? String(err));
  }
}

async function pickFolder() {
  let handle;
  try {
    handle = await window.showDirectoryPicker({ id: 'ibd-wasm-blocks', mode: 'read' });
  } catch (err) {
    if (err?.name === 'AbortError') return; // the user closed the dialog
    showError(errorsFor('node'), 'Block files', `the folder picker failed: ${err?.message ?? err}`);
    return;
  }
  $('#folder-input').value = '';
  $('#files-input').value = '';
  await usePick(() => filesFromDirectoryHandle(handle));
}

function bindPickers() {
  if ('showDirectoryPicker' in window) $('#pick-folder').hidden = false;
  $('#pick-folder').addEventListener('click', pickFolder);
  for (const [id, other] of [['#folder-input', '#files-input'], ['#files-input', '#folder-input']]) {
    $(id).addEventListener('change', () => {
      $(other).value = '';
      usePick(() => filesFromList($(id).files)); // an empty folder is named: no blk?????.dat
    });
  }
  const zone = $('#drop-zone');
  const carriesFiles = (e) => [...(e.dataTransfer?.types ?? [])].includes('Files');
  zone.addEventListener('dragover', (e) => {
    if (!carriesFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = document.body.dataset.run === 'running' ? 'none' : 'copy';
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('over');
    const items = dropItems(e.dataTransfer); // now: the items are gone once the handler returns
    $('#folder-input').value = '';
    $('#files-input').value = '';
    usePick(() => filesFromDrop(items));
  });
  // A file dropped beside the zone is not opened by the browser in place of the page.
  for (const type of ['dragover', 'drop']) {
    window.addEventListener(type, (e) => {
      if (!carriesFiles(e) || zone.contains(e.target)) return;
      e.preventDefault();
      if (type === 'dragover') e.dataTransfer.dropEffect = 'none';
    });
  }
}

/** A height box: null when empty (the default), else a non-negative integer, or throws naming it. */
function heightOf(id, name) {
  const text = $(id).value.trim();
  if ($(id).validity.badInput) throw new Error(`${name} must be a block height (an integer, 0 or more)`);
  if (text === '') return null;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a block height (an integer, 0 or more), got "${text}"`);
  return n;
}

/** The node files' settings, or throws an Error naming what is missing or bad. */
function readNodeSettings() {
  if (!picked) throw new Error('pick your node\'s blocks/ folder (or the datadir), or its blk, rev and xor.dat files, first');
  const workers = $('#workers').value;
  const from = heightOf('#from-height', 'from height');
  const to = heightOf('#to-height', 'to height');
  if (from !== null && to !== null && from > to) throw new Error(`from height ${from} is above to height ${to}`);
  return { workers: workers === 'auto' ? 'auto' : Number(workers), variant: $('#variant').value, from, to };
}

/** The controls' settings, or throws an Error naming the bad field. */
function readSettings() {
  if (sourceOf() === 'node') return readNodeSettings();
  const heights = [...document.querySelectorAll('#blocks input:checked')].map((i) => Number(i.value));
  if (heights.length === 0) throw new Error('pick at least one fixture block');
  const positive = (id, name) => {
    const n = Number($(id).value);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got "${$(id).value}"`);
    return n;
  };
  let batchSweep = null;
  if ($('#extra-sweep').checked) {
    const sizes = $('#sweep-sizes').value.split(/[\s,]+/).filter(Boolean).map(Number);
    if (!sizes.length || !sizes.every((s) => Number.isInteger(s) && s >= 1 && s <= 1 << 20)) {
      throw new Error(`sweep sizes must be positive integers, e.g. "64, 256, 1024", got "${$('#sweep-sizes').value}"`);
    }
    batchSweep = { sizes, checks: positive('#sweep-checks', 'sweep checks'), rounds: positive('#sweep-rounds', 'sweep rounds') };
  }
  const workers = $('#workers').value;
  return {
    workers: workers === 'auto' ? 'auto' : Number(workers),
    variant: $('#variant').value,
    batchSize: Number($('#batch-size').value),
    rounds: positive('#rounds', 'timed rounds'),
    heights,
    scaling: $('#extra-scaling').checked,
    variants: $('#extra-variants').checked,
    batchSweep,
  };
}

/**
 * The projection for `workers` workers from the run's measurement: its own model at the run's
 * worker count, else projected again (bench/core/model-projection.mjs), with every engine the
 * last bench run compares (bench/core/contenders.mjs); null without a cost model.
 */
function projectionView(doc, workers) {
  const m = doc.projection?.model;
  const inputs = lastProjectionInputs();
  if (!m || !inputs?.table) return null;
  const p = workers === m.workers ? m : projectChain({ blocks: doc.blocks, table: inputs.table, endToEnd: doc.end_to_end,
    schnorrPerEcdsa: m.schnorr_per_ecdsa, workers });
  return { workers, assumption: p.assumption, full_chain_hours: p.full_chain_hours, after_assumevalid_hours: p.after_assumevalid_hours,
    engines: projectContenders(p, inputs.table, inputs.bench?.ratios ?? {}, { measuredOn: inputs.measuredOn, variant: doc.variant }) };
}

/** Draws the projection chart for the worker count in its control, and says what it shows. */
function renderProjection(doc) {
  const input = $('#projection-workers');
  const workers = Math.min(64, Math.max(1, Math.round(Number(input.value) || doc.workers)));
  input.value = workers;
  const view = projectionView(doc, workers);
  const series = drawProjectionChart(figures.projection, view);
  const h = (x) => `${x.value.toFixed(1)} h (${x.low.toFixed(1)}–${x.high.toFixed(1)} h)`;
  figures.projection.querySelector('[data-caption]').textContent = view
    ? `On ${plural(workers, 'worker')}: the whole chain ${h(view.full_chain_hours)}, after assumevalid ${h(view.after_assumevalid_hours)}; ` +
      `each engine from this run's costs${lastProjectionInputs()?.bench ? ' and the last npm run bench run\'s ratios' : ' (no bench run to compare other engines)'}` +
      `${view.assumption ? `; assumed: ${view.assumption}` : ''}.`
    : (doc.projection?.model_error ?? 'No cost model.');
  return series;
}

function render(doc) {
  const results = $('#results');
  results.hidden = false;
  renderHeadline(results, doc);
  $('#projection-workers').value = doc.workers;
  doc.charts = { projection: renderProjection(doc), ...drawCharts(doc, figures) };
  $('#projection-workers').onchange = () => { doc.charts.projection = renderProjection(doc); };
  renderCaptions(figures, doc);
  renderBlocks($('#blocks-table'), $('#blocks-note'), doc);
  renderDetails($('#details'), doc);
  showEnvironment(doc.environment.transport);
  if (doc.environment.transport !== 'shared') showNotice(notices, SLOW_MODE, 'slow-mode');
}

/** Shows a node range's document, and in the summary what the opened files hold. */
async function renderNode(doc, report) {
  renderRange($('#range-results'), doc);
  showEnvironment(doc.environment.transport);
  const opened = await openPicked(picked, report); // already open: the run opened it
  showPicked(`${pickedSummary(picked)}. Active chain tip ${doc.source.tip.height.toLocaleString('en-US')} ` +
    `(${doc.source.tip.hash}); lowest height held ${opened.heights.first.toLocaleString('en-US')}` +
    `${doc.source.unplaced_blocks ? `, ${plural(doc.source.unplaced_blocks, 'block')} with no height` : ''}` +
    `${doc.source.stale_blocks ? `, ${plural(doc.source.stale_blocks, 'block')} off the active chain` : ''}.`);
}

async function run(event) {
  event.preventDefault();
  const source = sourceOf();
  let settings;
  try {
    settings = readSettings();
  } catch (err) {
    // Beside the panels that say why (a pick that held no blk file), once: a second Run replaces it.
    const box = errorsFor(source);
    for (const old of box.querySelectorAll('.error-panel[data-what="Settings"]')) old.remove();
    showError(box, 'Settings', err.message);
    return;
  }
  errorsFor(source).replaceChildren();
  const controls = $('#controls');
  controls.classList.add('busy');
  for (const el of controls.elements) el.disabled = true;
  document.body.dataset.run = 'running';
  progress.start();
  const report = {
    log: (msg) => progress.log(msg),
    track: (label, total, unit) => progress.track(label, total, unit),
    notice: (msg, id) => showNotice(notices, msg, id),
    error: (what, msg) => showError(errorsFor(source), what, msg),
  };
  const t0 = performance.now();
  const seconds = () => ((performance.now() - t0) / 1000).toFixed(1);
  try {
    if (source === 'node') {
      const doc = await runNodeFiles(picked, settings, env, report);
      Object.assign(runs.node, { doc, at: new Date() });
      await renderNode(doc, report);
      const t = doc.totals;
      runs.node.closing = progress.finish(`done in ${seconds()} s: ${plural(t.blocks, 'block')}, ${t.valid} valid, ${t.invalid} invalid, ${t.failed} not judged` +
        `${doc.read_error ? `; stopped by a read error at height ${doc.read_error.height}` : ''} (exit code ${doc.exit_code})`);
    } else {
      const doc = await runInPage(settings, env, report);
      Object.assign(runs.fixtures, { doc, at: new Date() });
      render(doc);
      runs.fixtures.closing = progress.finish(`done in ${seconds()} s` +
        (doc.errors.length ? ` (${doc.errors.length} failed blocks, named above)` : ''));
    }
    document.body.dataset.run = 'done';
  } catch (err) {
    showError(errorsFor(source), 'Run failed', err?.message ?? String(err));
    runs[source].closing = progress.finish('failed');
    document.body.dataset.run = 'failed';
  } finally {
    controls.classList.remove('busy');
    for (const el of controls.elements) el.disabled = false;
    if (!env.simd) $('#variant option[value="simd"]').disabled = true;
    if (!env.wide_arithmetic) $('#variant option[value="wide"]').disabled = true;
    updateRunButton();
    showSource();
  }
}

/** Downloads the chosen source's last document (the button is disabled while it has none). */
function download() {
  const doc = runs[sourceOf()].doc;
  if (!doc) return;
  const blob = new Blob([`${JSON.stringify(doc, null, 1)}\n`], { type: 'application/json' });
  const a = Object.assign(document.createElement('a'), {
    href: URL.createObjectURL(blob),
    download: `ibd-wasm-${doc.range ? 'range-' : ''}${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
  });
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

showEnvironment();
fillControls();
bindPickers();
for (const radio of document.querySelectorAll('input[name="source"]')) radio.addEventListener('change', () => setSource(radio.value));
setSource(document.querySelector('input[name="source"]:checked').value);
$('#workers').addEventListener('change', updateWorkersNote);
$('#controls').addEventListener('submit', run);
$('#download').addEventListener('click', download);
$('#blocks-all').addEventListener('click', () => document.querySelectorAll('#blocks input').forEach((i) => { i.checked = true; }));
$('#blocks-none').addEventListener('click', () => document.querySelectorAll('#blocks input').forEach((i) => { i.checked = false; }));
await fillBlocks();
