// The cost model: what each unit of work costs one worker on this machine, measured by the
// workers' own stage timers on real blocks, and what a block or a span of the chain then costs.
//
//   parse   = per_call x engine calls + per_byte x block bytes + per_extra_call_byte x block bytes
//             x (calls - 1) + per_tx x transactions + per_input x inputs (parse, txids, block
//             rules, the spent outputs' decoding; a block split into ranges takes a call per
//             range, each skimming the rest of the block)
//   sighash = per_legacy_byte x the bytes the engine hashes for legacy sighashes
//             + per_segwit_byte x BIP143 and BIP341 message and precomputation bytes
//   script  = per_input x inputs + per_check x signature checks (evaluation less sighash, verify)
//   verify  = per_ecdsa x ECDSA checks + per_schnorr x Schnorr checks
//
// Each stage's costs are fitted to that stage's measured time over a set of blocks (least squares
// on relative error, every cost non-negative: fitStage), never to a block they are then checked
// on: predictBlocks leaves each block out of its own fit. Times in ms, per one worker.
// Host-neutral (no node: module): the CLI, `npm run project` and the page share it.

const schnorrOf = (w) => w.checks.schnorr_keypath + w.checks.schnorr_scriptpath;
const ecdsaOf = (w) => w.checks.ecdsa_single + w.checks.ecdsa_multisig;
const checksOf = (w) => ecdsaOf(w) + schnorrOf(w);

/** The stage names. */
export const STAGE_NAMES = Object.freeze(['parse', 'sighash', 'script', 'verify']);

/**
 * The stages, each with the features of a block workload (block-workload.mjs) its costs
 * multiply; `per_call` is the constant of one engine call (a block, or one range of a split
 * block; a span's workload gives its calls in `calls` and the bytes its extra calls skim, the
 * sum of bytes x (calls - 1) over its blocks, in `extra_call_bytes`).
 * Verify has one fitted cost, per ECDSA check; a Schnorr check counts as `schnorrPerEcdsa` ECDSA
 * checks, the ratio of the two verify rates the run measured on every fixture check (its verify
 * passes), since too few blocks hold Schnorr checks to fit their own cost on.
 * @param {number} schnorrPerEcdsa a Schnorr check's verify cost in ECDSA checks
 * @returns {object} stage -> [[cost name, workload -> units]]
 */
export function stagesOf(schnorrPerEcdsa) {
  return {
    parse: [['per_call', (w) => w.calls ?? 1], ['per_byte', (w) => w.bytes],
      ['per_extra_call_byte', (w) => w.extra_call_bytes ?? w.bytes * ((w.calls ?? 1) - 1)],
      ['per_tx', (w) => w.txs], ['per_input', (w) => w.inputs]],
    sighash: [['per_legacy_byte', (w) => w.legacy_sighash_hashed],
      ['per_segwit_byte', (w) => w.sighash_bytes.bip143 + w.sighash_bytes.bip341]],
    script: [['per_input', (w) => w.inputs], ['per_check', (w) => checksOf(w)]],
    verify: [['per_ecdsa', (w) => ecdsaOf(w) + schnorrPerEcdsa * schnorrOf(w)]],
  };
}

/** Solves the normal equations A x = b (small, dense) by Gaussian elimination with partial
 *  pivoting; null when singular. */
function solve(A, b) {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
    if (Math.abs(M[p][c]) < 1e-300) return null;
    [M[c], M[p]] = [M[p], M[c]];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = M[r][c] / M[c][c];
      for (let k = c; k <= n; k++) M[r][k] -= f * M[c][k];
    }
  }
  return M.map((row, i) => row[n] / row[i]);
}

/**
 * Non-negative least squares on relative error: the costs x >= 0 minimizing
 * sum over samples of ((sum_j x_j f_j - t) / t)^2, by trying every subset of features (at most
 * three per stage) with ordinary least squares and keeping the best non-negative solution.
 * @param {Array<{features: number[], ms: number}>} samples; those with ms 0 (a stage that took
 *   no measurable time) are left out, and with none left every cost is 0
 * @returns {number[]} one cost per feature (0 for a feature left out), ms per unit
 * @throws {RangeError} when there is no sample
 */
