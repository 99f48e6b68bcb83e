// The page's "your node's block files" source in Debian's Chromium (playwright-core,
// bench/shared/chromium-launcher.mjs): a Bitcoin Core datadir written in Core's exact formats
// (support/write-datadir.mjs: obfuscated, blocks out of height order, preallocated zeros) picked
// as a folder (the webkitdirectory input, the datadir itself: its blocks/ is found), as files
// (the multiple input), dropped (a drop event carrying the files), and through a directory handle
// (showDirectoryPicker's dialog replaced by a handle to a copy in the origin-private file
// system: real handles, no dialog; files the node grows after the pick are read again through
// their handles), validated in the page's Web Workers; every block's hash,
// verdict, inputs and checks equal the Node path's (openDatadir over node-files.mjs and
// validateRange in a worker_threads pool). Bad input: a damaged undo record (the blocks before
// it reported, the error naming the block and file), a block still being written, a missing
// rev file, a wrong XOR key, no blk file, no Web Crypto. No timing is asserted.
//
// A folder dragged from the desktop reaches the page as FileSystemDirectoryEntry objects, which
// no script can make (a synthetic drop carries files only): the folder walk (readEntries in
// batches until an empty one, the blocks/ descent) is checked with stand-in entries of the same
// interface over the real File objects.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fixturesDir } from '../blocks-fixtures/loader.mjs';
import { openDatadir } from '../blocks-fixtures/datadir/datadir.mjs';
import { datadirFiles, hash256 } from '../blocks-fixtures/datadir/node-files.mjs';
import { validateRange } from '../bench/core/range-stream.mjs';
import { createPool } from '../workers/pool.mjs';
import { startServer } from '../web/server.mjs';
import { BROWSER_ARTIFACTS, browserUnavailable, launchChromium } from '../bench/shared/chromium-launcher.mjs';
import { writeDatadir } from './support/write-datadir.mjs';

const skip = browserUnavailable() ?? false;
const RUN_TIMEOUT_MS = 60_000;
const FILES = ['blk00000.dat', 'rev00000.dat', 'blk00001.dat', 'rev00001.dat', 'xor.dat'];
const BLOCK_170 = '00000000d1145790a8694403d4063f323d499e655c83426834d4ce2f8dd4a2ee';

let work;
let written;
let tip;
let browser;
let server;
/** The Node path's blocks: heights 1-255 and the tip, by height. */
const reference = new Map();

