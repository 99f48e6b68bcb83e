// The whole-block peer (bench/compare/blocks/bcoin.mjs): bcoin, through its own script engine,
// judges fixture blocks as the engine does: valid blocks valid under both crypto backends (one
// process each, as npm run bench runs them), a tampered signature and a changed spent amount
// rejected by both naming the same input, and the blocks it cannot judge (P2TR spends) left out
// with the reason; a disagreement is named and opens the report. Verdicts only: no timing is
// asserted.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { fixturesDir, loadBlocks } from '../blocks-fixtures/loader.mjs';
import { BACKENDS, bcoinCannotJudge, loadBcoin } from '../bench/compare/blocks/bcoin.mjs';
import { startBcoin } from '../bench/compare/blocks/bcoin-process.mjs';
import { verdictDifferences } from '../bench/compare/blocks/compare-verdicts.mjs';
import { validateInInstance } from '../bench/compare/blocks/wasm-blocks.mjs';
import { formatWholeBlock } from '../bench/compare/whole-block-report.mjs';
import { LATEST_JSON } from '../bench/compare/compare.mjs';
import { performanceSection } from '../bench/compare/perf-page.mjs';
import { createBatchVerifier } from '../wasm/batch-verifier.mjs';
import { loadEngine } from '../wasm/engine.mjs';

/** Small blocks of three eras: P2PK (2009), P2PKH (2011), P2PKH + P2SH-P2WPKH + P2WPKH (2018). */
const HEIGHTS = [170, 116928, 553724];

let engine;
let verifier;
let bcoin; // in this process, NODE_BACKEND as the test runner has it
const ours = (block, options) => validateInInstance(engine, verifier, block, options);

before(async () => {
  engine = await loadEngine('simd');
  verifier = createBatchVerifier(engine);
  bcoin = loadBcoin();
});
after(() => verifier?.dispose());

test('bcoin is the pinned version and says which crypto backend bcrypto chose', () => {
  const pinned = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).devDependencies.bcoin;
  assert.match(pinned, /^\d+\.\d+\.\d+$/, 'an exact version');
  assert.equal(bcoin.version, pinned);
  assert.ok(['native', 'node', 'js'].includes(bcoin.backend.hashes), bcoin.backend.hashes);
  assert.ok(['native', 'js'].includes(bcoin.backend.ecdsa), bcoin.backend.ecdsa);
  // The native backend runs exactly when both bindings were built; without them the reason names the files.
  if (bcoin.backend.hashes === 'native') assert.equal(bcoin.backend.native_error, null);
  else if (!process.env.NODE_BACKEND) assert.match(bcoin.backend.native_error, /^not built: /);
});

test('bcoin agrees with the engine on valid fixture blocks, under each backend in its own process', { timeout: 300_000 }, async () => {
  const blocks = await loadBlocks(fixturesDir(), { heights: HEIGHTS });
  const mine = new Map(blocks.map((b) => [b.height, ours(b)]));
  for (const v of mine.values()) assert.equal(v.valid, true);
  for (const backend of BACKENDS) {
    const proc = await startBcoin(backend, blocks);
    try {
      if (backend.id === 'js') assert.equal(proc.info.backend.hashes, 'js', 'NODE_BACKEND=js: pure-JS hashes');
      const entries = await proc.pass(HEIGHTS);
      assert.deepEqual(entries.map((e) => e.height), HEIGHTS);
      for (const e of entries) {
        assert.equal(e.error, undefined, `${backend.id} ${e.height}: ${e.error}`);
        assert.equal(e.verdict.valid, true, `${backend.id} block ${e.height}`);
        assert.deepEqual(verdictDifferences(mine.get(e.height), e), [], `${backend.id} block ${e.height}`);
        assert.equal(e.checks, mine.get(e.height).checks, `${backend.id} block ${e.height}: bcoin's signature checks are the engine's`);
      }
    } finally {
      proc.close();
    }
  }
});

const sha256d = (b) => createHash('sha256').update(createHash('sha256').update(b).digest()).digest();

/** CompactSize at `o`: [value, bytes]. */
function varint(buf, o) {
  const first = buf[o];
  if (first < 0xfd) return [first, 1];
  if (first === 0xfd) return [buf.readUInt16LE(o + 1), 3];
  return [buf.readUInt32LE(o + 1), 5];
}

