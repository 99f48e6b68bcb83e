// A running node's JSON-RPC interface as a block source (blocks-fixtures/rpc/, issue 17), for
// nodes before Core 30, against a loopback server answering in Core's shapes
// (support/core-rpc-server.mjs): the same verdicts, checks and sighashes as the fixture path;
// user/password and cookie authentication; a 401, an unknown hash and a height past the tip
// named, credentials never shown (nor echoed back); each prevout checked, a wrong one named with
// URL, height, hash, tx and input; answers over their cap; retries told; an empty cookie; a tip
// that is not a height; genesis.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { endlessBody } from './support/endless-body.mjs';
import { redirectingPair } from './support/redirecting-pair.mjs';
import { openRpc } from '../blocks-fixtures/rpc/rpc-source.mjs';
import { fixturesDir, loadBlocks } from '../blocks-fixtures/loader.mjs';
import { loadEngine } from '../wasm/engine.mjs';
import { startRpcServer } from './support/core-rpc-server.mjs';
import { runMainJob } from './support/main-job.mjs';
import { fixtureChain } from './support/write-datadir.mjs';
import { verdictOf } from './support/block-source.mjs';

const engine = await loadEngine('simd');
const CREDENTIALS = { user: '__cookie__', password: 'c0ffee5ecret' };
let chainServer;
let modernServer;
let given;
let work;

before(async () => {
  given = await fixtureChain(fixturesDir());
  chainServer = await startRpcServer(given.chain, CREDENTIALS);
  modernServer = await startRpcServer(given.modern, CREDENTIALS);
  work = mkdtempSync(path.join(os.tmpdir(), 'ibd-rpc-'));
});
after(async () => {
  await chainServer?.close();
  await modernServer?.close();
  rmSync(work, { recursive: true, force: true });
});

const withUser = (url, { user, password } = CREDENTIALS) => {
  const u = new URL(url);
  u.username = user;
  u.password = password;
  return u.href;
};

test('from RPC (getblock verbosity 0 and 3), the same verdicts, checks and sighashes as from spent_outputs.json', async () => {
  const fixtures = (await loadBlocks(fixturesDir())).filter((f) => f.block && (f.height <= 255 || given.modern.some((m) => m.height === f.height)));
  for (const f of fixtures) {
    const server = f.height <= 255 ? chainServer : modernServer;
    const source = openRpc(server.url, { cookie: `${CREDENTIALS.user}:${CREDENTIALS.password}\n` });
    const b = await source.read(f.height, f.height);
    assert.equal(b.hash, f.hash);
    const fromRpc = engine.validateBlock(b.block, b.undo, f.hash, f.height, undefined);
    const fromJson = engine.validateBlock(f.block, f.spentOutputsJson, f.hash, f.height, undefined);
    assert.deepEqual(verdictOf(fromRpc), verdictOf(fromJson), `height ${f.height}`);
  }
});

test('RPC errors: a 401, a height past the tip, an unknown method are named; credentials never shown', async () => {
  const wrong = openRpc(withUser(chainServer.url, { user: 'alice', password: 'not-it' }));
  await assert.rejects(wrong.read(1, 1), (err) => /HTTP 401: the node refused the credentials/.test(err.message) && !err.message.includes('not-it') && !err.message.includes('alice'));
  await assert.rejects(openRpc(chainServer.url).tipHeight(), /getblockcount \(the tip\): HTTP 401/);
  const right = openRpc(withUser(chainServer.url));
  assert.equal(await right.tipHeight(), 255);
  await assert.rejects(right.read(300, 300), (err) => err.message === `${chainServer.url} getblockhash (height 300): RPC error -8: Block height out of range` && !err.message.includes(CREDENTIALS.password));
});

const run = runMainJob;

