// The workload table (bench/workload/): the arithmetic of C(h) and of a span's workload on tiny
// hand-checked inputs; the saved table against a fresh build (never stale), its rows against its
// totals, its transactions against the chainTxData points it was built from, blocks
// 0-150,000 against the census's 2,868,199 checks, and the saved fixture census against the
// engine. Also: which measurement file a run saves.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { fixturesDir, loadBlocks } from '../blocks-fixtures/loader.mjs';
import { cumulativeTx, INPUT_TYPES, knownIn, totalChecks, txCount, workloadFor } from '../bench/core/workload-model.mjs';
import { heightAtTime, heightAtTimeError, interpolationError, readTxCountPoints } from '../bench/workload/chain-data.mjs';
import { fixtureCensus, readCensus } from '../bench/workload/census.mjs';
import { buildTable, ERA_SOURCES_PATH, loadWorkloadModel, RATIOS, TABLE_PATH, txAnchors } from '../bench/workload/table.mjs';
import { measurementProblem } from '../bench/workload/measurement.mjs';
import { loadEngine } from '../wasm/engine.mjs';
import { REPO_ROOT } from '../wasm/paths.mjs';

const census = readCensus();
const model = loadWorkloadModel({ census });
const table = buildTable(model);

test('C(h) and a span\'s transactions on hand-checked anchors', () => {
  // Three exact points: 0 -> 1, 100 -> 1,001 (10 per block), 200 -> 3,001 (20 per block).
  const anchors = [{ height: 0, tx_count: 1 }, { height: 100, tx_count: 1001 }, { height: 200, tx_count: 3001 }];
  assert.deepEqual(cumulativeTx(anchors, 100, 0.1), { value: 1001, low: 1001, high: 1001 });
  // Mid-gap: 1 + 50 x 10 = 501, widened by 0.1 x 1,000 x 2 x 0.5 = 100 either way.
  assert.deepEqual(cumulativeTx(anchors, 50, 0.1), { value: 501, low: 401, high: 601 });
  assert.deepEqual(cumulativeTx(anchors, -1, 0.1), { value: 0, low: 0, high: 0 });
  assert.throws(() => cumulativeTx(anchors, 201, 0.1), RangeError);
  // Heights 101..110: 10 blocks at 20 per block = 200; by the rate bound 200 x (1 -+ 0.2).
  const t = txCount(anchors, 101, 110, 0.1);
  assert.equal(t.value, 200);
  assert.ok(Math.abs(t.low - 160) < 1e-9 && Math.abs(t.high - 240) < 1e-9, JSON.stringify(t));
  // Between two exact points the span is exact.
  assert.deepEqual(txCount(anchors, 101, 200, 0.1), { value: 2000, low: 2000, high: 2000 });
  // Leave one out: 100 predicted from 0 and 200 as 1,501, off by 500 of the 3,000 increase.
  assert.deepEqual(interpolationError(anchors), { ratio: 500 / 3000, at: 100 });
  // A coinbase per block: never fewer transactions than blocks.
  assert.equal(cumulativeTx([{ height: 0, tx_count: 1 }, { height: 100, tx_count: 50 }], 60, 0).value, 61);
});

