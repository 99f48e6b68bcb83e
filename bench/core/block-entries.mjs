// The first pass of the benchmark: every loaded fixture block validated whole in the pool's
// workers (workers/block-jobs.mjs validateBlocksInPool: parse, block rules, sighash, scripts
// and every signature in each worker's engine, verified synchronously as Core does). The
// main thread only hands each block's spent_outputs.json text to the workers, which write it in
// the engine's binary form (VerifyPool.encodeSpentOutputs), hands the blocks out and turns each returned result into the
// block's entry: its FINAL checks (the checks Core performs), their verdicts, the block
// verdict, the coverage by script type. It runs no engine. This pass is the workers' first
// (cold): its times are the cold ones; the timed end-to-end rounds (end-to-end.mjs) follow.
import { walkChecks } from '../../wasm/check-buffer.mjs';
import { validateBlocksInPool } from '../../workers/block-jobs.mjs';
import { blockWorkload } from './block-workload.mjs';
import { countOf } from './format.mjs';

/** Whole-validation time of a worker result (parse, sighash, script, verify), ms; null when
 *  it has none (a failure object). */
export const engineMs = (times) => (times ? times.parseMs + times.sighashMs + times.scriptMs + times.verifyMs : null);

/**
 * Validates every loaded block in the workers. One block's failure to load, to encode or to
 * validate is its `error`; the others still run (a block whose validation kills its worker on
 * every attempt fails alone: validateBlocksInPool re-runs such a group's blocks one by one). A
 * block Bitcoin Core rejects before
 * ConnectBlock (the worker's failure object has a `stage`: wasm/API.md) is not a failure but an
 * invalid block: `rejected`, `blockValid` false, no checks.
 * @param {import('../../workers/verify-pool.mjs').VerifyPool} pool a ready pool
 * @param {Array} loaded entries from loadBlocks (blocks-fixtures/loader.mjs; the page's
 *   web/fixtures.mjs gives the same shape)
 * @param {{skipProofOfWork?: boolean, log: (msg: string) => void,
 *   progress?: {track: (label: string, total: number, unit?: string) => (((done: number) => void)|undefined)}}} options
 *   skipProofOfWork: validateBlock's option (only for blocks mutated from real ones); progress:
 *   shows the pass's validation groups (bench/cli/progress.mjs); none when absent
 * @returns {Promise<{entries: object[], jobs: object[], encodeSeconds: number, seconds: number,
 *   busyShare: number|null}>}
 *   entries, in `loaded` order: {height, hash, dir, inputs, txCount, checks (Uint8Array, packed
 *   records), origins (Uint32Array, tx and input per check), types (Uint8Array, CheckType per
 *   check), verdicts (Uint8Array, 1 valid / 0 invalid per check), ecdsa, schnorr, inputsByType,
 *   coverage: {type: {inputs, evaluated, checks}}, rounds (0: the workers verify synchronously),
 *   blockValid, rejected?: true, scriptError: {tx, input, type, error, message}|null,
 *   inputFailures: [{tx, input, type, error}] (every input whose script failed, block order),
 *   verdict: {rejectReason, stage, message, txIndex, inputIndex, outputIndex, fee (null when
 *   unknown), subsidy, sigopCost, notChecked}, coldMs (the workers' time in the engine for the
 *   block in this cold pass: parse, sighash, script, verify, summed over its ranges; null for
 *   a rejected block, whose failure object carries no times), job (its index in `jobs`, or
 *   absent)} or {height, hash, dir, inputs, error}; jobs: validateBlocksInPool's blocks (spent
 *   outputs encoded) for the entries without error, reused by the timed rounds; encodeSeconds:
 *   the wall time of encoding the spent outputs in the workers, s; seconds: the pass's wall time
 *   (cold), s; busyShare: the main thread's event-loop utilization from the encoding to the
 *   last result, 0..1 (null where the host cannot measure it: a browser).
 * @throws nothing of the pool's: a closed or failed pool makes every block's `error`.
 */
