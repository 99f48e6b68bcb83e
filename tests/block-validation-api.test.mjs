// BlockValidation argument checks (wasm/API.md): the constructor never throws (a wrong argument
// is a failure naming it), result() carries fee, sigop cost, reject reason, stage and the rules
// not checked; the proof of work (high-hash) is checked unless skipProofOfWork; resolve(): anything but a Uint8Array of
// pending().count bytes throws an Error naming what was given, leaves the validation usable,
// and does not leak wasm memory (the argument is checked before any copy into wasm memory).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { fixturesDir, readManifest } from '../blocks-fixtures/loader.mjs';
import { loadEngine } from '../wasm/engine.mjs';
import { verifyChecks } from './support/wasm.mjs';

const FIX = path.join(fixturesDir(), 'mainnet'); // the loader's folder rule (--fixtures, IBD_FIXTURES)
const engine = await loadEngine('simd');

function load(height) {
  const block = new Uint8Array(readFileSync(`${FIX}/${height}/block.raw`));
  const spentText = readFileSync(`${FIX}/${height}/spent_outputs.json`, 'utf8');
  return { block, spentText, hash: JSON.parse(spentText).block_hash, height };
}

test('resolve() rejects non-Uint8Array verdicts with an Error naming the type; state stays usable', () => {
  const b = load(403200);
  const v = new engine.BlockValidation(b.block, b.spentText, b.hash, b.height);
  try {
    const p = v.pending();
    assert.ok(p.count > 1);
    const cases = [
      [null, 'null'], [undefined, 'undefined'], [5, 'number'], ['x'.repeat(p.count), 'string'],
      [Array.from({ length: p.count }, () => 257), 'Array'], [new Uint16Array(p.count), 'Uint16Array'],
      [{ length: p.count }, 'Object'],
    ];
    for (const [arg, name] of cases) {
      assert.throws(() => v.resolve(arg), (e) => e instanceof Error &&
        e.message === `BlockValidation.resolve: verdicts must be a Uint8Array, got ${name}`, name);
      assert.equal(v.pending().count, p.count);
    }
    assert.throws(() => v.resolve(new Uint8Array(p.count - 1)),
      { message: `BlockValidation.resolve: ${p.count - 1} verdicts for ${p.count} pending checks` });
    assert.deepEqual(v.status(), { ok: true, pending: p.count });
    // Still usable: finish with honest verdicts.
    for (let q = v.pending(); q.count > 0; q = v.pending()) v.resolve(verifyChecks(engine, q.checks));
    assert.equal(v.result().valid, true);
  } finally {
    v.delete();
  }
});

test('50 throwing resolve() calls with a 1 MiB array do not grow wasm memory', () => {
  const b = load(403200);
  const v = new engine.BlockValidation(b.block, b.spentText, b.hash, b.height);
  try {
    const big = new Uint8Array(1 << 20);
    try { v.resolve(big); } catch { /* warm-up */ }
    const before = engine.HEAPU8.length;
    for (let i = 0; i < 50; i++) assert.throws(() => v.resolve(big), Error);
    assert.equal(engine.HEAPU8.length, before);
    assert.ok(v.pending().count > 0);
  } finally {
    v.delete();
  }
});

test('the constructor never throws: a wrong argument of any type or count is a failure naming it', () => {
  const b = load(170);
  const cases = [
    [[null, b.spentText, b.hash, b.height], 'block must be a Uint8Array (the block\'s bytes), got null'],
    [[[1, 2], b.spentText, b.hash, b.height], 'block must be a Uint8Array (the block\'s bytes), got Array'],
    [[], 'block must be a Uint8Array (the block\'s bytes), got undefined'],
    [[b.block, null, b.hash, b.height], 'spentOutputsJson must be a string (spent_outputs.json\'s text), got null'],
    [[b.block, b.spentText, 7, b.height], 'expectedHashHex must be a string (64 hex digits, or "" for no check), got number'],
    [[b.block, b.spentText, b.hash], 'height must be a number (the block\'s height)'],
    [[b.block, b.spentText, b.hash, b.height, 'x'], 'options must be an object such as { medianTimePast }, got string'],
    [[b.block, b.spentText, b.hash, b.height, { skipProofOfWork: 1 }], 'options.skipProofOfWork must be a boolean, got number'],
    [[b.block, b.spentText, b.hash, b.height, { medianTimePast: 1.5 }],
      'options.medianTimePast must be an integer number of seconds >= 0, got 1.5'],
    // A key that is no option (a typo, or one of validateBlock's only), whatever its value.
    [[b.block, b.spentText, b.hash, b.height, { skipProofOfWrok: true }],
      'options.skipProofOfWrok is not an option of new BlockValidation (known: medianTimePast, skipProofOfWork)'],
    [[b.block, b.spentText, b.hash, b.height, { medianTimePast: 1, txBegin: undefined }],
      'options.txBegin is not an option of new BlockValidation (known: medianTimePast, skipProofOfWork)'],
  ];
  for (const [args, reason] of cases) {
    let v;
    assert.doesNotThrow(() => { v = new engine.BlockValidation(...args); }, reason);
    const s = v.status();
    assert.equal(s.ok, false);
    assert.equal(s.reason, reason);
    assert.equal(s.stage, '');
    assert.deepEqual(v.result(), s);
    v.delete();
  }
});

