// A running node's REST interface as a block source (blocks-fixtures/rest/, issue 17), against a
// loopback server that answers in Core 30's exact shapes from the fixture data
// (support/core-rest-server.mjs): the same verdicts, checks and sighashes as the fixture path;
// pipelined requests with transient failures retried, each retry told; Core's errors and a
// refused connection named with the URL and height; answers over their cap, a stalled body, a
// tip or a spent output value that cannot be, credentials echoed back, genesis.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { endlessBody } from './support/endless-body.mjs';
import { redirectingPair } from './support/redirecting-pair.mjs';
import { credentialRedactor, openRest } from '../blocks-fixtures/rest/rest-source.mjs';
import { fixturesDir, loadBlocks } from '../blocks-fixtures/loader.mjs';
import { loadEngine } from '../wasm/engine.mjs';
import { startRestServer } from './support/core-rest-server.mjs';
import { runMainJob } from './support/main-job.mjs';
import { fixtureChain, spentTxOutsBody } from './support/write-datadir.mjs';
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
  chainServer.failNext('/rest/spenttxouts/', 3);
  await assert.rejects(openRest(chainServer.url, { backoffMs: 1, retries: 2 }).read(6, 6), /spenttxouts\/[0-9a-f]{64}\.bin \(spent outputs of block [0-9a-f]{64} at height 6; Core 30 or later serves them\): HTTP 503 Service temporarily unavailable/);
  // Nothing listens here any more: refused, named.
  const gone = await startRestServer(given.chain.slice(0, 2));
  const url = gone.url;
  await gone.close();
  await assert.rejects(openRest(url).read(1, 1), new RegExp(`^Error: ${url}/rest/blockhashbyheight/1\\.bin \\(height 1\\): connection refused \\(is the node running, with -rest\\?\\)`));
  // A port fetch never connects to (the Fetch standard's blocked ports): named at once, no retry.
  const retried = [];
  await assert.rejects(openRest('http://127.0.0.1:1', { backoffMs: 1, onRetry: (m) => retried.push(m) }).read(1, 1),
    /^Error: http:\/\/127\.0\.0\.1:1\/rest\/blockhashbyheight\/1\.bin \(height 1\): fetch refuses this port/);
  assert.deepEqual(retried, []);
  // Credentials in the URL are sent, never shown.
  const withUser = new URL(chainServer.url);
  withUser.username = 'alice';
  withUser.password = 's3cret';
  await assert.rejects(openRest(withUser.href).read(400, 400), (err) => !err.message.includes('s3cret') && !err.message.includes('alice') && /HTTP 404/.test(err.message));
});

const run = runMainJob;

test('npm start --rest: a range streamed from the node, its verdicts and figures; a retry is logged', async () => {
  chainServer.failNext('/rest/block/', 1);
  let r = await run(['--rest', chainServer.url, '--from', '1', '--to', '255', '--workers', '2', '--json']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, new RegExp(`\\[bench\\] REST: ${chainServer.url}/rest/block/[0-9a-f]{64}\\.bin \\(block [0-9a-f]{64} at height \\d+\\): HTTP 503 Service temporarily unavailable; retrying in 0\\.25 s \\(try 2 of 5\\)\\n`));
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
  // A range that cannot be is refused before the node is asked anything (port 9: nothing listens).
  const backwards = await run(['--rest', 'http://127.0.0.1:9', '--from', '10', '--to', '5']);
  assert.equal(backwards.status, 2);
  assert.match(backwards.stderr, /--from 10 is above --to 5/);
  assert.doesNotMatch(backwards.stderr, /asking for the tip/);
  assert.equal((await run(['--rest', chainServer.url, '--datadir', '/tmp'])).status, 2);
});

test('npm start --rest: a node that serves the same block for every height is caught where the chain breaks', async () => {
  // Block 5 (with its own spent outputs: each block valid on its own) for every height.
  const server = await startRestServer(given.chain.slice(0, 12));
  try {
    const five = given.chain[5].hash;
    server.intercept('/rest/blockhashbyheight/', (req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      res.end(Buffer.from(five, 'hex').reverse());
    });
    const r = await run(['--rest', server.url, '--from', '1', '--to', '8', '--workers', '1', '--json']);
    assert.equal(r.status, 1, r.stderr);
    const doc = JSON.parse(r.stdout);
    assert.equal(doc.totals.blocks, 1, 'height 1 alone, its block the node\'s word');
    assert.deepEqual(doc.read_error, { height: 2, message: `block ${five} given for height 2 does not link to the block given for height 1 ` +
      `(${five}): its header's previous-block hash is ${given.chain[4].hash}; the source's blocks are not one chain` });
  } finally {
    await server.close();
  }
});

