// Whole blocks validated in the workers (workers/block-jobs.mjs over VerifyPool.validate): each
// worker's engine parses, checks, hashes, evaluates and verifies its blocks or ranges of a
// block, synchronously (validateBlock, wasm/API.md). On every fixture block, split into ranges
// and grouped: the merged results equal the single-threaded BlockValidation's byte for byte
// (checks, origins, verdicts) with the same verdict, fee and coverage; a bad block fails alone,
// naming what and where; a worker that exits, traps or hangs mid-block loses nothing.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { fixturesDir, loadBlocks } from '../blocks-fixtures/loader.mjs';
import { loadEngine } from '../wasm/engine.mjs';
import { encodeSpentOutputs } from '../wasm/spent-outputs.mjs';
import { mergeBlockResults, planBlockJobs, validateBlocksInPool } from '../workers/block-jobs.mjs';
import { nodeHost } from '../workers/node-host.mjs';
import { createPool } from '../workers/pool.mjs';
import { validateFixture } from './support/wasm.mjs';

const loaded = await loadBlocks(fixturesDir());
const blocks = loaded.map((b) => ({ block: b.block, spentOutputs: encodeSpentOutputs(b.spentOutputsJson), hash: b.hash, height: b.height }));
const engine = await loadEngine('simd');
const reference = new Map();
for (const b of loaded) reference.set(b.height, await validateFixture(engine, b));

const pool = createPool({ workers: 2 });
after(() => pool.close());

function assertSameAsReference(height, r) {
  const want = reference.get(height);
  assert.equal(r.ok, true, `${height}: ${r.error}`);
  assert.ok(Buffer.from(r.checks).equals(Buffer.from(want.checks)), `${height}: checks differ`);
  assert.ok(Buffer.from(r.origins.buffer, r.origins.byteOffset, r.origins.byteLength)
    .equals(Buffer.from(want.origins.buffer, want.origins.byteOffset, want.origins.byteLength)), `${height}: origins differ`);
  assert.ok(Buffer.from(r.verdicts).equals(Buffer.from(want.verdicts)), `${height}: verdicts differ`);
  assert.deepEqual([r.valid, r.rejectReason, r.fee, r.subsidy, r.sigopCost, r.inputs, r.ecdsa, r.schnorr],
    [want.valid, want.rejectReason, want.fee, want.subsidy, want.sigopCost, want.inputs, want.ecdsa, want.schnorr], String(height));
  assert.deepEqual(r.coverage, want.coverage, String(height));
  assert.deepEqual(r.notChecked.map((n) => n.rule), want.notChecked.map((n) => n.rule), String(height));
}

test('the plan groups small blocks and splits large ones into transaction ranges, the rules in one range', () => {
  const { groups, parts } = planBlockJobs(blocks, { workers: 2, targetInputs: 64 });
  const at = (h) => parts[blocks.findIndex((b) => b.height === h)];
  // 866,342 (7,972 inputs) is cut into 2 ranges per worker covering every tx once; only the
  // first runs the rules.
  const ranges = at(866342).map(({ group, job }) => groups[group][job].options);
  assert.equal(ranges.length, 4);
  assert.equal(ranges[3].txEnd, 4864);
  assert.equal(ranges[0].txBegin, 0);
  for (let k = 1; k < ranges.length; k++) assert.equal(ranges[k].txBegin, ranges[k - 1].txEnd);
  assert.deepEqual(ranges.map((o) => o.blockRules), ranges.map((_, k) => k === 0));
  // Blocks 170 .. 248 (one input each) share one message.
  const small = [170, 181, 182, 183, 187, 221, 248].map((h) => at(h));
  assert.ok(small.every((p) => p.length === 1 && p[0].group === small[0][0].group));
});

test('every fixture block validated in the workers, ranges merged, equals the single-threaded validation', async () => {
  for (const targetInputs of [64, 512]) {
    const results = await validateBlocksInPool(pool, blocks, { targetInputs });
    results.forEach((r, i) => assertSameAsReference(blocks[i].height, r));
  }
});

test('a bad block fails alone, named; the others complete', async () => {
  const bad = blocks.map((b) => ({ ...b }));
  const i = bad.findIndex((b) => b.height === 24835);
  bad[i].block = bad[i].block.subarray(0, 5000); // truncated
  const j = bad.findIndex((b) => b.height === 57043);
  const doc = JSON.parse(loaded[j].spentOutputsJson);
  doc.spent_outputs.pop(); // one spent output missing
  bad[j].spentOutputs = encodeSpentOutputs(doc);
  const results = await validateBlocksInPool(pool, bad, { targetInputs: 64 });
  assert.equal(results[i].ok, false);
  assert.match(results[i].error, /24835|unexpected end of data|byte/);
  assert.ok(results[i].byteOffset >= 0, results[i].error);
  assert.equal(results[j].ok, false);
  assert.match(results[j].error, /spent outputs list too short/);
  assert.equal(results[j].blockHash, blocks[j].hash);
  assert.ok(results[j].txIndex > 0 && results[j].inputIndex >= 0, results[j].error);
  results.forEach((r, k) => { if (k !== i && k !== j) assertSameAsReference(blocks[k].height, r); });
});