/** Runs a BlockValidation to the end with real verdicts. */
function finish(v) {
  for (let p = v.pending(); p.count > 0; p = v.pending()) v.resolve(verifyChecks(engine, p.checks));
  return v.result();
}

test('result() carries the fee, subsidy, sigop cost and the rules not checked; a rule failure is the verdict', () => {
  const b = load(210000);
  let v = new engine.BlockValidation(b.block, b.spentText, b.hash, b.height);
  const ok = finish(v);
  v.delete();
  assert.equal(ok.valid, true);
  assert.deepEqual([ok.fee, ok.subsidy, ok.rejectReason, ok.stage], [1356295554, 2500000000, '', '']);
  assert.ok(ok.sigopCost > 0 && ok.sigopCost <= 80000);
  assert.deepEqual(ok.notChecked.map((n) => n.rule),
    ['spent-outputs-unspent', 'coinbase-maturity', 'bip30', 'time-too-old', 'time-too-new', 'expected-difficulty', 'previous-block']);
  // With the median time past, time-too-old is checked.
  v = new engine.BlockValidation(b.block, b.spentText, b.hash, b.height, { medianTimePast: 1 });
  assert.equal(finish(v).notChecked.some((n) => n.rule === 'time-too-old'), false);
  v.delete();
  v = new engine.BlockValidation(b.block, b.spentText, b.hash, b.height, { medianTimePast: 2 ** 32 });
  assert.equal(v.status().stage, 'ContextualCheckBlockHeader');
  assert.equal(v.status().rejectReason, 'time-too-old');
  v.delete();

  // 170's one spend lowered by 1 sat: its outputs pass its input at output 1.
  const c = load(170);
  const doc = JSON.parse(c.spentText);
  doc.spent_outputs[0].value -= 1;
  v = new engine.BlockValidation(c.block, JSON.stringify(doc), c.hash, c.height);
  const bad = finish(v);
  v.delete();
  assert.equal(bad.valid, false);
  assert.deepEqual([bad.rejectReason, bad.stage, bad.txIndex, bad.inputIndex, bad.outputIndex, bad.fee, bad.scriptError],
    ['bad-txns-in-belowout', 'CheckTxInputs', 1, -1, 1, -1, '']);
  assert.match(bad.error, /^bad-txns-in-belowout: value in 4999999999 sat < value out 5000000000 sat/);

  // A spent value out of range in the JSON is Core's verdict, not a load failure: -1 sat, and
  // 21,000,000 BTC + 1 sat; 21,000,000 BTC itself is in range.
  for (const [value, reason] of [[-1, 'bad-txns-inputvalues-outofrange'], [2100000000000001, 'bad-txns-inputvalues-outofrange'],
    [2100000000000000, '']]) {
    doc.spent_outputs[0].value = value;
    v = new engine.BlockValidation(c.block, JSON.stringify(doc), c.hash, c.height);
    assert.equal(v.status().ok, true, `${value}: ${v.status().error}`);
    const r = finish(v);
    v.delete();
    assert.deepEqual([r.valid, r.rejectReason, r.stage || ''], [reason === '', reason, reason ? 'CheckTxInputs' : ''], `value ${value}`);
    if (reason) assert.deepEqual([r.txIndex, r.inputIndex], [1, 0], `value ${value}`);
  }
});

/** `b` with the header's little-endian uint32 at byte `at` (72 nBits, 76 nonce) passed through
 *  `edit`, and the header's new hash (display hex). */
function withHeaderField(b, at, edit) {
  const block = b.block.slice();
  const view = new DataView(block.buffer, block.byteOffset);
  view.setUint32(at, edit(view.getUint32(at, true)) >>> 0, true);
  const hash = Buffer.from(createHash('sha256').update(createHash('sha256').update(block.subarray(0, 80)).digest()).digest())
    .reverse().toString('hex');
  return { ...b, block, hash };
}

