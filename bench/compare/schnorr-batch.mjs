// What BIP340 batch verification costs per signature at each batch size, in wasm and native, and
// the crossover: the batch size from which a batch beats verifying each signature alone.
// Real signatures only: the Schnorr checks of the fixture blocks (compare-checks.mjs), in block
// order, repeated whole when a size needs more records than the fixtures hold (a repeated
// signature is still a valid one; the batch's randomizers differ per position). Signatures under
// one key share its term in a batch (native/secp256k1/schnorrsig_batch.h), so each size's row
// gives the distinct keys of its records: real reuse up to the fixture count, repeats beyond it,
// which the fastest-batch ratio leaves out.
//
// Contenders, every round running each once per size, sizes in an order that rotates by one
// each round, single verification once per round:
//   - ibd-wasm <variant> batch: schnorrBatchVerify (wasm/bindings.cpp), one raw batch
//     (ibd::VerifySchnorrBatchOnce: one multi-scalar multiplication, no grouping, no fallback)
//     per `size` records, one wasm instance per variant, this thread;
//   - ibd-wasm <variant> single: verifyBatch one record per call (secp256k1_schnorrsig_verify);
//   - native batch / native single: the same two through ibd_verify_checks (--schnorr-batch
//     --batch size / --batch 1) on the same bytes, timed inside the tool.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createBatchVerifier } from '../../wasm/batch-verifier.mjs';
import { CheckType, concatChecks, selectFirstPerKey, walkChecks } from '../../wasm/check-buffer.mjs';
import { loadEngine } from '../../wasm/engine.mjs';
import { VARIANTS } from '../../wasm/variants.mjs';
import { median } from '../core/verify-passes.mjs';
import { loadCheckSets } from './compare-checks.mjs';
import { nativePass, nativeTool } from './native-tool.mjs';

/** Batch sizes swept by default: 1, 2, 4, .. 4,096 signatures. */
export const DEFAULT_SIZES = Object.freeze(Array.from({ length: 13 }, (_, i) => 2 ** i));
/** Bytes of one Schnorr record (native/verify/check_buffer.h: 36 + 32 + 64). */
const RECORD_BYTES = 132;

/** `n` records from `checks`, repeated whole as needed. */
function repeatTo(checks, walked, n) {
  const copies = Math.ceil(n / walked.count);
  const all = copies === 1 ? checks : concatChecks(Array(copies).fill(checks));
  return all.subarray(0, n * RECORD_BYTES);
}

/** One wasm instance with the records copied in once; batch(size) and single() time one pass. */
function wasmContender(engine, records, count) {
  const ptr = engine._malloc(records.length);
  if (!ptr) throw new Error(`wasm _malloc(${records.length}) failed`);
  engine.HEAPU8.set(records, ptr);
  const verifier = createBatchVerifier(engine);
  const walked = walkChecks(records);
  return {
    /** Seconds for `count` signatures in calls of `size`; throws when a batch of valid signatures fails. */
    batch(size) {
      const t0 = performance.now();
      for (let i = 0; i < count; i += size) {
        const n = Math.min(size, count - i);
        if (engine.schnorrBatchVerify(ptr + i * RECORD_BYTES, n * RECORD_BYTES, n) !== 1) {
          throw new Error(`wasm batch of ${n} valid signatures from record ${i} failed`);
        }
      }
      return (performance.now() - t0) / 1000;
    },
    /** Seconds for `count` signatures, one verifyBatch call each (copy-in and -out included). */
    single() {
      const t0 = performance.now();
      for (let i = 0; i < count; i++) {
        const r = verifier.verify(records.subarray(walked.offsets[i], walked.offsets[i + 1]), 1);
        if (r.verdicts[0] !== 1) throw new Error(`wasm single verification of record ${i} failed`);
      }
      return (performance.now() - t0) / 1000;
    },
  };
}

/** Crossover: the smallest size > 1 from which every larger size's median per-signature time
 *  is below single verification's; null when no such size was measured. `rows` in any order. */
export function crossover(rows, singleUs) {
  const bySize = [...rows].sort((a, b) => a.size - b.size);
  let at = null;
  for (let i = bySize.length - 1; i >= 0; i--) {
    if (bySize[i].size > 1 && bySize[i].us_per_sig < singleUs) at = bySize[i].size;
    else break;
  }
  return at;
}

