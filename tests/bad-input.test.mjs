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
import { fixturesDir, loadBlocks, readManifest } from '../blocks-fixtures/loader.mjs';
import { REPO_ROOT } from '../wasm/paths.mjs';
import { loadEngine } from '../wasm/engine.mjs';
import { formatReport } from '../bench/cli/report.mjs';
import { verifyChecks } from './support/wasm.mjs';
import { walkBlock } from './support/block-walk.mjs';
import { blockTxids } from './support/block-txids.mjs';

const FIXTURES = fixturesDir();
const MAIN = path.join(REPO_ROOT, 'bench', 'cli', 'main.mjs');
const manifest = readManifest(FIXTURES);
const entry = (height) => manifest.blocks.find((b) => b.height === height);
const fileOf = (height, name) => path.join(FIXTURES, 'mainnet', String(height), name);
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const tmpRoot = mkdtempSync(path.join(os.tmpdir(), 'ibd-bad-input-'));
after(() => rmSync(tmpRoot, { recursive: true, force: true }));

const engine = await loadEngine('simd');

/**
 * A wasm BlockValidation run to the end (each round verified on this thread): result(), or the
 * failure object when the block fails to load.
 */
function validate(raw, json, hash, height) {
  const v = new engine.BlockValidation(raw, json, hash, height);
  try {
    if (!v.status().ok) return v.status();
    for (let p = v.pending(); p.count > 0; p = v.pending()) v.resolve(verifyChecks(engine, p.checks));
    return v.result();
  } finally {
    v.delete();
  }
}

/** validate() on fixture `height` with its block bytes and spent-outputs JSON replaced. */
function validateAt(height, { block, spent } = {}) {
  const raw = block ?? new Uint8Array(readFileSync(fileOf(height, 'block.raw')));
  const json = spent ?? readFileSync(fileOf(height, 'spent_outputs.json'), 'utf8');
  return validate(raw, json, entry(height).hash, height);
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
    const res = validateAt(24835, { block: new Uint8Array(full.subarray(0, cut)) });
    assert.equal(res.ok, false, `cut at ${cut}`);
    assert.ok(res.byteOffset >= 0 && res.byteOffset <= cut, `cut at ${cut}: byteOffset ${res.byteOffset}`);
    assert.match(res.error, new RegExp(`byte ${res.byteOffset}\\b`));
    if (cut > 80) assert.ok(res.byteOffset >= 80, 'past the header');
  }
});

test('a spent-outputs list shorter than the inputs names the first uncovered tx and input', () => {
  // 24835: the coinbase and one transaction with 74 inputs (README table).
  const res = validateAt(24835, { spent: editedSpent(24835, (list) => list.pop()) });
  assert.equal(res.ok, false);
  assert.deepEqual([res.txIndex, res.inputIndex], [1, 73]);
  assert.match(res.error, /tx 1\b/);
  assert.match(res.error, /input 73\b/);
});

test('a spent output whose outpoint does not match the input names that tx and input', () => {
  const wrongVout = validateAt(24835, { spent: editedSpent(24835, (list) => { list[10].vout += 1; }) });
  assert.equal(wrongVout.ok, false);
  assert.deepEqual([wrongVout.txIndex, wrongVout.inputIndex], [1, 10]);
  assert.match(wrongVout.error, /tx 1\b.*input 10\b/);
  const wrongTxid = validateAt(24835, {
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
  const right = validate(raw, json, hash, 403200);
  assert.equal(right.ok, true);
  assert.equal(right.valid, true);
  const wrong = validate(raw, json, hash, 403201);
  assert.equal(wrong.ok, false);
  assert.match(wrong.error, new RegExp(`bad-cb-height: block ${hash} given height 403201`));
  assert.deepEqual([wrong.txIndex, wrong.inputIndex], [0, 0]);
  assert.match(validate(raw, json, hash, 1.5).error, /height must be an integer/);
  assert.match(validate(raw, json, hash, '403200').error, /height must be a number/);
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
  // The same block under a second height (a folder copied): that entry's error, the first kept.
  writeFileSync(file, JSON.stringify({ blocks: [good, other, { ...other, height: 182, dir: 'mainnet/182' }] }));
  const twice = await loadBlocks(dir);
  assert.equal(twice.find((b) => b.height === 181).error, undefined);
  assert.match(twice.find((b) => b.height === 182).error,
    new RegExp(`manifest entry 2 \\(height 182\\) repeats block ${other.hash}, listed at height 181: a block has one height`));

  writeFileSync(file, JSON.stringify({ blocks: [] }));
  await assert.rejects(loadBlocks(dir), /manifest .* lists no blocks/);
  await assert.rejects(loadBlocks(file), /fixtures path .* is not a directory/);
});

const run = (args) => promisify(execFile)(process.execPath, [MAIN, ...args], { timeout: 120_000, maxBuffer: 64 << 20 })
  .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }), (err) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr, killed: err.killed }));

