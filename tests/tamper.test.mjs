// One flipped bit in a real mainnet check's signature, message or public key makes that check
// invalid and leaves every other check of the batch valid: ECDSA (uncompressed keys from block
// 170, compressed from 553724 and 866342) and Schnorr (BIP341 key path, 866342), both variants.
// Through BlockValidation: a changed amount fails exactly its BIP143 check and makes the block
// invalid naming that input; a flipped key in a bare multisig makes the walk try every key and
// the input fail, naming it.
//
// Bits that Core's verifier ignores are not flipped, by design: in an ECDSA signature only the
// bytes of the r and s integers are (the lax DER parser ignores the sequence length byte); in
// an ECDSA key not the prefix byte (0x04 -> 0x06 is a hybrid key, which libsecp256k1 accepts
// as the same point when the parity matches).
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { fixturesDir, loadBlocks } from '../blocks-fixtures/loader.mjs';
import { loadEngine } from '../wasm/engine.mjs';
import { VARIANTS } from '../wasm/variants.mjs';
import { CHECK_HEADER_SIZE, CheckType, concatChecks, walkChecks } from '../wasm/check-buffer.mjs';
import { parseStrictDer } from '../bench/compare/peers/der.mjs';
import { prng } from './support/random-checks.mjs';
import { validateFixture, verifyChecks } from './support/wasm.mjs';

const PER_TYPE = 8;
let records; // [{bytes: Uint8Array, type, source}] real checks: PER_TYPE ECDSA then PER_TYPE Schnorr

before(async () => {
  const engine = await loadEngine('simd');
  const blocks = await loadBlocks(fixturesDir(), { heights: [170, 553724, 866342] });
  const all = [];
  for (const block of blocks) {
    const res = await validateFixture(engine, block);
    const walked = walkChecks(res.checks);
    for (let i = 0; i < walked.count; i++) {
      if (res.verdicts[i] !== 1) continue; // a multisig walk's failing trial check
      const bytes = res.checks.slice(walked.offsets[i], walked.offsets[i + 1]);
      all.push({ bytes, type: walked.types[i], source: `block ${block.height} tx ${res.origins[2 * i]} input ${res.origins[2 * i + 1]}` });
    }
  }
  const ecdsa = all.filter((r) => r.type === CheckType.ECDSA && parseStrictDer(sigOf(r)));
  const schnorr = all.filter((r) => r.type === CheckType.SCHNORR);
  const spread = (list) => Array.from({ length: PER_TYPE }, (_, k) => list[Math.floor((k * list.length) / PER_TYPE)]);
  records = [...ecdsa.slice(0, 4), ...spread(ecdsa.slice(4)).slice(0, PER_TYPE - 4), ...spread(schnorr)];
  assert.ok(records.some((r) => r.bytes[1] === 65) && records.some((r) => r.bytes[1] === 33), 'both ECDSA key forms');
  assert.equal(records.filter((r) => r.type === CheckType.SCHNORR).length, PER_TYPE);
});

const pkLen = (r) => r.bytes[1];
const sigOf = (r) => r.bytes.subarray(CHECK_HEADER_SIZE + pkLen(r));

/** Byte ranges [start, end) within a record where any flipped bit must invalidate it. */
function fieldRanges(r) {
  const keyStart = CHECK_HEADER_SIZE;
  const sigStart = CHECK_HEADER_SIZE + pkLen(r);
  if (r.type === CheckType.SCHNORR) {
    return { msg: [[4, 36]], pubkey: [[keyStart, keyStart + 32]], sig: [[sigStart, sigStart + 64]] };
  }
  const der = parseStrictDer(sigOf(r));
  return {
    msg: [[4, 36]],
    pubkey: [[keyStart + 1, keyStart + pkLen(r)]],
    sig: [[sigStart + der.rStart, sigStart + der.rStart + der.rLen], [sigStart + der.sStart, sigStart + der.sStart + der.sLen]],
  };
}

for (const variant of VARIANTS) {
  test(`a flipped bit invalidates exactly the tampered check (${variant})`, async () => {
    const engine = await loadEngine(variant);
    const clean = concatChecks(records.map((r) => r.bytes));
    assert.deepEqual([...verifyChecks(engine, clean)], records.map(() => 1), 'untampered real checks are valid');
    const offsets = walkChecks(clean).offsets;
    const next = prng(0x1b1d + variant.length);
    let trials = 0;
    for (const [k, r] of records.entries()) {
      for (const [field, ranges] of Object.entries(fieldRanges(r))) {
        for (let rep = 0; rep < 2; rep++) {
          const [start, end] = ranges[next() % ranges.length];
          const byte = start + (next() % (end - start));
          const bit = next() % 8;
          const tampered = clean.slice();
          tampered[offsets[k] + byte] ^= 1 << bit;
          const verdicts = verifyChecks(engine, tampered);
          const expected = records.map((_, j) => (j === k ? 0 : 1));
          assert.deepEqual([...verdicts], expected,
            `${r.type === CheckType.ECDSA ? 'ECDSA' : 'Schnorr'} check from ${r.source}: bit ${bit} of ${field} byte ${byte}`);
          trials++;
        }
      }
    }
    assert.equal(trials, records.length * 3 * 2);
  });
}