const summary = (secondsList, count) => {
  const us = secondsList.map((s) => (s * 1e6) / count);
  return { us_per_sig: median(us), us_per_sig_min: Math.min(...us), us_per_sig_max: Math.max(...us) };
};

/**
 * Runs the sweep.
 * @param {{sizes?: number[], rounds?: number, fixtures?: string, onePerKey?: boolean,
 *   against?: string, log?: (m: string) => void}} options
 *   sizes: batch sizes (distinct positive integers in any order, default DEFAULT_SIZES; the
 *   result lists them ascending); rounds: default 5; against: another build's wasm directory,
 *   whose variants join the rounds as contenders marked `against` (left out of
 *   wasm_batched_vs_native_single)
 * @returns {Promise<{signatures: number, fixture_checks: number, rounds: number, sizes: number[],
 *   contenders: Array<{name: string, against: boolean, single: {us_per_sig, us_per_sig_min, us_per_sig_max},
 *   rows: Array<{size, us_per_sig, us_per_sig_min, us_per_sig_max, vs_single}>, crossover: number|null}>,
 *   wasm_batched_vs_native_single: number|null, skipped: string[]}>} per-signature times in µs,
 *   medians over rounds with min-max; vs_single = single's median / this size's median (> 1:
 *   the batch is faster); wasm_batched_vs_native_single: the fastest wasm batch size's
 *   signatures/s over native single verification's, same run.
 * @throws (rejects) Error when a size is listed twice, the fixtures hold no Schnorr check, or a
 *   batch of valid signatures fails (a wrong answer, never timed around).
 */
export async function runSchnorrBatch({ sizes: given = DEFAULT_SIZES, rounds = 5, fixtures, onePerKey = false, against, log = () => {} } = {}) {
  const sizes = [...given].sort((a, b) => a - b);
  const twice = sizes.find((s, i) => sizes[i + 1] === s);
  if (twice !== undefined) throw new Error(`batch size ${twice} listed twice: each would be timed into the same samples`);
  const loaded = await loadCheckSets({ fixtures, limits: { ecdsa: 1, schnorr: Infinity }, log });
  try {
    const set = loaded.sets.schnorr;
    if (set.walked.count === 0) throw new Error('the fixture blocks hold no Schnorr check');
    if (!set.verdicts.every((v) => v === 1)) throw new Error('a fixture Schnorr check is invalid: the sweep needs valid signatures');
    const count = Math.max(...sizes);
    const source = onePerKey ? selectFirstPerKey(set.checks, set.walked, CheckType.SCHNORR).checks : set.checks;
    const distinct = source.length / RECORD_BYTES;
    const records = repeatTo(source, walkChecks(source), count);
    const file = path.join(path.dirname(set.file), 'schnorr-sweep.checks');
    writeFileSync(file, records);

    const contenders = [];
    const skipped = [];
    for (const variant of VARIANTS) {
      const w = wasmContender(await loadEngine(variant), records, count);
      w.batch(Math.min(64, count)); // untimed warm-up: compile tiers, scratch space
      contenders.push({ name: `ibd-wasm ${variant}`, batch: async (size) => w.batch(size), single: async () => w.single() });
    }
    if (against !== undefined) {
      // Another build (an earlier commit's, say) in the same rounds: a before/after of one run.
      for (const variant of VARIANTS) {
        const w = wasmContender(await loadEngine(variant, { dir: against }), records, count);
        w.batch(Math.min(64, count));
        contenders.push({ name: `${variant} @ ${against}`, against: true, batch: async (size) => w.batch(size), single: async () => w.single() });
      }
    }
    const tool = nativeTool();
    if (tool) {
      contenders.push({
        name: 'native libsecp256k1',
        batch: async (size) => (await nativePass(tool, file, ['--schnorr-batch', '--batch', String(size)])).seconds,
        single: async () => (await nativePass(tool, file, ['--batch', '1'])).seconds,
      });
    } else {
      skipped.push('native libsecp256k1: ibd_verify_checks not built under build/native');
    }

    const times = contenders.map(() => ({ single: [], bySize: new Map(sizes.map((s) => [s, []])) }));
    for (let r = 0; r < rounds; r++) {
      const order = sizes.map((_, i) => sizes[(i + r) % sizes.length]);
      for (const [c, contender] of contenders.entries()) times[c].single.push(await contender.single());
      for (const size of order) {
        for (const [c, contender] of contenders.entries()) times[c].bySize.get(size).push(await contender.batch(size));
      }
      log(`round ${r + 1}/${rounds} done`);
    }

    const out = contenders.map((contender, c) => {
      const single = summary(times[c].single, count);
      const rows = sizes.map((size) => {
        const s = summary(times[c].bySize.get(size), count);
        return { size, ...s, vs_single: single.us_per_sig / s.us_per_sig };
      });
      return { name: contender.name, against: contender.against === true, single, rows, crossover: crossover(rows, single.us_per_sig) };
    });
    const native = out.find((c) => c.name.startsWith('native'));
    // Only sizes whose records are all distinct signatures: repeats would share keys the real
    // blocks do not.
    const bestWasm = Math.min(...out.filter((c) => c.name.startsWith('ibd-wasm') && !c.against)
      .flatMap((c) => c.rows.filter((row) => row.size <= distinct).map((row) => row.us_per_sig)));
    return {
      signatures: count,
      fixture_checks: distinct,
      one_per_key: onePerKey,
      rounds,
      sizes,
      keys: sizes.map((size) => distinctKeys(records, size)),
      contenders: out,
      wasm_batched_vs_native_single: native ? native.single.us_per_sig / bestWasm : null,
      skipped,
    };
  } finally {
    loaded.dispose();
  }
}

