// The cost model: what each unit of work costs one worker on this machine, measured inside the
// workers by the engine's own timers on real blocks, and what a block or a span of the chain then
// costs.
//
//   parse   = per_call x engine calls + per_byte x block bytes + per_extra_call_byte x block bytes
//             x (calls - 1) + per_tx x transactions + per_input x inputs (parse, txids, block
//             rules, the spent outputs' decoding; a block split into ranges takes a call per
//             range, each skimming the rest of the block)
//   sighash = sum over the kinds K (legacy, bip143, bip341) of per_K_sighash x K's sighashes
//             + per_K_byte x K's bytes: for legacy the bytes the engine hashes, for BIP143 and
//             BIP341 their messages' and precomputation's bytes
//   script  = sum over input script types T (p2pkh, p2sh-multisig, p2wpkh, p2tr-keypath, ...:
//             script_type.h) of script[T] x inputs of type T (evaluation less sighash and verify);
//             a type without a cost of its own: per_input x its inputs + per_script_byte x
//             their script bytes (scriptSig, spent scriptPubKey, witness items)
//   verify  = per_ecdsa x ECDSA checks + per_schnorr x Schnorr checks; for a block, whose
//             workload splits its ECDSA checks by key (ecdsa_keys), sum over the key classes C
//             (first_compressed, first_other, repeat) of per_ecdsa_C x its checks of class C
//             + per_schnorr x Schnorr checks, per_ecdsa being the classes' costs weighted by
//             the measured blocks' mix of them
//
// Parse and verify costs are fitted to those stages' measured times over a set of blocks (least
// squares, each block's error weighted by the inverse of its time, every cost non-negative:
// fitStage). Sighash and script costs are
// measured part by part: the engine times each sighash kind and each input's evaluation
// (validateBlock's times.sighashMsByKind and times.scriptMsByType), so each kind's cost per byte
// and per sighash is fitted to that kind's own time and each type's cost per input to that type's
// own time. A kind that no block of the set holds takes the pooled costs (all kinds' sighash time
// per sighash and per byte); a type that none holds, the pooled script costs per input and per
// script byte (fitted on every other type's script time: the interpreter's work grows with the
// script it walks, from an empty script to an inscription's). A kind with one block fits its two
// costs on one sample: the one that alone fits it is kept. Costs are never fitted on a block they
// are then checked on: predictBlocks leaves each block out of its own fit. Times in ms, per one
// worker.
// Host-neutral (no node: module): the CLI, `npm run project` and the page share it.

const schnorrOf = (w) => w.checks.schnorr_keypath + w.checks.schnorr_scriptpath;
const ecdsaOf = (w) => w.checks.ecdsa_single + w.checks.ecdsa_multisig;

/** The stage names. */
export const STAGE_NAMES = Object.freeze(['parse', 'sighash', 'script', 'verify']);

/** The sighash kinds: per kind, its costs' names and the workload's units they multiply: its
 *  sighashes computed, and its bytes (the legacy kind's: the bytes the engine hashed, less than
 *  the messages where its LegacySighashCache held part of them). */
export const SIGHASH_KINDS = Object.freeze({
  legacy: [['per_legacy_sighash', (w) => w.sighashes.legacy], ['per_legacy_byte', (w) => w.legacy_sighash_hashed]],
  bip143: [['per_bip143_sighash', (w) => w.sighashes.bip143], ['per_bip143_byte', (w) => w.sighash_bytes.bip143]],
  bip341: [['per_bip341_sighash', (w) => w.sighashes.bip341], ['per_bip341_byte', (w) => w.sighash_bytes.bip341]],
});
const allKinds = (j) => (w) => Object.values(SIGHASH_KINDS).reduce((n, units) => n + units[j][1](w), 0);

/** A workload's inputs by script type; a workload without the split is all of type `*`, which
 *  has no cost of its own (the pooled costs price it). */
const inputsByType = (w) => w.inputs_by_type ?? { '*': w.inputs };

/** The pooled script costs, for a type without a cost of its own: per input and per script
 *  byte, fitted on every (block, type) pair's script time. */
