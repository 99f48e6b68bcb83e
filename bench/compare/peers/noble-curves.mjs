// Peer: @noble/curves (pure JS, with precomputed tables). ECDSA: secp256k1.verify(compact64,
// msg32, pubkey) with prehash and lowS off (see noble-secp256k1.mjs); Schnorr: schnorr.verify.
import { schnorr, secp256k1 } from '@noble/curves/secp256k1.js';

export const PACKAGE = '@noble/curves';

/** @returns {Promise<{backend: string, ecdsa: Function, schnorr: Function}>} */
export async function load() {
  const opts = { prehash: false, lowS: false };
  return {
    backend: 'pure JS (BigInt)',
    ecdsa: (msg32, pubkey, sig64) => secp256k1.verify(sig64, msg32, pubkey, opts),
    schnorr: (msg32, xonly, sig64) => schnorr.verify(sig64, msg32, xonly),
  };
}
