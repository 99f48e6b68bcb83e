// One flipped bit in a real mainnet check's signature, message or public key makes that check
// invalid and leaves every other check of the batch valid: ECDSA (uncompressed keys from block
// 170, compressed from 553724 and 866342) and Schnorr (BIP341 key path, 866342), both variants.
//
// Bits that Core's verifier ignores are not flipped, by design: in an ECDSA signature only the
// bytes of the r and s integers are (the lax DER parser ignores the sequence length byte); in
// an ECDSA key not the prefix byte (0x04 -> 0x06 is a hybrid key, which libsecp256k1 accepts
// as the same point when the parity matches).
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { fixturesDir, loadBlocks } from '../blocks-fixtures/loader.mjs';
import { loadEngine, VARIANTS } from '../workers/engine.mjs';
import { CHECK_HEADER_SIZE, CheckType, concatChecks, walkChecks } from '../workers/job-buffer.mjs';
import { parseStrictDer } from './support/der.mjs';
import { prng } from './support/random-checks.mjs';
import { extractFixture, verifyChecks } from './support/wasm.mjs';

const PER_TYPE = 8;
let records; // [{bytes: Uint8Array, type, source}] real checks: PER_TYPE ECDSA then PER_TYPE Schnorr

before(async () => {
  const engine = await loadEngine('simd');
  const blocks = await loadBlocks(fixturesDir(), { heights: [170, 553724, 866342] });
  const all = [];
  for (const block of blocks) {
    const res = extractFixture(engine, block);
    const walked = walkChecks(res.checks);
    for (let i = 0; i < walked.count; i++) {
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
