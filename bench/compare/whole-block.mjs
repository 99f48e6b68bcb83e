// The whole-block part of `npm run bench`: each fixture block validated end to end (parse, block
// rules, sighash, script evaluation, signature verification) on one core by each contender,
// contenders interleaved round by round:
//   - ibd-wasm, each variant: one wasm instance, one validateBlock call per block, as a
//     block-validating worker (binary spent outputs, synchronous verify;
//     bench/compare/blocks/wasm-blocks.mjs);
//   - the native build of the same engine doing the same work: Google Benchmark's
//     BM_ValidateBlock (binary decode + ValidateBlock, kSynchronous;
//     bench/compare/blocks/native-blocks.mjs);
// Both report the engine's stage times, set side by side per stage (stagesOf, STAGES).
//   - bcoin, the JavaScript full node, through its own script engine, one process per crypto
//     backend (bench/compare/blocks/bcoin.mjs), on the blocks it can judge.
// bcoin's verdicts are compared with the engine's block by block (a disagreement is logged
// loudly and listed). Every figure but the cold pass is warm: each contender first makes one
// untimed pass over the warm-up blocks in its fresh instance or process (its cold figure).
import { fixturesDir, loadBlocks } from '../../blocks-fixtures/loader.mjs';
import { median } from '../core/verify-passes.mjs';
import { VARIANTS } from '../../wasm/variants.mjs';
import { BACKENDS, BCRYPTO_NATIVE_UNAVAILABLE, bcoinCannotJudge, PACKAGE as BCOIN } from './blocks/bcoin.mjs';
import { startBcoin } from './blocks/bcoin-process.mjs';
import { verdictDifferences } from './blocks/compare-verdicts.mjs';
import { nativeBlockBench, nativeBlocksPass } from './blocks/native-blocks.mjs';
import { createWasmBlockRunner } from './blocks/wasm-blocks.mjs';

/** --quick's blocks: P2PK (2009), P2PKH (2011), P2SH-P2WPKH and P2WPKH (2018), P2WSH and
 *  nested segwit (2022): every era bcoin can judge, 138 signature checks. */
export const QUICK_HEIGHTS = Object.freeze([170, 116928, 553724, 757739]);
/** The blocks of each contender's untimed first pass (its cold figure). */
export const WARMUP_HEIGHTS = QUICK_HEIGHTS;
/** Untimed passes of each wasm contender after its cold pass, at least this long, s. */
export const WASM_PRIME_SECONDS = 3;
/** Google Benchmark's minimum time per block and round, s (--benchmark_min_time). */
const NATIVE_MIN_TIME = { full: 0.2, quick: 0.02 };

/**
 * Rates of one contender over a set of blocks.
 * @param {number[][]} perRound seconds of each block (rows: rounds), the blocks of the set
 * @param {{blocks: number, inputs: number, checks: number|null}} counts of the set
 * @returns {object} seconds (each round's sum, s), seconds_median, and for blocks, inputs and
 *   checks: <x>_per_s (median over rounds), <x>_per_s_min, <x>_per_s_max (slowest and fastest
 *   round); checks_* null when the checks are not counted
 */
function rates(perRound, counts) {
  const seconds = perRound.map((row) => row.reduce((a, b) => a + b, 0));
  const out = { seconds, seconds_median: median(seconds) };
  for (const key of ['blocks', 'inputs', 'checks']) {
    const n = counts[key];
    const rs = n === null ? null : seconds.map((s) => n / s);
    out[`${key}_per_s`] = rs && median(rs);
    out[`${key}_per_s_min`] = rs && Math.min(...rs);
    out[`${key}_per_s_max`] = rs && Math.max(...rs);
  }
  return out;
}

/**
 * The contenders, each with warm() (the untimed cold pass over the warm-up blocks) and pass()
 * (one timed pass over its blocks), both resolving to per-block entries {height, seconds,
 * verdict?, checks?, error?}.
 */