test('the fixture blocks\' transactions are floors of C(h) and of a span; their inputs count as they are', () => {
  // 50 transactions in blocks 0..100 would be fewer than a coinbase per block: 61 at height 60,
  // and a block of 3 transactions at 60 (2 besides its coinbase) makes it 63 from there.
  const anchors = [{ height: 0, tx_count: 1 }, { height: 100, tx_count: 50 }];
  const known = [{ height: 60, txs: 3, inputs: 40 }];
  assert.deepEqual(knownIn(known, 0, 60), { txs: 3, ncb: 2, inputs: 40 });
  assert.deepEqual(knownIn(known, 61, 100), { txs: 0, ncb: 0, inputs: 0 });
  assert.equal(cumulativeTx(anchors, 59, 0, known).value, 60);
  assert.equal(cumulativeTx(anchors, 60, 0, known).value, 63);
  assert.deepEqual(txCount(anchors, 60, 60, 0, known), { value: 3, low: 3, high: 3 });
  // A span's inputs: the known block's 40, and the era's 2 (1-3) per other non-coinbase
  // transaction: 1,000 transactions in 100 blocks, 900 non-coinbase, 11 of them in block 50.
  const ratio = (value, low = value, high = value, per = 'inputs') => ({ value, low, high, per });
  const ratios = { ...Object.fromEntries(Object.keys(RATIOS).map((k) => [k, ratio(0)])), inputs_per_ncb_tx: ratio(2, 1, 3, 'ncb_txs'),
    ecdsa_single_per_input: ratio(1) };
  const tiny = { anchors: [{ height: 0, tx_count: 1 }, { height: 99, tx_count: 1000 }], interp: { ratio: 0 },
    eras: [{ name: 'one', from: 0, to: 100, ratios }], known_blocks: [{ height: 50, txs: 12, inputs: 40 }] };
  const w = workloadFor(tiny, 0, 99);
  assert.deepEqual(w.figures.inputs, { value: 40 + 889 * 2, low: 40 + 889, high: 40 + 889 * 3 });
  assert.deepEqual(w.figures.checks_ecdsa_single, w.figures.inputs);
  assert.deepEqual(workloadFor(tiny, 50, 50).figures.inputs, { value: 40, low: 40, high: 40 });
});

test('2009: its count caps its last height below the fixture blocks\' spends, and its spans hold them (docs/workload.md)', () => {
  // 2009's 32,708 transactions hold a coinbase per block and the 8 non-coinbase transactions of
  // the fixture blocks 170, 181, 182, 183, 187, 221, 248 and 24,835 (1 input each but 74 in
  // 24,835's): its last height is 32,699 at most, not 32,707 (which left no spend in 2009).
  const seen = knownIn(model.known_blocks, 0, 32707);
  assert.deepEqual(seen, { txs: 16, ncb: 8, inputs: 81 });
  const end2009 = model.anchors.find((a) => a.tx_count === 32708);
  assert.equal(end2009.height, 32708 - 1 - seen.ncb);
  assert.match(end2009.source, /End of 2009: height \d+ from the timestamps, 32699 at most \(one coinbase per block, and the 8 non-coinbase transactions of the fixture blocks at or below it\)$/);
  for (const [from, to] of [[0, 32707], [0, end2009.height], [0, 255], [24835, 24835]]) {
    const { transactions, inputs } = workloadFor(model, from, to).figures;
    const k = knownIn(model.known_blocks, from, to);
    assert.ok(transactions.low >= to - from + 1 + k.ncb, `${from}-${to}: ${JSON.stringify(transactions)}`);
    assert.ok(inputs.low >= k.inputs && inputs.value > 0, `${from}-${to}: ${JSON.stringify(inputs)}`);
  }
  // The chain 1-255's spends (7 inputs), block 24,835 alone (74).
  assert.deepEqual(workloadFor(model, 0, 255).figures.inputs.low, 7);
  assert.deepEqual(workloadFor(model, 24835, 24835).figures.inputs, { value: 74, low: 74, high: 74 });
});

test('heights from timestamps, and how far off they can be', () => {
  const anchors = [{ height: 0, time: 0 }, { height: 100, time: 1000 }, { height: 300, time: 2000 }];
  assert.equal(heightAtTime(anchors, 500), 50);
  assert.equal(heightAtTime(anchors, 1500), 200);
  assert.ok(Number.isNaN(heightAtTime(anchors, 2001)));
  // 100 predicted from 0 and 300 at time 1000: 150, 50 blocks off.
  assert.deepEqual(heightAtTimeError(anchors), { blocks: 50, at: 100 });
});

