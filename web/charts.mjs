// The page's charts, drawn with Chart.js (served from node_modules/chart.js/dist as
// /vendor/chart.js/chart.umd.js, a classic script that defines the global `Chart`): the
// projection over block height per engine, throughput vs workers with the ideal line, SIMD vs
// scalar, per-type throughput, batch-size sweep. Each
// takes its numbers from the result document (bench/core/run-core.mjs) and returns the series it
// drew, which the download keeps as `charts`.
import { int } from './results.mjs';

const COLORS = Object.freeze({
  primary: '#2357c6',
  primaryBand: 'rgba(35, 87, 198, 0.13)',
  secondary: '#d9822b',
  neutral: '#6b7686',
  ideal: '#9aa3b2',
  grid: 'rgba(29, 35, 48, 0.08)',
  text: '#4a5365',
});

const kilo = (v) => (Math.abs(v) >= 1000 ? `${(v / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 })}k` : `${v}`);

const charts = new Map();

/** Shared options: no animation (the numbers are final when drawn), sig/s on a zero-based y axis. */
function baseOptions(xTitle, extra = {}) {
  return {
    animation: false,
    responsive: true,
    maintainAspectRatio: false,
    interaction: { mode: 'index', intersect: false },
    plugins: {
      legend: { position: 'bottom', labels: { boxWidth: 12, color: COLORS.text, filter: (item) => !item.text.startsWith('_') } },
      tooltip: { callbacks: { label: (c) => (c.dataset.label.startsWith('_') ? null : `${c.dataset.label}: ${int(c.parsed.y)} checks/s`) } },
    },
    scales: {
      x: { title: { display: true, text: xTitle, color: COLORS.text }, grid: { color: COLORS.grid }, ticks: { color: COLORS.text } },
      y: {
        beginAtZero: true,
        title: { display: true, text: 'signatures / s', color: COLORS.text },
        grid: { color: COLORS.grid },
        ticks: { color: COLORS.text, callback: kilo },
      },
    },
    ...extra,
  };
}

/**
 * A Chart.js plugin that writes the chart's legend into `list` (the figure's ul.legend) in place
 * of the canvas's own: an entry per line (those named '_...' left out, as the canvas legend's
 * filter does) with its colour, wrapping as text does, so that no entry is cut off or drawn over
 * another at a phone's width and the legend takes none of the plot's height (Chart.js's, in the
 * canvas, was clipped on a phone and left the projection a plot 31 px high). A click hides or
 * shows the line, as on Chart.js's legend.
 */
function htmlLegend(list) {
  return {
    id: 'htmlLegend',
    afterUpdate(chart) {
      list.replaceChildren(...chart.legend.legendItems.map((item, i) => {
        const button = Object.assign(document.createElement('button'), { type: 'button' });
        button.setAttribute('aria-pressed', String(!item.hidden));
        button.classList.toggle('off', item.hidden);
        const swatch = document.createElement('span');
        swatch.className = 'swatch';
        swatch.style.background = item.fillStyle;
        swatch.style.border = `${Math.max(1, item.lineWidth)}px ${item.lineDash?.length ? 'dashed' : 'solid'} ${item.strokeStyle}`;
        button.append(swatch, item.text);
        button.addEventListener('click', () => {
          chart.setDatasetVisibility(item.datasetIndex, !chart.isDatasetVisible(item.datasetIndex));
          chart.update(); // the list is written again: the focus goes to the same entry's new button
          list.children[i]?.querySelector('button').focus();
        });
        const li = document.createElement('li');
        li.append(button);
        return li;
      }));
    },
  };
}

/** (Re)draws chart `id` on `canvas`; null data hides the canvas and shows `empty` instead. The
 *  legend, unless the config turns it off, goes in the figure's ul.legend (htmlLegend). */
function draw(id, figure, config, empty) {
  charts.get(id)?.destroy();
  charts.delete(id);
  const canvas = figure.querySelector('canvas');
  const note = figure.querySelector('.empty');
  const list = figure.querySelector('.legend');
  canvas.hidden = config === null;
  note.hidden = config !== null;
  list.replaceChildren();
  list.hidden = config === null || config.options.plugins.legend.display === false;
  if (config === null) {
    note.textContent = empty;
    return;
  }
  config.options.plugins.legend.display = false;
  charts.set(id, new globalThis.Chart(canvas, { ...config, plugins: [htmlLegend(list)] }));
}

/** Throughput vs workers: signature checks' measured median with its min–max band, the ideal
 *  line (1 worker's rate x workers) and, where measured, whole blocks end to end. */