test('a spent_outputs.json saved with a UTF-8 byte-order mark loads as without it (as the page decodes it), and the block validates', async () => {
  const dir = tempFixtures('bom', [170], (h, to) => {
    const file = path.join(to, 'spent_outputs.json');
    writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(file)]));
  });
  const [b] = await loadBlocks(dir, { heights: [170] });
  assert.equal(b.error, undefined);
  assert.equal(b.spentOutputsJson, readFileSync(fileOf(170, 'spent_outputs.json'), 'utf8'));
  const r = await run(['--fixtures', dir, '--workers', '1', '--json']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).blocks[0].block_valid, true);
});

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
  assert.deepEqual([good.block_valid, good.coverage], [true, { p2pk: { inputs: 1, evaluated: 1, checks: 1, scriptBytes: 139 } }]);
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
    '0 invalid blocks'), text.stdout);
  assert.equal(lines.at(-2), 'FAILED BLOCKS (1):');
  assert.match(lines.at(-1), /^ {2}181 .*byte \d+/);
});

test('an invalid check of a failing input is counted apart from the trials valid scripts tolerate, exit 3', async () => {
  // 553724 with its P2WPKH spend's amount raised by 1: that input's BIP143 check fails, the block
  // is invalid. 403200 stays valid, with its 115 failed CHECKMULTISIG trials.
  const bumpAmount = (h, to) => {
    if (h !== 553724) return;
    const file = path.join(to, 'spent_outputs.json');
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    const k = doc.spent_outputs.findIndex((e) => /^0014[0-9a-f]{40}$/.test(e.script_pubkey));
    doc.spent_outputs[k].value += 1;
    writeFileSync(file, JSON.stringify(doc));
  };
  const dir = tempFixtures('bad-amount', [403200, 553724], bumpAmount);
  const json = await run(['--fixtures', dir, '--workers', '1', '--rounds', '1', '--json']);
  assert.equal(json.code, 3, json.stderr);
  const doc = JSON.parse(json.stdout);
  const bad = doc.blocks.find((b) => b.height === 553724);
  assert.equal(bad.block_valid, false);
  assert.deepEqual(bad.invalid_checks.map((c) => [c.tx, c.input]), [[bad.script_error.tx, bad.script_error.input]]);
  assert.deepEqual([doc.totals.invalid, doc.totals.invalid_in_valid_blocks, doc.totals.invalid_blocks], [116, 115, 1]);
  const totals = formatReport(doc).split('\n').find((l) => l.startsWith('totals: '));
  assert.ok(totals.includes('1,304 checks: 1,188 valid, 116 invalid: 115 in valid blocks (CHECKMULTISIG trials and other ' +
    'checks that valid scripts tolerate; Core performs them too), 1 in invalid block 553724 (checks of its failing input); ' +
    '1 invalid block'), totals);

  // The invalid block alone: no trial in sight, so none is claimed.
  const only = tempFixtures('bad-amount-only', [553724], bumpAmount);
  const text = await run(['--fixtures', only, '--workers', '1', '--rounds', '1']);
  assert.equal(text.code, 3, text.stderr);
  assert.ok(text.stdout.includes('\ntotals: 1 block (0 failed), 3 inputs (3 evaluated), 3 checks: 2 valid, 1 invalid, ' +
    'in invalid block 553724 (checks of its failing input); 1 invalid block\n'), text.stdout);
  assert.doesNotMatch(text.stdout, /tolerate/);
});

