// BIP340 test vectors (bitcoin/bips bip-0340/test-vectors.csv) through the wasm verifyBatch,
// both variants: every vector with a 32-byte message gets the verdict the BIP states.
// Vectors 15-18 sign messages of 0, 1, 17 and 100 bytes; BIP341/342 only ever verify 32-byte
// sighashes and a check record carries msg32, so they are counted and left out.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadEngine } from '../wasm/engine.mjs';
import { VARIANTS } from '../wasm/variants.mjs';
import { CheckType, concatChecks, encodeCheck } from '../wasm/check-buffer.mjs';
import { readVectors } from './support/vectors.mjs';
import { verifyChecks } from './support/wasm.mjs';

for (const variant of VARIANTS) {
  test(`BIP340 vectors with 32-byte messages verify as the BIP says (${variant})`, async () => {
    const vectors = readVectors();
    assert.equal(vectors.length, 19);
    const run = vectors.filter((v) => v.msg.length === 32);
    assert.deepEqual(vectors.filter((v) => v.msg.length !== 32).map((v) => v.index), [15, 16, 17, 18]);
    assert.equal(run.filter((v) => v.valid).length, 5, 'vectors 0-4 are TRUE, 5-14 FALSE');
    const engine = await loadEngine(variant);
    const verdicts = verifyChecks(engine, concatChecks(run.map((v) =>
      encodeCheck({ type: CheckType.SCHNORR, msg32: v.msg, pubkey: v.pubkey, sig: v.sig }))));
    run.forEach((v, i) => {
      assert.equal(verdicts[i], v.valid ? 1 : 0, `vector ${v.index} (${v.comment || 'no comment'})`);
    });
  });
}
