// The chain's transaction count by height, as the sourced data gives it: the cumulative counts of
// ../shared/chain-workload/tx_count_points.csv (Bitcoin Core's chainTxData, checkpoint and
// assumeutxo figures, each row naming its source), and the leave-one-out error estimates the
// workload model's ranges rest on (the interpolation itself: bench/core/workload-model.mjs).
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