before(async () => {
  if (skip) return;
  work = mkdtempSync(path.join(os.tmpdir(), 'ibd-browser-node-files-'));
  written = await writeDatadir(path.join(work, 'datadir'), fixturesDir());
  tip = Math.max(...written.fixtureHeights);
  const files = datadirFiles(path.join(work, 'datadir'));
  const pool = createPool({ workers: 2 });
  try {
    const source = await openDatadir(files, { hash256 });
    for (const [from, to] of [[1, 255], [tip, tip]]) {
      const run = await validateRange(source, pool, { from, to });
      assert.equal(run.readError, null);
      for (const b of run.blocks) reference.set(b.height, b);
    }
  } finally {
    await pool.close();
    await files.close();
  }
  server = await startServer({ port: 0, isolation: true });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** What a block's entry must share with the Node path's: identity, verdict and counts. */
const blockOf = (b) => ({ height: b.height, hash: b.hash, bytes: b.bytes, valid: b.valid, reject_reason: b.reject_reason,
  error: b.error, inputs: b.inputs, ecdsa: b.ecdsa, schnorr: b.schnorr });
const expected = (from, to) => [...reference.values()].filter((b) => b.height >= from && b.height <= to).sort((a, b) => a.height - b.height).map(blockOf);

/** The page in a new tab, set to the node files' source and 2 workers. Page errors are collected;
 *  `init` runs in the tab before the page's own scripts. */
async function openPage(init) {
  const page = await browser.context.newPage();
  if (init) await page.addInitScript(init);
  page.pageErrors = [];
  page.on('pageerror', (err) => page.pageErrors.push(err.message));
  await page.goto(server.url);
  await page.locator('#blocks input').first().waitFor();
  await page.check('input[name="source"][value="node"]');
  await page.selectOption('#workers', '2');
  return page;
}

/** Waits until the pick's summary is settled, and returns it. */
async function pickedText(page) {
  await page.waitForFunction(() => !/^(reading the folder…|Nothing picked yet\.)$/.test(document.querySelector('#picked').textContent));
  return page.locator('#picked').innerText();
}

/** Sets the range, clicks Validate blocks, waits for the end; returns the state, the error panels and (when done) the downloaded document. */
async function run(page, from, to) {
  await page.fill('#from-height', from === undefined ? '' : String(from));
  await page.fill('#to-height', to === undefined ? '' : String(to));
  await page.click('#run');
  await page.waitForFunction(() => ['done', 'failed'].includes(document.body.dataset.run), null, { timeout: RUN_TIMEOUT_MS });
  const state = await page.evaluate(() => document.body.dataset.run);
  const errors = await page.locator('.error-panel').allInnerTexts();
  if (state !== 'done') return { state, errors };
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
  return { state, errors, doc: JSON.parse(readFileSync(await download.path(), 'utf8')) };
}

/** Asserts a clean run of heights from..to: every block as the Node path's, in the table and the report. */
async function assertRange(page, { state, errors, doc }, from, to, folder) {
  assert.equal(state, 'done', errors.join(' | '));
  assert.deepEqual(errors, []);
  assert.deepEqual(doc.blocks.map(blockOf), expected(from, to));
  assert.deepEqual(doc.range, { from, to });
  assert.equal(doc.exit_code, 0);
  assert.equal(doc.read_error, null);
  assert.deepEqual(doc.skipped, []);
  assert.deepEqual({ ...doc.source, tip: doc.source.tip.height }, { kind: 'datadir', picked: true, folder, obfuscated: true, tip, unplaced_blocks: 0, stale_blocks: 0 });
  assert.equal(doc.figures.workers, 2);
  assert.equal(doc.environment.transport, 'shared');
  const rows = page.locator('#range-table tbody tr');
  assert.equal(await rows.count(), doc.blocks.length);
  const report = await page.locator('#range-report').innerText();
  assert.match(report, new RegExp(`^ibd-wasm: Bitcoin Core block files picked in the page \\(${folder.replace(/[()]/g, '\\$&')}\\) \\(obfuscated, xor\\.dat\\), active chain tip ${tip} `));
  assert.match(report, new RegExp(`heights ${from} to ${to}: ${doc.blocks.length} blocks? validated in 2 workers: ${doc.blocks.length} valid, 0 invalid, 0 not judged`));
}

test('the datadir picked as a folder: its blocks/ found, heights 1-255 and the tip validated in the page, each block as the Node path gives it', { skip, timeout: 120_000 }, async () => {
  // Every read the page makes of a file's bytes, by size: a slice, never a picked File whole.
  const page = await openPage(() => {
    const arrayBuffer = Blob.prototype.arrayBuffer;
    window.fileReads = [];
    Blob.prototype.arrayBuffer = function read() {
      window.fileReads.push({ whole: this instanceof File, size: this.size });
      return arrayBuffer.call(this);
    };
  });
  await page.setInputFiles('#folder-input', path.join(work, 'datadir'));
  assert.equal(await pickedText(page), 'datadir/blocks: 2 blk files, 2 rev files, xor.dat (obfuscated).');
  let r = await run(page, 1, 255);
  await assertRange(page, r, 1, 255, 'datadir/blocks');
  assert.deepEqual({ ...r.doc.totals, bytes_read: undefined }, { blocks: 255, valid: 255, invalid: 0, failed: 0, inputs: 7, checks: 7, bytes_read: undefined });
  // Block 170's row: the first spend, one ECDSA check.
  const cells = await page.locator('#range-table tbody tr[data-height="170"] td').allInnerTexts();
  assert.deepEqual([cells[0], cells[2], cells[3], cells[4], cells[5]], ['170', 'valid', '1', '1', '0']);
  assert.match(await pickedText(page), new RegExp(`Active chain tip ${tip.toLocaleString('en-US')} \\([0-9a-f]{64}\\); lowest height held 0\\.$`));
  await page.screenshot({ path: path.join(BROWSER_ARTIFACTS, 'page-node-files.png') });

  // The tip alone, from the same pick (opened once), found under its BIP34 height.
  r = await run(page, tip, tip);
  await assertRange(page, r, tip, tip, 'datadir/blocks');
  assert.equal(r.doc.blocks[0].inputs, 7972);
  const reads = await page.evaluate(() => window.fileReads);
  const largest = Math.max(64 * 1024, ...[...reference.values()].map((b) => b.bytes)) + 40;
  assert.ok(reads.length > 10, `${reads.length} reads`);
  assert.deepEqual(reads.filter((x) => x.whole || x.size > largest), [], `reads above ${largest} bytes, or of a whole File`);
  assert.ok(largest < statSync(path.join(written.blocks, 'blk00001.dat')).size);
  assert.deepEqual(page.pageErrors, []);
  await page.close();
});

test('the files picked one by one, and the same files dropped on the page: the same verdicts', { skip, timeout: 120_000 }, async () => {
  const page = await openPage();
  await page.setInputFiles('#files-input', FILES.map((f) => path.join(written.blocks, f)));
  assert.equal(await pickedText(page), '5 files: 2 blk files, 2 rev files, xor.dat (obfuscated).');
  await assertRange(page, await run(page, 160, 200), 160, 200, '5 files');

  // A drop carrying the files (what a browser hands the page for files dragged from the desktop).
  await page.evaluate(() => {
    const dt = new DataTransfer();
    window.pickedFiles = [...document.querySelector('#files-input').files]; // kept for the folder walk below
    for (const f of window.pickedFiles) dt.items.add(f);
    document.querySelector('#drop-zone').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  });
  assert.equal(await pickedText(page), '5 files: 2 blk files, 2 rev files, xor.dat (obfuscated).');
  assert.equal(await page.locator('#files-input').evaluate((i) => i.files.length), 0, 'the drop replaces the input\'s pick');
  // The default range, as the CLI's: from the first height after genesis to the end of its run
  // of consecutive heights (the files hold 0-255, then only the fixture blocks from 277,647).
  let r = await run(page);
  assert.equal(r.state, 'done', r.errors.join(' | '));
  assert.deepEqual(r.doc.range, { from: 1, to: 255 });
  assert.deepEqual(r.doc.blocks.map(blockOf), expected(1, 255));
  assert.deepEqual([r.doc.exit_code, r.doc.read_error], [0, null]);
  assert.equal(r.errors.length, 0, r.errors.join(' | '));
  // Across the gap: the range stops at 256, named with the runs the files hold, the blocks
  // before it validated and shown.
  r = await run(page, 250, 300);
  assert.deepEqual([r.doc.exit_code, r.doc.read_error.height], [1, 256]);
  assert.equal(r.errors.length, 1, r.errors.join(' | '));
  assert.match(r.errors[0], /^Read error at height 256\s+height 256: no block at this height in the datadir's blk files \(pruned, not yet downloaded, or past the tip\): the files hold heights 0 to 255, 277647, [\d, ]+, and \d+ more runs\. The range stopped there; the 6 blocks before it were validated and are shown below\.$/);
  assert.equal(await page.locator('#range-table tbody tr').count(), 6);

  // A dropped folder's walk: readEntries answered in batches of two until an empty one, the
  // datadir's blocks/ descended into (its other folders never listed), non-block files counted.
  const walked = await page.evaluate(async () => {
    const { filesFromDrop } = await import('/block-files.mjs');
    const files = [...window.pickedFiles, new File(['x'], 'LOCK'), new File(['y'], 'rev00002.txt')];
    const listed = [];
    const fileEntry = (f) => ({ isFile: true, isDirectory: false, name: f.name, fullPath: `/datadir/blocks/${f.name}`, file: (ok) => ok(f) });
    const dirEntry = (name, children) => ({
      isFile: false, isDirectory: true, name, fullPath: `/${name}`,
      createReader() {
        let at = 0;
        return { readEntries: (ok) => { listed.push(name); setTimeout(() => ok(children.slice(at, at += 2))); } };
      },
    });
    const chainstate = dirEntry('chainstate', [fileEntry(new File(['z'], 'blk00009.dat'))]);
    const datadir = dirEntry('datadir', [chainstate, dirEntry('blocks', files.map(fileEntry)), fileEntry(new File(['c'], 'bitcoin.conf'))]);
    const picked = await filesFromDrop([{ entry: datadir, file: null }]);
    return { folder: picked.folder, blk: picked.blk.map((f) => f.name), rev: picked.rev.map((f) => f.name), xor: picked.xor?.name, ignored: picked.ignored, listed };
  });
  assert.deepEqual(walked, { folder: 'datadir/blocks', blk: ['blk00000.dat', 'blk00001.dat'], rev: ['rev00000.dat', 'rev00001.dat'],
    xor: 'xor.dat', ignored: 2, listed: ['datadir', 'datadir', 'datadir', 'blocks', 'blocks', 'blocks', 'blocks', 'blocks'] });
  assert.deepEqual(page.pageErrors, []);
  await page.close();
});

test('a directory handle (showDirectoryPicker): the datadir\'s handle picked, its blocks/ read through file handles, again once the node has grown them', { skip, timeout: 120_000 }, async () => {
  const page = await openPage();
  // The files copied into the origin-private file system as datadir/blocks/, and the picker's
  // dialog answered with the handle of datadir/.
  await page.setInputFiles('#files-input', FILES.map((f) => path.join(written.blocks, f)));
  await pickedText(page);
  await page.evaluate(async () => {
    const root = await navigator.storage.getDirectory();
    const datadir = await root.getDirectoryHandle('datadir', { create: true });
    const blocks = await datadir.getDirectoryHandle('blocks', { create: true });
    for (const f of document.querySelector('#files-input').files) {
      const out = await (await blocks.getFileHandle(f.name, { create: true })).createWritable();
      await out.write(f);
      await out.close();
    }
    await (await datadir.getFileHandle('bitcoin.conf', { create: true })).createWritable().then((w) => w.close());
    window.showDirectoryPicker = async () => datadir;
  });
  assert.ok(await page.locator('#pick-folder').isVisible(), 'Chromium has showDirectoryPicker: the button is shown');
  await page.click('#pick-folder');
  assert.equal(await pickedText(page), 'datadir/blocks: 2 blk files, 2 rev files, xor.dat (obfuscated).');
  // After the pick, the node grows its files' preallocated zeros: the picked snapshots no longer
  // read, and the files are read again through their handles (the bytes picked are unchanged).
  await page.evaluate(async () => {
    const blocks = await (await (await navigator.storage.getDirectory()).getDirectoryHandle('datadir')).getDirectoryHandle('blocks');
    for (const name of ['blk00000.dat', 'rev00000.dat', 'blk00001.dat', 'rev00001.dat']) {
      const handle = await blocks.getFileHandle(name);
      const size = (await handle.getFile()).size;
      const out = await handle.createWritable({ keepExistingData: true });
      await out.write({ type: 'write', position: size, data: new Uint8Array(4096) });
      await out.close();
    }
  });
  await assertRange(page, await run(page, 165, 190), 165, 190, 'datadir/blocks');
  await page.evaluate(async () => (await navigator.storage.getDirectory()).removeEntry('datadir', { recursive: true }));
  assert.deepEqual(page.pageErrors, []);
  await page.close();
});

/** A copy of the written blocks/ folder under `name`, changed by `change(dir)`. */
function copyOf(name, change) {
  const dir = path.join(work, name, 'blocks');
  mkdirSync(dir, { recursive: true });
  for (const f of FILES) copyFileSync(path.join(written.blocks, f), path.join(dir, f));
  change(dir);
  return dir;
}

test('bad input: a damaged undo record stops the range there, the blocks before it reported; a block still being written, a missing rev file, a wrong XOR key, no blk file and no Web Crypto are named', { skip, timeout: 120_000 }, async () => {
  // A flipped byte inside block 170's undo record: no record of rev00000.dat has its checksum.
  const damaged = copyOf('damaged', (dir) => {
    const f = path.join(dir, 'rev00000.dat');
    const bytes = readFileSync(f);
    bytes[169 * 41 + 8 + 10] ^= 0x01; // records of blocks 1-169 hold 41 bytes each
    writeFileSync(f, bytes);
  });
  let page = await openPage();
  await page.setInputFiles('#folder-input', damaged);
  assert.equal(await pickedText(page), 'blocks: 2 blk files, 2 rev files, xor.dat (obfuscated).');
  let r = await run(page, 100, 200);
  assert.equal(r.state, 'done', r.errors.join(' | '));
  assert.equal(r.errors.length, 1, r.errors.join(' | '));
  assert.match(r.errors[0], new RegExp(`^Read error at height 170\\s+block ${BLOCK_170}: no undo record in rev00000\\.dat \\(255 records\\) has its checksum.*the 70 blocks before it were validated and are shown below`, 's'));
  assert.equal(r.doc.exit_code, 1);
  assert.deepEqual(r.doc.read_error.height, 170);
  assert.deepEqual(r.doc.blocks.map(blockOf), expected(100, 169));
  assert.equal(await page.locator('#range-table tbody tr').count(), 70);
  assert.match(await page.locator('#range-report').innerText(), new RegExp(`READ ERROR at height 170: block ${BLOCK_170}: no undo record`));

  // The tip's block cut short (a node still writing it): named in a notice, once however many
  // runs, and skipped; the rest read, exit 0.
  const cut = copyOf('cut', (dir) => {
    const f = path.join(dir, 'blk00001.dat');
    truncateSync(f, statSync(f).size - 4096 - 100);
  });
  await page.setInputFiles('#folder-input', cut);
  await pickedText(page);
  for (let i = 0; i < 2; i++) {
    r = await run(page, 1, 3);
    assert.deepEqual([r.state, r.errors, r.doc.exit_code, r.doc.skipped.length], ['done', [], 0, 1]);
  }
  const skippedNotes = await page.locator('#notices .notice', { hasText: 'skipped:' }).allInnerTexts();
  assert.equal(skippedNotes.length, 1, skippedNotes.join(' | '));
  assert.match(skippedNotes[0], /^skipped: blk00001\.dat at byte \d+: a block record of \d+ bytes with \d+ written \(a block the node is still writing; skipped\)$/);
  assert.ok(r.doc.source.tip.height < tip);

  // rev00000.dat not picked: the summary says so, and the first block names the missing file.
  await page.setInputFiles('#files-input', ['blk00000.dat', 'blk00001.dat', 'rev00001.dat', 'xor.dat'].map((f) => path.join(written.blocks, f)));
  assert.equal(await pickedText(page), '4 files: 2 blk files, 1 rev file, xor.dat (obfuscated); no rev file for blk00000.dat (its blocks cannot be validated).');
  r = await run(page, 1, 5);
  assert.equal(r.state, 'done', r.errors.join(' | '));
  assert.match(r.errors.join(' | '), /^Read error at height 1\s+block [0-9a-f]{64}: its undo data file rev00000\.dat is missing \(pruned, or not copied with blk00000\.dat\)/);
  assert.deepEqual([r.doc.exit_code, r.doc.blocks.length], [1, 0]);

  // A wrong XOR key: the first record is named by file and byte; the run fails, nothing validated.
  const wrongKey = copyOf('wrong-key', (dir) => writeFileSync(path.join(dir, 'xor.dat'), Buffer.alloc(8, 1)));
  await page.setInputFiles('#folder-input', wrongKey);
  await pickedText(page);
  r = await run(page, 1, 5);
  assert.equal(r.state, 'failed');
  assert.match(r.errors.join(' | '), /^Run failed\s+blk00000\.dat at byte 0: message start [0-9a-f ]+ is not mainnet's f9 be b4 d9 \(a wrong or missing XOR key/);

  // No blk file: named when picked; Run then asks for a pick.
  await page.setInputFiles('#files-input', [path.join(written.blocks, 'xor.dat'), path.join(written.blocks, 'rev00000.dat')]);
  assert.equal(await pickedText(page), 'Nothing usable picked.');
  assert.match(await page.locator('.error-panel').innerText(), /^Block files\s+2 files: no blk\?\?\?\?\?\.dat among 2 files: pick a Bitcoin Core datadir, its blocks\/ folder, or its blk/);
  await page.click('#run');
  assert.match(await page.locator('.error-panel').last().innerText(), /^Settings\s+pick your node's blocks\/ folder/);
  // Run again: the same two panels, the Settings one not stacked twice.
  await page.click('#run');
  assert.deepEqual((await page.locator('.error-panel strong').allInnerTexts()), ['Block files', 'Settings']);
  assert.deepEqual(page.pageErrors, []);
  await page.close();

  // No Web Crypto (what an insecure context gives): the run says why before reading a header.
  page = await browser.context.newPage();
  await page.addInitScript(() => Object.defineProperty(Crypto.prototype, 'subtle', { get: () => undefined }));
  await page.goto(server.url);
  await page.locator('#blocks input').first().waitFor();
  await page.check('input[name="source"][value="node"]');
  await page.setInputFiles('#folder-input', path.join(work, 'datadir'));
  await pickedText(page);
  r = await run(page, 1, 5);
  assert.equal(r.state, 'failed');
  assert.match(r.errors.join(' | '), /^Run failed\s+Web Crypto \(crypto\.subtle, for the SHA256d of block headers and undo checksums\) is missing: the page is not a secure context/);
  await page.close();
});