test('a block invalid by a rule with succeeding scripts lists no invalid check as a fault: its trials are counted apart, exit 3', async () => {
  // 403200 with every value spent from an earlier block 0 (its legacy sighashes do not cover
  // amounts; the outputs the block itself creates are the block's to say): tx 1 spends less than
  // it pays, bad-txns-in-belowout, while every script still succeeds, its 115 failed
  // CHECKMULTISIG trials included.
  const dir = tempFixtures('in-belowout', [403200], (h, to) => {
    const file = path.join(to, 'spent_outputs.json');
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    const own = new Set(blockTxids(readFileSync(path.join(to, 'block.raw'))));
    for (const e of doc.spent_outputs) if (!own.has(e.txid)) e.value = 0;
    writeFileSync(file, JSON.stringify(doc));
  });
  const json = await run(['--fixtures', dir, '--workers', '1', '--rounds', '1', '--json']);
  assert.equal(json.code, 3, json.stderr);
  const bad = JSON.parse(json.stdout).blocks[0];
  assert.deepEqual([bad.block_valid, bad.reject_reason, bad.stage, bad.tx], [false, 'bad-txns-in-belowout', 'CheckTxInputs', 1]);
  assert.deepEqual(bad.failed_inputs, []);
  assert.equal(bad.invalid_checks.length, 115);
  assert.ok(bad.invalid_checks.every((c) => !c.of_failed_input));
  const text = await run(['--fixtures', dir, '--workers', '1', '--rounds', '1']);
  assert.equal(text.code, 3, text.stderr);
  const tail = text.stdout.slice(text.stdout.indexOf('INVALID BLOCKS'));
  assert.doesNotMatch(tail, /invalid check \d+:/);
  assert.match(tail, /block 403200: 115 invalid checks of inputs whose scripts succeed \(CHECKMULTISIG trials/);
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
    `available heights: ${available.join(', ')}\n(npm start -- --help or node bench/cli/main.mjs --help for usage)\n`);

  const dir = tempFixtures('heights', [170, 181]);
  const own = await run(['--fixtures', dir, '--heights', '182', '--json']);
  assert.equal(own.code, 2);
  assert.equal(own.stdout, '');
  assert.match(own.stderr, new RegExp(`^error: --heights: 182 is not in the fixture manifest ${path.join(dir, 'manifest.json')}; available heights: 170, 181\\n`));
});

// The same bad input through the REAL validation path: the wasm BlockValidation class (what the
// main job runs), built from real fixture blocks. Each failure names the block hash, the tx
// index, the input index where one input is at fault, and the byte offset in block.raw.

const sha256d = (bytes) => createHash('sha256').update(createHash('sha256').update(bytes).digest()).digest();

const splice = (raw, at, len, insert) => Buffer.concat([raw.subarray(0, at), Buffer.from(insert), raw.subarray(at + len)]);

/** The BlockValidation failure object of a block that fails to load (status() and result() agree). */
function validationFailure(raw, json, hash, height) {
  const v = new engine.BlockValidation(new Uint8Array(raw), json, hash, height);
  try {
    const status = v.status();
    assert.equal(status.ok, false, 'the block must fail to load');
    assert.deepEqual(v.result(), status);
    assert.equal(v.pending().count, 0);
    return status;
  } finally {
    v.delete();
  }
}

const block24835 = () => readFileSync(fileOf(24835, 'block.raw'));
const spent24835 = () => readFileSync(fileOf(24835, 'spent_outputs.json'), 'utf8');