/** Input (tx, input) -> its final checks' bytes, from a BlockValidation result. */
function checksByInput(res) {
  const { offsets, count } = walkChecks(res.checks);
  const out = new Map();
  for (let i = 0; i < count; i++) {
    const key = `${res.origins[2 * i]}:${res.origins[2 * i + 1]}`;
    out.set(key, [...(out.get(key) ?? []), Buffer.from(res.checks.subarray(offsets[i], offsets[i + 1])).toString('hex')]);
  }
  return out;
}

/** A loaded block whose spent outputs JSON has entry `k` changed by `edit`. */
function withSpent(block, k, edit) {
  const doc = JSON.parse(block.spentOutputsJson);
  edit(doc.spent_outputs[k]);
  return { ...block, spentOutputsJson: JSON.stringify(doc) };
}

test('BlockValidation: a changed amount fails exactly its BIP143 check; the block is invalid naming the input', async () => {
  const engine = await loadEngine('simd');
  const [block] = await loadBlocks(fixturesDir(), { heights: [553724] });
  const k = JSON.parse(block.spentOutputsJson).spent_outputs.findIndex((e) => /^0014[0-9a-f]{40}$/.test(e.script_pubkey));
  assert.ok(k >= 0, 'a P2WPKH spend');
  const clean = await validateFixture(engine, block);
  assert.equal(clean.valid, true);
  const res = await validateFixture(engine, withSpent(block, k, (e) => { e.value += 1; }));
  assert.deepEqual([...res.verdicts], [0, 1, 2].map((i) => (i === k ? 0 : 1)));
  assert.equal(res.valid, false);
  assert.deepEqual([res.txIndex, res.inputIndex, res.inputType, res.scriptError, res.failedInputs],
    [res.origins[2 * k], res.origins[2 * k + 1], 'p2wpkh', 'EVAL_FALSE', 1]);
  assert.match(res.error, new RegExp(`^SCRIPT_ERR_EVAL_FALSE: tx ${res.txIndex} input ${res.inputIndex} \\(p2wpkh\\)`));
});

test('BlockValidation: a flipped key of a bare 1-of-3 multisig makes its input try every key and fail', async () => {
  const engine = await loadEngine('simd');
  const [block] = await loadBlocks(fixturesDir(), { heights: [300025] });
  const spent = JSON.parse(block.spentOutputsJson).spent_outputs;
  const k = spent.findIndex((e) => e.script_pubkey.endsWith('53ae'));
  assert.ok(k >= 0, 'a bare multisig spend');
  const clean = await validateFixture(engine, block);
  // Core's walk tries the last key first; flip a bit in it (its byte 10, past the 0x21 push and prefix).
  const spk = spent[k].script_pubkey;
  const at = spk.length - 4 - 66 + 2 * 10;
  const flipped = spk.slice(0, at) + (parseInt(spk.slice(at, at + 2), 16) ^ 0x01).toString(16).padStart(2, '0') + spk.slice(at + 2);
  const res = await validateFixture(engine, withSpent(block, k, (e) => { e.script_pubkey = flipped; }));
  assert.equal(res.valid, false);
  assert.equal(res.failedInputs, 1);
  assert.equal(res.inputType, 'multisig');
  assert.equal(res.scriptError, 'EVAL_FALSE');
  // Exactly the named input's checks changed: one check before, all three keys tried after, all invalid.
  const before = checksByInput(clean);
  const after = checksByInput(res);
  const changed = [...new Set([...before.keys(), ...after.keys()])]
    .filter((key) => JSON.stringify(before.get(key)) !== JSON.stringify(after.get(key)));
  assert.deepEqual(changed, [`${res.txIndex}:${res.inputIndex}`]);
  assert.equal(before.get(changed[0]).length, 1);
  assert.equal(after.get(changed[0]).length, 3);
  assert.ok(res.rounds >= 2, `rounds ${res.rounds}`);
  const { count } = walkChecks(res.checks);
  const invalid = [...Array(count).keys()].filter((i) => res.verdicts[i] !== 1)
    .map((i) => `${res.origins[2 * i]}:${res.origins[2 * i + 1]}`);
  assert.deepEqual(invalid, [changed[0], changed[0], changed[0]]);
});
