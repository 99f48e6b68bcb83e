// Peer: tiny-secp256k1 (bitcoinjs): libsecp256k1 compiled from Rust bindings to wasm.
// verify(hash32, pubkey 33/65, compact64, strict=false); verifySchnorr(hash32, xonly32, sig64).
import * as tiny from 'tiny-secp256k1';

export const PACKAGE = 'tiny-secp256k1';

/** @returns {Promise<{backend: string, ecdsa: Function, schnorr: Function}>} */
export async function load() {
  return {
    backend: 'wasm (libsecp256k1 via rust-secp256k1)',
    ecdsa: (msg32, pubkey, sig64) => tiny.verify(msg32, pubkey, sig64),
    schnorr: (msg32, xonly, sig64) => tiny.verifySchnorr(msg32, xonly, sig64),
  };
}
