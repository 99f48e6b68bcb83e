// The verify pool (workers/pool.mjs) over real worker_threads running a fake engine
// (tests/support/fake-engine.mjs: valid iff msg32[0] is even): verdicts come back in input
// order, concurrent calls stay separate, failures reject naming the worker, nothing hangs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createBatchVerifier } from '../workers/batch-verifier.mjs';
import { CheckType, concatChecks, encodeCheck, walkChecks } from '../workers/job-buffer.mjs';
import { nodeHost } from '../workers/node-host.mjs';
import { createPool, MAX_WORKERS } from '../workers/pool.mjs';
import { createFakeEngine } from './support/fake-engine.mjs';
import { randomChecks } from './support/random-checks.mjs';

const FAKE_WORKER = new URL('./support/fake-verify-worker.mjs', import.meta.url);
const fakePool = (workers, workerData = {}) =>
  createPool({ workers, host: nodeHost({ workerUrl: FAKE_WORKER, workerData }) });
const expectedVerdicts = (msgFirstBytes) => Uint8Array.from(msgFirstBytes, (b) => (b % 2 === 0 ? 1 : 0));

test('verdicts come back in input order across 2 workers and many batches', async () => {
  const pool = fakePool(2);
  try {
    const infos = await pool.ready();
    assert.deepEqual(infos.map((i) => i.variant), ['fake', 'fake']);
    const { checks, msgFirstBytes } = randomChecks(5000, 1);
    const verdicts = await pool.verify(checks, { batchSize: 97 });
    assert.equal(verdicts.length, 5000);
    assert.deepEqual(verdicts, expectedVerdicts(msgFirstBytes));
    assert.ok(verdicts.includes(0) && verdicts.includes(1));
    assert.deepEqual(await pool.verify(new Uint8Array(0)), new Uint8Array(0));
  } finally {
    await pool.close();
  }
});

test('concurrent verify calls each get their own verdicts', async () => {
  const pool = fakePool(2);
  try {
    const a = randomChecks(3000, 2);
    const b = randomChecks(1234, 3);
    const [va, vb] = await Promise.all([pool.verify(a.checks, { batchSize: 100 }), pool.verify(b.checks, { batchSize: 7 })]);
    assert.deepEqual(va, expectedVerdicts(a.msgFirstBytes));
    assert.deepEqual(vb, expectedVerdicts(b.msgFirstBytes));
  } finally {
    await pool.close();
  }
});

test('a malformed buffer rejects naming record and byte offset; the pool still works', async () => {
  const pool = fakePool(1);
  try {
    const { checks } = randomChecks(10, 4);
    await assert.rejects(pool.verify(checks.subarray(0, checks.length - 1)), /check record 9 at byte \d+: truncated/);
    const ok = randomChecks(10, 5);
    assert.deepEqual(await pool.verify(ok.checks), expectedVerdicts(ok.msgFirstBytes));
  } finally {
    await pool.close();
  }
});

test('a crashing worker rejects with its index, and later calls reject too', async () => {
  const pool = fakePool(2);
  try {
    await pool.ready();
    const { checks, msgFirstBytes } = randomChecks(20, 6);
    assert.ok(!msgFirstBytes.includes(0xdd));
    // All workers are ready and idle, so batch 0 (records 0-9) goes to worker 0 and batch 1
    // (records 10-19) to worker 1; record 15's msg32 gets the crash marker.
    const crashAt = checks.slice();
    crashAt[walkChecks(checks).offsets[15] + 4] = 0xdd;
    await assert.rejects(pool.verify(crashAt, { batchSize: 10 }), /verify worker 1 of 2 failed: fake worker crashed/);
    await assert.rejects(pool.verify(checks), /verify worker 1 of 2 failed/);
  } finally {
    await pool.close();
  }
});

test('a worker that fails to load rejects ready() and verify() instead of hanging', async () => {
  const pool = fakePool(1, { failOnLoad: true });
  try {
    const pending = pool.verify(randomChecks(5, 7).checks);
    await assert.rejects(pool.ready(), /verify worker 0 of 1 failed: fake engine failed to load/);
    await assert.rejects(pending, /verify worker 0 of 1 failed/);
  } finally {
    await pool.close();
  }
});

test('close() rejects pending work; bad worker counts are refused', async () => {
  const pool = fakePool(1);
  const pending = assert.rejects(pool.verify(randomChecks(2000, 8).checks, { batchSize: 1 }), /verify pool closed/);
  await pool.close();
  await pending;
  await assert.rejects(pool.verify(randomChecks(1, 8).checks), /verify pool closed/);
  for (const workers of [0, -1, 1.5, MAX_WORKERS + 1, NaN]) {
    assert.throws(() => createPool({ workers }), /workers must be an integer from 1 to 256/);
  }
});

test('the batch verifier grows its region once, re-reads memory, reports malformed records', () => {
  const engine = createFakeEngine(1024); // smaller than the first region: _malloc grows HEAPU8
  const verifier = createBatchVerifier(engine);
  const { checks, msgFirstBytes } = randomChecks(3000, 9);
  const first = verifier.verify(checks, 3000);
  assert.equal(first.error, 0);
  assert.deepEqual(first.verdicts, expectedVerdicts(msgFirstBytes));
  const calls = engine.mallocCalls;
  const walked = walkChecks(checks);
  assert.equal(verifier.verify(checks.subarray(0, walked.offsets[5]), 5).error, 0);
  assert.equal(engine.mallocCalls, calls, 'a smaller batch reuses the region');
  const badSchnorr = encodeCheck({ type: CheckType.SCHNORR, msg32: new Uint8Array(32), pubkey: new Uint8Array(31), sig: new Uint8Array(64) });
  const status = verifier.verify(concatChecks([checks.subarray(0, walked.offsets[4]), badSchnorr]), 5);
  assert.deepEqual({ error: status.error, errorRecord: status.errorRecord, errorOffset: status.errorOffset },
    { error: 3, errorRecord: 4, errorOffset: walked.offsets[4] });
  assert.deepEqual(status.verdicts.subarray(0, 4), expectedVerdicts(msgFirstBytes.subarray(0, 4)));
});
