// The workload table by era: what the chain holds, height range by height range, each figure
// with its source or how it was estimated and a low-high range. Built from:
//   - the chain's transaction counts (chain-data.mjs: Core's figures, year-end totals before them;
//     the interpolation between them: bench/core/workload-model.mjs);
//   - per-era figures of era-sources.json (sourced, or fixed by consensus);
//   - the census of the fixture blocks (census.mjs, fixture-census.json) for every other per-era
//     figure: the ratio over the era's eligible fixture blocks (sum over sum), its range the
//     smallest and largest block's ratio (one eligible block: half to twice its ratio).
// Totals are computed (workloadFor over any height range), never typed; the rows' values add up
// to them. Units: transactions, inputs and checks are counts; sighash and block figures bytes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { INPUT_TYPES, knownIn, workloadFor } from '../core/workload-model.mjs';
import { heightAtTime, heightAtTimeError, interpolationError, readTxCountPoints } from './chain-data.mjs';

const HERE = path.dirname(new URL(import.meta.url).pathname);
/** The sourced per-era figures. */
export const ERA_SOURCES_PATH = path.join(HERE, 'era-sources.json');
/** Where `npm run project -- --write-table` saves the table. */
export const TABLE_PATH = path.join(HERE, 'workload-table.json');

/** The per-era ratios; `per` is what each multiplies: the era's non-coinbase transactions,
 *  its inputs or all its transactions; `max`, where there is one, what the ratio cannot pass (a
 *  share of the inputs, or one check per input), its range capped there. */
export const RATIOS = Object.freeze({
  inputs_per_ncb_tx: { per: 'ncb_txs', num: (b) => b.inputs, den: (b) => b.txs - 1, min: 5 },
  ecdsa_single_per_input: { per: 'inputs', num: (b) => b.checks.ecdsa_single, den: (b) => b.inputs, min: 10, max: 1 },
  ecdsa_multisig_per_input: { per: 'inputs', num: (b) => b.checks.ecdsa_multisig, den: (b) => b.inputs, min: 10 },
  schnorr_keypath_per_input: { per: 'inputs', num: (b) => b.checks.schnorr_keypath, den: (b) => b.inputs, min: 10, max: 1 },
  schnorr_scriptpath_per_input: { per: 'inputs', num: (b) => b.checks.schnorr_scriptpath, den: (b) => b.inputs, min: 10 },
  legacy_sighash_bytes_per_input: { per: 'inputs', num: (b) => b.sighash_bytes.legacy, den: (b) => b.inputs, min: 10 },
  legacy_sighash_hashed_per_input: { per: 'inputs', num: (b) => b.legacy_sighash_hashed, den: (b) => b.inputs, min: 10 },
  bip143_sighash_bytes_per_input: { per: 'inputs', num: (b) => b.sighash_bytes.bip143, den: (b) => b.inputs, min: 10 },
  bip341_sighash_bytes_per_input: { per: 'inputs', num: (b) => b.sighash_bytes.bip341, den: (b) => b.inputs, min: 10 },
  legacy_sighashes_per_input: { per: 'inputs', num: (b) => b.sighashes.legacy, den: (b) => b.inputs, min: 10 },
  bip143_sighashes_per_input: { per: 'inputs', num: (b) => b.sighashes.bip143, den: (b) => b.inputs, min: 10 },
  bip341_sighashes_per_input: { per: 'inputs', num: (b) => b.sighashes.bip341, den: (b) => b.inputs, min: 10 },
  bytes_per_tx: { per: 'txs', num: (b) => b.bytes, den: (b) => b.txs, min: 5 },
  // The share of the inputs spending each script type (the cost model prices script evaluation
  // per input by type).
  ...Object.fromEntries(INPUT_TYPES.map(({ type, key }) => [`${key}_inputs_share`,
    { per: 'inputs', num: (b) => b.inputs_by_type?.[type] ?? 0, den: (b) => b.inputs, min: 10, max: 1 }])),
});
/** Which ratios the blocks without spent outputs (size, transactions, inputs only) inform. */
const BLOCKS_ONLY_RATIOS = new Set(['inputs_per_ncb_tx', 'bytes_per_tx']);

