// The speed part of `npm run bench`: every contender verifies the same ECDSA and Schnorr check
// sets, interleaved round by round (round r runs every contender once before round r+1
// starts), so that a machine that slows down mid-run slows every contender alike. One thread
// each: ibd-wasm in-process (each variant x batch size, one wasm instance per variant), the
// native build of the same libsecp256k1 (ibd_verify_checks, same bytes), and each peer library.
import path from 'node:path';
import { createBatchVerifier } from '../../wasm/batch-verifier.mjs';
import { createDropIn } from '../../wasm/drop-in.mjs';
import { loadEngine } from '../../wasm/engine.mjs';
import { VARIANTS } from '../../wasm/variants.mjs';
import { walkChecks } from '../../wasm/check-buffer.mjs';
import { nativePass, nativeTool, verdictsSha256 } from './native-tool.mjs';
import { decodeChecks } from './peers/decode.mjs';
import { loadPeers, peerPass } from './peers/index.mjs';
import { median } from '../core/verify-passes.mjs';
import { wasmPass } from '../core/wasm-pass.mjs';

const TYPES = ['ecdsa', 'schnorr'];
/** Records of each set every contender verifies, untimed, before round 1 (JIT and wasm tier-up). */
const WARMUP_RECORDS = 256;

function head(set, n) {
  const count = Math.min(n, set.walked.count);
  const checks = set.checks.subarray(0, set.walked.offsets[count]);
  return { checks, walked: walkChecks(checks) };
}

function countMismatches(verdicts, reference) {
  let n = 0;
  for (let i = 0; i < reference.length; i++) if (verdicts[i] !== reference[i]) n++;
  return n;
}

/**
 * Builds the contenders: one per (wasm build, variant, batch size), the native tool, each peer.
 * @returns {Promise<{contenders: object[], skipped: Array<{name: string, reason: string}>}>}
 *   contender: {name, kind: 'wasm'|'native'|'native-stock'|'drop-in'|'peer', variant?, window?, batch_size?, version?,
 *   backend, types: string[], warm(type), pass(type) -> Promise<{seconds, verdicts?, verdictsSha256?}>}
 */
async function buildContenders(sets, { batchSizes, extraBuilds, select }) {
  const contenders = [];
  const skipped = [];
  const builds = [{ window: 15, dir: undefined, batchSizes }, ...extraBuilds.map((b) => ({ ...b, batchSizes: [b.batchSize] }))];
  for (const build of builds) {
    for (const variant of VARIANTS) {
      let verifier;
      try {
        verifier = createBatchVerifier(await loadEngine(variant, build.dir ? { dir: build.dir } : undefined));
      } catch (err) {
        skipped.push({ name: `ibd-wasm ${variant} window ${build.window}`, reason: err.message });
        continue;
      }
      for (const batchSize of build.batchSizes) {
        contenders.push({
          name: `ibd-wasm ${variant}${build.window === 15 ? '' : ` w${build.window}`}`, kind: 'wasm', variant, window: build.window,
          batch_size: batchSize, backend: `wasm, ECMULT_WINDOW_SIZE ${build.window}`, types: TYPES,
          warm: (type) => wasmPass(verifier, head(sets[type], WARMUP_RECORDS), batchSize),
          pass: async (type) => wasmPass(verifier, sets[type], batchSize),
        });
      }
    }
  }
  const tool = nativeTool();
  if (tool) {
    contenders.push({
      name: 'native libsecp256k1', kind: 'native', backend: `${path.basename(tool)} (same libsecp256k1 0.5.0, native build, 5x52 field)`, types: TYPES,
      warm: () => {}, pass: (type) => nativePass(tool, sets[type].file),
    }, {
      // One check per VerifyBatch call: single verification, the reference of the BIP340
      // batch target (the whole-file pass above batch-verifies its Schnorr records).
      name: 'native libsecp256k1, single', kind: 'native', batch_size: 1,
      backend: `${path.basename(tool)} --batch 1 (one check per call: no Schnorr batch)`, types: TYPES,
      warm: () => {}, pass: (type) => nativePass(tool, sets[type].file, ['--batch', '1']),
    }, {
      // libsecp256k1 as shipped, per check, as Bitcoin Core calls it: no key cache, no key
      // tables, no BIP340 batch (the engine's own additions, which native and wasm share).
      name: 'native libsecp256k1, stock', kind: 'native-stock',
      backend: `${path.basename(tool)} --stock (libsecp256k1's public API per check, as Core's CPubKey::Verify; nothing kept between checks)`, types: TYPES,
      warm: () => {}, pass: (type) => nativePass(tool, sets[type].file, ['--stock']),
    });
  } else {
    skipped.push({ name: 'native libsecp256k1', reason: 'ibd_verify_checks not built under build/native (bench/native/)' });
  }
  const decoded = Object.fromEntries(TYPES.map((t) => [t, decodeChecks(sets[t].checks, sets[t].walked)]));
  // The package's drop-in calls (wasm/drop-in.mjs): tiny-secp256k1's API over the simd engine,
  // one call per signature, on the same decoded checks as the peers (issue 15's per-call target).
  try {
    const dropIn = createDropIn(await loadEngine('simd'));
    const calls = { ecdsa: (m, p, s) => dropIn.verify(m, p, s), schnorr: (m, p, s) => dropIn.verifySchnorr(m, p, s) };
    contenders.push({
      name: 'ibd-wasm drop-in', kind: 'drop-in', variant: 'simd', backend: 'wasm/drop-in.mjs: tiny-secp256k1\'s verify and verifySchnorr, a call per signature',
      types: TYPES,
      warm: (type) => peerPass(calls[type], decoded[type].slice(0, WARMUP_RECORDS)),
      pass: async (type) => peerPass(calls[type], decoded[type]),
    });
  } catch (err) {
    skipped.push({ name: 'ibd-wasm drop-in', reason: err.message });
  }
  for (const peer of await loadPeers()) {
    if (peer.error) {
      skipped.push({ name: peer.name, reason: `does not load: ${peer.error}` });
      continue;
    }
    const types = TYPES.filter((t) => peer[t]);
    for (const t of TYPES.filter((x) => !peer[x])) skipped.push({ name: peer.name, reason: `no ${t} verify in its API` });
    contenders.push({
      name: peer.name, kind: 'peer', version: peer.version, backend: peer.backend, types,
      warm: (type) => peerPass(peer[type], decoded[type].slice(0, WARMUP_RECORDS)),
      pass: async (type) => peerPass(peer[type], decoded[type]),
    });
  }
  return { contenders: contenders.filter(select), skipped };
}

