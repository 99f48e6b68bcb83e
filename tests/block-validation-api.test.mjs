// BlockValidation.resolve() argument checks (wasm/API.md): anything but a Uint8Array of
// pending().count bytes throws an Error naming what was given, leaves the validation usable,
// and does not leak wasm memory (the argument is checked before any copy into wasm memory).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { loadEngine } from '../wasm/engine.mjs';
import { verifyChecks } from './support/wasm.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const FIX = path.resolve(here, '../../shared/blocks-fixtures/mainnet');
const engine = await loadEngine('simd');

function load(height) {
  const block = new Uint8Array(readFileSync(`${FIX}/${height}/block.raw`));
  const spentText = readFileSync(`${FIX}/${height}/spent_outputs.json`, 'utf8');
  return { block, spentText, hash: JSON.parse(spentText).block_hash, height };
}

test('resolve() rejects non-Uint8Array verdicts with an Error naming the type; state stays usable', () => {
  const b = load(403200);
  const v = new engine.BlockValidation(b.block, b.spentText, b.hash, b.height);
  try {
    const p = v.pending();
    assert.ok(p.count > 1);
    const cases = [
      [null, 'null'], [undefined, 'undefined'], [5, 'number'], ['x'.repeat(p.count), 'string'],
      [Array.from({ length: p.count }, () => 257), 'Array'], [new Uint16Array(p.count), 'Uint16Array'],
      [{ length: p.count }, 'Object'],
    ];
    for (const [arg, name] of cases) {
      assert.throws(() => v.resolve(arg), (e) => e instanceof Error &&
        e.message === `BlockValidation.resolve: verdicts must be a Uint8Array, got ${name}`, name);
      assert.equal(v.pending().count, p.count);
    }
    assert.throws(() => v.resolve(new Uint8Array(p.count - 1)),
      { message: `BlockValidation.resolve: ${p.count - 1} verdicts for ${p.count} pending checks` });
    assert.deepEqual(v.status(), { ok: true, pending: p.count });
    // Still usable: finish with honest verdicts.
    for (let q = v.pending(); q.count > 0; q = v.pending()) v.resolve(verifyChecks(engine, q.checks));
    assert.equal(v.result().valid, true);
  } finally {
    v.delete();
  }
});

test('50 throwing resolve() calls with a 1 MiB array do not grow wasm memory', () => {
  const b = load(403200);
  const v = new engine.BlockValidation(b.block, b.spentText, b.hash, b.height);
  try {
    const big = new Uint8Array(1 << 20);
    try { v.resolve(big); } catch { /* warm-up */ }
    const before = engine.HEAPU8.length;
    for (let i = 0; i < 50; i++) assert.throws(() => v.resolve(big), Error);
    assert.equal(engine.HEAPU8.length, before);
    assert.ok(v.pending().count > 0);
  } finally {
    v.delete();
  }
});