const SCRIPT_POOLED = ['per_input', 'per_script_byte'];

/** The script bytes of `n` inputs of `type` in workload `w`: its script_bytes_by_type where
 *  given (a block's coverage), else n x the mean bytes per input of the workload's given types,
 *  else 0 (a span's: the workload table counts no script bytes). */
function scriptBytesOfType(w, type, n) {
  const given = w.script_bytes_by_type;
  if (!given) return 0;
  if (given[type] !== undefined) return given[type];
  const inputs = Object.keys(given).reduce((k, t) => k + (w.inputs_by_type?.[t] ?? 0), 0);
  return inputs > 0 ? (n * Object.values(given).reduce((k, v) => k + v, 0)) / inputs : 0;
}

/** The classes of a block's ECDSA checks by public key (block-workload.mjs `ecdsa_keys`), which
 *  cost differently: a key's first check in the block, its key 33 bytes (the parse computes a
 *  square root) or another length, and a check under a key the block used before (the key
 *  cache: no parse, and from the key's second use its own tables, half the doublings). */
export const ECDSA_KEY_CLASSES = Object.freeze(['first_compressed', 'first_other', 'repeat']);

/**
 * The share of each ECDSA key class among all the ECDSA checks of `blocks`.
 * @param {Array<{workload: object}>} blocks measured blocks
 * @returns {{first_compressed: number, first_other: number, repeat: number}|null} shares summing
 *   to 1; null when a block's workload has no `ecdsa_keys` (a measurement saved before the
 *   split) or the blocks hold no ECDSA check
 */
export function ecdsaKeyMixOf(blocks) {
  if (blocks.length === 0 || blocks.some((b) => !b.workload.ecdsa_keys)) return null;
  const sums = Object.fromEntries(ECDSA_KEY_CLASSES.map((k) => [k, blocks.reduce((n, b) => n + b.workload.ecdsa_keys[k], 0)]));
  const total = Object.values(sums).reduce((n, v) => n + v, 0);
  return total > 0 ? Object.fromEntries(ECDSA_KEY_CLASSES.map((k) => [k, sums[k] / total])) : null;
}

/**
 * The fitted stages (parse, verify), each with the features of a block workload
 * (block-workload.mjs) its costs multiply; `per_call` is the constant of one engine call (a block,
 * or one range of a split block; a span's workload gives its calls in `calls` and the bytes its
 * extra calls skim, the sum of bytes x (calls - 1) over its blocks, in `extra_call_bytes`).
 * Verify has one fitted cost per ECDSA key class (`per_ecdsa_<class>`, ECDSA_KEY_CLASSES) when
 * `mix` is given, else one per ECDSA check (`per_ecdsa`). A Schnorr check counts as
 * `schnorrPerEcdsa` ECDSA checks of the mix, the ratio of the two verify rates the run measured
 * on every fixture check (its verify passes), since too few blocks hold Schnorr checks to fit
 * their own cost on: a block's Schnorr checks add `schnorrPerEcdsa` x mix[C] to each class C.
 * @param {number} schnorrPerEcdsa a Schnorr check's verify cost in ECDSA checks
 * @param {object|null} [mix] ecdsaKeyMixOf's shares; the blocks fitted must carry `ecdsa_keys`
 * @returns {object} stage -> [[cost name, workload -> units]]
 */
export function stagesOf(schnorrPerEcdsa, mix = null) {
  return {
    parse: [['per_call', (w) => w.calls ?? 1], ['per_byte', (w) => w.bytes],
      ['per_extra_call_byte', (w) => w.extra_call_bytes ?? w.bytes * ((w.calls ?? 1) - 1)],
      ['per_tx', (w) => w.txs], ['per_input', (w) => w.inputs]],
    verify: mix
      ? ECDSA_KEY_CLASSES.map((k) => [`per_ecdsa_${k}`, (w) => w.ecdsa_keys[k] + schnorrPerEcdsa * mix[k] * schnorrOf(w)])
      : [['per_ecdsa', (w) => ecdsaOf(w) + schnorrPerEcdsa * schnorrOf(w)]],
  };
}