/** Byte ranges of a block without witness data: each tx [start, end) and, per tx, each input's scriptSig [start, end). */
function layout(buf) {
  let o = 80;
  const [count, n] = varint(buf, o);
  o += n;
  const txs = [];
  for (let t = 0; t < count; t++) {
    const start = o;
    o += 4;
    const [ins, a] = varint(buf, o);
    o += a;
    const scriptSigs = [];
    for (let i = 0; i < ins; i++) {
      o += 36;
      const [len, b] = varint(buf, o);
      o += b;
      scriptSigs.push([o, o + len]);
      o += len + 4;
    }
    const [outs, c] = varint(buf, o);
    o += c;
    for (let i = 0; i < outs; i++) {
      o += 8;
      const [len, d] = varint(buf, o);
      o += d + len;
    }
    o += 4;
    txs.push({ start, end: o, scriptSigs });
  }
  assert.equal(o, buf.length, 'the whole block parsed');
  return txs;
}

/** Merkle root of txids (Core's ComputeMerkleRoot: an odd last one is paired with itself). */
function merkleRoot(hashes) {
  let level = hashes;
  while (level.length > 1) {
    const next = [];
    for (let i = 0; i < level.length; i += 2) next.push(sha256d(Buffer.concat([level[i], level[i + 1] ?? level[i]])));
    level = next;
  }
  return level[0];
}

test('a tampered signature (block 170, tx 1 input 0) is rejected by both, naming that input', async () => {
  const [clean] = await loadBlocks(fixturesDir(), { heights: [170] });
  const buf = Buffer.from(clean.block);
  const txs = layout(buf);
  // The scriptSig is one push of a DER signature: 0x47 0x30 L 0x02 rLen r...; flip a byte of r.
  const [sigStart] = txs[1].scriptSigs[0];
  assert.equal(buf[sigStart + 1], 0x30);
  assert.equal(buf[sigStart + 3], 0x02);
  buf[sigStart + 10] ^= 0x01;
  // The txid changed, so the merkle root and the block hash do too; proof of work then fails,
  // which the mutated block is excused from (skipProofOfWork) on both sides.
  merkleRoot(txs.map((t) => sha256d(buf.subarray(t.start, t.end)))).copy(buf, 36);
  const hash = Buffer.from(sha256d(buf.subarray(0, 80))).reverse().toString('hex');
  const tampered = { ...clean, hash, block: new Uint8Array(buf) };

  const mine = ours(tampered, { skipProofOfWork: true });
  assert.equal(mine.valid, false);
  assert.equal(mine.reject_reason, 'mandatory-script-verify-flag-failed');
  assert.deepEqual(mine.first_failing, { tx: 1, input: 0 });
  assert.deepEqual(mine.failing_inputs, [{ tx: 1, input: 0, error: 'EVAL_FALSE' }]);
  const theirs = bcoin.validate(bcoin.prepare(tampered, { skipProofOfWork: true }));
  assert.equal(theirs.valid, false);
  assert.equal(theirs.reject_reason, 'mandatory-script-verify-flag-failed');
  assert.deepEqual(theirs.failing_inputs.map(({ tx, input }) => ({ tx, input })), [{ tx: 1, input: 0 }]);
  assert.deepEqual(verdictDifferences(mine, { verdict: theirs }), []);
  // Without the excuse, both reject the header first.
  assert.equal(ours(tampered).reject_reason, 'high-hash');
  assert.equal(bcoin.validate(bcoin.prepare(tampered)).reject_reason, 'high-hash');
});

test('a changed spent amount of a P2WPKH input (block 553724) is rejected by both, naming that input', async () => {
  const [clean] = await loadBlocks(fixturesDir(), { heights: [553724] });
  const doc = JSON.parse(clean.spentOutputsJson);
  const k = doc.spent_outputs.findIndex((e) => /^0014[0-9a-f]{40}$/.test(e.script_pubkey));
  assert.ok(k >= 0, 'a P2WPKH spend');
  doc.spent_outputs[k].value += 1; // BIP143 commits to the amount: its signature no longer verifies
  const changed = { ...clean, spentOutputsJson: JSON.stringify(doc) };
  const mine = ours(changed);
  assert.equal(mine.valid, false);
  assert.equal(mine.failed_inputs, 1);
  const theirs = bcoin.validate(bcoin.prepare(changed));
  assert.equal(theirs.valid, false);
  assert.equal(theirs.failing_inputs.length, 1);
  assert.deepEqual(theirs.failing_inputs.map(({ tx, input }) => ({ tx, input })), mine.failing_inputs.map(({ tx, input }) => ({ tx, input })));
  assert.deepEqual(verdictDifferences(mine, { verdict: theirs }), []);
});