function scalingChart(figure, doc) {
  const rows = doc.scaling ?? [];
  if (!rows.length || rows[0].checks_per_second === null) {
    draw('scaling', figure, null, 'Not measured: tick "throughput vs workers" or choose auto workers.');
    return null;
  }
  const series = {
    workers: rows.map((r) => r.workers),
    checks_per_second: rows.map((r) => r.checks_per_second),
    checks_per_second_min: rows.map((r) => r.checks_per_second_min),
    checks_per_second_max: rows.map((r) => r.checks_per_second_max),
    ideal: rows.map((r) => rows[0].checks_per_second * r.workers),
    // Whole blocks end to end (parse, sighash, script, verify in the workers), where measured.
    end_to_end: doc.end_to_end?.scaling?.map((r) => r.checks_per_second) ?? null,
  };
  draw('scaling', figure, {
    type: 'line',
    data: {
      labels: series.workers,
      datasets: [
        { label: '_max', data: series.checks_per_second_max, borderWidth: 0, pointRadius: 0, fill: '+1', backgroundColor: COLORS.primaryBand },
        { label: '_min', data: series.checks_per_second_min, borderWidth: 0, pointRadius: 0, fill: false },
        { label: 'measured (median; band: min–max)', data: series.checks_per_second, borderColor: COLORS.primary,
          backgroundColor: COLORS.primary, borderWidth: 2.5, pointRadius: 4 },
        { label: 'ideal (1 worker × N)', data: series.ideal, borderColor: COLORS.ideal, borderDash: [6, 5],
          borderWidth: 1.5, pointRadius: 0 },
        ...(series.end_to_end ? [{ label: 'whole blocks end to end (median)', data: series.end_to_end,
          borderColor: COLORS.secondary, backgroundColor: COLORS.secondary, borderWidth: 2, pointRadius: 3 }] : []),
      ],
    },
    options: baseOptions('workers'),
  });
  return series;
}

/** Bars with one colour each; `labels` and `rates` line up. */
function barConfig(labels, rates, colors, xTitle) {
  return {
    type: 'bar',
    data: { labels, datasets: [{ label: 'median', data: rates, backgroundColor: colors, borderRadius: 4, maxBarThickness: 72 }] },
    options: baseOptions(xTitle, {}),
  };
}

function variantsChart(figure, doc) {
  const rows = (doc.variants ?? []).filter((v) => v.checks_per_second !== null);
  if (!rows.length) {
    draw('variants', figure, null, 'Not measured: tick "SIMD vs scalar".');
    return null;
  }
  const series = {
    variants: rows.map((v) => v.variant),
    workers: rows[0].workers,
    checks_per_second: rows.map((v) => v.checks_per_second),
    checks_per_second_min: rows.map((v) => v.checks_per_second_min),
    checks_per_second_max: rows.map((v) => v.checks_per_second_max),
  };
  const label = { simd: 'SIMD', wide: 'wide arithmetic' };
  const config = barConfig(series.variants.map((v) => label[v] ?? v), series.checks_per_second,
    series.variants.map((v) => (v === 'scalar' ? COLORS.secondary : COLORS.primary)), `wasm build, ${series.workers} workers`);
  config.options.plugins.legend.display = false;
  draw('variants', figure, config);
  return series;
}

function byTypeChart(figure, doc) {
  const t = doc.totals;
  const series = {
    types: ['ecdsa', 'schnorr', 'all'],
    checks: [t.by_type.ecdsa.checks, t.by_type.schnorr.checks, t.checks],
    checks_per_second: [t.by_type.ecdsa.checks_per_second, t.by_type.schnorr.checks_per_second, t.checks_per_second],
  };
  const config = barConfig(['ECDSA', 'Schnorr', 'all (combined)'], series.checks_per_second,
    [COLORS.primary, COLORS.secondary, COLORS.neutral], `check type, ${doc.workers} workers`);
  config.options.plugins.legend.display = false;
  draw('by-type', figure, config);
  return series;
}

function sweepChart(figure, doc) {
  const sweep = doc.batch_sweep;
  if (!sweep?.rows?.length) {
    draw('sweep', figure, null, 'Not measured: tick "batch-size sweep".');
    return null;
  }
  const series = {
    batch_size: sweep.rows.map((r) => r.batch_size),
    checks_per_second: sweep.rows.map((r) => r.checks_per_second),
    recommended: sweep.recommended,
  };
  const recommended = (ctx) => series.batch_size[ctx.dataIndex] === sweep.recommended;
  draw('sweep', figure, {
    type: 'line',
    data: {
      labels: series.batch_size.map((s) => s.toLocaleString('en-US')),
      datasets: [{
        label: 'median (larger point: smallest size within 2% of the best)', data: series.checks_per_second,
        borderColor: COLORS.primary, backgroundColor: COLORS.primary, borderWidth: 2.5,
        pointRadius: (ctx) => (recommended(ctx) ? 7 : 3.5),
        pointBackgroundColor: (ctx) => (recommended(ctx) ? COLORS.secondary : COLORS.primary),
      }],
    },
    options: baseOptions(`checks per worker message, ${sweep.workers} workers`),
  });
  return series;
}

