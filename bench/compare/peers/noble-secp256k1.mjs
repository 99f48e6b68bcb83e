// Peer: @noble/secp256k1 (pure JS, minimal). ECDSA: verify(compact64, msg32, pubkey) with
// prehash off (msg32 is already the sighash) and lowS off (the engine normalizes S itself;
// decode.mjs hands over low-S signatures anyway). Schnorr needs hashes.sha256 set: node:crypto.
import { createHash } from 'node:crypto';
import * as secp from '@noble/secp256k1';

export const PACKAGE = '@noble/secp256k1';

/** @returns {Promise<{backend: string, ecdsa: Function, schnorr: Function}>} */
export async function load() {
  secp.hashes.sha256 = (bytes) => createHash('sha256').update(bytes).digest();
  const opts = { prehash: false, lowS: false };
  return {
    backend: 'pure JS (BigInt)',
    ecdsa: (msg32, pubkey, sig64) => secp.verify(sig64, msg32, pubkey, opts),
    schnorr: (msg32, xonly, sig64) => secp.schnorr.verify(sig64, msg32, xonly),
  };
}
