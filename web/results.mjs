// The page's presentation of a result document (bench/core/run-core.mjs): the headline numbers with
// units, the chart captions (what each chart measured), the blocks table, the details line, and
// the notice / error panels. Formatting only.

import { amountsText, countOf, int as coreInt, pairedEfficiencyText, verdictText } from '../bench/core/format.mjs';

/** How the page names each wasm variant. */
const VARIANT_LABELS = { wide: 'wide arithmetic', simd: 'SIMD', scalar: 'scalar' };

/** The run core's integer format (12,152), with the page's '–' for null or undefined. */
export const int = (n) => (n === null || n === undefined ? '–' : coreInt(n));
/** "1 input", "2,048 inputs": the run core's countOf. */
export const plural = countOf;
const rate = (r) => (r === null || r === undefined ? 'n/a' : int(r));
const spread = (p) => ((p?.rounds_seconds?.length ?? 0) > 1
  ? `median of ${p.rounds_seconds.length} rounds, ${int(p.checks_per_second_min)}–${int(p.checks_per_second_max)}`
  : '1 timed round');

/** Sets a [data-stat] element's text, with `unit` after it in a smaller span when given. */
function set(root, key, text, unit = '') {
  const el = root.querySelector(`[data-stat="${key}"]`);
  el.textContent = text;
  if (unit) {
    const u = document.createElement('span');
    u.className = 'unit';
    u.textContent = unit;
    el.append(u);
  }
}

const oneDecimal = (v) => v.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** Hours as the CLI prints them ("43.7 h"), with days after them past 48 h ("103.2 h (4.3 days)"):
 *  [value, unit]. */
function duration(hours) {
  if (hours === null || hours === undefined) return ['n/a', ''];
  return [oneDecimal(hours), hours > 48 ? `h (${oneDecimal(hours / 24)} days)` : 'h'];
}

/**
 * Fills the headline numbers.
 * @param {HTMLElement} root the results section
 * @param {object} doc the result document
 */
export function renderHeadline(root, doc) {
  const t = doc.totals;
  set(root, 'overall', rate(t.checks_per_second), 'checks/s');
  const auto = doc.workers_auto ? ` (auto: fastest of 1–${doc.workers_auto.max_workers})` : '';
  set(root, 'overall-sub', `${spread(t)} · ${plural(doc.workers, 'worker')}${auto}, ${VARIANT_LABELS[doc.variant] ?? doc.variant}, ` +
    `batch ${int(doc.batch_size)}`);
  set(root, 'per-worker', rate(t.per_worker), 'checks/s');
  set(root, 'per-worker-sub', `overall / ${plural(doc.workers, 'worker')}`);
  for (const [type, name] of [['ecdsa', 'ECDSA'], ['schnorr', 'Schnorr']]) {
    const p = t.by_type[type];
    if (p.checks) {
      set(root, type, rate(p.checks_per_second), 'checks/s');
      set(root, `${type}-sub`, `${plural(p.checks, 'check')}, separate pass; ${spread(p)}`);
    } else {
      set(root, type, '–');
      set(root, `${type}-sub`, `no ${name} checks in the selected blocks`);
    }
  }
  set(root, 'overall-foot', `${plural(t.checks, 'check')} verified in ${t.seconds?.toFixed(2) ?? '–'} s per pass; ` +
    `${plural(t.blocks, 'block')}, ${plural(t.inputs, 'input')} evaluated by the script interpreter`);
  set(root, 'checks', int(t.valid), 'valid');
  const invalidNote = t.invalid === 0 ? '0 invalid'
    : t.invalid === t.invalid_in_valid_blocks
      ? `${int(t.invalid)} invalid, CHECKMULTISIG trials and other checks that valid scripts tolerate`
      : `${int(t.invalid)} invalid, ${int(t.invalid - t.invalid_in_valid_blocks)} of them in invalid blocks`;
  const ok = t.blocks - t.blocks_failed - t.invalid_blocks;
  set(root, 'checks-sub', `${invalidNote} · ${int(ok)} / ${plural(t.blocks, 'block')} valid`);
  root.querySelector('[data-stat="checks"]').closest('.stat').classList.toggle('bad', t.invalid_blocks > 0 || t.blocks_failed > 0);
  const p = doc.projection;
  if (p.model) {
    // The cost model's projection: the whole chain's validation, with its range.
    const m = p.model;
    const [value, unit] = duration(m.full_chain_hours.value);
    set(root, 'projection', value, unit);
    set(root, 'projection-sub', `${m.full_chain_hours.low.toFixed(1)}–${m.full_chain_hours.high.toFixed(1)} h to validate the chain ` +
      `(parse, sighash, script, verify) on ${plural(m.workers, 'worker')}; ${duration(m.after_assumevalid_hours.value).join(' ')} after ` +
      `assumevalid (heights ${int(m.assumevalid.height + 1)}–${int(m.tip)}); model ${trustText(m)}`);
    return;
  }
  const [value, unit] = duration(p.hours);
  set(root, 'projection', value, unit);
  set(root, 'projection-sub', p.hours === null ? p.error
    : `${int(p.workload_checks)} checks (${p.checks_per_transaction.toFixed(3)}/tx × ${int(p.workload_transactions)} txs) ` +
      `on ${plural(p.workers, 'worker')}${p.sample?.partial ? `; from ${p.sample.blocks} of ${p.sample.fixture_blocks} fixture blocks` : ''}` +
      (p.end_to_end ? `; ${duration(p.end_to_end.hours).join(' ')} to validate them whole (parse, sighash, script, verify) ` +
        `at this run's end-to-end rate, ${int(p.end_to_end.checks_per_second)} checks/s` : ''));
}