test('a span\'s workload: transactions x the era\'s ratios, on a hand-checked model', () => {
  const ratio = (value, low = value, high = value, per = 'inputs') => ({ value, low, high, per });
  const eraRatios = {
    inputs_per_ncb_tx: ratio(2, 1, 3, 'ncb_txs'), ecdsa_single_per_input: ratio(1), ecdsa_multisig_per_input: ratio(0.5),
    schnorr_keypath_per_input: ratio(0), schnorr_scriptpath_per_input: ratio(0), legacy_sighash_bytes_per_input: ratio(300),
    legacy_sighash_hashed_per_input: ratio(200),
    bip143_sighash_bytes_per_input: ratio(0), bip341_sighash_bytes_per_input: ratio(0), bytes_per_tx: ratio(250, 250, 250, 'txs'),
    legacy_sighashes_per_input: ratio(1.5), bip143_sighashes_per_input: ratio(0), bip341_sighashes_per_input: ratio(0),
    ...Object.fromEntries(INPUT_TYPES.map(({ key }) => [`${key}_inputs_share`, ratio(0)])),
    p2pkh_inputs_share: ratio(0.75, 0.5, 1), p2sh_multisig_inputs_share: ratio(0.25),
  };
  assert.deepEqual(Object.keys(eraRatios).sort(), Object.keys(RATIOS).sort());
  const tiny = { anchors: [{ height: 0, tx_count: 1 }, { height: 99, tx_count: 1000 }], interp: { ratio: 0 },
    eras: [{ name: 'one', from: 0, to: 100, ratios: eraRatios }] };
  const w = workloadFor(tiny, 0, 99);
  // 1,000 transactions, 100 coinbases: 900 non-coinbase, 1,800 inputs (900-2,700).
  assert.deepEqual(w.figures.transactions, { value: 1000, low: 1000, high: 1000 });
  assert.deepEqual(w.figures.inputs, { value: 1800, low: 900, high: 2700 });
  assert.deepEqual(w.figures.checks_ecdsa_multisig, { value: 900, low: 450, high: 1350 });
  assert.deepEqual(w.figures.sighash_bytes_legacy, { value: 540000, low: 270000, high: 810000 });
  assert.deepEqual(w.figures.sighashes_legacy, { value: 2700, low: 1350, high: 4050 });
  assert.deepEqual(w.figures.block_bytes, { value: 250000, low: 250000, high: 250000 });
  assert.deepEqual(totalChecks(w), { value: 2700, low: 1350, high: 4050 });
  // Inputs by type: the share x the inputs, low x low.
  assert.deepEqual(w.figures.inputs_p2pkh, { value: 1350, low: 450, high: 2700 });
  assert.deepEqual(w.figures.inputs_p2sh_multisig, { value: 450, low: 225, high: 675 });
  assert.deepEqual(w.figures.inputs_p2wpkh, { value: 0, low: 0, high: 0 });
  assert.throws(() => workloadFor(tiny, 0, 100), RangeError);
});

test('the saved table is the one its inputs give (rebuild: npm run project -- --census), and a model', () => {
  const saved = JSON.parse(readFileSync(TABLE_PATH, 'utf8'));
  assert.deepEqual(saved, JSON.parse(JSON.stringify(table)));
  // The saved table serves as the model itself (the page and the run core read it so).
  assert.deepEqual(workloadFor(saved, 0, saved.tip), workloadFor(model, 0, model.tip));
});

test('the rows cover the chain, one edge at least every 50,000 blocks, and add up to the totals', () => {
  const { rows, totals } = table;
  assert.equal(rows[0].from, 0);
  assert.equal(rows[rows.length - 1].to, totals.to);
  for (let k = 1; k < rows.length; k++) assert.equal(rows[k].from, rows[k - 1].to + 1, `row ${k}`);
  for (let h = 50000; h <= totals.to; h += 50000) {
    assert.ok(rows.some((r) => Math.abs(r.from - h) <= 1000), `an edge near ${h}`);
  }
  for (const name of Object.keys(totals).filter((k) => totals[k]?.value !== undefined)) {
    const sum = rows.reduce((n, r) => n + r[name].value, 0);
    assert.ok(Math.abs(sum - totals[name].value) <= 1e-9 * Math.max(1, totals[name].value), `${name}: rows ${sum}, total ${totals[name].value}`);
    for (const r of rows) assert.ok(r[name].low <= r[name].value && r[name].value <= r[name].high, `${name} ${r.from}-${r.to}`);
  }
  assert.equal(totals.blocks, rows.reduce((n, r) => n + r.blocks, 0));
});