test('npm start --rpc with --rpc-cookie: a range from the node, the same totals as the datadir and REST paths', async () => {
  const cookie = path.join(work, '.cookie');
  writeFileSync(cookie, `${CREDENTIALS.user}:${CREDENTIALS.password}`);
  const r = await run(['--rpc', chainServer.url, '--rpc-cookie', cookie, '--from', '1', '--to', '255', '--workers', '2', '--json']);
  assert.equal(r.status, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  assert.equal(doc.source.kind, 'rpc');
  assert.deepEqual({ ...doc.totals, bytes_read: undefined }, { blocks: 255, valid: 255, invalid: 0, failed: 0, inputs: 7, checks: 7, bytes_read: undefined });
  assert.ok(!r.stdout.includes(CREDENTIALS.password) && !r.stderr.includes(CREDENTIALS.password), 'the cookie is never printed');
  const missing = await run(['--rpc', chainServer.url, '--rpc-cookie', path.join(work, 'nope')]);
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /--rpc-cookie .*nope: no such file/);
  const bad = await run(['--rpc', 'http://u:p4ss@[bad', '--json']);
  assert.equal(bad.status, 2);
  assert.ok(!bad.stderr.includes('p4ss'), 'a bad URL is not echoed');
  const empty = path.join(work, 'empty.cookie');
  writeFileSync(empty, '\n');
  const none = await run(['--rpc', chainServer.url, '--rpc-cookie', empty]);
  assert.equal(none.status, 1);
  assert.ok(none.stderr.includes(`${chainServer.url}: the cookie file ${empty} is empty (the node writes "__cookie__:<password>" there when it starts)`), none.stderr);
});

/** A fresh server on the chain's first `n` blocks, closed after `fn`. */
async function withServer(n, fn) {
  const server = await startRpcServer(given.chain.slice(0, n), CREDENTIALS);
  try {
    return await fn(server);
  } finally {
    await server.close();
  }
}

test('RPC prevouts: each input\'s checked; a wrong one is a read error naming URL, height, block hash, tx and input', async () => {
  await withServer(172, async (server) => {
    const b = given.chain[170]; // tx 1 input 0 spends block 9's coinbase
    const at = `${server.url} getblock ${b.hash} verbosity 3 (height 170): tx 1 input 0`;
    const wrong = "the node's answer is wrong";
    const cases = [
      [(vin) => { vin.prevout.value = 1e20; }, `prevout value 100000000000000000000 BTC is above 21,000,000 BTC: not a real amount; ${wrong}`],
      [(vin) => { vin.prevout.value = 21000000.00000001; }, `prevout value 21000000.00000001 BTC is above 21,000,000 BTC: not a real amount; ${wrong}`],
      [(vin) => { vin.prevout.value = -0.00000001; }, `prevout value -1e-8 BTC is negative: not a real amount; ${wrong}`],
      [(vin) => { vin.prevout.value = 0.123456789; }, `prevout value 0.123456789 BTC is not a whole number of satoshis; ${wrong}`],
      [(vin) => { vin.prevout.value = '50.0'; }, `prevout value "50.0" is not a number of BTC; ${wrong}`],
      [(vin) => { delete vin.txid; }, `txid missing is not 64 hex digits; ${wrong}`],
      [(vin) => { vin.vout = -1; }, `vout -1 is not an output index (0 to 4,294,967,295); ${wrong}`],
      [(vin) => { vin.prevout.scriptPubKey.hex += 'a'; }, `prevout scriptPubKey hex is not hex bytes (135 characters, an odd count); ${wrong}`],
      [(vin) => { vin.prevout.scriptPubKey.hex = 'zz'; }, `prevout scriptPubKey hex is not hex bytes (2 characters, not all hex digits); ${wrong}`],
      [(vin) => { delete vin.prevout; }, 'no prevout (a node before Core 23, or the block\'s undo data pruned)'],
    ];
    for (const [change, message] of cases) {
      server.tamper((method, params, result) => {
        if (method === 'getblock' && params[1] === 3) change(result.tx[1].vin[0]);
        return result;
      });
      await assert.rejects(openRpc(withUser(server.url)).read(170, 170), (err) => err.message === `${at}: ${message}`, message);
    }
    // MAX_MONEY itself is an amount: read, the block left for the engine to judge.
    server.tamper((method, params, result) => {
      if (method === 'getblock' && params[1] === 3) result.tx[1].vin[0].prevout.value = 21e6;
      return result;
    });
    assert.equal((await openRpc(withUser(server.url)).read(170, 170)).hash, b.hash);
    // Through the command line: the read error, and the blocks before it validated.
    server.tamper((method, params, result) => {
      if (method === 'getblock' && params[1] === 3 && params[0] === b.hash) result.tx[1].vin[0].prevout.value = 1e20;
      return result;
    });
    const r = await run(['--rpc', withUser(server.url), '--from', '169', '--to', '171', '--workers', '1', '--json']);
    assert.equal(r.status, 1, r.stderr);
    const doc = JSON.parse(r.stdout);
    assert.equal(doc.totals.valid, 1);
    assert.deepEqual(doc.read_error, { height: 170, message: `${at}: prevout value 100000000000000000000 BTC is above 21,000,000 BTC: not a real amount; ${wrong}` });
  });
});