test('npm start --rest: a block served for a hash that is another block is named with both hashes', async () => {
  // Height 3's hash answers block 2's bytes (a lying or broken node).
  const server = await startRestServer(given.chain.slice(0, 12));
  try {
    const three = given.chain[3];
    server.intercept(`/rest/block/${three.hash}.bin`, (req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      res.end(Buffer.from(given.chain[2].block));
    });
    const r = await run(['--rest', server.url, '--from', '1', '--to', '5', '--workers', '1', '--json']);
    assert.equal(r.status, 1, r.stderr);
    const doc = JSON.parse(r.stdout);
    assert.equal(doc.read_error.height, 3);
    assert.equal(doc.read_error.message, `${server.url} /rest/block ${three.hash} (height 3): the node served block ` +
      `${given.chain[2].hash}, whose header hashes to another hash than the one asked for`);
  } finally {
    await server.close();
  }
});

test('npm start --rest: a block served whose body fails CheckBlock (its header the one asked for) is DAMAGED, exit 1', async () => {
  // Block 7's coinbase output script with one byte flipped, its header kept: the hash asked for
  // still matches, the merkle root does not. Core serves blocks from its disk, where it wrote
  // them only after CheckBlock passed: the node's copy or the transfer is at fault.
  const server = await startRestServer(given.chain.slice(0, 9));
  try {
    const seven = given.chain[7];
    server.intercept(`/rest/block/${seven.hash}.bin`, (req, res) => {
      const bytes = Buffer.from(seven.block);
      bytes[bytes.length - 10] ^= 0x01;
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      res.end(bytes);
    });
    const r = await run(['--rest', server.url, '--from', '6', '--to', '8', '--workers', '1', '--json']);
    assert.equal(r.status, 1, r.stderr);
    const doc = JSON.parse(r.stdout);
    assert.deepEqual(doc.blocks.map((b) => [b.height, b.valid, b.damaged, b.stage, b.reject_reason]),
      [[6, true, false, null, null], [7, null, true, 'CheckBlock', 'bad-txnmrklroot'], [8, true, false, null, null]]);
    assert.match(doc.blocks[1].error, /^bad-txnmrklroot: .*; damaged: Bitcoin Core writes a block to disk only once it passed CheckBlock \(validation\.cpp AcceptBlock\), so the block served is not the one the node accepted: its copy on disk or the transfer is damaged, or the answer was altered$/);
  } finally {
    await server.close();
  }
});

