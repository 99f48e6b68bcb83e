// The field-arithmetic bench (bench/field/field-mul.mjs, docs/performance.md "Field arithmetic in
// wasm") runs: its candidate multiplies (wasm SIMD extmul lanes, Karatsuba, column sums, and
// both elements of the f64x2 lanes' multiply and square) agree with libsecp256k1's own 10x26
// multiply on random and edge-case products, and the three
// libsecp256k1 builds agree on which real fixture signatures are valid, and the parts timed alone
// parse every key again. No timing is asserted.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../wasm/paths.mjs';

const BENCH = path.join(REPO_ROOT, 'bench', 'field', 'field-mul.mjs');

test('bench/field/field-mul.mjs: candidates equal to libsecp256k1, three builds agreeing on real signatures', { timeout: 600_000 }, async () => {
  const { stdout } = await promisify(execFile)(process.execPath, [BENCH, '--rounds', '1', '--cases', '200000', '--json'],
    { maxBuffer: 1 << 24, timeout: 600_000 });
  const r = JSON.parse(stdout);
  assert.deepEqual(r.differential, { ok: true, cases: 200000 });
  assert.equal(r.ecdsa.verifications, 2048);
  assert.ok(r.ecdsa.valid > 1900 && r.ecdsa.valid <= 2048, `${r.ecdsa.valid} valid`);
  assert.deepEqual(Object.keys(r.ecdsa.us_per_verify), ['portable', 'simd', 'karatsuba']);
  // Every key of the set was parsed again in the parts' timing (the harness exits 1 otherwise),
  // each 33 or 65 bytes.
  assert.equal(r.ecdsa.keys_33 + r.ecdsa.keys_65, r.ecdsa.verifications);
  assert.ok(r.ecdsa.keys_33 > 0 && r.ecdsa.keys_65 > 0, `${r.ecdsa.keys_33} and ${r.ecdsa.keys_65}`);
  assert.deepEqual(Object.keys(r.ecdsa.parts), ['us_per_scalar_inverse', 'us_per_parse_33', 'us_per_parse_65']);
  assert.ok('f64_lanes_mul_ns' in r.ns_per_call && 'f64_lanes_sqr_ns' in r.ns_per_call);
  for (const s of Object.values(r.ns_per_call)) assert.ok(s.median > 0);
});

test('bench/field/field-mul.mjs refuses a bad flag', async () => {
  const r = await promisify(execFile)(process.execPath, [BENCH, '--rounds', '0']).catch((e) => e);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--rounds must be an integer from 1 to 100/);
});
