// The cost model and the projection (bench/core/cost-model.mjs, model-projection.mjs): the fit on
// hand-made blocks whose times follow known costs, the per-block prediction on three real fixture
// blocks' workloads with given costs, leave-one-out (a block never predicted from its own time),
// a span's time and the pool's efficiency. No test asserts a measured time.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ecdsaKeyMixOf, fitCosts, fitCostsLeaveOneOut, fitStage, fitStageLeaveOneOut, predictBlocks, predictStages, stagesTotal } from '../bench/core/cost-model.mjs';
import { callsPerBlock, extremeMix, poolEfficiency, projectChain, spanHours, spanMs, withoutKeyReuseOf } from '../bench/core/model-projection.mjs';
import { readCensus } from '../bench/workload/census.mjs';
import { trimmedExtremes, warmBlockTimes } from '../bench/core/end-to-end.mjs';
import { readWorkloadTable } from '../bench/workload/table.mjs';
import { INPUT_TYPES, totalChecks, workloadFor } from '../bench/core/workload-model.mjs';
import { benchRatios, contenderCosts } from '../bench/core/contenders.mjs';

const close = (a, b, tol = 1e-9) => Math.abs(a - b) <= tol * Math.max(1, Math.abs(b));

/** A block workload with these counts (block-workload.mjs's shape). */
function workload({ bytes = 1000, txs = 2, inputs = 1, ecdsa = 1, multisig = 0, keypath = 0, scriptpath = 0, legacy = 0, hashed = legacy, bip143 = 0, bip341 = 0, calls = 1,
  types = { p2pkh: inputs }, scriptBytes, sighashes = { legacy: legacy > 0 ? ecdsa : 0, bip143: bip143 > 0 ? Math.ceil(bip143 / 200) : 0, bip341: keypath + scriptpath } }) {
  return { calls, bytes, txs, inputs, checks: { ecdsa_single: ecdsa, ecdsa_multisig: multisig, schnorr_keypath: keypath, schnorr_scriptpath: scriptpath },
    sighash_bytes: { legacy, bip143, bip341 }, legacy_sighash_hashed: hashed, inputs_by_type: types, sighashes,
    ...(scriptBytes ? { script_bytes_by_type: scriptBytes } : {}) };
}

// Costs to recover, ms per unit.
const COSTS = {
  parse: { per_call: 0.01, per_byte: 0.000002, per_extra_call_byte: 0.0000015, per_tx: 0.001, per_input: 0.0003 },
  sighash: { per_legacy_sighash: 0.0004, per_legacy_byte: 0.000005, per_bip143_sighash: 0.0003, per_bip143_byte: 0.000007,
    per_bip341_sighash: 0.0005, per_bip341_byte: 0.000009 },
  script: { p2pk: 0.0021, p2pkh: 0.0022, 'p2sh-multisig': 0.006, p2wpkh: 0.0025, 'p2tr-keypath': 0.0015, per_input: 0.0002, per_script_byte: 0.00001 },
  verify: { per_ecdsa: 0.05, per_schnorr: 0.035 },
};
const RATIO = 0.7; // per_schnorr / per_ecdsa

/** A measured block whose stage and part times follow `costs` exactly (times `f` per stage). */
function measuredBlock(height, w, costs = COSTS, f = { parse: 1, sighash: 1, script: 1, verify: 1 }) {
  const t = predictStages(costs, w);
  const c = costs.sighash;
  const kinds = { legacy: c.per_legacy_sighash * w.sighashes.legacy + c.per_legacy_byte * w.legacy_sighash_hashed,
    bip143: c.per_bip143_sighash * w.sighashes.bip143 + c.per_bip143_byte * w.sighash_bytes.bip143,
    bip341: c.per_bip341_sighash * w.sighashes.bip341 + c.per_bip341_byte * w.sighash_bytes.bip341 };
  const types = Object.fromEntries(Object.keys(w.inputs_by_type).map((type) =>
    [type, predictStages(costs, { ...w, inputs_by_type: { [type]: w.inputs_by_type[type] } }).script * f.script]));
  return { height, workload: w, stages_ms: Object.fromEntries(Object.entries(t).map(([k, v]) => [k, v * f[k]])),
    parts_ms: { sighash: Object.fromEntries(Object.entries(kinds).map(([k, v]) => [k, v * f.sighash])), script: types } };
}

test('fitStage recovers the costs of exact data, and keeps every cost non-negative', () => {
  // t = 2 a + 3 b, exactly.
  const samples = [[1, 0], [0, 1], [1, 1], [2, 5]].map(([a, b]) => ({ features: [a, b], ms: 2 * a + 3 * b }));
  const x = fitStage(samples);
  assert.ok(close(x[0], 2) && close(x[1], 3), String(x));
  // Data that a negative cost would fit better: the cost is held at 0 instead.
  const y = fitStage([{ features: [1, 1], ms: 1 }, { features: [1, 2], ms: 0.5 }]);
  assert.ok(y.every((v) => v >= 0), String(y));
  assert.throws(() => fitStage([]), RangeError);
});

