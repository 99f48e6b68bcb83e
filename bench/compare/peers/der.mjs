// ECDSA signature encodings written from their specifications (not from the engine): strict DER
// (X.690 as BIP66 requires it) and Bitcoin Core's lax parser (src/pubkey.cpp,
// ecdsa_signature_parse_der_lax), plus a node:crypto verifier. The peers' adapters (decode.mjs)
// convert the fixture signatures with it; the tests use it as an oracle independent of the engine.
import { createPublicKey, verify } from 'node:crypto';

/** secp256k1 group order n (SEC 2, section 2.4.1). */
export const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const toBigInt = (bytes) => (bytes.length ? BigInt(`0x${Buffer.from(bytes).toString('hex')}`) : 0n);

/**
 * Parses a strict DER ECDSA-Sig-Value: 0x30 len 0x02 rlen r 0x02 slen s, short-form lengths
 * that add up exactly, minimal positive integers (BIP66's rules, without the hash-type byte).
 * @param {Uint8Array} sig
 * @returns {{r: bigint, s: bigint, rStart: number, rLen: number, sStart: number, sLen: number}|null}
 *   value bytes' positions in `sig`; null when `sig` is not strict DER.
 */
export function parseStrictDer(sig) {
  if (sig.length < 8 || sig[0] !== 0x30 || sig[1] !== sig.length - 2) return null;
  const integer = (at) => {
    if (sig[at] !== 0x02 || at + 1 >= sig.length) return null;
    const len = sig[at + 1];
    const start = at + 2;
    if (len === 0 || len >= 0x80 || start + len > sig.length) return null;
    if (sig[start] & 0x80) return null; // negative
    if (len > 1 && sig[start] === 0 && !(sig[start + 1] & 0x80)) return null; // not minimal
    return { start, len, value: toBigInt(sig.subarray(start, start + len)) };
  };
  const r = integer(2);
  if (!r) return null;
  const s = integer(r.start + r.len);
  if (!s || s.start + s.len !== sig.length) return null;
  return { r: r.value, s: s.value, rStart: r.start, rLen: r.len, sStart: s.start, sLen: s.len };
}

/**
 * Bitcoin Core's ecdsa_signature_parse_der_lax (src/pubkey.cpp), step for step: accepts BER
 * length forms, ignores the sequence length and trailing bytes, strips leading zeros.
 * @param {Uint8Array} input
 * @returns {{r: bigint, s: bigint}|null} null when Core returns 0 (the signature is then
 *   invalid); r = s = 0 when Core "parses" it into its correctly-parsed-but-invalid value
 *   (an integer over 32 bytes, or r or s >= n).
 */
export function parseDerLax(input) {
  const n = input.length;
  let pos = 0;
  if (pos === n || input[pos] !== 0x30) return null; // sequence tag
  pos++;
  if (pos === n) return null; // sequence length bytes
  let lenbyte = input[pos++];
  if (lenbyte & 0x80) {
    lenbyte -= 0x80;
    if (lenbyte > n - pos) return null;
    pos += lenbyte;
  }
  const integer = () => {
    if (pos === n || input[pos] !== 0x02) return null; // integer tag
    pos++;
    if (pos === n) return null; // integer length
    let len = input[pos++];
    if (len & 0x80) {
      let lb = len - 0x80;
      if (lb > n - pos) return null;
      while (lb > 0 && input[pos] === 0) { pos++; lb--; }
      if (lb >= 4) return null;
      len = 0;
      while (lb > 0) { len = len * 256 + input[pos]; pos++; lb--; }
    }
    if (len > n - pos) return null;
    return { start: pos, len };
  };
  const r = integer();
  if (!r) return null;
  pos = r.start + r.len;
  const s = integer();
  if (!s) return null;
  const value = ({ start, len }) => {
    while (len > 0 && input[start] === 0) { start++; len--; } // ignore leading zeroes
    return len > 32 ? null : toBigInt(input.subarray(start, start + len));
  };
  const rv = value(r);
  const sv = value(s);
  if (rv === null || sv === null || rv >= SECP256K1_N || sv >= SECP256K1_N) return { r: 0n, s: 0n };
  return { r: rv, s: sv };
}

/**
 * Independent ECDSA verdict (OpenSSL through node:crypto) for what Core's CPubKey::Verify
 * computes after parsing: low-S normalization of (r, s), then verification of SHA-256(msg).
 * @param {Uint8Array} uncompressedKey 65-byte 0x04 || X || Y
 * @param {Uint8Array} msg the message (hashed here with SHA-256)
 * @param {{r: bigint, s: bigint}} rs
 * @returns {boolean}
 */
export function verifyNormalized(uncompressedKey, msg, { r, s }) {
  if (r <= 0n || s <= 0n || r >= SECP256K1_N || s >= SECP256K1_N) return false;
  const low = s > SECP256K1_N / 2n ? SECP256K1_N - s : s; // secp256k1_ecdsa_signature_normalize
  const b64 = (bytes) => Buffer.from(bytes).toString('base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'secp256k1', x: b64(uncompressedKey.subarray(1, 33)), y: b64(uncompressedKey.subarray(33, 65)) },
    format: 'jwk',
  });
  const p1363 = Buffer.from(r.toString(16).padStart(64, '0') + low.toString(16).padStart(64, '0'), 'hex');
  return verify('sha256', msg, { key, dsaEncoding: 'ieee-p1363' }, p1363);
}
