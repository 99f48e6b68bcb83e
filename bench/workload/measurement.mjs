// The last saved measurement of the cost model's inputs: the main job's document (every block's
// workload and warm stage times, the verify passes' rates, the end-to-end pass and its scaling),
// kept per wasm variant in build/project/measurement-<variant>.json. `npm start` saves it after
// each run; `npm run project` projects from it without measuring again (--measure measures).
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BUILD_DIR } from '../../wasm/paths.mjs';
import { ECDSA_KEY_CLASSES } from '../core/cost-model.mjs';
import { INPUT_TYPES } from '../core/workload-model.mjs';
import { ALL_VARIANTS, WIDE_VARIANT, wideArithmeticSupported } from '../../wasm/variants.mjs';

/** Where the measurements are kept: IBD_MEASUREMENT_DIR, else build/project (`npm test` points
 *  it at a temporary folder, so that its runs of the main job leave the user's alone). */
export const MEASUREMENT_DIR = process.env.IBD_MEASUREMENT_DIR ?? path.join(BUILD_DIR, 'project');

/** The file of `variant`'s last measurement. */
export const measurementPath = (variant) => path.join(MEASUREMENT_DIR, `measurement-${variant}.json`);

/** Where `variant`'s last untrusted measurement goes while a trusted one stands (saveMeasurement). */
export const untrustedMeasurementPath = (variant) => path.join(MEASUREMENT_DIR, `measurement-${variant}-untrusted.json`);

/**
 * Saves a main-job document as `variant`'s last measurement, with when it was taken: written to
 * a temporary file then renamed over the old one, so that a failed or interrupted write leaves
 * the previous measurement whole. A measurement whose model check did not hold
 * (`projection.model.trusted` false) does not replace one whose check held: it goes to
 * untrustedMeasurementPath instead, and `npm run project` keeps projecting from the trusted one
 * (`--measurement FILE` reads the other).
 * @param {object} doc runBench's document (bench/cli/run.mjs)
 * @returns {{file: string, keptTrusted: boolean}} the file written, and whether a trusted
 *   measurement was kept in its place
 * @throws {Error} from the file system (the old measurement then stands)
 */
export function saveMeasurement(doc) {
  if (MEASUREMENT_DIR === '') throw new Error('IBD_MEASUREMENT_DIR is set but empty');
  mkdirSync(MEASUREMENT_DIR, { recursive: true });
  let keptTrusted = false;
  if (doc.projection?.model?.trusted === false) {
    try {
      keptTrusted = JSON.parse(readFileSync(measurementPath(doc.variant), 'utf8'))?.projection?.model?.trusted === true;
    } catch {
      keptTrusted = false; // none, or unreadable: nothing worth keeping
    }
  }
  const file = keptTrusted ? untrustedMeasurementPath(doc.variant) : measurementPath(doc.variant);
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, `${JSON.stringify({ saved_at: new Date().toISOString(), ...doc })}\n`);
  renameSync(partial, file);
  return { file, keptTrusted };
}

/** Whether `x` is a finite number >= min. */
const num = (x, min = 0) => typeof x === 'number' && Number.isFinite(x) && x >= min;

/** Whether `x` is a count: an integer from 0 to 2^53 - 1. */
const count = (x) => Number.isSafeInteger(x) && x >= 0;

/** The input script types the engine names (script_type.h), the only keys of a by-type object. */
const TYPE_NAMES = new Set(INPUT_TYPES.map((t) => t.type));

/** A block's serialized size cannot pass 4,000,000 bytes (BIP141: weight <= 4,000,000, each
 *  byte weighing at least 1). */
const MAX_BLOCK_BYTES = 4_000_000;
/** Slack, in ms, of the check that a block's stages add up to its engine time (a factor of 2
 *  either way, give or take this). */
const STAGES_SLACK_MS = 10;

/** Engine time below this share of the pool's wall time x workers is no measurement of it: the
 *  workers would have been idle 99% of the run. */
const MIN_EFFICIENCY = 0.01;

