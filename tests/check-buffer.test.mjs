// The check buffer's reader and writer (wasm/check-buffer.mjs): record boundaries from headers, type counts,
// batch splitting, per-type selection (all, or the first under each key), and malformed-buffer errors
// naming record and offset.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CHECK_HEADER_SIZE, CheckType, concatChecks, encodeCheck, selectByType, selectFirstPerKey, splitBatches, walkChecks,
} from '../wasm/check-buffer.mjs';
import { packUnchecked, randomChecks } from './support/random-checks.mjs';

const msg32 = new Uint8Array(32).fill(7);

test('walkChecks finds each record from its own header and counts types', () => {
  const a = encodeCheck({ type: CheckType.ECDSA, msg32, pubkey: new Uint8Array(65), sig: new Uint8Array(71) });
  const b = encodeCheck({ type: CheckType.SCHNORR, msg32, pubkey: new Uint8Array(32), sig: new Uint8Array(64) });
  const c = encodeCheck({ type: CheckType.ECDSA, msg32, pubkey: new Uint8Array(33), sig: new Uint8Array(0) });
  const walked = walkChecks(concatChecks([a, b, c]));
  assert.equal(walked.count, 3);
  assert.deepEqual([...walked.offsets], [0, 172, 304, 373]);
  assert.deepEqual([...walked.types], [1, 2, 1]);
  assert.deepEqual(walked.byType, { ecdsa: 2, schnorr: 1 });
  assert.equal(a.length, CHECK_HEADER_SIZE + 65 + 71);
  assert.equal(a[2] | (a[3] << 8), 71); // sig_len little-endian
});

test('splitBatches covers every record once, in order, at most N per batch', () => {
  const { checks } = randomChecks(1000, 11);
  const walked = walkChecks(checks);
  const batches = splitBatches(walked, 97);
  assert.equal(batches.length, Math.ceil(1000 / 97));
  assert.ok(batches.every((b) => b.count <= 97));
  assert.equal(batches.reduce((n, b) => n + b.count, 0), 1000);
  assert.deepEqual(batches.map((b) => b.count), [91, 91, 91, 91, 91, 91, 91, 91, 91, 91, 90]);
  let byte = 0;
  let first = 0;
  for (const b of batches) {
    assert.equal(b.first, first);
    assert.equal(b.byteOffset, byte);
    assert.equal(b.byteOffset, walked.offsets[b.first]);
    byte += b.byteLength;
    first += b.count;
  }
  assert.equal(byte, checks.length);
  assert.throws(() => splitBatches(walked, 0), /positive integer/);
});

test('splitBatches with a worker multiple balances the batches', () => {
  const { checks } = randomChecks(1000, 12);
  const walked = walkChecks(checks);
  // 1000 / 300 -> 4 batches; a multiple of 3 workers -> 6 batches of 166 or 167.
  const batches = splitBatches(walked, 300, 3);
  assert.deepEqual(batches.map((b) => b.count), [167, 167, 167, 167, 166, 166]);
  assert.equal(batches.at(-1).byteOffset + batches.at(-1).byteLength, checks.length);
  assert.deepEqual(splitBatches(walkChecks(checks.subarray(0, walked.offsets[2])), 2048, 4).map((b) => b.count), [1, 1]);
  assert.deepEqual(splitBatches(walkChecks(new Uint8Array(0)), 10, 2), []);
});

test('selectByType copies the records of one type and their original indices', () => {
  const { checks, types } = randomChecks(300, 5);
  const walked = walkChecks(checks);
  const sel = selectByType(checks, walked, CheckType.SCHNORR);
  const expected = [...types.keys()].filter((i) => types[i] === CheckType.SCHNORR);
  assert.deepEqual([...sel.indices], expected);
  assert.equal(sel.checks.length, expected.length * (36 + 32 + 64));
  const i = expected[3];
  assert.deepEqual(sel.checks.subarray(3 * 132, 4 * 132), checks.subarray(walked.offsets[i], walked.offsets[i + 1]));
});

