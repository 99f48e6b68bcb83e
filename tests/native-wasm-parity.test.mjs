// The same engine, two targets: for every fixture block, the native build's validation
// (ibd_dump_checks: BlockValidation to the end, final checks and their verdicts) equals the wasm
// build's BlockValidation byte for byte, for both wasm variants, with the same block verdict,
// fee, subsidy, sigop cost and rules not checked; and invalid blocks (a rule broken before any
// input is connected, one broken after, a failing script) get the same verdict in both.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fixturesDir, loadBlocks } from '../blocks-fixtures/loader.mjs';
import { loadEngine } from '../wasm/engine.mjs';
import { encodeSpentOutputs } from '../wasm/spent-outputs.mjs';
import { VARIANTS } from '../wasm/variants.mjs';
import { walkChecks } from '../wasm/check-buffer.mjs';
import { nativeDump } from './support/native-tool.mjs';
import { firstDifference, validateFixture, verifyChecks } from './support/wasm.mjs';
import { blockTxids } from './support/block-txids.mjs';

const blocks = await loadBlocks(fixturesDir());
const engines = Object.fromEntries(await Promise.all(VARIANTS.map(async (v) => [v, await loadEngine(v)])));

/** Where the wasm buffer first departs from the native one, naming the native record. */
function describeDifference(native, wasm) {
  const at = firstDifference(native, wasm);
  let record = '';
  try {
    const { offsets } = walkChecks(native);
    record = ` (record ${offsets.findIndex((_, i) => offsets[i + 1] > at)})`;
  } catch { /* a malformed native buffer: the byte offset alone */ }
  return `first difference at byte ${at}${record}; lengths native ${native.length}, wasm ${wasm.length}`;
}

for (const block of blocks) {
  test(`block ${block.height}: native and wasm (${VARIANTS.join(', ')}) validation agree byte for byte`, async () => {
    const native = await nativeDump(block);
    assert.ok(native.checks.length > 0 || block.inputs === 0, 'native tool wrote the checks');
    for (const variant of VARIANTS) {
      const res = await validateFixture(engines[variant], block);
      const checks = Buffer.from(res.checks);
      assert.ok(checks.equals(native.checks), `${variant} final checks: ${describeDifference(native.checks, checks)}`);
      const verdicts = Buffer.from(res.verdicts);
      assert.ok(verdicts.equals(native.verdicts),
        `${variant} verdicts: first difference at record ${firstDifference(native.verdicts, verdicts)}`);
      // The rounds' verdicts are the verifier's verdicts of the final records.
      assert.ok(Buffer.from(verifyChecks(engines[variant], res.checks)).equals(verdicts), `${variant} re-verified`);
      // The block rules' verdict and figures (native/validation/block_rules.h) agree too.
      assert.equal(res.valid, true, `${variant}: ${res.error}`);
      const sh = res.sighash; // the sighash workload: counts and message bytes by kind
      const lines = [`fee ${res.fee} subsidy ${res.subsidy} sigop_cost ${res.sigopCost}`,
        `sighash legacy ${sh.legacy.count} ${sh.legacy.bytes} bip143 ${sh.bip143.count} ${sh.bip143.bytes} ` +
        `bip341 ${sh.bip341.count} ${sh.bip341.bytes} precompute ${sh.precomputeBip143Bytes} ${sh.precomputeBip341Bytes} ` +
        `hashed_legacy ${sh.legacy.hashedBytes}`,
        `reject '${res.rejectReason}' stage '${res.stage}'`, `not_checked ${res.notChecked.map((n) => n.rule).join(' ')}`.trimEnd()];
      for (const line of lines) assert.ok(native.summary.split('\n').includes(line), `${variant}: native lacks "${line}":\n${native.summary}`);
    }
  });
}

