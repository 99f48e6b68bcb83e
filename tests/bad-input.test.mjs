// Bad input is reported where it is, and costs no other result: truncated blocks, spent-output
// lists that do not match the block, missing or altered fixture files, a run of the main job
// with one good and one bad block, a fixtures folder with no block in it, and bad command-line
// values (--workers, --heights not in the manifest).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { fixturesDir, loadBlocks, readManifest, REPO_ROOT } from '../blocks-fixtures/loader.mjs';
import { loadEngine } from '../workers/engine.mjs';

const FIXTURES = fixturesDir();
const MAIN = path.join(REPO_ROOT, 'bench', 'main.mjs');
const manifest = readManifest(FIXTURES);
const entry = (height) => manifest.blocks.find((b) => b.height === height);
const fileOf = (height, name) => path.join(FIXTURES, 'mainnet', String(height), name);
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const tmpRoot = mkdtempSync(path.join(os.tmpdir(), 'ibd-bad-input-'));
after(() => rmSync(tmpRoot, { recursive: true, force: true }));

const engine = await loadEngine('simd');

/** extractBlock on fixture `height` with its block bytes and spent-outputs JSON replaced. */
function extract(height, { block, spent } = {}) {
  const raw = block ?? new Uint8Array(readFileSync(fileOf(height, 'block.raw')));
  const json = spent ?? readFileSync(fileOf(height, 'spent_outputs.json'), 'utf8');
  return engine.extractBlock(raw, json, entry(height).hash, height);
}

/** spent_outputs.json of `height`, passed through `edit(list)`. */
function editedSpent(height, edit) {
  const doc = JSON.parse(readFileSync(fileOf(height, 'spent_outputs.json'), 'utf8'));
  edit(doc.spent_outputs);
  return JSON.stringify(doc);
}

test('a truncated block.raw is an error naming the byte offset', () => {
  const full = readFileSync(fileOf(24835, 'block.raw'));
  assert.equal(full.length, 8833);
  for (const cut of [50, 5000, full.length - 1]) {
    const res = extract(24835, { block: new Uint8Array(full.subarray(0, cut)) });
    assert.equal(res.ok, false, `cut at ${cut}`);
    assert.ok(res.byteOffset >= 0 && res.byteOffset <= cut, `cut at ${cut}: byteOffset ${res.byteOffset}`);
    assert.match(res.error, new RegExp(`byte ${res.byteOffset}\\b`));
    if (cut > 80) assert.ok(res.byteOffset >= 80, 'past the header');
  }
});

test('a spent-outputs list shorter than the inputs names the first uncovered tx and input', () => {
  // 24835: the coinbase and one transaction with 74 inputs (README table).
  const res = extract(24835, { spent: editedSpent(24835, (list) => list.pop()) });
  assert.equal(res.ok, false);
  assert.deepEqual([res.txIndex, res.inputIndex], [1, 73]);
  assert.match(res.error, /tx 1\b/);
  assert.match(res.error, /input 73\b/);
});

test('a spent output whose outpoint does not match the input names that tx and input', () => {
  const wrongVout = extract(24835, { spent: editedSpent(24835, (list) => { list[10].vout += 1; }) });
  assert.equal(wrongVout.ok, false);
  assert.deepEqual([wrongVout.txIndex, wrongVout.inputIndex], [1, 10]);
  assert.match(wrongVout.error, /tx 1\b.*input 10\b/);
  const wrongTxid = extract(24835, {
    spent: editedSpent(24835, (list) => { list[5].txid = `${list[5].txid.slice(0, 63)}${list[5].txid[63] === '0' ? '1' : '0'}`; }),
  });
  assert.equal(wrongTxid.ok, false);
  assert.deepEqual([wrongTxid.txIndex, wrongTxid.inputIndex], [1, 5]);
});

/** A fixtures folder in tmp holding copies of `heights`, with its own manifest. */
test('a height that the coinbase contradicts (BIP34) is an error naming the block; a bad height is refused', () => {
  const raw = new Uint8Array(readFileSync(fileOf(403200, 'block.raw')));
  const json = readFileSync(fileOf(403200, 'spent_outputs.json'), 'utf8');
  const hash = entry(403200).hash;
  assert.equal(engine.extractBlock(raw, json, hash, 403200).ok, true);
  const wrong = engine.extractBlock(raw, json, hash, 403199);
  assert.equal(wrong.ok, false);
  assert.match(wrong.error, new RegExp(`bad-cb-height: block ${hash} given height 403199`));
  assert.deepEqual([wrong.txIndex, wrong.inputIndex], [0, 0]);
  assert.match(engine.extractBlock(raw, json, hash, 1.5).error, /height must be an integer/);
  assert.match(engine.extractBlock(raw, json, hash, '403200').error, /height must be a number/);
});

