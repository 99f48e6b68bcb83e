// The last `npm run bench -- --readme` run (bench/compare/results/latest.json,
// docs/performance.md), read for the contenders' projections: its ratios are
// bench/core/contenders.mjs benchRatios'.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../wasm/paths.mjs';
import { benchRatios } from '../core/contenders.mjs';

/** The saved run of `npm run bench -- --readme`. */
export const BENCH_RESULTS = path.join(REPO_ROOT, 'bench', 'compare', 'results', 'latest.json');

/**
 * The ratios of the saved bench run.
 * @throws {Error} naming the file when it cannot be read
 */
export function readBenchRatios(file = BENCH_RESULTS) {
  let doc;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read ${file} (npm run bench -- --readme writes it): ${err.message}`, { cause: err });
  }
  try {
    return benchRatios(doc);
  } catch (err) {
    throw new Error(`${file}: ${err.message}`, { cause: err });
  }
}
