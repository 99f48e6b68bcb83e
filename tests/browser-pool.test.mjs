// The verify pool in Chromium (workers/web-pool.mjs): module Web Workers, each with its own wasm
// instance, verify real fixture checks with the same verdicts as Node's single-threaded run,
// through the SharedArrayBuffer ring when the page is cross-origin isolated and through
// transferred buffers when it is not; the page compiles the .wasm once for all its workers (or
// each compiles its own, compileOnce: false); a worker that fails to load rejects naming the URL.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { REPO_ROOT, WASM_BUILD_DIR } from '../wasm/paths.mjs';
import { walkChecks } from '../wasm/check-buffer.mjs';
import { startServer } from '../web/server.mjs';
import { browserUnavailable, launchChromium } from '../bench/shared/chromium-launcher.mjs';
import { fixtureChecksWithVerdicts } from './support/wasm.mjs';

const HEIGHTS = [403200, 866342]; // p2sh multisig (with invalid CHECKMULTISIG trials), segwit + taproot
const skip = browserUnavailable() ?? false;

let browser;
let checks; // final checks of HEIGHTS, packed
let expected; // Node single-threaded verdicts
before(async () => {
  if (skip) return;
  ({ checks, expected } = await fixtureChecksWithVerdicts(HEIGHTS));
  browser = await launchChromium();
});
after(() => browser?.close());

// A same-origin document of a server started with `options`, then `fn` in it; the server and
// page are closed afterwards.
async function inPage(options, fn, arg) {
  const server = await startServer({ port: 0, ...options });
  const page = await browser.context.newPage();
  try {
    await page.goto(`${server.url}fixtures/manifest.json`);
    return await page.evaluate(fn, arg);
  } finally {
    await page.close();
    await server.close();
  }
}

// In the page: verify base64 `checks` with a 2-worker pool built with `options`, then its
// first `prefix` bytes again in batches of the largest size.
async function verifyInPage({ checks, prefix, options }) {
  const { createWebPool } = await import('/workers/web-pool.mjs');
  const { simdSupported } = await import('/wasm/engine-web.mjs');
  const bytes = Uint8Array.from(atob(checks), (c) => c.charCodeAt(0));
  const pool = createWebPool({ workers: 2, ...options });
  try {
    const infos = await pool.ready();
    const verdicts = await pool.verify(bytes, { batchSize: 1000 });
    const again = await pool.verify(bytes.subarray(0, prefix), { batchSize: 8192 });
    let out = '';
    for (const v of verdicts) out += String.fromCharCode(v);
    return {
      isolated: globalThis.crossOriginIsolated,
      simd: simdSupported(),
      transport: pool.transport,
      variants: infos.map((i) => i.variant),
      verdicts: btoa(out),
      againMatches: again.length > 0 && again.every((v, i) => v === verdicts[i]),
      heapBytes: pool.heapBytes,
      replacements: pool.replacements,
    };
  } finally {
    await pool.close();
  }
}

for (const isolation of [true, false]) {
  test(`browser pool, ${isolation ? 'cross-origin isolated: shared ring' : 'not isolated: transferred buffers'}`, { skip }, async () => {
    const r = await inPage({ isolation }, verifyInPage, { checks: Buffer.from(checks).toString('base64'), prefix: walkChecks(checks).offsets[5000], options: {} });
    assert.equal(r.isolated, isolation);
    assert.equal(r.simd, true, 'Chromium runs wasm SIMD');
    assert.equal(r.transport, isolation ? 'shared' : 'transfer');
    assert.deepEqual(r.variants, ['simd', 'simd']);
    assert.deepEqual(new Uint8Array(Buffer.from(r.verdicts, 'base64')), expected);
    assert.ok(r.againMatches);
    assert.equal(r.replacements, 0);
    assert.equal(r.heapBytes.length, 2);
    for (const bytes of r.heapBytes) assert.equal(bytes, 16 * 1024 * 1024, 'INITIAL_MEMORY, never grown');
  });
}

test('browser pool: forcing transfer in an isolated page, and the scalar variant', { skip }, async () => {
  const sample = checks.subarray(0, walkChecks(checks).offsets[1500]);
  const r = await inPage({ isolation: true }, verifyInPage,
    { checks: Buffer.from(sample).toString('base64'), prefix: sample.length, options: { transport: 'transfer', variant: 'scalar' } });
  assert.equal(r.isolated, true);
  assert.equal(r.transport, 'transfer');
  assert.deepEqual(r.variants, ['scalar', 'scalar']);
  assert.deepEqual(new Uint8Array(Buffer.from(r.verdicts, 'base64')), expected.subarray(0, 1500));
});

