#!/usr/bin/env node
// What opening a datadir costs at mainnet's scale (blocks-fixtures/datadir/datadir.mjs
// openDatadir: every blk record's header read, hashed and ordered into the active chain): the
// wall time and the memory the opened chain holds, for a SYNTHETIC datadir of N linked blocks
// written here (each a header and a coinbase of about 150 bytes, in 128 MiB blk files with
// their rev records and an XOR key; nBits 0x207fffff, regtest's, whose target half of all
// hashes meet, so that each header meets its own target after a nonce or two, as the reader
// checks; the merkle roots are not valid, which ordering does not look at). Not a fixture and never validated: it measures the reader's bookkeeping,
// which grows with the block count, not with the blocks' size.
//
//   node --expose-gc bench/datadir/open-scale.mjs [--blocks N] [--dir DIR] [--keep] [--browser]
//
// --browser: also open it in Debian's Chromium, picked through the page's folder input and read
// by the page's own adapter (web/block-files.mjs: File slices, Web Crypto's SHA-256).
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatadir } from '../../blocks-fixtures/datadir/datadir.mjs';
import { datadirFiles, hash256 } from '../../blocks-fixtures/datadir/node-files.mjs';
import { numberFlag, parseFlags, UsageError } from '../shared/args.mjs';
import { launchChromium } from '../shared/chromium-launcher.mjs';
import { startServer } from '../../web/server.mjs';

const BLK_FILE_BYTES = 128 * 1024 * 1024; // Core's MAX_BLOCKFILE_SIZE
const KEY = Uint8Array.from([0x5a, 0x17, 0xc3, 0x00, 0x9e, 0x41, 0xf0, 0x2b]);
const sha256d = (b) => createHash('sha256').update(createHash('sha256').update(b).digest()).digest();

/** Block `height` of the synthetic chain: header (version 4, prev, time, nBits 0x207fffff, a
 *  nonce that meets its target) and a coinbase whose scriptSig pushes the height (BIP34). */
function syntheticBlock(height, prev) {
  const coinbase = Buffer.concat([
    Buffer.from([4, 0, 0, 0, 1]), Buffer.alloc(32), Buffer.from([0xff, 0xff, 0xff, 0xff]),
    Buffer.from([4, 3, height & 0xff, (height >> 8) & 0xff, (height >> 16) & 0xff]), Buffer.from([0xff, 0xff, 0xff, 0xff]),
    Buffer.from([1]), Buffer.alloc(8), Buffer.from([0]), Buffer.alloc(4),
  ]);
  const header = Buffer.alloc(80);
  header.writeUInt32LE(4, 0);
  prev.copy(header, 4);
  sha256d(coinbase).copy(header, 36);
  header.writeUInt32LE(1231006505 + 600 * height, 68);
  header.writeUInt32LE(0x207fffff, 72);
  // The hash, read as a little-endian number, at or below 0x7fffff << 232: its last byte below 0x80.
  for (let nonce = 0; sha256d(header)[31] >= 0x80; nonce++) header.writeUInt32LE(nonce, 76);
  return { header, block: Buffer.concat([header, Buffer.from([1]), coinbase]) };
}

const frame = (body, tail = Buffer.alloc(0)) => {
  const head = Buffer.from([0xf9, 0xbe, 0xb4, 0xd9, 0, 0, 0, 0]);
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body, tail]);
};
const xor = (buf) => {
  for (let i = 0; i < buf.length; i++) buf[i] ^= KEY[i % 8];
  return buf;
};

/** Writes a blocks/ folder of `n` linked blocks after a root at height 0 (not mainnet's genesis:
 *  the chain's first block is placed by its BIP34 height, as on a pruned node). */
