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
import { parseBlock, spentTxOutsBody } from './support/write-datadir.mjs';

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
  assert.equal(r.inputVerdicts.length, want.inputs, `${height}: one input verdict per input`);
  assert.ok(Buffer.from(r.inputVerdicts).equals(Buffer.from(want.inputVerdicts)), `${height}: input verdicts differ`);
  assert.deepEqual([r.valid, r.rejectReason, r.fee, r.subsidy, r.sigopCost, r.inputs, r.ecdsa, r.schnorr],
    [want.valid, want.rejectReason, want.fee, want.subsidy, want.sigopCost, want.inputs, want.ecdsa, want.schnorr], String(height));
  assert.deepEqual(r.coverage, want.coverage, String(height));
  assert.deepEqual(r.sighash, want.sighash, `${height}: the sighash workload`);
  assert.deepEqual(r.notChecked.map((n) => n.rule), want.notChecked.map((n) => n.rule), String(height));
}

test('the plan groups small blocks and splits large ones into transaction ranges, the rules in a range of their own', () => {
  const { groups, parts } = planBlockJobs(blocks, { workers: 2, targetInputs: 64 });
  const at = (h) => parts[blocks.findIndex((b) => b.height === h)];
  // 866,342 (7,972 inputs, 4,864 txs): the block rules alone in a first range (the coinbase),
  // then 2 ranges per worker covering every other tx once, none of them running the rules.
  const ranges = at(866342).map(({ group, job }) => groups[group][job].options);
  assert.equal(ranges.length, 1 + 4);
  assert.deepEqual([ranges[0].txBegin, ranges[0].txEnd, ranges[0].blockRules], [0, 1, true]);
  assert.equal(ranges[1].txBegin, 1);
  assert.equal(ranges[4].txEnd, 4864);
  for (let k = 2; k < ranges.length; k++) assert.equal(ranges[k].txBegin, ranges[k - 1].txEnd);
  assert.deepEqual(ranges.map((o) => o.blockRules), ranges.map((_, k) => k === 0));
  // A higher cap, and a block cut into fewer ranges when it has fewer inputs.
  const more = planBlockJobs(blocks, { workers: 2, targetInputs: 64, maxRangesPerWorker: 8 });
  assert.equal(more.parts[blocks.findIndex((b) => b.height === 866342)].length, 1 + 16);
  const few = planBlockJobs(blocks, { workers: 2, targetInputs: 512, maxRangesPerWorker: 8 });
  assert.equal(few.parts[blocks.findIndex((b) => b.height === 403200)].length, 1 + Math.ceil(1036 / 512));
  // Blocks 170 .. 248 (one input each) share one message.
  const small = [170, 181, 182, 183, 187, 221, 248].map((h) => at(h));
  assert.ok(small.every((p) => p.length === 1 && p[0].group === small[0][0].group));
});

test('every fixture block validated in the workers, ranges merged, equals the single-threaded validation', async () => {
  for (const [targetInputs, maxRangesPerWorker] of [[64, undefined], [512, undefined], [16, 64], [64, 1], [64, 8]]) {
    const results = await validateBlocksInPool(pool, blocks, { targetInputs, maxRangesPerWorker });
    results.forEach((r, i) => assertSameAsReference(blocks[i].height, r));
  }
});

test('the blocks are copied at the call into reused shared memory: concurrent calls keep their own, the caller may change its bytes at once', async () => {
  const some = [57043, 210000, 866342].map((h) => blocks.find((b) => b.height === h));
  const mine = some.map((b) => ({ ...b, block: b.block.slice(), spentOutputs: b.spentOutputs.slice() }));
  await validateBlocksInPool(pool, some); // the ring has grown to the peak these calls need
  const peak = pool.sharedBytes;
  assert.ok(peak >= some.reduce((n, b) => n + b.block.length + b.spentOutputs.length, 0), `${peak} bytes`);
  for (let r = 0; r < 3; r++) {
    const calls = [validateBlocksInPool(pool, mine), validateBlocksInPool(pool, some)];
    for (const b of mine) { b.block.fill(0); b.spentOutputs.fill(0xff); } // after the call: not seen
    const [first, second] = await Promise.all(calls);
    first.forEach((res, i) => assertSameAsReference(some[i].height, res));
    second.forEach((res, i) => assertSameAsReference(some[i].height, res));
    mine.forEach((b, i) => { b.block.set(some[i].block); b.spentOutputs.set(some[i].spentOutputs); });
  }
  assert.ok(pool.sharedBytes <= 2 * peak, `the ring grew from ${peak} to ${pool.sharedBytes} bytes over calls that fit in it twice`);
});

