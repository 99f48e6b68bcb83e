// The Node side of tests/package.test.mjs, run with the fresh project as its working folder, so
// that 'ibd-wasm' is the installed tarball: node package-node.mjs <fixture.json> <calls.json>.
// It records every worker_threads Worker the package starts (so that the test can kill one
// mid-block), then validates the fixture block in this thread and in a pool, verifies its checks,
// replays the drop-in calls, feeds bad input, and prints one JSON summary on stdout.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import workerThreads from 'node:worker_threads';

const started = [];
const { Worker } = workerThreads;
workerThreads.Worker = class extends Worker {
  constructor(...args) {
    super(...args);
    started.push(this);
  }
};
syncBuiltinESMExports(); // the package's `import { Worker } from 'node:worker_threads'` sees it

const ibd = await import('ibd-wasm');
const { createPool, init, isPoint, validateBlock, verify, verifyBatch, verifySchnorr } = ibd;

const digest = (bytes) => createHash('sha256').update(bytes).digest('hex');
const unhex = (s) => Uint8Array.from(Buffer.from(s, 'hex'));
const outcome = (f) => {
  try {
    return { value: f() };
  } catch (err) {
    return { error: `${err.constructor.name}: ${err.message}` };
  }
};
/** A copy of `bytes` whose ArrayBuffer has been transferred away (detached). */
const detached = (bytes) => {
  const copy = Uint8Array.from(bytes);
  structuredClone(copy.buffer, { transfer: [copy.buffer] });
  return copy;
};
const rejection = async (p) => {
  try {
    await p;
    return null;
  } catch (err) {
    return `${err.constructor.name}: ${err.message}`;
  }
};
const summary = (r) => (r.ok
  ? { ok: true, valid: r.valid, inputs: r.inputs, ecdsa: r.ecdsa, schnorr: r.schnorr,
    inputVerdicts: digest(r.inputVerdicts), verdicts: digest(r.verdicts), checks: digest(r.checks) }
  : { ok: false, error: r.error });

const fixture = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const calls = JSON.parse(readFileSync(process.argv[3], 'utf8'));
const block = readFileSync(fixture.blockFile); // a Buffer: a Uint8Array, as callers pass it
const spent = readFileSync(fixture.spentFile, 'utf8');
const { height } = fixture;

// A load that fails, then one in progress asked for another variant, then the drop-in (the
// engine already loaded by then).
const failedInit = await rejection(init({ variant: 'bogus' }));
const emptyDir = await rejection(init({ wasmDir: '' }));
const loadingSimd = init({ variant: 'simd' });
const inFlightOther = await rejection(init({ variant: 'scalar' }));
await loadingSimd;
const fns = { verify, verifySchnorr, isPoint };
const dropIn = calls.map(({ fn, args }) => outcome(() => fns[fn](...args.map((a) => (typeof a === 'string' ? unhex(a) : a)))));

const local = await validateBlock(block, spent, { height });
const pool = createPool({ workers: 2 });
await pool.ready();
const pooled = await pool.validateBlock(block, spent, { height });
const poolVerify = digest(await pool.verify(local.checks));

// A worker killed mid-block: the block is re-run elsewhere and its result is the same.
const running = pool.validateBlock(block, spent, { height });
await new Promise((resolve) => setTimeout(resolve, 20));
await started[0].terminate();
const afterKill = await running;
const replacements = pool.replacements;