test('BlockValidation: truncated block.raw names block, tx, input and byte offset', () => {
  const res = validationFailure(block24835().subarray(0, 5000), spent24835(), entry(24835).hash, 24835);
  assert.deepEqual([res.blockHash, res.txIndex, res.inputIndex, res.byteOffset], [entry(24835).hash, 1, 40, 4954]);
  assert.equal(res.error, `scriptSig: CompactSize says 72 (at least 72 bytes), only 45 bytes left (at block ${entry(24835).hash}, tx 1, input 40, byte 4954)`);
});

test('BlockValidation: a CompactSize larger than what remains or non-canonical names its byte', () => {
  const raw = block24835();
  const { vin } = walkBlock(raw)[1];
  const big = validationFailure(splice(raw, vin[73].lenAt, 1, [0xfd, 0xff, 0xff]), spent24835(), entry(24835).hash, 24835);
  assert.deepEqual([big.blockHash, big.txIndex, big.inputIndex, big.byteOffset], [entry(24835).hash, 1, 73, vin[73].lenAt]);
  assert.match(big.reason, /^scriptSig: CompactSize says 65535 /);
  const nc = validationFailure(splice(raw, vin[3].lenAt, 1, [0xfd, vin[3].scriptLen, 0]), spent24835(), entry(24835).hash, 24835);
  assert.deepEqual([nc.blockHash, nc.txIndex, nc.inputIndex, nc.byteOffset], [entry(24835).hash, 1, 3, vin[3].lenAt]);
  assert.equal(nc.reason, `non-canonical CompactSize for scriptSig: 0xfd form holding ${vin[3].scriptLen}, which a shorter form holds`);
});

test('BlockValidation: a transaction count that does not match names the tx and byte offset', () => {
  const raw = block24835();
  assert.equal(raw[80], 2);
  const more = Buffer.from(raw);
  more[80] = 3;
  const m = validationFailure(more, spent24835(), entry(24835).hash, 24835);
  assert.deepEqual([m.blockHash, m.txIndex, m.inputIndex, m.byteOffset], [entry(24835).hash, 2, -1, raw.length]);
  assert.equal(m.reason, "transaction count mismatch: the count says 3 transactions but the block's data ends after 2");
  const fewer = Buffer.from(raw);
  fewer[80] = 1;
  const f = validationFailure(fewer, spent24835(), entry(24835).hash, 24835);
  assert.deepEqual([f.blockHash, f.txIndex, f.inputIndex, f.byteOffset], [entry(24835).hash, 1, -1, walkBlock(raw)[1].offset]);
  assert.match(f.reason, /trailing bytes after the last transaction: the transaction count says 1 /);
});

test('BlockValidation: a witness flag with no witness names the tx and the marker offset', () => {
  const raw = readFileSync(fileOf(553724, 'block.raw'));
  const txs = walkBlock(raw);
  assert.equal(txs.at(-1).end, raw.length);
  const t = txs.findIndex((tx, i) => i > 0 && tx.segwit);
  assert.ok(t > 0);
  const tx = txs[t];
  const emptied = splice(raw, tx.witnessAt, tx.witnessEnd - tx.witnessAt, new Array(tx.vin.length).fill(0));
  const res = validationFailure(emptied, readFileSync(fileOf(553724, 'spent_outputs.json'), 'utf8'), entry(553724).hash, 553724);
  assert.deepEqual([res.blockHash, res.txIndex, res.inputIndex, res.byteOffset], [entry(553724).hash, t, -1, tx.offset + 4]);
  assert.equal(res.reason, "superfluous witness record: witness flag set but every input's witness stack is empty");
});

test('BlockValidation: a missing or mismatched prevout names block, tx, input and the input\'s byte offset', () => {
  const { vin } = walkBlock(block24835())[1];
  const short = validationFailure(block24835(), editedSpent(24835, (list) => list.pop()), entry(24835).hash, 24835);
  assert.deepEqual([short.blockHash, short.txIndex, short.inputIndex, short.byteOffset], [entry(24835).hash, 1, 73, vin[73].offset]);
  assert.equal(short.reason, 'spent outputs list too short: 73 entries, no entry for this input');
  const wrong = validationFailure(block24835(), editedSpent(24835, (list) => { list[40].vout += 1; }), entry(24835).hash, 24835);
  assert.deepEqual([wrong.txIndex, wrong.inputIndex, wrong.byteOffset], [1, 40, vin[40].offset]);
  assert.match(wrong.reason, /^spent output entry 40 is for outpoint /);
});

