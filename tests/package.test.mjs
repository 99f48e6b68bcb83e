// The npm package as its users get it (docs/package.md): packed with `npm pack`
// (scripts/pack-package.mjs), installed from the tarball into a fresh project, offline, and used
//   - from Node (tests/support/package-node.mjs): validateBlock in the thread and in a pool,
//     verifyBatch, pool.verify, the drop-in calls against tiny-secp256k1's outcomes, bad input
//     named, a worker killed mid-block;
//   - from TypeScript: `tsc --noEmit` on an example typed against index.d.ts, and a wrong call
//     refused;
//   - from a plain page in Chromium (an import map to the installed package), not cross-origin
//     isolated (batches as transferred buffers);
//   - from a Vite build of a tiny app, served cross-origin isolated (batches in shared memory).
// Every result is compared with the repo's own engine on the same fixture block.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import sirv from 'sirv';
import * as tiny from 'tiny-secp256k1';
import { browserUnavailable, launchChromium, WIDE_ARITHMETIC_JS_FLAG } from '../bench/shared/chromium-launcher.mjs';
import { compactFromDer } from '../bench/compare/peers/decode.mjs';
import { fixturesDir, loadBlocks } from '../blocks-fixtures/loader.mjs';
import { CheckType, walkChecks } from '../wasm/check-buffer.mjs';
import { loadEngine } from '../wasm/engine.mjs';
import { REPO_ROOT } from '../wasm/paths.mjs';
import { encodeSpentOutputs } from '../wasm/spent-outputs.mjs';
import { packPackage } from '../scripts/pack-package.mjs';

const HEIGHT = 866342; // segwit and taproot, split into ranges in a pool
const TSC = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const VITE = path.join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js');

const digest = (bytes) => createHash('sha256').update(bytes).digest('hex');
const outcome = (f) => {
  try {
    return { value: f() };
  } catch (err) {
    return { error: `${err.constructor.name}: ${err.message}` };
  }
};

let work; // the temporary folder: the tarball and the fresh project
let project;
let fixture; // {height, blockFile, spentFile}
let expected; // the repo engine's summary of the block
let calls; // drop-in calls [{fn, args}] with tiny-secp256k1's outcomes
before(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'ibd-package-'));
  const { tarball } = packPackage({ out: work });
  project = path.join(work, 'project');
  mkdirSync(project);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'uses-ibd-wasm', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: project, stdio: 'pipe' });

  const [b] = await loadBlocks(fixturesDir(), { heights: [HEIGHT] });
  const dir = path.resolve(fixturesDir(), b.dir);
  fixture = { height: HEIGHT, blockFile: path.join(dir, 'block.raw'), spentFile: path.join(dir, 'spent_outputs.json') };
  const engine = await loadEngine('simd');
  const r = engine.validateBlock(b.block, encodeSpentOutputs(b.spentOutputsJson), b.hash, b.height, undefined);
  assert.ok(r.ok && r.valid, r.error);
  expected = { ok: true, valid: true, inputs: r.inputs, ecdsa: r.ecdsa, schnorr: r.schnorr,
    inputVerdicts: digest(r.inputVerdicts), verdicts: digest(r.verdicts), checks: digest(r.checks) };
  calls = dropInCalls(r.checks);
  writeFileSync(path.join(work, 'calls.json'), JSON.stringify(calls.map(({ fn, args }) => ({ fn, args }))));
  writeFileSync(path.join(work, 'fixture.json'), JSON.stringify(fixture));
});
after(() => { if (work) rmSync(work, { recursive: true, force: true }); });

/** Drop-in calls on the block's first 60 ECDSA and 60 Schnorr checks (as given, and with the
 *  message tampered) and on bad input, each with tiny-secp256k1's outcome. Byte arguments as hex. */
