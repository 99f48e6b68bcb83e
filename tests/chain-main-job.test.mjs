// The main job's chain pass (bench/core/chain-pass.mjs; docs/json.md `chain`): npm start
// validates the fixture set's blocks 1-255 as a chain from genesis and reports it, in --json
// and on the terminal: blocks connected, links and proofs of work checked, the spends the coins
// view gave, their checks equal to the fixture path's, the coins left, the rules still not
// checked. A fixture folder whose chain is broken (a block removed: prev-blk-not-found; a block
// removed and the rest relinked: a missing prevout) is an invalid chain named by height, hash,
// tx and input, exit 3; a chain file that does not match its manifest is a failure, exit 1; a
// folder without a chain reports none.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { fixturesDir, loadChain, readManifest } from '../blocks-fixtures/loader.mjs';
import { REPO_ROOT } from '../wasm/paths.mjs';
import { formatReport } from '../bench/cli/report.mjs';
import { exitCodeOf } from '../bench/core/run-core.mjs';
import { blockHash, frame, relink, splitFrames } from './support/chain.mjs';

const MAIN = path.join(REPO_ROOT, 'bench', 'cli', 'main.mjs');
const MAKE_MANIFEST = path.join(REPO_ROOT, 'blocks-fixtures', 'make-manifest.mjs');
const FIXTURES = fixturesDir();
const manifest = readManifest(FIXTURES);
const chain = await loadChain(FIXTURES);
const tmpRoot = mkdtempSync(path.join(os.tmpdir(), 'ibd-chain-job-'));
after(() => rmSync(tmpRoot, { recursive: true, force: true }));

const exec = (file, args) => promisify(execFile)(process.execPath, [file, ...args], { timeout: 300_000, maxBuffer: 64 << 20 })
  .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }), (err) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }));
const run = (args) => exec(MAIN, args);

/** A fixture folder in tmp: mainnet/<height> copied for `heights`, the chain file `chainBytes`
 *  under mainnet-chain/, and its manifest made by make-manifest.mjs. */
async function folderWithChain(name, heights, chainBytes) {
  const dir = path.join(tmpRoot, name);
  for (const h of heights) {
    mkdirSync(path.join(dir, 'mainnet', String(h)), { recursive: true });
    for (const f of ['block.raw', 'spent_outputs.json']) cpSync(path.join(FIXTURES, 'mainnet', String(h), f), path.join(dir, 'mainnet', String(h), f));
  }
  mkdirSync(path.join(dir, 'mainnet-chain'), { recursive: true });
  writeFileSync(path.join(dir, 'mainnet-chain', 'btcd-blocks1-255.dat'), chainBytes);
  const made = await exec(MAKE_MANIFEST, ['--fixtures', dir, '--out', path.join(dir, 'manifest.json')]);
  assert.equal(made.code, 0, made.stderr);
  return dir;
}

const subset = await run(['--heights', '170,181', '--workers', '1', '--rounds', '1', '--json']);
const doc = JSON.parse(subset.stdout);

test('--json: the chain pass connects blocks 1-255 from genesis, every one valid, spends from the coins view', () => {
  assert.equal(subset.code, 0, subset.stderr);
  const c = doc.chain;
  assert.equal(c.file, path.join(FIXTURES, 'mainnet-chain', 'btcd-blocks1-255.dat'));
  assert.deepEqual([c.first_height, c.blocks, c.frames, c.offered, c.connected, c.not_validated, c.valid],
    [1, 255, 255, 255, 255, 0, true]);
  assert.deepEqual([c.links_checked, c.proof_of_work_checked, c.proof_of_work_skipped], [255, 255, false]);
  assert.deepEqual(c.spends, { from_view: 7, in_block: 0 });
  assert.deepEqual(c.checks, { total: 7, valid: 7, invalid: 0, ecdsa: 7, schnorr: 0 });
  assert.deepEqual(c.spending_blocks.map((b) => [b.height, b.inputs, b.spends_from_view, b.checks, b.valid_checks, b.block_valid]),
    [170, 181, 182, 183, 187, 221, 248].map((h) => [h, 1, 1, 1, 1, true]));
  // Only 170 and 181 ran the fixture path in this run: those two are compared, and equal.
  assert.deepEqual(c.spending_blocks.map((b) => b.fixture_match), [true, true, null, null, null, null, null]);
  assert.deepEqual(c.fixture_match, { compared: 2, equal: 2, differing: [] });
  assert.deepEqual(c.tip, { height: 255, hash: manifest.chain.last_hash, matches_manifest: true });
  assert.equal(c.coins.in_view, 260);
  assert.ok(c.coins.bytes > 0 && c.coins.bytes <= c.coins.max_bytes);
  assert.deepEqual(c.not_checked, ['time-too-new', 'expected-difficulty']);
  assert.deepEqual([c.failure, c.file_error, c.error], [null, null, null]);
  assert.ok(c.seconds > 0);
  assert.equal(doc.exit_code, 0);
  assert.match(subset.stderr, /^\[bench\] chain: 255 blocks of .*btcd-blocks1-255\.dat connected from genesis \(255 blocks offered\), 7 spends from the coins view, \d+\.\d\d s in a worker$/m);
});