test('RPC answers over their cap stop the read at once, named, not retried; retries are told; a stalled body is "no complete answer"', async () => {
  await withServer(4, async (server) => {
    server.intercept('getblockhash', (req, res) => {
      endlessBody(res, { contentType: 'application/json', fill: 0x20, total: 64 * 2 ** 20 });
    });
    await assert.rejects(openRpc(withUser(server.url), { backoffMs: 1 }).read(1, 1),
      (err) => err.message === `${server.url} getblockhash (height 1): answer larger than 1,048,576 bytes, not a height, a hash or an error object`);
    assert.equal(server.calls.filter((c) => c.method === 'getblockhash').length, 1, 'not retried');
    server.clearIntercepts();
    let busy = 2;
    server.intercept('getblockcount', (req, res) => {
      if (busy-- > 0) {
        res.writeHead(503, { 'Content-Type': 'text/plain' });
        return res.end('Service temporarily unavailable');
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ result: 3, error: null, id: 1 }));
    });
    const told = [];
    assert.equal(await openRpc(withUser(server.url), { backoffMs: 5, onRetry: (m) => told.push(m) }).tipHeight(), 3);
    assert.deepEqual(told, [
      `${server.url} getblockcount (the tip): HTTP 503 Service temporarily unavailable; retrying in 0.005 s (try 2 of 5)`,
      `${server.url} getblockcount (the tip): HTTP 503 Service temporarily unavailable; retrying in 0.01 s (try 3 of 5)`,
    ]);
    server.clearIntercepts();
    server.intercept('getblockcount', (req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '40' });
      res.write('{"result": ');
    });
    await assert.rejects(openRpc(withUser(server.url), { timeoutMs: 150, retries: 0 }).tipHeight(),
      (err) => err.message === `${server.url} getblockcount (the tip): no complete answer within 0.15 s (the headers came, then 11 bytes of the body)`);
  });
});