function tempFixtures(name, heights, alter = () => {}) {
  const dir = path.join(tmpRoot, name);
  const blocks = [];
  for (const h of heights) {
    const to = path.join(dir, 'mainnet', String(h));
    mkdirSync(to, { recursive: true });
    for (const f of ['block.raw', 'spent_outputs.json']) cpSync(fileOf(h, f), path.join(to, f));
    alter(h, to);
    blocks.push({
      ...entry(h),
      block_raw_sha256: sha256(readFileSync(path.join(to, 'block.raw'))),
      spent_outputs_sha256: sha256(readFileSync(path.join(to, 'spent_outputs.json'))),
    });
  }
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ blocks }));
  return dir;
}

test('a missing folder, a missing file and a changed file are per-block errors naming them', async () => {
  const dir = tempFixtures('loader', [170, 181, 182, 183]);
  rmSync(path.join(dir, 'mainnet', '181'), { recursive: true });
  rmSync(path.join(dir, 'mainnet', '182', 'spent_outputs.json'));
  const raw183 = path.join(dir, 'mainnet', '183', 'block.raw');
  writeFileSync(raw183, readFileSync(raw183).subarray(0, 100));
  const [b170, b181, b182, b183, b999] = await loadBlocks(dir, { heights: [170, 181, 182, 183, 999] });
  assert.equal(b170.error, undefined);
  assert.equal(b170.block.length, 490);
  assert.match(b181.error, new RegExp(`fixture folder ${path.join(dir, 'mainnet', '181')} is missing`));
  assert.match(b182.error, new RegExp(`cannot read ${path.join(dir, 'mainnet', '182', 'spent_outputs.json')}: no such file`));
  assert.match(b183.error, new RegExp(`${raw183}: sha256 [0-9a-f]{64} does not match the manifest's ${entry(183).block_raw_sha256} \\(100 bytes`));
  assert.match(b999.error, /height 999 is not listed in the fixture manifest/);
  await assert.rejects(loadBlocks(path.join(tmpRoot, 'nowhere')), /fixtures directory .*nowhere does not exist/);
});

test('a malformed, repeated or escaping manifest entry fails alone; the good block still loads', async () => {
  const dir = tempFixtures('manifest-entries', [170, 181]);
  const file = path.join(dir, 'manifest.json');
  const { blocks } = JSON.parse(readFileSync(file, 'utf8'));
  const [good, other] = blocks;
  writeFileSync(file, JSON.stringify({ blocks: [
    good,
    null,
    { ...other, block_raw_sha256: undefined },
    { ...other, dir: '../../../../etc' },
    other,
    { ...other },
  ] }));
  const loaded = await loadBlocks(dir);
  const byError = (re) => loaded.filter((b) => re.test(b.error ?? ''));
  assert.equal(loaded.find((b) => b.height === 170).block.length, 490);
  assert.equal(loaded.find((b) => b.height === 181 && !b.error).block.length, 490);
  assert.equal(byError(/manifest entry 1 is not an object/).length, 1);
  assert.equal(byError(/manifest entry 2 \(height 181\): block_raw_sha256 is not 64 lowercase hex digits/).length, 1);
  assert.equal(byError(/manifest entry 3 \(height 181\): dir \.\.\/\.\.\/\.\.\/\.\.\/etc leads outside the fixtures directory/).length, 1);
  assert.equal(byError(/manifest entry 5 repeats height 181/).length, 1);
  assert.equal(loaded.length, 6);

  writeFileSync(file, JSON.stringify({ blocks: [] }));
  await assert.rejects(loadBlocks(dir), /manifest .* lists no blocks/);
  await assert.rejects(loadBlocks(file), /fixtures path .* is not a directory/);
});

const run = (args) => promisify(execFile)(process.execPath, [MAIN, ...args], { timeout: 120_000, maxBuffer: 64 << 20 })
  .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }), (err) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr, killed: err.killed }));

