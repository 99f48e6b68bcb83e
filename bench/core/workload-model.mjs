// The workload model's arithmetic, host-neutral (the CLI, `npm run project` and the page share it;
// no node: module): the chain's transaction count C(h) between its anchors, a span's
// transactions, and a span's workload from the per-era ratios. The model's data (anchors,
// interpolation error, eras with their ratios) is built in Node by bench/workload/table.mjs and
// saved in bench/workload/workload-table.json; its sources and methods: docs/workload.md.
// Every figure is {value, low, high}: transactions, inputs and checks are counts; sighash and
// block figures bytes.

/** The input script types the engine tells apart (native/script/script_type.h
 *  InputScriptTypeName), as the cost model prices script evaluation; `key` names their figures
 *  (inputs_<key>) and share ratios (<key>_inputs_share). */
export const INPUT_TYPES = Object.freeze(['p2pk', 'p2pkh', 'multisig', 'p2sh', 'p2sh-multisig', 'p2sh-p2wpkh', 'p2sh-p2wsh',
  'p2wpkh', 'p2wsh', 'p2tr-keypath', 'p2tr-scriptpath', 'witness-unknown', 'nonstandard', 'empty']
  .map((type) => Object.freeze({ type, key: type.replace(/-/g, '_') })));

/** The figures of a row or a total: name -> the RATIOS figure it comes from (null: a count of
 *  the chain data). */
export const FIGURES = Object.freeze({
  transactions: null,
  inputs: 'inputs_per_ncb_tx',
  checks_ecdsa_single: 'ecdsa_single_per_input',
  checks_ecdsa_multisig: 'ecdsa_multisig_per_input',
  checks_schnorr_keypath: 'schnorr_keypath_per_input',
  checks_schnorr_scriptpath: 'schnorr_scriptpath_per_input',
  sighash_bytes_legacy: 'legacy_sighash_bytes_per_input',
  sighash_hashed_legacy: 'legacy_sighash_hashed_per_input',
  sighash_bytes_bip143: 'bip143_sighash_bytes_per_input',
  sighash_bytes_bip341: 'bip341_sighash_bytes_per_input',
  sighashes_legacy: 'legacy_sighashes_per_input',
  sighashes_bip143: 'bip143_sighashes_per_input',
  sighashes_bip341: 'bip341_sighashes_per_input',
  block_bytes: 'bytes_per_tx',
  ...Object.fromEntries(INPUT_TYPES.map(({ key }) => [`inputs_${key}`, `${key}_inputs_share`])),
});

const rangeOf = (value, low, high) => ({ value, low, high });

/** Linear interpolation of the count at `h` over anchors sorted by height: the count, where h
 *  lies in its gap (t in 0..1), the gap's increase and the counts at its ends. Clamped to the
 *  first and last anchors. */
function interpolate(anchors, h) {
  const k = anchors.findIndex((a) => a.height >= h);
  if (k === 0 || k === -1) {
    const a = anchors[k === 0 ? 0 : anchors.length - 1];
    return { c: a.tx_count, t: 0, gap: 0, lo: a.tx_count, hi: a.tx_count };
  }
  const a = anchors[k - 1];
  const b = anchors[k];
  const t = (h - a.height) / (b.height - a.height);
  return { c: a.tx_count + t * (b.tx_count - a.tx_count), t, gap: b.tx_count - a.tx_count, lo: a.tx_count, hi: b.tx_count };
}

/**
 * What the blocks of known counts at heights a..b (inclusive) hold: the fixture blocks the
 * census counted (the model's `known_blocks`).
 * @param {Array<{height: number, txs: number, inputs?: number}>} known any order; [] for none
 * @param {number} a first height
 * @param {number} b last height
 * @returns {{txs: number, ncb: number, inputs: number}} their transactions, non-coinbase
 *   transactions (txs - 1 each) and non-coinbase inputs (0 where a block gives none)
 */
export function knownIn(known, a, b) {
  const sum = { txs: 0, ncb: 0, inputs: 0 };
  for (const k of known) {
    if (k.height < a || k.height > b) continue;
    sum.txs += k.txs;
    sum.ncb += k.txs - 1;
    sum.inputs += k.inputs ?? 0;
  }
  return sum;
}

