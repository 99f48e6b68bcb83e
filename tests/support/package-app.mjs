// The browser side of tests/package.test.mjs: what an app built on the installed package does,
// copied as is into a plain page (the package through an import map), into a module Web Worker
// (the same file, its import rewritten to the package's path) and into a Vite app (the package
// resolved and bundled by Vite). It validates a fixture block served under /fixtures/ in its
// own thread and in a pool of two Web Workers, verifies its checks (verifyBatch, the pool,
// submit) and replays the drop-in calls of /calls.json, then leaves a summary in
// window.packageResult (or the error in window.packageError); in a worker it posts
// {result} or {error}. ?wasm=<URL> in the page's (or worker's) URL loads the .wasm from there.

import { createPool, init, isPoint, simdSupported, validateBlock, verify, verifyBatch, verifySchnorr, wideArithmeticSupported } from 'ibd-wasm';

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const unhex = (s) => Uint8Array.from(s.match(/../g) ?? [], (h) => parseInt(h, 16));
const digest = async (bytes) => hex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));

/** What the test compares of a validateBlock result. */
async function summary(r) {
  if (!r.ok) return { ok: false, error: r.error };
  return {
    ok: true, valid: r.valid, inputs: r.inputs, ecdsa: r.ecdsa, schnorr: r.schnorr,
    inputVerdicts: await digest(r.inputVerdicts), verdicts: await digest(r.verdicts), checks: await digest(r.checks),
  };
}

/** A drop-in call's outcome: its value, or its error's class and message (as tiny-secp256k1's). */
function outcome(f) {
  try {
    return { value: f() };
  } catch (err) {
    return { error: `${err.constructor.name}: ${err.message}` };
  }
}

async function run() {
  const { height, block: blockPath, spent: spentPath } = await (await fetch('/fixture.json')).json();
  const before = outcome(() => verify(new Uint8Array(32), new Uint8Array(33), new Uint8Array(64)));
  const wasmUrl = new URLSearchParams(location.search).get('wasm') ?? undefined;
  const info = await init({ wasmUrl });
  const [block, spent, calls] = await Promise.all([
    fetch(blockPath).then((r) => r.arrayBuffer()).then((b) => new Uint8Array(b)),
    fetch(spentPath).then((r) => r.text()),
    fetch('/calls.json').then((r) => r.json()),
  ]);
  const local = await validateBlock(block, spent, { height });
  const pool = createPool({ workers: 2, wasmUrl });
  let pooled;
  let poolVerify;
  let submitted;
  try {
    pooled = await pool.validateBlock(block, spent, { height });
    poolVerify = await digest(await pool.verify(local.checks));
    // The first 50 checks one at a time through the stream.
    const records = [];
    for (let at = 0, n = 0; n < 50 && at < local.checks.length; n++) {
      const size = 36 + local.checks[at + 1] + (local.checks[at + 2] | (local.checks[at + 3] << 8));
      records.push(local.checks.slice(at, at + size));
      at += size;
    }
    submitted = (await Promise.all(records.map((r) => pool.submit(r)))).join('');
  } finally {
    await pool.close();
  }
  const fns = { verify, verifySchnorr, isPoint };
  const dropIn = calls.map(({ fn, args }) => outcome(() => fns[fn](...args.map((a) => (typeof a === 'string' ? unhex(a) : a)))));
  return {
    simd: simdSupported(), wide: wideArithmeticSupported(), variant: info.variant, before, isolated: globalThis.crossOriginIsolated === true,
    local: await summary(local), pooled: await summary(pooled), batch: await digest(verifyBatch(local.checks)), poolVerify,
    submitted, expectedSubmitted: Array.from(local.verdicts.subarray(0, 50)).join(''), dropIn,
  };
}

const inWorker = typeof window === 'undefined';
run().then(
  (r) => (inWorker ? self.postMessage({ result: r }) : (window.packageResult = r)),
  (err) => (inWorker ? self.postMessage({ error: String(err?.stack ?? err) }) : (window.packageError = String(err?.stack ?? err))),
);
