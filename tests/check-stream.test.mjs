// The check stream (workers/check-stream.mjs): single checks gathered into batches that close
// when full, when the oldest check waited the fill timeout, or at flush()/close(); verdicts
// come back per check. Real fixture checks through a real pool give the single-threaded
// verdicts; a fake pool (valid iff msg32[0] is even) checks the batching itself. No timing
// assertions: batches are checked by cause and size.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixturesDir, loadBlocks } from '../blocks-fixtures/loader.mjs';
import { CheckStream, DEFAULT_FILL_TIMEOUT_MS } from '../workers/check-stream.mjs';
import { loadEngine } from '../wasm/engine.mjs';
import { concatChecks, walkChecks } from '../wasm/check-buffer.mjs';
import { createPool } from '../workers/pool.mjs';
import { randomChecks } from './support/random-checks.mjs';
import { validateFixture, verifyChecks } from './support/wasm.mjs';

/** The records of a packed buffer, each its own Uint8Array. */
const recordsOf = (checks) => {
  const { count, offsets } = walkChecks(checks);
  return Array.from({ length: count }, (_, i) => checks.slice(offsets[i], offsets[i + 1]));
};

/** A pool stand-in: verdict 1 iff msg32[0] is even; remembers each verify call's record count
 *  and batchSize; a batch holding a record whose msg32[0] is 0xdd rejects. */
function fakePool() {
  const calls = [];
  return {
    calls,
    closed: false,
    async verify(checks, { batchSize, balance }) {
      assert.equal(balance, false, 'a stream batch goes to one worker unsplit');
      const records = recordsOf(checks);
      calls.push({ count: records.length, batchSize });
      if (records.some((r) => r[4] === 0xdd)) throw new Error('worker failed');
      return Uint8Array.from(records, (r) => (r[4] % 2 === 0 ? 1 : 0));
    },
    async close() { this.closed = true; },
  };
}
const fakeVerdict = (record) => (record[4] % 2 === 0 ? 1 : 0);

test('real fixture checks through a 2-worker pool: verdicts equal a single-threaded run, in submit order', async () => {
  const engine = await loadEngine('simd');
  const blocks = await loadBlocks(fixturesDir(), { heights: [57043, 150013] });
  const records = [];
  for (const b of blocks) records.push(...recordsOf((await validateFixture(engine, b)).checks));
  for (let i = 0; i < records.length; i += 7) records[i][4] ^= 1; // every 7th message altered: invalid
  const expected = verifyChecks(engine, concatChecks(records));
  assert.ok(expected.includes(0) && expected.includes(1));
  const pool = createPool({ workers: 2 });
  try {
    const stream = new CheckStream(pool, { policy: 'size-or-timeout', maxBatch: 16, fillTimeoutMs: 5 });
    const truncated = records[3].subarray(0, records[3].length - 1);
    const pending = records.map((r) => stream.submit(r));
    // Submitted while the last batch is open; it joins none.
    const bad = assert.rejects(stream.submit(truncated),
      new RegExp(`check stream submission ${records.length}: malformed record: check record 0 at byte 0: truncated record`));
    const verdicts = await Promise.all(pending);
    assert.deepEqual(Uint8Array.from(verdicts), expected);
    await bad;
    const s = stream.stats();
    const full = Math.floor(records.length / 16);
    assert.equal(s.records, records.length);
    assert.equal(s.byCause.full, full);
    assert.equal(s.byCause.timeout, records.length % 16 ? 1 : 0); // the partial last batch
    assert.equal(s.batches, s.byCause.full + s.byCause.timeout);
    assert.equal(s.open, 0);
  } finally {
    await pool.close();
  }
});

test("'size' closes a batch only when full; flush() closes the rest", async () => {
  const pool = fakePool();
  const { checks, msgFirstBytes } = randomChecks(7, 11);
  const stream = new CheckStream(pool, { policy: 'size', maxBatch: 3, fillTimeoutMs: 1 });
  const pending = recordsOf(checks).map((r) => stream.submit(r));
  await new Promise((resolve) => setTimeout(resolve, 20)); // far past fillTimeoutMs: 'size' ignores it
  assert.deepEqual(pool.calls, [{ count: 3, batchSize: 3 }, { count: 3, batchSize: 3 }]);
  assert.deepEqual(stream.stats(), { batches: 2, records: 6, byCause: { full: 2, timeout: 0, flush: 0 }, meanBatchSize: 3, open: 1, inFlight: 0 });
  await stream.flush();
  assert.deepEqual(pool.calls.at(-1), { count: 1, batchSize: 1 });
  assert.deepEqual(Uint8Array.from(await Promise.all(pending)), Uint8Array.from(msgFirstBytes, (b) => (b % 2 === 0 ? 1 : 0)));
  const s = stream.stats();
  assert.deepEqual(s.byCause, { full: 2, timeout: 0, flush: 1 });
  assert.equal(s.meanBatchSize, 7 / 3);
});

test("'size-or-timeout' closes a batch its oldest check has waited fillTimeoutMs for", async () => {
  const pool = fakePool();
  const records = recordsOf(randomChecks(5, 12).checks);
  const stream = new CheckStream(pool, { policy: 'size-or-timeout', maxBatch: 100, fillTimeoutMs: 2 });
  const first = await Promise.all(records.slice(0, 3).map((r) => stream.submit(r))); // settles only by the timer
  assert.deepEqual(first, records.slice(0, 3).map(fakeVerdict));
  assert.deepEqual(pool.calls, [{ count: 3, batchSize: 3 }]);
  const second = await Promise.all(records.slice(3).map((r) => stream.submit(r)));
  assert.deepEqual(second, records.slice(3).map(fakeVerdict));
  assert.deepEqual(pool.calls.at(-1), { count: 2, batchSize: 2 });
  assert.deepEqual(stream.stats().byCause, { full: 0, timeout: 2, flush: 0 });
});

