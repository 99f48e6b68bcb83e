// Phase 1 of the benchmark: every loaded fixture block through the engine's BlockValidation
// (wasm/API.md, native/validation/block_validation.h): every input evaluated by the script interpreter on the main
// thread's wasm instance, in rounds with predicted verdicts. Each round, the pending checks of
// ALL blocks are verified together through the pool, then handed back to their blocks, until
// no block has a check pending. The result per block is its FINAL checks (the checks Core
// performs), their verdicts, the block verdict, the coverage by script type and the rounds.
import { concatChecks, walkChecks } from '../../wasm/check-buffer.mjs';
import { countOf } from './format.mjs';

/**
 * Validates every block. One block's failure to load is its `error`; the others still run. A
 * block Bitcoin Core rejects before ConnectBlock (the failure object has a `stage`: wasm/API.md)
 * is not a failure but an invalid block: `rejected`, `blockValid` false, no checks. An
 * exception out of the engine (a wasm trap or abort, after which an Emscripten module is
 * unusable) also replaces the engine with a fresh one from `reload` (the blocks already
 * constructed on the old engine then fail too).
 * @param {() => Promise<object>} reload creates a wasm module (wasm/engine.mjs loadEngine)
 * @param {Array} loaded entries from loadBlocks (blocks-fixtures/loader.mjs)
 * @param {import('../../workers/verify-pool.mjs').VerifyPool} pool a ready pool (verifies each round)
 * @param {{batchSize: number, skipProofOfWork?: boolean, log: (msg: string) => void, progress?: {track: (label: string, total: number) => (((done: number) => void)|undefined)}}} options
 *   progress: shows each round's verification (bench/cli/progress.mjs); none when absent;
 *   skipProofOfWork: BlockValidation's option (only for blocks mutated from real ones)
 * @returns {Promise<Array<{height: number, hash: string|null, dir: string, inputs: number|null,
 *   txCount?: number, checks?: Uint8Array, origins?: Uint32Array, types?: Uint8Array,
 *   verdicts?: Uint8Array, ecdsa?: number, schnorr?: number, inputsByType?: object,
 *   coverage?: object, rounds?: number, blockValid?: boolean, scriptError?: object|null,
 *   inputFailures?: [{tx, input, type, error}] (every input whose script failed, block order),
 *   verdict?: {rejectReason, stage, message, txIndex, inputIndex, outputIndex, fee, subsidy,
 *   sigopCost, notChecked}, rejected?: true, parseMs?: number, error?: string}>>} in `loaded`
 *   order; `verdict`: the engine's reject reason ("" when valid), stage, full message, the
 *   fault's tx / input / output (-1 where none), fee (null when unknown), subsidy, sigop cost
 *   and rules not checked (null / [] for a `rejected` block); parseMs is the main thread's time
 *   in the engine for that block (parse, sighash, script evaluation of every round), in ms;
 *   `verdicts` are the rounds' verdicts of the final checks.
 */
