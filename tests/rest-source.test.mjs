// A running node's REST interface as a block source (blocks-fixtures/rest/, issue 17), against a
// loopback server that answers in Core 30's exact shapes from the fixture data
// (support/core-rest-server.mjs): the same verdicts, checks and sighashes as the fixture path;
// pipelined requests with transient failures retried; Core's errors and a refused connection
// named with the URL and height.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openRest } from '../blocks-fixtures/rest/rest-source.mjs';
import { fixturesDir, loadBlocks } from '../blocks-fixtures/loader.mjs';
import { loadEngine } from '../wasm/engine.mjs';
import { startRestServer } from './support/core-rest-server.mjs';
import { runMainJob } from './support/main-job.mjs';
import { fixtureChain } from './support/write-datadir.mjs';
import { verdictOf } from './support/block-source.mjs';

const engine = await loadEngine('simd');
let chainServer; // blocks 0-255
let modernServer; // the BIP34-era fixture blocks at their heights
let given;

before(async () => {
  given = await fixtureChain(fixturesDir());
  chainServer = await startRestServer(given.chain);
  modernServer = await startRestServer(given.modern);
});
after(async () => {
  await chainServer?.close();
  await modernServer?.close();
});


test('from REST, the same verdicts, checks and sighashes as from spent_outputs.json', async () => {
  const fixtures = (await loadBlocks(fixturesDir())).filter((f) => f.block && (f.height <= 255 || given.modern.some((m) => m.height === f.height)));
  for (const f of fixtures) {
    const source = openRest(f.height <= 255 ? chainServer.url : modernServer.url);
    const b = await source.read(f.height, f.height);
    assert.equal(b.hash, f.hash);
    const fromRest = engine.validateBlock(b.block, b.undo, f.hash, f.height, undefined);
    const fromJson = engine.validateBlock(f.block, f.spentOutputsJson, f.hash, f.height, undefined);
    assert.deepEqual(verdictOf(fromRest), verdictOf(fromJson), `height ${f.height}`);
    assert.equal(fromRest.valid, true, `height ${f.height}: ${fromRest.error}`);
  }
});

test('REST errors: Core\'s answers and a refused connection are named with the URL and height; a 503 is retried', async () => {
  const source = openRest(chainServer.url, { backoffMs: 5 });
  await assert.rejects(source.read(300, 300), new RegExp(`^Error: ${chainServer.url}/rest/blockhashbyheight/300\\.bin \\(height 300\\): HTTP 404 Block height out of range$`));
  assert.equal(await source.tipHeight(), 255);
  chainServer.failNext('/rest/block/', 2);
  const b = await source.read(5, 5);
  assert.equal(b.height, 5);
  assert.ok(chainServer.requests.filter((p) => p.startsWith('/rest/block/')).length >= 3, 'the two 503s were retried');
  chainServer.failNext('/rest/spenttxouts/', 10);
  await assert.rejects(openRest(chainServer.url, { backoffMs: 1, retries: 2 }).read(6, 6), /spenttxouts\/[0-9a-f]{64}\.bin \(spent outputs of block [0-9a-f]{64} at height 6; Core 30 or later serves them\): HTTP 503 Service temporarily unavailable/);
  // Nothing listens here any more: refused, named.
  const gone = await startRestServer(given.chain.slice(0, 2));
  const url = gone.url;
  await gone.close();
  await assert.rejects(openRest(url).read(1, 1), new RegExp(`^Error: ${url}/rest/blockhashbyheight/1\\.bin \\(height 1\\): connection refused \\(is the node running, with -rest\\?\\)`));
  // Credentials in the URL are sent, never shown.
  const withUser = new URL(chainServer.url);
  withUser.username = 'alice';
  withUser.password = 's3cret';
  await assert.rejects(openRest(withUser.href).read(400, 400), (err) => !err.message.includes('s3cret') && !err.message.includes('alice') && /HTTP 404/.test(err.message));
});

const run = runMainJob;

test('npm start --rest: a range streamed from the node, its verdicts and figures', async () => {
  let r = await run(['--rest', chainServer.url, '--from', '1', '--to', '255', '--workers', '2', '--json']);
  assert.equal(r.status, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  assert.equal(doc.source.kind, 'rest');
  assert.deepEqual({ ...doc.totals, bytes_read: undefined }, { blocks: 255, valid: 255, invalid: 0, failed: 0, inputs: 7, checks: 7, bytes_read: undefined });
  assert.ok(doc.figures.blocks_per_second > 0 && doc.figures.wait_share >= 0 && doc.figures.wait_share <= 1);
  // Past the tip: refused before any block is read, the node and its tip named (a height that
  // goes past a tip that moved back during the run is a read error: the REST errors test).
  r = await run(['--rest', chainServer.url, '--from', '250', '--to', '260', '--workers', '2', '--json']);
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, new RegExp(`--to 260 is past the tip of ${chainServer.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, height 255`));
  assert.equal((await run(['--rest', 'not a url'])).status, 2);
  assert.equal((await run(['--rest', chainServer.url, '--datadir', '/tmp'])).status, 2);
});

test('a node that never answers: the request times out, is retried, then named', async () => {
  const http = await import('node:http');
  const silent = http.createServer(() => {}); // accepts, never answers
  await new Promise((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${silent.address().port}`;
  try {
    await assert.rejects(openRest(url, { timeoutMs: 150, retries: 1, backoffMs: 10 }).read(3, 3),
      new RegExp(`^Error: ${url}/rest/blockhashbyheight/3\\.bin \\(height 3\\): no answer within 0\\.15 s, 2 tries$`));
  } finally {
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  }
});