async function buildContenders({ run, bcoinRun, warmup, mode, dir, log, bcoin }) {
  const contenders = [];
  const skipped = [];
  const errors = [];
  for (const variant of VARIANTS) {
    try {
      const runner = await createWasmBlockRunner(variant);
      contenders.push({
        name: `ibd-wasm ${variant}`, kind: 'wasm', variant, version: null, heights: run.map((b) => b.height),
        backend: 'wasm, one instance: validateBlock (binary spent outputs, synchronous verify)', cold_kind: 'first pass in a fresh wasm instance',
        // After the cold pass, untimed passes over every block for WASM_PRIME_SECONDS: V8
        // compiles wasm with Liftoff first and tiers hot functions up to TurboFan while they
        // run, which takes several passes over small blocks.
        warm: async () => runner.pass(warmup).blocks,
        prime: async () => { for (const t0 = performance.now(); performance.now() - t0 < WASM_PRIME_SECONDS * 1000;) runner.pass(run); },
        pass: async () => runner.pass(run).blocks, close: () => runner.dispose(),
      });
    } catch (err) {
      errors.push({ part: 'whole-block', error: `ibd-wasm ${variant} does not load: ${err?.message ?? err}` });
    }
  }
  const tool = nativeBlockBench();
  if (tool) {
    const heights = run.map((b) => b.height);
    contenders.push({
      name: 'native', kind: 'native', variant: null, version: null, heights,
      backend: 'ibd_native_bench BM_ValidateBlock (same engine and work, native -O3, 5x52 field)', cold_kind: null,
      warm: async () => [], pass: () => nativeBlocksPass(tool, heights, { fixtures: dir, minTime: NATIVE_MIN_TIME[mode] }), close: () => {},
    });
  } else {
    skipped.push({ name: 'native', reason: 'ibd_native_bench not built under build/native (needs Debian libbenchmark-dev)' });
  }
  let nativeNoted = false;
  for (const backend of bcoin ? BACKENDS : []) {
    const label = `${BCOIN} (${backend.id === 'js' ? 'NODE_BACKEND=js' : 'NODE_BACKEND unset'})`;
    let proc;
    try {
      proc = await startBcoin(backend, bcoinRun);
    } catch (err) {
      skipped.push({ name: label, reason: `does not load: ${err?.message ?? err}` });
      continue;
    }
    const { info } = proc;
    log(`whole-block: ${label}: bcoin ${info.version}, ${info.backend.label}; loaded in ${info.load_ms.toFixed(0)} ms`);
    if (!nativeNoted && info.backend.hashes !== 'native') {
      nativeNoted = true;
      skipped.push({ name: `${BCOIN} ${info.version}, bcrypto native backend`, reason: `${BCRYPTO_NATIVE_UNAVAILABLE} (${info.backend.native_error})` });
    }
    const heights = bcoinRun.map((b) => b.height);
    const warmHeights = warmup.filter((b) => heights.includes(b.height)).map((b) => b.height);
    contenders.push({
      name: `bcoin ${backend.id}`, kind: 'bcoin', variant: backend.id, version: info.version, bcrypto: info.bcrypto, heights,
      backend: info.backend.label, crypto: info.backend, load_ms: info.load_ms, start_ms: info.start_ms,
      cold_kind: 'first pass in a fresh process, after bcoin is required',
      warm: () => proc.pass(warmHeights), pass: () => proc.pass(heights), close: proc.close,
    });
  }
  return { contenders, skipped, errors };
}

