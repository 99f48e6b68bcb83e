// The loaders' guard over the module's entry points (wasm/engine-guard.mjs, wasm/API.md "A
// trapped instance is retired") and the raw bindings' argument checks (wasm/bindings.cpp): what
// the wasm boundary would coerce is refused by name, as is a call with the wrong number of
// arguments (every Embind function and method, with its parameters), thousands of refused calls leave the
// instance's verdicts on real signatures unchanged, and an instance that trapped answers nothing
// more. On both wasm variants.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixturesDir, loadBlocks } from '../blocks-fixtures/loader.mjs';
import { walkChecks } from '../wasm/check-buffer.mjs';
import { guardEngine } from '../wasm/engine-guard.mjs';
import { loadEngine } from '../wasm/engine.mjs';
import { encodeSpentOutputs } from '../wasm/spent-outputs.mjs';
import { verifyChecks } from './support/wasm.mjs';

const VARIANTS = ['simd', 'scalar'];
const [block] = await loadBlocks(fixturesDir(), { heights: [866342] });

/** Block 866,342's checks (ECDSA and Schnorr), every fifth with its msg32's first byte flipped,
 *  and the verdicts that must come back: 0 for those, the untouched buffer's verdict for the
 *  rest (a CHECKMULTISIG's trials include checks that fail in a valid block). */
function tamperedChecks(engine) {
  const r = engine.validateBlock(block.block, encodeSpentOutputs(JSON.parse(block.spentOutputsJson)), block.hash, block.height, undefined);
  assert.ok(r.ok && r.valid, r.error);
  const checks = Uint8Array.from(r.checks);
  const untouched = verifyChecks(engine, checks);
  const { count, offsets } = walkChecks(checks);
  const want = Array.from({ length: count }, (_, i) => {
    if (i % 5 !== 0) return untouched[i];
    checks[offsets[i] + 4] ^= 1; // msg32 follows the 4-byte header
    return 0;
  });
  assert.ok(want.filter((v) => v === 1).length > count / 2);
  return { checks, want };
}