/** Why a by-type object (`what` at `where`) is not {engine type name: count}, or null. */
function byTypeProblem(obj, where, what, isValue = count) {
  if (!obj || typeof obj !== 'object' || Array.isArray(obj)) return `${where}.${what} is ${JSON.stringify(obj)}; need {type: number}`;
  for (const [k, v] of Object.entries(obj)) {
    if (!TYPE_NAMES.has(k)) return `${where}.${what} names ${JSON.stringify(k)}, not an input script type (${[...TYPE_NAMES].join(', ')})`;
    if (!isValue(v)) return `${where}.${what}[${JSON.stringify(k)}] is ${JSON.stringify(v)}; need ${isValue === count ? 'an integer >= 0' : 'a number >= 0 (ms)'}`;
  }
  return null;
}

/**
 * Why `doc` cannot serve as a measurement, or null: every number the cost model reads checked,
 * each problem named by its field (blocks[k] by its height where it has one).
 * @param {object} doc a main-job document
 * @returns {string|null}
 */
export function measurementProblem(doc) {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return 'not a JSON object';
  if (!Array.isArray(doc.blocks)) return 'no blocks array';
  if (!ALL_VARIANTS.includes(doc.variant)) return `variant is ${JSON.stringify(doc.variant)}; need ${ALL_VARIANTS.join(', ')}`;
  if (!Number.isInteger(doc.workers) || doc.workers < 1 || doc.workers > 256) return `workers is ${JSON.stringify(doc.workers)}; need an integer from 1 to 256`;
  const e = doc.end_to_end;
  if (!e || typeof e !== 'object') return 'no end_to_end object';
  if (e.workers !== doc.workers) return `end_to_end.workers is ${JSON.stringify(e.workers)}; need the run's workers (${doc.workers})`;
  if (!num(e.seconds) || e.seconds === 0) return `end_to_end.seconds is ${JSON.stringify(e.seconds)}; need a positive number`;
  for (const k of ['parse_s', 'sighash_s', 'script_s', 'verify_s']) {
    if (!num(e.stages?.[k])) return `end_to_end.stages.${k} is ${JSON.stringify(e.stages?.[k])}; need a number >= 0`;
  }
  const engine = e.stages.parse_s + e.stages.sighash_s + e.stages.script_s + e.stages.verify_s;
  if (!(engine >= MIN_EFFICIENCY * e.seconds * e.workers)) {
    return `end_to_end.stages add up to ${engine} s of engine time in ${e.seconds} s on ${e.workers} workers; need at least ` +
      `${MIN_EFFICIENCY * 100}% of the wall time x workers (the pool's efficiency comes from them)`;
  }
  if (e.scaling !== undefined && e.scaling !== null && !Array.isArray(e.scaling)) return `end_to_end.scaling is ${JSON.stringify(e.scaling)}; need an array`;
  for (const [k, c] of (e.scaling ?? []).entries()) {
    if (!Number.isInteger(c?.workers) || c.workers < 1 || !num(c.efficiency) || c.efficiency === 0) {
      return `end_to_end.scaling[${k}] is ${JSON.stringify(c)}; need {workers >= 1, efficiency > 0}`;
    }
  }
  for (const t of ['ecdsa', 'schnorr', 'ecdsa_one_per_key', 'schnorr_one_per_key']) {
    const r = doc.totals?.by_type?.[t]?.checks_per_second;
    if (r !== null && r !== undefined && (!num(r) || r === 0)) return `totals.by_type.${t}.checks_per_second is ${JSON.stringify(r)}; need a positive number`;
  }
  const seen = new Set();
  for (const [k, b] of doc.blocks.entries()) {
    const where = `blocks[${k}]${Number.isInteger(b?.height) ? ` (height ${b.height})` : ''}`;
    if (!b || typeof b !== 'object') return `${where} is ${JSON.stringify(b)}`;
    if (b.error || !b.workload) continue; // a failed or rejected block: not measured, not used
    if (!Number.isInteger(b.height) || b.height < 0) return `${where}.height is ${JSON.stringify(b.height)}; need an integer >= 0`;
    if (seen.has(b.height)) return `block height ${b.height} appears twice (each block must be left out of its own check)`;
    seen.add(b.height);
    for (const k2 of ['parse', 'sighash', 'script', 'verify']) {
      if (!num(b.stages_ms?.[k2])) return `${where}.stages_ms.${k2} is ${JSON.stringify(b.stages_ms?.[k2])}; need a number >= 0 (ms)`;
    }
    const parts = b.parts_ms;
    if (!parts || typeof parts !== 'object') {
      return `${where}.parts_ms is ${JSON.stringify(parts)}; need the sighash time by kind and the script time by input type ` +
        '(a measurement older than them: npm run project -- --measure measures again)';
    }
    for (const k2 of ['legacy', 'bip143', 'bip341']) {
      if (!num(parts.sighash?.[k2])) return `${where}.parts_ms.sighash.${k2} is ${JSON.stringify(parts.sighash?.[k2])}; need a number >= 0 (ms)`;
    }
    const scriptProblem = byTypeProblem(parts.script, where, 'parts_ms.script', (v) => num(v));
    if (scriptProblem) return scriptProblem;
    const w0 = b.workload;
    for (const what of ['inputs_by_type', 'checks_by_type', 'script_bytes_by_type']) {
      const problem = byTypeProblem(w0[what], where, `workload.${what}`);
      if (problem) return problem;
    }
    const m = b.engine_ms;
    if (!num(m?.median) || m.median === 0 || !num(m.min) || !num(m.max) || !(m.min <= m.median && m.median <= m.max) || !Number.isInteger(m.rounds)) {
      return `${where}.engine_ms is ${JSON.stringify(m)}; need 0 <= min <= median <= max (ms, median > 0) and integer rounds`;
    }
    // The rounds that set the range (a measurement older than them has none: min and max do).
    if ((m.range_min !== undefined || m.range_max !== undefined) && !(num(m.range_min) && num(m.range_max) &&
      m.min <= m.range_min && m.range_min <= m.median && m.median <= m.range_max && m.range_max <= m.max)) {
      return `${where}.engine_ms is ${JSON.stringify(m)}; need min <= range_min <= median <= range_max <= max (ms)`;
    }
    // The engine's whole call and the sum of its stages' medians differ by the rounds' noise and
    // what lies outside the stages, never by a factor of 2 beyond STAGES_SLACK_MS: on a small
    // block a few ms outside the stages (a preemption, a collection) can exceed the factor on a
    // loaded machine (seen: block 120,460's stages 1.76 ms, its call 5.26 ms, in a CI run beside
    // a build), and such a measurement is honest, not damaged.
    const stages = b.stages_ms.parse + b.stages_ms.sighash + b.stages_ms.script + b.stages_ms.verify;
    if (!(stages >= m.median / 2 - STAGES_SLACK_MS && stages <= m.median * 2 + STAGES_SLACK_MS)) {
      return `${where}: stages_ms add up to ${stages} ms, engine_ms.median is ${m.median} ms; they must agree within a factor of 2 ` +
        `(give or take ${STAGES_SLACK_MS} ms)`;
    }
    const w = b.workload;
    const counts = { bytes: w.bytes, txs: w.txs, inputs: w.inputs, legacy_sighash_hashed: w.legacy_sighash_hashed,
      ...Object.fromEntries(['ecdsa_single', 'ecdsa_multisig', 'schnorr_keypath', 'schnorr_scriptpath'].map((c) => [`checks.${c}`, w.checks?.[c]])),
      ...Object.fromEntries(['legacy', 'bip143', 'bip341'].map((c) => [`sighash_bytes.${c}`, w.sighash_bytes?.[c]])),
      ...Object.fromEntries(['legacy', 'bip143', 'bip341'].map((c) => [`sighashes.${c}`, w.sighashes?.[c]])) };
    for (const [k2, v] of Object.entries(counts)) {
      if (!count(v)) return `${where}.workload.${k2} is ${JSON.stringify(v)}; need an integer from 0 to 2^53-1`;
    }
    if (w.bytes > MAX_BLOCK_BYTES || w.txs > w.bytes || w.inputs > w.bytes) {
      return `${where}.workload: ${w.bytes} bytes, ${w.txs} transactions, ${w.inputs} inputs; a block holds at most ${MAX_BLOCK_BYTES.toLocaleString('en-US')} ` +
        'bytes and fewer transactions and inputs than bytes';
    }
    if (w.checks.ecdsa_single > w.inputs || w.checks.schnorr_keypath > w.inputs) {
      return `${where}.workload.checks: ${w.checks.ecdsa_single} single ECDSA and ${w.checks.schnorr_keypath} key-path checks for ${w.inputs} inputs; each is at most one per input`;
    }
    const sum = (o) => Object.values(o).reduce((n, v) => n + v, 0);
    if (sum(w.inputs_by_type) !== w.inputs) return `${where}.workload.inputs_by_type adds up to ${sum(w.inputs_by_type)}, not the block's ${w.inputs} inputs`;
    const checks = w.checks.ecdsa_single + w.checks.ecdsa_multisig + w.checks.schnorr_keypath + w.checks.schnorr_scriptpath;
    if (sum(w.checks_by_type) !== checks) return `${where}.workload.checks_by_type adds up to ${sum(w.checks_by_type)}, not the block's ${checks} checks`;
    // The ECDSA checks by key (a measurement older than them has none: one cost per check).
    if (w.ecdsa_keys !== undefined) {
      const keys = w.ecdsa_keys;
      if (!keys || typeof keys !== 'object' || Array.isArray(keys)) return `${where}.workload.ecdsa_keys is ${JSON.stringify(keys)}; need {first_compressed, first_other, repeat}`;
      for (const k2 of ECDSA_KEY_CLASSES) {
        if (!count(keys[k2])) return `${where}.workload.ecdsa_keys.${k2} is ${JSON.stringify(keys[k2])}; need an integer from 0 to 2^53-1`;
      }
      const ecdsa = w.checks.ecdsa_single + w.checks.ecdsa_multisig;
      const classes = ECDSA_KEY_CLASSES.reduce((n, k2) => n + keys[k2], 0);
      if (classes !== ecdsa) return `${where}.workload.ecdsa_keys adds up to ${classes}, not the block's ${ecdsa} ECDSA checks`;
    }
  }
  return null;
}