function dropInCalls(checks) {
  const out = [];
  const add = (fn, args) => out.push({ fn, args: args.map((a) => (a instanceof Uint8Array ? Buffer.from(a).toString('hex') : a)),
    want: outcome(() => tiny[fn](...args)) });
  const walked = walkChecks(checks);
  const seen = { [CheckType.ECDSA]: 0, [CheckType.SCHNORR]: 0 };
  for (let i = 0; i < walked.count; i++) {
    const at = walked.offsets[i];
    const type = checks[at];
    if (seen[type]++ >= 60) continue;
    const pkLen = checks[at + 1];
    const msg32 = checks.slice(at + 4, at + 36);
    const pubkey = checks.slice(at + 36, at + 36 + pkLen);
    const sig = checks.slice(at + 36 + pkLen, walked.offsets[i + 1]);
    const tampered = Uint8Array.from(msg32);
    tampered[i % 32] ^= 1;
    if (type === CheckType.SCHNORR) {
      add('verifySchnorr', [msg32, pubkey, sig]);
      add('verifySchnorr', [tampered, pubkey, sig]);
    } else {
      const compact = compactFromDer(sig);
      if (!compact) continue;
      add('verify', [msg32, pubkey, compact]);
      add('verify', [tampered, pubkey, compact, true]);
      add('isPoint', [pubkey]);
    }
  }
  const G = '0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798';
  const bytes = (h) => Uint8Array.from(Buffer.from(h, 'hex'));
  add('verify', [new Uint8Array(31), bytes(G), new Uint8Array(64)]);
  add('verify', [new Uint8Array(32), new Uint8Array(33), new Uint8Array(64)]);
  add('verify', [new Uint8Array(32), bytes(G), new Uint8Array(63)]);
  add('verify', [new Uint8Array(32), bytes(G), new Uint8Array(64).fill(0xff)]);
  add('verifySchnorr', [new Uint8Array(32), bytes(G), new Uint8Array(64)]);
  add('isPoint', [new Uint8Array(33)]);
  add('isPoint', [bytes(G)]);
  return out;
}