/**
 * Runs the whole-block rounds.
 * @param {{quick: boolean, rounds: number, fixtures?: string, bcoin?: boolean, log: (m: string) => void}} options
 *   bcoin: false leaves the bcoin contenders out (bench/compare/whole-block-stages.mjs)
 * @returns {Promise<object>} results.whole_block of the `npm run bench` document:
 *   {mode, rounds, fixtures, warmup_heights, native_min_time_s,
 *    blocks: [{height, hash, bytes, inputs, checks, bcoin: boolean}] (the blocks run; inputs
 *      and checks as the engine counts them: non-coinbase inputs, final signature checks),
 *    left_out: [{height, hash, contender: 'bcoin', reason}] (every fixture block bcoin cannot
 *      judge, whether or not this mode runs it),
 *    sets: {common: {heights, blocks, inputs, checks, bytes}, all: {...}} (common: the blocks
 *      every contender ran; all: every block run, which bcoin does not judge whole),
 *    contenders: [{name, kind: 'wasm'|'native'|'bcoin', variant, version, backend, heights,
 *      load_ms?, start_ms? (bcoin: require time and fork-to-ready, cold, ms),
 *      cold: {kind, heights, seconds}|null (the untimed first pass; null for native, which
 *      Google Benchmark times warm only), per_block: [{height, seconds: [per round], checks}]
 *      (checks: bcoin's own count of its signature checks, its verifyDER calls; the engine's
 *      count otherwise), common, all (rates(): seconds per round, medians and min–max of
 *      blocks/s, inputs/s, checks/s; all is null for bcoin), x_native_common, x_native_all
 *      (native's median pass time over this contender's),
 *      stages (stagesOf over sets.all: ms per pass by stage, per round and median; null for bcoin),
 *      x_native_stages ({<stage>: native's median / this contender's}, null for bcoin)}],
 *    verdicts: [{height, hash, ibd_wasm: EngineVerdict, bcoin: {<backend>: verdict|{error}}, agree}],
 *    disagreements: [{height, hash, contender, what}] (bcoin against ibd-wasm, ibd-wasm simd
 *      against scalar, a verdict that changed between rounds),
 *    skipped: [{name, reason}], errors: [{part, error}] (a contender of ours that failed)}
 *   Seconds are wall time on one core; every figure but cold is warm.
 * @throws (rejects) Error when no fixture block loads.
 */
export async function runWholeBlock({ quick, rounds, fixtures, bcoin = true, log }) {
  const mode = quick ? 'quick' : 'full';
  const dir = fixturesDir(fixtures);
  const all = await loadBlocks(dir);
  const loaded = all.filter((b) => !b.error);
  const errors = all.filter((b) => b.error).map((b) => ({ part: 'whole-block', error: `block ${b.height} does not load: ${b.error}` }));
  const leftOut = loaded.map((b) => ({ height: b.height, hash: b.hash, contender: BCOIN, reason: bcoinCannotJudge(b) })).filter((x) => x.reason);
  const run = quick ? loaded.filter((b) => QUICK_HEIGHTS.includes(b.height)) : loaded;
  if (run.length === 0) throw new Error(`none of the blocks ${QUICK_HEIGHTS.join(', ')} loaded from ${dir}`);
  const bcoinRun = run.filter((b) => !leftOut.some((x) => x.height === b.height));
  const warmup = run.filter((b) => WARMUP_HEIGHTS.includes(b.height));
  for (const x of leftOut) log(`whole-block: bcoin leaves out block ${x.height}: ${x.reason}`);

  const built = await buildContenders({ run, bcoinRun, warmup: warmup.length ? warmup : run.slice(0, 1), mode, dir, log, bcoin });
  const { contenders, skipped } = built;
  errors.push(...built.errors);
  const disagreements = [];
  const loud = (d) => {
    disagreements.push(d);
    log(`!!! VERDICT DISAGREEMENT, block ${d.height} (${d.contender}): ${d.what}`);
  };
  const failed = (c, why) => {
    if (c.kind === 'bcoin') skipped.push({ name: c.name, reason: why });
    else errors.push({ part: 'whole-block', error: `${c.name}: ${why}` });
    c.failed = why;
  };
  try {
    const live = [];
    for (const c of contenders) {
      try {
        const t0 = performance.now();
        const entries = await c.warm();
        c.cold = c.cold_kind ? { kind: c.cold_kind, heights: entries.map((e) => e.height), seconds: (performance.now() - t0) / 1000 } : null;
        await c.prime?.();
        c.rounds = [];
        live.push(c);
      } catch (err) {
        failed(c, `warm-up failed: ${err?.message ?? err}`);
      }
    }
    for (let r = 0; r < rounds; r++) {
      const line = [];
      for (const c of live.filter((x) => !x.failed)) {
        try {
          const entries = await c.pass();
          c.rounds.push(new Map(entries.map((e) => [e.height, e])));
          line.push(`${c.name} ${entries.reduce((s, e) => s + (e.seconds ?? 0), 0).toFixed(2)} s`);
        } catch (err) {
          failed(c, `round ${r + 1} failed: ${err?.message ?? err}`);
        }
      }
      log(`whole-block: round ${r + 1}/${rounds}: ${line.join(', ')}`);
    }
    return summarize({ mode, rounds, dir, run, bcoinRun, warmup, leftOut, contenders: live.filter((c) => !c.failed), skipped, errors, disagreements, loud });
  } finally {
    for (const c of contenders) c.close();
  }
}