/**
 * One era's ratio from the census: sum over sum of its eligible blocks, range their smallest
 * and largest ratio.
 * @returns {{value, low, high, method: string}|null} null when no block of the era is eligible
 */
function censusRatio(name, spec, blocks) {
  const eligible = blocks.filter((b) => spec.den(b) >= spec.min);
  if (eligible.length === 0) return null;
  const num = eligible.reduce((n, b) => n + spec.num(b), 0);
  const den = eligible.reduce((n, b) => n + spec.den(b), 0);
  const ratios = eligible.map((b) => spec.num(b) / spec.den(b));
  const value = num / den;
  const one = eligible.length === 1;
  const low = one ? value / 2 : Math.min(...ratios);
  const high = Math.min(one ? value * 2 : Math.max(...ratios), spec.max ?? Infinity);
  const heights = eligible.map((b) => b.height).join(', ');
  return {
    value, low, high, label: 'fixtures',
    method: `engine census of fixture block${one ? '' : 's'} ${heights} (${spec.min}+ ${spec.per === 'inputs' ? 'inputs' : 'non-coinbase transactions'} each): ` +
      (one ? `its ratio, range half to twice it (one block: a stated guess)${spec.max !== undefined && value * 2 > spec.max ? `, at most ${spec.max}` : ''}` : 'sum over sum, range the smallest and largest block'),
  };
}

/**
 * The anchors of C(h): genesis, the year-end totals at their estimated heights, and Core's
 * figures; with what the estimates rest on. A year's last height H is at most what its count
 * allows: C(H) >= H + 1 (a coinbase per block) plus the non-coinbase transactions of the blocks
 * of known counts at or below H (`known`: the fixture blocks), so H is capped at the largest
 * height where that holds.
 * @param {{points: object[]}} txPoints readTxCountPoints
 * @param {object} sources era-sources.json
 * @param {Array<{height: number, time: number}>} timed blocks of known height and header time
 * @param {Array<{height: number, txs: number}>} [known] blocks of known transaction counts
 *   (bench/core/workload-model.mjs knownIn); default none
 */
export function txAnchors(txPoints, sources, timed, known = []) {
  // Genesis is an anchor of its own (one transaction); a source row for it must agree.
  const genesisRow = txPoints.points.find((p) => p.height === 0);
  if (genesisRow && genesisRow.tx_count !== 1) {
    throw new Error(`${txPoints.file}: height 0 (genesis) holds 1 transaction, the file says ${genesisRow.tx_count}`);
  }
  const points = txPoints.points.filter((p) => p.height > 0);
  if (points.length < 3) {
    throw new Error(`${txPoints.file}: ${points.length} dated counts above genesis; at least 3 are needed to estimate how far ` +
      'a count between them can be off (leave one out)');
  }
  const first = points[0].height;
  const timeAnchors = [...timed, ...points.filter((p) => p.time_utc).map((p) => ({ height: p.height, time: Date.parse(p.time_utc) / 1000 }))]
    .sort((a, b) => a.height - b.height);
  const early = timeAnchors.filter((a) => a.height < first);
  const heightError = heightAtTimeError(early);
  if (early.length < 3) {
    throw new Error(`fewer than 3 blocks of known height and time before height ${first} (the fixture census's and ${txPoints.file}'s): ` +
      'the year-end heights cannot be estimated with a stated error');
  }
  const yearEnds = sources.year_end_tx_counts.points.map((y) => {
    const estimate = Math.round(heightAtTime(timeAnchors, Date.UTC(y.year + 1, 0, 1) / 1000));
    if (!Number.isFinite(estimate)) throw new Error(`the end of ${y.year} is outside the timed blocks (heights ${timeAnchors[0].height}..${timeAnchors.at(-1).height})`);
    // A coinbase per block, and the fixture blocks' other transactions: the year's count holds
    // them all. Lowering H can only leave fixture blocks out, so this settles in a few steps.
    let height = estimate;
    while (height + 1 + knownIn(known, 0, height).ncb > y.tx_count) height = y.tx_count - 1 - knownIn(known, 0, height).ncb;
    const held = knownIn(known, 0, height).ncb;
    return { height, tx_count: y.tx_count, height_error: Math.ceil(heightError.blocks),
      source: `${sources.year_end_tx_counts.source} End of ${y.year}: height ${estimate} from the timestamps` +
        (height < estimate ? `, ${height} at most (one coinbase per block${held ? `, and the ${held} non-coinbase transaction${held === 1 ? '' : 's'} ` +
          `of the fixture blocks at or below it` : ''})` : '') };
  }).filter((y) => y.height < first);
  const anchors = [{ height: 0, tx_count: 1, source: 'genesis' }, ...yearEnds,
    ...points.map((p) => ({ height: p.height, tx_count: p.tx_count, source: p.source }))];
  const interp = interpolationError(points);
  return { anchors, interp, heightError, timeAnchorCount: timeAnchors.length };
}

