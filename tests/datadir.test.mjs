// A Bitcoin Core datadir as a block source (blocks-fixtures/datadir/, issue 17): a blocks/
// folder written in Core's exact formats from the fixture data (support/write-datadir.mjs:
// obfuscated blk and rev files, blocks out of height order, preallocated zeros) is read back
// in height order along its active chain, and each block validated from its rev record gets
// the same verdict, checks and sighash counts as from its spent_outputs.json. Damaged files
// are errors naming the file and byte, or the block and height.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, unlinkSync, writeFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { openDatadir } from '../blocks-fixtures/datadir/datadir.mjs';
import { datadirFiles, hash256 } from '../blocks-fixtures/datadir/node-files.mjs';
import { fixturesDir, loadBlocks, loadChain } from '../blocks-fixtures/loader.mjs';
import { loadEngine } from '../wasm/engine.mjs';
import { REPO_ROOT } from '../wasm/paths.mjs';
import { fixtureChain, obfuscated, record, undoBody, writeDatadir, XOR_KEY } from './support/write-datadir.mjs';
import { createPool } from '../workers/pool.mjs';
import { validateRange } from '../bench/core/range-stream.mjs';
import { verdictOf } from './support/block-source.mjs';

const engine = await loadEngine('simd');
let work;
let written;

before(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'ibd-datadir-'));
  written = await writeDatadir(work, fixturesDir());
});
after(() => rmSync(work, { recursive: true, force: true }));

const open = (dir = work) => openDatadir(datadirFiles(dir), { hash256 });

test('the datadir is read in height order along its active chain, whatever the files\' order and obfuscation', async () => {
  const d = await open();
  assert.deepEqual(d.partial, []);
  assert.equal(d.unplaced, 0);
  assert.equal(d.heights.first, 0);
  assert.equal(d.tip.height, Math.max(...written.fixtureHeights));
  const genesis = await d.read(0);
  assert.equal(genesis.hash, '000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f');
  assert.equal(genesis.undo, null);
  let prev = genesis.hash;
  let valid = 0;
  for (let h = 1; h <= 255; h++) {
    const b = await d.read(h);
    assert.equal(Buffer.from(b.block.subarray(4, 36)).reverse().toString('hex'), prev, `height ${h} links to ${h - 1}`);
    prev = b.hash;
    const r = engine.validateBlock(b.block, b.undo, b.hash, h, undefined);
    assert.equal(r.ok && r.valid, true, `height ${h}: ${r.error}`);
    valid++;
  }
  assert.equal(valid, 255);
  assert.equal(prev, (await loadChain(fixturesDir())).lastHash, 'the tip of 1-255 is the manifest\'s last chain block');
});

test('from the rev records, the same verdicts, checks and sighashes as from spent_outputs.json', async () => {
  const d = await open();
  const fixtures = (await loadBlocks(fixturesDir())).filter((f) => f.block && (f.height <= 255 || written.fixtureHeights.includes(f.height)));
  assert.ok(fixtures.length >= 15, `${fixtures.length} fixture blocks in the datadir`);
  for (const f of fixtures) {
    const b = await d.read(f.height);
    assert.equal(b.hash, f.hash, `height ${f.height}`);
    assert.deepEqual(Buffer.from(b.block), Buffer.from(f.block));
    const fromUndo = engine.validateBlock(b.block, b.undo, f.hash, f.height, undefined);
    const fromJson = engine.validateBlock(f.block, f.spentOutputsJson, f.hash, f.height, undefined);
    assert.deepEqual(verdictOf(fromUndo), verdictOf(fromJson), `height ${f.height}`);
    assert.equal(fromUndo.valid, true, `height ${f.height}: ${fromUndo.error}`);
  }
});

/** A copy of the written datadir, changed by `change(blocksDir)`. */
function damaged(change) {
  const dir = mkdtempSync(path.join(work, 'damaged-'));
  for (const f of ['blk00000.dat', 'rev00000.dat', 'blk00001.dat', 'rev00001.dat', 'xor.dat']) {
    copyFileSync(path.join(written.blocks, f), path.join(dir, f));
  }
  change(dir);
  return dir;
}

