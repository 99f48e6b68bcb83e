// Whole-block validation in Chromium's Web Workers (issue 12, part 1): the page hands real
// fixture blocks to a web pool (workers/web-pool.mjs) through workers/block-jobs.mjs, small
// blocks grouped and large ones cut into ranges, each worker's wasm engine running parse,
// sighash, scripts and signatures; the merged results equal Node's single validateBlock call
// of each block byte for byte (final checks, origins, verdicts, block verdict), with and without
// cross-origin isolation. A worker terminated from outside mid-block (the page's kill -9: no
// event reaches the pool, only its deadline) loses nothing: its group is re-run on another.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fixturesDir, loadBlocks } from '../blocks-fixtures/loader.mjs';
import { loadEngine } from '../wasm/engine.mjs';
import { encodeSpentOutputs } from '../wasm/spent-outputs.mjs';
import { startServer } from '../web/server.mjs';
import { browserUnavailable, launchChromium } from '../bench/shared/chromium-launcher.mjs';

// A legacy p2pk spend, a multisig block with CHECKMULTISIG trials, a 20,000-input legacy block,
// and a segwit + taproot block (cut into ranges at 2 workers).
const HEIGHTS = [170, 403200, 367891, 866342];
const skip = browserUnavailable() ?? false;

let browser;
let jobs; // [{block, spentOutputs, hash, height}] as base64 for the page
let expected; // Node's single-call validateBlock result of each block
before(async () => {
  if (skip) return;
  const engine = await loadEngine('simd');
  const blocks = await loadBlocks(fixturesDir(), { heights: HEIGHTS });
  expected = [];
  jobs = [];
  for (const b of blocks) {
    assert.equal(b.error, undefined, b.error);
    const spentOutputs = encodeSpentOutputs(b.spentOutputsJson);
    const r = engine.validateBlock(b.block, spentOutputs, b.hash, b.height, undefined);
    assert.equal(r.ok, true, r.error);
    expected.push(r);
    jobs.push({ block: Buffer.from(b.block).toString('base64'), spentOutputs: Buffer.from(spentOutputs).toString('base64'),
      hash: b.hash, height: b.height });
  }
  browser = await launchChromium();
});
after(() => browser?.close());

// In the page: validate the base64 `jobs` in a 2-worker web pool (targetInputs small enough that
// groups and ranges both occur); with `kill`, worker 0 of the pool is terminated right after
// the pool posts it its first validate message, and the pool's deadline (batchTimeoutMs) is
// what notices. Returns each block's result with its typed arrays as base64.
async function validateInPage({ jobs, kill }) {
  const { createWebPool } = await import('/workers/web-pool.mjs');
  const { webHost } = await import('/workers/web-host.mjs');
  const { validateBlocksInPool } = await import('/workers/block-jobs.mjs');
  const decode = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
  const encode = (a) => {
    const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    let out = '';
    for (const x of bytes) out += String.fromCharCode(x);
    return btoa(out);
  };
  let killed = 0;
  const base = webHost();
  const host = !kill ? base : {
    spawn(index, handlers) {
      const endpoint = base.spawn(index, handlers);
      let first = index === 0 && killed === 0;
      return {
        ...endpoint,
        post(msg, transfer) {
          endpoint.post(msg, transfer);
          if (first && msg?.kind === 'validate') {
            first = false;
            killed++;
            endpoint.terminate(); // no error, no exit event: the pool only has its deadline
          }
        },
      };
    },
  };
  // With kill, a short deadline: 3 s plus 0.2 ms per 40 bytes of spent outputs and per 250 bytes
  // of block (verify-pool.mjs _sendValidate), about 14 s for block 367,891's group.
  const pool = createWebPool({ workers: 2, host, ...(kill ? { batchTimeoutMs: 3000, recordTimeoutMs: 0.2 } : {}) });
  try {
    await pool.ready();
    const blocks = jobs.map((j) => ({ ...j, block: decode(j.block), spentOutputs: decode(j.spentOutputs) }));
    const results = await validateBlocksInPool(pool, blocks, { targetInputs: 256 });
    return {
      isolated: globalThis.crossOriginIsolated,
      transport: pool.transport,
      replacements: pool.replacements,
      killed,
      results: results.map((r) => (r.ok ? {
        ok: true, valid: r.valid, rejectReason: r.rejectReason, hash: r.hash, inputs: r.inputs, ecdsa: r.ecdsa, schnorr: r.schnorr,
        checks: encode(r.checks), origins: encode(r.origins), verdicts: encode(r.verdicts),
      } : { ok: false, error: r.error })),
    };
  } finally {
    await pool.close();
  }
}

async function inPage(isolation, arg) {
  const server = await startServer({ port: 0, isolation });
  const page = await browser.context.newPage();
  try {
    await page.goto(`${server.url}fixtures/manifest.json`);
    return await page.evaluate(validateInPage, arg);
  } finally {
    await page.close();
    await server.close();
  }
}

function assertEqualsNode(results) {
  assert.equal(results.length, expected.length);
  results.forEach((r, i) => {
    const e = expected[i];
    const at = `block ${HEIGHTS[i]}`;
    assert.equal(r.ok, true, `${at}: ${r.error}`);
    assert.equal(r.hash, e.hash, at);
    assert.equal(r.valid, e.valid, at);
    assert.equal(r.rejectReason, e.rejectReason, at);
    assert.deepEqual([r.inputs, r.ecdsa, r.schnorr], [e.inputs, e.ecdsa, e.schnorr], at);
    const bytes = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    assert.ok(Buffer.from(r.checks, 'base64').equals(bytes(e.checks)), `${at}: final checks`);
    assert.ok(Buffer.from(r.origins, 'base64').equals(bytes(e.origins)), `${at}: origins`);
    assert.ok(Buffer.from(r.verdicts, 'base64').equals(bytes(e.verdicts)), `${at}: verdicts`);
  });
}

for (const isolation of [true, false]) {
  test(`whole blocks in Web Workers equal Node's single call, ${isolation ? 'isolated: shared bytes' : 'not isolated: copies'}`, { skip }, async () => {
    const r = await inPage(isolation, { jobs, kill: false });
    assert.equal(r.isolated, isolation);
    assert.equal(r.transport, isolation ? 'shared' : 'transfer');
    assert.equal(r.replacements, 0);
    assertEqualsNode(r.results);
    // Block 866342 holds valid and invalid checks (CHECKMULTISIG trials of 403200 too): the
    // comparison is not between two all-valid arrays.
    assert.ok(expected.some((e) => e.verdicts.includes(0)));
  });
}

test('a Web Worker terminated mid-block loses nothing: its group is re-run on another worker', { skip }, async () => {
  const r = await inPage(true, { jobs, kill: true });
  assert.equal(r.killed, 1);
  assert.ok(r.replacements >= 1, `${r.replacements} replacements`);
  assertEqualsNode(r.results);
});