/** 24835 with tx 1 input 0's scriptSig grown to 10,001 bytes and the merkle root recomputed. */
function oversizedScriptSig() {
  const raw = block24835();
  const txs = walkBlock(raw);
  const input = txs[1].vin[0];
  assert.ok(input.scriptLen < 0xfd);
  const script = Buffer.alloc(10001, 0x61);  // OP_NOPs after the real scriptSig
  raw.copy(script, 0, input.scriptStart, input.scriptStart + input.scriptLen);
  const rebuilt = splice(raw, input.lenAt, 1 + input.scriptLen, Buffer.concat([Buffer.from([0xfd, 10001 & 0xff, 10001 >> 8]), script]));
  const [tx0, tx1] = walkBlock(rebuilt);
  const root = sha256d(Buffer.concat([sha256d(rebuilt.subarray(tx0.offset, tx0.end)), sha256d(rebuilt.subarray(tx1.offset, tx1.end))]));
  root.copy(rebuilt, 36);
  const hash = Buffer.from(sha256d(rebuilt.subarray(0, 80))).reverse().toString('hex');
  return { raw: rebuilt, hash, inputOffset: input.offset };
}

test('BlockValidation: a scriptSig over 10,000 bytes makes the block invalid with SCRIPT_SIZE naming tx, input and byte', async () => {
  const { raw, hash, inputOffset } = oversizedScriptSig();
  // Mutated: its proof of work no longer holds, and this test's point is the script rule.
  const v = new engine.BlockValidation(new Uint8Array(raw), spent24835(), hash, 24835, { skipProofOfWork: true });
  try {
    assert.equal(v.status().ok, true);
    for (let p = v.pending(); p.count > 0; p = v.pending()) v.resolve(verifyChecks(engine, p.checks));
    const res = v.result();
    assert.equal(res.valid, false);
    assert.deepEqual([res.blockHash, res.txIndex, res.inputIndex, res.byteOffset, res.scriptError, res.inputType, res.failedInputs],
      [hash, 1, 0, inputOffset, 'SCRIPT_SIZE', 'p2pkh', 1]);
    assert.equal(res.error, `SCRIPT_ERR_SCRIPT_SIZE: tx 1 input 0 (p2pkh) fails its script in block ${hash} (input at byte ${inputOffset})`);
  } finally {
    v.delete();
  }
});

test('the main job reports the oversized scriptSig as an invalid block naming SCRIPT_SIZE, exit 3', async () => {
  const { raw, hash, inputOffset } = oversizedScriptSig();
  const dir = path.join(tmpRoot, 'script-size');
  const to = path.join(dir, 'mainnet', '24835');
  mkdirSync(to, { recursive: true });
  writeFileSync(path.join(to, 'block.raw'), raw);
  cpSync(fileOf(24835, 'spent_outputs.json'), path.join(to, 'spent_outputs.json'));
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ blocks: [{
    ...entry(24835), hash, block_raw_sha256: sha256(raw), spent_outputs_sha256: sha256(readFileSync(path.join(to, 'spent_outputs.json'))),
  }] }));
  const message = `SCRIPT_ERR_SCRIPT_SIZE: tx 1 input 0 (p2pkh) fails its script in block ${hash} (input at byte ${inputOffset})`;
  // Mutated: its proof of work no longer holds, and this test's point is the script rule.
  const json = await run(['--fixtures', dir, '--workers', '1', '--json', '--skip-proof-of-work']);
  assert.equal(json.code, 3, json.stderr);
  const doc = JSON.parse(json.stdout);
  assert.equal(doc.exit_code, 3);
  assert.equal(doc.blocks[0].block_valid, false);
  assert.deepEqual(doc.blocks[0].script_error, { tx: 1, input: 0, type: 'p2pkh', error: 'SCRIPT_SIZE', message });
  assert.deepEqual([doc.blocks[0].reject_reason, doc.blocks[0].stage, doc.blocks[0].tx, doc.blocks[0].input, doc.blocks[0].output],
    ['mandatory-script-verify-flag-failed', 'ConnectBlock', 1, 0, -1]);
  assert.ok(doc.blocks[0].not_checked.some((n) => n.rule === 'proof-of-work'));
  const text = await run(['--fixtures', dir, '--workers', '1', '--skip-proof-of-work']);
  assert.equal(text.code, 3);
  assert.ok(text.stdout.includes(`block 24835 ${hash}: ${message}`), text.stdout);
});