/** A log axis's tick label: 1, 2 and 5 times a power of ten, as few digits as it needs
 *  ("0.001", "0.5", "20", "1,000"); the ticks between are left unlabelled. */
function logTick(value) {
  const v = Number(value);
  if (!(v > 0)) return '';
  const lead = v / 10 ** Math.floor(Math.log10(v) + 1e-9);
  if (![1, 2, 5].some((d) => Math.abs(lead - d) < 1e-6)) return '';
  return v >= 1 ? Math.round(v).toLocaleString('en-US') : String(Number(v.toPrecision(1)));
}

/** The projection's palette, one colour per engine (contenders.mjs keys). */
const ENGINE_COLORS = Object.freeze({
  'ibd-wasm': COLORS.primary, chromium_worker: '#3a9a5b', node_worker: '#3a9a5b', scalar: '#8a5cc2', no_batch: '#c2478a',
  tiny: COLORS.secondary, noble: '#b33a3a', native: COLORS.neutral,
});

/**
 * Projected validation time over block height (cumulative hours from genesis, log scale), one
 * line per engine, ibd-wasm's with its range as a band.
 * @param {HTMLElement} figure holds a <canvas> and an `.empty` note
 * @param {{workers: number, engines: object[]}|null} view web/app.mjs projectionView: each engine
 *   with `curve` [{height, hours, low, high}] (bench/core/contenders.mjs projectContenders)
 * @returns {{workers: number, heights: number[], engines: Array<{key, name, hours: number[]}>}|null}
 */
export function drawProjectionChart(figure, view) {
  if (!view?.engines?.length) {
    draw('projection', figure, null, 'No projection: the run has no cost model (see the details below).');
    return null;
  }
  const heights = view.engines[0].curve.map((c) => c.height);
  const own = view.engines[0];
  const series = { workers: view.workers, heights, engines: view.engines.map((e) => ({ key: e.key, name: e.name, hours: e.curve.map((c) => c.hours) })) };
  const options = baseOptions('block height');
  // Hours below 0.001 (the first blocks) are drawn at 0.001, the axis's floor: lines and band alike.
  options.scales.y = { type: 'logarithmic', min: 1e-3, title: { display: true, text: 'hours from genesis', color: COLORS.text },
    grid: { color: COLORS.grid }, ticks: { color: COLORS.text, callback: logTick } };
  options.scales.x.ticks.callback = function tick(value) { return kilo(Number(this.getLabelForValue(value))); };
  options.plugins.tooltip.callbacks.label = (c) => (c.dataset.label.startsWith('_') ? null : `${c.dataset.label}: ${c.parsed.y.toFixed(1)} h`);
  draw('projection', figure, {
    type: 'line',
    data: {
      labels: heights,
      datasets: [
        { label: '_high', data: own.curve.map((c) => Math.max(c.high, 1e-3)), borderWidth: 0, pointRadius: 0, fill: '+1', backgroundColor: COLORS.primaryBand },
        { label: '_low', data: own.curve.map((c) => Math.max(c.low, 1e-3)), borderWidth: 0, pointRadius: 0, fill: false },
        ...view.engines.map((e) => ({ label: e.name, data: e.curve.map((c) => Math.max(c.hours, 1e-3)), borderColor: ENGINE_COLORS[e.key] ?? COLORS.neutral,
          backgroundColor: ENGINE_COLORS[e.key] ?? COLORS.neutral, borderWidth: e.key === 'ibd-wasm' ? 2.5 : 1.5, pointRadius: 0 })),
      ],
    },
    options,
  });
  return series;
}

/**
 * Draws every chart from `doc`; a chart whose measurement was not run shows why instead.
 * @param {object} doc the result document (bench/core/run-core.mjs)
 * @param {{scaling: HTMLElement, variants: HTMLElement, byType: HTMLElement, sweep: HTMLElement}} figures
 *   each holds a <canvas> and an `.empty` note
 * @returns {{scaling: object|null, variants: object|null, by_type: object, batch_sweep: object|null}}
 *   the series drawn (sig/s, worker counts, batch sizes in records), null for a chart not drawn
 */
export function drawCharts(doc, figures) {
  return {
    scaling: scalingChart(figures.scaling, doc),
    variants: variantsChart(figures.variants, doc),
    by_type: byTypeChart(figures.byType, doc),
    batch_sweep: sweepChart(figures.sweep, doc),
  };
}
