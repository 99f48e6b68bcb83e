// npm start's run core with every engine in the workers (bench/core/run-core.mjs runBenchCore,
// block-entries.mjs, chain-pass.mjs): on every fixture block its block entries (verdicts,
// invalid checks, fee, subsidy, sigop cost, coverage, failed inputs, rules not checked) equal
// a single-threaded wasm validation of the same blocks, while the test's own thread (the run's
// main thread) instantiates no WebAssembly at all during the run; and the chain pass, run in a
// worker, still yields the whole chain's result when its worker exits, traps or hangs holding
// it (re-run on another worker); a block that traps its worker every time fails alone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixturesDir, loadBlocks, loadChain, readManifest } from '../blocks-fixtures/loader.mjs';
import { runBenchCore } from '../bench/core/run-core.mjs';
import { validateInWorkers } from '../bench/core/block-entries.mjs';
import { runChainPass } from '../bench/core/chain-pass.mjs';
import { nodeHost } from '../workers/node-host.mjs';
import { createPool } from '../workers/pool.mjs';

const FIXTURES = fixturesDir();
const loaded = await loadBlocks(FIXTURES);
const chain = await loadChain(FIXTURES);
const quiet = () => {};

/** Counts the WebAssembly compilations and instantiations of this thread while `fn` runs. */
async function countingWasm(fn) {
  const wasm = globalThis.WebAssembly;
  const saved = {};
  let calls = 0;
  for (const name of ['compile', 'compileStreaming', 'instantiate', 'instantiateStreaming', 'Module', 'Instance']) {
    saved[name] = wasm[name];
    if (typeof saved[name] !== 'function') continue;
    wasm[name] = new Proxy(saved[name], {
      apply: (target, self, args) => { calls++; return Reflect.apply(target, self, args); },
      construct: (target, args, newTarget) => { calls++; return Reflect.construct(target, args, newTarget === wasm[name] ? target : newTarget); },
    });
  }
  try {
    return { value: await fn(), calls: () => calls };
  } finally {
    Object.assign(wasm, saved);
  }
}

test('runBenchCore: every block entry from the workers equals a single-threaded wasm validation; no engine on the main thread',
  { timeout: 600_000 }, async () => {
    let loadEngineCalls = 0;
    const { value: doc, calls } = await countingWasm(() => runBenchCore(
      { variant: 'simd', workers: 2, batchSize: 512, rounds: 1 },
      {
        loaded, fixtures: FIXTURES, fixtureBlocks: readManifest(FIXTURES).blocks.length, chain,
        // A host of the old interface: the run must not ask it for an engine.
        loadEngine: () => { loadEngineCalls++; throw new Error('the main thread must not load an engine'); },
        createPool, machine: () => ({}),
      }, quiet));
    assert.equal(loadEngineCalls, 0);
    assert.equal(calls(), 0, 'WebAssembly compiled or instantiated on the main thread during the run');
    assert.deepEqual([doc.errors, doc.disagreements, doc.end_to_end.disagreements], [[], [], []]);
    assert.equal(doc.engine.variant, 'simd'); // engineInfo() as a worker reported it

    // The reference: each block validated on this thread's own engine, in rounds (the engine's
    // other mode), every pending check verified here; loaded only now, after the run.
    const { loadEngine } = await import('../wasm/engine.mjs');
    const { validateFixture } = await import('./support/wasm.mjs');
    const engine = await loadEngine('simd');
    assert.equal(doc.blocks.length, loaded.length);
    for (const [i, b] of doc.blocks.entries()) {
      const want = await validateFixture(engine, loaded[i]);
      const where = `block ${b.height}`;
      assert.deepEqual([b.height, b.hash, b.tx_count, b.inputs], [loaded[i].height, want.hash, want.txCount, want.inputs], where);
      assert.deepEqual(b.checks, { ecdsa: want.ecdsa, schnorr: want.schnorr }, where);
      const invalid = [...want.verdicts].flatMap((v, k) => (v === 1 ? [] : [k]));
      assert.deepEqual(b.invalid_checks.map((c) => c.index), invalid, where);
      assert.deepEqual(b.invalid_checks.map((c) => [c.tx, c.input]), invalid.map((k) => [want.origins[2 * k], want.origins[2 * k + 1]]), where);
      assert.deepEqual([b.valid, b.invalid], [want.verdicts.length - invalid.length, invalid.length], where);
      assert.deepEqual([b.block_valid, b.reject_reason, b.stage, b.fee, b.subsidy, b.sigop_cost],
        [want.valid, want.rejectReason, want.stage, want.fee, want.subsidy, want.sigopCost], where);
      assert.deepEqual(b.coverage, want.coverage, where);
      assert.deepEqual(b.failed_inputs, want.inputFailures.map(({ tx, input, type, scriptError }) => ({ tx, input, type, error: scriptError })), where);
      assert.deepEqual(b.not_checked, want.notChecked.map(({ rule, reason }) => ({ rule, reason })), where);
      // Times: warm from the timed rounds, and cold from the first pass, all measured in the workers.
      assert.ok(b.parse_sighash_ms > 0 && b.verify_ms >= 0 && b.cold_ms > 0, `${where}: ${b.parse_sighash_ms} ${b.verify_ms} ${b.cold_ms}`);
    }
    assert.equal(doc.totals.checks, 14527);
    assert.equal(doc.chain.valid, true);
    assert.deepEqual(doc.chain.fixture_match, { compared: 7, equal: 7, differing: [] });
    const e = doc.end_to_end;
    assert.ok(e.cold.encode_seconds > 0 && e.cold.seconds > 0 && e.cold.encode_share > 0 && e.cold.encode_share < 1);
  });

