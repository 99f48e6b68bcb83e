// The relaxed-SIMD field multiply of bench/field/fma-lanes.mjs (issue 13's f64x2 FMA scheme,
// measured there, not shipped): its hand-written module validates under Node 20's
// --experimental-wasm-relaxed-simd, and on random and edge-case limbs (all below 2^52) both the
// carried product and the product mod p equal BigInt's, in both lanes. A host whose
// relaxed_madd is not fused (no FMA3) cannot run the scheme: the test says so and is skipped.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const SCRIPT = fileURLToPath(new URL('../bench/field/fma-lanes.mjs', import.meta.url));

test('FMA lanes: products and products mod p equal BigInt on 5,000 lane pairs', (t) => {
  const out = JSON.parse(execFileSync(process.execPath, ['--experimental-wasm-relaxed-simd', SCRIPT, '--child', '5000', '--untimed'],
    { encoding: 'utf8' }));
  if (!out.fused) {
    t.skip(`relaxed_madd is not fused on this host (probe ${out.probe})`);
    return;
  }
  assert.deepEqual(out, { fused: true, ok: true, cases: 5000 });
});

test('FMA lanes: the bench refuses a bad flag with its usage (exit 2)', () => {
  assert.throws(() => execFileSync(process.execPath, [SCRIPT, '--rounds', '0'], { encoding: 'utf8', stdio: 'pipe' }),
    (err) => err.status === 2 && /usage: node bench\/field\/fma-lanes\.mjs/.test(err.stderr));
});