test('the transactions match the chainTxData points they were built from', () => {
  const { points } = readTxCountPoints();
  for (const p of points) {
    const upTo = table.rows.filter((r) => r.to <= p.height);
    assert.equal(upTo[upTo.length - 1].to, p.height, `a row ends at ${p.height}`);
    const sum = upTo.reduce((n, r) => n + r.transactions.value, 0);
    assert.ok(Math.abs(sum - p.tx_count) < 1e-6 * p.tx_count, `${p.height}: rows ${sum}, point ${p.tx_count}`);
    assert.deepEqual(workloadFor(model, 0, p.height).figures.transactions, { value: p.tx_count, low: p.tx_count, high: p.tx_count });
  }
  assert.equal(table.totals.transactions.value, points[points.length - 1].tx_count);
});

test('blocks 0-150,000: the census\'s 2,868,199 checks lie within the table\'s range', () => {
  const sources = JSON.parse(readFileSync(ERA_SOURCES_PATH, 'utf8'));
  const anchor = sources.census_anchor;
  assert.equal(anchor.checks, 2868199);
  const checks = totalChecks(workloadFor(model, anchor.from, anchor.to));
  assert.ok(checks.low <= anchor.checks && anchor.checks <= checks.high, JSON.stringify(checks));
});

test('the saved fixture census is the engine\'s', async () => {
  const heights = [170, 57043, 553724, 757739];
  const dir = fixturesDir();
  const fresh = fixtureCensus(await loadEngine('simd'), await loadBlocks(dir, { heights }), dir);
  for (const b of fresh.blocks) assert.deepEqual(census.blocks.find((s) => s.height === b.height), b, String(b.height));
  assert.deepEqual(census.blocks_only, fresh.blocks_only);
  // ECDSA checks by key: 57,043 spends 131 outputs of one 65-byte key; 757,739's 122 checks are
  // under 98 keys, one of them 65 bytes. Every block's classes add up to its ECDSA checks.
  const keys = (h) => fresh.blocks.find((s) => s.height === h).ecdsa_keys;
  assert.deepEqual(keys(57043), { first_compressed: 0, first_other: 1, repeat: 130 });
  assert.deepEqual(keys(757739), { first_compressed: 97, first_other: 1, repeat: 24 });
  for (const s of census.blocks) {
    const k = s.ecdsa_keys;
    assert.equal(k.first_compressed + k.first_other + k.repeat, s.checks.ecdsa_single + s.checks.ecdsa_multisig, String(s.height));
  }
  // 553724 by hand: one P2PKH, one P2WPKH and one P2SH-P2WPKH spend, one ECDSA check each.
  const b = census.blocks.find((s) => s.height === 553724);
  assert.deepEqual(b.checks, { ecdsa_single: 3, ecdsa_multisig: 0, schnorr_keypath: 0, schnorr_scriptpath: 0 });
  assert.equal(b.sighashes.bip143, 2);
});

