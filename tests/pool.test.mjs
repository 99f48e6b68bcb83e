// The verify pool (workers/pool.mjs) over real worker_threads running a fake engine
// (tests/support/fake-engine.mjs: valid iff msg32[0] is even): verdicts come back in input
// order, concurrent calls stay separate, failures reject naming the worker, nothing hangs.
// Every pool test runs on both transports (shared ring and transferred buffers); then what
// each transport puts in a message, malformed replies, workers whose engine or script does not
// load, and the real wasm workers' memory over maximum-size batches.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { fixturesDir } from '../blocks-fixtures/loader.mjs';
import { createBatchVerifier } from '../wasm/batch-verifier.mjs';
import { loadEngine } from '../wasm/engine.mjs';
import { CheckType, concatChecks, encodeCheck, MAX_RECORD_BYTES, walkChecks } from '../wasm/check-buffer.mjs';
import { nodeHost } from '../workers/node-host.mjs';
import { createPool, MAX_BATCH_SIZE, MAX_WORKERS } from '../workers/pool.mjs';
import { createFakeEngine } from './support/fake-engine.mjs';
import { packUnchecked, prng, randomChecks } from './support/random-checks.mjs';
import { validateFixture } from './support/wasm.mjs';

const FAKE_WORKER = new URL('./support/fake-verify-worker.mjs', import.meta.url);
const fakePool = (workers, transport, workerData = {}) =>
  createPool({ workers, transport, host: nodeHost({ workerUrl: FAKE_WORKER, workerData }) });
// Registers the test `fn(transport, t)` once per transport.
const poolTest = (name, fn) => {
  for (const transport of ['shared', 'transfer']) test(`${name} [${transport}]`, (t) => fn(transport, t));
};
const expectedVerdicts = (msgFirstBytes) => Uint8Array.from(msgFirstBytes, (b) => (b % 2 === 0 ? 1 : 0));