test('proof of work: every fixture block passes high-hash; 181 with nonce + 1 is high-hash unless skipProofOfWork', () => {
  for (const { height } of readManifest(fixturesDir()).blocks) {
    const f = load(height);
    const v = new engine.BlockValidation(f.block, f.spentText, f.hash, height);
    assert.equal(v.status().ok, true, `${height}: ${v.status().error}`);
    v.delete();
  }
  const b = withHeaderField(load(181), 76, (nonce) => nonce + 1);
  let v = new engine.BlockValidation(b.block, b.spentText, b.hash, b.height);
  const s = v.status();
  v.delete();
  assert.deepEqual([s.ok, s.rejectReason, s.stage, s.blockHash, s.txIndex, s.byteOffset], [false, 'high-hash', 'CheckBlockHeader', b.hash, -1, 0]);
  assert.match(s.error, new RegExp(`^high-hash: proof of work failed: block hash ${b.hash} is above the target of nBits 0x1d00ffff`));
  v = new engine.BlockValidation(b.block, b.spentText, b.hash, b.height, { skipProofOfWork: true });
  const skipped = finish(v);
  v.delete();
  assert.equal(skipped.valid, true);
  assert.equal(skipped.notChecked.find((n) => n.rule === 'proof-of-work')?.reason.includes('skipProofOfWork'), true);
});

test('proof of work: an nBits above mainnet\'s powLimit is high-hash', () => {
  const b = withHeaderField(load(170), 72, () => 0x1d01ffff);
  const v = new engine.BlockValidation(b.block, b.spentText, b.hash, b.height);
  const s = v.status();
  v.delete();
  assert.deepEqual([s.ok, s.rejectReason, s.stage, s.byteOffset], [false, 'high-hash', 'CheckBlockHeader', 72]);
  assert.match(s.error, /nBits 0x1d01ffff is above mainnet's powLimit/);
});

// The sighash workload (result().sighash), checked by hand on two blocks:
// - 170: one P2PK spend. Its legacy message is nVersion 4, 1 input (count 1, prevout 36,
//   scriptCode 1 + 67, nSequence 4), 2 P2PK outputs (count 1, 2 x (8 + 1 + 67)), nLockTime 4,
//   hash_type 4 = 274 bytes.
// - 553724: one P2PKH spend (legacy), one P2WPKH and one P2SH-P2WPKH (BIP143: 156 + 1 + 25 =
//   182 bytes each).
test('result().sighash counts the sighashes by kind with their message bytes and the bytes the engine hashed', async () => {
  const { validateFixture } = await import('./support/wasm.mjs');
  const { loadBlocks } = await import('../blocks-fixtures/loader.mjs');
  const blocks = await loadBlocks(fixturesDir(), { heights: [170, 553724] });
  const byHeight = Object.fromEntries(blocks.map((b) => [b.height, b]));
  const r170 = await validateFixture(engine, byHeight[170]);
  assert.deepEqual(r170.sighash, { legacy: { count: 1, bytes: 274, hashedBytes: 274 }, bip143: { count: 0, bytes: 0, hashedBytes: 0 },
    bip341: { count: 0, bytes: 0, hashedBytes: 0 }, precomputeBip143Bytes: 0, precomputeBip341Bytes: 0 });
  const r553724 = await validateFixture(engine, byHeight[553724]);
  assert.deepEqual(r553724.sighash.bip143, { count: 2, bytes: 364, hashedBytes: 364 });
  // 57,043: one transaction of 131 legacy inputs. Each message is the whole transaction copy;
  // the engine hashes the inputs before each one's only once (LegacySighashCache), so it feeds
  // SHA-256 fewer bytes than the messages hold, but more than one copy of the transaction.
  const [b57043] = await loadBlocks(fixturesDir(), { heights: [57043] });
  const r57043 = await validateFixture(engine, b57043);
  assert.equal(r57043.sighash.legacy.count, 131);
  assert.ok(r57043.sighash.legacy.hashedBytes < r57043.sighash.legacy.bytes, JSON.stringify(r57043.sighash.legacy));
  assert.ok(r57043.sighash.legacy.hashedBytes > r57043.sighash.legacy.bytes / 131, JSON.stringify(r57043.sighash.legacy));
  assert.equal(r553724.sighash.legacy.count, 1);
  assert.equal(r553724.sighash.bip341.count, 0);
});