/**
 * The per-era figures: sourced where era-sources.json gives them, else from the census, each
 * widened by the era's `widen` entries.
 * @returns {object[]} eras: {name, from, to, ratios: {name: {value, low, high, label, method|source}}}
 * @throws {Error} naming the era and figure that neither source nor census gives
 */
export function eraRatios(sources, census) {
  return sources.eras.map((era) => {
    const excluded = new Set((era.exclude ?? []).map((x) => x.height));
    const inEra = (b) => b.height >= era.from && b.height < era.to && !excluded.has(b.height);
    const blocks = census.blocks.filter(inEra);
    const withOnly = [...blocks, ...census.blocks_only.filter(inEra)];
    const ratios = {};
    for (const [name, spec] of Object.entries(RATIOS)) {
      const sourced = era.sourced?.[name] ?? (name === 'inputs_per_ncb_tx' ? era.sourced?.inputs_per_tx : undefined);
      let r;
      if (sourced) {
        r = { ...sourced, per: name === 'inputs_per_ncb_tx' && !era.sourced?.[name] ? 'txs' : spec.per };
      } else {
        r = censusRatio(name, spec, BLOCKS_ONLY_RATIOS.has(name) ? withOnly : blocks);
        if (!r) throw new Error(`era ${era.name}: no source and no fixture block with ${spec.min}+ ${spec.per} for ${name}`);
        r.per = spec.per;
      }
      const w = era.widen?.[name];
      if (w) {
        r = { ...r, low: Math.min(r.low, w.low ?? r.low), high: Math.min(Math.max(r.high, w.high ?? r.high), spec.max ?? Infinity),
          widened: `${w.label}: ${w.source}` };
      }
      ratios[name] = r;
    }
    return { name: era.name, from: era.from, to: era.to, ratios };
  });
}

/** The blocks whose transaction and input counts the census knows (its blocks and
 *  blocks_only), height order: {height, txs, inputs} (inputs: non-coinbase). C(h)'s floors and
 *  a span's own inputs (bench/core/workload-model.mjs cumulativeTx, workloadFor). */
function knownBlocks(census) {
  return [...census.blocks, ...census.blocks_only].map((b) => ({ height: b.height, txs: b.txs, inputs: b.inputs }))
    .sort((a, b) => a.height - b.height);
}

/**
 * The model behind the table: the anchors of C(h), its error estimates, the per-era ratios and
 * the blocks of known transaction counts (known_blocks: C's floors).
 * @param {{txPoints: object, sources: object, census: object}} inputs readTxCountPoints, the
 *   parsed era-sources.json and fixture census
 */
export function buildWorkloadModel({ txPoints, sources, census }) {
  const timed = census.blocks.map((b) => ({ height: b.height, time: b.time }));
  const known = knownBlocks(census);
  const { anchors, interp, heightError, timeAnchorCount } = txAnchors(txPoints, sources, timed, known);
  const eras = eraRatios(sources, census);
  for (let k = 1; k < eras.length; k++) {
    if (eras[k].from !== eras[k - 1].to) throw new Error(`eras ${eras[k - 1].name} and ${eras[k].name} do not meet`);
  }
  const tip = txPoints.points[txPoints.points.length - 1].height;
  if (eras[0].from !== 0 || eras[eras.length - 1].to !== tip + 1) {
    throw new Error(`the eras of ${ERA_SOURCES_PATH} cover heights ${eras[0].from}..${eras[eras.length - 1].to - 1}, the counts of ` +
      `${txPoints.file} 0..${tip}: they must end at the same height`);
  }
  return { anchors, interp, heightError, timeAnchorCount, eras, tip, known_blocks: known, skipped: txPoints.skipped, sources };
}