test('the terminal report shows the chain pass', () => {
  const lines = formatReport(doc).split('\n');
  const at = lines.findIndex((l) => l.startsWith('chain: '));
  assert.ok(at > 0, lines.join('\n'));
  assert.match(lines[at], /^chain: .*btcd-blocks1-255\.dat \(heights 1 to 255\), connected from genesis: 255 of 255 blocks, every one valid \(\d+\.\d\d s in a worker, not timed for throughput\)$/);
  assert.equal(lines[at + 1], `  headers: 255 links to the previous block and 255 proofs of work checked; tip 255 ${manifest.chain.last_hash.slice(0, 16)}… (the manifest's last block)`);
  assert.match(lines[at + 2], /^ {2}coins view: 7 spends found in it \(7 from earlier blocks, 0 from their own block\), coinbase maturity and BIP30 checked; 260 coins left, [\d,]+ of 67,108,864 bytes$/);
  assert.equal(lines[at + 3], '  spends in blocks 170, 181, 182, 183, 187, 221, 248: 7 checks, 7 valid, 0 invalid; checks and verdicts equal the fixture path\'s for 2 of 2 blocks');
  assert.equal(lines[at + 4], '  not checked for the chain\'s blocks (docs/validation.md): time-too-new, expected-difficulty');
  assert.equal(lines.at(-2), 'every block valid, the chain\'s too; no block failed; all checks valid');
});

// A hostile review found exit 0 and "the chain's too" for a chain file cut after 100 frames
// whose (hand-written) manifest says 255 blocks, and for a tip other than the manifest's.
test('a chain that connects fewer blocks than its manifest lists, or ends at another tip, is not validated: exit 1, named', () => {
  const short = structuredClone(doc);
  Object.assign(short.chain, { connected: 100, offered: 100, frames: 100, valid: false });
  assert.equal(exitCodeOf(short), 1);
  const lines = formatReport(short).split('\n');
  assert.ok(lines.includes('CHAIN NOT VALIDATED: 100 of the manifest\'s 255 blocks connected'), lines.join('\n'));
  assert.ok(!lines.some((l) => l.startsWith('every block valid')));
  const elsewhere = structuredClone(doc);
  elsewhere.chain.tip.matches_manifest = false;
  assert.equal(exitCodeOf(elsewhere), 1);
  assert.ok(formatReport(elsewhere).includes(`\nCHAIN NOT VALIDATED: the tip ${doc.chain.tip.hash} (height 255) is not the manifest's last block`));
  assert.equal(exitCodeOf(doc), 0);
});

// A hostile review found a block failing in every timed round (its workers trapping) ending with
// exit 0 and "every block valid": only a warning said so.
test('a block that fails or differs in a timed end-to-end round makes the run exit 1, named in the report', () => {
  const late = structuredClone(doc);
  late.end_to_end.disagreements = [{ height: 181, what: 'round 1: failed in the workers: block … (height 181): …' }];
  assert.equal(exitCodeOf(late), 1);
  const lines = formatReport(late).split('\n');
  assert.ok(lines.includes('END-TO-END DISAGREEMENT (1): the timed rounds differ from the first pass, or failed, on:'), lines.join('\n'));
  assert.ok(lines.includes('  block 181: round 1: failed in the workers: block … (height 181): …'));
  assert.ok(!lines.some((l) => l.startsWith('every block valid')));
});

test('timed signature passes that failed (verify_error) are exit 1 and named last in the report', () => {
  const failed = structuredClone(doc);
  failed.verify_error = 'batch of 1 records starting at record 0 failed 3 times (3 attempts allowed); last error: x (record 0: block 170 …, its check 0)';
  assert.equal(exitCodeOf(failed), 1);
  assert.ok(formatReport(failed).includes(`\nVERIFY PASSES FAILED: ${failed.verify_error}`));
  assert.equal(doc.verify_error, null);
});

