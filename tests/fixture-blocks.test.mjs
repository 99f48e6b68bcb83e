// Every mainnet fixture block through BlockValidation (wasm/API.md), each round's pending
// checks verified through the pool (2 workers): every input evaluated by the interpreter,
// every block valid, the final checks per block (counts asserted; single-signature inputs
// cross-checked against the independent check recorded in the fixture set's index.json,
// README "How everything was checked"), and the same counts from the native engine.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { fixturesDir, loadBlocks } from '../blocks-fixtures/loader.mjs';
import { loadEngine } from '../wasm/engine.mjs';
import { walkChecks } from '../wasm/check-buffer.mjs';
import { createPool } from '../workers/pool.mjs';
import { nativeDump } from './support/native-tool.mjs';
import { validateFixture } from './support/wasm.mjs';

const dir = fixturesDir();
const blocks = await loadBlocks(dir);
const index = JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8'));
const independent = new Map(index.mainnet_with_prevouts.map((b) => [b.height, b.signature_check]));

/** index.json signature_check type -> the engine's script type name (InputScriptTypeName, native/script/script_type.h). */
const INDEX_TYPE = {
  'p2pk': 'p2pk', 'p2pkh': 'p2pkh', 'p2wpkh': 'p2wpkh', 'p2sh-p2wpkh': 'p2sh-p2wpkh', 'p2tr-key': 'p2tr-keypath',
  'bare-multisig': 'multisig', 'p2sh-multisig': 'p2sh-multisig', 'p2sh-p2pk': 'p2sh', 'p2sh-p2wsh': 'p2sh-p2wsh',
  'p2wsh': 'p2wsh', 'p2tr-script': 'p2tr-scriptpath', 'other': 'empty',
};
/** Engine types whose inputs carry exactly one signature check each. */
const SINGLE_SIG = ['p2pk', 'p2pkh', 'p2wpkh', 'p2sh-p2wpkh', 'p2tr-keypath', 'p2sh'];

/** Final checks [ecdsa, schnorr] and validation rounds per block, as measured (native and wasm). */
const EXPECTED = {
  170: [1, 0, 1], 181: [1, 0, 1], 182: [1, 0, 1], 183: [1, 0, 1], 187: [1, 0, 1], 221: [1, 0, 1], 248: [1, 0, 1],
  24835: [74, 0, 1], 57043: [131, 0, 1], 116928: [12, 0, 1], 120460: [13, 0, 1], 120461: [14, 0, 1],
  120462: [12, 0, 1], 150013: [94, 0, 1], 210000: [899, 0, 1], 277647: [732, 0, 1], 300025: [1427, 0, 1],
  367891: [824, 0, 1], 403200: [1301, 0, 3], 478558: [774, 0, 2], 542213: [12, 0, 1], 553724: [3, 0, 1],
  757739: [122, 0, 2], 866342: [5701, 2375, 2],
};

const engine = await loadEngine('simd');
const pool = createPool({ workers: 2, variant: 'simd' });
after(() => pool.close());
const viaPool = (checks) => pool.verify(checks, { batchSize: 256 });

test('the fixture set has the 24 blocks of the manifest', () => {
  assert.equal(blocks.length, 24);
  assert.deepEqual(blocks.filter((b) => b.error).map((b) => b.error), []);
});

for (const block of blocks) {
  test(`block ${block.height}: every input evaluated, block valid, final checks match native and independent counts`, async () => {
    const res = await validateFixture(engine, block, viaPool);
    assert.equal(res.hash, block.hash);
    assert.equal(res.inputs, block.inputs, 'non-coinbase inputs = spent outputs');
    assert.equal(res.valid, true, res.error);
    assert.equal(res.failedInputs, 0);

    const cov = Object.entries(res.coverage);
    assert.equal(cov.reduce((n, [, c]) => n + c.inputs, 0), res.inputs, 'every input has a type');
    for (const [name, c] of cov) assert.equal(c.evaluated, c.inputs, `${name}: every input evaluated`);
    assert.equal(cov.reduce((n, [, c]) => n + c.checks, 0), res.ecdsa + res.schnorr);

    const walked = walkChecks(res.checks);
    assert.deepEqual(walked.byType, { ecdsa: res.ecdsa, schnorr: res.schnorr });
    assert.equal(res.origins.length, 2 * walked.count);
    assert.equal(res.verdicts.length, walked.count);
    for (let i = 0; i < walked.count; i++) {
      assert.ok(res.origins[2 * i] >= 1 && res.origins[2 * i] < res.txCount, `check ${i}: tx ${res.origins[2 * i]}`);
    }

    const [ecdsa, schnorr, rounds] = EXPECTED[block.height];
    assert.deepEqual([res.ecdsa, res.schnorr, res.rounds], [ecdsa, schnorr, rounds]);
    assert.equal(res.pendingPerRound.length, rounds);

    // Independent check (index.json): inputs per type; one check per single-signature input.
    const byIndex = {};
    for (const [key, n] of Object.entries(independent.get(block.height))) {
      const name = INDEX_TYPE[key.split(':')[0]];
      assert.ok(name, `index.json type ${key}`);
      byIndex[name] = (byIndex[name] ?? 0) + n;
    }
    assert.deepEqual(Object.fromEntries(cov.map(([name, c]) => [name, c.inputs])), byIndex);
    for (const name of SINGLE_SIG) {
      if (res.coverage[name]) assert.equal(res.coverage[name].checks, res.coverage[name].inputs, `${name}: one check per input`);
    }
    if (res.coverage.empty) assert.equal(res.coverage.empty.checks, 0);

    // Invalid verdicts only where Core's CHECKMULTISIG walk tries a key that does not match.
    const multisigChecks = ['multisig', 'p2sh-multisig', 'p2wsh', 'p2sh-p2wsh']
      .reduce((n, name) => n + (res.coverage[name]?.checks ?? 0), 0);
    const invalid = res.verdicts.reduce((n, v) => n + (v !== 1), 0);
    assert.ok(invalid <= multisigChecks, `${invalid} invalid checks, ${multisigChecks} multisig checks`);

    const native = await nativeDump(block);
    assert.deepEqual(walkChecks(native.checks).byType, walked.byType, 'final checks by type, native engine');
    assert.ok(Buffer.from(res.verdicts).equals(native.verdicts), 'verdicts, native engine');
  });
}

test('866342 yields the 2,223 BIP341 key-path Schnorr checks and 152 tapscript ones', async () => {
  const block = blocks.find((b) => b.height === 866342);
  const res = await validateFixture(engine, block, viaPool);
  // Key path script bytes: a 34-byte scriptPubKey and a 64-byte signature each (98 x 2,223 =
  // 217,854), 118 of them with the 65th, hash_type byte.
  assert.deepEqual(res.coverage['p2tr-keypath'], { inputs: 2223, evaluated: 2223, checks: 2223, scriptBytes: 217972 });
  assert.deepEqual(res.coverage['p2tr-scriptpath'], { inputs: 150, evaluated: 150, checks: 152, scriptBytes: 107270 });
  assert.equal(res.schnorr, 2375);
});

test('367891: the 20,000 empty-scriptPubKey inputs are evaluated and ask for no check', async () => {
  const block = blocks.find((b) => b.height === 367891);
  const res = await validateFixture(engine, block, viaPool);
  // A one-byte scriptSig and an empty scriptPubKey each: 20,000 bytes of script.
  assert.deepEqual(res.coverage.empty, { inputs: 20000, evaluated: 20000, checks: 0, scriptBytes: 20000 });
});
