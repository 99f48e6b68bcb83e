// The chain's transaction count by height, as the sourced data gives it: the cumulative counts of
// ../shared/chain-workload/tx_count_points.csv (Bitcoin Core's chainTxData, checkpoint and
// assumeutxo figures, each row naming its source), the year-end totals of input_mix.md §2 for the
// years before the first of them, and a cumulative count at any height between them with the
// range its interpolation leaves (cumulativeTx).
//
// Heights and counts: C(h) = transactions in blocks 0..h, coinbases included (Core's nChainTx),
// so C(0) = 1. The folder is ../shared/chain-workload beside the repository, or
// IBD_CHAIN_WORKLOAD, or the `dir` argument (the CLI's --workload).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { REPO_ROOT } from '../../wasm/paths.mjs';

/** The folder holding tx_count_points.csv: `override`, else IBD_CHAIN_WORKLOAD, else
 *  ../shared/chain-workload beside the repository. */
export function chainWorkloadDir(override) {
  return path.resolve(override ?? process.env.IBD_CHAIN_WORKLOAD ?? path.join(REPO_ROOT, '..', 'shared', 'chain-workload'));
}

/**
 * The rows of tx_count_points.csv that have a height, in height order.
 * @param {string} [dir] chainWorkloadDir's folder
 * @returns {{points: Array<{height: number, block_hash: string, time_utc: string, tx_count: number,
 *   source: string, note: string}>, skipped: Array<{row: number, block_hash: string, reason: string}>,
 *   file: string}} skipped: rows left out (row: 1-based line of the CSV), with why
 * @throws {Error} naming the file and line for a missing file, a missing column, a count or
 *   height that is not a non-negative integer, or counts that decrease with height
 */
export function readTxCountPoints(dir = chainWorkloadDir()) {
  const file = path.join(dir, 'tx_count_points.csv');
  if (!existsSync(file)) throw new Error(`${file} not found (set IBD_CHAIN_WORKLOAD or --workload to the chain-workload folder)`);
  let rows;
  try {
    rows = parse(readFileSync(file, 'utf8'), { columns: true, skip_empty_lines: true, trim: true, bom: true });
  } catch (err) {
    throw new Error(`${file}: ${err.message}`, { cause: err });
  }
  const points = [];
  const skipped = [];
  rows.forEach((r, i) => {
    const line = i + 2; // the header is line 1
    for (const col of ['height', 'block_hash', 'time_utc', 'tx_count', 'source', 'note']) {
      if (!(col in r)) throw new Error(`${file}: line ${line} has no column "${col}"`);
    }
    if (r.height === '') {
      skipped.push({ row: line, block_hash: r.block_hash, reason: 'no height in its source (only a time); not used' });
      return;
    }
    const height = Number(r.height);
    const txCount = Number(r.tx_count);
    if (!Number.isSafeInteger(height) || height < 0) throw new Error(`${file}: line ${line}: height "${r.height}" is not a non-negative integer`);
    if (!Number.isSafeInteger(txCount) || txCount < 1) throw new Error(`${file}: line ${line}: tx_count "${r.tx_count}" is not a positive integer`);
    points.push({ height, block_hash: r.block_hash, time_utc: r.time_utc, tx_count: txCount, source: r.source, note: r.note });
  });
  points.sort((a, b) => a.height - b.height);
  for (let k = 1; k < points.length; k++) {
    if (points[k].height === points[k - 1].height || points[k].tx_count <= points[k - 1].tx_count) {
      throw new Error(`${file}: the counts at heights ${points[k - 1].height} and ${points[k].height} do not increase with height`);
    }
  }
  return { points, skipped, file };
}

/**
 * Linear interpolation of the height at `time` (unix s) over anchors of known height and time.
 * @param {Array<{height: number, time: number}>} anchors sorted by height, times increasing
 * @returns {number} the height (not rounded); NaN outside the anchors' span
 */