test('a node that never answers, or stalls mid-body: the request times out, is retried (each retry told), then named', async () => {
  const http = await import('node:http');
  const silent = http.createServer((req, res) => {
    // /rest/blockhashbyheight/4.bin: the headers and 3 of its 32 bytes, then nothing; others: nothing
    if (req.url.includes('/4.bin')) {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': '32' });
      res.write(Buffer.alloc(3));
    }
  });
  await new Promise((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${silent.address().port}`;
  try {
    const told = [];
    await assert.rejects(openRest(url, { timeoutMs: 150, retries: 1, backoffMs: 10, onRetry: (m) => told.push(m) }).read(3, 3),
      new RegExp(`^Error: ${url}/rest/blockhashbyheight/3\\.bin \\(height 3\\): no answer within 0\\.15 s \\(not even the headers\\); gave up after 2 tries$`));
    assert.deepEqual(told, [`${url}/rest/blockhashbyheight/3.bin (height 3): no answer within 0.15 s (not even the headers); retrying in 0.01 s (try 2 of 2)`]);
    await assert.rejects(openRest(url, { timeoutMs: 150, retries: 0 }).read(4, 4),
      new RegExp(`^Error: ${url}/rest/blockhashbyheight/4\\.bin \\(height 4\\): no complete answer within 0\\.15 s \\(the headers came, then 3 bytes of the body\\)$`));
  } finally {
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  }
});

/** A 200 whose body never ends (64 KiB chunks as fast as the client takes them, up to 512 MiB). */
const endless = (res, headers = {}) => endlessBody(res, { contentType: 'application/octet-stream', fill: 0xab, total: 512 * 2 ** 20, headers });

test('REST answers over their cap: the read stops at once, named with what the answer cannot be, not retried', async () => {
  const server = await startRestServer(given.chain.slice(0, 8));
  try {
    const count = (prefix) => server.requests.filter((p) => p.startsWith(prefix)).length;
    // A hash: 32 bytes, a body that never ends (no Content-Length) stops past 64.
    server.intercept('/rest/blockhashbyheight/', (req, res) => endless(res));
    await assert.rejects(openRest(server.url, { backoffMs: 1 }).read(1, 1),
      new RegExp(`^Error: ${server.url}/rest/blockhashbyheight/1\\.bin \\(height 1\\): answer larger than 64 bytes, not a 32-byte block hash$`));
    assert.equal(count('/rest/blockhashbyheight/'), 1, 'not retried');
    server.clearIntercepts();
    // A block: past Core's MAX_BLOCK_SERIALIZED_SIZE.
    server.intercept('/rest/block/', (req, res) => endless(res));
    const hash = given.chain[2].hash;
    await assert.rejects(openRest(server.url, { backoffMs: 1 }).read(2, 2),
      (err) => err.message === `${server.url}/rest/block/${hash}.bin (block ${hash} at height 2): answer larger than 4,000,000 bytes, not a block (Core's MAX_BLOCK_SERIALIZED_SIZE is 4,000,000 bytes)`);
    assert.equal(count(`/rest/block/${hash}.bin`), 1, 'not retried');
    server.clearIntercepts();
    // Spent outputs announcing 3 GB: refused on its Content-Length, before any byte is read.
    server.intercept('/rest/spenttxouts/', (req, res) => endless(res, { 'Content-Length': String(3e9) }));
    const hash3 = given.chain[3].hash;
    await assert.rejects(openRest(server.url, { backoffMs: 1 }).read(3, 3),
      (err) => err.message === `${server.url}/rest/spenttxouts/${hash3}.bin (spent outputs of block ${hash3} at height 3; Core 30 or later serves them): answer larger than 268,435,456 bytes, not one block's spent outputs (at most about 244 MB: 24,390 inputs spending 10,000-byte scripts)`);
    assert.equal(count(`/rest/spenttxouts/${hash3}.bin`), 1, 'not retried');
    server.clearIntercepts();
    // Chain info: 1 MiB at most.
    server.intercept('/rest/chaininfo.json', (req, res) => endless(res, { 'Content-Type': 'application/json' }));
    await assert.rejects(openRest(server.url).tipHeight(), (err) => err.message === `${server.url}/rest/chaininfo.json (chain info): answer larger than 1,048,576 bytes, not Core's chain info`);
  } finally {
    await server.close();
  }
});

test('REST: a tip that is not a height, and a spent output value that is not an amount, are read errors naming where', async () => {
  const server = await startRestServer(given.chain.slice(0, 172));
  try {
    for (const blocks of [1e20, 2 ** 31, -1, 1.5, '170']) {
      server.intercept('/rest/chaininfo.json', (req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ chain: 'main', blocks }));
      });
      await assert.rejects(openRest(server.url).tipHeight(),
        (err) => err.message === `${server.url}/rest/chaininfo.json: "blocks" is ${JSON.stringify(blocks)}, not a height (a whole number from 0 to 2,147,483,647)`, String(blocks));
      server.clearIntercepts();
    }
    assert.equal(await openRest(server.url).tipHeight(), 171);
    const b = given.chain[170]; // tx 1 spends block 9's coinbase
    for (const [value, why] of [[-1n, 'negative'], [2_100_000_000_000_001n, 'above 21,000,000 BTC (2,100,000,000,000,000 sat)'], [-(2n ** 63n), 'negative']]) {
      server.intercept('/rest/spenttxouts/', (req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
        res.end(spentTxOutsBody(b.txUndos.map((coins) => coins.map((c) => ({ ...c, value })))));
      });
      await assert.rejects(openRest(server.url).read(170, 170),
        (err) => err.message === `${server.url}/rest/spenttxouts/${b.hash}.bin (spent outputs of block ${b.hash} at height 170): tx 1 input 0: spent output value ${value} sat is ${why}: not a real amount; the node's answer is wrong`);
      server.clearIntercepts();
    }
    // MAX_MONEY itself is an amount: read, the block left for the engine to judge.
    server.intercept('/rest/spenttxouts/', (req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      res.end(spentTxOutsBody(b.txUndos.map((coins) => coins.map((c) => ({ ...c, value: 2_100_000_000_000_000n })))));
    });
    const read = await openRest(server.url).read(170, 170);
    assert.equal(read.hash, b.hash);
  } finally {
    await server.close();
  }
});

