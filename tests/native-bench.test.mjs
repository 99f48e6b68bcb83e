// The native anchor tools (bench/native/): ibd_verify_checks reproduces the engine's verdicts on
// a real block's checks and reports them in its documented JSON shape, refuses bad files with
// the record and byte offset at fault; ibd_native_bench registers every documented benchmark on
// the fixtures, writes well-formed JSON, and names a missing fixtures folder. No timing is
// asserted (benchmarks are not tests): only values, counts and shapes.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';

import { fixturesDir, loadBlocks, readManifest } from '../blocks-fixtures/loader.mjs';
import { ensureNativeTools } from '../scripts/bench-native.mjs';
import { NATIVE_TOOLS } from '../wasm/paths.mjs';

const { bench: NATIVE_BENCH, verifyChecks: VERIFY_CHECKS } = NATIVE_TOOLS;
import { CheckType, selectByType, walkChecks } from '../wasm/check-buffer.mjs';
import { nativeDump } from './support/native-tool.mjs';

if (!existsSync(NATIVE_BENCH) || !existsSync(VERIFY_CHECKS)) ensureNativeTools();

/** Runs a tool; resolves to { code, stdout, stderr } whatever its exit code. */
async function runTool(tool, args, env = process.env) {
  try {
    const { stdout, stderr } = await promisify(execFile)(tool, args, { env, timeout: 120_000, maxBuffer: 64 << 20 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    if (typeof err.code !== 'number') throw err;
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

let tmp;
before(async () => { tmp = await mkdtemp(path.join(os.tmpdir(), 'ibd-native-bench-')); });
after(async () => { await rm(tmp, { recursive: true, force: true }); });

// 866342: ECDSA and Schnorr checks, some failing (CHECKMULTISIG trials); 403200: 3 rounds.
for (const height of [866342, 403200]) {
  test(`ibd_verify_checks on block ${height}'s final checks: the engine's verdicts, documented JSON`, async () => {
    const [block] = await loadBlocks(fixturesDir(), { heights: [height] });
    const { checks, verdicts } = await nativeDump(block);
    const file = path.join(tmp, `${height}.checks`);
    await writeFile(file, checks);

    const r = await runTool(VERIFY_CHECKS, [file, '--rounds', '2']);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines.length, 1, 'one JSON line');
    const out = JSON.parse(lines[0]);
    assert.deepEqual(Object.keys(out),
      ['count', 'valid', 'invalid', 'rounds', 'batch', 'schnorr_batch', 'stock', 'seconds', 'checks_per_second_median', 'verdicts_sha256']);
    assert.equal(out.batch, null, 'the whole file in one call');
    assert.equal(out.schnorr_batch, false);
    assert.equal(out.stock, false);
    const valid = verdicts.filter((v) => v === 1).length;
    assert.equal(out.count, walkChecks(checks).count);
    assert.equal(out.count, verdicts.length);
    assert.equal(out.valid, valid);
    assert.equal(out.invalid, verdicts.length - valid);
    assert.ok(out.invalid > 0, 'the sample includes failing checks');
    assert.equal(out.rounds, 2);
    assert.equal(out.seconds.length, 2);
    assert.ok(out.seconds.every((s) => Number.isFinite(s) && s > 0));
    assert.ok(Number.isFinite(out.checks_per_second_median) && out.checks_per_second_median > 0);
    assert.equal(out.verdicts_sha256, sha256(verdicts), 'verdict bytes equal the engine validation\'s');

    // One record per call (single verification) and calls of 7: the same verdicts.
    for (const batch of ['1', '7']) {
      const b = await runTool(VERIFY_CHECKS, [file, '--rounds', '1', '--batch', batch]);
      assert.equal(b.code, 0, b.stderr);
      const o = JSON.parse(b.stdout);
      assert.equal(o.batch, Number(batch));
      assert.equal(o.verdicts_sha256, sha256(verdicts), `--batch ${batch}`);
    }
    // libsecp256k1's public API per record, no cache, no key tables, no batch: the same verdicts
    // (the tool exits 1 if a round's differ from VerifyBatch's first pass).
    const stock = await runTool(VERIFY_CHECKS, [file, '--rounds', '1', '--stock']);
    assert.equal(stock.code, 0, stock.stderr);
    const so = JSON.parse(stock.stdout);
    assert.equal(so.stock, true);
    assert.equal(so.verdicts_sha256, sha256(verdicts), '--stock');
  });
}

test('ibd_verify_checks --schnorr-batch: raw BIP340 batches of block 866342\'s Schnorr checks, a bad one failing its batch', async () => {
  const [block] = await loadBlocks(fixturesDir(), { heights: [866342] });
  const { checks, verdicts } = await nativeDump(block);
  const walked = walkChecks(checks);
  const schnorr = [...selectByType(checks, walked, CheckType.SCHNORR).indices].filter((i) => verdicts[i] === 1).slice(0, 100);
  assert.equal(schnorr.length, 100);
  const set = Buffer.concat(schnorr.map((i) => checks.subarray(walked.offsets[i], walked.offsets[i + 1])));
  const file = path.join(tmp, 'schnorr.checks');
  await writeFile(file, set);
  const ok = await runTool(VERIFY_CHECKS, [file, '--rounds', '1', '--schnorr-batch', '--batch', '32']);
  assert.equal(ok.code, 0, ok.stderr);
  const out = JSON.parse(ok.stdout);
  assert.equal(out.schnorr_batch, true);
  assert.equal(out.valid, 100);

  // Record 40's s flipped: single verification finds it invalid, and its batch (records 32..63)
  // must answer 0 while the others answer 1, or the tool exits 1.
  const bad = Buffer.from(set);
  bad[40 * 132 + 36 + 32 + 40] ^= 1;
  await writeFile(file, bad);
  const r = await runTool(VERIFY_CHECKS, [file, '--rounds', '1', '--schnorr-batch', '--batch', '32']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).invalid, 1);

  const both = await runTool(VERIFY_CHECKS, [file, '--schnorr-batch', '--stock']);
  assert.equal(both.code, 1);
  assert.match(both.stderr, /--stock and --schnorr-batch exclude each other/);

  // An ECDSA record is not for --schnorr-batch.
  const mixed = Buffer.concat([set.subarray(0, 132 * 3), checks.subarray(walked.offsets[0], walked.offsets[1])]);
  assert.equal(checks[walked.offsets[0]], CheckType.ECDSA);
  await writeFile(file, mixed);
  const m = await runTool(VERIFY_CHECKS, [file, '--schnorr-batch', '--batch', '8']);
  assert.equal(m.code, 1);
  assert.match(m.stderr, /--schnorr-batch: record 3 is not a Schnorr record/);

  for (const batch of ['0', 'x', '1000001']) {
    const b = await runTool(VERIFY_CHECKS, [file, '--batch', batch]);
    assert.equal(b.code, 1, `--batch ${batch}`);
    assert.match(b.stderr, /--batch needs an integer in 1\.\.1000000/);
  }
});

test('ibd_verify_checks refuses a truncated file, naming the record and its byte offset', async () => {
  const [block] = await loadBlocks(fixturesDir(), { heights: [403200] });
  const { checks } = await nativeDump(block);
  const { offsets } = walkChecks(checks);
  const cut = offsets[7] + 40;  // inside record 7's body
  const file = path.join(tmp, 'truncated.checks');
  await writeFile(file, checks.subarray(0, cut));
  const r = await runTool(VERIFY_CHECKS, [file]);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, new RegExp(`record 7 at byte ${offsets[7]}: truncated record`));
});

test('ibd_verify_checks refuses an unknown check type, a missing file and a bad --rounds', async () => {
  const file = path.join(tmp, 'bad-type.checks');
  const record = Buffer.alloc(36 + 33 + 70);
  record[0] = 7;  // no such CheckType
  record[1] = 33;
  record.writeUInt16LE(70, 2);
  await writeFile(file, record);
  const badType = await runTool(VERIFY_CHECKS, [file]);
  assert.equal(badType.code, 1);
  assert.match(badType.stderr, /record 0 at byte 0: unknown check type/);

  const missing = await runTool(VERIFY_CHECKS, [path.join(tmp, 'none.checks')]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /cannot open .*none\.checks/);

  for (const rounds of ['0', 'x', '1001']) {
    const r = await runTool(VERIFY_CHECKS, [file, '--rounds', rounds]);
    assert.equal(r.code, 1, `--rounds ${rounds}`);
    assert.match(r.stderr, /--rounds needs an integer in 1\.\.1000/);
  }
  // A value flag given twice is refused, not resolved to the last one; the usage names every flag.
  for (const args of [['--batch', '2', '--batch', '3'], ['--rounds', '1', '--schnorr-batch', '--rounds', '2']]) {
    const r = await runTool(VERIFY_CHECKS, [file, ...args]);
    assert.equal(r.code, 1, args.join(' '));
    assert.equal(r.stdout, '');
    assert.match(r.stderr, new RegExp(`^ibd_verify_checks: ${args[0]} given twice; give it once\nusage: .*\\[--batch B\\] \\[--schnorr-batch \\| --stock\\]`));
  }
});

test('ibd_verify_checks on an empty file: no records, no rate', async () => {
  const file = path.join(tmp, 'empty.checks');
  await writeFile(file, Buffer.alloc(0));
  const r = await runTool(VERIFY_CHECKS, [file, '--rounds', '1']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.count, 0);
  assert.equal(out.checks_per_second_median, null);
  assert.equal(out.verdicts_sha256, sha256(Buffer.alloc(0)));
});

test('ibd_native_bench registers every documented benchmark, one BM_ValidateBlock per fixture block', async () => {
  const r = await runTool(NATIVE_BENCH, ['--benchmark_list_tests=true']);
  assert.equal(r.code, 0, r.stderr);
  const names = r.stdout.trim().split('\n');
  const heights = readManifest(fixturesDir()).blocks.map((b) => b.height);
  const expected = [
    'BM_EcdsaVerify/secp256k1',
    ...[1, 16, 256, 4096].map((n) => `BM_VerifyBatch/ecdsa/${n}`),
    'BM_SchnorrVerify/secp256k1',
    ...[1, 16, 256, 4096].map((n) => `BM_VerifyBatch/schnorr/${n}`),
    'BM_EcmultComputeTables',
    'BM_Sighash/legacy', 'BM_Sighash/bip143', 'BM_Sighash/bip341',
    'BM_SighashPrecompute/bip143', 'BM_SighashPrecompute/bip341',
    ...heights.map((h) => `BM_ValidateBlock/${h}`),
    'BM_Sha256/64', 'BM_Sha256/1000000', 'BM_ValidateSynthetic/legacy_5000in',
  ];
  assert.deepEqual(names, expected);
});

test('ibd_native_bench --benchmark_format=json: well-formed report with per-signature and per-byte counters', async () => {
  const r = await runTool(NATIVE_BENCH, ['--benchmark_format=json', '--benchmark_min_time=0.01',
    '--benchmark_filter=^(BM_VerifyBatch/schnorr/16|BM_Sighash/bip143|BM_ValidateBlock/170)$']);
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.context.fixtures, fixturesDir());
  const byName = Object.fromEntries(report.benchmarks.map((b) => [b.name, b]));
  assert.deepEqual(Object.keys(byName).sort(), ['BM_Sighash/bip143', 'BM_ValidateBlock/170', 'BM_VerifyBatch/schnorr/16']);
  for (const b of report.benchmarks) {
    assert.equal(b.error_occurred, undefined, `${b.name}: ${b.error_message}`);
    assert.ok(b.items_per_second > 0, `${b.name} items_per_second`);
  }
  assert.ok(byName['BM_VerifyBatch/schnorr/16'].per_sig > 0);
  assert.ok(byName['BM_Sighash/bip143'].bytes_per_second > 0);
  assert.match(byName['BM_ValidateBlock/170'].label, /^1 checks, 1 inputs$/);
  // The engine's stages, as wasm validateBlock's `times` (block 170: one P2PK input, one check).
  const vb = byName['BM_ValidateBlock/170'];
  for (const k of ['spent_ns', 'parse_ns', 'sighash_ns', 'script_ns', 'verify_ns']) assert.ok(vb[k] > 0, `BM_ValidateBlock/170 ${k}: ${vb[k]}`);
  const iterationNs = vb.real_time * { ns: 1, us: 1e3, ms: 1e6, s: 1e9 }[vb.time_unit];
  assert.ok(vb.spent_ns + vb.parse_ns + vb.sighash_ns + vb.script_ns + vb.verify_ns <= iterationNs * 1.01, 'stages within the iteration');
});

test('ibd_native_bench with a missing fixtures folder: a clear error, exit 1', async () => {
  const missing = path.join(tmp, 'no-fixtures');
  const r = await runTool(NATIVE_BENCH, ['--benchmark_list_tests=true'], { ...process.env, IBD_FIXTURES: missing });
  assert.equal(r.code, 1);
  assert.match(r.stderr, new RegExp(`fixtures folder ${missing} not found: set IBD_FIXTURES`));
});