/**
 * The table: one row per part of an era between consecutive boundaries (every 50,000 blocks,
 * the eras' edges, and the height after each sourced count, so that a row ends on it), and the
 * totals of the whole chain.
 * @returns {{rows: object[], totals: object, eras: object[], anchors: object[], interp: {ratio, at},
 *   known_blocks: Array<{height, txs, inputs}>, tip: number, notes: string[]}} eras, anchors, interp,
 *   known_blocks and tip are the model's: workloadFor (bench/core/workload-model.mjs) takes the
 *   saved table as its model
 */
export function buildTable(model) {
  const cuts = new Set([0, model.tip + 1]);
  for (const e of model.eras) cuts.add(e.from);
  for (const a of model.anchors) if (a.height > 0 && a.height < model.tip) cuts.add(a.height + 1);
  // Every 50,000 blocks, unless another edge lies within 1,000 blocks of it (no one-block rows).
  const near = (h) => [...cuts].some((c) => Math.abs(c - h) <= 1000);
  for (let h = 50000; h <= model.tip; h += 50000) if (!near(h)) cuts.add(h);
  const edges = [...cuts].sort((a, b) => a - b);
  const rows = [];
  for (let k = 1; k < edges.length; k++) {
    const w = workloadFor(model, edges[k - 1], edges[k] - 1);
    const era = model.eras.find((e) => w.from >= e.from && w.from < e.to);
    rows.push({ from: w.from, to: w.to, era: era.name, blocks: w.blocks, ...w.figures });
  }
  const whole = workloadFor(model, 0, model.tip);
  return {
    rows,
    totals: { from: 0, to: model.tip, blocks: whole.blocks, ...whole.figures },
    eras: model.eras,
    anchors: model.anchors,
    interp: model.interp,
    known_blocks: model.known_blocks,
    tip: model.tip,
    notes: [
      `C(h), transactions in blocks 0..h: linear between the anchors; low-high widened by ${(model.interp.ratio * 100).toFixed(1)}% of a gap's increase at mid-gap (the worst leave-one-out miss among Core's figures, at height ${model.interp.at})`,
      `year-end heights estimated from block timestamps (${model.timeAnchorCount} blocks of known height and time), +-${Math.ceil(model.heightError.blocks)} blocks (the worst leave-one-out miss, at height ${model.heightError.at})`,
      ...model.skipped.map((s) => `tx_count_points.csv line ${s.row} (${s.block_hash}): ${s.reason}`),
      ...model.sources.eras.flatMap((e) => (e.exclude ?? []).map((x) => `fixture block ${x.height} left out of ${e.name}: ${x.reason}`)),
      'transactions of a span: C\'s difference, its range the tighter of C\'s ranges at the two ends and the gaps\' mean rates +-2x the interpolation error (bench/core/workload-model.mjs txCount); a total\'s range adds its eras\' ranges (every era at its low, or every one at its high)',
    ],
  };
}

/** Reads the sourced data and the saved census, and builds the model. */
export function loadWorkloadModel({ workloadDir, census } = {}) {
  const sources = JSON.parse(readFileSync(ERA_SOURCES_PATH, 'utf8'));
  return buildWorkloadModel({ txPoints: readTxCountPoints(workloadDir), sources, census });
}

/**
 * The saved workload table (workload-table.json), which serves as the model of
 * bench/core/workload-model.mjs.
 * @throws {Error} naming the file when it cannot be read
 */
export function readWorkloadTable(file = TABLE_PATH) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read the workload table ${file}: ${err.message} (npm run project -- --census writes it)`, { cause: err });
  }
}
