// The peer libraries ibd-wasm is compared with: one adapter per package in this folder, each
// exporting PACKAGE and load() -> {backend, ecdsa?, schnorr?}. This file loads them, reads
// their pinned versions and runs one timed pass of a peer over decoded checks.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as bitcoinerlab from './bitcoinerlab-secp256k1.mjs';
import * as nobleCurves from './noble-curves.mjs';
import * as nobleSecp from './noble-secp256k1.mjs';
import * as secp256k1Node from './secp256k1-node.mjs';
import * as secp256k1Wasm from './secp256k1-wasm.mjs';
import * as solar from './solar-republic-wasm-secp256k1.mjs';
import * as tiny from './tiny-secp256k1.mjs';

const require = createRequire(import.meta.url);

/** Every adapter, in table order. */
export const ADAPTERS = [tiny, nobleSecp, nobleCurves, bitcoinerlab, secp256k1Node, solar, secp256k1Wasm];

/**
 * The installed version of an npm package: the `version` of the package.json in its
 * node_modules folder (found from its resolved entry point, since `exports` may hide
 * package.json from require.resolve).
 * @throws Error when the package does not resolve or its folder is not under node_modules.
 */
export function packageVersion(name) {
  const suffix = path.join('node_modules', name);
  for (let dir = path.dirname(require.resolve(name)); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (dir.endsWith(suffix)) return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
  }
  throw new Error(`${name}: no ${suffix} folder above its entry point`);
}

/**
 * Loads every peer. One that fails to load is kept with its error, the others still run.
 * @returns {Promise<Array<{name: string, version: string|null, backend: string|null,
 *   ecdsa?: Function, schnorr?: Function, error?: string}>>} ecdsa(msg32, pubkey, compact64)
 *   and schnorr(msg32, xonly32, sig64) return booleans; absent when the peer cannot verify
 *   that type.
 */
export async function loadPeers() {
  return Promise.all(ADAPTERS.map(async (a) => {
    let version = null;
    try {
      version = packageVersion(a.PACKAGE);
      return { name: a.PACKAGE, version, ...(await a.load()) };
    } catch (err) {
      return { name: a.PACKAGE, version, backend: null, error: String(err?.message ?? err) };
    }
  }));
}

/**
 * Verifies decoded checks one call each, in order.
 * @param {Function} verify a peer's ecdsa or schnorr function
 * @param {Array<{msg32: Uint8Array, pubkey: Uint8Array, sig: Uint8Array|null}>} decoded
 *   bench/compare/peers/decode.mjs decodeChecks output (one type)
 * @returns {{verdicts: Uint8Array, seconds: number}} 1 valid, 0 invalid (a null signature, a
 *   false result or a thrown error: peers throw on keys they cannot parse); wall time in s.
 */
export function peerPass(verify, decoded) {
  const verdicts = new Uint8Array(decoded.length);
  const t0 = performance.now();
  for (let i = 0; i < decoded.length; i++) {
    const { msg32, pubkey, sig } = decoded[i];
    if (sig === null) continue;
    try {
      verdicts[i] = verify(msg32, pubkey, sig) ? 1 : 0;
    } catch {
      verdicts[i] = 0;
    }
  }
  return { verdicts, seconds: (performance.now() - t0) / 1000 };
}