/**
 * The last saved measurement of `variant`, or the document in `file`.
 * @param {string} variant the variant asked for
 * @param {string} [file] an explicit file (--measurement)
 * @param {{explicitVariant?: boolean}} [options] the caller named the variant: a document of
 *   another variant is then refused
 * @returns {object} the document, with saved_at when saved here
 * @throws {Error} with `missing` true when there is no file (how to make one said), else naming
 *   the file and what is wrong: invalid JSON (with its position), a field the cost model cannot
 *   use (measurementProblem), another variant than asked
 */
export function readMeasurement(variant, file, { explicitVariant = false } = {}) {
  if (file !== undefined && !existsSync(file)) throw new Error(`${file} does not exist (--measurement names a measurement file: one npm start saved, or a main job's --json document)`);
  file ??= measurementPath(variant);
  if (!existsSync(file)) {
    // A build this Node cannot run is measured elsewhere: the page, in a browser that runs it.
    const how = variant === WIDE_VARIANT && !wideArithmeticSupported()
      ? `this Node (${process.version}) cannot run the ${variant} build (it lacks wasm wide arithmetic), so npm start saves none; ` +
        'the page run with that build in a browser that has it gives one (Download JSON), for --measurement FILE'
      : `run npm start -- --variant ${variant}, or npm run project -- --measure --variant ${variant}`;
    const err = new Error(`no saved measurement for variant ${variant} (${file} does not exist): ${how}`);
    err.missing = true;
    throw err;
  }
  let doc;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`the measurement ${file} cannot be read: ${err.code ?? err.message} (npm start or npm run project -- --measure writes a new one)`, { cause: err });
  }
  const problem = measurementProblem(doc);
  if (problem) throw new Error(`${file} is no usable measurement (a main job's --json document): ${problem}`);
  if (explicitVariant && doc.variant !== variant) throw new Error(`${file} measured variant ${doc.variant}, not ${variant} (--variant)`);
  return doc;
}
