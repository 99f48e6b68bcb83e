// Deterministic synthetic check buffers for tests that do not need real signatures.
import { CheckType, concatChecks, encodeCheck } from '../../wasm/check-buffer.mjs';

/** xorshift32 PRNG: returns a function giving uint32 values; same seed, same sequence. */
export function prng(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x;
  };
}

/** `n` random bytes from `next`. */
export function randomBytes(next, n) {
  return Uint8Array.from({ length: n }, () => next() & 0xff);
}

/**
 * `count` well-framed records of mixed types and sizes (ECDSA: 33- or 65-byte keys, 0..72-byte
 * signatures; Schnorr: 32/64) with random contents.
 * @returns {{checks: Uint8Array, msgFirstBytes: Uint8Array, types: Uint8Array}}
 */
export function randomChecks(count, seed) {
  const next = prng(seed);
  const parts = [];
  const msgFirstBytes = new Uint8Array(count);
  const types = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const schnorr = next() % 4 === 0;
    const msg32 = randomBytes(next, 32);
    if (msg32[0] === 0xdd) msg32[0] = 0xdc; // 0xdd is the fake worker's crash marker
    const pubkey = randomBytes(next, schnorr ? 32 : (next() % 2 ? 33 : 65));
    const sig = randomBytes(next, schnorr ? 64 : next() % 73);
    types[i] = schnorr ? CheckType.SCHNORR : CheckType.ECDSA;
    msgFirstBytes[i] = msg32[0];
    parts.push(encodeCheck({ type: types[i], msg32, pubkey, sig }));
  }
  return { checks: concatChecks(parts), msgFirstBytes, types };
}

/**
 * A check record packed as the layout says (wasm/check-buffer.mjs), with no check of its
 * lengths: the records encodeCheck refuses, for the tests of what verifyBatch and walkChecks do
 * with them.
 * @param {{type: number, msg32: Uint8Array, pubkey: Uint8Array, sig: Uint8Array}} check
 * @returns {Uint8Array} type | pubkey_len | sig_len (LE) | msg32 | pubkey | sig
 */
export function packUnchecked({ type, msg32, pubkey, sig }) {
  const out = new Uint8Array(36 + pubkey.length + sig.length);
  out[0] = type;
  out[1] = pubkey.length;
  out[2] = sig.length & 0xff;
  out[3] = sig.length >> 8;
  out.set(msg32, 4);
  out.set(pubkey, 36);
  out.set(sig, 36 + pubkey.length);
  return out;
}
