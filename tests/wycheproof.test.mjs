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
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fixturesDir } from '../blocks-fixtures/loader.mjs';
import { loadEngine } from '../wasm/engine.mjs';
import { VARIANTS } from '../wasm/variants.mjs';
import { CheckType, concatChecks, encodeCheck, MAX_ECDSA_SIG_LEN } from '../wasm/check-buffer.mjs';
import { parseDerLax, parseStrictDer, SECP256K1_N, verifyNormalized } from '../bench/compare/peers/der.mjs';
import { verifyChecks } from './support/wasm.mjs';

const FILE = path.join(fixturesDir(), 'vectors', 'secp256k1-wycheproof', 'ecdsa_secp256k1_sha256_bitcoin_test.json');

/** Every vector with its expected Core verdict and the class that decided it. */
function classify() {
  const doc = JSON.parse(readFileSync(FILE, 'utf8'));
  const out = [];
  for (const group of doc.testGroups) {
    const pubkey = Buffer.from(group.publicKey.uncompressed, 'hex');
    for (const t of group.tests) {
      const sig = Buffer.from(t.sig, 'hex');
      const msg = Buffer.from(t.msg, 'hex');
      const wycheproofValid = t.result === 'valid';
      const strict = parseStrictDer(sig);
      const lax = strict ?? parseDerLax(sig);
      const oracle = lax ? verifyNormalized(pubkey, msg, lax) : false;
      let kind = 'as-wycheproof';
      if (sig.length > MAX_ECDSA_SIG_LEN) kind = 'oversize';
      else if (strict && strict.s > SECP256K1_N / 2n && oracle && !wycheproofValid) kind = 'high-s';
      else if (!strict && oracle && !wycheproofValid) kind = 'lax-der';
      out.push({ tcId: t.tcId, comment: t.comment, pubkey, sig, msg, wycheproofValid, oracle, kind,
        expected: kind === 'as-wycheproof' ? wycheproofValid : oracle });
    }
  }
  return out;
}

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