test('fitCosts and predictStages on blocks whose stage times follow known costs', () => {
  const shapes = [
    { inputs: 1, ecdsa: 1, legacy: 300, bytes: 500, txs: 2, types: { p2pk: 1 } },
    { inputs: 100, ecdsa: 100, legacy: 40000, hashed: 30000, bytes: 40000, txs: 50, types: { p2pk: 10, p2pkh: 90 } },
    { inputs: 500, ecdsa: 400, multisig: 200, legacy: 200000, bytes: 200000, txs: 200, types: { p2pkh: 400, 'p2sh-multisig': 100 } },
    { inputs: 2000, ecdsa: 1500, keypath: 600, bip143: 400000, bip341: 150000, legacy: 300000, hashed: 250000, bytes: 900000, txs: 1200, calls: 5,
      types: { p2pkh: 400, p2wpkh: 1000, 'p2tr-keypath': 600 } },
    { inputs: 20000, ecdsa: 800, legacy: 180000, bytes: 1000000, txs: 400, calls: 5, types: { p2pkh: 700, 'p2sh-multisig': 50, empty: 19250 }, scriptBytes: { empty: 0 } },
    { inputs: 700, ecdsa: 700, legacy: 300000, bytes: 300000, txs: 300, calls: 3, types: { p2pkh: 690, empty: 10 }, scriptBytes: { empty: 0 } },
    { inputs: 3000, ecdsa: 2000, keypath: 1000, bip143: 600000, bip341: 90000, bytes: 1200000, txs: 1500, types: { p2wpkh: 2000, 'p2tr-keypath': 1000 } },
    { inputs: 1500, ecdsa: 500, keypath: 1000, bip143: 100000, bip341: 200000, bytes: 700000, txs: 600, types: { p2wpkh: 500, 'p2tr-keypath': 1000 } },
  ].map(workload);
  const blocks = shapes.map((w, k) => measuredBlock(k, w));
  const fitted = fitCosts(blocks, RATIO);
  for (const b of blocks) {
    assert.ok(close(stagesTotal(predictStages(fitted, b.workload)), stagesTotal(b.stages_ms), 1e-6), `block ${b.height}`);
  }
  assert.ok(close(fitted.verify.per_schnorr, fitted.verify.per_ecdsa * RATIO));
  // Every block predicted from the others alone: exact data, so exact predictions and trusted.
  const check = predictBlocks(blocks, RATIO, { minChecks: 100 });
  assert.equal(check.trusted, true);
  assert.deepEqual(check.per_block.map((p) => p.judged), [false, true, true, true, true, true, true, true]);
  for (const p of check.per_block) assert.ok(close(p.ratio, 1, 1e-6), `${p.height}: ${p.ratio}`);
});

test('a block is never predicted from its own time: change it, and only the others\' predictions move', () => {
  const shapes = [{ inputs: 100, ecdsa: 100, bytes: 30000, txs: 40 }, { inputs: 200, ecdsa: 250, bytes: 60000, txs: 90 },
    { inputs: 400, ecdsa: 380, bytes: 150000, txs: 160 }, { inputs: 900, ecdsa: 1000, bytes: 300000, txs: 420 }].map(workload);
  const blocks = shapes.map((w, k) => measuredBlock(k, w));
  const before = predictBlocks(blocks, RATIO);
  const slowed = blocks.map((b, k) => (k === 2 ? { ...b, stages_ms: { ...b.stages_ms, verify: b.stages_ms.verify * 3 } } : b));
  const after = predictBlocks(slowed, RATIO);
  assert.ok(close(after.per_block[2].predicted_ms, before.per_block[2].predicted_ms, 1e-9), 'its own prediction is unchanged');
  assert.ok(after.per_block[2].ratio < 0.6, 'and it now misses');
  assert.equal(after.trusted, false);
  assert.deepEqual(after.misses.map((m) => m.height), after.per_block.filter((p) => !p.within).map((p) => p.height));
});

test('ECDSA checks priced by key class: first under a 33-byte key, first under another, under a key the block used before', () => {
  // Blocks whose ECDSA checks split by key (block-workload.mjs ecdsa_keys) differently: the
  // fit recovers a cost per class, which one cost per check cannot (a block of one key's
  // 131 spends costs less per check than one of 98 keys).
  const split = [[10, 90, 0], [0, 1, 130], [97, 1, 24], [300, 200, 500], [900, 100, 300], [50, 600, 100], [2000, 300, 3400]];
  const shapes = split.map(([fc, fo, rep], k) => ({
    ...workload({ inputs: fc + fo + rep, ecdsa: fc + fo + rep, keypath: k >= 5 ? 500 * k : 0, bytes: 300 * (fc + fo + rep), txs: 10 + k }),
    ecdsa_keys: { first_compressed: fc, first_other: fo, repeat: rep } }));
  const sums = split.reduce((n, r) => n.map((v, j) => v + r[j]), [0, 0, 0]);
  const total = sums[0] + sums[1] + sums[2];
  const mix = { first_compressed: sums[0] / total, first_other: sums[1] / total, repeat: sums[2] / total };
  const byKey = { first_compressed: 0.13, first_other: 0.09, repeat: 0.075 };
  const perEcdsa = mix.first_compressed * 0.13 + mix.first_other * 0.09 + mix.repeat * 0.075;
  const costs = { ...COSTS, verify: { per_ecdsa: perEcdsa, per_schnorr: perEcdsa * RATIO, by_key: byKey, mix } };
  const blocks = shapes.map((w, k) => measuredBlock(k, w, costs));
  const fitted = fitCosts(blocks, RATIO);
  for (const [k, v] of Object.entries(byKey)) assert.ok(close(fitted.verify.by_key[k], v, 1e-6), `${k}: ${fitted.verify.by_key[k]}`);
  assert.ok(close(fitted.verify.per_ecdsa, perEcdsa, 1e-6) && close(fitted.verify.per_schnorr, perEcdsa * RATIO, 1e-6));
  for (const [k, v] of Object.entries(mix)) assert.ok(close(fitted.verify.mix[k], v), k);
  // Each block from the others alone, the one Schnorr block too (at the ratio): exact.
  const check = predictBlocks(blocks, RATIO);
  assert.equal(check.trusted, true);
  for (const p of check.per_block) assert.ok(close(p.ratio, 1, 1e-6), `${p.height}: ${p.ratio}`);
  // What the check does not judge, reported beside it: the same blocks at the mix's price per
  // ECDSA check (a span's), block 1 (one key's 131 checks) over-predicted, block 2 under.
  const atMix = check.per_block.filter((p) => p.judged).map((p) => p.ratio_at_mix);
  assert.ok(check.per_block[1].ratio_at_mix > 1.05 && check.per_block[2].ratio_at_mix < 1, JSON.stringify(atMix));
  assert.deepEqual({ min: check.at_mix.min, max: check.at_mix.max }, { min: Math.min(...atMix), max: Math.max(...atMix) });
  for (const [k, v] of Object.entries(mix)) assert.ok(close(check.at_mix.mix[k], v), k);
  // A workload without the split (a span of the chain) is priced at the mix's cost per check.
  const { ecdsa_keys: _, ...span } = shapes[3];
  assert.ok(close(predictStages(fitted, span).verify, 1000 * perEcdsa, 1e-6));
  assert.ok(predictStages(fitted, shapes[1]).verify < predictStages(fitted, { ...shapes[1], ecdsa_keys: { first_compressed: 131, first_other: 0, repeat: 0 } }).verify);
  // One cost per check on the same blocks: block 1's repeats make it miss.
  const single = blocks.map((b) => { const { ecdsa_keys: __, ...w } = b.workload; return { ...b, workload: w }; });
  const one = predictBlocks(single, RATIO);
  assert.equal(one.trusted, false);
  assert.equal(one.at_mix, null);
  assert.ok(one.misses.some((m) => m.height === 1), JSON.stringify(one.misses));
  // A measurement saved before the split (a block without ecdsa_keys): one cost per check, no by_key.
  const old = fitCosts([...blocks.slice(1), single[0]], RATIO);
  assert.equal(old.verify.by_key, undefined);
  assert.equal(old.verify.mix, undefined);
});

