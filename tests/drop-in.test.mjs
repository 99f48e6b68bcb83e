// The drop-in (wasm/drop-in.mjs) against tiny-secp256k1 itself, call by call: the real signatures
// of fixture blocks (each as given, with its message tampered, and ECDSA's with S made high,
// strict and not), then bad input of every kind, errors compared by class and message. On both
// wasm variants.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as tiny from 'tiny-secp256k1';
import { compactFromDer } from '../bench/compare/peers/decode.mjs';
import { fixturesDir, loadBlocks } from '../blocks-fixtures/loader.mjs';
import { CheckType, walkChecks } from '../wasm/check-buffer.mjs';
import { createDropIn } from '../wasm/drop-in.mjs';
import { loadEngine } from '../wasm/engine.mjs';
import { encodeSpentOutputs } from '../wasm/spent-outputs.mjs';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const G = Uint8Array.from(Buffer.from('0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798', 'hex'));
const G65 = Uint8Array.from(Buffer.from('0479be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798' +
  '483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8', 'hex'));

const toBig = (b) => BigInt(`0x${Buffer.from(b).toString('hex') || '0'}`);
const fromBig = (x) => Uint8Array.from(Buffer.from(x.toString(16).padStart(64, '0'), 'hex'));

/** A call's outcome: its value, or its error's class and message. */
function outcome(f) {
  try {
    return { value: f() };
  } catch (err) {
    return { error: `${err.constructor.name}: ${err.message}` };
  }
}

/** The final checks of fixture blocks, validated by `engine`: [{type, msg32, pubkey, sig}]. */
async function fixtureChecks(engine, heights) {
  const blocks = await loadBlocks(fixturesDir(), { heights });
  const out = [];
  for (const b of blocks) {
    const r = engine.validateBlock(b.block, encodeSpentOutputs(JSON.parse(b.spentOutputsJson)), b.hash, b.height, undefined);
    assert.ok(r.ok && r.valid, `block ${b.height}: ${r.error}`);
    const walked = walkChecks(r.checks);
    for (let i = 0; i < walked.count; i++) {
      const at = walked.offsets[i];
      const pkLen = r.checks[at + 1];
      const sigLen = r.checks[at + 2] | (r.checks[at + 3] << 8);
      out.push({ type: r.checks[at], msg32: r.checks.slice(at + 4, at + 36), pubkey: r.checks.slice(at + 36, at + 36 + pkLen),
        sig: r.checks.slice(at + 36 + pkLen, at + 36 + pkLen + sigLen) });
    }
  }
  return out;
}

for (const variant of ['simd', 'scalar']) {
  test(`the drop-in gives tiny-secp256k1's result on every fixture check of blocks 403,200 and 866,342, tampered and high-S too (${variant})`, async () => {
    const engine = await loadEngine(variant);
    const ours = createDropIn(engine);
    const checks = await fixtureChecks(engine, [403200, 866342]);
    const seen = { ecdsa: 0, schnorr: 0, valid: 0, invalid: 0, lax: 0, highS: 0 };
    const same = (what, f, g) => {
      const [a, b] = [outcome(f), outcome(g)];
      assert.deepEqual(a, b, what);
      return a.value;
    };
    for (const [k, c] of checks.entries()) {
      const tampered = Uint8Array.from(c.msg32);
      tampered[k % 32] ^= 1;
      if (c.type === CheckType.SCHNORR) {
        seen.schnorr++;
        const ok = same(`schnorr ${k}`, () => ours.verifySchnorr(c.msg32, c.pubkey, c.sig), () => tiny.verifySchnorr(c.msg32, c.pubkey, c.sig));
        seen[ok ? 'valid' : 'invalid']++;
        same(`schnorr ${k} tampered`, () => ours.verifySchnorr(tampered, c.pubkey, c.sig), () => tiny.verifySchnorr(tampered, c.pubkey, c.sig));
        continue;
      }
      // The bench's decoder (Core's lax DER; S made low), null where Core's parser rejects it.
      const sig = compactFromDer(c.sig);
      if (!sig) { seen.lax++; continue; }
      seen.ecdsa++;
      const ok = same(`ecdsa ${k}`, () => ours.verify(c.msg32, c.pubkey, sig), () => tiny.verify(c.msg32, c.pubkey, sig));
      seen[ok ? 'valid' : 'invalid']++;
      same(`ecdsa ${k} strict`, () => ours.verify(c.msg32, c.pubkey, sig, true), () => tiny.verify(c.msg32, c.pubkey, sig, true));
      same(`ecdsa ${k} tampered`, () => ours.verify(tampered, c.pubkey, sig), () => tiny.verify(tampered, c.pubkey, sig));
      // The same signature with S replaced by n - S: valid unless strict, on both.
      const s = toBig(sig.subarray(32));
      if (s > 0n) {
        const high = Uint8Array.from(sig);
        high.set(fromBig(N - s), 32);
        seen.highS++;
        same(`ecdsa ${k} n - S`, () => ours.verify(c.msg32, c.pubkey, high), () => tiny.verify(c.msg32, c.pubkey, high));
        same(`ecdsa ${k} n - S strict`, () => ours.verify(c.msg32, c.pubkey, high, true), () => tiny.verify(c.msg32, c.pubkey, high, true));
      }
      same(`isPoint ${k}`, () => ours.isPoint(c.pubkey), () => tiny.isPoint(c.pubkey));
    }
    // Both kinds, valid and invalid ones (403,200's CHECKMULTISIG trials), all of 866,342's
    // 2,375 Schnorr checks.
    assert.equal(seen.schnorr, 2375);
    assert.ok(seen.ecdsa > 6000 && seen.invalid > 100 && seen.valid > 8000, JSON.stringify(seen));
  });
}