const MAKE_MANIFEST = path.join(REPO_ROOT, 'blocks-fixtures', 'make-manifest.mjs');
const makeManifest = (args) => promisify(execFile)(process.execPath, [MAKE_MANIFEST, ...args], { timeout: 60_000 })
  .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }), (err) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }));

/** A fixtures folder in tmp with copies of `heights` (block bytes through `alter(height, raw)`)
 *  and the manifest make-manifest.mjs writes for it. */
async function mutatedFixtures(name, heights, alter) {
  const dir = path.join(tmpRoot, name);
  for (const h of heights) {
    const to = path.join(dir, 'mainnet', String(h));
    mkdirSync(to, { recursive: true });
    writeFileSync(path.join(to, 'block.raw'), alter(h, readFileSync(fileOf(h, 'block.raw'))));
    cpSync(fileOf(h, 'spent_outputs.json'), path.join(to, 'spent_outputs.json'));
  }
  const made = await makeManifest(['--fixtures', dir, '--out', path.join(dir, 'manifest.json')]);
  assert.equal(made.code, 0, made.stderr);
  return dir;
}

/** The 2-transaction block `raw` (no witness) with its merkle root recomputed. */
function fixMerkleRoot2(raw) {
  const [tx0, tx1] = walkBlock(raw);
  sha256d(Buffer.concat([sha256d(raw.subarray(tx0.offset, tx0.end)), sha256d(raw.subarray(tx1.offset, tx1.end))])).copy(raw, 36);
  return raw;
}

test('the main job reports a block whose nonce was changed as invalid, high-hash in CheckBlockHeader, exit 3', async () => {
  const dir = await mutatedFixtures('nonce', [170, 181], (h, raw) => {
    if (h === 181) raw.writeUInt32LE((raw.readUInt32LE(76) + 1) >>> 0, 76);
    return raw;
  });
  const hash = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')).blocks[1].hash;
  const json = await run(['--fixtures', dir, '--workers', '1', '--rounds', '1', '--json']);
  assert.equal(json.code, 3, json.stderr);
  const doc = JSON.parse(json.stdout);
  const bad = doc.blocks[1];
  assert.deepEqual([bad.height, bad.hash, bad.error, bad.block_valid, bad.reject_reason, bad.stage, bad.tx, bad.input, bad.output],
    [181, hash, null, false, 'high-hash', 'CheckBlockHeader', -1, -1, -1]);
  assert.match(bad.reject_message, new RegExp(`^high-hash: proof of work failed: block hash ${hash} is above the target of nBits 0x1d00ffff`));
  assert.deepEqual([bad.fee, bad.subsidy, bad.sigop_cost, bad.script_error], [null, null, null, null]);
  // Rejected, it still says what was not checked; the proof of work was (and failed).
  const rules = bad.not_checked.map((n) => n.rule);
  assert.ok(rules.includes('expected-difficulty') && rules.includes('bip30'), rules.join());
  assert.ok(!rules.includes('proof-of-work'), rules.join());
  assert.deepEqual(doc.errors, []);
  assert.deepEqual(doc.invalid_blocks.map((b) => [b.height, b.reject_reason, b.stage]), [[181, 'high-hash', 'CheckBlockHeader']]);
  assert.equal(doc.blocks[0].block_valid, true);

  const text = await run(['--fixtures', dir, '--workers', '1', '--rounds', '1']);
  assert.equal(text.code, 3, text.stderr);
  assert.ok(text.stdout.includes('\n         rejected before any input was connected; block INVALID in CheckBlockHeader: ' +
    `high-hash: proof of work failed: block hash ${hash}`), text.stdout);
  assert.ok(text.stdout.includes(`\nINVALID BLOCKS on mainnet data (1):\n  block 181 ${hash}: high-hash: `), text.stdout);
  assert.doesNotMatch(text.stdout, /FAILED/);
});