/**
 * Writes under each chart what it measured.
 * @param {Record<string, HTMLElement>} figures as drawCharts (web/charts.mjs)
 * @param {object} doc the result document
 */
export function renderCaptions(figures, doc) {
  const caption = (fig, text) => { fig.querySelector('[data-caption]').textContent = text; };
  const checks = plural(doc.totals.checks, 'check');
  const rounds = plural(doc.rounds, 'timed round');
  const s = doc.scaling;
  const e2e = doc.end_to_end?.scaling;
  caption(figures.scaling, s?.length
    ? `${checks} on 1–${s.length} workers, ${rounds} each (interleaved); speedup at ${s.length}: ` +
      `${s.at(-1).speedup?.toFixed(2) ?? '–'}×, efficiency ${s.at(-1).efficiency === null ? '–' : `${(100 * s.at(-1).efficiency).toFixed(0)}%`}` +
      (e2e?.length > 1 ? `; whole blocks end to end at ${e2e.length}: ${e2e.at(-1).speedup.toFixed(2)}×, efficiency ${(100 * e2e.at(-1).efficiency).toFixed(0)}%` : '')
    : '');
  const v = doc.variants?.filter((r) => r.checks_per_second !== null) ?? [];
  const simd = v.find((r) => r.variant === 'simd');
  const scalar = v.find((r) => r.variant === 'scalar');
  const wide = v.find((r) => r.variant === 'wide');
  caption(figures.variants, v.length
    ? `${checks} on ${plural(v[0].workers, 'worker')}, ${rounds} each` +
      (wide && simd ? `; wide arithmetic / SIMD = ${(wide.checks_per_second / simd.checks_per_second).toFixed(2)}×` : '') +
      (simd && scalar ? `; SIMD / scalar = ${(simd.checks_per_second / scalar.checks_per_second).toFixed(2)}×` : '')
    : '');
  caption(figures.byType, `ECDSA and Schnorr in separate passes, then all together; ${rounds}`);
  const w = doc.batch_sweep;
  caption(figures.sweep, w
    ? `each pass verifies the first ${plural(w.checks, 'check')}` +
      (w.copies > 1 ? ` repeated ${w.copies} times (${plural(w.records, 'check')}), so every size fills all workers` : '') +
      `; ${plural(w.rounds, 'round')}; recommended: ${int(w.recommended)}`
    : '');
}

/**
 * A table row for one block: its height and its shortened hash (the whole one as the title)
 * put in, and `cell(text, cls)` to add the rest.
 * @param {HTMLTableRowElement} tr
 * @param {{height: number, hash: string|null}} b
 * @returns {{tr: HTMLTableRowElement, cell: (text: string, cls?: string) => HTMLTableCellElement}}
 */
export function blockRow(tr, b) {
  const cell = (text, cls = '') => {
    const td = tr.insertCell();
    td.textContent = text;
    if (cls) td.className = cls;
    return td;
  };
  cell(int(b.height));
  const hash = cell(b.hash ? `${b.hash.slice(0, 12)}…${b.hash.slice(-8)}` : '–', 'hash');
  if (b.hash) hash.title = b.hash;
  return { tr, cell };
}

/**
 * Fills the blocks table: one row per block, failed ones with their error; each block's fee,
 * its verdict (Core's reject reason and stage when invalid) and the rules not checked.
 * @param {HTMLTableElement} table
 * @param {HTMLElement} note the line under it
 * @param {object} doc the result document
 */