test('selectFirstPerKey keeps each type\'s first record under each key, whole keys compared', () => {
  const key = (len, fill, last = fill) => { const k = new Uint8Array(len).fill(fill); k[len - 1] = last; return k; };
  const rec = (type, pubkey, s) => encodeCheck({ type, msg32, pubkey, sig: new Uint8Array(type === CheckType.SCHNORR ? 64 : 70).fill(s) });
  const E = CheckType.ECDSA;
  const S = CheckType.SCHNORR;
  const list = [
    rec(E, key(33, 2), 0), // 0: first under 02..02
    rec(S, key(32, 2), 1), // 1: a Schnorr key with the same bytes: another type, kept
    rec(E, key(33, 2), 2), // 2: repeats 0's key
    rec(E, key(33, 3), 3), // 3: same x under another header byte: another key
    rec(E, key(33, 2, 9), 4), // 4: differs in the last byte only
    rec(S, key(32, 2), 5), // 5: repeats 1's key
    rec(E, key(65, 4), 6), // 6: uncompressed
    rec(E, key(65, 4), 7), // 7: repeats 6's
  ];
  const checks = concatChecks(list);
  const walked = walkChecks(checks);
  const ecdsa = selectFirstPerKey(checks, walked, E);
  assert.deepEqual([...ecdsa.indices], [0, 3, 4, 6]);
  assert.deepEqual(ecdsa.checks, concatChecks([list[0], list[3], list[4], list[6]]));
  assert.deepEqual([...selectFirstPerKey(checks, walked, S).indices], [1]);
  const none = selectFirstPerKey(new Uint8Array(0), walkChecks(new Uint8Array(0)), E);
  assert.equal(none.checks.length, 0);
  assert.equal(none.indices.length, 0);
});

test('malformed buffers are errors naming the record and byte offset', () => {
  const good = encodeCheck({ type: CheckType.ECDSA, msg32, pubkey: new Uint8Array(33), sig: new Uint8Array(70) });
  const two = concatChecks([good, good]);
  assert.throws(() => walkChecks(two.subarray(0, two.length - 1)), /check record 1 at byte 139: truncated record \(138 of 139 bytes\)/);
  assert.throws(() => walkChecks(two.subarray(0, good.length + 10)), /check record 1 at byte 139: truncated header/);
  const badType = two.slice();
  badType[good.length] = 3;
  assert.throws(() => walkChecks(badType), /check record 1 at byte 139: unknown check type 3/);
  const schnorr = packUnchecked({ type: CheckType.SCHNORR, msg32, pubkey: new Uint8Array(33), sig: new Uint8Array(64) });
  assert.throws(() => walkChecks(schnorr), /record 0 at byte 0: Schnorr record with pubkey_len 33/);
  const longSig = packUnchecked({ type: CheckType.ECDSA, msg32, pubkey: new Uint8Array(33), sig: new Uint8Array(521) });
  assert.throws(() => walkChecks(longSig), /ECDSA sig_len 521 > 520/);
  // encodeCheck refuses to write them.
  assert.throws(() => encodeCheck({ type: CheckType.SCHNORR, msg32, pubkey: new Uint8Array(33), sig: new Uint8Array(64) }),
    /^RangeError: a Schnorr check takes a 32-byte x-only pubkey and a 64-byte signature, got 33 and 64 bytes$/);
  assert.throws(() => encodeCheck({ type: CheckType.SCHNORR, msg32, pubkey: new Uint8Array(32), sig: new Uint8Array(65) }), /RangeError: a Schnorr check/);
  assert.throws(() => encodeCheck({ type: CheckType.ECDSA, msg32, pubkey: new Uint8Array(33), sig: new Uint8Array(521) }),
    /^RangeError: an ECDSA signature \(DER, without its hash_type byte\) is at most 520 bytes, got 521$/);
  assert.equal(walkChecks(new Uint8Array(0)).count, 0);
});
