// Wycheproof "ECDSA bitcoin" vectors (secp256k1's src/wycheproof copy) through the wasm
// verifyBatch, both variants.
//
// Wycheproof's bitcoin variant labels high-S signatures and every non-DER (BER) encoding
// invalid. Bitcoin Core's CPubKey::Verify, which our ECDSA records follow, differs on purpose:
//   - it normalizes S (secp256k1_ecdsa_signature_normalize), so a high-S signature whose low-S
//     twin verifies is valid (low S is policy, not consensus);
//   - it parses with ecdsa_signature_parse_der_lax, so some BER encodings are valid (strict DER
//     is BIP66's rule, enforced by the script interpreter, not by the verifier).
// So each vector's expected verdict is Wycheproof's label, except for those two classes, whose
// expected verdict comes from an independent oracle (bench/compare/peers/der.mjs: Core's lax parser
// ported to JS + OpenSSL verification of the low-S form). The oracle must also agree with
// Wycheproof on every other vector. Three vectors carry signatures over 520 bytes, which no
// script can push (MAX_SCRIPT_ELEMENT_SIZE) and no record can hold; they are counted and left out.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { loadEngine } from '../wasm/engine.mjs';
import { VARIANTS } from '../wasm/variants.mjs';
import { CheckType, concatChecks, encodeCheck } from '../wasm/check-buffer.mjs';
import { classify } from './support/vectors.mjs';
import { verifyChecks } from './support/wasm.mjs';

test('the oracle agrees with Wycheproof except on the documented classes', () => {
  const vectors = classify();
  assert.equal(vectors.length, 463);
  const count = (kind) => vectors.filter((v) => v.kind === kind).length;
  assert.equal(count('high-s'), 2, 'high-S signatures Core normalizes to valid ones');
  assert.equal(count('lax-der'), 34, 'BER encodings Core\'s lax parser accepts');
  assert.equal(count('oversize'), 3);
  for (const v of vectors.filter((x) => x.kind === 'as-wycheproof')) {
    assert.equal(v.oracle, v.wycheproofValid, `tcId ${v.tcId} (${v.comment}): oracle disagrees with Wycheproof`);
  }
});

for (const variant of VARIANTS) {
  test(`Wycheproof ECDSA verdicts match Core's semantics (${variant})`, async (t) => {
    const vectors = classify().filter((v) => v.kind !== 'oversize');
    const engine = await loadEngine(variant);
    const msg32 = (msg) => createHash('sha256').update(msg).digest();
    const verdicts = verifyChecks(engine, concatChecks(vectors.map((v) =>
      encodeCheck({ type: CheckType.ECDSA, msg32: msg32(v.msg), pubkey: v.pubkey, sig: v.sig }))));
    const wrong = vectors.filter((v, i) => verdicts[i] !== (v.expected ? 1 : 0));
    assert.deepEqual(wrong.map((v) => `tcId ${v.tcId} (${v.kind}, ${v.comment}): expected ${v.expected ? 'valid' : 'invalid'}`), []);
    const highS = vectors.filter((v) => v.kind === 'high-s');
    assert.ok(highS.every((v) => verdicts[vectors.indexOf(v)] === 1), 'high-S signatures verify valid (Core normalizes)');
    t.diagnostic(`${vectors.length} vectors: ${highS.length} high-S valid by consensus (Wycheproof: invalid), ` +
      `${vectors.filter((v) => v.kind === 'lax-der').length} BER encodings valid under Core's lax DER parser (Wycheproof: invalid)`);
  });
}