const bad = {
  blockType: await rejection(validateBlock('not a block', spent, { height })),
  height: await rejection(validateBlock(block, spent, { height: -1 })),
  spentEntry: await rejection(validateBlock(block, '{"spent_outputs": [{"txid": "zz", "vout": 0, "value": 1, "script_pubkey": ""}]}', { height })),
  truncated: summary(await validateBlock(block.subarray(0, 1000), spent, { height })),
  batch: outcome(() => verifyBatch(local.checks.subarray(0, 40))).error,
  poolVerify: await rejection(pool.verify('checks')),
  submit: await rejection(pool.submit(new Uint8Array(3))),
  notAPool: await rejection(validateBlock(block, spent, { height, pool: {} })),
  misspelt: await rejection(validateBlock(block, spent, { height, heigth: height })),
  poolOption: outcome(() => createPool({ wrokers: 1 })).error,
  poolEmptyDir: outcome(() => createPool({ wasmDir: '' })).error,
  poolVariantType: outcome(() => createPool({ variant: 5 })).error,
  initOption: await rejection(init({ wasmdir: '.' })),
  initOther: await rejection(init({ variant: 'scalar' })),
  notJson: await rejection(validateBlock(block, '{"spent_outputs": [', { height })),
  camelCase: await rejection(validateBlock(block, [{ txid: '00'.repeat(32), vout: 0, value: 1, scriptPubKey: '51' }], { height })),
  hole: await rejection(validateBlock(block, [, { txid: '00'.repeat(32), vout: 0, value: 1, script_pubkey: '51' }], { height })), // eslint-disable-line no-sparse-arrays
  arrayBuffer: await rejection(validateBlock(block, new ArrayBuffer(8), { height })),
  int8Array: await rejection(validateBlock(block, new Int8Array(8), { height })),
  proxyBlock: await rejection(validateBlock(new Proxy(block, {}), spent, { height })),
  oversized: await rejection(validateBlock(new Uint8Array(4000001), spent, { height })),
  medianTimePast: await rejection(validateBlock(block, spent, { height, medianTimePast: 2 ** 53 })),
  // A Uint8Array whose length lies: sizes are read from the real extent, never past it.
  liarHash: outcome(() => verify(new (class extends Uint8Array { get length() { return 32; } })(4096), new Uint8Array(33), new Uint8Array(64))).error,
  // A buffer transferred away: named, and a rejection from the promise calls, never a throw.
  detachedVerify: await rejection(pool.verify(detached(local.checks))),
  detachedBlock: await rejection(validateBlock(detached(block), spent, { height })),
  // What the caller's own code throws passes through as thrown.
  thrownString: await (async () => { try { await validateBlock(block, { get spent_outputs() { throw 'mine'; } }, { height }); } catch (err) { return err; } })(),
  liarBatch: outcome(() => digest(verifyBatch(new (class extends Uint8Array { get length() { return 40; } })(local.checks)))).value,
};
// The caller reuses its buffers at once: the call validated what they held when it was made.
const mine = { block: Uint8Array.from(block), spent: Uint8Array.from(readFileSync(fixture.spentFile)) };
const early = validateBlock(mine.block, mine.spent, { height });
mine.block.fill(0);
mine.spent.fill(0x20);
const reused = summary(await early);
const wrongHeight = await validateBlock(block, spent, { height: height + 1 });
const jsonBytes = summary(await validateBlock(block, readFileSync(fixture.spentFile), { height }));
// The same bytes after 100 spaces: still JSON text, however long its leading whitespace.
const paddedJsonBytes = summary(await validateBlock(block, Buffer.concat([Buffer.alloc(100, 0x20), readFileSync(fixture.spentFile)]), { height }));
const initAgain = (await init({ variant: 'simd' })).variant;
await pool.close();
const closed = await rejection(pool.verify(local.checks));
const readyClosed = await rejection(pool.ready());

process.stdout.write(`${JSON.stringify({
  dropIn, local: summary(local), pooled: summary(pooled), afterKill: summary(afterKill), replacements,
  batch: digest(verifyBatch(local.checks)), poolVerify, bad, closed, readyClosed, exports: Object.keys(ibd).sort(),
  failedInit, emptyDir, inFlightOther, initAgain, jsonBytes, paddedJsonBytes, reused, truncatedValid: (await validateBlock(block.subarray(0, 1000), spent, { height })).valid,
  wrongHeight: { ok: wrongHeight.ok, valid: wrongHeight.valid, stage: wrongHeight.stage, rejectReason: wrongHeight.rejectReason },
})}\n`);