test('bad input: the drop-in throws what tiny-secp256k1 throws, class and message, and returns what it returns', async () => {
  const ours = createDropIn(await loadEngine('simd'));
  const h = new Uint8Array(32).fill(7);
  const sig = new Uint8Array(64).fill(2);
  const bytes = (hex) => Uint8Array.from(Buffer.from(hex, 'hex'));
  const withByte = (b, i, v) => { const c = Uint8Array.from(b); c[i] = v; return c; };
  const rIsN = new Uint8Array(64); rIsN.set(fromBig(N), 0); rIsN[63] = 1;
  const sIsN = new Uint8Array(64); sIsN[31] = 1; sIsN.set(fromBig(N), 32);
  const xAboveP = new Uint8Array(32).fill(0xff);
  // BIP340's test vector 5 ("public key not on the curve"): no point has this x.
  const xOffCurve = bytes('eefdea4cdb677750a420fee807eacf21eb9898ae79b9768766e4faa04a2d4a34');
  const offCurve = Uint8Array.from([2, ...xOffCurve]);
  const hybrid = withByte(G65, 0, 0x06);
  const cases = [
    ['hash as an array', 'verify', [[...h], G, sig]],
    ['hash of 31 bytes', 'verify', [h.subarray(1), G, sig]],
    ['hash as a string', 'verify', ['00'.repeat(32), G, sig]],
    ['hash as a Buffer', 'verify', [Buffer.from(h), G, sig]],
    ['key null', 'verify', [h, null, sig]],
    ['key of 34 bytes', 'verify', [h, new Uint8Array(34).fill(2), sig]],
    ['key of 32 bytes (x-only) for ECDSA', 'verify', [h, G.subarray(1), sig]],
    ['key with prefix 05', 'verify', [h, withByte(G, 0, 5), sig]],
    ['key off the curve', 'verify', [h, offCurve, sig]],
    ['hybrid key (06)', 'verify', [h, hybrid, sig]],
    ['uncompressed key', 'verify', [h, G65, sig]],
    ['signature of 63 bytes', 'verify', [h, G, sig.subarray(1)]],
    ['signature of 65 bytes', 'verify', [h, G, new Uint8Array(65)]],
    ['signature with r = n', 'verify', [h, G, rIsN]],
    ['signature with s = n', 'verify', [h, G, sIsN]],
    ['signature of zeros', 'verify', [h, G, new Uint8Array(64)]],
    ['bad signature and bad key: the signature is named', 'verify', [h, offCurve, rIsN]],
    ['strict given as a string', 'verify', [h, G, sig, 'yes']],
    ['schnorr: hash of 33 bytes', 'verifySchnorr', [new Uint8Array(33), G.subarray(1), sig]],
    ['schnorr: 33-byte key', 'verifySchnorr', [h, G, sig]],
    ['schnorr: x above p', 'verifySchnorr', [h, xAboveP, sig]],
    ['schnorr: x not on the curve', 'verifySchnorr', [h, xOffCurve, sig]],
    ['schnorr: r = n', 'verifySchnorr', [h, G.subarray(1), rIsN]],
    ['schnorr: signature of zeros', 'verifySchnorr', [h, G.subarray(1), new Uint8Array(64)]],
    ['schnorr: signature as an array', 'verifySchnorr', [h, G.subarray(1), [...sig]]],
    ['isPoint: compressed', 'isPoint', [G]],
    ['isPoint: uncompressed', 'isPoint', [G65]],
    ['isPoint: hybrid', 'isPoint', [hybrid]],
    ['isPoint: x-only (32 bytes)', 'isPoint', [G.subarray(1)]],
    ['isPoint: off the curve', 'isPoint', [offCurve]],
    ['isPoint: prefix 05', 'isPoint', [withByte(G, 0, 5)]],
    ['isPoint: an array', 'isPoint', [[...G]]],
    ['isPoint: undefined', 'isPoint', [undefined]],
  ];
  for (const [what, fn, args] of cases) {
    assert.deepEqual({ what, ...outcome(() => ours[fn](...args)) }, { what, ...outcome(() => tiny[fn](...args)) });
  }
  // The cases throw where they should (so that the comparison above compared errors).
  assert.deepEqual(outcome(() => ours.verify(h, offCurve, sig)), { error: 'TypeError: Expected Point' });
  assert.deepEqual(outcome(() => ours.verify([...h], G, sig)), { error: 'TypeError: Expected Hash' });
  // Objects that pass `instanceof Uint8Array` but are no typed array get the same TypeError, not
  // V8's "incompatible receiver" from the typed-array getters.
  assert.deepEqual(outcome(() => ours.verify(Object.create(Uint8Array.prototype), G, sig)), { error: 'TypeError: Expected Hash' });
  assert.deepEqual(outcome(() => ours.verify(h, new Proxy(G, {}), sig)), { error: 'TypeError: Expected Point' });
  assert.equal(ours.isPoint(new Proxy(G, {})), false);
  assert.deepEqual(outcome(() => ours.verifySchnorr(h, xOffCurve, sig)), { error: 'TypeError: Expected Point' });
  assert.equal(ours.isPoint(offCurve), false);
  assert.deepEqual(outcome(() => ours.verifySchnorr(h, G.subarray(1), rIsN)), { error: 'TypeError: Expected Signature' });
});