// A hostile review's findings: every one a clear error naming what and where, nothing written.
test('an untrusted measurement does not replace a trusted one: it is saved beside it', () => {
  // In a child, so that IBD_MEASUREMENT_DIR names a temporary folder before measurement.mjs loads.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ibd-measurement-'));
  try {
    const script = `import { saveMeasurement } from ${JSON.stringify(pathToFileURL(path.join(REPO_ROOT, 'bench/workload/measurement.mjs')).href)};
      const doc = (trusted, n) => ({ variant: 'simd', n, projection: { model: { trusted } } });
      const out = [saveMeasurement(doc(false, 1)), saveMeasurement(doc(true, 2)), saveMeasurement(doc(false, 3)), saveMeasurement(doc(true, 4))];
      console.log(JSON.stringify(out.map((o) => ({ file: o.file.slice(o.file.lastIndexOf('/') + 1), keptTrusted: o.keptTrusted }))));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, IBD_MEASUREMENT_DIR: dir }, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), [
      { file: 'measurement-simd.json', keptTrusted: false }, // nothing trusted to keep
      { file: 'measurement-simd.json', keptTrusted: false }, // trusted: replaces it
      { file: 'measurement-simd-untrusted.json', keptTrusted: true }, // untrusted: beside the trusted one
      { file: 'measurement-simd.json', keptTrusted: false },
    ]);
    const read = (f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')).n;
    assert.deepEqual([read('measurement-simd.json'), read('measurement-simd-untrusted.json')], [4, 3]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bad input: a measurement the cost model cannot use is named by its field', () => {
  const good = {
    workers: 2,
    variant: 'simd',
    end_to_end: { workers: 2, seconds: 1, stages: { parse_s: 0.1, sighash_s: 0.1, script_s: 0.1, verify_s: 1 } },
    totals: { by_type: { ecdsa: { checks_per_second: 100 }, schnorr: { checks_per_second: 150 } } },
    blocks: census.blocks.slice(0, 3).map((w) => ({ height: w.height, workload: w,
      stages_ms: { parse: 0.1, sighash: 0.1, script: 0.1, verify: 0.1 }, engine_ms: { median: 0.4, min: 0.3, max: 0.5, rounds: 5 },
      parts_ms: { sighash: { legacy: 0.1, bip143: 0, bip341: 0 }, script: Object.fromEntries(Object.keys(w.inputs_by_type).map((t) => [t, 0.1])) } })),
  };
  assert.equal(measurementProblem(good), null);
  const bad = (edit) => { const d = structuredClone(good); edit(d); return measurementProblem(d); };
  assert.match(bad((d) => { d.end_to_end.seconds = -1; }), /^end_to_end\.seconds is -1; need a positive number$/);
  assert.match(bad((d) => { d.end_to_end.stages.parse_s = 'x'; }), /^end_to_end\.stages\.parse_s is "x"/);
  assert.match(bad((d) => { d.blocks[1].stages_ms.verify = -5; }), /^blocks\[1\] \(height \d+\)\.stages_ms\.verify is -5/);
  assert.match(bad((d) => { delete d.blocks[0].engine_ms.max; }), /^blocks\[0\] .*\.engine_ms is .*min <= median <= max/);
  assert.match(bad((d) => { Object.assign(d.blocks[0].engine_ms, { range_min: 0.35, range_max: 0.6 }); }), /\.engine_ms is .*need min <= range_min <= median <= range_max <= max/);
  assert.equal(bad((d) => { Object.assign(d.blocks[0].engine_ms, { range_min: 0.35, range_max: 0.45 }); }), null);
  assert.match(bad((d) => { d.blocks[2] = structuredClone(d.blocks[0]); }), /^block height \d+ appears twice/);
  assert.match(bad((d) => { d.blocks[0].workload.inputs = -3; }), /\.workload\.inputs is -3/);
  assert.match(bad((d) => { d.workers = '2'; }), /^workers is "2"/);
  assert.match(bad((d) => { d.totals.by_type.schnorr.checks_per_second = -1; }), /schnorr\.checks_per_second is -1/);
  // The sighash time by kind and the script time by type (parts_ms), and the inputs by type.
  assert.match(bad((d) => { delete d.blocks[0].parts_ms; }), /^blocks\[0\] .*\.parts_ms is undefined; need the sighash time by kind .*--measure/);
  assert.match(bad((d) => { d.blocks[1].parts_ms.sighash.bip341 = null; }), /\.parts_ms\.sighash\.bip341 is null/);
  assert.match(bad((d) => { d.blocks[2].parts_ms.script.p2pkh = 'fast'; }), /\.parts_ms\.script\["p2pkh"\] is "fast"/);
  assert.match(bad((d) => { d.blocks[0].workload.inputs_by_type.p2pk = 0.5; }), /\.workload\.inputs_by_type\["p2pk"\] is 0\.5/);
  // From the hostile review: names that are not input types (one would overwrite the pooled
  // cost per_input, another the object's prototype), implausible numbers, sums that disagree.
  assert.match(bad((d) => { d.blocks[0].parts_ms.script.per_input = 1e5; }), /parts_ms\.script names "per_input", not an input script type/);
  assert.match(bad((d) => { d.blocks[0].workload.inputs_by_type = JSON.parse('{"__proto__": 1}'); }), /inputs_by_type names "__proto__"/);
  assert.match(bad((d) => { d.blocks[0].workload.script_bytes_by_type.p2pk = 'abc'; }), /script_bytes_by_type\["p2pk"\] is "abc"/);
  assert.match(bad((d) => { d.blocks[0].workload.inputs_by_type.p2pk = 2; }), /inputs_by_type adds up to 2, not the block's 1 inputs/);
  assert.match(bad((d) => { d.blocks[0].workload.bytes = 1e308; }), /\.workload\.bytes is 1e\+308; need an integer from 0 to 2\^53-1/);
  assert.match(bad((d) => { d.blocks[0].workload.bytes = 5e6; }), /a block holds at most 4,000,000 bytes/);
  assert.match(bad((d) => { d.blocks[0].workload.checks.ecdsa_single = 7; }), /at most one per input/);
  assert.match(bad((d) => { d.blocks[0].engine_ms = { median: 40, min: 30, max: 50, rounds: 5 }; }), /stages_ms add up to 0\.4 ms, engine_ms\.median is 40 ms/);
  assert.match(bad((d) => { d.end_to_end.seconds = 1e308; }), /end_to_end\.stages add up to .* need at least 1% of the wall time x workers/);
  assert.match(bad((d) => { d.end_to_end.workers = 1e9; }), /^end_to_end\.workers is 1000000000; need the run's workers \(2\)/);
  assert.match(bad((d) => { d.end_to_end.scaling = {}; }), /^end_to_end\.scaling is \{\}; need an array/);
  assert.match(bad((d) => { delete d.variant; }), /^variant is undefined; need simd, scalar, wide$/);
  // The ECDSA checks by key: optional (older measurements lack them), else counts that add up.
  assert.equal(bad((d) => { delete d.blocks[1].workload.ecdsa_keys; }), null);
  assert.match(bad((d) => { d.blocks[0].workload.ecdsa_keys.repeat = -1; }), /^blocks\[0\] \(height 170\)\.workload\.ecdsa_keys\.repeat is -1; need an integer/);
  assert.match(bad((d) => { d.blocks[0].workload.ecdsa_keys.first_other = 'one'; }), /\.workload\.ecdsa_keys\.first_other is "one"/);
  assert.match(bad((d) => { d.blocks[0].workload.ecdsa_keys = null; }), /\.workload\.ecdsa_keys is null; need \{first_compressed, first_other, repeat\}/);
  assert.match(bad((d) => { d.blocks[0].workload.ecdsa_keys.repeat = 5; }), /\.workload\.ecdsa_keys adds up to 6, not the block's 1 ECDSA checks/);
});

test('bad input: a fixture block that did not load stops the census, naming it', async () => {
  const engine = await loadEngine('simd');
  assert.throws(() => fixtureCensus(engine, [{ height: 277647, error: 'mainnet/277647/block.raw: truncated at byte 500' }], fixturesDir()),
    /^Error: fixture block 277647 did not load: mainnet\/277647\/block\.raw: truncated at byte 500$/);
});

test('bad input: too few dated counts, or a genesis row that disagrees, is refused with the file named', () => {
  const sources = JSON.parse(readFileSync(ERA_SOURCES_PATH, 'utf8'));
  const { points, file } = readTxCountPoints();
  const timed = census.blocks.map((b) => ({ height: b.height, time: b.time }));
  assert.throws(() => txAnchors({ points: [points[0], points.at(-1)], file }, sources, timed), /2 dated counts above genesis; at least 3/);
  assert.throws(() => txAnchors({ points: [{ height: 0, tx_count: 5 }, ...points], file }, sources, timed), /height 0 \(genesis\) holds 1 transaction, the file says 5/);
  // A true genesis row changes nothing: the same anchors as without it.
  const withGenesis = txAnchors({ points: [{ height: 0, tx_count: 1, time_utc: '' }, ...points], file }, sources, timed);
  assert.deepEqual(withGenesis.anchors, txAnchors({ points, file }, sources, timed).anchors);
});