export function heightAtTime(anchors, time) {
  for (let k = 1; k < anchors.length; k++) {
    const a = anchors[k - 1];
    const b = anchors[k];
    if (time >= a.time && time <= b.time) return a.height + ((time - a.time) / (b.time - a.time)) * (b.height - a.height);
  }
  return NaN;
}

/**
 * How far heightAtTime can be off: each interior anchor predicted from its two neighbours
 * (leave one out), the largest miss in blocks.
 * @param {Array<{height: number, time: number}>} anchors
 * @returns {{blocks: number, at: number|null}} the largest miss and the anchor height where it
 *   occurred (0 and null with fewer than three anchors)
 */
export function heightAtTimeError(anchors) {
  let worst = { blocks: 0, at: null };
  for (let k = 1; k + 1 < anchors.length; k++) {
    const predicted = heightAtTime([anchors[k - 1], anchors[k + 1]], anchors[k].time);
    const miss = Math.abs(predicted - anchors[k].height);
    if (miss > worst.blocks) worst = { blocks: miss, at: anchors[k].height };
  }
  return worst;
}

/**
 * How far a linear interpolation of C between exact points can be off, relative to the increase
 * across the gap: each interior point predicted from its two neighbours (leave one out).
 * @param {Array<{height: number, tx_count: number}>} points sorted by height
 * @returns {{ratio: number, at: number|null}} the largest |predicted - actual| / (C(next) - C(prev))
 */
export function interpolationError(points) {
  let worst = { ratio: 0, at: null };
  for (let k = 1; k + 1 < points.length; k++) {
    const a = points[k - 1];
    const b = points[k + 1];
    const t = (points[k].height - a.height) / (b.height - a.height);
    const predicted = a.tx_count + t * (b.tx_count - a.tx_count);
    const ratio = Math.abs(predicted - points[k].tx_count) / (b.tx_count - a.tx_count);
    if (ratio > worst.ratio) worst = { ratio, at: points[k].height };
  }
  return worst;
}

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
 * C(h) with its range, from anchors (height, count), some with an uncertain height.
 *   value: linear interpolation between the anchors around h;
 *   low / high: the same with every uncertain anchor moved `height_error` blocks later / earlier
 *     (a later anchor lowers the count at h), widened by `ratio` x the gap's increase x
 *     2 min(t, 1 - t) (zero at an anchor, largest mid-gap), and kept within the counts at the
 *     ends of the gap;
 *   all three at least h + 1 (a coinbase per block).
 * Exact at an exact anchor.
 * @param {Array<{height: number, tx_count: number, height_error?: number}>} anchors sorted by
 *   height, counts increasing
 * @param {number} h a height within the anchors' span; -1 gives 0 (before genesis)
 * @param {number} ratio interpolationError's ratio
 * @returns {{value: number, low: number, high: number}} transactions
 * @throws {RangeError} for a height outside the anchors' span
 */
export function cumulativeTx(anchors, h, ratio) {
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
  // Every block has its coinbase: C(h) >= h + 1, whatever the interpolation says.
  const floor = h + 1;
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
 * At least one transaction per block (the coinbase).
 * @param {object[]} anchors as cumulativeTx
 * @param {number} a first height (>= 0)
 * @param {number} b last height (>= a)
 * @param {number} ratio interpolationError's ratio
 * @returns {{value: number, low: number, high: number}} transactions
 * @throws {RangeError} as cumulativeTx
 */
export function txCount(anchors, a, b, ratio) {
  const end = cumulativeTx(anchors, b, ratio);
  const start = cumulativeTx(anchors, a - 1, ratio);
  const blocks = b - a + 1;
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
  low = Math.max(low, rateLow, blocks);
  high = Math.max(Math.min(high, rateHigh), blocks);
  return { value: Math.max(value, blocks), low: Math.min(low, Math.max(value, blocks)), high: Math.max(high, value) };
}
