// Peer: secp256k1-wasm (aspectron): an Emscripten build of a 2020-era libsecp256k1 with its
// experimental schnorrsig module. Its bindings expose Schnorr verification only (no ECDSA
// verify), taking hex strings: schnorrsig_verify(sig64hex, msg32hex, xonly32hex) -> {success}.
// The hex conversion is part of its API, so it is part of the time measured.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const hex = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex');

export const PACKAGE = 'secp256k1-wasm';

/** @returns {Promise<{backend: string, schnorr: Function}>} */
export async function load() {
  const mod = require('secp256k1-wasm');
  if (!mod.schnorrsig_verify) await new Promise((resolve) => { mod.onRuntimeInitialized = resolve; });
  return {
    backend: 'wasm (libsecp256k1 2020 snapshot, Emscripten)',
    schnorr: (msg32, xonly, sig64) => mod.schnorrsig_verify(hex(sig64), hex(msg32), hex(xonly)).success,
  };
}
