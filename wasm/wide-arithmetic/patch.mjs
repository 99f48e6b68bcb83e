#!/usr/bin/env node
// The link step of the 'wide' variant (wasm/CMakeLists.txt runs it after emcc):
//
//   node wasm/wide-arithmetic/patch.mjs build/wasm/ibd-wide.wasm
//
// replaces, in place, the bodies of ibd_fe_mul_inner, ibd_fe_sqr_inner (libsecp256k1's 5x52
// field multiply and square, kept out of line by native/secp256k1/secp256k1_ibd.c) and
// compiler-rt's __multi3 with wide-arithmetic code (field-5x52.mjs), found by their names in the
// "name" section (emcc --profiling-funcs), which it then drops: the shipped .wasm carries no
// names, as the other variants. Checks first that each function exists once, with the expected
// parameters and no results. The patched module is written beside the file and renamed over it;
// when the patch fails, the linked file is deleted, so that no unpatched module (or one whose
// glue is from an earlier build) is left to be served or packed. Exit 0; 1 naming the file and
// what is missing or malformed.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { patchWide } from './patch-module.mjs';

const file = process.argv[2];
if (!file || process.argv.length > 3) {
  console.error('usage: node wasm/wide-arithmetic/patch.mjs <ibd-wide.wasm>');
  process.exit(2);
}
try {
  const before = readFileSync(file);
  const after = patchWide(new Uint8Array(before.buffer, before.byteOffset, before.length), file);
  writeFileSync(`${file}.patching`, after);
  renameSync(`${file}.patching`, file);
} catch (err) {
  rmSync(file, { force: true });
  rmSync(`${file}.patching`, { force: true });
  console.error(`patch.mjs: ${err.message} (${file} deleted: rebuild after fixing this)`);
  process.exit(1);
}