test('browser pool: shared transport refused without isolation', { skip }, async () => {
  const message = await inPage({ isolation: false }, async () => {
    const { createWebPool } = await import('/workers/web-pool.mjs');
    try {
      createWebPool({ workers: 1, transport: 'shared' });
      return 'created';
    } catch (err) {
      return err.message;
    }
  });
  assert.match(message, /transport 'shared' needs SharedArrayBuffer.*cross-origin isolated/);
});

for (const compileOnce of [true, false]) {
  test(`browser pool: ${compileOnce ? 'the page compiles the .wasm once and posts it to each worker' : 'compileOnce false: each worker fetches and compiles its own'}`, { skip }, async () => {
    const server = await startServer({ port: 0, isolation: true });
    const page = await browser.context.newPage();
    const wasmRequests = [];
    page.on('request', (req) => { if (new URL(req.url()).pathname === '/wasm/ibd-simd.wasm') wasmRequests.push(req.url()); });
    try {
      await page.goto(`${server.url}fixtures/manifest.json`);
      const sample = checks.subarray(0, walkChecks(checks).offsets[800]);
      const r = await page.evaluate(async ({ checks: b64, compileOnce: once }) => {
        const { createWebPool } = await import('/workers/web-pool.mjs');
        const { webHost } = await import('/workers/web-host.mjs');
        const pool = createWebPool({ workers: 3, host: webHost({ compileOnce: once }) });
        try {
          await pool.ready();
          const verdicts = await pool.verify(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)), { batchSize: 100 });
          return { verdicts: btoa(String.fromCharCode(...verdicts)) };
        } finally {
          await pool.close();
        }
      }, { checks: Buffer.from(sample).toString('base64'), compileOnce });
      assert.deepEqual(new Uint8Array(Buffer.from(r.verdicts, 'base64')), expected.subarray(0, 800));
      assert.equal(wasmRequests.length, compileOnce ? 1 : 3, wasmRequests.join(', '));
    } finally {
      await page.close();
      await server.close();
    }
  });
}

// A Web Worker that stops with no event (terminated by code outside the pool) is found by the
// stall deadline (verify-pool.mjs), about max(minStallMs, 20x a batch's time), not the full
// 60 s deadline, and its batch is verified by a replacement (a hostile review found 61 s).
test('browser pool: a worker terminated behind the pool\'s back, in its first batch or later, is replaced at its stall deadline; no verdict is lost', { skip }, async () => {
  const r = await inPage({ isolation: true }, async ({ checks: b64 }) => {
    const { createWebPool } = await import('/workers/web-pool.mjs');
    const { webHost } = await import('/workers/web-host.mjs');
    const inner = webHost();
    const endpoints = new Map(); // worker index -> its current endpoint
    const host = { ...inner, spawn: (i, cb) => { const ep = inner.spawn(i, cb); endpoints.set(i, ep); return ep; } };
    const pool = createWebPool({ workers: 2, host, minStallMs: 3000 }); // well above a batch of 200 checks, even on a loaded machine
    try {
      await pool.ready();
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      // Worker 0 stops during its first batch, before the pool has any estimate: the other
      // worker's first completed batch gives one, and the stopped worker's deadline is set again.
      const t1 = performance.now();
      const verifying = pool.verify(bytes, { batchSize: 200 });
      endpoints.get(0).terminate();
      const first = await verifying;
      const firstMs = performance.now() - t1;
      while (pool.heapBytes[0] === null) await new Promise((resolve) => setTimeout(resolve, 20)); // its replacement is ready
      const t0 = performance.now();
      let killed = false;
      const second = await pool.verify(bytes, { batchSize: 200, onProgress: () => {
        if (!killed) { killed = true; endpoints.get(0).terminate(); } // worker 0 stops, nobody is told
      } });
      return { first: btoa(String.fromCharCode(...first)), second: btoa(String.fromCharCode(...second)),
        ms: performance.now() - t0, firstMs, replacements: pool.replacements, faults: pool.faults };
    } finally {
      await pool.close();
    }
  }, { checks: Buffer.from(checks.subarray(0, walkChecks(checks).offsets[4000])).toString('base64') });
  assert.deepEqual(new Uint8Array(Buffer.from(r.first, 'base64')), expected.subarray(0, 4000));
  assert.deepEqual(new Uint8Array(Buffer.from(r.second, 'base64')), expected.subarray(0, 4000));
  assert.equal(r.replacements, 2);
  assert.ok(r.firstMs < 30_000, `the batch of the worker stopped in its first batch waited ${Math.round(r.firstMs)} ms: held to the full deadline`);
  assert.ok(r.ms < 30_000, `the stopped worker's batch waited ${Math.round(r.ms)} ms: held to the full deadline`);
  for (const fault of r.faults) assert.match(fault, /^verify worker 0 timed out after 3000 ms \(20x the .* a retry gets the full \d+ ms\)$/);
});