/** validateBlock over `cuts` (tx indices; the block rules in a range of their own first, or in
 *  the first range), in this thread's engine, merged. */
function mergedRanges(b, cuts, rulesAlone) {
  const jobs = rulesAlone ? [[0, 1, true]] : [];
  for (let k = 0; k + 1 < cuts.length; k++) jobs.push([cuts[k], cuts[k + 1], !rulesAlone && k === 0]);
  return mergeBlockResults(jobs.map(([txBegin, txEnd, blockRules]) =>
    engine.validateBlock(b.block, b.spentOutputs, b.hash, b.height, { txBegin, txEnd, blockRules })));
}

test('any cut of any fixture block into ranges, merged, equals the whole block byte for byte', () => {
  for (const b of blocks) {
    const { txCount } = reference.get(b.height);
    // Single-transaction ranges for the small blocks, thirds and uneven cuts for all.
    const cutsList = [[0, Math.floor(txCount / 3), Math.floor((2 * txCount) / 3), txCount], [0, 1, 2, txCount]];
    if (txCount <= 64) cutsList.push(Array.from({ length: txCount + 1 }, (_, k) => k));
    for (const cuts of cutsList) {
      for (const rulesAlone of [true, false]) {
        const r = mergedRanges(b, [...new Set(cuts.map((c) => Math.min(c, txCount)))], rulesAlone);
        assertSameAsReference(b.height, r);
        assert.deepEqual([r.txBegin, r.txEnd, r.failedInputs, r.inputFailures], [0, txCount, 0, []], String(b.height));
      }
    }
  }
});

test('a range reads only its own transactions and spent outputs, yet a malformed block or list fails it as the whole block, named', () => {
  const b = blocks.find((x) => x.height === 866342);
  const { txCount } = reference.get(866342);
  const late = { txBegin: txCount - 10, txEnd: txCount, blockRules: false };
  // Truncated in a transaction before the range, in it, and after the last one's end: the
  // range's failure is the whole block's, naming block hash, tx, input and byte offset.
  for (const length of [200000, b.block.length - 300, b.block.length - 1]) {
    const cut = b.block.subarray(0, length);
    const whole = engine.validateBlock(cut, b.spentOutputs, b.hash, b.height, undefined);
    const range = engine.validateBlock(cut, b.spentOutputs, b.hash, b.height, late);
    assert.equal(whole.ok, false);
    assert.deepEqual(range, whole, `truncated at ${length}`);
    assert.equal(range.blockHash, b.hash);
    assert.ok(range.txIndex > 0 && range.byteOffset > 0 && range.byteOffset <= length, range.error);
  }
  // A spent outputs list one entry short, or truncated, fails every range, named.
  const doc = JSON.parse(loaded.find((x) => x.height === 866342).spentOutputsJson);
  doc.spent_outputs.pop();
  const short = encodeSpentOutputs(doc);
  const wholeShort = engine.validateBlock(b.block, short, b.hash, b.height, undefined);
  assert.match(wholeShort.error, /spent outputs list too short: 7971 entries, no entry for this input/);
  assert.deepEqual([wholeShort.blockHash, wholeShort.txIndex], [b.hash, txCount - 1]);
  assert.ok(wholeShort.inputIndex >= 0 && wholeShort.byteOffset > 0, wholeShort.error);
  const cutList = b.spentOutputs.subarray(0, b.spentOutputs.length - 5);
  const wholeCut = engine.validateBlock(b.block, cutList, b.hash, b.height, undefined);
  assert.match(wholeCut.error, /spent output 7971: /);
  for (const options of [late, { txBegin: 1, txEnd: 5, blockRules: false }]) {
    assert.deepEqual(engine.validateBlock(b.block, short, b.hash, b.height, options), wholeShort);
    assert.deepEqual(engine.validateBlock(b.block, cutList, b.hash, b.height, options), wholeCut);
  }
  // An outpoint that does not match its input is found by the range holding the input and by
  // the range with the block rules.
  const swapped = JSON.parse(loaded.find((x) => x.height === 866342).spentOutputsJson);
  swapped.spent_outputs[7971].vout += 1;
  const bad = encodeSpentOutputs(swapped);
  assert.match(engine.validateBlock(b.block, bad, b.hash, b.height, late).error, /spent output entry 7971 is for outpoint/);
  assert.match(engine.validateBlock(b.block, bad, b.hash, b.height, { txBegin: 0, txEnd: 1, blockRules: true }).error,
    /spent output entry 7971 is for outpoint/);
  assert.equal(engine.validateBlock(b.block, bad, b.hash, b.height, { txBegin: 1, txEnd: 10, blockRules: false }).ok, true);
});

