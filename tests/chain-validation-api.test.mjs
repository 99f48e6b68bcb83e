// ChainValidation in wasm (wasm/API.md) against the native engine (tests/native/dump_chain.cpp,
// the same ConnectBlockFile) and against the fixture path: mainnet blocks 1-255 connected from
// genesis give, for both wasm variants, every block's verdict, spent outputs, check records and
// verdicts, fee, coins and not_checked equal to the native build's, byte for byte; the seven
// spends' checks and verdicts equal BlockValidation's from mainnet/<height>/spent_outputs.json;
// tampered chains (a removed block, a bad nonce, a missing prevout, a coinbase spent too early)
// get the same verdicts natively and in wasm, named by height, hash, tx and input; bad
// arguments are errors naming them.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fixturesDir, loadBlocks, loadChain } from '../blocks-fixtures/loader.mjs';
import { loadEngine } from '../wasm/engine.mjs';
import { VARIANTS } from '../wasm/variants.mjs';
import { blockHash, frame, relink, splitFrames } from './support/chain.mjs';
import { nativeChainDump } from './support/native-tool.mjs';
import { validateFixture } from './support/wasm.mjs';

const SPENDING = [170, 181, 182, 183, 187, 221, 248];
const chain = await loadChain(fixturesDir());
const engines = Object.fromEntries(await Promise.all(VARIANTS.map(async (v) => [v, await loadEngine(v)])));
const tmp = mkdtempSync(path.join(os.tmpdir(), 'ibd-chain-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const hex = (bytes) => Buffer.from(bytes).toString('hex');

/** The wasm run of `file` (connectBlockFile from genesis). */
function wasmRun(engine, file, options) {
  const v = new engine.ChainValidation(options);
  try {
    return { ...v.connectBlockFile(file), tip: v.status() };
  } finally {
    v.delete();
  }
}

/** A wasm chain block object in the native tool's JSON shape. */
function asNative(b) {
  return {
    height: b.height, hash: b.hash, prev_hash: b.prevHash, connected: b.connected, error: b.ok ? '' : b.error, valid: b.valid,
    reject_reason: b.rejectReason, stage: b.stage, message: b.error, tx: b.txIndex, input: b.inputIndex, output: b.outputIndex,
    byte: b.byteOffset, file_offset: b.fileOffset, spends_from_view: b.spendsFromView, spends_in_block: b.spendsInBlock,
    coins_added: b.coinsAdded, coins_spent: b.coinsSpent, coins_in_view: b.coinsInView, median_time_past: b.medianTimePast,
    fee: b.fee, subsidy: b.subsidy, sigop_cost: b.sigopCost, not_checked: b.notChecked.map((n) => n.rule),
    input_failures: b.inputFailures.map((f) => [f.tx, f.input, f.type, f.scriptError]),
    checks: hex(b.checks), verdicts: hex(b.verdicts),
    origins: Array.from({ length: b.origins.length / 2 }, (_, i) => [b.origins[2 * i], b.origins[2 * i + 1]]),
    spent: b.spent.map((s) => [s.txid, s.vout, s.value, s.scriptPubKey]),
  };
}

/** Native and wasm (both variants) agree on every block of `file`; returns the native run. */
async function expectParity(name, file, { skipProofOfWork = false } = {}) {
  const at = path.join(tmp, `${name}.dat`);
  writeFileSync(at, file);
  const native = await nativeChainDump(at, { skipProofOfWork });
  for (const variant of VARIANTS) {
    const run = wasmRun(engines[variant], file, skipProofOfWork ? { skipProofOfWork: true } : undefined);
    assert.equal(run.frames, native.frames, `${variant} frames`);
    assert.equal(run.notValidated, native.not_validated, `${variant} not validated`);
    assert.equal(run.fileError?.error ?? null, native.file_error, `${variant} file error`);
    assert.deepEqual({ height: run.tip.height, hash: run.tip.hash, coins: run.tip.coins }, native.tip, `${variant} tip`);
    assert.equal(run.blocks.length, native.blocks.length, `${variant} blocks`);
    run.blocks.forEach((b, i) => assert.deepEqual(asNative(b), native.blocks[i], `${variant} block ${b.height}`));
  }
  return native;
}

test('blocks 1-255 from genesis: every block valid, native and wasm equal block for block', async () => {
  assert.equal(chain.error, undefined);
  const native = await expectParity('real', chain.bytes);
  assert.deepEqual([native.frames, native.blocks.length, native.not_validated, native.file_error], [255, 255, 0, null]);
  assert.deepEqual(native.tip, { height: 255, hash: chain.lastHash, coins: 260 });
  for (const b of native.blocks) {
    assert.equal(b.valid && b.connected, true, `block ${b.height}: ${b.message}`);
    assert.deepEqual(b.not_checked, ['time-too-new', 'expected-difficulty'], `block ${b.height}`);
  }
  const spending = native.blocks.filter((b) => b.spent.length > 0).map((b) => [b.height, b.spends_from_view, b.verdicts]);
  assert.deepEqual(spending, SPENDING.map((h) => [h, 1, '01']));
});

test('the seven spends: the view\'s spent outputs, checks and verdicts equal the fixture path\'s, both variants', async () => {
  const fixtures = await loadBlocks(fixturesDir(), { heights: SPENDING });
  for (const variant of VARIANTS) {
    const run = wasmRun(engines[variant], chain.bytes);
    for (const f of fixtures) {
      const b = run.blocks[f.height - 1];
      assert.equal(b.hash, f.hash);
      const fixture = await validateFixture(engines[variant], f);
      const spent = JSON.parse(f.spentOutputsJson).spent_outputs;
      assert.deepEqual(b.spent, spent.map((s) => ({ txid: s.txid, vout: s.vout, value: s.value, scriptPubKey: s.script_pubkey })),
        `${variant} block ${f.height} spent outputs`);
      assert.equal(hex(b.checks), hex(fixture.checks), `${variant} block ${f.height} check records (sighash included)`);
      assert.equal(hex(b.verdicts), hex(fixture.verdicts), `${variant} block ${f.height} verdicts`);
      assert.deepEqual([...b.origins], [...fixture.origins]);
      assert.deepEqual([b.valid, b.fee, b.subsidy, b.sigopCost, b.rounds], [fixture.valid, fixture.fee, fixture.subsidy, fixture.sigopCost,
        fixture.rounds]);
      // The fixture path cannot check what the chain does.
      const rules = (list) => list.map((n) => n.rule);
      for (const rule of ['spent-outputs-unspent', 'coinbase-maturity', 'bip30', 'time-too-old', 'previous-block']) {
        assert.ok(rules(fixture.notChecked).includes(rule) && !rules(b.notChecked).includes(rule), rule);
      }
    }
  }
});

test('tampered chains: the same verdict natively and in wasm, named by height, hash, tx and input', async () => {
  const real = splitFrames(chain.bytes);
  // Block 100 removed: block 101 does not link (its own proof of work intact).
  const gap = real.slice(0, 120);
  gap.splice(99, 1);
  let n = await expectParity('gap', frame(gap));
  let last = n.blocks.at(-1);
  assert.deepEqual([last.height, last.hash, last.reject_reason, last.stage, last.byte, n.not_validated],
    [100, blockHash(real[100]), 'prev-blk-not-found', 'AcceptBlockHeader', 4, 19]);
  // A bad nonce at height 50.
  const nonce = real.slice(0, 60).map((b) => Buffer.from(b));
  nonce[49][76] ^= 1;
  n = await expectParity('nonce', frame(nonce));
  last = n.blocks.at(-1);
  assert.deepEqual([last.height, last.hash, last.reject_reason, last.stage], [50, blockHash(nonce[49]), 'high-hash', 'CheckBlockHeader']);
  // Block 9 removed and the rest relinked (proof of work skipped): block 170's prevout is missing.
  const missing = real.slice(0, 170).map((b) => Buffer.from(b));
  missing.splice(8, 1);
  relink(missing, 8);
  n = await expectParity('missing', frame(missing), { skipProofOfWork: true });
  last = n.blocks.at(-1);
  assert.deepEqual([last.height, last.hash, last.reject_reason, last.stage, last.tx, last.input],
    [169, blockHash(missing[168]), 'bad-txns-inputs-missingorspent', 'CheckTxInputs', 1, 0]);
  assert.match(last.message, /^height 169: bad-txns-inputs-missingorspent: prevout 0437cd7f8525ceed2324359c2d0ba26006d92d856a9c20fa0241106ee5a597c9:0 is not in the coins view/);
  // Blocks 10-109 removed: block 170 at height 70 spends block 9's coinbase at depth 61.
  const early = real.slice(0, 170).map((b) => Buffer.from(b));
  early.splice(9, 100);
  relink(early, 9);
  n = await expectParity('early', frame(early), { skipProofOfWork: true });
  last = n.blocks.at(-1);
  assert.deepEqual([last.height, last.reject_reason, last.stage, last.tx, last.input], [70, 'bad-txns-premature-spend-of-coinbase', 'CheckTxInputs', 1, 0]);
  assert.match(last.message, /tried to spend coinbase at depth 61/);
  // A truncated file: the frames before the cut validated, the cut frame named.
  const cut = frame(real.slice(0, 5)).subarray(0, -3);
  n = await expectParity('cut', cut);
  assert.equal(n.blocks.length, 4);
  assert.match(n.file_error, /^block file frame 4 at byte \d+: size \d+ runs past the end of the file/);
});

test('bad arguments: errors naming them; a short block is an error naming its height', () => {
  const engine = engines.simd;
  const v = new engine.ChainValidation();
  try {
    for (const [arg, name] of [[null, 'null'], [undefined, 'undefined'], [[1, 2], 'Array'], ['x', 'string']]) {
      assert.throws(() => v.connectBlock(arg), { message: `ChainValidation.connectBlock: block must be a Uint8Array, got ${name}` });
      assert.throws(() => v.connectBlockFile(arg), { message: `ChainValidation.connectBlockFile: file must be a Uint8Array, got ${name}` });
    }
    const short = v.connectBlock(new Uint8Array(79));
    assert.deepEqual([short.ok, short.height, short.connected, short.rejectReason], [false, 1, false, '']);
    assert.equal(short.error, 'height 1: block of 79 bytes, fewer than the 80 of a header (at byte 0)');
    assert.equal(v.status().height, 0);
  } finally {
    v.delete();
  }
  for (const [options, message] of [
    ['x', 'options must be an object such as { skipProofOfWork, maxCoinsBytes }, got string'],
    [{ skipProofOfWork: 1 }, 'options.skipProofOfWork must be a boolean, got number'],
    [{ maxCoinsBytes: 1.5 }, 'options.maxCoinsBytes must be an integer from 1 to 2147483647, got 1.5'],
    [{ maxCoinBytes: 1024 }, 'options.maxCoinBytes is not an option of new ChainValidation (known: skipProofOfWork, maxCoinsBytes)'],
  ]) {
    const bad = new engine.ChainValidation(options);
    try {
      assert.deepEqual([bad.status().ok, bad.status().error], [false, message]);
      assert.throws(() => bad.connectBlock(new Uint8Array(80)), { message: `ChainValidation.connectBlock: the chain failed to start: ${message}` });
    } finally {
      bad.delete();
    }
  }
});
