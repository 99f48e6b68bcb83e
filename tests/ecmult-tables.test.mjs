// The wasm variants compute libsecp256k1's tables of multiples of G when the module starts
// (native/secp256k1/ecmult_tables.h) instead of shipping them in the .wasm: the computed tables
// are the shipped ones byte for byte (the SHA-256 tests/native/verify/ecmult_tables_test.cpp
// asserts of the native build's linked tables), and the module no longer carries them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { loadEngine } from '../wasm/engine.mjs';
import { wasmDir } from '../wasm/paths.mjs';
import { VARIANTS } from '../wasm/variants.mjs';

/** SHA-256 of libsecp256k1 0.5.0's src/precomputed_ecmult.c tables (ECMULT_WINDOW_SIZE 15):
 *  the odd multiples of G, then of 2^128*G, 64 bytes per point. */
const SHIPPED_TABLES_SHA256 = '52d7d0a8a553038718865c68194ca467c94bb4accd78b0416f7e5f09c986f3a3';

for (const variant of VARIANTS) {
  test(`the tables computed at start are libsecp256k1's shipped ones, and not in the .wasm (${variant})`, async () => {
    const engine = await loadEngine(variant);
    assert.equal(engine.engineInfo().ecmultTables, 'computed');
    assert.equal(engine.ecmultTablesSha256(), SHIPPED_TABLES_SHA256);
    // 2 x 8,192 points of 64 bytes = 1 MiB: a module that shipped them would be larger.
    const bytes = readFileSync(path.join(wasmDir(), `ibd-${variant}.wasm`)).length;
    assert.ok(bytes < 1024 * 1024, `ibd-${variant}.wasm is ${bytes} bytes`);
  });
}
