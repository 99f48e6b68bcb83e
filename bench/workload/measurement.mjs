// The last saved measurement of the cost model's inputs: the main job's document (every block's
// workload and warm stage times, the verify passes' rates, the end-to-end pass and its scaling),
// kept per wasm variant in build/project/measurement-<variant>.json. `npm start` saves it after
// each run; `npm run project` projects from it without measuring again (--measure measures).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BUILD_DIR } from '../../wasm/paths.mjs';

/** Where the measurements are kept: IBD_MEASUREMENT_DIR, else build/project (`npm test` points
 *  it at a temporary folder, so that its runs of the main job leave the user's alone). */
export const MEASUREMENT_DIR = process.env.IBD_MEASUREMENT_DIR ?? path.join(BUILD_DIR, 'project');

/** The file of `variant`'s last measurement. */
export const measurementPath = (variant) => path.join(MEASUREMENT_DIR, `measurement-${variant}.json`);

/**
 * Saves a main-job document as `variant`'s last measurement, with when it was taken.
 * @param {object} doc runBench's document (bench/cli/run.mjs)
 * @returns {string} the file written
 */
export function saveMeasurement(doc) {
  mkdirSync(MEASUREMENT_DIR, { recursive: true });
  const file = measurementPath(doc.variant);
  writeFileSync(file, `${JSON.stringify({ saved_at: new Date().toISOString(), ...doc })}\n`);
  return file;
}

/**
 * The last saved measurement of `variant`, or the document in `file`.
 * @returns {object} the document, with saved_at when saved here
 * @throws {Error} naming the file and how to make it when there is none or it is no main-job
 *   document (no blocks, end_to_end or totals)
 */
export function readMeasurement(variant, file = measurementPath(variant)) {
  let doc;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`no saved measurement for variant ${variant} (${file}: ${err.code ?? err.message}): ` +
      `run npm start -- --variant ${variant}, or npm run project -- --measure --variant ${variant}`, { cause: err });
  }
  if (!Array.isArray(doc?.blocks) || !doc.end_to_end || !doc.totals) {
    throw new Error(`${file} is not a main-job document (npm start -- --json): no blocks, end_to_end or totals`);
  }
  return doc;
}