test('bad datadirs: a wrong XOR key, a block still being written, a missing or damaged rev file, a height it does not hold', async () => {
  // A wrong key: the first record's message start does not read as mainnet's.
  let dir = damaged((b) => writeFileSync(path.join(b, 'xor.dat'), Buffer.alloc(8, 1)));
  await assert.rejects(open(dir), /blk00000\.dat at byte 0: message start [0-9a-f ]+ is not mainnet's f9 be b4 d9 \(a wrong or missing XOR key/);
  dir = damaged((b) => writeFileSync(path.join(b, 'xor.dat'), Buffer.alloc(5)));
  await assert.rejects(open(dir), /xor\.dat: 5 bytes, not the 8 of an obfuscation key/);

  // The tip's block cut short (its preallocated zeros too): named and skipped, the rest read.
  dir = damaged((b) => {
    const f = path.join(b, 'blk00001.dat');
    truncateSync(f, statSync(f).size - 4096 - 100);
  });
  let d = await open(dir);
  assert.equal(d.partial.length, 1);
  assert.match(d.partial[0], /^blk00001\.dat at byte \d+: a block record of \d+ bytes with \d+ written \(a block the node is still writing; skipped\)/);
  assert.ok(d.tip.height < Math.max(...written.fixtureHeights));

  // An older blk file cut short (blk00001.dat exists): no node is writing there, so it is damage,
  // not a block being written; the run over the default range, which ends at the cut, exits 1.
  dir = damaged((b) => truncateSync(path.join(b, 'blk00000.dat'), 30000));
  d = await open(dir);
  assert.deepEqual(d.partial, []);
  assert.equal(d.damaged.length, 1);
  assert.match(d.damaged[0], /^blk00000\.dat at byte \d+: a block record of \d+ bytes with \d+ written, cut by the end of the file: only the newest blk file \(blk00001\.dat\) can hold a block the node is still writing, so this file is cut short/);
  const cut = mainJob(['--datadir', dir, '--workers', '1', '--json']);
  assert.equal(cut.code, 1, cut.stderr);
  assert.equal(cut.doc.totals.valid, cut.doc.range.to);
  assert.match(cut.doc.skipped.join('\n'), /^DAMAGED: blk00000\.dat at byte \d+: a block record/m);
  assert.match(cut.stderr, /DAMAGED: blk00000\.dat at byte/);
  assert.doesNotMatch(cut.stderr, /skipped: blk00000/);

  // A missing rev file: the blocks of its blk file cannot be validated, and say why.
  dir = damaged((b) => unlinkSync(path.join(b, 'rev00000.dat')));
  d = await open(dir);
  await assert.rejects(d.read(170), /block 00000000d1145790a8694403d4063f323d499e655c83426834d4ce2f8dd4a2ee: its undo data file rev00000\.dat is missing/);

  // A damaged byte inside block 170's undo record: no record has its checksum.
  dir = damaged((b) => {
    const f = path.join(b, 'rev00000.dat');
    const bytes = readFileSync(f);
    // Records of blocks 1..169 hold 1 byte of undo data each (no spend): 41 bytes apiece.
    const at = 169 * 41 + 8 + 10;
    bytes[at] ^= 0x01;
    writeFileSync(f, bytes);
  });
  d = await open(dir);
  await assert.rejects(d.read(170), /block 00000000d1145790a8694403d4063f323d499e655c83426834d4ce2f8dd4a2ee: no undo record in rev00000\.dat \(255 records\) has its checksum/);
  assert.equal((await d.read(169)).height, 169, 'the other blocks still read');

  // A height the files do not hold.
  d = await open();
  await assert.rejects(d.read(300), /height 300: no block at this height in the datadir's blk files \(pruned, not yet downloaded, or past the tip\): the files hold heights 0 to 255, 277647, 300025, 367891, 403200, 478558, 542213, 553724, and 2 more runs$/);
  assert.equal(XOR_KEY.length, 8);
});

test('rev records through a pool of workers: a block split into ranges gets the verdict of the single-threaded run', async () => {
  const { createPool, validateBlock } = await import('../workers/package/index-node.mjs');
  const d = await open();
  const pool = createPool({ workers: 2 });
  try {
    for (const height of [170, Math.max(...written.fixtureHeights)]) {
      const b = await d.read(height);
      const inPool = await validateBlock(b.block, b.undo, { height, hash: b.hash, pool });
      const alone = engine.validateBlock(b.block, b.undo, b.hash, height, undefined);
      assert.equal(inPool.valid, true, `height ${height}: ${inPool.error}`);
      assert.deepEqual(
        [inPool.inputs, inPool.fee, Buffer.from(inPool.verdicts).toString('hex'), Buffer.from(inPool.checks).toString('hex')],
        [alone.inputs, alone.fee, Buffer.from(alone.verdicts).toString('hex'), Buffer.from(alone.checks).toString('hex')], `height ${height}`);
    }
  } finally {
    await pool.close();
  }
});

/** `npm start -- --datadir ...` (bench/cli/main.mjs) as a user runs it: its exit code and JSON. */
function mainJob(args) {
  const r = spawnSync(process.execPath, [path.join(REPO_ROOT, 'bench', 'cli', 'main.mjs'), ...args], { encoding: 'utf8', timeout: 300000 });
  return { code: r.status, stderr: r.stderr, doc: r.stdout.trim().startsWith('{') ? JSON.parse(r.stdout) : null, stdout: r.stdout };
}

test('npm start --datadir: a range streamed through the workers, its verdicts and figures; a read error keeps what came before', async () => {
  let r = mainJob(['--datadir', work, '--from', '1', '--to', '255', '--workers', '2', '--json']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.doc.range, { from: 1, to: 255 });
  assert.deepEqual({ ...r.doc.totals, bytes_read: undefined }, { blocks: 255, valid: 255, invalid: 0, failed: 0, inputs: 7, checks: 7, bytes_read: undefined });
  assert.deepEqual(r.doc.blocks.filter((b) => b.inputs > 0).map((b) => b.height), [170, 181, 182, 183, 187, 221, 248]);
  assert.equal(r.doc.source.obfuscated, true);
  for (const k of ['blocks_per_second', 'inputs_per_second', 'read_bytes_per_second']) assert.ok(r.doc.figures[k] > 0, k);
  assert.ok(r.doc.figures.wait_share >= 0 && r.doc.figures.wait_share <= 1);
  assert.equal(r.doc.read_error, null);

  // The newest fixture block alone, found under its BIP34 height.
  const tip = Math.max(...written.fixtureHeights);
  r = mainJob(['--datadir', path.join(work, 'blocks'), '--from', String(tip), '--workers', '2', '--json']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.doc.totals.valid, 1);
  assert.equal(r.doc.blocks[0].inputs, 7972);

  // A damaged undo record at 170: the blocks before it validated and reported, the error named.
  const dir = damaged((b) => {
    const f = path.join(b, 'rev00000.dat');
    const bytes = readFileSync(f);
    bytes[169 * 41 + 8 + 10] ^= 0x01;
    writeFileSync(f, bytes);
  });
  r = mainJob(['--datadir', dir, '--from', '100', '--to', '200', '--workers', '2', '--json']);
  assert.equal(r.code, 1, r.stderr);
  assert.equal(r.doc.totals.valid, 70);
  assert.equal(r.doc.read_error.height, 170);
  assert.match(r.doc.read_error.message, /no undo record in rev00000\.dat/);
  r = mainJob(['--datadir', dir, '--from', '100', '--to', '200', '--workers', '2']);
  assert.match(r.stdout, /READ ERROR at height 170: block 00000000d1145790a8694403d4063f323d499e655c83426834d4ce2f8dd4a2ee: no undo record/);

  // Flags: --from needs --datadir; --datadir takes no --fixtures.
  assert.equal(mainJob(['--from', '5']).code, 2);
  assert.equal(mainJob(['--datadir', work, '--fixtures', work]).code, 2);
  assert.match(mainJob(['--datadir', path.join(work, 'nothing-here')]).stderr, /nothing-here: no such folder \(a Bitcoin Core datadir, or its blocks\/ folder, is expected\)/);
});

test('npm start --datadir --save: the range written as fixture folders with a manifest, replayed offline with --fixtures', async () => {
  // Never into the node's datadir.
  let r = mainJob(['--datadir', work, '--from', '165', '--to', '166', '--workers', '2', '--save', path.join(work, 'saved')]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /--save .*saved: inside the node's datadir/);
  const saved = path.join(mkdtempSync(path.join(os.tmpdir(), 'ibd-saved-')), 'set');
  r = mainJob(['--datadir', work, '--from', '165', '--to', '190', '--workers', '2', '--save', saved, '--json']);
  assert.equal(r.code, 0, r.stderr);
  const manifest = JSON.parse(readFileSync(path.join(saved, 'manifest.json'), 'utf8'));
  assert.deepEqual(manifest.blocks.map((b) => b.height), Array.from({ length: 26 }, (_, i) => 165 + i));
  // Block 170's spent outputs as the shared fixture set gives them.
  const mine = JSON.parse(readFileSync(path.join(saved, 'mainnet', '170', 'spent_outputs.json'), 'utf8'));
  const theirs = JSON.parse(readFileSync(path.join(fixturesDir(), 'mainnet', '170', 'spent_outputs.json'), 'utf8'));
  assert.deepEqual(mine.spent_outputs, theirs.spent_outputs);
  assert.equal(mine.block_hash, theirs.block_hash);
  // Replayed offline: every block valid, 170's checks as from the datadir.
  // Replayed with enough rounds to count as a measurement, its blocks still set no costs (no
  // Schnorr check, no block with 100 checks): the last measurement is not replaced.
  r = mainJob(['--fixtures', saved, '--rounds', '5', '--workers', '2']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /measurement not saved for npm run project \(no Schnorr check among its blocks: no Schnorr verify rate\); it keeps projecting from the last full run/);
  r = mainJob(['--fixtures', saved, '--rounds', '1', '--workers', '2', '--json']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.doc.blocks.length, 26);
  assert.equal(r.doc.blocks.every((b) => b.block_valid === true), true);
  assert.equal(mainJob(['--save', saved]).code, 2, '--save needs a node source');
  // A folder that already holds a set is refused, not merged into.
  r = mainJob(['--datadir', work, '--from', '165', '--to', '166', '--workers', '2', '--save', saved]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /--save .*: not empty/);
  rmSync(path.dirname(saved), { recursive: true, force: true });
});

test('hostile datadirs: an early coinbase is no BIP34 height; a damaged or zeroed record mid-file stops that file there, named', async () => {
  const { coinbaseHeight } = await import('../blocks-fixtures/datadir/chain-order.mjs');
  const { GENESIS_HEX } = await import('./support/write-datadir.mjs');
  const genesis = Buffer.from(GENESIS_HEX, 'hex');
  assert.equal(coinbaseHeight(genesis), null, 'version 1: no BIP34');
  const v2 = Buffer.from(genesis);
  v2[0] = 2; // still "04 ffff001d": a push of nBits, not of a height
  assert.equal(coinbaseHeight(v2), null);
  const modern = (await loadBlocks(fixturesDir(), { heights: [866342] }))[0].block;
  assert.equal(coinbaseHeight(modern.subarray(0, 200)), 866342);

  const flip = (file, at, mask) => (b) => {
    const f = path.join(b, file);
    const bytes = readFileSync(f);
    bytes[at] ^= mask;
    writeFileSync(f, bytes);
  };
  // The 101st record of blk00000 (records there are genesis and then 1-255, pairs swapped;
  // each of blocks 1-255 is 215 or 216 bytes with its frame): find it by walking the frames.
  const { listRecords } = await import('../blocks-fixtures/datadir/core-files.mjs');
  const files = datadirFiles(work);
  const { records } = await listRecords(files.blk[0], XOR_KEY, 'blk');
  await files.close();
  const at = records[101].offset;
  let d = await open(damaged(flip('blk00000.dat', at, 0x11)));
  assert.equal(d.damaged.length, 1);
  assert.match(d.damaged[0], new RegExp(`^blk00000\\.dat at byte ${at}: message start [0-9a-f ]+ is not mainnet's f9 be b4 d9 \\(the record before it, at byte ${records[100].offset}, may have a wrong size field\\); the file's blocks after it are not read$`));
  assert.equal((await d.read(90)).height, 90, 'the blocks before it still read');
  await assert.rejects(d.read(150), /height 150: no block at this height .*damaged: blk00000\.dat at byte/);
  // Zeros where blk00001's first record was, data after them: damage, not the end of the file.
  d = await open(damaged((b) => {
    const f = path.join(b, 'blk00001.dat');
    const bytes = readFileSync(f);
    bytes.fill(0, 0, 8);
    writeFileSync(f, bytes);
  }));
  assert.match(d.damaged[0], /^blk00001\.dat at byte 0: zero bytes up to byte 8, then data again: a damaged blk file/);
  assert.equal(d.tip.height, 255);
});

test('a forged fork claiming more work than the chain, without the proof of work, is left out and named', async () => {
  // Block 200's header re-parented on block 150 with nBits 0x1b0404cb (a 2010 difficulty: more
  // work than 105 blocks at 0x1d00ffff), appended to blk00000 with Core's framing: its hash is
  // far above that target. Trusted for its nBits alone, it would become the tip at height 151.
  const { listRecords } = await import('../blocks-fixtures/datadir/core-files.mjs');
  const files = datadirFiles(work);
  const d = await openDatadir(files, { hash256 });
  const b150 = await d.read(150);
  const b200 = await d.read(200);
  const at = (await listRecords(files.blk[0], XOR_KEY, 'blk')).end; // where the file's records end
  await files.close();
  const forged = Buffer.from(b200.block);
  Buffer.from(b150.hash, 'hex').reverse().copy(forged, 4);
  forged.writeUInt32LE(0x1b0404cb, 72);
  const hash = Buffer.from(hash256(forged.subarray(0, 80))).reverse().toString('hex');
  const dir = damaged((b) => {
    const f = path.join(b, 'blk00000.dat');
    const bytes = readFileSync(f);
    const record = Buffer.concat([Buffer.from([0xf9, 0xbe, 0xb4, 0xd9, 0, 0, 0, 0]), forged]);
    record.writeUInt32LE(forged.length, 4);
    for (let i = 0; i < record.length; i++) record[i] ^= XOR_KEY[(at + i) % 8];
    writeFileSync(f, Buffer.concat([bytes.subarray(0, at), record]));
  });
  const opened = await open(dir);
  assert.equal(opened.tip.height, Math.max(...written.fixtureHeights));
  assert.equal((await opened.read(151)).hash, (await open().then((x) => x.read(151))).hash);
  assert.deepEqual(opened.damaged, [`blk00000.dat at byte ${at}: block ${hash} is above the target of its own nBits 1b0404cb ` +
    '(no proof of work: Core never stores such a block); left out of the chain']);
});

/** Validates heights from..to of the datadir `dir` in a 2-worker pool (range-stream.mjs). */
async function validateDir(dir, from, to) {
  const files = datadirFiles(dir);
  const pool = createPool({ workers: 2 });
  try {
    await pool.ready();
    return await validateRange(await openDatadir(files, { hash256 }), pool, { from, to });
  } finally {
    await pool.close();
    await files.close();
  }
}

test('after a reorganization: another undo record with the same previous block is passed over, the block valid and the record used named', async () => {
  // Core's layout after a one-block reorganization at 170: the record of the rival it connected
  // first (its coins: 170's, 10 BTC less) is stored just before 170's own. Both checksums
  // match (the checksum covers the previous block's hash and the undo data only).
  const { chain } = await fixtureChain(fixturesDir());
  const prev170 = chain[170].block.subarray(4, 36);
  const rival = record(undoBody(chain[170].txUndos.map((coins) => coins.map((c) => ({ ...c, value: c.value - 1_000_000_000n })))), prev170);
  const dir = damaged((b) => writeFileSync(path.join(b, 'rev00000.dat'), obfuscated(chain.slice(1).flatMap((blk) => [
    ...(blk.height === 170 ? [rival] : []), record(undoBody(blk.txUndos), blk.block.subarray(4, 36))]))));
  const run = await validateDir(dir, 168, 172);
  assert.deepEqual(run.blocks.map((b) => [b.height, b.valid]), [[168, true], [169, true], [170, true], [171, true], [172, true]]);
  const b170 = run.blocks.find((b) => b.height === 170);
  assert.match(b170.note, /^validated from its undo record at rev00000\.dat byte \d+, one of 2 with its checksum \(a block disconnected in a reorganization left the others\); the first read did not validate: /);
  assert.equal(b170.rev_file, 'rev00000.dat');
});

test('a block stored twice whose first copy is damaged: validated from its other copy, said', async () => {
  // Block 200's body zeroed after its header in blk00000, an intact copy appended to the file.
  const { chain } = await fixtureChain(fixturesDir());
  const broken = Buffer.from(chain[200].block);
  broken.fill(0, 81);
  const order = chain.map((_, h) => h);
  for (let h = 1; h + 1 < order.length; h += 2) [order[h], order[h + 1]] = [order[h + 1], order[h]];
  const dir = damaged((b) => writeFileSync(path.join(b, 'blk00000.dat'), obfuscated([
    ...order.map((h) => record(h === 200 ? broken : chain[h].block)), record(chain[200].block)])));
  const run = await validateDir(dir, 199, 201);
  assert.deepEqual(run.blocks.map((b) => [b.height, b.valid]), [[199, true], [200, true], [201, true]]);
  assert.match(run.blocks[1].note, /^validated from its copy at blk00000\.dat byte \d+ \(the block is stored more than once; the first copy did not validate\)/);
  // And with no intact copy the block is not judged, its files and byte offsets named.
  const alone = damaged((b) => writeFileSync(path.join(b, 'blk00000.dat'), obfuscated(order.map((h) => record(h === 200 ? broken : chain[h].block)))));
  const [, b200] = (await validateDir(alone, 199, 200)).blocks;
  assert.equal(b200.valid === true, false);
  assert.match(b200.error, /\(block at blk00000\.dat byte \d+, undo record at rev00000\.dat byte \d+\)$/);
});

test('a stored block that fails CheckBlock is DAMAGED (exit 1), not an invalid mainnet block; one that fails CheckTxInputs stays INVALID (exit 3)', async () => {
  // Block 100's coinbase output script with one byte flipped (its header kept): the merkle root
  // no longer matches, which no block Core stored can show (AcceptBlock runs CheckBlock first).
  const { chain } = await fixtureChain(fixturesDir());
  const flipped = Buffer.from(chain[100].block);
  flipped[flipped.length - 10] ^= 0x01;
  const order = chain.map((_, h) => h);
  for (let h = 1; h + 1 < order.length; h += 2) [order[h], order[h + 1]] = [order[h + 1], order[h]];
  const dir = damaged((b) => writeFileSync(path.join(b, 'blk00000.dat'), obfuscated(order.map((h) => record(h === 100 ? flipped : chain[h].block)))));
  let r = mainJob(['--datadir', dir, '--from', '99', '--to', '101', '--workers', '1', '--json']);
  assert.equal(r.code, 1, r.stderr);
  assert.deepEqual(r.doc.blocks.map((b) => [b.height, b.valid, b.damaged]), [[99, true, false], [100, null, true], [101, true, false]]);
  const b100 = r.doc.blocks[1];
  assert.deepEqual([b100.stage, b100.reject_reason], ['CheckBlock', 'bad-txnmrklroot']);
  assert.match(b100.error, /^bad-txnmrklroot: .*\(block at blk00000\.dat byte \d+, undo record at rev00000\.dat byte \d+\); damaged: Bitcoin Core writes a block to disk only once it passed CheckBlock \(validation\.cpp AcceptBlock\), so the block stored in blk00000\.dat is not the one the node accepted: the file is damaged or was altered$/);
  assert.deepEqual([r.doc.totals.valid, r.doc.totals.invalid, r.doc.totals.failed], [2, 0, 1]);
  r = mainJob(['--datadir', dir, '--from', '100', '--to', '100', '--workers', '1']);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stdout, /: 0 valid, 0 invalid, 1 not judged \(1 DAMAGED\);/);
  assert.match(r.stdout, new RegExp(`\n  block 100 ${chain[100].hash}: DAMAGED, bad-txnmrklroot: `));
  // Block 170's only undo record with each coin 10 BTC short (its checksum made to match): the
  // block fails CheckTxInputs, which Core checks only when it connects a block it has stored.
  const prev170 = chain[170].block.subarray(4, 36);
  const short = record(undoBody(chain[170].txUndos.map((coins) => coins.map((c) => ({ ...c, value: c.value - 1_000_000_000n })))), prev170);
  const invalid = damaged((b) => writeFileSync(path.join(b, 'rev00000.dat'), obfuscated(chain.slice(1).map((blk) => (blk.height === 170 ? short
    : record(undoBody(blk.txUndos), blk.block.subarray(4, 36)))))));
  r = mainJob(['--datadir', invalid, '--from', '170', '--to', '170', '--workers', '1', '--json']);
  assert.equal(r.code, 3, r.stderr);
  assert.deepEqual([r.doc.blocks[0].valid, r.doc.blocks[0].damaged, r.doc.blocks[0].stage, r.doc.blocks[0].reject_reason], [false, false, 'CheckTxInputs', 'bad-txns-in-belowout']);
});

test('entries named like block files that are no file are named and left out; --save refuses the datadir through a link; --to past the tip is named', async () => {
  const { mkdirSync, symlinkSync } = await import('node:fs');
  const { runNodeSource } = await import('../bench/cli/node-source.mjs');
  const dir = damaged((b) => {
    mkdirSync(path.join(b, 'blk00002.dat'));
    symlinkSync(path.join(b, 'nowhere'), path.join(b, 'blk00003.dat'));
    symlinkSync('/dev/zero', path.join(b, 'blk00004.dat'));
  });
  const files = datadirFiles(dir);
  assert.deepEqual(files.ignored, ['blk00002.dat: a folder, not a file; ignored', 'blk00003.dat: a link to nothing; ignored',
    'blk00004.dat: a device, not a file; ignored']);
  assert.equal(files.blk.length, 2);
  await files.close();
  const file = path.join(dir, 'blk00000.dat');
  assert.throws(() => datadirFiles(file), new RegExp(`^Error: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: a file, not a folder`));
  // The datadir reached through a symbolic link, --save given by the datadir's real path.
  const link = path.join(work, 'link-to-damaged');
  symlinkSync(path.dirname(dir), link);
  const options = { datadir: path.join(link, path.basename(dir)), workers: 1, variant: 'simd', from: 1, to: 2 };
  await assert.rejects(runNodeSource({ ...options, save: path.join(dir, 'out') }, () => {}), /--save .*: inside the node's datadir \(.*\), which is never written/);
  assert.equal(readdirSync(dir).includes('out'), false);
  await assert.rejects(runNodeSource({ ...options, to: 999999 }, () => {}), /^Error: --to 999999 is past the tip of the files in .*, height 866342$/);
});