test('REST redirected to another server: its error answer is named with the URL that answered, and the credentials are not sent there', async () => {
  let pair = await redirectingPair(404, 'nope');
  try {
    const url = new URL(pair.nodeUrl);
    [url.username, url.password] = ['alice', 'hunter2secret'];
    await assert.rejects(openRest(url.href, { retries: 0 }).read(1, 1), (err) => {
      assert.equal(err.message, `${pair.nodeUrl}/rest/blockhashbyheight/1.bin (height 1), redirected to ${pair.otherUrl}/rest/blockhashbyheight/1.bin, which answered: HTTP 404 nope`);
      return true;
    });
    assert.deepEqual(pair.seen, [{ url: '/rest/blockhashbyheight/1.bin', auth: null }]);
  } finally {
    await pair.close();
  }
  // A 401 there: the other server asks, the node's credentials were never offered to it.
  pair = await redirectingPair(401, '');
  try {
    await assert.rejects(openRest(`http://alice:hunter2secret@${new URL(pair.nodeUrl).host}`, { retries: 0 }).tipHeight(),
      new RegExp(`^Error: ${pair.nodeUrl}/rest/chaininfo\\.json \\(chain info\\), redirected to ${pair.otherUrl}/rest/chaininfo\\.json, which answered: HTTP 401: the server redirected to asks for credentials \\(the URL's are never sent to another origin`));
  } finally {
    await pair.close();
  }
});

test('a short password is blanked as part of user:password and its base64, never alone: the message stays readable', () => {
  const redact = credentialRedactor({ user: 'u', password: '2', raw: ['u', '2'] });
  const header = Buffer.from('u:2').toString('base64');
  assert.equal(redact(`http://127.0.0.1:4242 getblockcount: HTTP 405 (sent u:2, Basic ${header})`),
    'http://127.0.0.1:4242 getblockcount: HTTP 405 (sent <credentials>, Basic <credentials>)');
  assert.equal(credentialRedactor({ user: 'u', password: 'secret7' })('echo secret7'), 'echo <credentials>');
});

test('REST: the client\'s credentials are blanked out of an answer that echoes them; a 401 is explained', async () => {
  const server = await startRestServer(given.chain.slice(0, 4));
  const url = new URL(server.url);
  url.username = 'bob';
  url.password = 'pw12345';
  try {
    server.intercept('/rest/blockhashbyheight/', (req, res) => {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end(`your header was ${req.headers.authorization}, that is bob:pw12345, password pw12345\r\n`);
    });
    await assert.rejects(openRest(url.href).read(1, 1),
      (err) => err.message === `${server.url}/rest/blockhashbyheight/1.bin (height 1): HTTP 404 your header was Basic <credentials>, that is <credentials>, password <credentials>`);
    server.clearIntercepts();
    // Retries are told with the same blanks.
    server.intercept('/rest/blockhashbyheight/', (req, res) => {
      res.writeHead(503, { 'Content-Type': 'text/plain' });
      res.end(`busy; ${Buffer.from('bob:pw12345').toString('base64')}\r\n`);
    });
    const told = [];
    await assert.rejects(openRest(url.href, { retries: 1, backoffMs: 1, onRetry: (m) => told.push(m) }).read(1, 1),
      (err) => err.message === `${server.url}/rest/blockhashbyheight/1.bin (height 1): HTTP 503 busy; <credentials>; gave up after 2 tries`);
    assert.deepEqual(told, [`${server.url}/rest/blockhashbyheight/1.bin (height 1): HTTP 503 busy; <credentials>; retrying in 0.001 s (try 2 of 2)`]);
    server.clearIntercepts();
    server.intercept('/rest/', (req, res) => {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="proxy"' });
      res.end();
    });
    await assert.rejects(openRest(server.url).tipHeight(),
      (err) => err.message === `${server.url}/rest/chaininfo.json (chain info): HTTP 401: the server asks for credentials (Core's REST interface asks for none: a proxy in front of the node does; give its user:password@ in the URL, as http://user:password@host:port)`);
    await assert.rejects(openRest(url.href).tipHeight(), (err) => /HTTP 401: the server refused the URL's credentials \(Core's REST interface asks for none/.test(err.message) && !err.message.includes('pw12345'));
  } finally {
    await server.close();
  }
});

test('REST genesis: read without its spent outputs (undo null), and a run from 0 names it not validated, as --datadir does', async () => {
  const server = await startRestServer(given.chain.slice(0, 8));
  try {
    const genesis = await openRest(server.url).read(0, 0);
    assert.equal(genesis.hash, '000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f');
    assert.equal(genesis.undo, null);
    assert.equal(genesis.block.length, 285);
    assert.deepEqual(server.requests.filter((p) => p.startsWith('/rest/spenttxouts/')), [], 'its spent outputs are not asked for');
    const r = await run(['--rest', server.url, '--from', '0', '--to', '3', '--workers', '1', '--json']);
    assert.equal(r.status, 0, r.stderr);
    const doc = JSON.parse(r.stdout);
    assert.equal(doc.totals.blocks, 3);
    assert.equal(doc.totals.valid, 3);
    assert.ok(doc.skipped.some((s) => s.startsWith(`height 0 ${genesis.hash}: the genesis block, not validated`)), JSON.stringify(doc.skipped));
  } finally {
    await server.close();
  }
});
