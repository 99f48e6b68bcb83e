// The wasm variants compute libsecp256k1's tables of multiples of G themselves
// (native/secp256k1/ecmult_tables.h) instead of shipping them in the .wasm: the computed tables
// are the shipped ones byte for byte (the SHA-256 tests/native/verify/ecmult_tables_test.cpp
// asserts of the native build's linked tables), and the module no longer carries them. They
// start at window 12 and grow to 15 as the module verifies, without changing a verdict.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fixturesDir, loadBlocks } from '../blocks-fixtures/loader.mjs';
import { CheckType, concatChecks, selectByType, walkChecks } from '../wasm/check-buffer.mjs';
import { loadEngine } from '../wasm/engine.mjs';
import { wasmDir } from '../wasm/paths.mjs';
import { VARIANTS } from '../wasm/variants.mjs';
import { verifyChecks } from './support/wasm.mjs';

/** SHA-256 of libsecp256k1 0.5.0's src/precomputed_ecmult.c tables (ECMULT_WINDOW_SIZE 15):
 *  the odd multiples of G, then of 2^128*G, 64 bytes per point. */
const SHIPPED_TABLES_SHA256 = '52d7d0a8a553038718865c68194ca467c94bb4accd78b0416f7e5f09c986f3a3';

for (const variant of VARIANTS) {
  test(`the tables computed at start are libsecp256k1's shipped ones, and not in the .wasm (${variant})`, async () => {
    const engine = await loadEngine(variant);
    assert.equal(engine.engineInfo().ecmultTables, 'computed');
    assert.equal(engine.ecmultTablesSha256(), SHIPPED_TABLES_SHA256);
    // 2 x 8,192 points of 64 bytes = 1 MiB: a module that shipped them would be larger.
    const bytes = readFileSync(path.join(wasmDir(), `ibd-${variant}.wasm`)).length;
    assert.ok(bytes < 1024 * 1024, `ibd-${variant}.wasm is ${bytes} bytes`);
  });
}

const blocks = await loadBlocks(fixturesDir(), { heights: [866342] });

/** Real checks of block 866,342, ECDSA and Schnorr alternating, every fifth one tampered (a bit
 *  of its signature flipped), with their verdicts: extracted by an instance of their own, so
 *  that the one under test has verified nothing before. */
async function testRecords(variant) {
  const source = await loadEngine(variant);
  const b = blocks[0];
  const r = source.validateBlock(b.block, b.spentOutputsJson, b.hash, b.height, undefined);
  assert.equal(r.valid, true, r.error);
  const walked = walkChecks(r.checks);
  const pick = (type) => Array.from(selectByType(r.checks, walked, type).indices).filter((i) => r.verdicts[i] === 1).slice(0, 40)
    .map((i) => Uint8Array.from(r.checks.subarray(walked.offsets[i], walked.offsets[i + 1])));
  const ecdsa = pick(CheckType.ECDSA);
  const schnorr = pick(CheckType.SCHNORR);
  assert.equal(ecdsa.length + schnorr.length, 80);
  const records = ecdsa.flatMap((e, k) => [e, schnorr[k]]);
  records.forEach((rec, k) => { if (k % 5 === 4) rec[rec.length - 20] ^= 1; }); // in the signature
  return { records, expected: records.map((_, k) => (k % 5 === 4 ? 0 : 1)) };
}

for (const variant of VARIANTS) {
  test(`the computed tables start at window 12 and grow to 15 by the 49th verification, verdicts unchanged (${variant})`, async () => {
    const { records, expected } = await testRecords(variant);
    const engine = await loadEngine(variant);
    assert.equal(engine.engineInfo().ecmultWindow, 12);
    const windows = [];
    const verdicts = records.map((rec) => {
      const [v] = verifyChecks(engine, rec);
      windows.push(engine.engineInfo().ecmultWindow);
      return v;
    });
    assert.deepEqual(verdicts, expected);
    // Verifications 1-16 at window 12, 17-32 at 13, 33-48 at 14, then 15.
    assert.deepEqual(windows, records.map((_, k) => Math.min(12 + Math.floor(k / 16), 15)));
    // The same checks in one call to an instance whose tables are complete.
    const full = await loadEngine(variant);
    assert.equal(full.ecmultTablesSha256(), SHIPPED_TABLES_SHA256);
    assert.equal(full.engineInfo().ecmultWindow, 15);
    assert.deepEqual([...verifyChecks(full, concatChecks(records))], expected);
  });
}

for (const variant of VARIANTS) {
  test(`with the heap full, the tables stay at their window and every verdict still comes (${variant})`, async () => {
    const { records, expected } = await testRecords(variant);
    const engine = await loadEngine(variant);
    assert.deepEqual([...verifyChecks(engine, records[0])], [expected[0]]); // the verifier's region reserved first
    // Every block malloc still gives, largest first: growing the tables then finds no memory.
    const held = [];
    for (let size = 1 << 30; size >= 16; size >>= 1) {
      for (let p = engine._malloc(size); p !== 0; p = engine._malloc(size)) held.push(p);
    }
    const verdicts = records.slice(1).map((rec) => verifyChecks(engine, rec)[0]);
    assert.deepEqual(verdicts, expected.slice(1));
    assert.equal(engine.engineInfo().ecmultWindow, 12, 'no memory to grow: verification goes on at window 12');
    assert.throws(() => engine.ecmultTablesSha256(), /could not be completed \(out of memory\)/, 'completing them ends, never loops');
    for (const p of held) engine._free(p);
    // Memory back: within 17 verifications (the count goes on from the last try) they grow again.
    for (const rec of records.slice(0, 17)) verifyChecks(engine, rec);
    assert.ok(engine.engineInfo().ecmultWindow > 12, `window ${engine.engineInfo().ecmultWindow}: the tables grow again`);
    assert.equal(engine.ecmultTablesSha256(), SHIPPED_TABLES_SHA256);
  });
}