test('predictions of three fixture blocks\' real workloads under given costs, by hand', () => {
  const census = readCensus();
  const at = (h) => census.blocks.find((b) => b.height === h);
  // 170: 490 bytes, 2 txs, 1 input, 1 ECDSA check, 274 legacy message bytes (all hashed), one call.
  const p170 = predictStages(COSTS, at(170));
  assert.ok(close(p170.parse, 0.01 + 490 * 0.000002 + 2 * 0.001 + 1 * 0.0003));
  // The same block in three calls (split): two more calls, each skimming its 490 bytes.
  const p170split = predictStages(COSTS, { ...at(170), calls: 3 });
  assert.ok(close(p170split.parse, p170.parse + 2 * 0.01 + 2 * 490 * 0.0000015));
  assert.deepEqual(at(170).sighashes, { legacy: 1, bip143: 0, bip341: 0 });
  assert.ok(close(p170.sighash, 0.0004 + 274 * 0.000005));
  assert.deepEqual(at(170).inputs_by_type, { p2pk: 1 });
  assert.ok(close(p170.script, 0.0021));
  assert.ok(close(p170.verify, 0.05));
  // 553724: 3 inputs, 3 ECDSA checks, BIP143 364 message + 398 precomputation bytes.
  const b553724 = at(553724);
  assert.equal(b553724.sighash_bytes.bip143, 364 + 398);
  const n553724 = b553724.sighashes;
  assert.ok(close(predictStages(COSTS, b553724).sighash, n553724.legacy * 0.0004 + b553724.legacy_sighash_hashed * 0.000005 +
    n553724.bip143 * 0.0003 + 762 * 0.000007));
  // Its script time: each input at its type's cost, a type without one (p2sh-p2wpkh here) at
  // the pooled costs, per input and per byte of its inputs' scripts (the block's coverage).
  const types553724 = b553724.inputs_by_type;
  assert.equal(Object.values(types553724).reduce((n, v) => n + v, 0), 3);
  const script553724 = Object.entries(types553724).reduce((n, [t, k]) => n + (COSTS.script[t] !== undefined ? COSTS.script[t] * k
    : 0.0002 * k + 0.00001 * b553724.script_bytes_by_type[t]), 0);
  assert.ok(close(predictStages(COSTS, b553724).script, script553724));
  // 866342: Schnorr checks at the given ratio.
  const b = at(866342);
  const ecdsa = b.checks.ecdsa_single + b.checks.ecdsa_multisig;
  const schnorr = b.checks.schnorr_keypath + b.checks.schnorr_scriptpath;
  assert.equal(ecdsa + schnorr, 8076);
  assert.ok(close(predictStages(COSTS, b).verify, ecdsa * 0.05 + schnorr * 0.035));
  const n = b.sighashes;
  assert.ok(close(predictStages(COSTS, b).sighash, n.legacy * 0.0004 + b.legacy_sighash_hashed * 0.000005 + n.bip143 * 0.0003 +
    b.sighash_bytes.bip143 * 0.000007 + n.bip341 * 0.0005 + b.sighash_bytes.bip341 * 0.000009));
  assert.equal(b.inputs_by_type['p2tr-keypath'], 2223);
});

