// npm run project -- --check: the cost model, fitted on a saved measurement, checked on a range of
// a node's blocks it never saw (bench/workload/range-check.mjs, bench/core/range-check.mjs). The
// node is a datadir written in Core's formats from the fixture set (tests/support/write-datadir.mjs);
// the measurement, a main job's over seven fixture blocks (one with Schnorr checks, for their rate). Counts and workloads are asserted, and
// that the fit leaves out the measured blocks the range holds; no time or ratio is (they vary
// with the machine).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { fixturesDir } from '../blocks-fixtures/loader.mjs';
import { predictStages, stagesTotal } from '../bench/core/cost-model.mjs';
import { REPO_ROOT } from '../wasm/paths.mjs';
import { writeDatadir } from './support/write-datadir.mjs';

const PROJECT = path.join(REPO_ROOT, 'bench', 'workload', 'project.mjs');
const MAIN = path.join(REPO_ROOT, 'bench', 'cli', 'main.mjs');
const run = (script, args) => promisify(execFile)(process.execPath, [script, ...args], { timeout: 300_000, maxBuffer: 64 << 20 })
  .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }), (err) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }));

// Two of them (170, 181) in the chain the datadir holds, so a check over 1-255 must leave them out.
const MEASURED = [170, 181, 24835, 57043, 120460, 277647, 866342];
let work;
let measurement;
let measured;

before(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'ibd-range-check-'));
  await writeDatadir(work, fixturesDir());
  const main = await run(MAIN, ['--heights', MEASURED.join(','), '--workers', '2', '--rounds', '5', '--json']);
  assert.equal(main.code, 0, main.stderr);
  measured = JSON.parse(main.stdout);
  measurement = path.join(work, 'measurement.json');
  writeFileSync(measurement, JSON.stringify({ saved_at: 'test', ...measured }));
});

after(() => rmSync(work, { recursive: true, force: true }));

const check = (args) => run(PROJECT, ['--check', '--datadir', work, '--measurement', measurement, ...args]);

test('blocks 1-255 of the datadir: each block validated and timed, the fit leaving out the two measured blocks it holds', async () => {
  const out = await check(['--from', '1', '--to', '255', '--json']);
  assert.equal(out.code, 0, out.stderr);
  const doc = JSON.parse(out.stdout);
  assert.deepEqual(doc.range.totals && { blocks: doc.range.totals.blocks, valid: doc.range.totals.valid, invalid: doc.range.totals.invalid },
    { blocks: 255, valid: 255, invalid: 0 });
  assert.equal(doc.range.read_error, null);
  const c = doc.check;
  assert.deepEqual(c.fitted_on.left_out, [170, 181]);
  assert.deepEqual(c.fitted_on.heights, [24835, 57043, 120460, 277647, 866342]);
  assert.equal(c.per_block.length, 255);
  assert.ok(c.per_block.every((b) => b.rounds === 5 && b.measured_ms > 0 && b.predicted_ms > 0));
  // Block 170: 2 transactions, one P2PK input, one ECDSA check: its workload is the engine's count.
  const b170 = doc.range.blocks.find((b) => b.height === 170);
  assert.deepEqual([b170.workload.txs, b170.workload.inputs, b170.workload.checks.ecdsa_single], [2, 1, 1]);
  assert.deepEqual(b170.workload, measured.blocks.find((b) => b.height === 170).workload);
  // Each prediction is the fitted costs applied to the block's own workload; the totals, their sums.
  for (const b of [b170, doc.range.blocks[0], doc.range.blocks[254]]) {
    const p = c.per_block.find((x) => x.height === b.height);
    assert.ok(Math.abs(p.predicted_ms - stagesTotal(predictStages(c.costs, b.workload))) < 1e-9);
    assert.equal(p.measured_ms, b.engine_ms.median);
  }
  const sum = (k) => c.per_block.reduce((n, x) => n + x[k], 0);
  assert.ok(Math.abs(c.totals.predicted_ms - sum('predicted_ms')) < 1e-9 && Math.abs(c.totals.measured_ms - sum('measured_ms')) < 1e-9);
  // No block of 2009 has 100 checks: none is judged, and the check does not call the model trusted.
  assert.equal(c.judged, 0);
  assert.equal(c.holds, false);
  assert.match(c.reasons[0], /^no block with 100\+ checks/);
  assert.equal(c.verdict, c.totals.within ? 'cannot judge' : 'does not hold');
  assert.deepEqual([c.span.from, c.span.to], [1, 255]);
  assert.equal(c.wall.workers, 2);
});

test('a block with thousands of checks is judged, its checks the engine\'s; the terminal report names the fit and the verdict', async () => {
  const out = await check(['--from', '277647', '--to', '277647']);
  assert.equal(out.code, 0, out.stderr);
  const lines = out.stdout.split('\n');
  assert.match(lines[0], /^Model check on heights 277,647-277,647 of the datadir .*: 1 block \(1 valid, 0 invalid, 0 not judged\), [\d,]+ signature checks, each batch timed over 5 rounds in 2 workers$/);
  assert.ok(lines.includes('  fitted on 6 blocks of the measurement, less 1 also in this range (heights 277647)'), out.stdout);
  assert.ok(lines.some((l) => /^ {2}per block: [01] of 1 judged block \(100\+ checks\) within \+-15%/.test(l)), out.stdout);
  assert.ok(lines.some((l) => /^ {2}verdict: the model (HOLDS|does NOT hold) on these blocks/.test(l)), out.stdout);
  assert.ok(lines.some((l) => /^ {4}verify {3}predicted [\d.]+ m?s, measured [\d.]+ m?s \([+-][\d.]+%\)$/.test(l)), out.stdout);
  const json = JSON.parse((await check(['--from', '277647', '--to', '277647', '--json', '--rounds', '5'])).stdout);
  const w = measured.blocks.find((b) => b.height === 277647).workload;
  const checks = w.checks.ecdsa_single + w.checks.ecdsa_multisig + w.checks.schnorr_keypath + w.checks.schnorr_scriptpath;
  assert.ok(checks >= 100);
  assert.deepEqual(json.check.per_block.map((b) => [b.height, b.checks, b.judged]), [[277647, checks, true]]);
});

test('bad input: a gap in the range stops it, the blocks before it checked (exit 1); flags without their partner are named (exit 2)', async () => {
  const out = await check(['--from', '250', '--to', '300', '--json']);
  assert.equal(out.code, 1);
  const doc = JSON.parse(out.stdout);
  assert.equal(doc.range.read_error.height, 256);
  assert.match(doc.range.read_error.message, /^height 256: no block at this height in the datadir's blk files/);
  assert.deepEqual(doc.check.per_block.map((b) => b.height), [250, 251, 252, 253, 254, 255]);
  assert.deepEqual([doc.check.span.from, doc.check.span.to], [250, 255]);
  for (const [args, message] of [
    [['--check'], /--check needs the blocks to check on: --datadir PATH, --rest URL or --rpc URL/],
    [['--datadir', work], /--datadir needs --check/],
    [['--check', '--datadir', work, '--rest', 'http://127.0.0.1:8332'], /--datadir and --rest do not go together: one source/],
    [['--check', '--datadir', work, '--table'], /--check and --table do not go together/],
    [['--check', '--datadir', work, '--rounds', '0'], /--rounds must be an integer from 1 to 15, got "0"/],
  ]) {
    const r = await run(PROJECT, args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
  const missing = await check(['--from', '5', '--to', '4']);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /--from 5 is above --to 4/);
});
