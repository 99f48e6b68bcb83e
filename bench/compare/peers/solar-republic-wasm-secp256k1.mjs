// Peer: @solar-republic/wasm-secp256k1: libsecp256k1 compiled with Emscripten, wasm embedded.
// ECDSA only (no BIP340 verify in its API): verify(compact64, msg32, pubkey).
import { initWasmSecp256k1 } from '@solar-republic/wasm-secp256k1';

export const PACKAGE = '@solar-republic/wasm-secp256k1';

/** @returns {Promise<{backend: string, ecdsa: Function}>} */
export async function load() {
  const secp = await initWasmSecp256k1();
  return {
    backend: 'wasm (libsecp256k1, Emscripten)',
    ecdsa: (msg32, pubkey, sig64) => secp.verify(sig64, msg32, pubkey),
  };
}
