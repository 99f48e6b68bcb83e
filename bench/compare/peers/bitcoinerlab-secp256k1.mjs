// Peer: @bitcoinerlab/secp256k1: tiny-secp256k1's interface over @noble/curves (pure JS).
import ecc from '@bitcoinerlab/secp256k1';

export const PACKAGE = '@bitcoinerlab/secp256k1';

/** @returns {Promise<{backend: string, ecdsa: Function, schnorr: Function}>} */
export async function load() {
  return {
    backend: 'pure JS (@noble/curves)',
    ecdsa: (msg32, pubkey, sig64) => ecc.verify(msg32, pubkey, sig64),
    schnorr: (msg32, xonly, sig64) => ecc.verifySchnorr(msg32, xonly, sig64),
  };
}