test('a sighash kind or script type that no other block holds is predicted at the pooled cost, and named', () => {
  const shapes = [
    { inputs: 100, ecdsa: 100, legacy: 40000, bytes: 40000, txs: 50 },
    { inputs: 300, ecdsa: 300, legacy: 90000, bytes: 90000, txs: 120 },
    { inputs: 200, ecdsa: 200, legacy: 120000, bytes: 90000, txs: 120 },
    { inputs: 500, ecdsa: 400, keypath: 100, legacy: 100000, bip143: 50000, bip341: 60000, bytes: 200000, txs: 200, types: { p2pkh: 400, 'p2tr-keypath': 100 } },
  ].map(workload);
  const blocks = shapes.map((w, k) => measuredBlock(k, w));
  const check = predictBlocks(blocks, RATIO);
  assert.deepEqual(check.per_block.map((p) => p.pooled), [[], [], [], ['bip143 sighashes', 'bip341 sighashes', 'p2tr-keypath inputs']]);
  // The first three: their sighash kinds and script types measured on other blocks, so those
  // stages are predicted exactly (parse's five costs are not determined by three blocks).
  const loo = fitCostsLeaveOneOut(blocks, RATIO);
  for (const k of [0, 1, 2]) {
    const p = predictStages(loo[k], blocks[k].workload);
    assert.ok(close(p.sighash, blocks[k].stages_ms.sighash, 1e-9) && close(p.script, blocks[k].stages_ms.script, 1e-9), `block ${k}`);
  }
  // The third: BIP143 and BIP341 sighashes at the others' sighash costs (legacy's), and its
  // taproot inputs at the others' pooled script cost (no script bytes given here: per input,
  // p2pkh's cost).
  const left = loo[3];
  assert.ok(close(left.sighash.per_bip341_byte, COSTS.sighash.per_legacy_byte, 1e-9));
  assert.ok(close(left.sighash.per_bip143_sighash, COSTS.sighash.per_legacy_sighash, 1e-9));
  assert.equal(left.script['p2tr-keypath'], undefined);
  assert.ok(close(left.script.per_input, COSTS.script.p2pkh, 1e-9));
  assert.ok(close(predictStages(left, blocks[3].workload).script, 500 * COSTS.script.p2pkh, 1e-9));
  // With every block: each kind and type fitted on its own time (BIP341's two costs on one
  // block: not determined apart, but that block's time exactly).
  const all = fitCosts(blocks, RATIO);
  assert.ok(close(predictStages(all, blocks[3].workload).sighash, blocks[3].stages_ms.sighash, 1e-9));
  assert.ok(close(all.script['p2tr-keypath'], COSTS.script['p2tr-keypath'], 1e-9));
});