test('the package from Node: the same verdicts as the repo engine in the thread and in a pool, a killed worker loses nothing, bad input named', () => {
  const script = path.join(project, 'use.mjs');
  copyFileSync(new URL('./support/package-node.mjs', import.meta.url), script);
  const got = JSON.parse(execFileSync(process.execPath, [script, path.join(work, 'fixture.json'), path.join(work, 'calls.json')],
    { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  assert.deepEqual(got.exports, ['CheckType', 'VARIANTS', 'Verdict', 'createPool', 'encodeCheck', 'encodeSpentOutputs', 'init',
    'isPoint', 'simdSupported', 'validateBlock', 'verify', 'verifyBatch', 'verifySchnorr', 'wideArithmeticSupported']);
  for (const k of ['local', 'pooled', 'afterKill']) assert.deepEqual(got[k], expected, k);
  assert.ok(got.replacements >= 1, `${got.replacements} replacements after a worker was killed`);
  assert.equal(got.batch, expected.verdicts);
  assert.equal(got.poolVerify, expected.verdicts);
  got.dropIn.forEach((o, k) => assert.deepEqual(o, calls[k].want, `${calls[k].fn} call ${k}`));
  assert.ok(calls.some((c) => c.want.value === true) && calls.some((c) => c.want.value === false) && calls.some((c) => c.want.error));
  assert.match(got.bad.blockType, /^TypeError: blockBytes must be a Uint8Array/);
  assert.match(got.bad.height, /^RangeError: options\.height must be the block's height/);
  assert.match(got.bad.spentEntry, /^RangeError: spentOutputs of the block at height 866342: spent_outputs\[0\]\.txid: not 64 hex digits/);
  assert.equal(got.bad.truncated.ok, false);
  assert.match(got.bad.truncated.error, /transaction count.*at block 0+14ce9ba7.*byte 80/);
  assert.match(got.bad.batch, /^Error: check record 0 at byte 0: truncated record \(40 of \d+ bytes\)/);
  assert.match(got.bad.poolVerify, /^TypeError: checks must be a Uint8Array/);
  assert.match(got.bad.submit, /submission 0/);
  assert.match(got.bad.notAPool, /^TypeError: options\.pool must be a pool from createPool/);
  assert.match(got.closed, /verify pool closed/);
  assert.match(got.readyClosed, /verify pool closed/);
  // A failed load is retried by the next call; the loaded engine answers init() again.
  assert.match(got.failedInit, /unknown wasm variant "bogus"/);
  assert.match(got.inFlightOther, /^Error: init: a load of simd from .* is in progress; await it before asking for another/);
  assert.match(got.emptyDir, /^TypeError: init: wasmDir must be a folder path \(a non-empty string\)/);
  assert.equal(got.initAgain, 'simd');
  assert.match(got.bad.initOther, /already loaded \(simd from .*\); it cannot change/);
  // Misspelt options are named, not ignored.
  assert.match(got.bad.misspelt, /^TypeError: validateBlock: unknown option "heigth"/);
  assert.match(got.bad.poolOption, /^TypeError: createPool: unknown option "wrokers"/);
  // createPool checks the load options as init does, at the call.
  assert.equal(got.bad.poolEmptyDir, 'TypeError: createPool: wasmDir must be a folder path (a non-empty string), got ""');
  assert.equal(got.bad.poolVariantType, "TypeError: createPool: variant must be 'simd', 'scalar' or 'wide', got 5");
  assert.match(got.bad.initOption, /^TypeError: init: unknown option "wasmdir"/);
  assert.match(got.bad.notJson, /^SyntaxError: spentOutputs of the block at height 866342: not JSON/);
  assert.match(got.bad.camelCase, /spent_outputs\[0\]\.script_pubkey: missing \(the field is script_pubkey, not scriptPubKey\)/);
  // Every result says valid: true, false (Core rejects it, here at its coinbase height) or null (not judged).
  assert.deepEqual(got.wrongHeight, { ok: false, valid: false, stage: 'ContextualCheckBlock', rejectReason: 'bad-cb-height' });
  assert.equal(got.truncatedValid, null);
  // spent_outputs.json's bytes (a file read without an encoding) are read as its text.
  assert.deepEqual(got.jsonBytes, expected);
  assert.deepEqual(got.paddedJsonBytes, expected);
  assert.deepEqual(got.reused, expected, 'buffers changed after the call are not what was validated');
  assert.match(got.bad.hole, /spent_outputs\[0\]: not an object/);
  assert.match(got.bad.arrayBuffer, /^TypeError: spentOutputs of the block at height 866342: spentOutputs must be a Uint8Array, not an ArrayBuffer/);
  assert.match(got.bad.int8Array, /^TypeError: spentOutputs of the block at height 866342: spentOutputs must be a Uint8Array, got Int8Array \(wrap its bytes/);
  assert.match(got.bad.proxyBlock, /^TypeError: blockBytes must be a Uint8Array \(the serialized block\), got a Uint8Array look-alike that is no typed array/);
  assert.match(got.bad.oversized, /^RangeError: blockBytes: 4000001 bytes, over MAX_BLOCK_SERIALIZED_SIZE/);
  assert.match(got.bad.medianTimePast, /^RangeError: options\.medianTimePast must be an integer number of seconds in 0\.\.4294967295/);
  assert.equal(got.bad.liarHash, 'TypeError: Expected Hash');
  assert.equal(got.bad.detachedVerify, 'TypeError: checks: its ArrayBuffer is detached (transferred to a worker or by structuredClone): pass the bytes before transferring them');
  assert.match(got.bad.detachedBlock, /^TypeError: blockBytes: its ArrayBuffer is detached/);
  assert.equal(got.bad.thrownString, 'mine');
  assert.equal(got.bad.liarBatch, expected.verdicts, 'every record of the real extent verified, none past it');
});

test('the package from Node: init({wasmDir}) and createPool({wasmDir}) load from that folder; variant \'scalar\' gives the same verdicts, and is the default without wasm SIMD', () => {
  const elsewhere = path.join(work, 'elsewhere');
  mkdirSync(elsewhere, { recursive: true });
  for (const f of ['ibd-scalar.js', 'ibd-scalar.wasm', 'package.json']) {
    copyFileSync(path.join(project, 'node_modules', 'ibd-wasm', 'build', 'wasm', f), path.join(elsewhere, f));
  }
  const script = `import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createPool, init, validateBlock } from 'ibd-wasm';
const [dir, fixtureFile] = process.argv.slice(2);
const fixture = JSON.parse(readFileSync(fixtureFile, 'utf8'));
const missing = await init({ variant: 'simd', wasmDir: dir }).then(() => null, (err) => err.message);
const info = await init({ variant: 'scalar', wasmDir: dir });
const block = readFileSync(fixture.blockFile);
const spent = readFileSync(fixture.spentFile, 'utf8');
const pool = createPool({ workers: 1, variant: 'scalar', wasmDir: dir });
const [local, pooled] = [await validateBlock(block, spent, { height: fixture.height }), await pool.validateBlock(block, spent, { height: fixture.height })];
await pool.close();
const broken = createPool({ workers: 1, variant: 'simd', wasmDir: dir });
const poolMissing = await broken.ready().then(() => null, (err) => err.message);
await broken.close();
const d = (b) => createHash('sha256').update(b).digest('hex');
console.log(JSON.stringify({ missing, poolMissing, variant: info.variant, local: d(local.verdicts), pooled: d(pooled.verdicts), inputs: d(pooled.inputVerdicts) }));
`;
  writeFileSync(path.join(project, 'elsewhere.mjs'), script);
  const got = JSON.parse(execFileSync(process.execPath, ['elsewhere.mjs', elsewhere, path.join(work, 'fixture.json')],
    { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  // Only the scalar build is there: the simd load names the missing file in that folder.
  assert.ok(got.missing.includes(path.join(elsewhere, 'ibd-simd.js')), got.missing);
  assert.ok(got.poolMissing.includes(path.join(elsewhere, 'ibd-simd.js')), got.poolMissing);
  assert.equal(got.variant, 'scalar');
  assert.equal(got.local, expected.verdicts);
  assert.equal(got.pooled, expected.verdicts);
  assert.equal(got.inputs, expected.inputVerdicts);
  // A host without wasm SIMD (its probe refused) gets the scalar build by default.
  const noSimd = execFileSync(process.execPath, ['--input-type=module', '-e',
    "WebAssembly.validate = () => false; const m = await import('ibd-wasm'); console.log(m.simdSupported(), (await m.init()).variant, m.verify(new Uint8Array(32).fill(1), Uint8Array.from(Buffer.from('0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798', 'hex')), new Uint8Array(64).fill(1)));"],
  { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  assert.equal(noSimd, 'false scalar false\n');
  // Node: the first drop-in call loads the engine itself, synchronously, with no init().
  const first = execFileSync(process.execPath, ['--input-type=module', '-e',
    "const m = await import('ibd-wasm'); console.log(m.isPoint(Uint8Array.from(Buffer.from('0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798', 'hex'))), (await m.init()).variant);"],
  { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  assert.equal(first, 'true simd\n');
});

test('the package\'s types: tsc --noEmit accepts a typed example and refuses a wrong call', () => {
  const tsconfig = { compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true,
    skipLibCheck: false, lib: ['es2022', 'dom'], types: [] }, files: ['example.ts'] };
  writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
  const example = `import { createPool, init, isPoint, validateBlock, verify, verifyBatch, verifySchnorr, encodeCheck, CheckType } from 'ibd-wasm';
import type { BlockResult, BlockFailure, Pool } from 'ibd-wasm';
export async function main(block: Uint8Array, spent: string): Promise<number> {
  const info = await init({ variant: 'simd' });
  const ok: boolean = verify(new Uint8Array(32), new Uint8Array(33), new Uint8Array(64), true) && verifySchnorr(new Uint8Array(32), new Uint8Array(32), new Uint8Array(64)) && isPoint(new Uint8Array(33));
  const record = encodeCheck({ type: CheckType.SCHNORR, msg32: new Uint8Array(32), pubkey: new Uint8Array(32), sig: new Uint8Array(64) });
  const verdicts: Uint8Array = verifyBatch(record);
  const pool: Pool = createPool({ workers: 2 });
  const r: BlockResult | BlockFailure = await validateBlock(block, spent, { height: 866342, pool });
  const streamed: 0 | 1 = await pool.submit(record);
  await pool.close();
  if (!r.ok) return -1;
  return r.inputVerdicts.length + verdicts.length + streamed + (ok ? 1 : 0) + info.variant.length + r.times.verifyMs;
}
`;
  writeFileSync(path.join(project, 'example.ts'), example);
  execFileSync(process.execPath, [TSC, '-p', project], { cwd: project, stdio: 'pipe' });
  writeFileSync(path.join(project, 'example.ts'), `${example}\nexport const wrong = validateBlock(new Uint8Array(1), 'x', { hieght: 1 });\n`);
  let output = '';
  try {
    execFileSync(process.execPath, [TSC, '-p', project], { cwd: project, encoding: 'utf8', stdio: 'pipe' });
  } catch (err) {
    output = `${err.stdout}${err.stderr}`;
  }
  assert.match(output, /example\.ts.*hieght/s, 'tsc refuses an option the declarations do not have');
});

/** Serves `root` (and the fixtures under /fixtures/, the drop-in calls and the fixture's paths)
 *  on a loopback port; cross-origin isolated when `isolated`. */
async function serve(root, { isolated }) {
  const requests = [];
  const files = sirv(root, { dev: true });
  const fixtures = sirv(fixturesDir(), { dev: true });
  const relative = (file) => `/fixtures/${path.relative(fixturesDir(), file).split(path.sep).join('/')}`;
  const served = JSON.stringify({ height: fixture.height, block: relative(fixture.blockFile), spent: relative(fixture.spentFile) });
  const server = http.createServer((req, res) => {
    requests.push(req.url.split('?')[0]);
    if (isolated) {
      res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
      res.setHeader('Cross-Origin-Embedder-Policy', 'require-corp');
    }
    if (req.url === '/fixture.json') return res.end(served);
    if (req.url === '/calls.json') return res.end(readFileSync(path.join(work, 'calls.json')));
    if (req.url.startsWith('/cdn/')) { // the .wasm files somewhere else than the package
      req.url = req.url.slice('/cdn'.length);
      return sirv(path.join(project, 'node_modules', 'ibd-wasm', 'build', 'wasm'), { dev: true })(req, res, () => { res.statusCode = 404; res.end(); });
    }
    if (req.url.startsWith('/fixtures/')) {
      req.url = req.url.slice('/fixtures'.length);
      return fixtures(req, res, () => { res.statusCode = 404; res.end(); });
    }
    return files(req, res, () => { res.statusCode = 404; res.end(); });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, requests, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Opens `url` in Chromium (launched with `jsFlags`) and waits for the app's summary (window.packageResult). */
async function runPage(url, { jsFlags = [] } = {}) {
  const browser = await launchChromium({ jsFlags });
  const errors = [];
  try {
    const page = await browser.context.newPage();
    page.on('pageerror', (err) => errors.push(String(err)));
    await page.goto(url);
    await page.waitForFunction(() => window.packageResult || window.packageError, null, { timeout: 120_000 });
    const { result, error } = await page.evaluate(() => ({ result: window.packageResult, error: window.packageError }));
    assert.equal(error, undefined, `the app failed: ${error}\n${errors.join('\n')}`);
    return result;
  } finally {
    await browser.close();
  }
}

/** The browser summary checked against the repo engine's and tiny-secp256k1's. */
function checkBrowserResult(got, { isolated }) {
  assert.equal(got.isolated, isolated);
  assert.match(got.before.error, /call `await init\(\)` once before verify/);
  assert.equal(got.variant, got.wide ? 'wide' : got.simd ? 'simd' : 'scalar');
  assert.deepEqual(got.local, expected);
  assert.deepEqual(got.pooled, expected);
  assert.equal(got.batch, expected.verdicts);
  assert.equal(got.poolVerify, expected.verdicts);
  assert.equal(got.submitted, got.expectedSubmitted);
  got.dropIn.forEach((o, k) => assert.deepEqual(o, calls[k].want, `${calls[k].fn} call ${k}`));
}

const skip = browserUnavailable() ?? false;

/** The app's page in `site`: the package through an import map, the app in the page itself or
 *  in a module Web Worker (its import rewritten to the package's path: no import map there). */
function writePage(site, { worker }) {
  mkdirSync(site, { recursive: true });
  const app = readFileSync(new URL('./support/package-app.mjs', import.meta.url), 'utf8');
  writeFileSync(path.join(site, 'main.mjs'), app);
  writeFileSync(path.join(site, 'worker.mjs'), app.replace("from 'ibd-wasm'", "from '/node_modules/ibd-wasm/workers/package/index-browser.mjs'"));
  const start = worker
    ? `const w = new Worker('/page/worker.mjs' + location.search, { type: 'module' });
w.onmessage = (e) => { if (e.data.error) window.packageError = e.data.error; else window.packageResult = e.data.result; };
w.onerror = (e) => { window.packageError = 'worker error: ' + e.message; };`
    : "import('/page/main.mjs');";
  writeFileSync(path.join(site, 'index.html'), `<!doctype html><meta charset="utf-8"><title>ibd-wasm package</title>
<script type="importmap">{"imports": {"ibd-wasm": "/node_modules/ibd-wasm/workers/package/index-browser.mjs"}}</script>
<script type="module">${start}</script>\n`);
}

test('the package in a plain page: an import map to the installed package, not cross-origin isolated', { skip }, async () => {
  writePage(path.join(project, 'page'), { worker: false });
  const server = await serve(project, { isolated: false });
  try {
    checkBrowserResult(await runPage(`${server.url}page/index.html`), { isolated: false });
    assert.ok(server.requests.includes('/node_modules/ibd-wasm/build/wasm/ibd-simd.wasm'), server.requests.join(' '));
  } finally {
    await server.close();
  }
});

test('the package in a module Web Worker, its wasm fetched from another location (?wasm=: init and createPool\'s wasmUrl)', { skip }, async () => {
  writePage(path.join(project, 'page'), { worker: true });
  const server = await serve(project, { isolated: false });
  try {
    checkBrowserResult(await runPage(`${server.url}page/index.html?wasm=/cdn/ibd-simd.wasm`), { isolated: false });
    // The worker's own engine and the pool's workers fetched the .wasm from /cdn/ only.
    assert.ok(server.requests.includes('/cdn/ibd-simd.wasm'), server.requests.join(' '));
    assert.ok(!server.requests.some((u) => u.endsWith('.wasm') && !u.startsWith('/cdn/')), server.requests.join(' '));
  } finally {
    await server.close();
  }
});

test('the package in a Vite build: bundled with no configuration, offline, served cross-origin isolated', { skip }, async () => {
  const app = path.join(project, 'app');
  mkdirSync(app, { recursive: true });
  copyFileSync(new URL('./support/package-app.mjs', import.meta.url), path.join(app, 'main.mjs'));
  writeFileSync(path.join(app, 'index.html'), '<!doctype html><meta charset="utf-8"><title>ibd-wasm in Vite</title>\n<script type="module" src="./main.mjs"></script>\n');
  // Warnings shown: the package needs no bundler configuration, so Vite has nothing to warn of
  // (no Node built-in externalized, no CommonJS variable in an ES module).
  const built = spawnSync(process.execPath, [VITE, 'build', '--logLevel', 'warn'], { cwd: app, encoding: 'utf8', env: { ...process.env, CI: 'true' } });
  assert.equal(built.status, 0, built.stderr);
  assert.doesNotMatch(built.stdout + built.stderr, /externalized|COMMONJS_VARIABLE_IN_ESM|\[plugin /, 'Vite warned about the package');
  const assets = readdirNames(path.join(app, 'dist', 'assets'));
  assert.ok(assets.some((f) => f.endsWith('.wasm')), `the wasm is an emitted asset: ${assets.join(', ')}`);
  const server = await serve(path.join(app, 'dist'), { isolated: true });
  try {
    checkBrowserResult(await runPage(server.url), { isolated: true });
    // Where the browser runs wasm wide arithmetic, the same app picks the wide build, which the
    // bundler emitted beside the others.
    const wide = await runPage(server.url, { jsFlags: [WIDE_ARITHMETIC_JS_FLAG] });
    assert.deepEqual([wide.wide, wide.variant], [true, 'wide']);
    checkBrowserResult(wide, { isolated: true });
    assert.equal(assets.filter((f) => f.endsWith('.wasm')).length, 3, `the three builds are emitted assets: ${assets.join(', ')}`);
  } finally {
    await server.close();
  }
});

function readdirNames(dir) {
  try {
    return execFileSync('ls', [dir], { encoding: 'utf8' }).split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

test('examples/verify-block.mjs validates the fixture block through the installed package', () => {
  const script = path.join(project, 'verify-block.mjs');
  copyFileSync(path.join(REPO_ROOT, 'examples', 'verify-block.mjs'), script);
  const output = execFileSync(process.execPath, [script, fixture.blockFile, fixture.spentFile, String(fixture.height)],
    { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  assert.equal(output, `block 000000000000000000014ce9ba7c6760053c3c82ce6ab43d60afb101d3c8f1f1: valid\n` +
    `${expected.inputs} inputs (0 failed), ${expected.ecdsa} ECDSA and ${expected.schnorr} Schnorr signature checks made (a failed CHECKMULTISIG trial among them is no failed input)\n`);
  // A block that does not parse: its error in one line (no stack trace), and exit 2.
  const truncated = path.join(work, 'truncated.raw');
  writeFileSync(truncated, readFileSync(fixture.blockFile).subarray(0, 1000));
  assert.throws(() => execFileSync(process.execPath, [script, truncated, fixture.spentFile, String(fixture.height)], { cwd: project, stdio: 'pipe' }),
    (err) => err.status === 2 && /^not validated: .*transaction count: CompactSize says 4864/.test(String(err.stderr)) && !/\n\s+at /.test(String(err.stderr)));
  // The wrong height: Core's rejection, printed, exit 1.
  assert.throws(() => execFileSync(process.execPath, [script, fixture.blockFile, fixture.spentFile, String(fixture.height + 1)], { cwd: project, stdio: 'pipe' }),
    (err) => err.status === 1 && /^block 0+14ce9ba7\S*: invalid, bad-cb-height: /.test(String(err.stdout)));
});

test('examples/verify-block.html validates the fixture block in Chromium through the installed package', { skip }, async () => {
  copyFileSync(path.join(REPO_ROOT, 'examples', 'verify-block.html'), path.join(project, 'verify-block.html'));
  const server = await serve(project, { isolated: false });
  const browser = await launchChromium();
  try {
    const page = await browser.context.newPage();
    const served = JSON.parse(await (await fetch(`${server.url}fixture.json`)).text());
    await page.goto(`${server.url}verify-block.html?block=${served.block}&spent=${served.spent}&height=${served.height}`);
    await page.waitForFunction(() => !document.getElementById('out').textContent.startsWith('validating'), null, { timeout: 120_000 });
    assert.equal(await page.textContent('#out'), 'block 000000000000000000014ce9ba7c6760053c3c82ce6ab43d60afb101d3c8f1f1: valid\n' +
      `${expected.inputs} inputs (0 failed), ${expected.ecdsa} ECDSA and ${expected.schnorr} Schnorr signature checks made (a failed CHECKMULTISIG trial among them is no failed input)`);
  } finally {
    await browser.close();
    await server.close();
  }
});