/** The wasm verdict of `block` in the dump tool's words (tests/native/dump_checks.cpp). */
async function wasmVerdictLines(engine, block) {
  const v = new engine.BlockValidation(block.block, block.spentOutputsJson, block.hash, block.height);
  try {
    const status = v.status();
    if (!status.ok) {
      return [`reject '${status.rejectReason}' stage '${status.stage}'`,
        `at tx ${status.txIndex} input ${status.inputIndex} output ${status.outputIndex}`,
        `not_checked ${(status.notChecked ?? []).map((n) => n.rule).join(' ')}`.trimEnd()];
    }
    v.delete();
    const res = await validateFixture(engine, block);
    return [`reject '${res.rejectReason}' stage '${res.stage}'`,
      `at tx ${res.txIndex} input ${res.inputIndex} output ${res.outputIndex}`,
      `failed_inputs ${res.inputFailures.map((f) => `${f.tx}:${f.input}:${f.scriptError}`).join(' ')}`.trimEnd(),
      `not_checked ${res.notChecked.map((n) => n.rule).join(' ')}`.trimEnd()];
  } finally {
    if (!v.isDeleted()) v.delete();
  }
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'ibd-parity-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** A copy of fixture block `height` in tmp, its spent outputs through `alter`, to be validated at `at`. */
function invalidCase(name, height, at, alter = () => {}) {
  const source = blocks.find((b) => b.height === height);
  const dir = path.join(tmp, name);
  mkdirSync(dir, { recursive: true });
  const doc = JSON.parse(source.spentOutputsJson);
  alter(doc.spent_outputs, new Set(blockTxids(source.block)));
  const spentOutputsJson = JSON.stringify(doc);
  writeFileSync(path.join(dir, 'block.raw'), source.block);
  writeFileSync(path.join(dir, 'spent_outputs.json'), spentOutputsJson);
  return { ...source, dir, height: at, spentOutputsJson, block: new Uint8Array(readFileSync(path.join(dir, 'block.raw'))) };
}

const INVALID = [
  // Every value spent from an earlier block 0 (the block's own outputs are its to say): tx 1
  // pays more than it spends (CheckTxInputs), scripts all succeed.
  ['bad-txns-in-belowout', () => invalidCase('in-belowout', 403200, 403200, (outs, own) => { for (const o of outs) if (!own.has(o.txid)) o.value = 0; })],
  // A P2WPKH spend's amount raised by 1: its BIP143 sighash changes, the script fails.
  ['mandatory-script-verify-flag-failed', () => invalidCase('bip143-amount', 553724, 553724, (outs) => {
    outs.find((o) => /^0014[0-9a-f]{40}$/.test(o.script_pubkey)).value += 1;
  })],
  // Claimed one block higher: the coinbase's BIP34 height contradicts it (ContextualCheckBlock).
  ['bad-cb-height', () => invalidCase('bip34', 403200, 403201)],
];

for (const [reason, make] of INVALID) {
  test(`an invalid block (${reason}): native and wasm (${VARIANTS.join(', ')}) give the same verdict`, async () => {
    const block = make();
    const native = await nativeDump(block);
    const lines = native.summary.split('\n');
    assert.ok(lines.some((l) => l.startsWith(`reject '${reason}'`)), native.summary);
    for (const variant of VARIANTS) {
      for (const line of await wasmVerdictLines(engines[variant], block)) {
        assert.ok(lines.includes(line), `${variant}: native lacks "${line}":\n${native.summary}`);
      }
    }
  });
}

// A worker's range job (BlockScope without the block rules: the range's transactions parsed,
// the others skimmed, only its spent outputs read from the binary form) gives the same checks,
// verdicts, counts and rules not checked natively and in wasm.
for (const height of [367891, 403200, 866342]) {
  test(`block ${height}: a range of its transactions, native and wasm (${VARIANTS.join(', ')}) agree byte for byte`, async () => {
    const block = blocks.find((b) => b.height === height);
    const spentOutputs = encodeSpentOutputs(block.spentOutputsJson);
    const txCount = (await validateFixture(engines[VARIANTS[0]], block)).txCount;
    for (const range of [[1, Math.floor(txCount / 3)], [Math.floor(txCount / 3), txCount]]) {
      const native = await nativeDump(block, { range });
      for (const variant of VARIANTS) {
        const res = engines[variant].validateBlock(block.block, spentOutputs, block.hash, block.height,
          { txBegin: range[0], txEnd: range[1], blockRules: false });
        assert.equal(res.ok, true, res.error);
        assert.equal(res.blockRulesChecked, false);
        const checks = Buffer.from(res.checks);
        assert.ok(checks.equals(native.checks), `${variant} ${range}: ${describeDifference(native.checks, checks)}`);
        assert.ok(Buffer.from(res.verdicts).equals(native.verdicts), `${variant} ${range}: verdicts differ`);
        assert.ok(native.summary.split('\n').some((l) => l.startsWith(`txs ${res.txCount}, inputs ${res.inputs} `)),
          `${variant} ${range}: native counts differ:\n${native.summary}`);
        // What the range did not check (the block rules' stages first, BlockRulesNotRun): the same list.
        const notChecked = `not_checked ${res.notChecked.map((n) => n.rule).join(' ')}`;
        assert.ok(notChecked.startsWith('not_checked proof-of-work merkle-root '), notChecked);
        assert.ok(native.summary.split('\n').includes(notChecked), `${variant} ${range}: native lacks "${notChecked}":\n${native.summary}`);
      }
    }
  });
}