test('a span\'s time is the sum of its blocks\' predicted times, and the pool\'s efficiency scales it', () => {
  const w = workload({ inputs: 10, ecdsa: 8, keypath: 2, legacy: 1000, bip143: 500, bytes: 5000, txs: 4 });
  // 10 inputs a block: not split, on any pool (one call a block).
  const one = stagesTotal(predictStages(COSTS, w));
  const figure = (v) => ({ value: v, low: v / 2, high: v * 2 });
  const figures = {
    transactions: figure(4 * 3), inputs: figure(10 * 3), block_bytes: figure(5000 * 3), checks_ecdsa_single: figure(8 * 3),
    checks_ecdsa_multisig: figure(0), checks_schnorr_keypath: figure(2 * 3), checks_schnorr_scriptpath: figure(0),
    sighash_bytes_legacy: figure(1000 * 3), sighash_hashed_legacy: figure(1000 * 3), sighash_bytes_bip143: figure(500 * 3),
    sighash_bytes_bip341: figure(0), sighashes_legacy: figure(8 * 3), sighashes_bip143: figure(3 * 3), sighashes_bip341: figure(2 * 3),
    ...Object.fromEntries(INPUT_TYPES.map(({ key }) => [`inputs_${key}`, figure(key === 'p2pkh' ? 10 * 3 : 0)])),
  };
  const ms = spanMs(COSTS, figures, 3, 16);
  assert.ok(close(ms.value, 3 * one), `${ms.value} vs ${3 * one}`);
  assert.ok(ms.low < ms.value && ms.value < ms.high);
  // Efficiency: 2 workers, 10 s of engine time in 6 s of wall time: 10 / 12.
  const e2e = { workers: 2, seconds: 6, stages: { parse_s: 1, sighash_s: 1, script_s: 1, verify_s: 7 },
    scaling: [{ workers: 1, efficiency: 1 }, { workers: 2, efficiency: 0.9 }] };
  assert.ok(close(poolEfficiency(e2e, 2).efficiency, 10 / 12));
  assert.ok(close(poolEfficiency(e2e, 1).efficiency, (10 / 12) / 0.9));
  const beyond = poolEfficiency(e2e, 16);
  assert.equal(beyond.measured, false);
  assert.ok(close(beyond.efficiency, 10 / 12));
  assert.match(beyond.assumption, /beyond the 2 measured/);
  // A scaling curve that barely scaled (a loaded machine) never gives a worker more than the
  // whole wall time; and fewer workers than measured, without a curve, is said so.
  const flat = { ...e2e, stages: { parse_s: 0, sighash_s: 0, script_s: 0, verify_s: 11 },
    scaling: [{ workers: 1, efficiency: 1 }, { workers: 2, efficiency: 0.513 }] };
  assert.equal(poolEfficiency(flat, 1).efficiency, 1);
  const single = poolEfficiency({ ...e2e, scaling: undefined }, 1);
  assert.equal(single.measured, false);
  assert.match(single.assumption, /^1 worker: not measured \(the run measured 2;/);
});

test('the engine calls a block takes in the pool, as workers/block-jobs.mjs cuts it', () => {
  assert.equal(callsPerBlock(1024, 2), 1); // not above twice the 512-input target
  assert.equal(callsPerBlock(1025, 2), 1 + 3); // the rules range and ceil(1025 / 512) ranges
  assert.equal(callsPerBlock(5000, 2), 1 + 4); // at most 2 ranges per worker
  assert.equal(callsPerBlock(5000, 16), 1 + 10);
});

/** The saved table, the census blocks measured at exact costs (5 rounds, fastest 0.9x and
 *  slowest 1.2x the median) and a 2-worker end-to-end pass. */
function censusRun() {
  const blocks = readCensus().blocks.map((w) => {
    const b = measuredBlock(w.height, w);
    const t = stagesTotal(b.stages_ms);
    return { ...b, engine_ms: { median: t, min: 0.9 * t, max: 1.2 * t, rounds: 5 } };
  });
  const e2e = { workers: 2, seconds: 1, stages: { parse_s: 0.5, sighash_s: 0.3, script_s: 0.3, verify_s: 0.9 } };
  return { table: readWorkloadTable(), blocks, e2e };
}

test('projectChain: full chain, after assumevalid and per era from the saved table', () => {
  const { table, blocks, e2e } = censusRun();
  const p = projectChain({ blocks, table, endToEnd: e2e, schnorrPerEcdsa: RATIO });
  // Exact data: every block whose kinds and types other blocks hold is predicted within 0.1%
  // (a type without a given cost is priced per script byte here, so its cost per input varies a
  // little from block to block; a block with a type of its own is priced at the pooled costs).
  for (const b of p.per_block.filter((x) => x.pooled.length === 0)) assert.ok(close(b.ratio, 1, 1e-3), `${b.height}: ${b.ratio}`);
  assert.ok(p.per_block.filter((x) => x.pooled.length === 0 && x.judged).length >= 5);
  assert.ok(p.full_chain_hours.low <= p.full_chain_hours.value && p.full_chain_hours.value <= p.full_chain_hours.high);
  assert.ok(p.after_assumevalid_hours.value < p.full_chain_hours.value);
  const sum = p.eras.reduce((n, e) => n + e.hours.value, 0);
  assert.ok(close(sum, p.full_chain_hours.value, 1e-3), `${sum} vs ${p.full_chain_hours.value}`);
  // Counts in whole units, rounded from the full-precision figures (hours stay fractional).
  const whole = totalChecks(workloadFor(table, 0, table.tip));
  assert.deepEqual(p.full_chain_hours.checks, { value: Math.round(whole.value), low: Math.round(whole.low), high: Math.round(whole.high) });
  assert.ok(!Number.isInteger(whole.value) && !Number.isInteger(p.full_chain_hours.value));
  for (const [where, r] of [['after_assumevalid_hours.checks', p.after_assumevalid_hours.checks], ['range_hours.checks', p.range_hours.checks],
    ...p.eras.flatMap((e) => [[`${e.name} hours.checks`, e.hours.checks], ...Object.entries(e.workload).map(([f, x]) => [`${e.name} ${f}`, x])])]) {
    assert.ok([r.value, r.low, r.high].every(Number.isInteger) && r.low <= r.value && r.value <= r.high, `${where}: ${JSON.stringify(r)}`);
  }
  // 16 workers: beyond the measured count, stated.
  const p16 = projectChain({ blocks, table, endToEnd: e2e, schnorrPerEcdsa: RATIO, workers: 16 });
  // Eight times the workers, not eight times as fast: the large blocks are cut into more ranges,
  // each an engine call that skims its block (per_call, per_extra_call_byte).
  assert.ok(p16.full_chain_hours.value > p.full_chain_hours.value * 2 / 16);
  assert.ok(p16.full_chain_hours.value < p.full_chain_hours.value * 2 / 8);
  assert.match(p16.assumption, /16 workers/);
  assert.throws(() => projectChain({ blocks, table, endToEnd: e2e, schnorrPerEcdsa: RATIO, workers: 65 }), RangeError);
  // Medians of 3 rounds: nothing is judged trusted, and the output says why.
  const three = blocks.map((b) => ({ ...b, engine_ms: { ...b.engine_ms, rounds: 3 } }));
  const p3 = projectChain({ blocks: three, table, endToEnd: e2e, schnorrPerEcdsa: RATIO });
  assert.equal(p3.trusted, false);
  assert.match(p3.untrusted_reason, /median of 3 rounds; the check needs 5/);
});

test('the range leaves out the single fastest and slowest round from 5 rounds: one disturbed round does not set it', () => {
  assert.deepEqual(trimmedExtremes([10, 11, 12, 13, 30]), { range_min: 11, range_max: 13 });
  assert.deepEqual(trimmedExtremes([10, 30, 12, 13]), { range_min: 10, range_max: 30 }); // fewer than 5: the extremes
  assert.deepEqual(trimmedExtremes([7]), { range_min: 7, range_max: 7 });
  const warm = warmBlockTimes([1, 1.1, 0.9, 1, 2.2].map((f) => ({ parseMs: f, sighashMs: 0, scriptMs: 0, verifyMs: 0, sighashMsByKind: {}, scriptMsByType: {} })));
  assert.deepEqual(warm.total, { median: 1, min: 0.9, max: 2.2, rounds: 5, range_min: 1, range_max: 1.1 });
  // The projection's high end follows range_max, and a measurement without it (saved before)
  // keeps min and max.
  const { table, blocks, e2e } = censusRun();
  const base = projectChain({ blocks, table, endToEnd: e2e, schnorrPerEcdsa: RATIO });
  const spiked = blocks.map((b) => ({ ...b, engine_ms: { ...b.engine_ms, max: 3 * b.engine_ms.median, range_max: b.engine_ms.max, range_min: b.engine_ms.min } }));
  const p = projectChain({ blocks: spiked, table, endToEnd: e2e, schnorrPerEcdsa: RATIO });
  assert.ok(close(p.full_chain_hours.high, base.full_chain_hours.high, 1e-9), `${p.full_chain_hours.high} vs ${base.full_chain_hours.high}`);
  const old = projectChain({ blocks: spiked.map(({ engine_ms: { range_min, range_max, ...m }, ...b }) => ({ ...b, engine_ms: m })), table, endToEnd: e2e, schnorrPerEcdsa: RATIO });
  assert.ok(old.full_chain_hours.high > 2 * base.full_chain_hours.high);
});

test('without key reuse: the one-per-key passes\' prices raise the range\'s high end, and only it', () => {
  const { table, blocks, e2e } = censusRun();
  const pass = (rate) => ({ checks: 100, checks_per_second: rate });
  // ECDSA 20,000/s (16,000/s one per key), Schnorr 40,000/s (25,000/s one per key).
  const totals = { by_type: { ecdsa: pass(20000), schnorr: pass(40000), ecdsa_one_per_key: pass(16000), schnorr_one_per_key: pass(25000) } };
  const w = withoutKeyReuseOf(totals);
  assert.ok(close(w.ecdsa_factor, 1.25) && close(w.schnorr_per_ecdsa, 0.8), JSON.stringify(w));
  // A one-per-key pass that ran faster (noise) never prices below the reuse: at least 1, at least the ratio.
  assert.deepEqual(withoutKeyReuseOf({ by_type: { ...totals.by_type, ecdsa_one_per_key: pass(30000), schnorr_one_per_key: pass(50000) } }),
    { ecdsa_factor: 1, schnorr_per_ecdsa: 0.5 });
  assert.equal(withoutKeyReuseOf({ by_type: { ecdsa: pass(20000), schnorr: pass(40000) } }), null);
  const base = projectChain({ blocks, table, endToEnd: e2e, schnorrPerEcdsa: 0.5 });
  const p = projectChain({ blocks, table, endToEnd: e2e, schnorrPerEcdsa: 0.5, withoutKeyReuse: w });
  assert.equal(base.without_key_reuse, null);
  assert.deepEqual(p.without_key_reuse, w);
  assert.equal(p.full_chain_hours.value, base.full_chain_hours.value);
  assert.equal(p.full_chain_hours.low, base.full_chain_hours.low);
  assert.ok(p.full_chain_hours.high > base.full_chain_hours.high, `${p.full_chain_hours.high} vs ${base.full_chain_hours.high}`);
  assert.deepEqual(p.costs.median, base.costs.median);
  assert.ok(close(p.costs.slow.verify.per_ecdsa, 1.25 * base.costs.slow.verify.per_ecdsa));
  assert.ok(close(p.costs.slow.verify.per_schnorr, 0.8 * base.costs.slow.verify.per_ecdsa));
  // The Taproot era holds the Schnorr checks: its high end moves more than the era before it.
  const era = (q, name) => q.eras.find((e) => e.name.startsWith(name)).hours.high;
  assert.ok(era(p, 'Nov 2021') / era(base, 'Nov 2021') > era(p, 'Aug 2017') / era(base, 'Aug 2017'));
  assert.deepEqual(p.per_block, base.per_block);
});

test('a projection\'s range always holds its value, even when a round\'s own fit prices the span above the median fit', () => {
  const table = readWorkloadTable();
  const scaleAll = (o, f) => (typeof o === 'number' ? o * f
    : Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v === null ? v : scaleAll(v, f)])));
  // The "fast" set fitted dearer than the median one (each set is fitted on its own blocks' rounds).
  const costs = { median: COSTS, fast: scaleAll(COSTS, 3), slow: scaleAll(COSTS, 0.2) };
  const h = spanHours({ costs, table, efficiency: 0.9, workers: 2, from: 0, to: table.tip });
  assert.ok(h.low <= h.value && h.value <= h.high, JSON.stringify(h));
  // The ends are the extremes over the three sets: the cheap mix under the slow (cheapest) set,
  // the dear mix under the fast (dearest) one.
  const cheap = spanHours({ costs: { median: COSTS, fast: costs.slow, slow: costs.slow }, table, efficiency: 0.9, workers: 2, from: 0, to: table.tip });
  const dear = spanHours({ costs: { median: COSTS, fast: costs.fast, slow: costs.fast }, table, efficiency: 0.9, workers: 2, from: 0, to: table.tip });
  assert.ok(close(h.low, cheap.low), `${h.low} vs ${cheap.low}`);
  assert.ok(close(h.high, dear.high), `${h.high} vs ${dear.high}`);
  assert.ok(h.low < h.value / 2 && h.high > 2 * h.value, JSON.stringify(h));
});