// In the page: the messages ready() and verify(base64 `checks`) reject with for a pool built
// with `options` (`host`: a webHost with these options instead of createWebPool's).
async function loadFailure({ checks, options, host }) {
  const { createWebPool } = await import('/workers/web-pool.mjs');
  const { webHost } = await import('/workers/web-host.mjs');
  const pool = createWebPool({ workers: 2, ...options, host: host ? webHost(host) : undefined });
  const bytes = Uint8Array.from(atob(checks), (c) => c.charCodeAt(0));
  const verifying = pool.verify(bytes).then(() => 'resolved', (err) => err.message);
  const ready = await pool.ready().then(() => 'resolved', (err) => err.message);
  await pool.close();
  return { ready, verify: await verifying };
}
const someChecks = () => Buffer.from(checks.subarray(0, walkChecks(checks).offsets[10])).toString('base64');

test('browser pool: a wasm build that is not there rejects naming the URL and status', { skip }, async () => {
  const r = await inPage({ isolation: true }, loadFailure, { checks: someChecks(), options: { baseUrl: '/nowhere/' } });
  assert.match(r.ready, /^verify worker \d of 2 failed to load: cannot fetch http:\/\/127\.0\.0\.1:\d+\/nowhere\/ibd-simd\.wasm: HTTP 404/);
  assert.equal(r.verify, r.ready);
});

test('browser pool: a worker script that is not there rejects naming the script and status', { skip }, async () => {
  const r = await inPage({ isolation: false }, loadFailure, { checks: someChecks(), host: { workerUrl: '/workers/no-such-worker.mjs' } });
  assert.match(r.ready, /^verify worker \d of 2 failed: worker script http:\/\/127\.0\.0\.1:\d+\/workers\/no-such-worker\.mjs\?variant=simd&base=\S+ did not start: HTTP 404/);
  assert.equal(r.verify, r.ready);
});

test('browser pool: a .wasm download that stalls is given up on, naming the script and the .wasm URL', { skip }, async () => {
  const server = await startServer({ port: 0, isolation: true });
  const page = await browser.context.newPage();
  try {
    await page.route('**/ibd-simd.wasm', () => {}); // the request is never answered
    await page.goto(`${server.url}fixtures/manifest.json`);
    const r = await page.evaluate(loadFailure, { checks: someChecks(), options: { loadTimeoutMs: 500, maxAttempts: 2 } });
    assert.match(r.ready, new RegExp('^verify worker \\d of 2 did not load within 500 ms \\(loading the worker script ' +
      'http://127\\.0\\.0\\.1:\\d+/workers/verify-web-worker\\.mjs\\?variant=simd&base=\\S+ and ' +
      'http://127\\.0\\.0\\.1:\\d+/wasm/ibd-simd\\.wasm \\(compiled once by the page\\)\\) \\(start 2 in a row; the pool cannot start\\)'));
    assert.equal(r.verify, r.ready);
  } finally {
    await page.close();
    await server.close();
  }
});

test('browser pool: a wasm file that does not compile rejects naming it', { skip }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ibd-bad-wasm-'));
  try {
    writeFileSync(path.join(dir, 'ibd-simd.mjs'), readFileSync(path.join(WASM_BUILD_DIR, 'ibd-simd.mjs')));
    writeFileSync(path.join(dir, 'ibd-simd.wasm'), Buffer.from('not wasm at all'));
    const server = await startServer({ port: 0, isolation: true, wasmDir: dir });
    const page = await browser.context.newPage();
    try {
      await page.goto(`${server.url}fixtures/manifest.json`);
      const r = await page.evaluate(loadFailure, { checks: someChecks(), options: {} });
      assert.match(r.ready, /^verify worker \d of 2 failed to load: cannot (compile|instantiate) http:\/\/127\.0\.0\.1:\d+\/wasm\/ibd-simd\.wasm: .*(magic|CompileError)/i);
    } finally {
      await page.close();
      await server.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the bundled browser entry loads from /wasm/ by default; a module of the other variant is named, never a hang', { skip }, async () => {
  const r = await inPage({ isolation: true }, async () => {
    const entry = await import('/dist/engine-web.mjs');
    const engine = await entry.loadWebEngine('simd'); // no baseUrl: /wasm/ beside /dist/
    const info = engine.engineInfo();
    const simd = await entry.compileWebModule('simd');
    const mixed = await Promise.race([
      entry.loadWebEngine('scalar', { module: simd }).then(() => 'resolved', (err) => err.message),
      new Promise((resolve) => setTimeout(() => resolve('still pending after 20 s'), 20_000)),
    ]);
    return { variant: info.variant, window: info.ecmultWindow, mixed };
  });
  assert.equal(r.variant, 'simd');
  assert.equal(r.window, 12);
  assert.match(r.mixed, /^cannot instantiate http:\/\/127\.0\.0\.1:\d+\/wasm\/ibd-scalar\.wasm: .*a \.wasm from another build than its glue/);
});