/** The stages of stagesOf, in the order a validateBlock call runs them: copyInMs (the
 *  arguments into wasm memory; wasm only), spentMs (decoding the binary spent outputs),
 *  parseMs, sighashMs, scriptMs, verifyMs (the engine's StageTimes), resultMs (building the JS
 *  result object; wasm only), otherMs (the call's wall time less all of these: Embind's argument
 *  and return conversion, freeing the engine's result, the harness), wallMs and cpuMs (the
 *  whole calls: wall clock and process CPU time). */
export const STAGES = Object.freeze(['copyInMs', 'spentMs', 'parseMs', 'sighashMs', 'scriptMs', 'verifyMs', 'resultMs', 'otherMs', 'wallMs', 'cpuMs']);

/**
 * Where a contender's time went, summed over `heights`, per round and as medians over rounds.
 * @returns {{rounds: Array<Object<string, number>>, median: Object<string, number>}|null} keys
 *   STAGES, ms per pass (null where the contender does not measure the stage); null when a
 *   block has no times
 */
function stagesOf(c, heights) {
  const rounds = [];
  for (const m of c.rounds) {
    const sum = Object.fromEntries(STAGES.map((k) => [k, 0]));
    for (const h of heights) {
      const e = m.get(h);
      if (!e?.times) return null;
      for (const k of STAGES.slice(0, 7)) sum[k] += e.times[k] ?? NaN;
      sum.wallMs += e.seconds * 1000;
      sum.cpuMs += (e.cpu_seconds ?? NaN) * 1000;
    }
    const measured = STAGES.slice(0, 7).filter((k) => !Number.isNaN(sum[k]));
    sum.otherMs = sum.wallMs - measured.reduce((n, k) => n + sum[k], 0);
    for (const k of STAGES) if (Number.isNaN(sum[k])) sum[k] = null;
    rounds.push(sum);
  }
  if (!rounds.length) return null;
  return { rounds, median: Object.fromEntries(STAGES.map((k) => [k, rounds[0][k] === null ? null : median(rounds.map((r) => r[k]))])) };
}

/** Per-block entries of a contender in round `r`. */
const entryOf = (c, r, height) => c.rounds[r].get(height);