const fmt = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

/** Distinct x-only keys among the first `n` Schnorr records of `records` (each RECORD_BYTES:
 *  the 36-byte header, the 32-byte key, the signature). */
function distinctKeys(records, n) {
  const keys = new Set();
  for (let i = 0; i < n; i++) keys.add(Buffer.from(records.subarray(i * RECORD_BYTES + 36, i * RECORD_BYTES + 68)).toString('hex'));
  return keys.size;
}

/** The sweep as a text table: one column per contender, µs per signature median (min-max) and
 *  the ratio to single verification; then crossovers and the target ratio. */
export function formatSchnorrBatch(result) {
  const lines = [];
  lines.push(`BIP340 batch verification: ${result.signatures} signatures per pass (the ${result.fixture_checks} ` +
    `Schnorr checks of the fixture blocks${result.one_per_key ? ' that are the first under their key' : ''}, repeated), ` +
    `${result.rounds} rounds interleaved, one core, warm.`);
  lines.push('µs per signature, median (min-max) over rounds; x = single verification / batch (above 1: the batch pays)');
  const head = ['size', 'keys', ...result.contenders.map((c) => c.name)];
  const rows = [head];
  rows.push(['single', '', ...result.contenders.map((c) => `${fmt(c.single.us_per_sig)} (${fmt(c.single.us_per_sig_min)}-${fmt(c.single.us_per_sig_max)})`)]);
  result.sizes.forEach((size, i) => {
    rows.push([String(size), `${result.keys[i]}${size > result.fixture_checks ? ' (repeats)' : ''}`, ...result.contenders.map((c) => {
      const r = c.rows[i];
      return `${fmt(r.us_per_sig)} (${fmt(r.us_per_sig_min)}-${fmt(r.us_per_sig_max)}) ${r.vs_single.toFixed(2)}x`;
    })]);
  });
  const widths = head.map((_, k) => Math.max(...rows.map((r) => r[k].length)));
  for (const r of rows) lines.push(r.map((cell, k) => cell.padStart(widths[k])).join('  '));
  for (const c of result.contenders) {
    lines.push(`${c.name}: crossover ${c.crossover === null ? 'none measured (no batch size beats single verification from there up)' : `at ${c.crossover} signatures`}`);
  }
  if (result.wasm_batched_vs_native_single !== null) {
    lines.push(`fastest wasm batch of distinct signatures (sizes up to ${result.fixture_checks}) / native single verification: ${result.wasm_batched_vs_native_single.toFixed(2)}x (target wasm_schnorr_batched_vs_native_single in bench/compare/thresholds.json: >= 1.5x)`);
  }
  for (const s of result.skipped) lines.push(`skipped: ${s}`);
  return lines.join('\n');
}