test('the main job validates the good block, reports the truncated one at the end, exits 1', async () => {
  const dir = tempFixtures('main-job', [170, 181], (h, to) => {
    if (h === 181) writeFileSync(path.join(to, 'block.raw'), readFileSync(path.join(to, 'block.raw')).subarray(0, 300));
  });
  const json = await run(['--fixtures', dir, '--workers', '1', '--json']);
  assert.equal(json.killed, false);
  assert.equal(json.code, 1, json.stderr);
  const doc = JSON.parse(json.stdout);
  const [good, bad] = doc.blocks;
  assert.deepEqual([good.height, good.hash, good.valid, good.invalid, good.checks], [170, entry(170).hash, 1, 0, { ecdsa: 1, schnorr: 0 }]);
  assert.equal(good.error, null);
  assert.deepEqual([good.block_valid, good.rounds, good.coverage], [true, 1, { p2pk: { inputs: 1, evaluated: 1, checks: 1 } }]);
  assert.equal(bad.height, 181);
  assert.match(bad.error, /mainnet[/\\]181: .*byte \d+/);
  assert.deepEqual(doc.errors.map((e) => e.height), [181]);
  assert.equal(doc.totals.valid, 1);
  assert.equal(doc.exit_code, 1);

  const text = await run(['--fixtures', dir, '--workers', '1']);
  assert.equal(text.code, 1);
  const lines = text.stdout.trimEnd().split('\n');
  assert.match(lines.find((l) => l.trimStart().startsWith('170 ')), new RegExp(`170\\s+${entry(170).hash}\\s+2\\s+1\\s+1\\s+0\\s+1\\s+0`));
  // The failed block's inputs are not in the totals, so its row shows none.
  assert.match(lines.find((l) => l.trimStart().startsWith('181 ')), new RegExp(`^ +181  ${entry(181).hash}(\\s+-){7}  FAILED \\(see end\\)$`));
  assert.ok(lines.includes('totals: 2 blocks (1 failed), 1 input (1 evaluated), 1 check: 1 valid, 0 invalid; ' +
    '0 invalid blocks, up to 1 validation round'), text.stdout);
  assert.equal(lines.at(-2), 'FAILED BLOCKS (1):');
  assert.match(lines.at(-1), /^ {2}181 .*byte \d+/);
});

test('--workers 0 and --workers abc are refused with a clear message', async () => {
  for (const value of ['0', 'abc', '257', '1.5']) {
    const r = await run(['--workers', value]);
    assert.equal(r.code, 2, `--workers ${value}`);
    assert.match(r.stderr, new RegExp(`--workers must be a positive integer \\(1 to 256\\), got "${value.replace('.', '\\.')}"`));
    assert.equal(r.stdout, '');
  }
});

test('a fixtures folder with no block in it stops before verifying, with one line naming it, exit 1', async () => {
  const empty = path.join(tmpRoot, 'empty');
  mkdirSync(empty);
  const expected = `no fixture blocks found in ${empty}: expected ${path.join(empty, 'mainnet', '<height>', 'block.raw')} and spent_outputs.json`;
  const text = await run(['--fixtures', empty, '--workers', '1']);
  assert.equal(text.code, 1);
  assert.equal(text.stdout, '');
  assert.equal(text.stderr, `[bench] error: ${expected} (use --fixtures DIR or set IBD_FIXTURES)\n`);

  // One level too high: the folder holds a fixture set.
  const parent = path.join(tmpRoot, 'parent');
  tempFixtures(path.join('parent', 'blocks-fixtures'), [170]);
  const json = await run(['--fixtures', parent, '--workers', '1', '--json']);
  assert.equal(json.code, 1);
  const hint = `no fixture blocks found in ${parent}: expected ${path.join(parent, 'mainnet', '<height>', 'block.raw')} ` +
    `and spent_outputs.json; did you mean ${path.join(parent, 'blocks-fixtures')}?`;
  assert.deepEqual(JSON.parse(json.stdout), { error: hint, exit_code: 1 });
  assert.equal(json.stderr, `[bench] error: ${hint}\n`);

  // The loader itself: every block present but none intact names the first problem.
  const bad = tempFixtures('all-bad', [170, 181]);
  writeFileSync(path.join(bad, 'mainnet', '170', 'block.raw'), 'changed after the manifest');
  writeFileSync(path.join(bad, 'mainnet', '181', 'block.raw'), 'changed too');
  await assert.rejects(loadBlocks(bad), (err) => {
    assert.match(err.message, new RegExp(`^no fixture block of ${bad} could be loaded: ${path.join(bad, 'mainnet', '170', 'block.raw')}: sha256 .* \\(and 1 more failed block\\)$`));
    return true;
  });
});

test('--heights with a height the manifest does not list is a usage error listing the heights, exit 2', async () => {
  const r = await run(['--heights', '170,999,5']);
  assert.equal(r.code, 2);
  assert.equal(r.stdout, '');
  const available = manifest.blocks.map((b) => b.height);
  assert.equal(available.length, 24);
  assert.equal(r.stderr, `error: --heights: 999, 5 are not in the fixture manifest ${manifest.path}; ` +
    `available heights: ${available.join(', ')}\n(npm start -- --help or node bench/main.mjs --help for usage)\n`);

  const dir = tempFixtures('heights', [170, 181]);
  const own = await run(['--fixtures', dir, '--heights', '182', '--json']);
  assert.equal(own.code, 2);
  assert.equal(own.stdout, '');
  assert.match(own.stderr, new RegExp(`^error: --heights: 182 is not in the fixture manifest ${path.join(dir, 'manifest.json')}; available heights: 170, 181\\n`));
});