for (const variant of VARIANTS) {
  test(`the raw bindings refuse arguments of the wrong type, by name (${variant})`, async () => {
    const engine = await loadEngine(variant);
    const ptr = engine._malloc(256);
    try {
      const refused = [
        [() => engine.verifySingle(null, 3, 33, false), TypeError, /verifySingle: ptr must be a number, got null/],
        [() => engine.verifySingle('', 3, 33, false), TypeError, /ptr must be a number, got string/],
        [() => engine.verifySingle([ptr], 1, 33, false), TypeError, /ptr must be a number, got an Array/],
        [() => engine.verifySingle(ptr, '1', 33, false), TypeError, /kind must be a number, got string/],
        [() => engine.verifySingle(ptr, 1, 33, 'false'), TypeError, /strict must be a boolean, got string/],
        [() => engine.verifySingle(ptr, 1, 33), TypeError, /verifySingle takes 4 arguments \(ptr, kind, pubkeyLen, strict\), got 3/],
        [() => engine.verifyBatch(ptr, 0, 1, null), TypeError, /verifyBatch: verdictsPtr must be a number, got null/],
        [() => engine.verifyBatch(ptr, 0, 1n, ptr), TypeError, /count must be a number, got bigint/],
        [() => engine.schnorrBatchVerify('x', 0, 0), TypeError, /schnorrBatchVerify: checksPtr must be a number, got string/],
        // Numbers the C++ side refuses: an int argument would have wrapped (2^32 + 1 -> 1).
        [() => engine.verifySingle(ptr, 2 ** 32 + 1, 33, false), Error, /verifySingle: kind 4\.29497e\+09, pubkeyLen 33 at \d+: out of range/],
        [() => engine.verifySingle(ptr, 1.9, 33, false), Error, /kind 1\.9, pubkeyLen 33 at \d+: out of range/],
        [() => engine.verifySingle(ptr, 1, 33.5, false), Error, /pubkeyLen 33\.5 at \d+: out of range/],
        // Address 0 and the static data below the heap hold no caller's buffer.
        [() => engine.verifySingle(0, 3, 33, false), Error, /verifySingle: kind 3, pubkeyLen 33 at 0: out of range .*the bytes in the heap \[\d+, \d+\)/],
        [() => engine.verifyBatch(ptr, 0, 20, 0), Error, /verifyBatch: the verdicts region is not in the module's heap \[\d+, \d+\): checks \[\d+, \d+\), verdicts \[0, 20\)/],
        [() => engine.verifyBatch(16, 100, 1, ptr), Error, /the checks region is not in the module's heap/],
        [() => engine.verifyBatch(ptr, 100, 10, ptr + 50), Error, new RegExp(`verifyBatch: the verdicts \\[${ptr + 50}, ${ptr + 60}\\) overlap the checks \\[${ptr}, ${ptr + 100}\\)`)],
        [() => engine.schnorrBatchVerify(0, 132, 1), Error, /schnorrBatchVerify: the checks .* are not in the module's heap/],
      ];
      for (const [call, Class, message] of refused) {
        assert.throws(call, (err) => err.constructor === Class && message.test(err.message), String(call));
      }
      assert.equal(engine.trapped, null);
    } finally {
      engine._free(ptr);
    }
  });

  test(`a call with the wrong number of arguments names the call and what it takes (${variant})`, async () => {
    // Embind refused these itself, with a BindingError of an anonymous class (-sDYNAMIC_EXECUTION=0)
    // naming no parameter: "function validateBlock called with 4 arguments, expected 5 args!".
    const engine = await loadEngine(variant);
    const named = (call, message) => assert.throws(call, (err) => err.constructor === TypeError && err.message === message, String(call));
    named(() => engine.validateBlock(block.block, block.spentOutputsJson, block.hash, block.height),
      'validateBlock takes 5 arguments (block, spentOutputs, expectedHashHex, height, options), got 4 (options: pass undefined for none)');
    named(() => engine.decodeSpentOutputs(block.block), 'decodeSpentOutputs takes 2 arguments (block, spentOutputs), got 1');
    named(() => engine.engineInfo({}), 'engineInfo takes no arguments, got 1');
    named(() => engine.sha256Chain(64), 'sha256Chain takes 2 arguments (bytes, reps), got 1');
    named(() => new engine.BlockValidation(1, 2, 3, 4, 5, 6),
      'new BlockValidation takes at most 5 arguments (block, spentOutputsJson, expectedHashHex, height, options), got 6');
    named(() => new engine.ChainValidation({}, {}), 'new ChainValidation takes at most 1 argument (options), got 2');
    const validation = new engine.BlockValidation();
    const chain = new engine.ChainValidation();
    try {
      named(() => validation.resolve(), 'BlockValidation.resolve takes 1 argument (verdicts), got 0');
      named(() => chain.connectBlock(block.block, 1), 'ChainValidation.connectBlock takes 1 argument (block), got 2');
      // Every free function and method Embind binds (not the handle's delete, clone, deleteLater,
      // which the guard gives each class as its own) is counted, each as Embind counts it: its
      // declared count reaches the binding (which answers, or throws its own Error for the
      // undefined arguments), one more is refused by name.
      const calls = [
        ...['validateBlock', 'decodeSpentOutputs', 'engineInfo', 'sha256Chain', 'ecmultTablesSha256'].map((name) => [name, engine, name]),
        ...[['BlockValidation', validation], ['ChainValidation', chain]].flatMap(([Class, object]) =>
          Object.getOwnPropertyNames(engine[Class].prototype).filter((m) => !['constructor', 'delete', 'clone', 'deleteLater'].includes(m)).map((m) => [`${Class}.${m}`, object, m])),
      ];
      assert.equal(calls.length, 12);
      for (const [name, target, key] of calls) {
        let declared;
        assert.throws(() => target[key](...Array(20).fill(undefined)), (err) => {
          declared = /^[\w.]+ takes (?:no arguments|(\d+) arguments? \(.*\)), got 20$/.exec(err.message);
          return err instanceof TypeError && err.message.startsWith(`${name} takes `) && declared !== null;
        }, name);
        const args = Array(Number(declared[1] ?? 0)).fill(undefined);
        try {
          target[key](...args);
        } catch (err) {
          assert.ok(err.name !== 'BindingError' && !/called with \d+ arguments/.test(err.message), `${name}(${args.length} arguments): ${err.message}`);
        }
      }
      assert.equal(engine.trapped, null);
    } finally {
      validation.delete();
      chain.delete();
    }
  });

  test(`20,000 refused calls leave the stack pointer, and real verdicts, as they were (${variant})`, async () => {
    // Each JS Error a binding throws unwinds the wasm frames without their epilogues. Before the
    // guard restored the stack pointer, about 7,000 of them ran the stack into static data and
    // valid signatures of this block then failed.
    const engine = await loadEngine(variant);
    const { checks, want } = tamperedChecks(engine);
    assert.deepEqual([...verifyChecks(engine, checks)], want);
    const before = engine.stackSave();
    for (let i = 0; i < 20000; i++) {
      assert.throws(() => engine.verifySingle(0, 3, 33, false), /out of range/);
      assert.throws(() => engine.verifyBatch(16, 100, 1, 16), /not in the module's heap/);
    }
    assert.equal(engine.stackSave(), before);
    assert.deepEqual([...verifyChecks(engine, checks)], want);
  });
}

test('a call from a getter that a running call invoked is refused: no object freed under its own method', async () => {
  // A.resolve reads its argument's length (a JS getter) after Embind checked that A is alive;
  // deleting A there and making B used to put B where A was, and A's verdicts resolved B's
  // pending check: B reported valid a block whose one check is invalid, never verified.
  const engine = await loadEngine('simd');
  const [b170] = await loadBlocks(fixturesDir(), { heights: [170] });
  const a = new engine.BlockValidation(b170.block, b170.spentOutputsJson, b170.hash, 170);
  let inner;
  class Sneaky extends Uint8Array {
    get length() {
      try { a.delete(); } catch (err) { inner = err; }
      return 1;
    }
  }
  assert.deepEqual(a.status(), { ok: true, pending: 1 });
  a.resolve(new Sneaky([1]));
  assert.match(inner.message, /^BlockValidation\.delete: called while BlockValidation\.resolve is running on this engine instance/);
  assert.equal(a.isDeleted(), false);
  assert.equal(a.result().valid, true, 'block 170 with its one check verified valid');
  a.delete();
  // The module stays usable.
  assert.equal(engine.trapped, null);
  assert.equal(engine.engineInfo().variant, 'simd');
});

test('a real trap retires the instance: _malloc, _free, delete and clone refuse afterwards', async () => {
  const engine = await loadEngine('simd');
  const [b170] = await loadBlocks(fixturesDir(), { heights: [170] });
  const v = new engine.BlockValidation(b170.block, b170.spentOutputsJson, b170.hash, 170);
  // Embind's own string crossings run the glue's _free stub, which assigns the raw export to
  // the module object: the guard must survive that.
  assert.throws(() => engine._free(2 ** 31 - 8), WebAssembly.RuntimeError); // dlmalloc reads its chunk header out of bounds
  assert.match(engine.trapped.message, /^_free trapped in .*ibd-simd\.wasm: memory access out of bounds/);
  const retired = /this engine instance \(.*ibd-simd\.wasm\) trapped earlier and is retired/;
  for (const call of [() => engine._malloc(16), () => engine._free(0), () => v.clone(), () => v.delete(), () => v.status(),
    () => engine.verifySingle(0, 3, 33, false), () => engine.validateBlock(b170.block, b170.spentOutputsJson, b170.hash, 170, undefined)]) {
    assert.throws(call, retired, String(call));
  }
});

for (const variant of VARIANTS) {
  test(`a C++ exception that escapes the bindings (a full heap) retires the instance, named (${variant})`, async () => {
    const engine = await loadEngine(variant);
    const [b170] = await loadBlocks(fixturesDir(), { heights: [170] });
    for (const size of [1 << 24, 1 << 20, 1 << 12, 64, 1]) while (engine._malloc(size)); // not a byte left, not even for Embind's strings
    assert.throws(() => engine.validateBlock(b170.block, b170.spentOutputsJson, b170.hash, 170, undefined),
      /^Error: validateBlock trapped in .*ibd-\w+\.wasm: a C\+\+ exception escaped the engine \((WebAssembly\.Exception|thrown at address \d+); out of memory\?\)$/);
    assert.throws(() => engine.engineInfo(), /trapped earlier and is retired/);
  });
}

test('an instance that trapped is retired: every later call throws, naming the first trap', () => {
  // A stand-in module whose verifyBatch traps as wasm does (a WebAssembly.RuntimeError) once its
  // "memory" says so; the real bindings give no input that traps (the test above).
  let sp = 1000;
  let trap = false;
  class BlockValidation { status() { return { ok: true }; } }
  const fake = {
    stackSave: () => sp,
    stackRestore: (v) => { sp = v; },
    verifyBatch: () => { if (trap) throw new WebAssembly.RuntimeError('memory access out of bounds'); sp -= 16; throw new Error('verifyBatch: refused'); },
    engineInfo: () => ({ variant: 'simd' }),
    BlockValidation,
  };
  const engine = guardEngine(fake, 'ibd-simd.wasm');
  const v = new engine.BlockValidation();
  assert.ok(v instanceof engine.BlockValidation);
  assert.deepEqual(v.status(), { ok: true });
  assert.throws(() => engine.verifyBatch(1, 0, 0, 1), /verifyBatch: refused/);
  assert.equal(sp, 1000, 'a plain Error restores the stack pointer');
  trap = true;
  assert.throws(() => engine.verifyBatch(1, 0, 0, 1), WebAssembly.RuntimeError);
  assert.match(engine.trapped.message, /^verifyBatch trapped in ibd-simd\.wasm: memory access out of bounds$/);
  const retired = /this engine instance \(ibd-simd\.wasm\) trapped earlier and is retired; load a new one \(first trap: verifyBatch trapped/;
  assert.throws(() => engine.engineInfo(), retired);
  assert.throws(() => engine.verifyBatch(1, 0, 0, 1), retired);
  assert.throws(() => v.status(), /BlockValidation\.status: this engine instance/);
  assert.throws(() => new engine.BlockValidation(), /new BlockValidation: this engine instance/);
  assert.throws(() => { 'use strict'; engine.trapped = null; }, TypeError);
  assert.ok(engine.trapped);
});