/** The verify costs from a fit of stagesOf's verify features (`x`): {per_ecdsa, per_schnorr},
 *  and with a key mix also `by_key` (ms per check of each class) and `mix`; per_ecdsa is then
 *  the classes' costs weighted by the mix, the price of an ECDSA check whose key is not known
 *  (a span of the chain). */
function verifyCosts(x, mix, schnorrPerEcdsa) {
  if (!mix) return { per_ecdsa: x[0], per_schnorr: x[0] * schnorrPerEcdsa };
  const byKey = Object.fromEntries(ECDSA_KEY_CLASSES.map((k, j) => [k, x[j]]));
  const perEcdsa = ECDSA_KEY_CLASSES.reduce((n, k) => n + mix[k] * byKey[k], 0);
  return { per_ecdsa: perEcdsa, per_schnorr: perEcdsa * schnorrPerEcdsa, by_key: byKey, mix: { ...mix } };
}

/** A workload's verify time under verify costs (verifyCosts'), ms: by key class where both the
 *  costs and the workload have the split, else at per_ecdsa per ECDSA check. */
function verifyMs(v, w) {
  const ecdsa = v.by_key && w.ecdsa_keys
    ? ECDSA_KEY_CLASSES.reduce((n, k) => n + v.by_key[k] * w.ecdsa_keys[k], 0)
    : v.per_ecdsa * ecdsaOf(w);
  return ecdsa + v.per_schnorr * schnorrOf(w);
}

/**
 * The fits of the measured parts: per sighash kind (costs per sighash and per byte, on the kind's
 * own time) and per input script type (cost per input, on the type's own time), with the pooled
 * fit of the sighash kinds (`all`: all sighash time per sighash and per byte).
 * @param {object[]} blocks {workload, stages_ms, parts_ms: {sighash: {legacy, bip143, bip341},
 *   script: {type: ms}}}
 * @returns {Array<{stage: string, name: string, samples: Array<{features: number[], ms: number}>}>}
 */
function partSamples(blocks) {
  const parts = [];
  for (const [kind, units] of Object.entries(SIGHASH_KINDS)) {
    parts.push({ stage: 'sighash', name: kind, samples: blocks.map((b) => ({ features: units.map(([, f]) => f(b.workload)), ms: b.parts_ms?.sighash?.[kind] ?? 0 })) });
  }
  parts.push({ stage: 'sighash', name: 'all', samples: blocks.map((b) => ({ features: [allKinds(0)(b.workload), allKinds(1)(b.workload)], ms: b.stages_ms.sighash })) });
  const types = new Set(blocks.flatMap((b) => Object.keys(inputsByType(b.workload))));
  types.delete('*');
  for (const type of [...types].sort()) {
    parts.push({ stage: 'script', name: type, samples: blocks.map((b) => ({ features: [inputsByType(b.workload)[type] ?? 0], ms: b.parts_ms?.script?.[type] ?? 0 })) });
  }
  return parts;
}

/** Whether a sample holds measured work (time and units). */
const works = (x) => x.ms > 0 && x.features.some((f) => f > 0);
/** Whether a part's samples hold any measured work. */
const holdsWork = (samples) => samples.some(works);

/** The sighash and script costs from their parts' fits (`xs`: per part its costs, null where no
 *  block of the set holds the part) and the pooled script costs (`pooled`: SCRIPT_POOLED's): a
 *  kind without data takes the pooled sighash costs; a type without data has no cost of its own. */
function partCosts(parts, xs, pooled) {
  const sighash = {};
  const script = { per_input: pooled[0], per_script_byte: pooled[1] };
  const all = xs[parts.findIndex((p) => p.name === 'all' && p.stage === 'sighash')] ?? [0, 0];
  parts.forEach((p, j) => {
    if (p.stage === 'sighash' && p.name !== 'all') {
      SIGHASH_KINDS[p.name].forEach(([name], i) => { sighash[name] = (xs[j] ?? all)[i]; });
    }
    if (p.stage === 'script' && xs[j] !== null) script[p.name] = xs[j][0];
  });
  return { sighash, script };
}