export function fitStage(samples) {
  if (samples.length === 0) throw new RangeError('no block to fit the stage on');
  const m = samples[0].features.length;
  const sums = addUp(samples.map((x) => normalTerms(x, m)), m);
  return bestFit(sums, m);
}

/**
 * fitStage's costs with each sample left out in turn, from one pass over the samples: the
 * normal equations' sums less the left-out sample's own terms (linear time, where fitting the
 * others again for each would be quadratic: a chain range brings thousands of blocks).
 * @param {Array<{features: number[], ms: number}>} samples as fitStage
 * @returns {number[][]} per sample, the costs fitted on all the others
 * @throws {RangeError} with fewer than two samples
 */
export function fitStageLeaveOneOut(samples) {
  if (samples.length < 2) throw new RangeError('leaving a block out needs at least two blocks');
  const m = samples[0].features.length;
  const terms = samples.map((x) => normalTerms(x, m));
  const all = addUp(terms, m);
  return terms.map((t) => bestFit({
    A: all.A.map((row, r) => row.map((v, c) => v - t.A[r][c])), b: all.b.map((v, r) => v - t.b[r]), c: all.c - t.c, n: all.n - t.n,
  }, m));
}

/** One sample's terms of the weighted normal equations (weight 1 / ms^2: relative error): A =
 *  w f f^T, b = w f ms, c = w ms^2 (1), n = 1; all zero for a sample that took no time. */
function normalTerms({ features, ms }, m) {
  if (!(ms > 0)) return { A: features.map(() => new Array(m).fill(0)), b: new Array(m).fill(0), c: 0, n: 0 };
  const w = 1 / (ms * ms);
  return { A: features.map((fj) => features.map((fk) => w * fj * fk)), b: features.map((fj) => w * fj * ms), c: 1, n: 1 };
}

/** The sum of normalTerms. */
function addUp(terms, m) {
  const sum = { A: Array.from({ length: m }, () => new Array(m).fill(0)), b: new Array(m).fill(0), c: 0, n: 0 };
  for (const t of terms) {
    for (let r = 0; r < m; r++) {
      sum.b[r] += t.b[r];
      for (let c = 0; c < m; c++) sum.A[r][c] += t.A[r][c];
    }
    sum.c += t.c;
    sum.n += t.n;
  }
  return sum;
}

/** The best non-negative least-squares costs from the normal equations' sums: every subset of
 *  features solved, its error x^T A x - 2 x^T b + c, the smallest kept; zeros with no sample. */
function bestFit({ A, b, c, n }, m) {
  let best = { err: Infinity, x: new Array(m).fill(0) };
  if (n === 0) return best.x; // the stage never took time: it costs nothing
  for (let mask = 1; mask < 1 << m; mask++) {
    const cols = [...Array(m).keys()].filter((j) => mask & (1 << j));
    const sol = solve(cols.map((r) => cols.map((k) => A[r][k])), cols.map((r) => b[r]));
    if (!sol || sol.some((v) => !(v >= 0))) continue;
    const x = new Array(m).fill(0);
    cols.forEach((j, r) => { x[j] = sol[r]; });
    let err = c;
    for (let r = 0; r < m; r++) {
      err -= 2 * x[r] * b[r];
      for (let k = 0; k < m; k++) err += x[r] * A[r][k] * x[k];
    }
    if (err < best.err) best = { err, x };
  }
  return best.x;
}

/**
 * Every stage's costs fitted over `blocks`.
 * @param {Array<{workload: object, stages_ms: {parse, sighash, script, verify}}>} blocks
 *   measured blocks: block-workload.mjs workloads and their stage times (ms, one worker)
 * @param {number} schnorrPerEcdsa see stagesOf
 * @returns {{parse: object, sighash: object, script: object, verify: object}} per stage
 *   {cost name: ms per unit}; verify also has per_schnorr = per_ecdsa x schnorrPerEcdsa
 * @throws {RangeError} when `blocks` is empty
 */
