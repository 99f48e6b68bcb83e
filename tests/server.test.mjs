// The page's static server (web/server.mjs): isolation headers, MIME types, and nothing served
// from outside its folders: traversal in any encoding, dotfiles, symlinks that lead out, the
// wasm build's CMake files. A malformed Range header must not take it down.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fixturesDir, readManifest } from '../blocks-fixtures/loader.mjs';
import { REPO_ROOT } from '../wasm/paths.mjs';
import { startServer } from '../web/server.mjs';

const FIXTURES = fixturesDir();
const block170 = readManifest(FIXTURES).blocks.find((b) => b.height === 170);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'ibd-server-'));
let server;

/** One raw request (no URL normalisation by a client library). */
function request(target, { method = 'GET', headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: server.port, path: target, method, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

before(async () => {
  // A fixture set with the real block 170 and its own manifest (a folder other than the default
  // one must carry one), a dotfile, and symlinks out of the folder.
  const fx = path.join(tmp, 'fixtures');
  mkdirSync(path.join(fx, 'mainnet', '170'), { recursive: true });
  cpSync(path.join(FIXTURES, block170.dir, 'block.raw'), path.join(fx, 'mainnet', '170', 'block.raw'));
  writeFileSync(path.join(fx, 'manifest.json'), JSON.stringify({ blocks: [block170] }));
  writeFileSync(path.join(fx, '.secret'), 'SECRET');
  writeFileSync(path.join(tmp, 'outside.txt'), 'OUTSIDE');
  symlinkSync(path.join(tmp, 'outside.txt'), path.join(fx, 'link-out.txt'));
  symlinkSync(tmp, path.join(fx, 'dir-out'));
  symlinkSync(path.join(fx, 'mainnet', '170', 'block.raw'), path.join(fx, 'link-in.raw'));
  server = await startServer({ port: 0, isolation: true, fixtures: fx });
});

after(async () => {
  await server?.close();
  rmSync(tmp, { recursive: true, force: true });
});

test('the page, a module, the wasm and a fixture are served cross-origin isolated with their MIME types', async () => {
  for (const [target, type] of [
    ['/', /^text\/html/],
    ['/workers/verify-pool.mjs', /^text\/javascript/],
    ['/wasm/ibd-simd.wasm', /^application\/wasm$/],
    ['/wasm/ibd-simd.mjs', /^text\/javascript/],
    ['/dist/verify-web-worker.mjs', /^text\/javascript/], // the page's worker, bundled by setup
    ['/dist/engine-web.mjs', /^text\/javascript/], // the engine's browser entry, bundled by setup
    ['/fixtures/mainnet/170/block.raw', /.*/],
    ['/fixtures/manifest.json', /^application\/json/],
    ['/vendor/chart.js/chart.umd.js', /^text\/javascript/],
  ]) {
    const r = await request(target);
    assert.equal(r.status, 200, target);
    assert.match(r.headers['content-type'] ?? '', type, target);
    assert.equal(r.headers['cross-origin-opener-policy'], 'same-origin', target);
    assert.equal(r.headers['cross-origin-embedder-policy'], 'require-corp', target);
  }
  const raw = await request('/fixtures/mainnet/170/block.raw');
  assert.deepEqual(raw.body, readFileSync(path.join(FIXTURES, block170.dir, 'block.raw')));
});

test('nothing outside the served folders: traversal, dotfiles, symlinks out, the build tree', async () => {
  for (const target of [
    '/../package.json', '/%2e%2e/package.json', '/workers/..%2fpackage.json', '/workers/%2e%2e%2f%2e%2e%2fpackage.json',
    '/wasm/../../package.json', '/workers/..%5cpackage.json', '/%252e%252e/package.json', '//etc/passwd',
    '/fixtures/.secret', '/fixtures/%2esecret', '/.git/config', '/workers/.%2e/package.json',
    '/fixtures/link-out.txt', '/fixtures/dir-out/outside.txt',
    '/wasm/CMakeCache.txt', '/wasm/Makefile', '/wasm/ibd-simd.js',
    '/fixtures/mainnet/', '/workers/', '/nowhere.html', '/dist/', '/dist/anything-else.mjs',
  ]) {
    const r = await request(target);
    assert.equal(r.status, 404, `${target} gave ${r.status}: ${r.body.toString().slice(0, 60)}`);
    assert.doesNotMatch(r.body.toString(), /SECRET|OUTSIDE|"name": "ibd-wasm"|root:x:/, target);
  }
  // A symlink that stays inside its folder is an ordinary file.
  assert.equal((await request('/fixtures/link-in.raw')).status, 200);
});

test('methods other than GET and HEAD get 405', async () => {
  for (const method of ['POST', 'PUT', 'DELETE']) {
    assert.equal((await request('/', { method })).status, 405, method);
  }
  const head = await request('/wasm/ibd-simd.wasm', { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal(head.body.length, 0);
});

test('a malformed or suffix Range is ignored (the whole file), a sound one gives 206; the server stays up', async () => {
  const whole = await request('/workers/pool.mjs');
  for (const range of ['bytes=5-2', 'bytes=2-1', 'bytes=-5', 'bytes=abc', 'bytes=1-2,4-5']) {
    const r = await request('/workers/pool.mjs', { headers: { Range: range } });
    assert.equal(r.status, 200, range);
    assert.deepEqual(r.body, whole.body, range);
  }
  const part = await request('/workers/pool.mjs', { headers: { Range: 'bytes=3-9' } });
  assert.equal(part.status, 206);
  assert.deepEqual(part.body, whole.body.subarray(3, 10));
  assert.equal((await request('/')).status, 200);
});

test('without isolation there are no COOP/COEP headers; a missing fixture folder is refused by name', async () => {
  const plain = await startServer({ port: 0, isolation: false });
  try {
    const r = await fetch(`${plain.url}workers/pool.mjs`);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('cross-origin-opener-policy'), null);
    assert.equal(r.headers.get('cross-origin-embedder-policy'), null);
  } finally {
    await plain.close();
  }
  const missing = path.join(REPO_ROOT, 'no-such-fixtures');
  await assert.rejects(startServer({ port: 0, fixtures: missing }), new RegExp(`fixture folder ${missing} does not exist`));
});

test('the wasm folder override IBD_WASM_DIR is honoured by the server, as by the Node loader', async () => {
  const dir = path.join(tmp, 'wasm-override');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'ibd-simd.wasm'), 'OVERRIDE');
  const saved = process.env.IBD_WASM_DIR;
  process.env.IBD_WASM_DIR = dir;
  let overridden;
  try {
    overridden = await startServer({ port: 0 });
  } finally {
    if (saved === undefined) delete process.env.IBD_WASM_DIR;
    else process.env.IBD_WASM_DIR = saved;
  }
  try {
    const r = await fetch(`${overridden.url}wasm/ibd-simd.wasm`);
    assert.equal(r.status, 200);
    assert.equal(await r.text(), 'OVERRIDE');
    assert.equal((await fetch(`${overridden.url}wasm/ibd-scalar.wasm`)).status, 404, 'only the override folder is served');
    assert.equal((await fetch(`${overridden.url}wasm/engine-web.mjs`)).status, 200, 'the loaders still come from wasm/');
  } finally {
    await overridden.close();
  }
});