/** The pooled script fit's samples, per block: one per type it holds, [inputs, script bytes]
 *  and the type's script time. */
const pooledGroups = (blocks) => blocks.map((b) => Object.entries(inputsByType(b.workload)).filter(([type]) => type !== '*')
  .map(([type, n]) => ({ features: [n, scriptBytesOfType(b.workload, type, n)], ms: b.parts_ms?.script?.[type] ?? 0 })));

/** Solves the normal equations A x = b (small, dense) by Gaussian elimination with partial
 *  pivoting; null when singular. */
function solve(A, b) {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]]);
  // A pivot this small against the largest diagonal term: the columns are (nearly) dependent,
  // as two costs fitted on one sample are.
  const tiny = 1e-12 * Math.max(...A.map((row, i) => Math.abs(row[i])));
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
    if (!(Math.abs(M[p][c]) > Math.max(tiny, 1e-300))) return null;
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
 * Non-negative weighted least squares: the costs x >= 0 minimizing sum over samples of
 * (sum_j x_j f_j - t)^2 / t, by trying every subset of features with ordinary least squares and
 * keeping the best non-negative solution. The weight 1 / t is the inverse of a block's expected
 * noise: its time is a sum of many units' times, each with its own noise, so its variance grows
 * with its time. (Weighting each block alike, by relative error, let the seven one-check blocks
 * pull the cost per check below what the large blocks showed: every judged block's verify time
 * was under-predicted by 4-8%.)
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

/**
 * fitStage's costs with each group of samples left out in turn (a block's samples, one per
 * type): as fitStageLeaveOneOut, the sums less the group's own terms.
 * @param {Array<Array<{features: number[], ms: number}>>} groups
 * @param {number} m the features per sample
 * @returns {number[][]} per group, the costs fitted on all the other groups' samples
 */
export function fitGroupsLeaveOneOut(groups, m) {
  const terms = groups.map((g) => addUp(g.map((x) => normalTerms(x, m)), m));
  const all = addUp(terms, m);
  return terms.map((t) => bestFit({
    A: all.A.map((row, r) => row.map((v, c) => v - t.A[r][c])), b: all.b.map((v, r) => v - t.b[r]), c: all.c - t.c, n: all.n - t.n,
  }, m));
}

/** One sample's terms of the weighted normal equations (weight 1 / ms, fitStage): A =
 *  w f f^T, b = w f ms, c = w ms^2 (= ms), n = 1; all zero for a sample that took no time. */