export function renderBlocks(table, note, doc) {
  const body = table.tBodies[0];
  body.replaceChildren();
  for (const b of doc.blocks) {
    const { tr, cell } = blockRow(body.insertRow(), b);
    if (b.error) {
      tr.className = 'failed';
      const td = cell(`failed: ${b.error}`, 'error-cell');
      td.colSpan = 9;
      continue;
    }
    for (const n of [b.tx_count, b.inputs, b.checks.ecdsa, b.checks.schnorr, b.valid, b.invalid]) cell(int(n), 'num');
    // The block's engine time in the workers, the median over the timed rounds of the four stages'
    // sum (engine_ms.median: the CLI's column and the cost model's measured time), not the sum of
    // the stages' separate medians.
    cell(b.engine_ms ? b.engine_ms.median.toFixed(1) : '–', 'num');
    cell(int(b.fee), 'num').title = amountsText(b) ?? 'rejected before any input was connected';
    const verdict = cell(verdictText(b), `verdict ${b.block_valid ? 'ok' : 'bad'}`);
    if (b.not_checked?.length) {
      const list = document.createElement('div');
      list.className = 'not-checked muted small';
      list.textContent = `not checked: ${b.not_checked.map((n) => n.rule).join(', ')}`;
      list.title = b.not_checked.map((n) => `${n.rule}: ${n.reason}`).join('\n');
      verdict.append(list);
    }
  }
  note.textContent = 'checks: the final checks of every input (what Bitcoin Core verifies); invalid: checks that valid ' +
    'scripts tolerate (CHECKMULTISIG trials); worker ms: the block\'s engine time in the workers (parse, sighash, ' +
    'script, verify), warm: median of the timed end-to-end rounds; fee: the ' +
    'block\'s fees in satoshis; block: Bitcoin Core\'s verdict on the rules the block, its height and its spent outputs ' +
    'decide (not checked: the rules that need the chain, docs/validation.md).';
}

/**
 * The details line: engine, environment, the projection's model, warnings.
 * @param {HTMLElement} root
 * @param {object} doc the result document with the page's `environment`
 */
export function renderDetails(root, doc) {
  const e = doc.engine ?? {};
  const env = doc.environment ?? {};
  const lines = [
    `Engine: libsecp256k1 ${e.secp256k1 ?? '?'} (${e.field ?? '?'} field), wasm ${doc.variant}; ` +
      `${env.browser}, ${plural(env.hardware_concurrency, 'core')}; batches as ${env.transport === 'shared' ? 'shared memory' : 'transferable buffers'}.`,
    projectionText(doc.projection),
    'Validation: whole blocks in the workers, each check verified as its script asks; no engine on the page\'s thread.',
    ...(doc.end_to_end ? [endToEndText(doc.end_to_end)] : []),
    ...(doc.chain ? [chainText(doc.chain)] : []),
    ...doc.warnings.map((w) => `Warning: ${w}.`),
    ...(doc.disagreements.length ? [`VERDICT DISAGREEMENT on ${plural(doc.disagreements.length, 'check')}.`] : []),
  ];
  root.replaceChildren(...lines.map((l) => Object.assign(document.createElement('p'), { textContent: l })));
}

/** The projection's model in a sentence: the cost model's, which the headline shows when it could
 *  be made (bench/core/model-projection.mjs), else the skeleton's (bench/core/projection.mjs). */
function projectionText(p) {
  const skeleton = p.source ?? p.error;
  if (!p.model) return `Projection: ${skeleton}${p.model_error ? ` (the cost model could not be made: ${p.model_error})` : ''}.`;
  const m = p.model;
  return `Projection: the cost model (docs/workload.md): costs per stage (parse, sighash, script, verify) fitted on ` +
    `these ${m.blocks_fitted} blocks' warm times in the workers, each block checked against the costs fitted on the others, ` +
    `applied to the workload table of the whole chain (npm run project), on ${plural(m.workers, 'worker')} at ` +
    `${(100 * m.efficiency).toFixed(0)}% of the wall time in the engine${m.efficiency_measured ? ' (measured)' : ''}; ` +
    `${trustText(m)}. Beside it, the skeleton projection, this sample's ` +
    `mix standing in for the chain's: ${skeleton}.`;
}

/** 'trusted', or 'not trusted: ' and why, naming each block outside the tolerance with its
 *  measured time's deviation from the prediction (the terminal report's model check). */
export function trustText(m) {
  const pctOf = (r) => `${r >= 1 ? '+' : '−'}${(Math.abs(r - 1) * 100).toFixed(1)}%`;
  // What the check does not judge: the chain's ECDSA checks priced at the fixtures' key mix.
  const mix = m.at_mix ? ` (each block's ECDSA checks priced by its keys; at the chain's price per check, the fixtures' key mix, ` +
    `the blocks land at ${pctOf(m.at_mix.min)} to ${pctOf(m.at_mix.max)}, which the check does not judge)` : '';
  if (m.trusted) return `trusted${mix}`;
  const pct = (r) => `${r >= 1 ? '+' : '−'}${(Math.abs(r - 1) * 100).toFixed(1)}%`;
  const misses = (m.misses ?? []).map((x) => `${int(x.height)} ${pct(x.ratio)}`).join(', ');
  // As the terminal report: the misses, and the other reason too when there is one (too few rounds).
  const also = misses && m.untrusted_reason && m.untrusted_reason !== 'blocks outside +-15%' ? `; ${m.untrusted_reason}` : '';
  return misses ? `not trusted: blocks ${misses} outside ±15%${also}${mix}` : `not trusted: ${m.untrusted_reason}`;
}