test('a block invalid by a rule (coinbase raised by 1 sat) is invalid with bad-cb-amount at tx 0 output 0, exit 3; fees are shown', async () => {
  const dir = await mutatedFixtures('cb-amount', [170, 57043], (h, raw) => {
    if (h !== 170) return raw;
    const [tx0] = walkBlock(raw);
    const value = tx0.vin[0].scriptStart + tx0.vin[0].scriptLen + 4 + 1; // after the sequence and the output count
    raw.writeBigUInt64LE(raw.readBigUInt64LE(value) + 1n, value);
    return fixMerkleRoot2(raw);
  });
  // Mutated: the proof of work is skipped, the point is the amount rule.
  const json = await run(['--fixtures', dir, '--workers', '1', '--rounds', '1', '--json', '--skip-proof-of-work']);
  assert.equal(json.code, 3, json.stderr);
  const doc = JSON.parse(json.stdout);
  const [bad, good] = doc.blocks;
  assert.deepEqual([bad.block_valid, bad.reject_reason, bad.stage, bad.tx, bad.input, bad.output, bad.script_error, bad.fee, bad.subsidy],
    [false, 'bad-cb-amount', 'ConnectBlock', 0, -1, 0, null, 0, 5000000000]);
  assert.match(bad.reject_message, /^bad-cb-amount: .*tx 0 output 0/);
  assert.deepEqual([good.block_valid, good.reject_reason, good.stage, good.tx, good.input, good.output, good.fee, good.subsidy],
    [true, '', '', -1, -1, -1, 99000000, 5000000000]);
  assert.ok(good.sigop_cost > 0 && good.sigop_cost <= 80000);
  for (const b of doc.blocks) {
    assert.ok(b.not_checked.length > 0 && b.not_checked.every((n) => n.rule && n.reason), JSON.stringify(b.not_checked));
    assert.ok(b.not_checked.some((n) => n.rule === 'proof-of-work'), 'skipped: said so');
  }

  const text = await run(['--fixtures', dir, '--workers', '1', '--rounds', '1', '--skip-proof-of-work']);
  assert.equal(text.code, 3, text.stderr);
  assert.ok(text.stdout.includes(`\n         fee 99,000,000 sat, subsidy 5,000,000,000 sat, sigop cost ${good.sigop_cost.toLocaleString('en-US')} of 80,000\n`), text.stdout);
  assert.match(text.stdout, /block INVALID in ConnectBlock: bad-cb-amount: .*tx 0 output 0/);
  assert.match(text.stdout, /not checked \(docs\/validation\.md\): .*bip30/);
});

test('a --fixtures folder that does not exist is named as such, not sent to make a manifest in it, exit 1', async () => {
  const dir = path.join(tmpRoot, 'no-such-folder');
  const expected = `fixtures directory ${dir} does not exist (use --fixtures DIR or set IBD_FIXTURES)`;
  assert.throws(() => readManifest(dir), { message: expected });
  await assert.rejects(loadBlocks(dir), { message: expected });
  const r = await run(['--fixtures', dir, '--heights', '170']);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.ok(r.stderr.includes(`error: ${expected}`), r.stderr);
  assert.doesNotMatch(r.stderr, /make-manifest/);
});