export async function validateBlocks(reload, loaded, pool, { batchSize, skipProofOfWork = false, log, progress }) {
  const options = skipProofOfWork ? { skipProofOfWork: true } : undefined;
  let engine = await reload();
  const t0 = performance.now();
  engine = await warmUp(engine, reload, loaded.find((b) => !b.error));
  const states = [];
  for (const b of loaded) {
    const base = { height: b.height, hash: b.hash, dir: b.dir, inputs: b.inputs };
    if (b.error) {
      states.push({ base, error: b.error });
      continue;
    }
    const t = performance.now();
    let v;
    try {
      v = new engine.BlockValidation(b.block, b.spentOutputsJson, b.hash, b.height, options);
    } catch (err) {
      states.push({ base, error: `${b.dir}: BlockValidation threw: ${err?.message ?? err}` });
      engine = await reload();
      continue;
    }
    const status = v.status();
    if (!status.ok) {
      v.delete();
      if (status.stage) states.push({ base, rejected: status, ms: performance.now() - t });
      else states.push({ base, error: `${b.dir}: ${status.error}` });
      continue;
    }
    states.push({ base, b, v, engine, ms: performance.now() - t, done: false });
  }

  let round = 0;
  for (;;) {
    const active = states.filter((s) => s.v && !s.error && !s.done);
    const pending = [];
    for (const s of active) {
      try {
        const p = s.v.pending();
        if (p.count === 0) s.done = true;
        else pending.push({ s, p });
      } catch (err) {
        fail(s, `pending() threw: ${err?.message ?? err}`);
      }
    }
    if (pending.length === 0) break;
    // No round cap: a pending check is never one whose verdict the engine already has, so each
    // round adds verdicts to the block's cache, and an input can only ask for finitely many
    // distinct checks; consensus limits allow well over 100 rounds (chained CHECKMULTISIG trials
    // that each depend on the previous verdict), so any fixed cap would fail valid blocks.
    round++;
    const all = concatChecks(pending.map(({ p }) => p.checks));
    const total = pending.reduce((n, { p }) => n + p.count, 0);
    log(`validation round ${round}: verifying ${countOf(total, 'pending check')} of ${countOf(pending.length, 'block')}`);
    const verdicts = await pool.verify(all, { batchSize, onProgress: progress?.track(`validation round ${round}`, total) });
    let first = 0;
    for (const { s, p } of pending) {
      const mine = verdicts.subarray(first, first + p.count);
      first += p.count;
      const t = performance.now();
      try {
        s.done = s.v.resolve(mine);
      } catch (err) {
        fail(s, `resolve() threw: ${err?.message ?? err}`);
      }
      s.ms += performance.now() - t;
    }
  }

  const out = states.map((s) => (s.rejected ? rejectedEntry(s) : finish(s)));
  for (const s of states) if (s.v && !s.deleted) s.v.delete();
  const ok = out.filter((b) => !b.error);
  const checks = ok.reduce((n, b) => n + b.ecdsa + b.schnorr, 0);
  const failed = out.length - ok.length;
  const rejected = ok.filter((b) => b.rejected).length;
  log(`validated ${countOf(ok.length, 'block')}, ${countOf(checks, 'check')} in ${countOf(round, 'validation round')}, ` +
    `${((performance.now() - t0) / 1000).toFixed(2)} s${failed ? ` (${failed} failed, listed at the end)` : ''}` +
    `${rejected ? ` (${rejected} rejected before any input was connected)` : ''}`);
  return out;
}

/** Rounds of the untimed warm-up validation; its verdicts are made up, so it need not finish. */
const WARMUP_ROUNDS = 3;

/**
 * One untimed, throwaway BlockValidation of `block` (the first loaded block) before any block's
 * engine time is measured: the first calls into a fresh wasm module pay for its compilation and
 * start-up (measured: block 170 took ~19 ms first, ~0.3 ms after), which would otherwise be
 * charged to whichever block came first. Every pending check is answered "valid" (no pool);
 * nothing of it is kept. Returns the engine to use: a fresh one from `reload` if it threw.
 */
async function warmUp(engine, reload, block) {
  if (!block) return engine;
  let v;
  try {
    v = new engine.BlockValidation(block.block, block.spentOutputsJson, block.hash, block.height);
    if (v.status().ok) {
      let done = false;
      for (let r = 0; r < WARMUP_ROUNDS && !done; r++) {
        const p = v.pending();
        done = p.count === 0 || v.resolve(new Uint8Array(p.count).fill(1));
      }
      if (done) v.result();
    }
    v.delete();
    return engine;
  } catch {
    // The real validation of this block reports the problem; after a trap the module is unusable.
    return reload();
  }
}