test('RPC: the client\'s credentials (URL or cookie) are blanked out of an answer that echoes them; an empty cookie is named', async () => {
  await withServer(4, async (server) => {
    server.intercept('getblockcount', (req, res) => {
      res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(`your header was ${req.headers.authorization}`);
    });
    const bob = withUser(server.url, { user: 'bob', password: 'pw12345' });
    await assert.rejects(openRpc(bob, { backoffMs: 1 }).tipHeight(), (err) => err.message === `${server.url} getblockcount (the tip): HTTP 500 your header was Basic <credentials>; gave up after 5 tries` && !err.message.includes('Ym9iOnB3MTIzNDU'),
      'base64 of bob:pw12345');
    server.clearIntercepts();
    const cookie = `${CREDENTIALS.user}:${CREDENTIALS.password}`;
    server.intercept('getblockcount', (req, res) => {
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ result: null, error: { code: -1, message: `you sent ${req.headers.authorization.slice(6)}, that is ${cookie}, password ${CREDENTIALS.password}` }, id: 1 }));
    });
    await assert.rejects(openRpc(server.url, { cookie, cookieFile: '/x/.cookie' }).tipHeight(),
      (err) => err.message === `${server.url} getblockcount (the tip): RPC error -1: you sent <credentials>, that is <credentials>, password <credentials>`);
    server.clearIntercepts();
    await assert.rejects(openRpc(server.url, { cookie: '__cookie__:stale', cookieFile: '/x/.cookie' }).tipHeight(),
      (err) => err.message === `${server.url} getblockcount (the tip): HTTP 401: the node refused the credentials of the cookie file /x/.cookie (the node writes a new one each time it starts: is it this node's, and current?)`);
    assert.throws(() => openRpc(server.url, { cookie: ' \n', cookieFile: '/x/.cookie' }),
      (err) => err.message === `${server.url}: the cookie file /x/.cookie is empty (the node writes "__cookie__:<password>" there when it starts)`);
    assert.throws(() => openRpc(server.url, { cookie: 'c0ffee', cookieFile: '/x/.cookie' }),
      (err) => err.message === `${server.url}: the cookie file /x/.cookie holds no "user:password" (a node's .cookie is "__cookie__:<password>")`);
  });
});

test('RPC redirected to another server: its error answer is named with the URL that answered, and the credentials are not sent there', async () => {
  let pair = await redirectingPair(404, 'nope');
  try {
    const url = new URL(pair.nodeUrl);
    [url.username, url.password] = ['alice', 'hunter2secret'];
    await assert.rejects(openRpc(url.href, { retries: 0 }).read(1, 1), (err) => {
      assert.equal(err.message, `${pair.nodeUrl} getblockhash (height 1), redirected to ${pair.otherUrl}, which answered: HTTP 404 nope`);
      return true;
    });
    assert.deepEqual(pair.seen, [{ url: '/', auth: null }]);
  } finally {
    await pair.close();
  }
  pair = await redirectingPair(401, '');
  try {
    await assert.rejects(openRpc(pair.nodeUrl, { retries: 0, cookie: '__cookie__:c0ffee5ecret' }).tipHeight(),
      new RegExp(`^Error: ${pair.nodeUrl} getblockcount \\(the tip\\), redirected to ${pair.otherUrl}, which answered: HTTP 401: the server redirected to asks for credentials \\(they are never sent to another origin`));
  } finally {
    await pair.close();
  }
});

test('RPC: a tip that is not a height is named; genesis is read without its prevouts (undo null) and named not validated', async () => {
  await withServer(8, async (server) => {
    for (const n of [1e20, 2 ** 31, -1, 2.5, '7']) {
      server.tamper((method, params, result) => (method === 'getblockcount' ? n : result));
      await assert.rejects(openRpc(withUser(server.url)).tipHeight(),
        (err) => err.message === `${server.url} getblockcount: the answer is ${JSON.stringify(n)}, not a height (a whole number from 0 to 2,147,483,647)`, String(n));
    }
    server.tamper(null);
    assert.equal(await openRpc(withUser(server.url)).tipHeight(), 7);
    server.calls.splice(0);
    const genesis = await openRpc(withUser(server.url)).read(0, 0);
    assert.equal(genesis.hash, '000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f');
    assert.equal(genesis.undo, null);
    assert.equal(genesis.block.length, 285);
    assert.deepEqual(server.calls.map((c) => `${c.method} ${JSON.stringify(c.params)}`), ['getblockhash [0]', `getblock ["${genesis.hash}",0]`], 'no verbosity 3');
    const r = await run(['--rpc', withUser(server.url), '--from', '0', '--to', '3', '--workers', '1', '--json']);
    assert.equal(r.status, 0, r.stderr);
    const doc = JSON.parse(r.stdout);
    assert.equal(doc.totals.blocks, 3);
    assert.equal(doc.totals.valid, 3);
    assert.ok(doc.skipped.some((s) => s.startsWith(`height 0 ${genesis.hash}: the genesis block, not validated`)), JSON.stringify(doc.skipped));
  });
});
