// BIP340 batch verification in wasm, every variant, on the real Schnorr checks of fixture blocks
// 757,739 and 866,342: verifyBatch gives each record the verdict single verification gives it
// (batches that pass, fail and cross the group limit); the raw batch (schnorrBatchVerify)
// answers 1 only for all-valid batches; validateBlock's deferred, batch-verified Schnorr checks
// give the same result as verifying them when asked, on the real block and on one whose Schnorr
// signatures were broken. The batch-size sweep runs and reports its shape.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixturesDir, loadBlocks } from '../blocks-fixtures/loader.mjs';
import { CheckType, concatChecks, encodeCheck, selectByType, walkChecks } from '../wasm/check-buffer.mjs';
import { loadEngine } from '../wasm/engine.mjs';
import { wasmDir } from '../wasm/paths.mjs';
import { VARIANTS } from '../wasm/variants.mjs';
import { crossover, formatSchnorrBatch, runSchnorrBatch } from '../bench/compare/schnorr-batch.mjs';
import { verifyChecks } from './support/wasm.mjs';

const RECORD = 132; // a Schnorr record: 36 + 32 + 64 bytes
const blocks = await loadBlocks(fixturesDir(), { heights: [757739, 866342] });

/** The blocks' valid Schnorr checks, packed, from the engine's own validation. */
function schnorrChecks(engine) {
  const parts = [];
  for (const b of blocks) {
    const r = engine.validateBlock(b.block, b.spentOutputsJson, b.hash, b.height, undefined);
    assert.equal(r.ok, true, r.error);
    assert.equal(r.valid, true, r.error);
    const walked = walkChecks(r.checks);
    for (const i of selectByType(r.checks, walked, CheckType.SCHNORR).indices) {
      if (r.verdicts[i] === 1) parts.push(r.checks.subarray(walked.offsets[i], walked.offsets[i + 1]));
    }
  }
  return concatChecks(parts);
}

/** A copy of `checks` with the signature of each record in `at` changed (one bit of s). */
function breakSigs(checks, at) {
  const out = Uint8Array.from(checks);
  for (const i of at) out[i * RECORD + 36 + 32 + 40] ^= 1;
  return out;
}