test('bcoin leaves out exactly the fixture blocks that spend P2TR outputs, saying why', async () => {
  const blocks = (await loadBlocks(fixturesDir())).filter((b) => !b.error);
  const leftOut = blocks.map((b) => [b.height, bcoinCannotJudge(b)]).filter(([, why]) => why);
  assert.deepEqual(leftOut.map(([h]) => h), [866342]);
  assert.match(leftOut[0][1], /^2,373 of its 7,972 inputs spend P2TR outputs: bcoin \S+ predates BIP341/);
});

test('a disagreement is named: the block verdict, the reject reason, the failing inputs', () => {
  const valid = { valid: true, reject_reason: '', stage: '', script_error: '', failed_inputs: 0, failing_inputs: [], first_failing: null, checks: 1, inputs: 1, txs: 2, rounds: 1 };
  const scriptFail = { ...valid, valid: false, reject_reason: 'mandatory-script-verify-flag-failed', script_error: 'EVAL_FALSE', failed_inputs: 1,
    failing_inputs: [{ tx: 1, input: 0, error: 'EVAL_FALSE' }], first_failing: { tx: 1, input: 0 } };
  const bcoinValid = { verdict: { valid: true, reject_reason: '', stage: '', failing_inputs: [] } };
  const bcoinFails = (inputs) => ({ verdict: { valid: false, reject_reason: 'mandatory-script-verify-flag-failed', stage: 'scripts', failing_inputs: inputs } });
  assert.deepEqual(verdictDifferences(valid, bcoinValid), []);
  assert.deepEqual(verdictDifferences(scriptFail, bcoinFails([{ tx: 1, input: 0, error: 'EVAL_FALSE' }])), []);
  assert.match(verdictDifferences(valid, bcoinFails([{ tx: 1, input: 0 }]))[0], /^block verdict: ibd-wasm valid, bcoin INVALID/);
  assert.deepEqual(verdictDifferences(scriptFail, bcoinFails([{ tx: 2, input: 0 }])),
    ['inputs failing in ibd-wasm only: tx 1 input 0', 'inputs failing in bcoin only: tx 2 input 0']);
  assert.deepEqual(verdictDifferences(scriptFail, bcoinFails([{ tx: 1, input: 0 }, { tx: 2, input: 1 }])), ['inputs failing in bcoin only: tx 2 input 1']);
  const rule = { ...valid, valid: false, reject_reason: 'bad-cb-amount', stage: 'ConnectBlock' };
  assert.match(verdictDifferences(rule, { verdict: { valid: false, reject_reason: 'bad-blk-sigops', stage: 'inputs', failing_inputs: [] } })[0],
    /^reject reason: ibd-wasm bad-cb-amount, bcoin bad-blk-sigops/);
  assert.match(verdictDifferences(valid, { error: 'TypeError: boom\n  at x' })[0], /^bcoin could not judge it: TypeError: boom$/);
});

test('the report opens with the disagreements, loudly, and docs/performance.md\'s generator carries the section', () => {
  const set = { heights: [], blocks: 0, inputs: 0, checks: 0, bytes: 0 };
  const wb = {
    mode: 'quick', rounds: 1, warmup_heights: [], native_min_time_s: 0.02, blocks: [], left_out: [], sets: { common: set, all: set },
    contenders: [], verdicts: [], skipped: [], errors: [],
    disagreements: [{ height: 170, hash: 'ab', contender: 'bcoin js', what: 'block verdict: ibd-wasm valid, bcoin INVALID (x)' }],
  };
  const text = formatWholeBlock(wb);
  assert.match(text, /^!!! VERDICT DISAGREEMENTS \(1\):\n!!! {3}block 170 ab \(bcoin js\): block verdict: ibd-wasm valid/);
  // docs/performance.md's generator embeds the section; a document without it (saved before it
  // existed) has none.
  const saved = JSON.parse(readFileSync(LATEST_JSON, 'utf8'));
  const { whole_block: _, ...before } = saved.results;
  assert.doesNotMatch(performanceSection({ ...saved, results: before }, 'latest.json'), /whole-block validation on one core/);
  const page = performanceSection({ ...saved, results: { ...saved.results, whole_block: wb } }, 'latest.json');
  assert.match(page, /!!! VERDICT DISAGREEMENTS \(1\)[^]*whole-block validation on one core[^]*thresholds \(bench/);
});
