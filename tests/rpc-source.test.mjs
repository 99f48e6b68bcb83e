// A running node's JSON-RPC interface as a block source (blocks-fixtures/rpc/, issue 17), for
// nodes before Core 30, against a loopback server answering in Core's shapes
// (support/core-rpc-server.mjs): the same verdicts, checks and sighashes as the fixture path;
// user/password and cookie authentication; a 401, an unknown hash and a height past the tip
// named, credentials never shown.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
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
});