/** The entry of a block Core rejects before ConnectBlock: invalid, with no checks. */
function rejectedEntry(s) {
  const f = s.rejected;
  return {
    ...s.base,
    txCount: null,
    checks: new Uint8Array(0),
    origins: new Uint32Array(0),
    types: new Uint8Array(0),
    verdicts: new Uint8Array(0),
    ecdsa: 0,
    schnorr: 0,
    inputsByType: {},
    coverage: {},
    rounds: 0,
    blockValid: false,
    rejected: true,
    scriptError: null,
    inputFailures: [],
    verdict: { rejectReason: f.rejectReason, stage: f.stage, message: f.error, txIndex: f.txIndex, inputIndex: f.inputIndex,
      outputIndex: f.outputIndex, fee: null, subsidy: null, sigopCost: null,
      notChecked: (f.notChecked ?? []).map(({ rule, reason }) => ({ rule, reason })) },
    parseMs: s.ms,
  };
}

function fail(s, message) {
  s.error = `${s.b.dir}: ${message}`;
  try { s.v.delete(); } catch { /* engine gone */ }
  s.deleted = true;
}

/** The block's entry from its finished validation (or its error). */
function finish(s) {
  if (s.error) return { ...s.base, error: s.error };
  const where = s.b.dir;
  let res;
  try {
    const t = performance.now();
    res = s.v.result();
    s.ms += performance.now() - t;
  } catch (err) {
    return { ...s.base, error: `${where}: result() threw: ${err?.message ?? err}` };
  }
  if (!res.ok) return { ...s.base, error: `${where}: ${res.error}` };
  let walked;
  try {
    walked = walkChecks(res.checks);
  } catch (err) {
    return { ...s.base, error: `${where}: engine produced a malformed check buffer: ${err.message}` };
  }
  const problem = inconsistency(s.b, res, walked);
  if (problem) return { ...s.base, error: `${where}: engine output inconsistent: ${problem}` };
  const coverage = {};
  const inputsByType = {};
  for (const [name, c] of Object.entries(res.coverage)) {
    coverage[name] = { inputs: c.inputs, evaluated: c.evaluated, checks: c.checks };
    inputsByType[name] = c.inputs;
  }
  return {
    ...s.base,
    inputs: res.inputs,
    txCount: res.txCount,
    checks: res.checks,
    origins: res.origins,
    types: walked.types,
    verdicts: res.verdicts,
    ecdsa: res.ecdsa,
    schnorr: res.schnorr,
    inputsByType,
    coverage,
    rounds: res.rounds,
    blockValid: res.valid,
    inputFailures: res.inputFailures.map(({ tx, input, type, scriptError }) => ({ tx, input, type, error: scriptError })),
    scriptError: res.scriptError === '' ? null
      : { tx: res.txIndex, input: res.inputIndex, type: res.inputType, error: res.scriptError, message: res.error },
    verdict: { rejectReason: res.rejectReason, stage: res.stage, message: res.error, txIndex: res.txIndex,
      inputIndex: res.inputIndex, outputIndex: res.outputIndex, fee: res.fee < 0 ? null : res.fee, subsidy: res.subsidy,
      sigopCost: res.sigopCost, notChecked: res.notChecked.map(({ rule, reason }) => ({ rule, reason })) },
    parseMs: s.ms,
  };
}

/** Cross-checks a result against the manifest and its own (walked) buffer; returns a
 *  description of the first disagreement, or null. */
function inconsistency(loadedBlock, res, walked) {
  if (res.hash !== loadedBlock.hash) return `hash ${res.hash}, manifest ${loadedBlock.hash}`;
  if (res.inputs !== loadedBlock.inputs) return `${res.inputs} inputs, manifest ${loadedBlock.inputs}`;
  if (walked.byType.ecdsa !== res.ecdsa || walked.byType.schnorr !== res.schnorr) {
    return `counts ecdsa ${res.ecdsa} / schnorr ${res.schnorr}, buffer holds ${walked.byType.ecdsa} / ${walked.byType.schnorr}`;
  }
  if (res.origins.length !== 2 * walked.count) return `${res.origins.length / 2} origins for ${walked.count} checks`;
  if (res.verdicts.length !== walked.count) return `${res.verdicts.length} verdicts for ${walked.count} checks`;
  const covered = Object.values(res.coverage).reduce((n, c) => n + c.inputs, 0);
  if (covered !== res.inputs) return `coverage counts ${covered} inputs of ${res.inputs}`;
  return null;
}
