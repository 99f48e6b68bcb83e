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