/** The document's whole_block object (runWholeBlock) from the rounds' entries. */
function summarize({ mode, rounds, dir, run, bcoinRun, warmup, leftOut, contenders, skipped, errors, disagreements, loud }) {
  const wasm = contenders.filter((c) => c.kind === 'wasm');
  const ours = wasm[0] ?? null; // the reference verdicts: the first variant
  // The engine's verdict per block (round 1 of the first variant); a verdict that changes
  // between rounds or variants is a disagreement of our own.
  const engineVerdict = new Map();
  for (const b of run) {
    const e = ours && entryOf(ours, 0, b.height);
    if (!e) continue;
    if (e.error) {
      errors.push({ part: 'whole-block', error: `${ours.name}: block ${b.height}: ${e.error}` });
      continue;
    }
    engineVerdict.set(b.height, e.verdict);
  }
  const native = contenders.find((c) => c.kind === 'native');
  for (const [r, m] of (native?.rounds ?? []).entries()) {
    for (const e of m.values()) if (e.error) errors.push({ part: 'whole-block', error: `native, round ${r + 1}: block ${e.height}: ${e.error}` });
  }
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  for (const c of contenders.filter((x) => x.kind !== 'native')) {
    for (const height of c.heights) {
      const first = entryOf(c, 0, height);
      for (let r = 1; r < c.rounds.length; r++) {
        const e = entryOf(c, r, height);
        if (!same(e.verdict ?? e.error, first.verdict ?? first.error)) {
          loud({ height, hash: null, contender: c.name, what: `verdict changed between round 1 and round ${r + 1}` });
          break;
        }
      }
    }
  }
  for (const c of wasm.slice(1)) {
    for (const [height, v] of engineVerdict) {
      const e = entryOf(c, 0, height);
      if (e.error || !same(e.verdict, v)) loud({ height, hash: null, contender: c.name, what: `${c.name} and ${ours.name} differ: ${e.error ?? JSON.stringify(e.verdict)} vs ${JSON.stringify(v)}` });
    }
  }
  const verdicts = [];
  for (const b of run) {
    const mine = engineVerdict.get(b.height) ?? null;
    const theirs = {};
    let agree = mine !== null;
    for (const c of contenders.filter((x) => x.kind === 'bcoin' && x.heights.includes(b.height))) {
      const e = entryOf(c, 0, b.height);
      theirs[c.variant] = e.error ? { error: e.error } : e.verdict;
      if (!mine) continue;
      for (const what of verdictDifferences(mine, e)) {
        agree = false;
        loud({ height: b.height, hash: b.hash, contender: c.name, what });
      }
    }
    verdicts.push({ height: b.height, hash: b.hash, ibd_wasm: mine, bcoin: theirs, agree });
  }
  for (const d of disagreements) d.hash ??= run.find((b) => b.height === d.height)?.hash ?? null;

  const blockInfo = run.map((b) => {
    const v = engineVerdict.get(b.height);
    return { height: b.height, hash: b.hash, bytes: b.block.length, inputs: v?.inputs ?? b.inputs, checks: v?.checks ?? null, bcoin: bcoinRun.includes(b) };
  });
  const setOf = (blocks) => {
    const info = blockInfo.filter((x) => blocks.includes(run.find((b) => b.height === x.height)));
    const sum = (k) => (info.some((x) => x[k] === null) ? null : info.reduce((n, x) => n + x[k], 0));
    return { heights: info.map((x) => x.height), blocks: info.length, inputs: sum('inputs'), checks: sum('checks'), bytes: sum('bytes') };
  };
  const sets = { common: setOf(bcoinRun), all: setOf(run) };

  const out = contenders.map((c) => {
    const perBlock = c.heights.map((height) => {
      const seconds = c.rounds.map((m) => m.get(height)?.seconds ?? null);
      const own = c.kind === 'bcoin' ? entryOf(c, 0, height).checks ?? null : blockInfo.find((x) => x.height === height)?.checks ?? null;
      return { height, seconds, checks: own };
    });
    const over = (set) => {
      if (!set.heights.every((h) => c.heights.includes(h)) || c.rounds.length === 0) return null;
      const rows = c.rounds.map((m) => set.heights.map((h) => m.get(h)?.seconds ?? NaN));
      if (rows.flat().some(Number.isNaN)) return null; // a block without a time (its error is listed)
      const checks = c.kind === 'bcoin' ? perBlock.filter((p) => set.heights.includes(p.height)).reduce((n, p) => (n === null || p.checks === null ? null : n + p.checks), 0) : set.checks;
      return rates(rows, { blocks: set.blocks, inputs: set.inputs, checks });
    };
    const { warm, prime, pass, close, rounds: _r, cold_kind: _k, failed: _f, ...rest } = c;
    return { ...rest, cold: c.cold, per_block: perBlock, common: over(sets.common), all: c.kind === 'bcoin' ? null : over(sets.all) };
  });
  for (const c of out) {
    const live = contenders.find((x) => x.name === c.name);
    c.stages = c.kind === 'bcoin' ? null : stagesOf(live, sets.all.heights);
  }
  const nativeOut = out.find((c) => c.kind === 'native');
  for (const c of out) {
    c.x_native_common = nativeOut?.common && c.common ? nativeOut.common.seconds_median / c.common.seconds_median : null;
    c.x_native_all = nativeOut?.all && c.all ? nativeOut.all.seconds_median / c.all.seconds_median : null;
    c.x_native_stages = nativeOut?.stages && c.stages ? Object.fromEntries(Object.keys(c.stages.median)
      .map((k) => [k, nativeOut.stages.median[k] > 0 && c.stages.median[k] > 0 ? nativeOut.stages.median[k] / c.stages.median[k] : null])) : null;
  }
  return {
    mode, rounds, fixtures: dir, warmup_heights: warmup.map((b) => b.height), native_min_time_s: NATIVE_MIN_TIME[mode],
    blocks: blockInfo, left_out: leftOut, sets, contenders: out, verdicts, disagreements, skipped, errors,
  };
}