/** The chain pass in one sentence (bench/core/chain-pass.mjs; the terminal report's chain lines). */
function chainText(c) {
  if (c.error) return `Chain: not run: ${c.error}.`;
  const last = c.first_height + c.blocks - 1;
  const verdict = c.valid ? 'every one valid' : c.failure ? `stopped at height ${int(c.failure.height)}` : 'not all connected';
  const m = c.fixture_match;
  return `Chain: blocks ${int(c.first_height)}–${int(last)} connected from genesis in a worker: ${int(c.connected)} of ` +
    `${plural(c.blocks, 'block')}, ${verdict} (${c.seconds.toFixed(2)} s, not timed for throughput); ` +
    `${int(c.links_checked)} header links and ${c.proof_of_work_skipped ? 'no proofs of work (skipped)' : `${int(c.proof_of_work_checked)} proofs of work`} checked, ` +
    (c.spends ? `${plural(c.spends.from_view + c.spends.in_block, 'spend')} found in the coins view` : 'no spends counted') +
    (c.checks ? `, ${plural(c.checks.total, 'check')} (${int(c.checks.valid)} valid)` : '') +
    (m?.compared ? `; equal to the fixture path's for ${int(m.equal)} of ${plural(m.compared, 'block')}` +
      (m.differing.length ? ` (DIFFERENT: ${m.differing.join(', ')})` : '') : '') + '.';
}

/** The end-to-end pass in one sentence (bench/core/end-to-end.mjs; the terminal report's lines). */
function endToEndText(e) {
  const st = e.stages;
  const busy = e.main_thread_busy_share === null ? 'not measurable in this browser'
    : `${(100 * e.main_thread_busy_share).toFixed(1)}% of the wall time ` +
      (e.main_thread_busy_method === 'own code' ? '(time in the run\'s own code: the pool, planning, merging; a lower bound)'
        : `(${e.main_thread_busy_method})`);
  return `End to end, whole blocks in ${plural(e.workers, 'worker')}: ${e.seconds.toFixed(3)} s warm ` +
    `(median of ${plural(e.rounds_seconds.length, 'round')}), ${e.blocks_per_second.toFixed(1)} blocks/s, ` +
    `${Math.round(e.inputs_per_second).toLocaleString('en-US')} inputs/s, ${Math.round(e.checks_per_second).toLocaleString('en-US')} checks/s, ` +
    `${(e.bytes_per_second / 1e6).toFixed(2)} MB/s; stages summed over the workers: parse ${st.parse_s.toFixed(3)} s, ` +
    `sighash ${st.sighash_s.toFixed(3)} s, script ${st.script_s.toFixed(3)} s, verify ${st.verify_s.toFixed(3)} s; ` +
    `main thread busy ${busy}; first pass (cold) ${e.cold.seconds.toFixed(3)} s after encoding the spent outputs in the ` +
    `workers in ${e.cold.encode_seconds.toFixed(3)} s.` +
    (e.scaling ? ` End-to-end scaling (interleaved rounds, median): ${e.scaling.map((r) => `${plural(r.workers, 'worker')} ` +
      `${Math.round(r.checks_per_second).toLocaleString('en-US')} checks/s` +
      (r.workers > 1 ? ` (${r.speedup.toFixed(2)}×, ${(100 * r.efficiency).toFixed(0)}% efficiency${pairedEfficiencyText(r)})` : '')).join('; ')}.` : '');
}

/**
 * A notice (a condition of this run, not a failure) in `container`.
 * @param {HTMLElement} container
 * @param {string} message
 * @param {string} [id] a stable id, so the notice is shown once
 */
export function showNotice(container, message, id) {
  if (id && container.querySelector(`[data-id="${id}"]`)) return;
  const p = document.createElement('p');
  p.className = 'notice';
  if (id) p.dataset.id = id;
  p.textContent = message;
  container.append(p);
}

/**
 * An error panel naming what failed (a block, a wasm variant, a worker) and why.
 * @param {HTMLElement} container
 * @param {string} what e.g. "block 170 00000000d114…"
 * @param {string} message the reason
 */
export function showError(container, what, message) {
  const div = document.createElement('div');
  div.className = 'error-panel';
  div.dataset.what = what;
  div.setAttribute('role', 'alert');
  const strong = document.createElement('strong');
  strong.textContent = what;
  const p = document.createElement('p');
  p.textContent = message;
  div.append(strong, p);
  container.append(div);
}