test('a rule-invalid block is rejected with Core\'s reason through the workers, ranges or not', async () => {
  // 403,200 claimed one higher: bad-cb-height in the range that runs the rules.
  const k = blocks.findIndex((b) => b.height === 403200);
  const wrong = [{ ...blocks[k], height: 403201 }];
  for (const targetInputs of [64, 4096]) {
    const [r] = await validateBlocksInPool(pool, wrong, { targetInputs });
    assert.equal(r.ok, false);
    assert.equal(r.rejectReason, 'bad-cb-height');
    assert.ok(r.notChecked.some((n) => n.rule === 'bip30'));
  }
  // A failing script in a later range is the block's verdict, with its tx and input.
  const m = blocks.findIndex((b) => b.height === 866342);
  const single = await validateBlocksInPool(pool, [blocks[m]], { targetInputs: 100000 });
  const doc = JSON.parse(loaded[m].spentOutputsJson);
  const last = doc.spent_outputs.length - 1;
  doc.spent_outputs[last].value += 1; // the block's last input: its sighash (segwit / taproot) changes
  const [r] = await validateBlocksInPool(pool, [{ ...blocks[m], spentOutputs: encodeSpentOutputs(doc) }], { targetInputs: 64 });
  assert.equal(r.valid, false);
  assert.equal(r.rejectReason, 'mandatory-script-verify-flag-failed');
  assert.equal(r.txIndex, single[0].txCount - 1);
  assert.deepEqual(r.inputFailures.map((f) => f.tx), [single[0].txCount - 1]);
});

const FAULT_WORKER = new URL('./support/fault-verify-worker.mjs', import.meta.url);

test('a worker that exits, traps or hangs mid-block loses nothing: its group is re-run elsewhere', async () => {
  const counter = new Int32Array(new SharedArrayBuffer(4));
  const faulty = createPool({
    workers: 2,
    batchTimeoutMs: 5000,
    host: nodeHost({ workerUrl: FAULT_WORKER, workerData: { variant: 'simd', counter, faults: { 2: 'exit', 5: 'trap', 9: 'hang' } } }),
  });
  try {
    const results = await validateBlocksInPool(faulty, blocks, { targetInputs: 64 });
    results.forEach((r, i) => assertSameAsReference(blocks[i].height, r));
    assert.ok(faulty.replacements >= 3, `${faulty.replacements} replacements`);
  } finally {
    await faulty.close();
  }
});

test('mergeBlockResults refuses ranges where none ran the block rules', () => {
  const r = { ok: true, blockRulesChecked: false };
  assert.throws(() => mergeBlockResults([r, r]), /no range ran the block rules/);
});

test('validateBlock names a wrong argument or option and a malformed binary spent outputs list; it never throws', () => {
  const b = blocks.find((x) => x.height === 170);
  const call = (...args) => engine.validateBlock(...args);
  assert.match(call(null, b.spentOutputs, b.hash, 170, undefined).error, /block must be a Uint8Array/);
  assert.match(call(b.block, 5, b.hash, 170, undefined).error, /spentOutputs must be a Uint8Array \(the binary form\) or a string/);
  assert.match(call(b.block, b.spentOutputs, b.hash, 170, { txBegin: -1 }).error, /options\.txBegin must be an integer/);
  assert.match(call(b.block, b.spentOutputs, b.hash, 170, { blockRules: 1 }).error, /options\.blockRules must be a boolean/);
  assert.match(call(b.block, b.spentOutputs, b.hash, 170, { verify: 'later' }).error, /options\.verify must be "synchronous" or "rounds"/);
  const cut = call(b.block, b.spentOutputs.subarray(0, b.spentOutputs.length - 2), b.hash, 170, undefined);
  assert.equal(cut.ok, false);
  assert.match(cut.error, /spent output 0: /);
  assert.ok(cut.byteOffset > 8);
  // The JSON text is accepted too, with the same result; rounds give it as well.
  const json = loaded.find((x) => x.height === 170).spentOutputsJson;
  for (const r of [call(b.block, json, b.hash, 170, undefined), call(b.block, b.spentOutputs, b.hash, 170, { verify: 'rounds' })]) {
    assertSameAsReference(170, r);
  }
  assertSameAsReference(170, call(b.block, b.spentOutputs, b.hash, 170, undefined));
});

test('encodeSpentOutputs refuses what it cannot encode exactly, naming the entry', () => {
  const doc = (e) => ({ spent_outputs: [{ txid: 'ab'.repeat(32), vout: 0, value: 5, script_pubkey: '51', ...e }] });
  assert.throws(() => encodeSpentOutputs(doc({ txid: 'abcd' })), /spent_outputs\[0\]\.txid: not 64 hex digits/);
  assert.throws(() => encodeSpentOutputs(doc({ vout: -1 })), /spent_outputs\[0\]\.vout/);
  assert.throws(() => encodeSpentOutputs(doc({ value: 2 ** 60 })), /spent_outputs\[0\]\.value: not an exact integer/);
  assert.throws(() => encodeSpentOutputs(doc({ script_pubkey: '5' })), /spent_outputs\[0\]\.script_pubkey: not hex/);
  assert.throws(() => encodeSpentOutputs('{"x": 1}'), /"spent_outputs" is missing/);
  // Out of the money range but exact: kept, for the engine's verdict.
  assert.equal(encodeSpentOutputs(doc({ value: -1 })).length, 8 + 44 + 1 + 1);
});
