// Workers terminated from outside (worker.terminate(): the thread's kill -9, whatever it is
// running) while they batch-verify Schnorr checks or validate block 866,342, whose Schnorr checks
// synchronous validation defers and batch-verifies: nothing is lost, and every verdict equals a
// single-threaded run's. The kills land at random points (a fixed seed), mostly mid-call: a
// batch of 4,096 Schnorr records or a range of the block takes tens of ms in wasm. The real
// wasm verify worker (workers/verify-worker.mjs) runs; only the host around it kills.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { fixturesDir, loadBlocks } from '../blocks-fixtures/loader.mjs';
import { createBatchVerifier } from '../wasm/batch-verifier.mjs';
import { CheckType, concatChecks, selectByType, walkChecks } from '../wasm/check-buffer.mjs';
import { loadEngine } from '../wasm/engine.mjs';
import { encodeSpentOutputs } from '../wasm/spent-outputs.mjs';
import { validateBlocksInPool } from '../workers/block-jobs.mjs';
import { nodeHost } from '../workers/node-host.mjs';
import { createPool } from '../workers/pool.mjs';
import { prng } from './support/random-checks.mjs';

const RECORD = 132; // a Schnorr record: 36 + 32 + 64 bytes
const [b866342] = await loadBlocks(fixturesDir(), { heights: [866342] });
const engine = await loadEngine('simd');
const whole = engine.validateBlock(b866342.block, b866342.spentOutputsJson, b866342.hash, b866342.height, undefined);
assert.equal(whole.valid, true, whole.error);

/** A host running the real wasm verify worker that terminates, after each message it posts
 *  with probability 1/`every`, that worker after 0..`maxDelayMs` ms. */
function killingHost(seed, every, maxDelayMs) {
  const next = prng(seed);
  const inner = nodeHost({ workerData: { variant: 'simd' } });
  const host = {
    kills: 0,
    spawn(i, cb) {
      const ep = inner.spawn(i, cb);
      return {
        ...ep,
        post(msg, transfer) {
          ep.post(msg, transfer);
          if (next() % every !== 0) return;
          host.kills++;
          setTimeout(() => ep.terminate(), next() % (maxDelayMs + 1));
        },
      };
    },
  };
  return host;
}

const pools = [];
after(() => Promise.all(pools.map((p) => p.close())));

test('Schnorr-heavy batches: workers killed mid-batch lose nothing; verdicts equal one-record-per-call verification', { timeout: 300_000 }, async () => {
  // The block's own checks (ECDSA and Schnorr), then its Schnorr checks repeated to 12,288, with
  // signatures broken around the 1,024-record groups and at random places.
  const walked = walkChecks(whole.checks);
  const schnorr = Array.from(selectByType(whole.checks, walked, CheckType.SCHNORR).indices,
    (i) => whole.checks.subarray(walked.offsets[i], walked.offsets[i + 1]));
  const many = concatChecks(Array.from({ length: 12288 }, (_, k) => schnorr[k % schnorr.length]));
  const next = prng(7);
  for (const k of [0, 1023, 1024, 4095, 4096, 8191, 8192, 12287, ...Array.from({ length: 40 }, () => next() % 12288)]) {
    many[k * RECORD + 36 + 32 + 40] ^= 1;
  }
  const checks = concatChecks([whole.checks, many]);
  const count = walkChecks(checks).count;
  // The reference: every record alone (single verification: no Schnorr group forms).
  const single = createBatchVerifier(engine);
  const w = walkChecks(checks);
  const reference = Uint8Array.from({ length: count }, (_, i) => single.verify(checks.subarray(w.offsets[i], w.offsets[i + 1]), 1).verdicts[0]);
  assert.ok(reference.includes(0) && reference.includes(1));

  const host = killingHost(11, 3, 60);
  const pool = createPool({ workers: 2, host, maxAttempts: 30 });
  pools.push(pool);
  await pool.ready();
  for (const batchSize of [4096, 1500]) {
    assert.deepEqual(await pool.verify(checks, { batchSize }), reference, `batches of ${batchSize}`);
  }
  assert.ok(host.kills >= 5, `${host.kills} kills`);
  assert.ok(pool.replacements >= 3, `${pool.replacements} replacements`);
});

test('block 866,342 in ranges: workers killed mid-block lose nothing; the result equals one validateBlock call', { timeout: 300_000 }, async () => {
  const block = { block: b866342.block, spentOutputs: encodeSpentOutputs(b866342.spentOutputsJson), hash: b866342.hash, height: b866342.height };
  const host = killingHost(12, 2, 150);
  const pool = createPool({ workers: 2, host, maxAttempts: 30 });
  pools.push(pool);
  await pool.ready();
  for (const targetInputs of [256, 2048]) {
    const [r] = await validateBlocksInPool(pool, [block], { targetInputs });
    assert.equal(r.ok, true, r.error);
    for (const key of ['checks', 'verdicts']) assert.ok(Buffer.from(r[key]).equals(Buffer.from(whole[key])), `${key}, ranges of ~${targetInputs} inputs`);
    assert.ok(Buffer.from(r.origins.buffer, r.origins.byteOffset, r.origins.byteLength)
      .equals(Buffer.from(whole.origins.buffer, whole.origins.byteOffset, whole.origins.byteLength)), 'origins');
    for (const key of ['valid', 'inputs', 'ecdsa', 'schnorr', 'fee', 'sigopCost', 'failedInputs', 'coverage']) {
      assert.deepEqual(r[key], whole[key], key);
    }
  }
  assert.ok(host.kills >= 3, `${host.kills} kills`);

  // Its Schnorr signatures broken (every 9th; the block rules left out: the witness commitment
  // no longer matches), cut into ranges: each range's result in the pool, under kills, equals
  // the same range validated on this thread, with schnorrBatch true (the default) and false.
  const walked = walkChecks(whole.checks);
  const mutated = Uint8Array.from(b866342.block);
  const bytes = Buffer.from(mutated);
  selectByType(whole.checks, walked, CheckType.SCHNORR).indices.forEach((i, k) => {
    if (k % 9 !== 0) return;
    const at = bytes.indexOf(Buffer.from(whole.checks.subarray(walked.offsets[i] + 68, walked.offsets[i] + 132)));
    assert.ok(at > 0);
    mutated[at + 40] ^= 1;
  });
  const cuts = [1, 700, 1500, 2600, 3900, 4864];
  for (const schnorrBatch of [true, false]) {
    const jobs = cuts.slice(1).map((txEnd, k) => ({
      block: mutated, spentOutputs: block.spentOutputs, hash: b866342.hash, height: b866342.height,
      options: { txBegin: cuts[k], txEnd, blockRules: false, skipProofOfWork: true, schnorrBatch },
    }));
    const results = await pool.validate(jobs.map((j) => [j]));
    let failed = 0;
    jobs.forEach((j, k) => {
      const got = results[k][0];
      const want = engine.validateBlock(j.block, j.spentOutputs, j.hash, j.height, j.options);
      assert.equal(got.ok, true, got.error);
      for (const key of ['valid', 'scriptError', 'txIndex', 'inputIndex', 'failedInputs', 'inputFailures', 'error']) {
        assert.deepEqual(got[key], want[key], `${key}, range ${k}, schnorrBatch ${schnorrBatch}`);
      }
      for (const key of ['checks', 'verdicts']) assert.ok(Buffer.from(got[key]).equals(Buffer.from(want[key])), `${key}, range ${k}`);
      failed += got.failedInputs;
    });
    assert.ok(failed > 200, `${failed} inputs failed`);
  }
});
