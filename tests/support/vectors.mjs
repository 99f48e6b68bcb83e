// The public test vectors both wasm and browser tests run: Wycheproof's "ECDSA bitcoin" vectors
// with Bitcoin Core's expected verdicts (tests/wycheproof.test.mjs says why some differ from
// Wycheproof's labels), and BIP340's vectors.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fixturesDir } from '../../blocks-fixtures/loader.mjs';
import { MAX_ECDSA_SIG_LEN } from '../../wasm/check-buffer.mjs';
import { parseDerLax, parseStrictDer, SECP256K1_N, verifyNormalized } from '../../bench/compare/peers/der.mjs';

export const WYCHEPROOF_FILE = path.join(fixturesDir(), 'vectors', 'secp256k1-wycheproof', 'ecdsa_secp256k1_sha256_bitcoin_test.json');

/** Every vector with its expected Core verdict and the class that decided it. */
export function classify() {
  const doc = JSON.parse(readFileSync(WYCHEPROOF_FILE, 'utf8'));
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

export const BIP340_CSV = path.join(fixturesDir(), 'vectors', 'bips', 'bip-0340-test-vectors.csv');

export function readVectors() {
  const [header, ...lines] = readFileSync(BIP340_CSV, 'utf8').trim().split(/\r?\n/);
  assert.equal(header, 'index,secret key,public key,aux_rand,message,signature,verification result,comment');
  return lines.map((line) => {
    const [index, , pubkey, , message, signature, result, comment] = line.split(',');
    return {
      index: Number(index),
      pubkey: Buffer.from(pubkey, 'hex'),
      msg: Buffer.from(message, 'hex'),
      sig: Buffer.from(signature, 'hex'),
      valid: result === 'TRUE',
      comment,
    };
  });
}