function normalTerms({ features, ms }, m) {
  if (!(ms > 0)) return { A: features.map(() => new Array(m).fill(0)), b: new Array(m).fill(0), c: 0, n: 0 };
  const w = 1 / ms;
  return { A: features.map((fj) => features.map((fk) => w * fj * fk)), b: features.map((fj) => w * fj * ms), c: ms, n: 1 };
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
 * @param {Array<{workload: object, stages_ms: {parse, sighash, script, verify}, parts_ms: object}>}
 *   blocks measured blocks: block-workload.mjs workloads, their stage times and the sighash and
 *   script times by kind and type (partSamples; ms, one worker)
 * @param {number} schnorrPerEcdsa see stagesOf
 * @param {object|null} [mix] the ECDSA key classes' shares (stagesOf); default ecdsaKeyMixOf(blocks)
 *   (fitCostsLeaveOneOut keeps every block's mix for each fit)
 * @returns {{parse: object, sighash: object, script: object, verify: object}} per stage
 *   {cost name: ms per unit}: sighash {per_K_sighash, per_K_byte for K legacy, bip143, bip341},
 *   script {type: ms per input, per_input and per_script_byte: the pooled costs}; verify
 *   {per_ecdsa, per_schnorr = per_ecdsa x schnorrPerEcdsa}, and where every block's workload
 *   splits its ECDSA checks by key (ecdsaKeyMixOf), `by_key` {class: ms per check} and `mix`
 *   (the shares per_ecdsa weights by_key with)
 * @throws {RangeError} when `blocks` is empty
 */
export function fitCosts(blocks, schnorrPerEcdsa, mix = ecdsaKeyMixOf(blocks)) {
  const costs = {};
  for (const [stage, features] of Object.entries(stagesOf(schnorrPerEcdsa, mix))) {
    const x = fitStage(blocks.map((b) => ({ features: features.map(([, f]) => f(b.workload)), ms: b.stages_ms[stage] })));
    costs[stage] = stage === 'verify' ? verifyCosts(x, mix, schnorrPerEcdsa) : Object.fromEntries(features.map(([name], j) => [name, x[j]]));
  }
  const parts = partSamples(blocks);
  const pooled = pooledGroups(blocks).flat();
  Object.assign(costs, partCosts(parts, parts.map((p) => (holdsWork(p.samples) ? fitStage(p.samples) : null)),
    pooled.length ? fitStage(pooled) : [0, 0]));
  // A type whose inputs the blocks hold but whose evaluation the engine's clock never saw take
  // time (a browser's coarse performance.now: a few inputs of 2-3 µs in 5 µs steps) was measured
  // at 0 ms: its cost is 0, not unknown.
  for (const p of parts) {
    if (p.stage === 'script' && !Object.hasOwn(costs.script, p.name) && p.samples.some((x) => x.features[0] > 0)) costs.script[p.name] = 0;
  }
  return costs;
}

/**
 * fitCosts with each block left out in turn (fitStageLeaveOneOut per stage and part).
 * @returns {object[]} per block, fitCosts' shape for the costs fitted on every other block, and
 *   `pooled`: the sighash kinds and script types of the block that no other block holds (their
 *   cost is the pooled one)
 * @throws {RangeError} with fewer than two blocks
 */
export function fitCostsLeaveOneOut(blocks, schnorrPerEcdsa) {
  const out = blocks.map(() => ({}));
  // The mix of all the blocks, the left-out one's too: like schnorrPerEcdsa, a ratio measured
  // over every fixture check, not a cost fitted.
  const mix = ecdsaKeyMixOf(blocks);
  for (const [stage, features] of Object.entries(stagesOf(schnorrPerEcdsa, mix))) {
    const xs = fitStageLeaveOneOut(blocks.map((b) => ({ features: features.map(([, f]) => f(b.workload)), ms: b.stages_ms[stage] })));
    xs.forEach((x, k) => {
      out[k][stage] = stage === 'verify' ? verifyCosts(x, mix, schnorrPerEcdsa) : Object.fromEntries(features.map(([name], j) => [name, x[j]]));
    });
  }
  const parts = partSamples(blocks);
  const loo = parts.map((p) => fitStageLeaveOneOut(p.samples));
  const pooledLoo = fitGroupsLeaveOneOut(pooledGroups(blocks), SCRIPT_POOLED.length);
  // How many blocks hold each part's work: with only block k, leaving k out leaves no data.
  const holders = parts.map((p) => p.samples.filter(works).length);
  out.forEach((c, k) => {
    const own = parts.map((p) => works(p.samples[k]));
    const xs = parts.map((_, j) => (holders[j] - (own[j] ? 1 : 0) > 0 ? loo[j][k] : null));
    Object.assign(c, partCosts(parts, xs, pooledLoo[k]));
    c.pooled = parts.filter((p, j) => xs[j] === null && p.samples[k].features.some((f) => f > 0) && !(p.stage === 'sighash' && p.name === 'all'))
      .map((p) => (p.stage === 'sighash' ? `${p.name} sighashes` : `${p.name} inputs`));
  });
  return out;
}

/** A block workload's predicted time per stage under `costs` (fitCosts'), ms (one worker). A
 *  script type without a cost of its own takes the pooled costs: per_input x its inputs +
 *  per_script_byte x their script bytes (scriptBytesOfType). */
export function predictStages(costs, workload) {
  const out = {};
  out.parse = stagesOf(0).parse.reduce((n, [name, f]) => n + costs.parse[name] * f(workload), 0);
  out.verify = verifyMs(costs.verify, workload);
  out.sighash = Object.values(SIGHASH_KINDS).flat().reduce((n, [name, f]) => n + costs.sighash[name] * f(workload), 0);
  out.script = Object.entries(inputsByType(workload)).reduce((n, [type, inputs]) => n + (Object.hasOwn(costs.script, type) && !SCRIPT_POOLED.includes(type)
    ? costs.script[type] * inputs
    : costs.script.per_input * inputs + costs.script.per_script_byte * scriptBytesOfType(workload, type, inputs)), 0);
  return out;
}

/** Which blocks the per-block check judges and how close it wants them: those with at least
 *  minChecks signature checks (a smaller block's time is mostly the call's constant), within
 *  +-tolerance of their measured time. */
export const JUDGED = Object.freeze({ minChecks: 100, tolerance: 0.15 });

/** The sum of a stages object. */
export const stagesTotal = (s) => s.parse + s.sighash + s.script + s.verify;

/**
 * Each block's predicted time, from costs fitted on every other block (leave one out), beside
 * its measured time.
 * @param {Array<{height: number, workload: object, stages_ms: object, engine_ms?: {median: number}}>} blocks
 * @param {number} schnorrPerEcdsa see stagesOf
 * @param {{minChecks?: number, tolerance?: number}} [options] the blocks judged: those with at
 *   least minChecks checks (default 100); trusted when every one is within +-tolerance (0.15)
 * @returns {{per_block: Array<{height, checks, predicted_ms, measured_ms, ratio, judged: boolean,
 *   within: boolean|null, pooled: string[], ratio_at_mix: number|null}>, trusted: boolean,
 *   misses: Array<{height, ratio}>, at_mix: {min, max, mix}|null}}
 *   ratio = predicted / measured; pooled: the block's sighash kinds and script types that no
 *   other block holds, predicted at the pooled cost (fitCostsLeaveOneOut); ratio_at_mix: the
 *   same prediction with every ECDSA check at per_ecdsa, the key classes' mix price a span of
 *   the chain is priced at (null without the split); at_mix: its range over the judged blocks,
 *   which `trusted` does not judge: it says how far a block whose key mix is not the fixtures'
 *   lands at the span's price
 */
export function predictBlocks(blocks, schnorrPerEcdsa, { minChecks = JUDGED.minChecks, tolerance = JUDGED.tolerance } = {}) {
  const leftOut = fitCostsLeaveOneOut(blocks, schnorrPerEcdsa);
  const perBlock = blocks.map((b, k) => {
    const predicted = stagesTotal(predictStages(leftOut[k], b.workload));
    // The block's measured time: the median over the rounds of its stages' sum where the run
    // gives it (engine_ms), else the sum of the stages' medians.
    const measured = b.engine_ms?.median ?? stagesTotal(b.stages_ms);
    const c = b.workload.checks;
    const checks = c.ecdsa_single + c.ecdsa_multisig + c.schnorr_keypath + c.schnorr_scriptpath;
    const judged = checks >= minChecks;
    const ratio = predicted / measured;
    // The same costs with every ECDSA check at the mix's price, as a span of the chain is priced.
    const v = leftOut[k].verify;
    const atMix = v.by_key ? stagesTotal(predictStages({ ...leftOut[k], verify: { per_ecdsa: v.per_ecdsa, per_schnorr: v.per_schnorr } }, b.workload)) / measured : null;
    return { height: b.height, checks, predicted_ms: predicted, measured_ms: measured, ratio, judged,
      within: judged ? Math.abs(ratio - 1) <= tolerance : null, pooled: leftOut[k].pooled, ratio_at_mix: atMix };
  });
  const misses = perBlock.filter((p) => p.judged && !p.within).map((p) => ({ height: p.height, ratio: p.ratio }));
  const atMix = perBlock.filter((p) => p.judged && p.ratio_at_mix !== null).map((p) => p.ratio_at_mix);
  return { per_block: perBlock, trusted: perBlock.some((p) => p.judged) && misses.length === 0, misses,
    at_mix: atMix.length ? { min: Math.min(...atMix), max: Math.max(...atMix), mix: leftOut[0].verify.mix } : null };
}