const FAULT_WORKER = new URL('./support/fault-verify-worker.mjs', import.meta.url);

test('the chain pass in a worker: a worker that exits, traps or hangs holding the chain loses nothing', { timeout: 300_000 }, async () => {
  const heights = [170, 181, 182, 183, 187, 221, 248];
  const some = await loadBlocks(FIXTURES, { heights });
  const healthy = createPool({ workers: 1 });
  let want;
  let entries;
  try {
    await healthy.ready();
    ({ entries } = await validateInWorkers(healthy, some, { log: quiet }));
    want = await runChainPass(healthy, chain, entries, { log: quiet });
  } finally {
    await healthy.close();
  }
  assert.equal(want.valid, true);
  assert.equal(want.connected, 255);
  assert.deepEqual(want.fixture_match, { compared: 7, equal: 7, differing: [] });

  // The first three chain messages each kill their worker: exit, a wasm trap inside
  // ChainValidation, a hang past the deadline. The fourth attempt completes.
  const counter = new Int32Array(new SharedArrayBuffer(4));
  const faulty = createPool({
    workers: 2,
    batchTimeoutMs: 3000,
    maxAttempts: 4,
    host: nodeHost({ workerUrl: FAULT_WORKER, workerData: { variant: 'simd', counter, faults: { 1: 'exit', 2: 'trap', 3: 'hang' } } }),
  });
  try {
    await faulty.ready();
    const got = await runChainPass(faulty, chain, entries, { log: quiet });
    assert.equal(Atomics.load(counter, 0), 4);
    assert.ok(faulty.replacements >= 3, `${faulty.replacements} replacements`);
    assert.deepEqual({ ...got, seconds: null }, { ...want, seconds: null });
  } finally {
    await faulty.close();
  }

  // With fewer attempts than faults, the chain's failure is the pass's `error`, naming it.
  counter[0] = 0;
  const doomed = createPool({
    workers: 1,
    maxAttempts: 2,
    host: nodeHost({ workerUrl: FAULT_WORKER, workerData: { variant: 'simd', counter, faults: { 1: 'exit', 2: 'exit' } } }),
  });
  try {
    await doomed.ready();
    const got = await runChainPass(doomed, chain, entries, { log: quiet });
    assert.match(got.error, /ChainValidation in a worker failed: chain validation of a [\d]+-byte block file failed 2 times/);
    assert.equal(got.connected, null);
  } finally {
    await doomed.close();
  }
});