poolTest('verdicts come back in input order across 2 workers and many batches', async (transport) => {
  const pool = fakePool(2, transport);
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

poolTest('concurrent verify calls each get their own verdicts', async (transport) => {
  const pool = fakePool(2, transport);
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

poolTest('a malformed buffer rejects naming record and byte offset; the pool still works', async (transport) => {
  const pool = fakePool(1, transport);
  try {
    const { checks } = randomChecks(10, 4);
    await assert.rejects(pool.verify(checks.subarray(0, checks.length - 1)), /check record 9 at byte \d+: truncated/);
    const ok = randomChecks(10, 5);
    assert.deepEqual(await pool.verify(ok.checks), expectedVerdicts(ok.msgFirstBytes));
  } finally {
    await pool.close();
  }
});

poolTest('a batch that crashes its worker every time fails its job alone after 3 attempts', async (transport) => {
  const pool = fakePool(2, transport);
  try {
    await pool.ready();
    const { checks, msgFirstBytes } = randomChecks(20, 6);
    assert.ok(!msgFirstBytes.includes(0xdd));
    // Record 15's msg32 gets the crash marker: batch 1 (records 10-19) kills each worker it
    // is sent to (uncaught exception), is retried on replacements, then fails.
    const crashAt = checks.slice();
    crashAt[walkChecks(checks).offsets[15] + 4] = 0xdd;
    await assert.rejects(pool.verify(crashAt, { batchSize: 10 }),
      /batch of 10 records starting at record 10 failed 3 times .*last error: verify worker \d of 2 failed: fake worker crashed/);
    assert.ok(pool.replacements >= 3);
    assert.deepEqual(await pool.verify(checks), expectedVerdicts(msgFirstBytes), 'the pool stays usable');
  } finally {
    await pool.close();
  }
});

poolTest('a worker that fails to load rejects ready() and verify() instead of hanging', async (transport) => {
  const pool = fakePool(1, transport, { failOnLoad: true });
  try {
    const pending = pool.verify(randomChecks(5, 7).checks);
    await assert.rejects(pool.ready(), /verify worker 0 of 1 failed: fake engine failed to load/);
    await assert.rejects(pending, /verify worker 0 of 1 failed/);
  } finally {
    await pool.close();
  }
});

poolTest('close() rejects pending work; bad worker counts are refused', async (transport) => {
  const pool = fakePool(1, transport);
  const pending = assert.rejects(pool.verify(randomChecks(2000, 8).checks, { batchSize: 1 }), /verify pool closed/);
  await pool.close();
  await pending;
  await assert.rejects(pool.verify(randomChecks(1, 8).checks), /verify pool closed/);
  await pool.close(); // idempotent
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
  const badSchnorr = packUnchecked({ type: CheckType.SCHNORR, msg32: new Uint8Array(32), pubkey: new Uint8Array(31), sig: new Uint8Array(64) });
  const status = verifier.verify(concatChecks([checks.subarray(0, walked.offsets[4]), badSchnorr]), 5);
  assert.deepEqual({ error: status.error, errorRecord: status.errorRecord, errorOffset: status.errorOffset },
    { error: 3, errorRecord: 4, errorOffset: walked.offsets[4] });
  assert.deepEqual(status.verdicts.subarray(0, 4), expectedVerdicts(msgFirstBytes.subarray(0, 4)));
});

// ---- input handling (Buffer views, wrong types, send failures) ----

// `checks` placed at byte `offset` of a larger ArrayBuffer filled with junk, as a Node Buffer.
function bufferAt(checks, offset) {
  const ab = new ArrayBuffer(offset + checks.length + 77);
  new Uint8Array(ab).fill(0xa5);
  const buf = Buffer.from(ab, offset, checks.length);
  buf.set(checks);
  return buf;
}

poolTest('a Buffer at a non-zero offset gives the verdicts of a copy and stays intact', async (transport) => {
  const pool = fakePool(2, transport);
  try {
    const { checks, msgFirstBytes } = randomChecks(500, 21);
    const buf = bufferAt(checks, 13);
    const whole = new Uint8Array(buf.buffer).slice();
    const verdicts = await pool.verify(buf, { batchSize: 30 });
    assert.deepEqual(verdicts, expectedVerdicts(msgFirstBytes));
    assert.deepEqual(verdicts, await pool.verify(new Uint8Array(buf), { batchSize: 30 }));
    assert.equal(buf.buffer.byteLength, whole.length, 'not detached');
    assert.deepEqual(new Uint8Array(buf.buffer), whole, 'not modified');
    // A one-batch Buffer view (Buffer#slice is a view: the old bug transferred it all)
    assert.deepEqual(await pool.verify(buf.subarray(walkChecks(checks).offsets[7])),
      expectedVerdicts(msgFirstBytes.subarray(7)));
    assert.deepEqual(new Uint8Array(buf.buffer), whole);
  } finally {
    await pool.close();
  }
});

poolTest('checks that are not a Uint8Array reject with a TypeError', async (transport) => {
  const pool = fakePool(1, transport);
  try {
    const { checks } = randomChecks(4, 22);
    const bad = [checks.buffer.slice(0), new DataView(checks.buffer.slice(0)), new Uint16Array(4),
      new Uint8ClampedArray(checks), [...checks], 'abc', null, undefined, { length: 0 }];
    for (const value of bad) await assert.rejects(pool.verify(value), TypeError);
    assert.equal(checks.buffer.byteLength, checks.length);
    await assert.rejects(pool.verify(checks, { batchSize: '2' }), RangeError);
    assert.equal((await pool.verify(checks)).length, 4);
  } finally {
    await pool.close();
  }
});

poolTest('a batch that cannot be sent fails its job and frees the worker', async (transport) => {
  const inner = nodeHost({ workerUrl: FAKE_WORKER });
  let posts = 0;
  const host = {
    spawn(i, cb) {
      const ep = inner.spawn(i, cb);
      return { ...ep, post: (msg, transfer) => { if (++posts === 1) throw new Error('injected DataCloneError'); ep.post(msg, transfer); } };
    },
  };
  const pool = createPool({ workers: 1, transport, host });
  try {
    await pool.ready();
    await assert.rejects(pool.verify(randomChecks(5, 23).checks), /could not send the batch of 5 records starting at record 0 to verify worker 0: injected/);
    const ok = randomChecks(50, 24);
    assert.deepEqual(await pool.verify(ok.checks, { batchSize: 10 }), expectedVerdicts(ok.msgFirstBytes));
  } finally {
    await pool.close();
  }
});

// ---- dead, trapping and stuck workers ----

const FAULT_WORKER = new URL('./support/fault-verify-worker.mjs', import.meta.url);
const sharedCounter = () => new Int32Array(new SharedArrayBuffer(4));
// A host running the fault worker that records every endpoint it creates and lets `onPost`
// see each batch sent.
function faultHost(workerData, onPost = () => {}) {
  const inner = nodeHost({ workerUrl: FAULT_WORKER, workerData });
  const endpoints = [];
  return {
    endpoints,
    spawn(i, cb) {
      const ep = inner.spawn(i, cb);
      const wrapped = { ...ep, post: (msg, transfer) => { ep.post(msg, transfer); onPost(wrapped); } };
      endpoints.push(wrapped);
      return wrapped;
    },
  };
}

poolTest('workers killed at random points over 200 batches lose no batch; the pool stays usable', async (transport) => {
  const next = prng(25);
  let kills = 0;
  const host = faultHost({ counter: sharedCounter(), faults: { 17: 'exit', 43: 'throw', 71: 'trap', 120: 'exit' } }, (ep) => {
    if (next() % 6 !== 0) return;
    kills++;
    const delay = next() % 3;
    setTimeout(() => ep.terminate(), delay); // mid-batch or just after its reply
  });
  // About 1 post in 6 is killed, so a batch being killed 3 times in a row is likely over 200
  // batches: the attempt limit is raised here (it is tested on its own below).
  const pool = createPool({ workers: 3, transport, host, maxAttempts: 20 });
  try {
    await pool.ready();
    const { checks, msgFirstBytes } = randomChecks(6000, 26);
    const single = createBatchVerifier(createFakeEngine()).verify(checks, 6000).verdicts;
    const verdicts = await pool.verify(checks, { batchSize: 30 }); // 200 batches
    assert.deepEqual(verdicts, single);
    assert.deepEqual(verdicts, expectedVerdicts(msgFirstBytes));
    assert.ok(kills >= 20, `${kills} kills`);
    assert.ok(pool.replacements >= 4, `${pool.replacements} replacements`);
    const again = randomChecks(300, 27);
    assert.deepEqual(await pool.verify(again.checks, { batchSize: 10 }), expectedVerdicts(again.msgFirstBytes));
  } finally {
    await pool.close();
  }
});

poolTest('a deterministically trapping batch fails alone after 3 attempts; a concurrent job completes', async (transport) => {
  const pool = createPool({ workers: 2, transport, host: faultHost({ trapMarker: true }) });
  try {
    await pool.ready();
    const bad = randomChecks(40, 28);
    const at = walkChecks(bad.checks).offsets[25] + 4;
    bad.checks.set([0xde, 0xad, 0xbe, 0xef], at);
    const good = randomChecks(2000, 29);
    const [badResult, goodResult] = await Promise.allSettled([
      pool.verify(bad.checks, { batchSize: 10 }), pool.verify(good.checks, { batchSize: 50 })]);
    assert.equal(badResult.status, 'rejected');
    assert.match(badResult.reason.message,
      /^batch of 10 records starting at record 20 failed 3 times .*last error: verify worker \d: .*memory access out of bounds \(injected\)/s);
    assert.equal(goodResult.status, 'fulfilled');
    assert.deepEqual(goodResult.value, expectedVerdicts(good.msgFirstBytes));
    assert.equal(pool.replacements, 3, 'each trap retires its worker');
    assert.deepEqual(await pool.verify(good.checks), expectedVerdicts(good.msgFirstBytes));
  } finally {
    await pool.close();
  }
});

poolTest('a hung worker is timed out, replaced, and its batch completes elsewhere', async (transport) => {
  const host = faultHost({ counter: sharedCounter(), faults: { 3: 'hang' } });
  const pool = createPool({ workers: 2, transport, host, batchTimeoutMs: 300, recordTimeoutMs: 0 });
  try {
    await pool.ready();
    const { checks, msgFirstBytes } = randomChecks(400, 30);
    const t0 = Date.now();
    assert.deepEqual(await pool.verify(checks, { batchSize: 20 }), expectedVerdicts(msgFirstBytes));
    assert.ok(Date.now() - t0 >= 300, 'waited for the deadline');
    assert.equal(pool.replacements, 1);
    assert.throws(() => createPool({ workers: 1, batchTimeoutMs: 0 }), /batchTimeoutMs must be a positive/);
    assert.throws(() => createPool({ workers: 1, maxAttempts: 1.5 }), /maxAttempts must be a positive integer/);
  } finally {
    await pool.close();
  }
});

// The stall deadline (verify-pool.mjs): a worker that stops answering after the pool has seen
// batches complete is given up on at max(minStallMs, stallFactor x the expected time), not at
// the full deadline (here 120 s, which would time the test out); a retry gets the full one.
poolTest('a worker that stops answering mid-run is given up on at its stall deadline, not the full one', async (transport) => {
  const host = faultHost({ counter: sharedCounter(), faults: { 30: 'hang' } });
  const pool = createPool({ workers: 2, transport, host, batchTimeoutMs: 120_000, recordTimeoutMs: 0, minStallMs: 1000 });
  try {
    await pool.ready();
    const { checks, msgFirstBytes } = randomChecks(400, 32);
    const t0 = Date.now();
    assert.deepEqual(await pool.verify(checks, { batchSize: 10 }), expectedVerdicts(msgFirstBytes));
    assert.ok(Date.now() - t0 < 60_000, 'the hung batch was not held to the full 120 s deadline');
    assert.equal(pool.replacements, 1);
  } finally {
    await pool.close();
  }
  // A worker that hangs on the run's very first batch, before there is any estimate, gets its
  // stall deadline once the other worker completes a batch.
  const first = createPool({ workers: 2, transport, batchTimeoutMs: 120_000, recordTimeoutMs: 0, minStallMs: 1000,
    host: faultHost({ counter: sharedCounter(), faults: { 1: 'hang' } }) });
  try {
    await first.ready();
    const { checks, msgFirstBytes } = randomChecks(400, 36);
    const t0 = Date.now();
    assert.deepEqual(await first.verify(checks, { batchSize: 10 }), expectedVerdicts(msgFirstBytes));
    assert.ok(Date.now() - t0 < 60_000, 'the first batch was not held to the full 120 s deadline');
    // (which worker gets the pool's first message is a race)
    assert.deepEqual(first.faults.map((f) => f.replace(/ \(.*/, '').replace(/worker \d/, 'worker N')), ['verify worker N timed out after 1000 ms']);
  } finally {
    await first.close();
  }
  // The pool's faults name the stall deadline and what it came from.
  const named = createPool({ workers: 1, transport, batchTimeoutMs: 120_000, recordTimeoutMs: 0, minStallMs: 1000,
    host: faultHost({ counter: sharedCounter(), faults: { 5: 'hang' } }) });
  try {
    const { checks, msgFirstBytes } = randomChecks(100, 33);
    assert.deepEqual(await named.verify(checks, { batchSize: 10 }), expectedVerdicts(msgFirstBytes));
    assert.equal(named.faults.length, 1);
    assert.match(named.faults[0],
      /^verify worker 0 timed out after 1000 ms \(20x the [\d.]+ ms its work was expected to take from the last 4 batches, or 1000 ms at least; a retry gets the full 120000 ms\)$/);
  } finally {
    await named.close();
  }
  // With one attempt allowed there is no retry to fall back on: the full deadline, no stall one.
  const once = createPool({ workers: 1, transport, maxAttempts: 1, batchTimeoutMs: 3000, recordTimeoutMs: 0, minStallMs: 1000,
    host: faultHost({ counter: sharedCounter(), faults: { 5: 'hang' } }) });
  try {
    await once.ready();
    const t0 = Date.now();
    await assert.rejects(once.verify(randomChecks(100, 34).checks, { batchSize: 10 }),
      /batch of 10 records starting at record 40 failed once \(1 attempt allowed\); last error: verify worker 0 timed out after 3000 ms$/);
    assert.ok(Date.now() - t0 >= 3000, 'held to the full deadline');
  } finally {
    await once.close();
  }
});

test('a stall deadline that comes due while this thread is busy is not carried out when a reply meanwhile set it later', async () => {
  // Worker 0 is slow (4 s) on messages 5 and 6, worker 1 (0.7 s): both healthy. (A review found
  // worker 0 retired: its old timer acted although worker 1's reply had raised the estimate.)
  const counter = sharedCounter();
  const hosts = [4000, 700].map((slowMs) => nodeHost({ workerUrl: FAULT_WORKER, workerData: { counter, faults: { 5: 'slow', 6: 'slow' }, slowMs } }));
  const pool = createPool({ workers: 2, host: { spawn: (i, cb) => hosts[Math.min(i, 1)].spawn(i, cb) },
    batchTimeoutMs: 120_000, recordTimeoutMs: 0, minStallMs: 500 });
  try {
    await pool.ready();
    await pool.verify(randomChecks(40, 37).checks, { batchSize: 10 }); // messages 1-4: an estimate, stall deadlines of 500 ms
    const { checks, msgFirstBytes } = randomChecks(20, 38);
    const run = pool.verify(checks, { batchSize: 10 }); // messages 5 and 6, one per worker
    // Busy from 0.4 to 2 s: both stall timers come due, and worker 1's reply (0.7 s) raises the
    // estimate to 20 x 70 ms x 10 records = 14 s, past worker 0's 4 s.
    setTimeout(() => setImmediate(() => { for (const end = performance.now() + 1600; performance.now() < end;); }), 400);
    assert.deepEqual(await run, expectedVerdicts(msgFirstBytes));
    assert.deepEqual(pool.faults, []);
    assert.equal(pool.replacements, 0);
    await assert.rejects(pool.verify(checks, { constructor: 1 }), /unknown option "constructor"/);
  } finally {
    await pool.close();
  }
});

poolTest('a worker that is only slow past its stall deadline costs one attempt: the retry gets the full deadline', async (transport) => {
  // One worker, so the messages come in order: message 30 is late (3 s against a 1 s stall
  // deadline), its worker is replaced, and message 31, the retry, is as late again but within
  // the full deadline: one replacement, every verdict.
  const host = faultHost({ counter: sharedCounter(), faults: { 30: 'slow', 31: 'slow' }, slowMs: 3000 });
  const pool = createPool({ workers: 1, transport, host, batchTimeoutMs: 120_000, recordTimeoutMs: 0, minStallMs: 1000 });
  try {
    await pool.ready();
    const { checks, msgFirstBytes } = randomChecks(400, 34);
    assert.deepEqual(await pool.verify(checks, { batchSize: 10 }), expectedVerdicts(msgFirstBytes));
    assert.equal(pool.replacements, 1);
    assert.throws(() => createPool({ workers: 1, stallFactor: -1 }), /stallFactor must be a positive finite number, got -1/);
    assert.throws(() => createPool({ workers: 1, minStallMs: 0 }), /minStallMs must be a positive finite number, got 0/);
  } finally {
    await pool.close();
  }
  // stallFactor 0: the full deadline only; the late batch is waited for, no replacement.
  const off = createPool({ workers: 1, transport, stallFactor: 0, minStallMs: 1000, batchTimeoutMs: 120_000, recordTimeoutMs: 0,
    host: faultHost({ counter: sharedCounter(), faults: { 8: 'slow' }, slowMs: 1500 }) });
  try {
    const { checks, msgFirstBytes } = randomChecks(100, 35);
    assert.deepEqual(await off.verify(checks, { batchSize: 10 }), expectedVerdicts(msgFirstBytes));
    assert.equal(off.replacements, 0);
  } finally {
    await off.close();
  }
});

// A host whose first `initial` workers run the fault worker with `faults` (pool-wide batch
// numbers) and whose every later worker, each replacement, exits while loading.
function brokenReplacementsHost(initial, faults) {
  const healthy = nodeHost({ workerUrl: FAULT_WORKER, workerData: { counter: sharedCounter(), faults } });
  const broken = nodeHost({ workerUrl: FAULT_WORKER, workerData: { exitOnLoad: true } });
  let spawned = 0;
  return { spawn: (i, cb) => (++spawned <= initial ? healthy : broken).spawn(i, cb) };
}

poolTest('replacements that fail to load give up their place; the other workers finish every batch', async (transport) => {
  // Two workers; batch 5 kills its worker, and from then on every new worker exits while loading.
  const pool = createPool({ workers: 2, transport, host: brokenReplacementsHost(2, { 5: 'exit' }) });
  try {
    await pool.ready();
    const { checks, msgFirstBytes } = randomChecks(600, 31);
    assert.deepEqual(await pool.verify(checks, { batchSize: 20 }), expectedVerdicts(msgFirstBytes));
    // The healthy worker may finish before the third replacement has failed: wait for it.
    for (let i = 0; i < 200 && pool.lostWorkers.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(pool.replacements, 3, 'maxAttempts (3) replacements tried in a row');
    assert.equal(pool.lostWorkers.length, 1);
    assert.match(pool.lostWorkers[0], /^verify worker \d of 2 exited \(code 7\) \(replacement 3 in a row that failed to load; its place is given up\)$/);
    const again = randomChecks(100, 32);
    assert.deepEqual(await pool.verify(again.checks, { batchSize: 10 }), expectedVerdicts(again.msgFirstBytes));
  } finally {
    await pool.close();
  }
});

poolTest('when the last worker place is given up, verify() rejects naming every lost worker', async (transport) => {
  const pool = createPool({ workers: 1, transport, host: brokenReplacementsHost(1, { 2: 'exit' }) });
  try {
    await pool.ready();
    await assert.rejects(pool.verify(randomChecks(100, 33).checks, { batchSize: 10 }),
      /^Error: no verify worker is left: verify worker 0 of 1 exited \(code 7\) \(replacement 3 in a row/);
  } finally {
    await pool.close();
  }
});

// The wasm engine and fixture block `height` validated on this thread, or null (and `t`
// skipped) when the block is not there.
async function fixtureBlock(t, height) {
  const dir = path.join(fixturesDir(), 'mainnet', String(height));
  if (!existsSync(dir)) {
    t.skip(`no fixture block at ${dir}`);
    return null;
  }
  const engine = await loadEngine('simd');
  const res = await validateFixture(engine, {
    block: new Uint8Array(readFileSync(path.join(dir, 'block.raw'))),
    spentOutputsJson: readFileSync(path.join(dir, 'spent_outputs.json'), 'utf8'), hash: '', height,
  });
  assert.ok(res.valid, res.error);
  return { engine, res };
}

poolTest('wasm engine: a Buffer view and a trapped worker give the single-threaded verdicts', async (transport, t) => {
  const fixture = await fixtureBlock(t, 866342);
  if (!fixture) return;
  const { engine, res } = fixture;
  const walked = walkChecks(res.checks);
  const checks = res.checks.slice(0, walked.offsets[Math.min(walked.count, 3000)]);
  const count = walkChecks(checks).count;
  const half = count >> 1;
  const w = walkChecks(checks);
  for (let i = half; i < count; i++) checks[w.offsets[i] + 4] ^= 1; // second half: invalid
  const single = createBatchVerifier(engine).verify(checks, count).verdicts;
  assert.ok(single.subarray(0, half).includes(1) && !single.subarray(half).includes(1));
  const buf = bufferAt(checks, 4099);
  const whole = new Uint8Array(buf.buffer).slice();
  const pool = createPool({ workers: 2, transport, host: faultHost({ variant: 'simd', counter: sharedCounter(), faults: { 2: 'trap' } }) });
  try {
    assert.deepEqual(await pool.verify(buf, { batchSize: 400 }), single);
    assert.equal(pool.replacements, 1, 'the trapped worker was replaced');
    assert.deepEqual(new Uint8Array(buf.buffer), whole);
    const tail = buf.subarray(w.offsets[half]); // Buffer view deep into a shared ArrayBuffer
    assert.deepEqual(await pool.verify(tail, { batchSize: 8192 }), single.subarray(half));
  } finally {
    await pool.close();
  }
});

poolTest('onProgress reports the records verified so far, increasing up to the total', async (transport) => {
  const pool = fakePool(2, transport);
  try {
    const { checks, msgFirstBytes } = randomChecks(1000, 3);
    const seen = [];
    const verdicts = await pool.verify(checks, { batchSize: 64, onProgress: (done) => seen.push(done) });
    assert.deepEqual(verdicts, expectedVerdicts(msgFirstBytes));
    assert.ok(seen.length >= Math.ceil(1000 / 64), JSON.stringify(seen)); // one call per batch
    seen.forEach((n, i) => assert.ok(n > (seen[i - 1] ?? 0), JSON.stringify(seen)));
    assert.equal(seen.at(-1), 1000);
    // A throwing callback does not disturb the verification.
    const again = await pool.verify(checks, { batchSize: 500, onProgress: () => { throw new Error('display'); } });
    assert.deepEqual(again, verdicts);
  } finally {
    await pool.close();
  }
});

// ---- transports ----

// A host running the fake worker that records each batch message (its keys, and the buffers
// it carries and transfers, noted before the transfer detaches them) and each batch reply.
function recordingHost() {
  const inner = nodeHost({ workerUrl: FAKE_WORKER });
  const sent = [];
  const replies = [];
  return {
    sent,
    replies,
    spawn(i, cb) {
      const ep = inner.spawn(i, { ...cb, onMessage: (msg) => { if (msg?.id) replies.push(msg); cb.onMessage(msg); } });
      return {
        ...ep,
        post: (msg, transfer) => {
          sent.push({ worker: i, keys: Object.keys(msg).sort(), ring: msg.ring, checks: msg.checks, count: msg.count, transfer: [...transfer] });
          ep.post(msg, transfer);
        },
      };
    },
  };
}

test('shared transport: messages carry offsets and the ring once per worker; workers read it in place', async () => {
  const host = recordingHost();
  const pool = createPool({ workers: 2, host });
  try {
    assert.equal(pool.transport, 'shared', "'auto' under Node");
    await pool.ready(); // both workers take part from the first dispatch
    const a = randomChecks(3000, 40);
    const b = randomChecks(700, 41);
    assert.deepEqual(await pool.verify(a.checks, { batchSize: 100 }), expectedVerdicts(a.msgFirstBytes));
    assert.deepEqual(await pool.verify(b.checks, { batchSize: 64 }), expectedVerdicts(b.msgFirstBytes));
    assert.ok(host.sent.length >= 30 + 11);
    const withRing = host.sent.filter((s) => s.ring);
    assert.deepEqual(withRing.map((s) => s.worker).sort(), [0, 1], 'the ring goes once to each worker, reused by the second job');
    assert.ok(withRing[0].ring instanceof SharedArrayBuffer);
    assert.equal(withRing[0].ring, withRing[1].ring);
    for (const s of host.sent) {
      assert.deepEqual(s.keys.filter((k) => k !== 'ring'), ['count', 'id', 'length', 'offset']);
      assert.deepEqual(s.transfer, []);
    }
    assert.equal(host.replies.length, host.sent.length);
    for (const r of host.replies) {
      assert.deepEqual(Object.keys(r).sort(), ['heapBytes', 'id', 'seen', 'status'], 'no verdicts in the reply: they are in the ring');
      assert.equal(r.seen.records, 'SharedArrayBuffer', 'the worker read the records in place');
    }
  } finally {
    await pool.close();
  }
});

test('transfer transport: each message transfers its own records, each reply its verdicts', async () => {
  const host = recordingHost();
  const pool = createPool({ workers: 2, host, transport: 'transfer' });
  try {
    assert.equal(pool.transport, 'transfer');
    const { checks, msgFirstBytes } = randomChecks(2000, 42);
    assert.deepEqual(await pool.verify(checks, { batchSize: 100 }), expectedVerdicts(msgFirstBytes));
    assert.equal(host.sent.length, 20);
    for (const s of host.sent) {
      assert.deepEqual(s.keys, ['checks', 'count', 'id']);
      assert.deepEqual(s.transfer, [s.checks]);
      assert.equal(s.checks.byteLength, 0, 'transferred (detached here)');
    }
    for (const r of host.replies) {
      assert.ok(r.verdicts instanceof ArrayBuffer);
      assert.equal(r.seen.records, 'ArrayBuffer');
    }
  } finally {
    await pool.close();
  }
});

test('balance: false makes the fewest batches (a stream batch is one message); the default makes a multiple of the workers', async () => {
  const host = recordingHost();
  const pool = createPool({ workers: 2, host, transport: 'transfer' });
  try {
    const { checks, msgFirstBytes } = randomChecks(250, 44);
    assert.deepEqual(await pool.verify(checks, { batchSize: 100, balance: false }), expectedVerdicts(msgFirstBytes));
    assert.deepEqual(host.sent.map((s) => s.count), [84, 83, 83]);
    host.sent.length = 0;
    assert.deepEqual(await pool.verify(checks, { batchSize: 300, balance: false }), expectedVerdicts(msgFirstBytes));
    assert.deepEqual(host.sent.map((s) => s.count), [250]);
    host.sent.length = 0;
    assert.deepEqual(await pool.verify(checks, { batchSize: 100 }), expectedVerdicts(msgFirstBytes));
    assert.deepEqual(host.sent.map((s) => s.count), [63, 63, 62, 62]);
  } finally {
    await pool.close();
  }
});

test('deadlines past setTimeout\'s limit are refused; string options are quoted; null options mean the defaults', async () => {
  assert.throws(() => createPool({ workers: 1, batchTimeoutMs: 2 ** 31 }), /the deadline of the largest batch\) must be at most 2147483647 ms/);
  assert.throws(() => createPool({ workers: 1, recordTimeoutMs: 2 ** 20 }), /must be at most 2147483647 ms/);
  assert.throws(() => createPool({ workers: '2' }), /workers must be an integer from 1 to 256, got "2"/);
  assert.throws(() => createPool({ workers: 1, maxAttempts: '3' }), /maxAttempts must be a positive integer, got "3"/);
  const pool = fakePool(1, 'auto');
  try {
    const { checks, msgFirstBytes } = randomChecks(10, 45);
    assert.deepEqual(await pool.verify(checks, null), expectedVerdicts(msgFirstBytes));
    await assert.rejects(pool.verify(checks, { batchSize: '12' }), /batch size must be a positive integer, got "12"/);
    // Options a call would ignore are refused (a hostile review found them accepted silently).
    await assert.rejects(pool.verify(checks, 'x'), /^TypeError: verify\(checks, options\): options must be an object, got "x"$/);
    await assert.rejects(pool.verify(checks, { onProgress: 5 }), /options\.onProgress must be a function, got number/);
    await assert.rejects(pool.verify(checks, { batchsize: 5 }), /unknown option "batchsize" \(known: batchSize, balance, onProgress\)/);
    const job = { block: new Uint8Array(1), spentOutputs: new Uint8Array(1), hash: 'ab', height: 1 };
    await assert.rejects(pool.validate([[job], [{ ...job, options: { verify: () => {} } }]]),
      /^TypeError: validate\(groups\): group 1 job 0: options\.verify must be a boolean, number or string, got function$/);
    await assert.rejects(pool.validate([[{ ...job, hash: 5 }]]), /group 0 job 0: hash must be a string, got number/);
    await assert.rejects(pool.validate([[job]], { onProgres: () => {} }), /validate\(groups, options\): unknown option "onProgres" \(known: onProgress\)/);
    assert.deepEqual(await pool.verify(checks), expectedVerdicts(msgFirstBytes), 'the pool still works');
  } finally {
    await pool.close();
  }
});

test('transport and batch size limits are checked', async () => {
  assert.throws(() => createPool({ workers: 1, transport: 'smoke' }), /transport must be one of auto, shared, transfer, got "smoke"/);
  const pool = fakePool(1, 'auto');
  try {
    const { checks, msgFirstBytes } = randomChecks(MAX_BATCH_SIZE + 5, 43);
    await assert.rejects(pool.verify(checks, { batchSize: MAX_BATCH_SIZE + 1 }), /batch size must be at most 8192 records/);
    assert.deepEqual(await pool.verify(checks, { batchSize: MAX_BATCH_SIZE }), expectedVerdicts(msgFirstBytes));
  } finally {
    await pool.close();
  }
});

test('a worker killed before it is ready, or that never says so, is started again: the calls made meanwhile lose nothing', async () => {
  const { checks, msgFirstBytes } = randomChecks(600, 7);
  // The first two workers started exit before they are ready (killed, out of memory).
  const starts = new Int32Array(new SharedArrayBuffer(4));
  const exiting = createPool({ workers: 2, host: nodeHost({ workerUrl: FAKE_WORKER, workerData: { starts, exitBeforeReady: 2 } }) });
  try {
    const early = exiting.verify(checks, { batchSize: 50 }); // made before any worker is ready
    assert.equal((await exiting.ready()).length, 2);
    assert.deepEqual(await early, expectedVerdicts(msgFirstBytes));
    assert.equal(exiting.replacements, 2);
  } finally {
    await exiting.close();
  }
  // The first worker started never says it is ready (a stalled download): given up on after
  // loadTimeoutMs (2 s: a healthy start must fit in it on a loaded CI machine) and started again.
  const stalls = new Int32Array(new SharedArrayBuffer(4));
  const stalled = createPool({ workers: 2, loadTimeoutMs: 2000, host: nodeHost({ workerUrl: FAKE_WORKER, workerData: { starts: stalls, neverReady: 1 } }) });
  try {
    const early = stalled.verify(checks, { batchSize: 50 });
    assert.equal((await stalled.ready()).length, 2);
    assert.deepEqual(await early, expectedVerdicts(msgFirstBytes));
    assert.equal(stalled.replacements, 1);
  } finally {
    await stalled.close();
  }
  // Every start of a place fails: maxAttempts starts in a row, then the pool fails, naming it.
  const never = new Int32Array(new SharedArrayBuffer(4));
  const hopeless = createPool({ workers: 1, maxAttempts: 2, loadTimeoutMs: 200, host: nodeHost({ workerUrl: FAKE_WORKER, workerData: { starts: never, neverReady: 100 } }) });
  try {
    await assert.rejects(hopeless.ready(), new RegExp(`^Error: verify worker 0 of 1 did not load within 200 ms \\(loading the worker script ${FAKE_WORKER.href}\\) ` +
      '\\(start 2 in a row; the pool cannot start\\)'));
  } finally {
    await hopeless.close();
  }
  assert.throws(() => createPool({ workers: 1, loadTimeoutMs: 0 }), /loadTimeoutMs/);
});

test('a deadline that passes while this thread is busy first lets in the reply that came meanwhile', async () => {
  const busy = (ms) => { const end = performance.now() + ms; while (performance.now() < end); };
  const pool = createPool({ workers: 2, loadTimeoutMs: 300, batchTimeoutMs: 300, recordTimeoutMs: 0,
    host: nodeHost({ workerUrl: FAKE_WORKER }) });
  try {
    busy(1500); // the workers load meanwhile; their 'ready' waits behind this thread
    await pool.ready();
    const { checks, msgFirstBytes } = randomChecks(20, 9);
    const verdicts = pool.verify(checks, { batchSize: 10 });
    await new Promise((resolve) => setTimeout(resolve, 20)); // the batches are out
    busy(1000); // they are answered meanwhile, past their deadline
    assert.deepEqual(await verdicts, expectedVerdicts(msgFirstBytes));
    assert.equal(pool.replacements, 0, 'no worker that answered in time was taken for a stalled one');
  } finally {
    await pool.close();
  }
});

test('a wasm worker that cannot load its engine rejects naming the worker and the reason', async () => {
  const pool = createPool({ workers: 1, variant: 'simd-avx' });
  try {
    await assert.rejects(pool.ready(), /^Error: verify worker 0 of 1 failed to load: unknown wasm variant "simd-avx"/);
    await assert.rejects(pool.verify(randomChecks(3, 44).checks), /failed to load: unknown wasm variant/);
  } finally {
    await pool.close();
  }
});

poolTest('wasm workers: memory sized up front does not grow over maximum-size batches', async (transport, t) => {
  const fixture = await fixtureBlock(t, 170);
  if (!fixture) return;
  const block170 = fixture.res;
  assert.deepEqual(block170.verdicts, Uint8Array.of(1)); // its one check, valid
  // The largest record: a 255-byte pubkey and a 520-byte ECDSA signature (invalid).
  const largest = encodeCheck({ type: CheckType.ECDSA, msg32: new Uint8Array(32).fill(7), pubkey: new Uint8Array(255).fill(2), sig: new Uint8Array(520).fill(0x30) });
  assert.equal(largest.length, MAX_RECORD_BYTES);
  const n = 2 * MAX_BATCH_SIZE; // two maximum batches: one per worker
  const checks = concatChecks([block170.checks, ...Array(n - 1).fill(largest)]);
  const expected = new Uint8Array(n);
  expected[0] = 1;
  const pool = createPool({ workers: 2, variant: 'simd', transport });
  try {
    await pool.ready();
    const atStart = pool.heapBytes;
    assert.deepEqual(atStart, [16 << 20, 16 << 20], 'INITIAL_MEMORY (wasm/CMakeLists.txt), with the check-buffer region reserved');
    for (let round = 0; round < 4; round++) {
      assert.deepEqual(await pool.verify(checks, { batchSize: MAX_BATCH_SIZE }), expected);
      assert.deepEqual(pool.heapBytes, atStart, `round ${round}`);
    }
    // Maximum-size batches of Schnorr records: BIP340 batch verification in groups of 1,024 in
    // the scratch space allocated at start, and the groups that fail (one broken signature in
    // each) verified record by record; the memory still does not grow.
    const fixture866342 = await fixtureBlock(t, 866342);
    if (!fixture866342) return;
    const { res } = fixture866342;
    const walked = walkChecks(res.checks);
    const schnorr = [];
    for (let i = 0; i < walked.count; i++) {
      if (res.checks[walked.offsets[i]] === CheckType.SCHNORR) schnorr.push(res.checks.subarray(walked.offsets[i], walked.offsets[i + 1]));
    }
    const many = concatChecks(Array.from({ length: n }, (_, k) => schnorr[k % schnorr.length]));
    const broken = new Uint8Array(n).fill(1);
    for (let k = 0; k < n; k += 1000) {
      many[k * 132 + 100] ^= 1; // a bit of s
      broken[k] = 0;
    }
    for (let round = 0; round < 2; round++) {
      assert.deepEqual(await pool.verify(many, { batchSize: MAX_BATCH_SIZE }), broken);
      assert.deepEqual(pool.heapBytes, atStart, `Schnorr round ${round}`);
    }
  } finally {
    await pool.close();
  }
});

poolTest('a malformed reply retires its worker and the batch is verified again', async (transport) => {
  const inner = nodeHost({ workerUrl: FAKE_WORKER });
  let replies = 0;
  const host = {
    spawn: (i, cb) => inner.spawn(i, {
      ...cb,
      onMessage: (msg) => {
        if (msg?.id && ++replies === 2) delete msg.status; // the second batch's reply
        if (msg?.id && replies === 3) msg.verdicts = new ArrayBuffer(1); // wrong length (shared: ignored)
        cb.onMessage(msg);
      },
    }),
  };
  const pool = createPool({ workers: 1, transport, host });
  try {
    const { checks, msgFirstBytes } = randomChecks(100, 45);
    assert.deepEqual(await pool.verify(checks, { batchSize: 10 }), expectedVerdicts(msgFirstBytes));
    assert.equal(pool.replacements, transport === 'shared' ? 1 : 2);
  } finally {
    await pool.close();
  }
});

test('a worker script that is not there rejects naming the file', async () => {
  const missing = new URL('./support/no-such-verify-worker.mjs', import.meta.url);
  const pool = createPool({ workers: 2, host: nodeHost({ workerUrl: missing }) });
  try {
    await assert.rejects(pool.ready(), (err) => {
      assert.match(err.message, /^verify worker \d of 2 failed: /);
      assert.ok(err.message.includes(fileURLToPath(missing)), err.message);
      return true;
    });
  } finally {
    await pool.close();
  }
});