/**
 * C(h) with its range, from anchors (height, count), some with an uncertain height.
 *   value: linear interpolation between the anchors around h;
 *   low / high: the same with every uncertain anchor moved `height_error` blocks later / earlier
 *     (a later anchor lowers the count at h), widened by `ratio` x the gap's increase x
 *     2 min(t, 1 - t) (zero at an anchor, largest mid-gap), and kept within the counts at the
 *     ends of the gap;
 *   all three at least h + 1 (a coinbase per block) plus the non-coinbase transactions of the
 *   blocks of known counts at or below h (`known`: the fixture blocks).
 * Exact at an exact anchor.
 * @param {Array<{height: number, tx_count: number, height_error?: number}>} anchors sorted by
 *   height, counts increasing
 * @param {number} h a height within the anchors' span; -1 gives 0 (before genesis)
 * @param {number} ratio interpolationError's ratio
 * @param {Array<{height: number, txs: number}>} [known] blocks of known transaction counts
 *   (knownIn); default none
 * @returns {{value: number, low: number, high: number}} transactions
 * @throws {RangeError} for a height outside the anchors' span
 */
export function cumulativeTx(anchors, h, ratio, known = []) {
  if (h === -1) return { value: 0, low: 0, high: 0 };
  const last = anchors[anchors.length - 1];
  if (!(h >= anchors[0].height && h <= last.height)) {
    throw new RangeError(`height ${h} is outside the sourced counts (${anchors[0].height}..${last.height})`);
  }
  const shifted = (dir) => anchors.map((a) => ({ ...a, height: a.height + dir * (a.height_error ?? 0) }))
    .sort((x, y) => x.height - y.height);
  const mid = interpolate(anchors, h);
  const later = interpolate(shifted(1), h);
  const earlier = interpolate(shifted(-1), h);
  const widen = (x) => ratio * x.gap * 2 * Math.min(x.t, 1 - x.t);
  // Every block has its coinbase, and the fixture blocks their other transactions: C(h) >= h + 1
  // + those, whatever the interpolation says.
  const floor = h + 1 + knownIn(known, 0, h).ncb;
  return {
    value: Math.max(floor, mid.c),
    low: Math.max(floor, Math.min(mid.c, later.c - widen(later)), Math.min(mid.lo, later.lo)),
    high: Math.max(floor, Math.min(Math.max(mid.c, earlier.c + widen(earlier)), Math.max(mid.hi, earlier.hi))),
  };
}

/**
 * Transactions in blocks a..b (inclusive), with a range: the difference of C's values, bounded
 * twice, and the tighter bound kept:
 *   - by C's ranges at both ends (cumulativeTx): good for long spans;
 *   - by the rate inside each gap between anchors: the span's blocks in that gap x the gap's mean
 *     rate, the rate allowed to differ from the mean by 2 x `ratio` either way (the slope of
 *     cumulativeTx's widening), and an uncertain anchor's height moving the gap's length by its
 *     `height_error`: good for short spans, whose two ends' errors largely cancel.
 * At least one transaction per block (the coinbase), plus the non-coinbase transactions of the
 * blocks of known counts in the span.
 * @param {object[]} anchors as cumulativeTx
 * @param {number} a first height (>= 0)
 * @param {number} b last height (>= a)
 * @param {number} ratio interpolationError's ratio
 * @param {Array<{height: number, txs: number}>} [known] as cumulativeTx
 * @returns {{value: number, low: number, high: number}} transactions
 * @throws {RangeError} as cumulativeTx
 */
export function txCount(anchors, a, b, ratio, known = []) {
  const end = cumulativeTx(anchors, b, ratio, known);
  const start = cumulativeTx(anchors, a - 1, ratio, known);
  const blocks = b - a + 1;
  const floor = blocks + knownIn(known, a, b).ncb;
  const value = end.value - start.value;
  let low = end.low - start.high;
  let high = end.high - start.low;
  // The rate bound, gap by gap (the part of a..b in the gap of anchors k-1, k).
  let rateLow = 0;
  let rateHigh = 0;
  for (let k = 1; k < anchors.length; k++) {
    const g0 = anchors[k - 1];
    const g1 = anchors[k];
    const from = Math.max(a, g0.height + 1);
    const to = Math.min(b, g1.height);
    if (from > to) continue;
    const n = to - from + 1;
    const length = g1.height - g0.height;
    const slack = (g0.height_error ?? 0) + (g1.height_error ?? 0);
    const gap = g1.tx_count - g0.tx_count;
    rateLow += n * (gap / (length + slack)) * Math.max(0, 1 - 2 * ratio);
    rateHigh += length > slack ? n * (gap / (length - slack)) * (1 + 2 * ratio) : Infinity;
  }
  low = Math.max(low, rateLow, floor);
  high = Math.max(Math.min(high, rateHigh), floor);
  return { value: Math.max(value, floor), low: Math.min(low, Math.max(value, floor)), high: Math.max(high, value) };
}

