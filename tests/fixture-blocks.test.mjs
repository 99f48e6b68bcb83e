// Every mainnet fixture block: extracts with the right hash and input count, every check it
// yields verifies valid through the pool (2 workers), its counts equal the native engine's,
// and its single-signature inputs match the independent check recorded in the fixture set's
// index.json (README "How everything was checked").
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { fixturesDir, loadBlocks } from '../blocks-fixtures/loader.mjs';
import { loadEngine } from '../workers/engine.mjs';
import { walkChecks } from '../workers/job-buffer.mjs';
import { createPool } from '../workers/pool.mjs';
import { nativeDump } from './support/native-tool.mjs';
import { extractFixture } from './support/wasm.mjs';

const dir = fixturesDir();
const blocks = await loadBlocks(dir);
const index = JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8'));
const independent = new Map(index.mainnet_with_prevouts.map((b) => [b.height, b.signature_check]));

/** index.json signature_check keys of inputs carrying exactly one signature, and the engine's
 *  name for that input type (native/engine.h), with the signature's check type. */
const SINGLE_SIG = {
  'p2pk:True': ['p2pk', 'ecdsa'],
  'p2pkh:True': ['p2pkh', 'ecdsa'],
  'p2wpkh:True': ['p2wpkh', 'ecdsa'],
  'p2sh-p2wpkh:True': ['p2sh-p2wpkh', 'ecdsa'],
  'p2tr-key:True': ['p2tr-keypath', 'schnorr'],
};

const engine = await loadEngine('simd');
const pool = createPool({ workers: 2, variant: 'simd' });
after(() => pool.close());

test('the fixture set has the 24 blocks of the manifest', () => {
  assert.equal(blocks.length, 24);
  assert.deepEqual(blocks.filter((b) => b.error).map((b) => b.error), []);
});

for (const block of blocks) {
  test(`block ${block.height}: extracts, verifies valid, matches native and independent counts`, async () => {
    const res = extractFixture(engine, block);
    assert.equal(res.hash, block.hash);
    assert.equal(res.inputs, block.inputs, 'non-coinbase inputs = spent outputs');
    const sum = (obj) => Object.values(obj).reduce((n, v) => n + v, 0);
    assert.equal(sum(res.inputsByType) + sum(res.unsupportedByType), res.inputs,
      'every input is either extracted or counted as unsupported');

    const walked = walkChecks(res.checks);
    assert.deepEqual(walked.byType, { ecdsa: res.ecdsa, schnorr: res.schnorr });
    assert.equal(res.origins.length, 2 * walked.count);
    for (let i = 0; i < walked.count; i++) {
      assert.ok(res.origins[2 * i] >= 1 && res.origins[2 * i] < res.txCount, `check ${i}: tx ${res.origins[2 * i]}`);
    }

    // Independent check (index.json): single-signature inputs by type, hence checks by type.
    const expected = { ecdsa: 0, schnorr: 0 };
    for (const [key, [name, type]] of Object.entries(SINGLE_SIG)) {
      const n = independent.get(block.height)[key] ?? 0;
      assert.equal(res.inputsByType[name] ?? 0, n, `${name} inputs (index.json ${key})`);
      expected[type] += n;
    }
    const onlySingleSig = Object.keys(res.inputsByType).every((name) => Object.values(SINGLE_SIG).some(([n]) => n === name));
    if (onlySingleSig) assert.deepEqual({ ecdsa: res.ecdsa, schnorr: res.schnorr }, expected);
    else assert.ok(res.ecdsa >= expected.ecdsa && res.schnorr >= expected.schnorr);

    const verdicts = await pool.verify(res.checks, { batchSize: 256 });
    const invalid = [...verdicts.keys()].filter((i) => verdicts[i] !== 1)
      .map((i) => `tx ${res.origins[2 * i]} input ${res.origins[2 * i + 1]}`);
    assert.deepEqual(invalid, [], `invalid checks in mainnet block ${block.height}`);

    const native = await nativeDump(block);
    const nativeWalk = walkChecks(native.checks);
    assert.deepEqual(nativeWalk.byType, walked.byType, 'check counts by type, native engine');
    assert.equal(native.verdicts.length, walked.count);
  });
}

test('866342 yields the 2,223 BIP341 key-path Schnorr checks', () => {
  const block = blocks.find((b) => b.height === 866342);
  const res = extractFixture(engine, block);
  assert.equal(res.schnorr, 2223);
  assert.equal(res.inputsByType['p2tr-keypath'], 2223);
});