test('a chain with block 200 removed: invalid at height 200, prev-blk-not-found, exit 3', async () => {
  const blocks = splitFrames(chain.bytes);
  blocks.splice(199, 1);
  const dir = await folderWithChain('gap', [170], frame(blocks));
  const res = await run(['--fixtures', dir, '--workers', '1', '--rounds', '1', '--json']);
  assert.equal(res.code, 3, res.stderr);
  const c = JSON.parse(res.stdout).chain;
  assert.deepEqual([c.blocks, c.connected, c.offered, c.not_validated, c.valid], [254, 199, 200, 54, false]);
  assert.deepEqual([c.failure.height, c.failure.hash, c.failure.reject_reason, c.failure.stage, c.failure.byte, c.failure.judged],
    [200, blockHash(blocks[199]), 'prev-blk-not-found', 'AcceptBlockHeader', 4, true]);
  assert.match(c.failure.message, /^height 200: prev-blk-not-found: its previous block [0-9a-f]{64} is not the chain's tip [0-9a-f]{64} \(height 199\)/);
  assert.deepEqual(c.fixture_match, { compared: 1, equal: 1, differing: [] });
  const text = await run(['--fixtures', dir, '--workers', '1', '--rounds', '1']);
  assert.equal(text.code, 3);
  assert.ok(text.stdout.includes(', connected from genesis: 199 of 254 blocks, stopped at height 200 ('), text.stdout);
  assert.ok(text.stdout.includes(`\nCHAIN INVALID at height 200 ${blockHash(blocks[199])}: height 200: prev-blk-not-found: `), text.stdout);
  assert.doesNotMatch(text.stdout, /every block valid/);
});

test('block 9 removed and the chain relinked (--skip-proof-of-work): block 170 at height 169 misses its prevout, named', async () => {
  const blocks = splitFrames(chain.bytes).slice(0, 200);
  blocks.splice(8, 1);
  relink(blocks, 8);
  // Folder 24835 only: a chain block shifted down a height would not match mainnet/<height>.
  const dir = await folderWithChain('missing', [24835], frame(blocks));
  const res = await run(['--fixtures', dir, '--workers', '1', '--rounds', '1', '--json', '--skip-proof-of-work']);
  assert.equal(res.code, 3, res.stderr);
  const c = JSON.parse(res.stdout).chain;
  assert.equal(c.proof_of_work_skipped, true);
  assert.equal(c.proof_of_work_checked, 0);
  assert.deepEqual([c.failure.height, c.failure.hash, c.failure.reject_reason, c.failure.stage, c.failure.tx, c.failure.input],
    [169, blockHash(blocks[168]), 'bad-txns-inputs-missingorspent', 'CheckTxInputs', 1, 0]);
  assert.ok(c.not_checked.includes('proof-of-work'));
  assert.deepEqual(c.fixture_match, { compared: 0, equal: 0, differing: [] });
});

test('a chain file that does not match its manifest is a failure naming it, exit 1; a folder without a chain has none', async () => {
  const bytes = Buffer.from(chain.bytes);
  const dir = await folderWithChain('changed', [170], bytes);
  const file = path.join(dir, 'mainnet-chain', 'btcd-blocks1-255.dat');
  bytes[1000] ^= 1;
  writeFileSync(file, bytes);
  const res = await run(['--fixtures', dir, '--workers', '1', '--rounds', '1', '--json']);
  assert.equal(res.code, 1, res.stderr);
  const out = JSON.parse(res.stdout);
  assert.match(out.chain.error, new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: sha256 [0-9a-f]{64} does not match the manifest's `));
  assert.equal(out.chain.connected, null);
  assert.equal(out.blocks[0].block_valid, true); // the fixture blocks still ran
  assert.ok(formatReport(out).includes(`\nchain: not run: ${out.chain.error}\n`));
  assert.ok(formatReport(out).includes(`\nCHAIN FAILED: ${out.chain.error}`));

  // A fixture folder of its own without mainnet-chain/: no chain entry, no chain pass.
  const plain = path.join(tmpRoot, 'plain');
  mkdirSync(path.join(plain, 'mainnet', '170'), { recursive: true });
  for (const f of ['block.raw', 'spent_outputs.json']) cpSync(path.join(FIXTURES, 'mainnet', '170', f), path.join(plain, 'mainnet', '170', f));
  const made = await exec(MAKE_MANIFEST, ['--fixtures', plain, '--out', path.join(plain, 'manifest.json')]);
  assert.equal(made.stderr, `wrote ${path.join(plain, 'manifest.json')}: 1 blocks\n`);
  assert.equal(JSON.parse(readFileSync(path.join(plain, 'manifest.json'), 'utf8')).chain, undefined);
  const none = await run(['--fixtures', plain, '--workers', '1', '--rounds', '1', '--json']);
  assert.equal(none.code, 0, none.stderr);
  const noneDoc = JSON.parse(none.stdout);
  assert.equal(noneDoc.chain, null);
  assert.doesNotMatch(formatReport(noneDoc), /^chain: /m);
  assert.ok(formatReport(noneDoc).includes('\nevery block valid; no block failed'));
  assert.equal(createHash('sha256').update(chain.bytes).digest('hex'), manifest.chain.sha256);
});