/**
 * The workload of heights from..to (inclusive), era by era: transactions in each era's part
 * (txCount); non-coinbase transactions = transactions - blocks; inputs = the inputs of the
 * blocks of known counts in the part (the fixture blocks, knownIn) + the era's inputs ratio x
 * the part's other (non-coinbase) transactions; each other figure = its base (transactions or
 * inputs) x the era's ratio; low x low and high x high. Parts' ranges add (a conservative sum:
 * every part at its low, or every one at its high); the transactions' range is that of the
 * whole span (txCount).
 * @param {{anchors: object[], interp: {ratio: number}, eras: object[], known_blocks?: object[]}} model
 *   buildWorkloadModel's (known_blocks: the fixture blocks' transaction and input counts, knownIn)
 * @param {number} from first height (>= 0)
 * @param {number} to last height (<= the last sourced count's height)
 * @returns {{from, to, blocks: number, figures: {name: {value, low, high}}}}
 * @throws {RangeError} for a range outside the sourced counts or the eras
 */
export function workloadFor(model, from, to) {
  if (!(Number.isInteger(from) && Number.isInteger(to) && from >= 0 && to >= from)) {
    throw new RangeError(`height range ${from}..${to}: need integers 0 <= from <= to`);
  }
  const sum = Object.fromEntries(Object.keys(FIGURES).map((k) => [k, rangeOf(0, 0, 0)]));
  const known = model.known_blocks ?? [];
  let covered = from;
  for (const era of model.eras) {
    const a = Math.max(from, era.from);
    const b = Math.min(to, era.to - 1);
    if (a > b) continue;
    if (a !== covered) break;
    covered = b + 1;
    const blocks = b - a + 1;
    const txs = txCount(model.anchors, a, b, model.interp.ratio, known);
    const ncb = rangeOf(txs.value - blocks, txs.low - blocks, txs.high - blocks);
    const r = era.ratios;
    const times = (base, ratio) => rangeOf(base.value * ratio.value, base.low * ratio.low, base.high * ratio.high);
    // The fixture blocks count their own inputs; the ratio the rest. txCount's floor keeps the
    // part's transactions at least the fixture blocks' (every other block one coinbase).
    const seen = knownIn(known, a, b);
    const perTx = r.inputs_per_ncb_tx.per === 'txs';
    const others = perTx ? rangeOf(txs.value - seen.txs, txs.low - seen.txs, txs.high - seen.txs)
      : rangeOf(ncb.value - seen.ncb, ncb.low - seen.ncb, ncb.high - seen.ncb);
    const estimated = times(others, r.inputs_per_ncb_tx);
    const inputs = rangeOf(seen.inputs + estimated.value, seen.inputs + estimated.low, seen.inputs + estimated.high);
    const part = { transactions: txs, inputs };
    for (const [name, ratioName] of Object.entries(FIGURES)) {
      if (part[name]) continue;
      part[name] = times(r[ratioName].per === 'txs' ? txs : inputs, r[ratioName]);
    }
    for (const k of Object.keys(sum)) {
      sum[k].value += part[k].value;
      sum[k].low += part[k].low;
      sum[k].high += part[k].high;
    }
  }
  if (covered !== to + 1) throw new RangeError(`heights ${covered}..${to} are outside the eras of the workload table`);
  // The span's transactions in one piece: the same value, and a range that does not add the
  // eras' boundary errors (exact between two of Core's figures).
  sum.transactions = txCount(model.anchors, from, to, model.interp.ratio, known);
  return { from, to, blocks: to - from + 1, figures: sum };
}

/**
 * A {value, low, high} count in whole units, for output (the JSON documents, where an estimated
 * count of 2,437,229,728.89 checks claims a precision it does not have): each of the three
 * rounded to the nearest integer, which keeps low <= value <= high. The arithmetic keeps the
 * fractions (a span's figures are products of per-era ratios); round only what is shown.
 * @param {{value: number, low: number, high: number}} r a count (transactions, inputs, checks,
 *   sighashes) or bytes
 * @returns {{value: number, low: number, high: number}} a new object, integers
 */
export function roundRange(r) {
  return { value: Math.round(r.value), low: Math.round(r.low), high: Math.round(r.high) };
}

/** A workload's figures (workloadFor's `figures`: every one a count or bytes) with each range
 *  rounded (roundRange), for output. */
export function roundFigures(figures) {
  return Object.fromEntries(Object.entries(figures).map(([name, r]) => [name, roundRange(r)]));
}

/** The checks of a workload: its four kinds summed, {value, low, high}. */
export function totalChecks(w) {
  const kinds = ['checks_ecdsa_single', 'checks_ecdsa_multisig', 'checks_schnorr_keypath', 'checks_schnorr_scriptpath'];
  return rangeOf(...['value', 'low', 'high'].map((k) => kinds.reduce((n, f) => n + w.figures[f][k], 0)));
}