function writeSynthetic(dir, n) {
  const blocks = path.join(dir, 'blocks');
  mkdirSync(blocks, { recursive: true });
  writeFileSync(path.join(blocks, 'xor.dat'), KEY);
  let prev = Buffer.alloc(32, 7);
  let file = 0;
  let blk = [];
  let rev = [];
  let size = 0;
  const flush = () => {
    const name = String(file).padStart(5, '0');
    writeFileSync(path.join(blocks, `blk${name}.dat`), xor(Buffer.concat(blk)));
    writeFileSync(path.join(blocks, `rev${name}.dat`), xor(Buffer.concat(rev)));
    file++;
    blk = [];
    rev = [];
    size = 0;
  };
  const first = 300000; // past BIP34, so the first block's coinbase places the chain
  for (let k = 0; k < n; k++) {
    const { header, block } = syntheticBlock(first + k, prev);
    blk.push(frame(block));
    const undo = Buffer.from([0]); // CBlockUndo of a coinbase-only block: no CTxUndo
    rev.push(frame(undo, sha256d(Buffer.concat([prev, undo]))));
    size += block.length + 8;
    prev = sha256d(header);
    if (size >= BLK_FILE_BYTES) flush();
  }
  if (blk.length) flush();
  return { files: file, first, last: first + n - 1 };
}

async function main() {
  let values;
  try {
    ({ values } = parseFlags(process.argv.slice(2), { blocks: { type: 'string' }, dir: { type: 'string' }, keep: { type: 'boolean', default: false }, browser: { type: 'boolean', default: false } }));
    values.blocks = numberFlag('blocks', values.blocks ?? '900000', { min: 1, max: 5_000_000 });
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`open-scale: ${err.message}`);
    process.exit(2);
  }
  const dir = values.dir ?? mkdtempSync(path.join(os.tmpdir(), 'ibd-open-scale-'));
  try {
    const t0 = performance.now();
    const written = writeSynthetic(dir, values.blocks);
    console.error(`open-scale: wrote ${values.blocks.toLocaleString('en-US')} SYNTHETIC blocks in ${written.files} blk files (${((performance.now() - t0) / 1000).toFixed(1)} s): ${dir}`);
    globalThis.gc?.();
    const before = process.memoryUsage();
    const t1 = performance.now();
    const files = datadirFiles(dir);
    const source = await openDatadir(files, { hash256 });
    const openSeconds = (performance.now() - t1) / 1000;
    globalThis.gc?.();
    const after = process.memoryUsage();
    const t2 = performance.now();
    for (let h = written.first; h < Math.min(written.last, written.first + 999); h++) await source.read(h);
    const readSeconds = (performance.now() - t2) / 1000;
    await files.close();
    const doc = {
      synthetic: true,
      blocks: values.blocks,
      blk_files: written.files,
      tip: source.tip,
      open_seconds: openSeconds,
      open_microseconds_per_block: (openSeconds * 1e6) / values.blocks,
      heap_bytes_held: after.heapUsed - before.heapUsed,
      heap_bytes_per_block: (after.heapUsed - before.heapUsed) / values.blocks,
      external_bytes_held: (after.external + after.arrayBuffers) - (before.external + before.arrayBuffers),
      read_1000_seconds: readSeconds,
      gc: Boolean(globalThis.gc),
      timing: 'cold file cache is not ensured: the files were just written (warm page cache)',
      browser: values.browser ? await openInChromium(dir) : null,
    };
    console.log(JSON.stringify(doc, null, 1));
  } finally {
    if (!values.keep && values.dir === undefined) rmSync(dir, { recursive: true, force: true });
  }
}

/** The same datadir opened in Chromium's page thread: picked through the folder input, listed
 *  and opened by the page's adapter; the time and the JS heap it grew by (usedJSHeapSize, an
 *  approximation: no forced collection). */
async function openInChromium(dir) {
  const server = await startServer({ port: 0 });
  const browser = await launchChromium();
  try {
    const page = await browser.context.newPage();
    await page.goto(server.url);
    await page.setInputFiles('#folder-input', path.join(dir, 'blocks'));
    return await page.evaluate(async () => {
      const { filesFromList, hash256 } = await import('/block-files.mjs');
      const { openDatadir } = await import('/blocks-fixtures/datadir/datadir.mjs');
      const heap = () => performance.memory?.usedJSHeapSize ?? null;
      const before = heap();
      const t0 = performance.now();
      const files = await filesFromList(document.querySelector('#folder-input').files);
      const source = await openDatadir(files, { hash256 });
      const seconds = (performance.now() - t0) / 1000;
      return { open_seconds: seconds, tip: source.tip.height, heap_bytes_grown: before === null ? null : heap() - before, browser: navigator.userAgent.match(/Chrome\/[\d.]+/)?.[0] ?? null };
    });
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
