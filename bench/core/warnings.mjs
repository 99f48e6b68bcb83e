// The result document's warnings (bench/core/run-core.mjs puts them in `warnings`; the terminal
// report prints each with "WARNING: ", the page shows them): workers replaced during the run,
// noisy timed rounds, a projection from a partial or small sample, and a projection whose two
// figures are out of order.
import { countOf, int } from './format.mjs';

/** A pass whose slowest timed round took more than this times its fastest gets a noise warning. */
const NOISY_RATIO = 1.25;

/** A projection sample with fewer checks than this gets a small-sample warning. */
const SMALL_SAMPLE_CHECKS = 1000;

/**
 * The report's warnings, as plain strings (the terminal prefixes each with "WARNING: "): timed
 * rounds too far apart (a pass, or a --scaling row, whose slowest timed round took over NOISY_RATIO times its
 * fastest), a projection from part of the fixture set (--heights), a projection from fewer than
 * SMALL_SAMPLE_CHECKS checks. The result document carries them as `warnings` (bench/core/run-core.mjs).
 * @param {object} doc result of runBench
 * @returns {string[]}
 */
export function warningsOf(doc) {
  return [replacementWarning(doc), noiseWarning(doc), ...sampleWarnings(doc), endToEndWarning(doc), projectionOrderWarning(doc)].filter(Boolean);
}

/** Workers that died during the run and were replaced (their batches re-run elsewhere, so no
 *  verdict is lost), or null: the timings then include the deaths, the re-runs and the new
 *  workers' start-up, so the rates and the projection are not this machine's, and npm start
 *  saves no measurement from such a run. */
export function replacementWarning(doc) {
  const n = doc.worker_replacements ?? 0;
  if (n === 0) return null;
  return `${countOf(n, 'worker')} died during the run and ${n === 1 ? 'was' : 'were'} replaced: no verdict was lost, but the ` +
    'timings include the re-run work and the new workers\' start-up, so the rates and the projection understate this machine ' +
    '(no measurement saved for npm run project)';
}

/** The projection's two figures out of order (the signatures alone projected to take longer than
 *  the whole validation, which includes them), or null. They come from passes timed at different
 *  moments (the signature passes, the end-to-end rounds), so only a machine whose speed changed
 *  between them gives this. */
export function projectionOrderWarning(doc) {
  const p = doc.projection ?? {};
  if (p.model) return null; // the cost model's projection is the report's; these two figures are not printed
  const whole = p.end_to_end?.hours;
  if (!(p.hours > 0) || !(whole > 0) || p.hours <= whole) return null;
  return `the projection's signatures alone (${p.hours.toFixed(1)} h) come out longer than the whole validation ` +
    `(${whole.toFixed(1)} h), which includes them: the signature passes and the end-to-end rounds ran at different ` +
    'moments and the machine\'s speed changed between them; neither figure is steady (rerun on an idle machine)';
}

/** The noisy-rounds warning, or null when every pass's timed rounds agree within NOISY_RATIO. */
export function noiseWarning(doc) {
  const t = doc.totals;
  const passes = [['combined', t], ['ecdsa', t.by_type.ecdsa], ['schnorr', t.by_type.schnorr],
    ...(doc.scaling ?? []).map((r) => [`scaling, ${countOf(r.workers, 'worker')}`, r]),
    ...(doc.end_to_end ? [['end to end', doc.end_to_end]] : [])];
  const noisy = passes
    .filter(([, p]) => (p.rounds_seconds?.length ?? 0) > 1)
    .map(([name, p]) => [name, Math.max(...p.rounds_seconds) / Math.min(...p.rounds_seconds)])
    .filter(([, ratio]) => ratio > NOISY_RATIO);
  if (!noisy.length) return null;
  return `noisy machine: timed-round times varied by up to ${noisy.map(([n, r]) => `${r.toFixed(2)}x (${n})`).join(', ')}; ` +
    `rates are less certain; rerun with ${Math.max(5, 2 * doc.rounds + 1)} timed rounds (--rounds ${Math.max(5, 2 * doc.rounds + 1)}; ` +
    'on the page, the Timed rounds box) or on an idle machine';
}

/** The timed end-to-end rounds' disagreement with the first (cold) pass, or null when they agree. */
export function endToEndWarning(doc) {
  const d = doc.end_to_end?.disagreements ?? [];
  if (!d.length) return null;
  return `the timed end-to-end rounds (whole blocks in the workers) disagree with the first pass on ` +
    `${countOf(d.length, 'block')}: ${d.slice(0, 5).map((x) => `${x.height} (${x.what})`).join(', ')}`;
}

/** The projection's sample warnings (none when there is no projection). */
export function sampleWarnings(doc) {
  const p = doc.projection ?? {};
  if (p.error || p.hours === null || p.hours === undefined) return [];
  const sample = p.sample ?? {};
  const out = [];
  if (sample.partial) {
    out.push(`partial sample: ${int(sample.blocks)} of ${countOf(sample.fixture_blocks, 'fixture block')}; ` +
      'checks/tx and the ECDSA/Schnorr mix come from these alone (run every fixture block for the full sample)');
  }
  if (sample.checks < SMALL_SAMPLE_CHECKS) {
    out.push(`projection from a small sample (${countOf(sample.checks, 'check')}): its checks/tx, ECDSA/Schnorr mix ` +
      `and rates are rough; ${int(SMALL_SAMPLE_CHECKS)} checks or more give a steadier figure`);
  }
  return out;
}