/**
 * Rates of timed rounds over `checks` records.
 * @param {number} checks records per round
 * @param {number[]} roundsSeconds each round's wall time, s
 * @returns {{sig_per_s: number, sig_per_s_min: number, sig_per_s_max: number}} median, slowest
 *   and fastest round's rate, signatures per second
 */
export function rateSummary(checks, roundsSeconds) {
  const rates = roundsSeconds.map((s) => checks / s);
  return { sig_per_s: median(rates), sig_per_s_min: Math.min(...rates), sig_per_s_max: Math.max(...rates) };
}

/**
 * Runs the interleaved rounds.
 * @param {{ecdsa: object, schnorr: object}} sets bench/compare/compare-checks.mjs loadCheckSets().sets
 * @param {{rounds: number, batchSizes: number[], extraBuilds: Array<{window: number, dir: string,
 *   batchSize: number}>, extra?: object[], select?: (contender) => boolean, log: (m: string) => void}}
 *   options extraBuilds: other wasm builds (ECMULT_WINDOW_SIZE settings) timed at one batch
 *   size; extra: contenders built elsewhere (browser-contenders.mjs), run in the same rounds;
 *   select: keeps only the built contenders it returns true for (default: all)
 * @returns {Promise<{rows: object[], skipped: object[]}>} one row per contender and type:
 *   {name, kind, variant, window, batch_size, version, backend, type, checks, rounds_seconds
 *   (s, round order), sig_per_s (median over rounds), sig_per_s_min, sig_per_s_max,
 *   mismatches (verdicts differing from the validation's, worst round; null for the native
 *   tool when its verdict hash differs: it reports no per-record verdicts), verdicts_match}.
 *   Rates are signatures per second on one core.
 */
export async function runSpeed(sets, { rounds, batchSizes, extraBuilds, extra = [], select = () => true, log }) {
  const built = await buildContenders(sets, { batchSizes, extraBuilds, select });
  const contenders = [...built.contenders, ...extra];
  const { skipped } = built;
  const runs = contenders.flatMap((c) => c.types.map((type) => ({ c, type, rounds_seconds: [], mismatches: 0, match: true })));
  const refSha = Object.fromEntries(TYPES.map((t) => [t, verdictsSha256(sets[t].verdicts)]));
  for (const run of runs) await run.c.warm(run.type);
  for (let r = 0; r < rounds; r++) {
    log(`speed: round ${r + 1}/${rounds} (${runs.length} contender passes)`);
    for (const run of runs) {
      const res = await run.c.pass(run.type);
      run.rounds_seconds.push(res.seconds);
      if (res.verdicts) {
        const m = countMismatches(res.verdicts, sets[run.type].verdicts);
        run.mismatches = Math.max(run.mismatches, m);
        run.match &&= m === 0;
      } else {
        run.match &&= res.verdictsSha256 === refSha[run.type];
        if (!run.match) run.mismatches = null;
      }
    }
  }
  const rows = runs.map(({ c, type, rounds_seconds, mismatches, match }) => ({
    name: c.name, kind: c.kind, variant: c.variant ?? null, window: c.window ?? null, batch_size: c.batch_size ?? null,
    version: c.version ?? null, backend: c.backend, type, checks: sets[type].walked.count, rounds_seconds,
    ...rateSummary(sets[type].walked.count, rounds_seconds), mismatches, verdicts_match: match,
  }));
  return { rows, skipped };
}