test('a damaged .wasm is named when the engine loads, asynchronously or on first synchronous use', async () => {
  const { loadEngine, loadEngineSync } = await import('../wasm/engine.mjs');
  const { mkdtempSync, copyFileSync, readFileSync: read, writeFileSync: write, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { wasmDir } = await import('../wasm/paths.mjs');
  const dir = mkdtempSync(join(tmpdir(), 'ibd-damaged-wasm-'));
  try {
    for (const f of ['ibd-simd.js', 'package.json']) copyFileSync(join(wasmDir(), f), join(dir, f));
    write(join(dir, 'ibd-simd.wasm'), read(join(wasmDir(), 'ibd-simd.wasm')).subarray(0, 1000));
    const named = new RegExp(`^${join(dir, 'ibd-simd.wasm').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} does not compile \\(a damaged or foreign \\.wasm\\): `);
    await assert.rejects(loadEngine('simd', { dir }), { message: named });
    assert.throws(() => loadEngineSync('simd', { dir }), { message: named });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a .wasm from another build than its glue is named, never a hang, both ways round', async () => {
  const { loadEngine, loadEngineSync } = await import('../wasm/engine.mjs');
  const { mkdtempSync, copyFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { wasmDir } = await import('../wasm/paths.mjs');
  for (const [glue, wasm] of [['scalar', 'simd'], ['simd', 'scalar']]) {
    const dir = mkdtempSync(join(tmpdir(), 'ibd-mixed-wasm-'));
    try {
      copyFileSync(join(wasmDir(), 'package.json'), join(dir, 'package.json'));
      copyFileSync(join(wasmDir(), `ibd-${glue}.js`), join(dir, `ibd-${glue}.js`));
      copyFileSync(join(wasmDir(), `ibd-${wasm}.wasm`), join(dir, `ibd-${glue}.wasm`)); // the other variant's module
      const named = new RegExp(`^${join(dir, `ibd-${glue}.wasm`).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} does not (link with|match) its glue \\(a \\.wasm from another build\\?\\): `);
      await assert.rejects(loadEngine(glue, { dir }), { message: named }, `${glue} glue, ${wasm} .wasm`);
      assert.throws(() => loadEngineSync(glue, { dir }), { message: named }, `${glue} glue, ${wasm} .wasm, synchronously`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});