test('contenders: ibd-wasm\'s costs with the verify costs or every stage scaled by their in-run ratios', () => {
  const costs = { median: COSTS, fast: COSTS, slow: COSTS };
  const list = contenderCosts(costs, { tiny: { ecdsa: 3, schnorr: 4 }, native_whole_block: 0.5 });
  assert.deepEqual(list.map((c) => c.key), ['ibd-wasm', 'tiny', 'native']);
  const tiny = list[1].costs.median;
  assert.equal(tiny.verify.per_ecdsa, 0.05 * 3);
  assert.equal(tiny.verify.per_schnorr, 0.035 * 4);
  assert.deepEqual(tiny.parse, COSTS.parse); // the rest ibd-wasm's
  const native = list[2].costs.median;
  assert.equal(native.parse.per_byte, COSTS.parse.per_byte * 0.5);
  assert.equal(native.verify.per_ecdsa, 0.05 * 0.5);
});

test('contenders: measured in a browser, the measured projection is named after its Web Workers, Node\'s derived at the inverse ratio', () => {
  const costs = { median: COSTS, fast: COSTS, slow: COSTS };
  const ratios = { chromium_worker: { ecdsa: 0.8, schnorr: 0.5 }, tiny: { ecdsa: 3, schnorr: 4 } };
  const names = (list) => list.map((c) => `${c.key}: ${c.name}`);
  assert.deepEqual(names(contenderCosts(costs, ratios)), ['ibd-wasm: ibd-wasm simd, Node worker_threads (measured)',
    'chromium_worker: ibd-wasm simd, Chromium Web Workers', 'tiny: tiny-secp256k1 per call']);
  const chromium = contenderCosts(costs, ratios, { measuredOn: 'Chromium 156' });
  assert.deepEqual(names(chromium), ['ibd-wasm: ibd-wasm simd, Chromium 156 Web Workers (measured)',
    'node_worker: ibd-wasm simd, Node worker_threads', 'tiny: tiny-secp256k1 per call']);
  assert.equal(chromium[1].costs.median.verify.per_ecdsa, 0.05 / 0.8);
  assert.equal(chromium[1].costs.median.verify.per_schnorr, 0.035 / 0.5);
  assert.match(chromium[1].derivation, /Node's rates relative to the Chromium Web Worker's \(x1\.25 ECDSA, x2\.00 Schnorr\)/);
  // Another browser: the bench run measured Chromium only, so neither is derived.
  assert.deepEqual(names(contenderCosts(costs, ratios, { measuredOn: 'Firefox 133' })),
    ['ibd-wasm: ibd-wasm simd, Firefox 133 Web Workers (measured)', 'tiny: tiny-secp256k1 per call']);
});

