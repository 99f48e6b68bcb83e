// The legacy quadratic sighash case (issue 12, part 6) on the JS side: the SYNTHETIC stress block
// written by `ibd_quadratic synthetic` (blocks-fixtures/derived/synthetic_legacy_tx.h) validated in
// wasm, with the same verdict and the same final check records as the native engine, and every
// check's sighash equal to an independent computation here (the tx copy of Core's SignatureHash
// serialized in JS, hashed with node:crypto); the wasm SHA-256 micro-benchmark binding
// (sha256Chain) against node:crypto and the native tool; bad input to the generator and the bench
// refused. No timing is asserted: `npm run bench:quadratic` prints the figures.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';

import { ensureNativeTools } from '../scripts/bench-native.mjs';
import { loadEngine } from '../wasm/engine.mjs';
import { NATIVE_TOOLS, REPO_ROOT } from '../wasm/paths.mjs';
import { walkChecks } from '../wasm/check-buffer.mjs';
import { walkBlock } from './support/block-walk.mjs';

if (!existsSync(NATIVE_TOOLS.quadratic)) ensureNativeTools(['ibd_quadratic']);

/** Runs a command; resolves to { code, stdout, stderr } whatever its exit code. */
async function run(file, args) {
  try {
    const { stdout, stderr } = await promisify(execFile)(file, args, { timeout: 300_000, maxBuffer: 64 << 20 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    if (typeof err.code !== 'number') throw err;
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

const sha256 = (bytes) => createHash('sha256').update(bytes).digest();
const sha256d = (bytes) => sha256(sha256(bytes));

/** A non-witness transaction of `block` as the byte slices Core's legacy serialization is
 *  made of (walkBlock offsets): version, each input's prevout and nSequence, the outputs
 *  (count included) and nLockTime. */
function txParts(block, tx) {
  const vin = tx.vin.map((input) => ({
    prevout: block.subarray(input.offset, input.offset + 36),
    sequence: block.subarray(input.scriptStart + input.scriptLen, input.scriptStart + input.scriptLen + 4),
  }));
  const last = tx.vin[tx.vin.length - 1];
  return { version: block.subarray(tx.offset, tx.offset + 4), vin,
    outputs: block.subarray(last.scriptStart + last.scriptLen + 4, tx.end - 4), lockTime: block.subarray(tx.end - 4, tx.end) };
}

const compactSize = (n) => (n < 0xfd ? Buffer.from([n]) : Buffer.from([0xfd, n & 0xff, n >> 8]));

/** Core's SignatureHash (SigVersion::BASE, SIGHASH_ALL) of input i: the tx copy with every
 *  scriptSig emptied but input i's, which becomes `scriptCode`, then the hash type (4 bytes). */
function legacySighashAll(tx, i, scriptCode) {
  const parts = [tx.version, compactSize(tx.vin.length)];
  tx.vin.forEach((input, k) => {
    parts.push(input.prevout, ...(k === i ? [compactSize(scriptCode.length), scriptCode] : [Buffer.from([0])]), input.sequence);
  });
  parts.push(tx.outputs, tx.lockTime, Buffer.from([1, 0, 0, 0]));
  return sha256d(Buffer.concat(parts));
}

/** The spent outputs' scriptPubKeys from the binary form (spent_outputs.h: "IBS1", count, entries). */
function spentScripts(bin) {
  assert.equal(Buffer.from(bin.subarray(0, 4)).toString(), 'IBS1');
  const count = bin.readUInt32LE(4);
  const scripts = [];
  let at = 8;
  for (let k = 0; k < count; k++) {
    at += 36 + 8;
    const len = bin[at++];
    scripts.push(bin.subarray(at, at + len));
    at += len;
  }
  assert.equal(at, bin.length);
  return scripts;
}

let tmp;
before(async () => { tmp = await mkdtemp(path.join(os.tmpdir(), 'ibd-quadratic-test-')); });
after(async () => { await rm(tmp, { recursive: true, force: true }); });

test('the synthetic legacy block: valid in wasm and natively, same check records, every sighash as computed independently', async () => {
  const gen = await run(NATIVE_TOOLS.quadratic, ['synthetic', tmp, '--inputs', '120', '--outputs', '9']);
  assert.equal(gen.code, 0, gen.stderr);
  const info = JSON.parse(gen.stdout);
  assert.equal(info.inputs, 120);
  assert.equal(info.height, 364292);
  const block = readFileSync(path.join(tmp, 'block.raw'));
  const spent = readFileSync(path.join(tmp, 'spent_outputs.bin'));
  assert.equal(block.length, info.block_bytes);

  const engine = await loadEngine('simd');
  const r = engine.validateBlock(new Uint8Array(block), new Uint8Array(spent), info.hash, info.height, { skipProofOfWork: true });
  assert.equal(r.ok, true, r.error);
  assert.equal(r.valid, true, r.error);
  assert.equal(r.inputs, 120);
  assert.equal(r.ecdsa, 120);

  const native = await run(NATIVE_TOOLS.quadratic, ['validate', path.join(tmp, 'block.raw'), path.join(tmp, 'spent_outputs.bin'),
    String(info.height), '--skip-pow', '--rounds', '1', '--hash', info.hash]);
  assert.equal(native.code, 0, native.stderr);
  const n = JSON.parse(native.stdout);
  assert.equal(n.valid, true);
  assert.equal(n.checks, 120);
  assert.equal(n.checks_sha256, sha256(r.checks).toString('hex'), 'native and wasm final check records are byte-identical');

  const txs = walkBlock(block);
  assert.equal(txs.length, 2);
  assert.equal(txs[1].end, block.length);
  const tx = txParts(block, txs[1]);
  const scripts = spentScripts(spent);
  const walked = walkChecks(r.checks);
  assert.equal(walked.count, 120);
  for (let i = 0; i < 120; i++) {
    const at = walked.offsets[i];
    const msg = Buffer.from(r.checks.subarray(at + 4, at + 36));
    assert.equal(r.origins[2 * i + 1], i);
    assert.deepEqual(msg, legacySighashAll(tx, i, scripts[i]), `input ${i}: the engine's sighash`);
  }
});

test('sha256Chain in wasm equals the same chain through node:crypto and through ibd_quadratic sha256', async () => {
  const engine = await loadEngine('simd');
  for (const [bytes, reps] of [[32, 1], [1000, 3], [65, 2]]) {
    const buf = Buffer.alloc(bytes);
    for (let i = 0; i < bytes; i++) buf[i] = (i * 131 + 7) & 0xff;
    let d;
    for (let k = 0; k < reps; k++) { d = sha256(buf); d.copy(buf, 0); }
    assert.equal(engine.sha256Chain(bytes, reps), d.toString('hex'), `${bytes} bytes x ${reps}`);
    const native = await run(NATIVE_TOOLS.quadratic, ['sha256', '--bytes', String(bytes), '--reps', String(reps)]);
    assert.equal(native.code, 0, native.stderr);
    assert.equal(JSON.parse(native.stdout).digest, d.toString('hex'));
  }
  assert.throws(() => engine.sha256Chain(31, 1), /bytes must be an integer in 32\.\.2\^30/);
  assert.throws(() => engine.sha256Chain(64, 0), /reps in 1\.\.10\^6/);
});

test('bad input to the generator and the bench is refused with the parameter named', async () => {
  for (const [args, message] of [
    [['--inputs', '0'], /inputs must be 1\.\.25000, got 0/],
    [['--outputs', '0'], /outputs must be 1\.\.30000, got 0/],
    [['--inputs', '6000'], /over the 1000000-byte limit/],
    [['--inputs', 'many'], /--inputs must be an integer/],
  ]) {
    const r = await run(NATIVE_TOOLS.quadratic, ['synthetic', tmp, ...args]);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
  const bench = path.join(REPO_ROOT, 'bench', 'quadratic', 'quadratic.mjs');
  for (const [args, message] of [[['--rounds', '0'], /--rounds/], [['--variant', 'avx'], /variant/], [['--nope'], /nope/]]) {
    const r = await run(process.execPath, [bench, ...args]);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
});