test('a --fixtures folder without manifest.json is one error naming it and how to make one, exit 1', async () => {
  const dir = path.join(tmpRoot, 'no-manifest');
  mkdirSync(path.join(dir, 'mainnet', '170'), { recursive: true });
  for (const f of ['block.raw', 'spent_outputs.json']) cpSync(fileOf(170, f), path.join(dir, 'mainnet', '170', f));
  const expected = `fixtures folder ${dir} has no manifest.json, and is not laid out as the shared fixture set ` +
    `(index.json beside mainnet/), which the repo's blocks-fixtures/manifest.json describes; make one with: ` +
    `node blocks-fixtures/make-manifest.mjs --fixtures ${dir} --out ${path.join(dir, 'manifest.json')}`;
  assert.throws(() => readManifest(dir), { message: expected });
  await assert.rejects(loadBlocks(dir), { message: expected });
  const r = await run(['--fixtures', dir, '--workers', '1']);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, new RegExp(`error: ${expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  assert.doesNotMatch(r.stderr, /no fixture blocks found|missing/);
  // The default folder needs none of its own: the repo's manifest describes it; so does a folder
  // laid out as the shared set (index.json beside mainnet/), its files still checked.
  assert.equal(readManifest(FIXTURES).path, path.join(REPO_ROOT, 'blocks-fixtures', 'manifest.json'));
  cpSync(path.join(FIXTURES, 'index.json'), path.join(dir, 'index.json'));
  cpSync(path.join(FIXTURES, 'mainnet-chain'), path.join(dir, 'mainnet-chain'), { recursive: true });
  assert.equal(readManifest(dir).path, path.join(REPO_ROOT, 'blocks-fixtures', 'manifest.json'));
  const copy = await run(['--fixtures', dir, '--workers', '1', '--rounds', '1', '--heights', '170', '--json']);
  assert.equal(copy.code, 0, copy.stderr);
  assert.equal(JSON.parse(copy.stdout).blocks[0].block_valid, true);
});

test('make-manifest.mjs needs --out, writes only there (never the tracked manifest unless named), usage errors exit 2', async () => {
  const tracked = path.join(REPO_ROOT, 'blocks-fixtures', 'manifest.json');
  const before = readFileSync(tracked, 'utf8');
  const none = await makeManifest(['--fixtures', FIXTURES]);
  assert.equal(none.code, 2);
  assert.equal(none.stderr, 'make-manifest: --out FILE is required (e.g. --fixtures DIR --out DIR/manifest.json; ' +
    '--out blocks-fixtures/manifest.json rewrites the tracked manifest)\n');
  const unknown = await makeManifest(['--fixtures', FIXTURES, '--out', 'x', '--bogus']);
  assert.equal(unknown.code, 2);
  assert.equal(unknown.stderr.trimEnd().split('\n').length, 1, unknown.stderr);
  const out = path.join(tmpRoot, 'made-manifest.json');
  const made = await makeManifest(['--fixtures', FIXTURES, '--out', out]);
  assert.equal(made.code, 0, made.stderr);
  assert.equal(made.stderr, `wrote ${out}: 24 blocks, chain mainnet-chain/btcd-blocks1-255.dat (255 blocks)\n`);
  // The shared set's manifest made afresh is the tracked one, which stays untouched.
  assert.deepEqual(JSON.parse(readFileSync(out, 'utf8')), JSON.parse(before));
  assert.equal(readFileSync(tracked, 'utf8'), before);
});

test('a manifest height that its folder name contradicts is that block\'s error, not a verdict at the wrong height', async () => {
  const dir = tempFixtures('height-vs-folder', [170, 181]);
  const file = path.join(dir, 'manifest.json');
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  doc.blocks.find((b) => b.height === 170).height = 211000;
  writeFileSync(file, JSON.stringify(doc));
  const r = await run(['--fixtures', dir, '--workers', '1', '--rounds', '1', '--json']);
  const out = JSON.parse(r.stdout);
  assert.equal(r.code, 1, r.stderr);
  assert.ok(out.errors.some((e) => /dir mainnet\/170 names height 170, not the entry's 211000/.test(e.error)), JSON.stringify(out.errors));
  assert.deepEqual(out.invalid_blocks, []);
});
