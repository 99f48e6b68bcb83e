// The job ring (workers/job-ring.mjs): regions in allocation order, reuse once freed (in any
// order), wrap-around, growth when full or for a request larger than the ring, retired
// buffers, bad sizes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_RING_BYTES, JobRing } from '../workers/job-ring.mjs';
import { prng } from './support/random-checks.mjs';

const at = (region) => [region.offset, region.size];

test('regions follow each other in one SharedArrayBuffer; an empty ring starts over at 0', () => {
  const ring = new JobRing(100);
  const a = ring.alloc(30);
  const b = ring.alloc(50);
  assert.ok(a.buffer instanceof SharedArrayBuffer);
  assert.equal(a.buffer.byteLength, 100);
  assert.equal(b.buffer, a.buffer);
  assert.deepEqual([at(a), at(b)], [[0, 30], [30, 50]]);
  ring.free(b); // out of order: a still holds the tail
  assert.deepEqual(at(ring.alloc(20)), [80, 20]);
  ring.free(a);
  assert.equal(new JobRing().capacity, DEFAULT_RING_BYTES);
});

test('freed out of order, space comes back only when the oldest region goes', () => {
  const ring = new JobRing(100);
  const [a, b, c] = [ring.alloc(40), ring.alloc(40), ring.alloc(20)];
  ring.free(b);
  ring.free(c);
  const d = ring.alloc(10); // b and c are free but a, before them, is not: the ring is full
  assert.notEqual(d.buffer, a.buffer, 'grew instead of reusing space behind a live region');
  ring.free(a); // old buffer: only marked free
  ring.free(d);
  const e = ring.alloc(100); // everything free: the whole (new) buffer from 0
  assert.deepEqual(at(e), [0, 100]);
  assert.equal(e.buffer, d.buffer);
});

test('wrap-around: the head goes back to the start once the tail has moved past the request', () => {
  const ring = new JobRing(100);
  const a = ring.alloc(40);
  const b = ring.alloc(40);
  ring.free(a); // tail at 40
  const c = ring.alloc(30); // 20 left at the end: wraps to 0
  assert.deepEqual(at(c), [0, 30]);
  assert.equal(c.buffer, a.buffer);
  const d = ring.alloc(10); // between the head (30) and the tail (40)
  assert.deepEqual(at(d), [30, 10]);
  ring.free(b); // tail moves to c at 0
  const e = ring.alloc(60); // after d, up to the end
  assert.deepEqual(at(e), [40, 60]);
  assert.equal(e.buffer, a.buffer);
  assert.equal(ring.capacity, 100, 'no growth');
});

test('full: the ring grows to twice its size; old regions stay valid and freeable', () => {
  const ring = new JobRing(64);
  const a = ring.alloc(64);
  new Uint8Array(a.buffer, a.offset, a.size).fill(7);
  const b = ring.alloc(1);
  assert.equal(ring.capacity, 128);
  assert.equal(b.buffer.byteLength, 128);
  assert.deepEqual(at(b), [0, 1]);
  assert.ok(new Uint8Array(a.buffer).every((x) => x === 7), 'the old buffer keeps its bytes');
  ring.free(a);
  assert.deepEqual(at(ring.alloc(127)), [1, 127]);
});

test('a request larger than the ring gets a buffer of its size', () => {
  const ring = new JobRing(16);
  const small = ring.alloc(8);
  const big = ring.alloc(1000);
  assert.deepEqual(at(big), [0, 1000]);
  assert.equal(big.buffer.byteLength, 1000);
  assert.equal(ring.capacity, 1000);
  ring.free(small);
  ring.free(big);
  assert.equal(new JobRing(16).alloc(40).buffer.byteLength, 40, 'also as the first request');
});

test('retire(): later regions come from a new buffer; retiring another buffer changes nothing', () => {
  const ring = new JobRing(100);
  const a = ring.alloc(10);
  ring.retire(new SharedArrayBuffer(100)); // not the ring's
  const b = ring.alloc(10);
  assert.equal(b.buffer, a.buffer);
  ring.retire(a.buffer);
  const c = ring.alloc(10);
  assert.notEqual(c.buffer, a.buffer);
  assert.deepEqual(at(c), [0, 10]);
  assert.equal(c.buffer.byteLength, 100, 'same capacity');
  ring.free(a);
  ring.free(b);
  ring.free(c);
});

test('bad sizes and double frees are refused', () => {
  for (const size of [0, -1, 1.5, NaN, Infinity, '8', null, undefined, 2 ** 53]) {
    assert.throws(() => new JobRing(100).alloc(size), { name: 'RangeError', message: /ring region size must be a positive integer of bytes/ });
    if (size !== undefined) { // undefined: the default capacity
      assert.throws(() => new JobRing(size), { name: 'RangeError', message: /job ring capacity must be a positive integer of bytes/ });
    }
  }
  assert.throws(() => new JobRing(10).alloc(2 ** 52), { name: 'RangeError', message: /cannot allocate a 4503599627370496-byte job ring/ });
  const ring = new JobRing(10);
  const a = ring.alloc(5);
  ring.free(a);
  assert.throws(() => ring.free(a), /ring region \[0, \+5\) freed twice/);
});

test('random alloc/free: live regions never overlap and keep their bytes', () => {
  const next = prng(7);
  const ring = new JobRing(4096);
  const live = [];
  for (let step = 0; step < 5000; step++) {
    if (live.length > 0 && next() % 3 === 0) {
      const [region, mark] = live.splice(next() % live.length, 1)[0];
      const bytes = new Uint8Array(region.buffer, region.offset, region.size);
      assert.ok(bytes.every((x) => x === mark), `region [${region.offset}, +${region.size}) was overwritten`);
      ring.free(region);
    } else {
      const region = ring.alloc(1 + (next() % 700));
      const mark = step % 251;
      new Uint8Array(region.buffer, region.offset, region.size).fill(mark);
      live.push([region, mark]);
    }
  }
  assert.ok(ring.capacity >= 4096);
});

test('steady state: with a bounded number of live regions the ring stops growing', () => {
  const next = prng(11);
  const ring = new JobRing(1024);
  const live = [];
  for (let step = 0; step < 20000; step++) {
    if (live.length === 8 || (live.length > 0 && next() % 2 === 0)) ring.free(live.splice(next() % live.length, 1)[0]);
    else live.push(ring.alloc(1 + (next() % 700)));
  }
  // At most 8 x 700 bytes live: a few doublings, then freed space is reused.
  assert.ok(ring.capacity <= 64 * 1024, `capacity ${ring.capacity}`);
});