test('close() flushes, later submits reject, the pool stays open', async () => {
  const pool = fakePool();
  const records = recordsOf(randomChecks(4, 13).checks);
  const stream = new CheckStream(pool, { policy: 'size', maxBatch: 10 });
  const pending = records.map((r) => stream.submit(r));
  await stream.close();
  assert.deepEqual(await Promise.all(pending), records.map(fakeVerdict));
  assert.deepEqual(stream.stats().byCause, { full: 0, timeout: 0, flush: 1 });
  await assert.rejects(stream.submit(records[0]), /check stream submission 4: check stream closed/);
  await stream.flush(); // nothing open: no empty batch
  assert.equal(pool.calls.length, 1);
  assert.equal(pool.closed, false);
});

test('a malformed record is rejected alone at submit; the others verify', async () => {
  const pool = fakePool();
  const records = recordsOf(randomChecks(3, 14).checks);
  const stream = new CheckStream(pool, { policy: 'size', maxBatch: 3 });
  const unknownType = records[1].slice();
  unknownType[0] = 7;
  const two = Uint8Array.from([...records[0], ...records[1]]);
  const results = await Promise.allSettled([
    stream.submit(records[0]),
    stream.submit(unknownType),
    stream.submit(two),
    stream.submit(new Uint8Array(0)),
    stream.submit('not bytes'),
    stream.submit(records[1]),
    stream.submit(records[2]), // the third good record fills the batch
  ]);
  assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'rejected', 'rejected', 'rejected', 'fulfilled', 'fulfilled']);
  assert.match(results[1].reason.message, /^check stream submission 1: malformed record: check record 0 at byte 0: unknown check type 7$/);
  assert.match(results[2].reason.message, /^check stream submission 2: malformed record: holds 2 records, expected exactly one$/);
  assert.match(results[3].reason.message, /submission 3: malformed record: holds 0 records/);
  assert.ok(results[4].reason instanceof TypeError);
  assert.match(results[4].reason.message, /submission 4: record must be a Uint8Array, got string/);
  assert.deepEqual([0, 5, 6].map((i) => results[i].value), records.map(fakeVerdict));
  assert.deepEqual(pool.calls, [{ count: 3, batchSize: 3 }]);
});

test('a failing batch rejects only its own checks', async () => {
  const pool = fakePool();
  const records = recordsOf(randomChecks(6, 15).checks);
  records[3][4] = 0xdd; // the fake pool fails the batch holding it (records 2 and 3)
  const stream = new CheckStream(pool, { policy: 'size', maxBatch: 2 });
  const results = await Promise.allSettled(records.map((r) => stream.submit(r)));
  assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'fulfilled', 'rejected', 'rejected', 'fulfilled', 'fulfilled']);
  for (const i of [2, 3]) {
    assert.match(results[i].reason.message, /^check stream batch 1 \(2 records, closed: full\) failed: worker failed$/);
    assert.equal(results[i].reason.cause.message, 'worker failed');
  }
  for (const i of [0, 1, 4, 5]) assert.equal(results[i].value, fakeVerdict(records[i]));
});

test('a pool that returns too few verdicts fails that batch instead of resolving undefined', async () => {
  const short = { verify: async (checks) => new Uint8Array(recordsOf(checks).length - 1).fill(1) };
  const stream = new CheckStream(short, { policy: 'size', maxBatch: 2 });
  const results = await Promise.allSettled(recordsOf(randomChecks(2, 16).checks).map((r) => stream.submit(r)));
  for (const r of results) {
    assert.equal(r.status, 'rejected');
    assert.match(r.reason.message, /^check stream batch 0 \(2 records, closed: full\) failed: the pool returned 1 verdicts for 2 records$/);
  }
});

test('bad options are RangeErrors naming the option', () => {
  const pool = fakePool();
  assert.throws(() => new CheckStream(pool, { policy: 'timeout' }), /policy must be one of size, size-or-timeout/);
  assert.throws(() => new CheckStream(pool, { maxBatch: 0 }), /maxBatch must be an integer from 1 to 8192 \(MAX_BATCH_SIZE\), got 0/);
  assert.throws(() => new CheckStream(pool, { maxBatch: 2.5 }), /maxBatch must be an integer from 1 to 8192/);
  assert.throws(() => new CheckStream(pool, { maxBatch: 8193 }), /maxBatch must be an integer from 1 to 8192 \(MAX_BATCH_SIZE\), got 8193/);
  assert.throws(() => new CheckStream(pool, { fillTimeoutMs: -1 }), /fillTimeoutMs must be a positive number/);
  assert.throws(() => new CheckStream(pool, { fillTimeoutMs: Infinity }), /fillTimeoutMs must be a positive number/);
  assert.throws(() => new CheckStream(pool, { fillTimeoutMs: 3e9 }), /fillTimeoutMs must be a positive number of milliseconds up to 2147483647, got 3000000000/);
  assert.throws(() => new CheckStream(pool, { maxBatch: '5' }), /got "5"/);
  assert.throws(() => new CheckStream({}), /needs a pool with a verify\(\) method/);
  const s = new CheckStream(pool);
  assert.equal(s.policy, 'size-or-timeout');
  assert.equal(s.fillTimeoutMs, DEFAULT_FILL_TIMEOUT_MS);
});