export function fitCosts(blocks, schnorrPerEcdsa) {
  const costs = {};
  for (const [stage, features] of Object.entries(stagesOf(schnorrPerEcdsa))) {
    const x = fitStage(blocks.map((b) => ({ features: features.map(([, f]) => f(b.workload)), ms: b.stages_ms[stage] })));
    costs[stage] = Object.fromEntries(features.map(([name], j) => [name, x[j]]));
  }
  costs.verify.per_schnorr = costs.verify.per_ecdsa * schnorrPerEcdsa;
  return costs;
}

/**
 * fitCosts with each block left out in turn (fitStageLeaveOneOut per stage).
 * @returns {object[]} per block, fitCosts' shape for the costs fitted on every other block
 * @throws {RangeError} with fewer than two blocks
 */
export function fitCostsLeaveOneOut(blocks, schnorrPerEcdsa) {
  const out = blocks.map(() => ({}));
  for (const [stage, features] of Object.entries(stagesOf(schnorrPerEcdsa))) {
    const xs = fitStageLeaveOneOut(blocks.map((b) => ({ features: features.map(([, f]) => f(b.workload)), ms: b.stages_ms[stage] })));
    xs.forEach((x, k) => { out[k][stage] = Object.fromEntries(features.map(([name], j) => [name, x[j]])); });
  }
  for (const c of out) c.verify.per_schnorr = c.verify.per_ecdsa * schnorrPerEcdsa;
  return out;
}

/** A block workload's predicted time per stage under `costs` (fitCosts'), ms (one worker). */
export function predictStages(costs, workload) {
  const schnorrPerEcdsa = costs.verify.per_ecdsa > 0 ? costs.verify.per_schnorr / costs.verify.per_ecdsa : 0;
  const out = {};
  for (const [stage, features] of Object.entries(stagesOf(schnorrPerEcdsa))) {
    out[stage] = features.reduce((n, [name, f]) => n + costs[stage][name] * f(workload), 0);
  }
  return out;
}

/** The sum of a stages object. */
export const stagesTotal = (s) => s.parse + s.sighash + s.script + s.verify;

/**
 * Each block's predicted time, from costs fitted on every other block (leave one out), beside
 * its measured time.
 * @param {Array<{height: number, workload: object, stages_ms: object}>} blocks
 * @param {number} schnorrPerEcdsa see stagesOf
 * @param {{minChecks?: number, tolerance?: number}} [options] the blocks judged: those with at
 *   least minChecks checks (default 100); trusted when every one is within +-tolerance (0.15)
 * @returns {{per_block: Array<{height, checks, predicted_ms, measured_ms, ratio, judged: boolean,
 *   within: boolean|null}>, trusted: boolean, misses: Array<{height, ratio}>}}
 *   ratio = predicted / measured
 */
export function predictBlocks(blocks, schnorrPerEcdsa, { minChecks = 100, tolerance = 0.15 } = {}) {
  const leftOut = fitCostsLeaveOneOut(blocks, schnorrPerEcdsa);
  const perBlock = blocks.map((b, k) => {
    const predicted = stagesTotal(predictStages(leftOut[k], b.workload));
    const measured = stagesTotal(b.stages_ms);
    const c = b.workload.checks;
    const checks = c.ecdsa_single + c.ecdsa_multisig + c.schnorr_keypath + c.schnorr_scriptpath;
    const judged = checks >= minChecks;
    const ratio = predicted / measured;
    return { height: b.height, checks, predicted_ms: predicted, measured_ms: measured, ratio, judged,
      within: judged ? Math.abs(ratio - 1) <= tolerance : null };
  });
  const misses = perBlock.filter((p) => p.judged && !p.within).map((p) => ({ height: p.height, ratio: p.ratio }));
  return { per_block: perBlock, trusted: perBlock.some((p) => p.judged) && misses.length === 0, misses };
}