test('nothing of one block is served to another: a mutated copy under the same hash, then the original, each get their own result', () => {
  const b = blocks.find((x) => x.height === 403200);
  const last = reference.get(403200).txCount - 1;
  const lastRange = { txBegin: last, txEnd: last + 1, blockRules: false };
  const original = engine.validateBlock(b.block, b.spentOutputs, b.hash, b.height, lastRange);
  assert.equal(original.valid, true, original.error);
  assert.ok(original.checks.length > 0);
  // The last tx's last output script changed by one bit; the header, so the claimed hash, is
  // the same: the range evaluates the bytes it is given (the signatures cover the outputs).
  const mutated = new Uint8Array(b.block);
  mutated[mutated.length - 5] ^= 0x01;
  const changed = engine.validateBlock(mutated, b.spentOutputs, b.hash, b.height, lastRange);
  assert.equal(changed.ok, true, changed.error);
  assert.equal(changed.valid, false);
  assert.equal(changed.txIndex, last);
  assert.ok(!Buffer.from(changed.checks).equals(Buffer.from(original.checks)), 'the mutated tx has its own sighashes');
  const again = engine.validateBlock(b.block, b.spentOutputs, b.hash, b.height, lastRange);
  assert.ok(Buffer.from(again.checks).equals(Buffer.from(original.checks)));
  assert.equal(again.valid, true);
  // The mutated copy's rules range: its merkle root no longer matches.
  const rules = engine.validateBlock(mutated, b.spentOutputs, b.hash, b.height, { txBegin: 0, txEnd: 1, blockRules: true });
  assert.equal(rules.rejectReason, 'bad-txnmrklroot');
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

// Every part of the plan names a job of its own block, whatever the worker count and the blocks
// (a hostile review found a small block after a split one pointed at the split block's range:
// blocks 170, 403200 and 757739 on 2 workers, and all 24 blocks on 19-23 workers).
test('every block\'s parts point at its own jobs, for 1..64 workers and subsets of blocks', () => {
  const check = (list, workers) => {
    const { groups, parts } = planBlockJobs(list, { workers });
    list.forEach((b, i) => {
      assert.ok(parts[i].length >= 1);
      for (const { group, job } of parts[i]) {
        assert.equal(groups[group]?.[job]?.hash, b.hash, `workers ${workers}: block ${b.height} at group ${group} job ${job}`);
      }
    });
    const placed = parts.flat().map(({ group, job }) => `${group}:${job}`);
    assert.equal(new Set(placed).size, groups.reduce((n, g) => n + g.length, 0), 'each job is one part');
  };
  for (let workers = 1; workers <= 64; workers++) check(blocks, workers);
  const byHeight = (hs) => hs.map((h) => blocks.find((b) => b.height === h));
  for (const hs of [[170, 403200, 757739], [403200, 170], [866342, 170, 367891, 181]]) check(byHeight(hs), 2);
});

test('a split block\'s ranges carry shares of its work that sum to 1 beside the rules range\'s; a tx count its bytes cannot hold is not cut', () => {
  const { groups, parts } = planBlockJobs(blocks, { workers: 2, targetInputs: 64 });
  const jobs = parts[blocks.findIndex((b) => b.height === 866342)].map(({ group, job }) => groups[group][job]);
  assert.equal(jobs[0].share, 0.25);
  const sum = jobs.slice(1).reduce((n, j) => n + j.share, 0);
  assert.ok(Math.abs(sum - 1) < 1e-12, String(sum));
  // 367,891 claiming 2^64 - 1 transactions (CompactSize ff ff..ff): validated whole, no range.
  const b = blocks.find((x) => x.height === 367891);
  const huge = new Uint8Array(b.block.length + 8);
  huge.set(b.block.subarray(0, 80));
  huge.set([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], 80);
  huge.set(b.block.subarray(83), 89); // 367,891's count is fd xx xx: the rest after it
  const plan = planBlockJobs([{ ...b, block: huge }], { workers: 2, targetInputs: 64 });
  assert.deepEqual(plan.groups.map((g) => g.length), [1]);
  assert.equal(plan.groups[0][0].options.txBegin, undefined);
});

test('a block that traps its worker every time fails alone, named, with workerFault; its group\'s other blocks and the other groups complete', async () => {
  const some = [170, 181, 182, 57043].map((h) => blocks.find((b) => b.height === h));
  const faulty = createPool({ workers: 2, host: nodeHost({ workerUrl: FAULT_WORKER, workerData: { variant: 'simd', trapHeight: 181 } }) });
  try {
    const results = await validateBlocksInPool(faulty, some);
    assert.equal(results[1].ok, false);
    assert.equal(results[1].workerFault, true);
    assert.match(results[1].error, new RegExp(`^block ${some[1].hash} \\(height 181\\): the validation of block 181 failed 3 times .*RuntimeError`, 's'));
    for (const k of [0, 2, 3]) assertSameAsReference(some[k].height, results[k]);
  } finally {
    await faulty.close();
  }
});

test('a worker that exits, traps, runs out of memory or hangs mid-block loses nothing: its group is re-run elsewhere', async () => {
  const counter = new Int32Array(new SharedArrayBuffer(4));
  const faulty = createPool({
    workers: 2,
    batchTimeoutMs: 5000,
    host: nodeHost({ workerUrl: FAULT_WORKER, workerData: { variant: 'simd', counter, faults: { 2: 'exit', 5: 'trap', 7: 'oom', 9: 'hang' } } }),
  });
  try {
    const results = await validateBlocksInPool(faulty, blocks, { targetInputs: 64 });
    results.forEach((r, i) => assertSameAsReference(blocks[i].height, r));
    assert.ok(faulty.replacements >= 4, `${faulty.replacements} replacements`);
  } finally {
    await faulty.close();
  }
});

test('validateBlocksInPool names a block whose spent outputs are JSON text, or whose bytes are no Uint8Array, with the form expected', async () => {
  const b = blocks.find((x) => x.height === 170);
  const json = loaded.find((x) => x.height === 170).spentOutputsJson;
  // A hostile tester's call: V8's bare "First argument to DataView constructor must be an ArrayBuffer".
  await assert.rejects(validateBlocksInPool(pool, [blocks[0], { ...b, spentOutputs: json }]), (err) => {
    assert.ok(err instanceof TypeError, String(err));
    assert.match(err.message, new RegExp(`blocks\\[1\\] \\(height 170, hash ${b.hash}\\): spentOutputs must be a Uint8Array in the binary form \\(IBS1`));
    assert.match(err.message, new RegExp(`got a string of ${json.length} characters \\(spent_outputs\\.json's text\\? .*encodeSpentOutputs`));
    return true;
  });
  await assert.rejects(validateBlocksInPool(pool, [{ ...b, block: b.block.buffer.slice(0) }]),
    /^TypeError: planBlockJobs: blocks\[0\] \(height 170, hash [0-9a-f]{64}\): block must be a Uint8Array \(the serialized block\), got ArrayBuffer$/);
  assert.throws(() => planBlockJobs([{ ...b, hash: '', spentOutputs: [1, 2] }], { workers: 2 }),
    /blocks\[0\] \(height 170, hash not given\): spentOutputs must be .* got Array$/);
});

test('without the block rules a verdict lists what they cover as not checked; joined with the range that ran them, the block\'s list is the whole block\'s', () => {
  // A hostile tester's block: 403,200 with a merkle root byte flipped (so its header hash, and
  // proof of work, too). Whole, it fails high-hash; without the block rules it answered
  // valid with notChecked empty.
  const b = blocks.find((x) => x.height === 403200);
  const bad = b.block.slice();
  bad[40] ^= 1;
  assert.equal(engine.validateBlock(bad, b.spentOutputs, '', b.height, undefined).rejectReason, 'high-hash');
  const stages = ['proof-of-work', 'merkle-root', 'check-block', 'contextual-header', 'contextual-block', 'tx-inputs', 'connect-block'];
  const whole = reference.get(403200).notChecked.map((n) => n.rule);
  for (const options of [{ blockRules: false }, { blockRules: false, skipProofOfWork: true }]) {
    const r = engine.validateBlock(bad, b.spentOutputs, '', b.height, options);
    assert.deepEqual([r.ok, r.valid, r.blockRulesChecked], [true, true, false], JSON.stringify(options));
    // The stages the block rules hold, then what no call checks (as the whole block lists it);
    // proof-of-work once; nothing about a range, since this one covers every transaction.
    assert.deepEqual(r.notChecked.map((n) => n.rule), [...stages, ...whole], JSON.stringify(options));
    assert.match(r.notChecked[0].reason, /high-hash, CheckBlockHeader\): this call ran without the block rules \(blockRules false/);
    assert.match(r.notChecked[1].reason, /bad-txnmrklroot/);
  }
  // A split block's ranges without the rules list them and what lies outside their range; the
  // merge keeps the rules range's list, which drops them all once the ranges cover the block.
  const { txCount } = reference.get(403200);
  const ranges = [[0, 1, true], [1, 300, false], [300, txCount, false]].map(([txBegin, txEnd, blockRules]) =>
    engine.validateBlock(b.block, b.spentOutputs, b.hash, b.height, { txBegin, txEnd, blockRules }));
  for (const r of ranges.slice(1)) {
    const rules = r.notChecked.map((n) => n.rule);
    assert.deepEqual(rules, [...stages, ...whole, 'spent-outputs-outside-range', 'scripts-outside-range']);
  }
  assert.deepEqual(mergeBlockResults(ranges).notChecked, reference.get(403200).notChecked);
  // Ranges that leave transactions out keep the rules range's scripts-outside-range, and only it.
  const partial = mergeBlockResults(ranges.slice(0, 2)).notChecked.map((n) => n.rule);
  assert.deepEqual(partial, [...whole, 'scripts-outside-range']);
});

test('a REST spenttxouts body (IBT1) is planned from its size, as the binary form is from its count', () => {
  // A hostile review found the bytes after the tag read as an input count (they are the first
  // lists' bytes), which cut blocks of a few inputs into ranges.
  const asRest = blocks.map((b, i) => {
    const spent = JSON.parse(loaded[i].spentOutputsJson).spent_outputs;
    let k = 0;
    const txUndos = parseBlock(b.block).slice(1).map((tx) => tx.ins.map(() => {
      const o = spent[k++];
      return { value: BigInt(o.value), script: Buffer.from(o.script_pubkey, 'hex') };
    }));
    return { ...b, spentOutputs: new Uint8Array(Buffer.concat([Buffer.from('IBT1'), spentTxOutsBody(txUndos)])) };
  });
  const binary = planBlockJobs(blocks, { workers: 2 });
  const rest = planBlockJobs(asRest, { workers: 2 });
  const rangesOf = (plan, h) => plan.parts[blocks.findIndex((b) => b.height === h)].length;
  for (const h of [170, 57043, 553724, 757739]) assert.equal(rangesOf(rest, h), 1, `block ${h} is not cut`);
  assert.equal(rangesOf(rest, 866342), rangesOf(binary, 866342), 'block 866,342 is cut as with the binary form');
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
  // An empty range is refused, not reported valid (a hostile review found ok, valid, 0 inputs).
  assert.match(call(b.block, b.spentOutputs, b.hash, 170, { txBegin: 10, txEnd: 5 }).error,
    /options\.txEnd \(5\) must be at least options\.txBegin \(10\): an empty range validates nothing/);
  // No input in the range and no block rules: it claims nothing (no input, and notChecked lists
  // every rule and script), whether the range is empty as given or once clamped to the block's
  // 2 transactions.
  for (const [txBegin, txEnd] of [[1, 1], [0, 1], [1e6, undefined]]) {
    const r = call(b.block, b.spentOutputs, b.hash, 170, { txBegin, txEnd, blockRules: false });
    assert.deepEqual([r.ok, r.inputs, r.blockRulesChecked], [true, 0, false], `[${txBegin}, ${txEnd})`);
    const rules = r.notChecked.map((n) => n.rule);
    assert.deepEqual([rules[0], rules[1], rules.at(-2), rules.at(-1)],
      ['proof-of-work', 'merkle-root', 'spent-outputs-outside-range', 'scripts-outside-range'], `[${txBegin}, ${txEnd})`);
    assert.match(r.notChecked.at(-1).reason, /holds none of the block's 2 transactions' inputs, so it checked the block's parse and its spent outputs' count alone/);
  }
  // With the block rules, a range without the block's inputs is the rules alone, and says so.
  for (const [txBegin, txEnd] of [[1, 1], [0, 1], [1e6, undefined]]) {
    const r = call(b.block, b.spentOutputs, b.hash, 170, { txBegin, txEnd, blockRules: true });
    assert.equal(r.ok, true, r.error);
    assert.equal(r.inputs, 0);
    const skipped = r.notChecked.find((n) => n.rule === 'scripts-outside-range');
    assert.ok(skipped, `[${txBegin}, ${txEnd}): ${JSON.stringify(r.notChecked)}`);
    assert.match(skipped.reason, /holds none of the block's 2 transactions' inputs, so it checked the block rules alone/);
  }
  // The whole block lists no such entry.
  assert.ok(!call(b.block, b.spentOutputs, b.hash, 170, undefined).notChecked.some((n) => n.rule === 'scripts-outside-range'));
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

test('validateBlock refuses an options key that is no option, naming it and the known ones, whatever its value', () => {
  // A typo was ignored and its default used (a hostile tester's { verfy: false }).
  const b = blocks.find((x) => x.height === 170);
  const known = '(known: medianTimePast, skipProofOfWork, txBegin, txEnd, blockRules, verify, schnorrBatch)';
  for (const [options, name] of [[{ verfy: false }, 'options.verfy'], [{ blockRules: false, blockrules: true }, 'options.blockrules'],
    [{ txBegin: 1, 'tx end': undefined }, 'options["tx end"]'], [{ height: 170 }, 'options.height']]) {
    for (const spent of [b.spentOutputs, loaded.find((x) => x.height === 170).spentOutputsJson]) {
      const r = engine.validateBlock(b.block, spent, b.hash, 170, options);
      assert.deepEqual([r.ok, r.error, r.reason], [false, `${name} is not an option of validateBlock ${known}`, r.error], JSON.stringify(options));
    }
  }
  // Every known one, and keys a prototype holds (Object.keys: own keys only), are accepted.
  const all = { medianTimePast: 1, skipProofOfWork: false, txBegin: 0, txEnd: 2, blockRules: true, verify: 'synchronous', schnorrBatch: true };
  assert.equal(engine.validateBlock(b.block, b.spentOutputs, b.hash, 170, all).ok, true);
  assert.equal(engine.validateBlock(b.block, b.spentOutputs, b.hash, 170, Object.create({ verfy: 1 })).ok, true);
});

test('encodeSpentOutputs refuses what it cannot encode exactly, naming the entry', () => {
  const doc = (e) => ({ spent_outputs: [{ txid: 'ab'.repeat(32), vout: 0, value: 5, script_pubkey: '51', ...e }] });
  assert.throws(() => encodeSpentOutputs(doc({ txid: 'abcd' })), /spent_outputs\[0\]\.txid: not 64 hex digits/);
  assert.throws(() => encodeSpentOutputs(doc({ vout: -1 })), /spent_outputs\[0\]\.vout/);
  assert.throws(() => encodeSpentOutputs(doc({ value: 2 ** 60 })), /spent_outputs\[0\]\.value: not an exact integer/);
  assert.throws(() => encodeSpentOutputs(doc({ value: '5000' })), /spent_outputs\[0\]\.value: not a number but a string: "5000"/);
  assert.throws(() => encodeSpentOutputs(doc({ script_pubkey: '5' })), /spent_outputs\[0\]\.script_pubkey: not hex/);
  assert.throws(() => encodeSpentOutputs('{"x": 1}'), /"spent_outputs" is missing/);
  // Out of the money range but exact: kept, for the engine's verdict.
  assert.equal(encodeSpentOutputs(doc({ value: -1 })).length, 8 + 44 + 1 + 1);
});