test('contenders: a run of the wide (or scalar) variant is named so, and the others are derived from simd\'s costs by that variant\'s ratio', () => {
  const costs = { median: COSTS, fast: COSTS, slow: COSTS };
  const ratios = { wide: { ecdsa: 0.5, schnorr: 0.8 }, tiny: { ecdsa: 3, schnorr: 4 }, native_whole_block: 0.5 };
  const names = (list) => list.map((c) => `${c.key}: ${c.name}`);
  // A simd run in Chromium: the wide variant is a contender at its ratio.
  const simd = contenderCosts(costs, ratios, { measuredOn: 'Chromium 156' });
  assert.deepEqual(simd.map((c) => c.key), ['ibd-wasm', 'wide', 'tiny', 'native']);
  assert.equal(simd[1].costs.median.verify.per_ecdsa, 0.05 * 0.5);
  // In Node, without Chromium's ratio to Node, there is no wide line: wide runs only in browsers.
  assert.deepEqual(contenderCosts(costs, ratios).map((c) => c.key), ['ibd-wasm', 'tiny', 'native']);
  // A wide run: measured as wide; tiny's verify is simd's (wide's / 0.5) times 3; no wide contender.
  const wide = contenderCosts(costs, ratios, { measuredOn: 'Firefox 155', variant: 'wide' });
  assert.deepEqual(names(wide), ['ibd-wasm: ibd-wasm wide, Firefox 155 Web Workers (measured)', 'tiny: tiny-secp256k1 per call',
    'native: native build of the same engine (a stand-in for Core\'s script and signature work)']);
  assert.ok(close(wide[1].costs.median.verify.per_ecdsa, (0.05 / 0.5) * 3, 1e-12));
  assert.ok(close(wide[1].costs.median.verify.per_schnorr, (0.035 / 0.8) * 4, 1e-12));
  assert.ok(close(wide[2].costs.median.verify.per_ecdsa, (0.05 / 0.5) * 0.5, 1e-12));
  // Without the variant's ratio nothing can be derived from its costs.
  assert.deepEqual(names(contenderCosts(costs, { tiny: { ecdsa: 3, schnorr: 4 } }, { variant: 'wide' })),
    ['ibd-wasm: ibd-wasm wide, Node worker_threads (measured)']);
});

test('contenders: from Node\'s costs, the wide line is wide in a Chromium Web Worker (its ratio to simd times Chromium\'s to Node)', () => {
  const costs = { median: COSTS, fast: COSTS, slow: COSTS };
  const ratios = { wide: { ecdsa: 0.7, schnorr: 0.75 }, chromium_worker: { ecdsa: 1.1, schnorr: 1.2 } };
  const fromNode = contenderCosts(costs, ratios);
  const wide = fromNode.find((c) => c.key === 'wide');
  assert.match(wide.name, /^ibd-wasm wide, Chromium Web Workers/);
  assert.ok(close(wide.costs.median.verify.per_ecdsa, 0.05 * 0.7 * 1.1, 1e-12));
  assert.ok(close(wide.costs.median.verify.per_schnorr, 0.035 * 0.75 * 1.2, 1e-12));
  assert.match(wide.derivation, /times the Chromium Web Worker's relative to Node's \(x0\.77 ECDSA, x0\.90 Schnorr\)/);
  // Measured in Chromium (the page), the wide ratio applies alone: both are Chromium's.
  const onPage = contenderCosts(costs, ratios, { measuredOn: 'Chromium 156' }).find((c) => c.key === 'wide');
  assert.ok(close(onPage.costs.median.verify.per_ecdsa, 0.05 * 0.7, 1e-12));
  assert.doesNotMatch(onPage.name, /Chromium Web Workers/);
});