export async function validateInWorkers(pool, loaded, { skipProofOfWork = false, log, progress }) {
  const options = skipProofOfWork ? { skipProofOfWork: true } : undefined;
  const elu = globalThis.performance?.eventLoopUtilization; // Node's; absent in browsers
  const before = elu?.();
  const t0 = performance.now();
  const entries = [];
  const jobs = [];
  const sent = []; // [entry index, loaded block] of each job
  const readable = loaded.filter((b) => !b.error);
  let encoded;
  try {
    encoded = await encodeInWorkers(pool, readable.map((b) => b.spentOutputsJson));
  } catch (err) {
    // The pool failed (closed, or no worker could start): every block fails with its reason.
    encoded = readable.map(() => ({ error: err.message, workerFault: true }));
  }
  let k = 0;
  for (const b of loaded) {
    const base = { height: b.height, hash: b.hash, dir: b.dir, inputs: b.inputs };
    if (b.error) {
      entries.push({ ...base, error: b.error });
      continue;
    }
    const e = encoded[k++];
    if (e.error !== undefined) {
      entries.push({ ...base, error: e.workerFault ? `${b.dir}: encoding its spent outputs in the workers failed: ${e.error}`
        : `${b.dir}: spent_outputs.json: ${e.error}` });
      continue;
    }
    sent.push([entries.length, b]);
    entries.push(base);
    jobs.push({ block: b.block, spentOutputs: e.bytes, hash: b.hash, height: b.height, options });
  }
  const encodeSeconds = (performance.now() - t0) / 1000;
  log(`first pass (cold): ${countOf(jobs.length, 'block')} whole in ${countOf(pool.size, 'worker')}`);
  const t1 = performance.now();
  let track;
  let results;
  try {
    results = await validateBlocksInPool(pool, jobs, {
      onProgress: progress && ((done, total) => {
        track ??= progress.track('first pass (cold)', total, 'validation groups') ?? (() => {});
        track(done);
      }),
    });
  } catch (err) {
    // The pool failed (closed, or no worker could start): every block fails with its reason. A
    // block that kills its workers fails alone without coming here (validateBlocksInPool).
    log(`first pass: ${err.message}`);
    results = jobs.map(() => ({ ok: false, error: `failed in the workers: ${err.message}` }));
  }
  const seconds = (performance.now() - t1) / 1000;
  const busyShare = before ? elu(elu(), before).utilization : null;
  const usable = [];
  sent.forEach(([at, b], k) => {
    entries[at] = entryOf(entries[at], b.dir, results[k], jobs[k].block);
    if (!entries[at].error) {
      entries[at].job = usable.length;
      usable.push(jobs[k]);
    }
  });
  const ok = entries.filter((e) => !e.error);
  const failed = entries.length - ok.length;
  const rejected = ok.filter((e) => e.rejected).length;
  log(`validated ${countOf(ok.length, 'block')}, ${countOf(ok.reduce((n, e) => n + e.ecdsa + e.schnorr, 0), 'check')} ` +
    `in the workers, ${seconds.toFixed(2)} s cold` +
    `${failed ? ` (${failed} failed, listed at the end)` : ''}` +
    `${rejected ? ` (${rejected} rejected before any input was connected)` : ''}`);
  return { entries, jobs: usable, encodeSeconds, seconds, busyShare };
}

/** The binary forms of `texts` (spent_outputs.json), encoded in the pool's workers
 *  (VerifyPool.encodeSpentOutputs), the texts cut into up to 2 groups per worker of about equal
 *  length; per text {bytes} or {error}, in order. */
async function encodeInWorkers(pool, texts) {
  if (texts.length === 0) return [];
  const count = Math.min(texts.length, 2 * pool.size);
  const per = texts.reduce((n, t) => n + t.length, 0) / count;
  const groups = [];
  let open = [];
  let size = 0;
  texts.forEach((t, i) => {
    open.push(t);
    size += t.length;
    if (size >= per * (groups.length + 1) && groups.length < count - 1 && i < texts.length - 1) {
      groups.push(open);
      open = [];
    }
  });
  groups.push(open);
  return (await pool.encodeSpentOutputs(groups)).flat();
}

/** The entry of one block from its worker result (or failure object); `block` its bytes. */
function entryOf(base, where, res, block) {
  if (!res.ok) {
    if (!res.stage) return { ...base, error: `${where}: ${res.error}` };
    return rejectedEntry(base, res);
  }
  let walked;
  try {
    walked = walkChecks(res.checks);
  } catch (err) {
    return { ...base, error: `${where}: engine produced a malformed check buffer: ${err.message}` };
  }
  const problem = inconsistency(base, res, walked);
  if (problem) return { ...base, error: `${where}: engine output inconsistent: ${problem}` };
  const coverage = {};
  const inputsByType = {};
  for (const [name, c] of Object.entries(res.coverage)) {
    coverage[name] = { inputs: c.inputs, evaluated: c.evaluated, checks: c.checks, scriptBytes: c.scriptBytes };
    inputsByType[name] = c.inputs;
  }
  return {
    ...base,
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
    coldMs: engineMs(res.times),
    workload: blockWorkload(res, { height: base.height, block }),
  };
}

/** The entry of a block Core rejects before ConnectBlock: invalid, with no checks. */
function rejectedEntry(base, f) {
  return {
    ...base,
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
    coldMs: null,
    workload: null,
  };
}

/** Cross-checks a result against the manifest and its own (walked) buffer; returns a
 *  description of the first disagreement, or null. */
function inconsistency(base, res, walked) {
  if (res.hash !== base.hash) return `hash ${res.hash}, manifest ${base.hash}`;
  if (res.inputs !== base.inputs) return `${res.inputs} inputs, manifest ${base.inputs}`;
  if (walked.byType.ecdsa !== res.ecdsa || walked.byType.schnorr !== res.schnorr) {
    return `counts ecdsa ${res.ecdsa} / schnorr ${res.schnorr}, buffer holds ${walked.byType.ecdsa} / ${walked.byType.schnorr}`;
  }
  if (res.origins.length !== 2 * walked.count) return `${res.origins.length / 2} origins for ${walked.count} checks`;
  if (res.verdicts.length !== walked.count) return `${res.verdicts.length} verdicts for ${walked.count} checks`;
  const covered = Object.values(res.coverage).reduce((n, c) => n + c.inputs, 0);
  if (covered !== res.inputs) return `coverage counts ${covered} inputs of ${res.inputs}`;
  return null;
}