for (const variant of VARIANTS) {
  test(`verifyBatch: every Schnorr record gets single verification's verdict through batches (${variant})`, async () => {
    const engine = await loadEngine(variant);
    const all = schnorrChecks(engine);
    const count = all.length / RECORD;
    assert.ok(count > 2000, `${count} Schnorr checks`);
    assert.ok(verifyChecks(engine, all).every((v) => v === 1), 'all valid in one call (groups of up to 1,024)');

    const bad = [3, 1023, 1024, 2000, count - 1];
    const verdicts = verifyChecks(engine, breakSigs(all, bad));
    for (let i = 0; i < count; i++) assert.equal(verdicts[i], bad.includes(i) ? 0 : 1, `record ${i}`);
    // The same records one call each: the verdicts do not depend on the batching.
    for (const i of [2, 3, 4, 1023]) {
      const one = breakSigs(all, bad).subarray(i * RECORD, (i + 1) * RECORD);
      assert.equal(verifyChecks(engine, one)[0], bad.includes(i) ? 0 : 1, `record ${i} alone`);
    }
    // Groups below the batch minimum (verified one by one) and just above it.
    for (const n of [1, 2, 3, 4, 5, 9]) {
      const part = breakSigs(all.subarray(0, n * RECORD), n > 1 ? [1] : []);
      assert.deepEqual([...verifyChecks(engine, part)], Array.from({ length: n }, (_, i) => (i === 1 ? 0 : 1)), `${n} records`);
    }
  });

  test(`verifyBatch after a call whose checks ran past the memory: no verdict of it leaks into the next (${variant})`, async () => {
    // A raw verifyBatch whose checksLen runs past the end of the module's memory used to trap (a
    // wasm RuntimeError) once it read there, with the Schnorr records before that point queued
    // for their group, and the instance lived on: the next call flushed that queue into its own
    // verdicts. The binding now refuses such a call before reading anything (a JS Error), and
    // VerifyBatch still drops whatever an earlier call left queued. The 10 records are written
    // into the unallocated tail of the memory, so that record 10's header is past its end.
    const engine = await loadEngine(variant);
    const valid = schnorrChecks(engine).subarray(0, 10 * RECORD);
    const trapAfterTen = () => {
      const end = engine.HEAPU8.length - valid.length;
      engine.HEAPU8.set(valid, end);
      assert.throws(() => engine.verifyBatch(end, valid.length + 1000, 20, 16), /the checks region is not in the module's heap/);
    };
    const ecdsa = concatChecks(Array.from({ length: 10 }, (_, i) => encodeCheck({
      type: CheckType.ECDSA, msg32: new Uint8Array(32).fill(i), pubkey: new Uint8Array(33).fill(2), sig: new Uint8Array(70).fill(0x30),
    })));
    const run = (checks, count) => {
      const ptr = engine._malloc(checks.length + count + 16);
      try {
        engine.HEAPU8.set(checks, ptr);
        const out = ptr + checks.length;
        engine.HEAPU8.fill(0xaa, out, out + count + 16);
        const status = engine.verifyBatch(ptr, checks.length, count, out);
        return { status, verdicts: [...engine.HEAPU8.subarray(out, out + count)], after: [...engine.HEAPU8.subarray(out + count, out + count + 16)] };
      } finally {
        engine._free(ptr);
      }
    };
    trapAfterTen();
    const r1 = run(ecdsa, 10);
    assert.equal(r1.status.error, 0);
    assert.deepEqual(r1.verdicts, Array(10).fill(0), '10 invalid ECDSA records after the trap');
    trapAfterTen();
    const r2 = run(ecdsa, 3);
    assert.deepEqual(r2.verdicts, [0, 0, 0]);
    assert.deepEqual(r2.after, Array(16).fill(0xaa), 'nothing written past the 3 verdicts');
    trapAfterTen();
    const mixed = breakSigs(schnorrChecks(engine).subarray(0, 40 * RECORD), [5, 39]);
    assert.deepEqual(run(mixed, 40).verdicts, Array.from({ length: 40 }, (_, i) => (i === 5 || i === 39 ? 0 : 1)));
  });

  test(`schnorrBatchVerify: the raw batch is 1 only when every signature verifies (${variant})`, async () => {
    const engine = await loadEngine(variant);
    const all = schnorrChecks(engine).subarray(0, 300 * RECORD);
    const run = (bytes, n) => {
      const ptr = engine._malloc(bytes.length);
      try {
        engine.HEAPU8.set(bytes, ptr);
        return engine.schnorrBatchVerify(ptr, bytes.length, n);
      } finally {
        engine._free(ptr);
      }
    };
    assert.equal(run(all, 300), 1);
    assert.equal(run(all, 1), 1);
    assert.equal(run(breakSigs(all, [299]), 300), 0);
    assert.equal(run(breakSigs(all, [0]), 300), 0);
    assert.equal(run(all, 0), 0, 'an empty batch proves nothing');
    const ecdsa = Uint8Array.from(all);
    ecdsa[RECORD * 7] = CheckType.ECDSA;
    assert.throws(() => run(ecdsa, 300), /schnorrBatchVerify: record 7 is not a 32-byte-key, 64-byte-signature Schnorr record/);
    assert.throws(() => run(all, 301), /record 300 is not/, 'a count past the buffer');
    assert.throws(() => run(all, 10 ** 6), /record 300 is not/, 'a count far past the buffer');
    for (const count of [2.5, -1, NaN, 10 ** 6 + 1]) {
      assert.throws(() => run(all, count), /schnorrBatchVerify: checksLen must be an integer in 0\.\.2\^32-1 and count in 0\.\.10\^6/, String(count));
    }
  });

  test(`validateBlock: deferred, batch-verified Schnorr checks give the result of verifying each when asked (${variant})`, async () => {
    const engine = await loadEngine(variant);
    const b = blocks.find((x) => x.height === 866342);
    const batched = engine.validateBlock(b.block, b.spentOutputsJson, b.hash, b.height, undefined);
    const each = engine.validateBlock(b.block, b.spentOutputsJson, b.hash, b.height, { schnorrBatch: false });
    assert.equal(batched.valid, true, batched.error);
    assert.deepEqual(batched.checks, each.checks);
    assert.deepEqual(batched.verdicts, each.verdicts);
    assert.equal(each.rounds, 0);
    assert.equal(batched.rounds, 1);
    assert.ok(batched.schnorr > 100);

    // Every 50th Schnorr signature broken in the block's witnesses (the block rules left out:
    // the witness commitment no longer matches).
    const walked = walkChecks(batched.checks);
    const mutated = Uint8Array.from(b.block);
    let broken = 0;
    selectByType(batched.checks, walked, CheckType.SCHNORR).indices.forEach((i, k) => {
      if (k % 50 !== 0) return;
      const sig = batched.checks.subarray(walked.offsets[i] + 68, walked.offsets[i] + 132);
      const at = Buffer.from(mutated).indexOf(Buffer.from(sig));
      assert.ok(at > 0, `check ${i}'s signature is in the block`);
      mutated[at + 40] ^= 1;
      broken++;
    });
    const opts = { blockRules: false, skipProofOfWork: true };
    const r1 = engine.validateBlock(mutated, b.spentOutputsJson, b.hash, b.height, opts);
    const r0 = engine.validateBlock(mutated, b.spentOutputsJson, b.hash, b.height, { ...opts, schnorrBatch: false });
    assert.equal(r0.valid, false);
    assert.equal(r0.failedInputs, broken);
    assert.ok(r0.inputFailures.every((f) => f.scriptError === 'SCHNORR_SIG'));
    for (const key of ['valid', 'scriptError', 'txIndex', 'inputIndex', 'failedInputs', 'inputFailures', 'checks', 'verdicts', 'error']) {
      assert.deepEqual(r1[key], r0[key], key);
    }
    assert.equal(r1.evaluations, r1.inputs + broken, 'the failed inputs re-evaluated with their verdicts');

    const wrong = engine.validateBlock(b.block, b.spentOutputsJson, b.hash, b.height, { schnorrBatch: 'yes' });
    assert.equal(wrong.ok, false);
    assert.match(wrong.error, /options\.schnorrBatch must be a boolean/);
  });
}

test('crossover: the smallest size from which every larger batch beats single verification', () => {
  const rows = (us) => us.map((u, i) => ({ size: 2 ** i, us_per_sig: u }));
  assert.equal(crossover(rows([12, 11, 9, 8, 7]), 10), 4);
  assert.equal(crossover(rows([12, 9, 11, 8, 7]), 10), 8, 'a dip that does not last is not the crossover');
  assert.equal(crossover(rows([9, 9, 9]), 10), 2, 'size 1 is never a batch');
  assert.equal(crossover(rows([12, 11, 11]), 10), null);
  // Rows in any order: sizes 64, 1, 8 with 64 slower than single verification have no crossover.
  const unsorted = [{ size: 64, us_per_sig: 12 }, { size: 1, us_per_sig: 11 }, { size: 8, us_per_sig: 9 }];
  assert.equal(crossover(unsorted, 10), null);
  assert.equal(crossover([{ size: 64, us_per_sig: 8 }, { size: 1, us_per_sig: 11 }, { size: 8, us_per_sig: 9 }], 10), 8);
});

test('npm run bench:schnorr-batch runs on the fixtures and reports each contender', async () => {
  await assert.rejects(runSchnorrBatch({ sizes: [8, 1, 8], rounds: 1 }), /batch size 8 listed twice/);
  const r = await runSchnorrBatch({ sizes: [64, 1, 8], rounds: 1 }); // listed ascending in the result
  assert.deepEqual(r.sizes, [1, 8, 64]);
  assert.equal(r.signatures, 64);
  assert.ok(r.fixture_checks > 2000);
  const names = r.contenders.map((c) => c.name);
  for (const v of VARIANTS) assert.ok(names.includes(`ibd-wasm ${v}`));
  for (const c of r.contenders) {
    assert.deepEqual(c.rows.map((row) => row.size), [1, 8, 64]);
    assert.ok(c.rows.every((row) => row.us_per_sig > 0 && row.us_per_sig_min <= row.us_per_sig && row.us_per_sig <= row.us_per_sig_max));
  }
  assert.match(formatSchnorrBatch(r), /crossover/);
  // Block 866,342's first 64 Schnorr checks are under 7 keys; one per key, none is shared.
  assert.deepEqual(r.keys, [1, 3, 7]);
  const distinct = await runSchnorrBatch({ sizes: [64], rounds: 1, onePerKey: true });
  assert.equal(distinct.fixture_checks, 444);
  assert.deepEqual(distinct.keys, [64]);
});

test('bench:schnorr-batch --against runs another build in the same rounds, outside the threshold', async () => {
  // This build stands in for "another": the columns and the flag are what is checked.
  const dir = wasmDir();
  const r = await runSchnorrBatch({ sizes: [8], rounds: 1, against: dir });
  const names = r.contenders.map((c) => c.name);
  for (const v of VARIANTS) {
    assert.ok(names.includes(`ibd-wasm ${v}`));
    assert.ok(names.includes(`${v} @ ${dir}`), names.join(', '));
  }
  assert.deepEqual(r.contenders.filter((c) => c.against).map((c) => c.name), VARIANTS.map((v) => `${v} @ ${dir}`));
  assert.match(formatSchnorrBatch(r), new RegExp(`simd @ ${dir.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
  await assert.rejects(runSchnorrBatch({ sizes: [8], rounds: 1, against: '/nonexistent/wasm' }), /\/nonexistent\/wasm/);
});

for (const variant of VARIANTS) {
  test(`the raw verifyBatch binding refuses arguments outside the module's memory or not integers (${variant})`, async () => {
    const engine = await loadEngine(variant);
    const ptr = engine._malloc(64);
    try {
      const memory = engine.HEAPU8.length;
      const cases = [
        [[ptr, 0, -1, ptr], /verifyBatch: count must be an integer from 0 to 4294967295/],
        [[ptr, 0, 1.7, ptr], /count must be an integer/],
        [[ptr, 0, NaN, ptr], /count must be an integer/],
        [[ptr, 0, 2 ** 32 + 5, ptr], /count must be an integer/],
        [[-1, 0, 0, ptr], /checksPtr must be an integer/],
        [[ptr, 2.5, 0, ptr], /checksLen must be an integer/],
        [[ptr, 0, 0, -8], /verdictsPtr must be an integer/],
        [[ptr, 0, 4294967295, ptr], /verifyBatch: the verdicts region is not in the module's heap/],
        [[memory - 10, 36, 1, ptr], /the checks region is not in the module's heap/],
      ];
      for (const [args, message] of cases) assert.throws(() => engine.verifyBatch(...args), message, JSON.stringify(args));
      // The instance is still usable: nothing was written, nothing trapped.
      const r = engine.verifyBatch(ptr, 0, 0, ptr);
      assert.equal(r.error, 0);
      assert.throws(() => engine.schnorrBatchVerify(memory - 10, 132, 1), /are not in the module's heap/);
    } finally {
      engine._free(ptr);
    }
  });
}
