// Peer: secp256k1 (secp256k1-node): a Node addon over libsecp256k1 when its binding loads
// (a prebuilt binary from the package's prebuilds/, or one node-gyp built at install), else its
// pure-JS fallback over elliptic; its index.js picks silently, so the backend is detected here.
// ECDSA only (no BIP340): ecdsaVerify(compact64, msg32, pubkey), which rejects high S.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export const PACKAGE = 'secp256k1';

/** @returns {Promise<{backend: string, ecdsa: Function}>} */
export async function load() {
  const lib = require('secp256k1');
  const native = lib !== require('secp256k1/elliptic');
  return {
    backend: native ? 'native addon (its bundled libsecp256k1 snapshot, prebuilt binary via node-gyp-build)' : 'pure JS fallback (elliptic)',
    ecdsa: (msg32, pubkey, sig64) => lib.ecdsaVerify(sig64, msg32, pubkey),
  };
}