test('a block whose validation traps its worker every time fails alone, named; the other blocks of its group complete', { timeout: 300_000 }, async () => {
  const some = await loadBlocks(FIXTURES, { heights: [170, 181, 182, 57043] });
  const pool = createPool({
    workers: 2,
    host: nodeHost({ workerUrl: FAULT_WORKER, workerData: { variant: 'simd', trapHeight: 181 } }),
  });
  const lines = [];
  try {
    await pool.ready();
    const { entries, jobs } = await validateInWorkers(pool, some, { log: (l) => lines.push(l) });
    assert.deepEqual(entries.map((e) => [e.height, Boolean(e.error)]), [[170, false], [181, true], [182, false], [57043, false]]);
    assert.match(entries[1].error, /mainnet[/\\]181: block [0-9a-f]{64} \(height 181\): the validation of block 181 failed 3 times .*RuntimeError/s);
    assert.deepEqual(entries.filter((e) => !e.error).map((e) => e.blockValid), [true, true, true]);
    assert.equal(jobs.length, 3);
  } finally {
    await pool.close();
  }
});

test('validateChain refuses a file that is not a Uint8Array', async () => {
  const pool = createPool({ workers: 1 });
  try {
    await assert.rejects(pool.validateChain('not bytes'), /validateChain\(file\): file must be a Uint8Array/);
  } finally {
    await pool.close();
  }
});

test('the spent outputs are encoded in the workers: each text\'s binary form equals encodeSpentOutputs\', a bad text fails alone', async () => {
  const { encodeSpentOutputs } = await import('../wasm/spent-outputs.mjs');
  const json = (h) => loaded.find((b) => b.height === h).spentOutputsJson;
  const pool = createPool({ workers: 2 });
  try {
    const out = await pool.encodeSpentOutputs([[json(170), '{"spent_outputs": [{"txid": "zz"}]}'], [json(57043)]]);
    assert.ok(Buffer.from(out[0][0].bytes).equals(Buffer.from(encodeSpentOutputs(json(170)))));
    assert.match(out[0][1].error, /^spent_outputs\[0\]\.txid: /);
    assert.ok(Buffer.from(out[1][0].bytes).equals(Buffer.from(encodeSpentOutputs(json(57043)))));
    await assert.rejects(pool.encodeSpentOutputs([[5]]), /encodeSpentOutputs\(groups\): groups must be non-empty arrays of strings/);
  } finally {
    await pool.close();
  }
});

// A hostile review found one encoding group failing every attempt failing every block, blamed on
// spent_outputs.json.
test('an encoding group whose workers die every time fails its own blocks only, named as a worker fault', async () => {
  const json = (h) => loaded.find((b) => b.height === h).spentOutputsJson;
  const counter = new Int32Array(new SharedArrayBuffer(4));
  // Messages 1-3: the first group's three attempts (one worker at a time), each worker exits.
  const pool = createPool({ workers: 1, host: nodeHost({ workerUrl: FAULT_WORKER, workerData: { counter, faults: { 1: 'exit', 2: 'exit', 3: 'exit' } } }) });
  try {
    const out = await pool.encodeSpentOutputs([[json(170)], [json(181)]]);
    assert.equal(out[0][0].workerFault, true);
    assert.match(out[0][0].error, /^spent outputs encoding group 0 \(1 lists\) failed 3 times .*exited \(code 3\)/);
    assert.ok(out[1][0].bytes instanceof Uint8Array && out[1][0].bytes.length > 8);
  } finally {
    await pool.close();
  }
});