test('bench ratios from a bench results document, within its one run', () => {
  const speed = (name, type, rate, batch = null) => ({ name, type, sig_per_s: rate, batch_size: batch });
  const doc = {
    generated_at: 'test', command: 'npm run bench', machine: {},
    results: {
      speed: [speed('ibd-wasm simd', 'ecdsa', 100, 1), speed('ibd-wasm simd', 'ecdsa', 120, 256), speed('ibd-wasm simd', 'schnorr', 90, 1),
        speed('ibd-wasm simd', 'schnorr', 180, 2048), speed('ibd-wasm scalar', 'ecdsa', 120, 256), speed('ibd-wasm scalar', 'schnorr', 150, 256),
        speed('tiny-secp256k1', 'ecdsa', 40), speed('tiny-secp256k1', 'schnorr', 45)],
      engines: { v8_default: [{ variant: 'simd', type: 'ecdsa', sig_per_s: 110 }, { variant: 'simd', type: 'schnorr', sig_per_s: 170 }],
        chromium_worker: [{ variant: 'simd', type: 'ecdsa', sig_per_s: 100 }, { variant: 'simd', type: 'schnorr', sig_per_s: 170 }] },
      whole_block: { contenders: [
        { name: 'ibd-wasm simd', kind: 'wasm', per_block: [{ height: 1, seconds: [1, 2, 3] }, { height: 2, seconds: [4, 4, 4] }] },
        { name: 'native', kind: 'native', per_block: [{ height: 1, seconds: [1, 1, 1] }, { height: 2, seconds: [2, 2, 2] }] }] },
    },
  };
  const { ratios, missing } = benchRatios(doc);
  assert.deepEqual(ratios.tiny, { ecdsa: 3, schnorr: 4 });
  assert.deepEqual(ratios.scalar, { ecdsa: 1, schnorr: 180 / 150 });
  assert.deepEqual(ratios.no_batch, { ecdsa: 120 / 100, schnorr: 2 });
  assert.deepEqual(ratios.chromium_worker, { ecdsa: 1.1, schnorr: 1 });
  assert.equal(ratios.native_whole_block, 3 / 6); // medians 2 and 4 against 1 and 2
  assert.deepEqual(missing, ['noble']);
  assert.equal(ratios.wide, undefined, 'no wide rows: no wide ratio, and it is not listed as missing (it needs a browser with the proposal)');
  doc.results.speed.push(...[['simd', 'ecdsa', 130], ['simd', 'schnorr', 400], ['wide', 'ecdsa', 195], ['wide', 'schnorr', 500]]
    .map(([v, type, rate]) => ({ ...speed(`ibd-wasm ${v}, Chromium Web Worker`, type, rate, 2048), kind: 'chromium-worker' })));
  assert.deepEqual(benchRatios(doc).ratios.wide, { ecdsa: 130 / 195, schnorr: 400 / 500 });
});

test('leave-one-out from the sums equals fitting the others again, block by block', () => {
  // The fixture blocks' real workloads, with stage times off the given costs by a fixed,
  // uneven factor each (so that the fits differ from block to block).
  const census = readCensus();
  const blocks = census.blocks.map((w, k) => {
    const f = 1 + 0.3 * Math.sin(7 * k + 1);
    return measuredBlock(w.height, w, COSTS, { parse: f, sighash: 1 / f, script: f, verify: 2 - f });
  });
  const fast = fitCostsLeaveOneOut(blocks, RATIO);
  blocks.forEach((b, k) => {
    // The ECDSA key classes' mix stays every block's (a ratio over all the checks, as RATIO).
    const slow = fitCosts(blocks.filter((_, j) => j !== k), RATIO, ecdsaKeyMixOf(blocks));
    const [a, c] = [stagesTotal(predictStages(fast[k], b.workload)), stagesTotal(predictStages(slow, b.workload))];
    assert.ok(close(a, c, 1e-6), `block ${b.height}: ${a} vs ${c}`);
  });
  assert.throws(() => fitStageLeaveOneOut([{ features: [1], ms: 1 }]), RangeError);
});

test('a span\'s cheapest and dearest mix of input types: each type within its range, the types adding up to the inputs', () => {
  const zero = { value: 0, low: 0, high: 0 };
  const figures = Object.fromEntries(INPUT_TYPES.map(({ key }) => [`inputs_${key}`, zero]));
  // 100 inputs (80-120); P2PK and P2PKH each 0 to all of them, P2SH multisig 10 to 20.
  figures.inputs = { value: 100, low: 80, high: 120 };
  figures.inputs_p2pk = { value: 30, low: 0, high: 120 };
  figures.inputs_p2pkh = { value: 60, low: 0, high: 120 };
  figures.inputs_p2sh_multisig = { value: 10, low: 10, high: 20 };
  const costs = { script: { p2pk: 1, p2pkh: 2, 'p2sh-multisig': 5, per_input: 3 } };
  const high = extremeMix(costs, figures, 'high');
  // 120 inputs: multisig to its high (20), the other 100 to the dearer of the rest (p2pkh).
  assert.equal(high['p2sh-multisig'], 20);
  assert.equal(high.p2pkh, 100);
  assert.equal(high.p2pk, 0);
  const low = extremeMix(costs, figures, 'low');
  // 80 inputs: multisig at its low (10), the other 70 to the cheapest (p2pk).
  assert.deepEqual([low['p2sh-multisig'], low.p2pk, low.p2pkh], [10, 70, 0]);
  for (const mix of [high, low]) assert.equal(Object.values(mix).reduce((n, v) => n + v, 0), mix === high ? 120 : 80);
});
