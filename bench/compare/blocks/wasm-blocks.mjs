// ibd-wasm's whole-block contender: every fixture block validated end to end in ONE wasm
// instance on this thread, one core, as a block-validating worker does it
// (workers/batch-handler.mjs): one validateBlock call per block (wasm/API.md: parse, block rules,
// sighash, scripts, each signature verified synchronously in the same instance) on the block's
// bytes and its spent outputs in the binary form (wasm/spent-outputs.mjs, encoded once before
// timing, as the main thread does). The native contender does the same work
// (bench/native/block_bench.cpp, BM_ValidateBlock: binary decode + ValidateBlock, kSynchronous).
// validateInInstance keeps the rounds path (BlockValidation + verifyBatch) for the tests.
import { loadEngine } from '../../../wasm/engine.mjs';
import { encodeSpentOutputs } from '../../../wasm/spent-outputs.mjs';

/**
 * The engine's verdict of one block, in the shape the comparison reads.
 * @typedef {{valid: boolean, reject_reason: string, stage: string, script_error: string,
 *   failed_inputs: number, failing_inputs: Array<{tx: number, input: number, error: string}>,
 *   first_failing: {tx: number, input: number}|null, checks: number, inputs: number, txs: number,
 *   rounds: number}} EngineVerdict
 *   reject_reason: Core's reason ("" when valid); stage: Core's function that found it;
 *   script_error: the first failing input's ScriptError name ("" unless the verdict is a
 *   script failure); failed_inputs: inputs whose script failed, whatever the verdict;
 *   failing_inputs: each of them in block order with Core's ScriptError name (the engine's
 *   result().inputFailures); first_failing: where the verdict's
 *   fault is when it is an input (else null); checks: the final signature checks (ECDSA +
 *   Schnorr); rounds: validation rounds
 */

/**
 * Validates one block to the end in `engine`, verifying each round in the same instance.
 * @param {object} engine a wasm module (wasm/engine.mjs loadEngine)
 * @param {{verify: Function}} verifier createBatchVerifier(engine)
 * @param {{height: number, hash: string, block: Uint8Array, spentOutputsJson: string}} block
 * @param {{skipProofOfWork?: boolean}} [options] BlockValidation's option (mutated blocks only)
 * @returns {EngineVerdict}
 * @throws Error naming the block when it fails to load (not a verdict) or a batch is malformed.
 */
export function validateInInstance(engine, verifier, block, { skipProofOfWork = false } = {}) {
  const v = new engine.BlockValidation(block.block, block.spentOutputsJson, block.hash, block.height,
    skipProofOfWork ? { skipProofOfWork: true } : undefined);
  try {
    const status = v.status();
    if (!status.ok) return verdictOf(status, block.height);
    for (let p = v.pending(); p.count > 0; p = v.pending()) {
      const r = verifier.verify(p.checks, p.count);
      if (r.error) throw new Error(`block ${block.height}: verifyBatch error ${r.error} at record ${r.errorRecord}`);
      if (v.resolve(r.verdicts)) break;
    }
    const res = v.result();
    if (!res.ok) throw new Error(`block ${block.height}: ${res.error}`);
    return verdictOf(res, block.height);
  } finally {
    v.delete();
  }
}

/**
 * The EngineVerdict of a validateBlock result or failure object (wasm/API.md).
 * @param {object} res engine.validateBlock's return value
 * @param {number} height for the error message
 * @returns {EngineVerdict}
 * @throws Error naming the block when it failed to load (a failure without a stage: not a verdict)
 */
export function verdictOf(res, height) {
  if (!res.ok) {
    if (!res.stage) throw new Error(`block ${height}: ${res.error}`);
    return { valid: false, reject_reason: res.rejectReason, stage: res.stage, script_error: '', failed_inputs: 0,
      failing_inputs: [], first_failing: null, checks: 0, inputs: 0, txs: 0, rounds: 0 };
  }
  return {
    valid: res.valid, reject_reason: res.rejectReason, stage: res.stage, script_error: res.scriptError,
    failed_inputs: res.failedInputs,
    failing_inputs: res.inputFailures.map((f) => ({ tx: f.tx, input: f.input, error: f.scriptError })),
    first_failing: res.inputIndex >= 0 ? { tx: res.txIndex, input: res.inputIndex } : null,
    checks: res.ecdsa + res.schnorr, inputs: res.inputs, txs: res.txCount, rounds: res.rounds,
  };
}

/** The spent outputs' binary form of each block object, encoded once (untimed). */
const binarySpent = new WeakMap();
const spentOf = (b) => {
  if (!binarySpent.has(b)) binarySpent.set(b, encodeSpentOutputs(b.spentOutputsJson));
  return binarySpent.get(b);
};

/** Process CPU time (user + system), s. */
const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/**
 * A whole-block runner on one fresh wasm instance of `variant`.
 * @param {string} variant wasm/variants.mjs VARIANTS
 * @param {{skipProofOfWork?: boolean, dir?: string}} [options] dir: the folder of the build
 *   (wasm/engine.mjs loadEngine; default build/wasm)
 * @returns {Promise<{pass: (blocks: object[]) => {blocks: Array<{height: number, seconds: number,
 *   cpu_seconds: number, times?: object, heap_bytes: number, verdict?: EngineVerdict,
 *   error?: string}>, seconds: number}, dispose: () => void}>}
 *   pass: each block once, in order, one validateBlock call each, timed one by one: seconds
 *   (wall clock), cpu_seconds (this process's CPU time over the call: the figure to trust on a
 *   loaded machine), times (the call's own `times`, ms: parseMs, sighashMs, scriptMs, verifyMs,
 *   the engine's StageTimes, and copyInMs, spentMs, resultMs, the binding's; wall clock),
 *   heap_bytes (wasm memory after the call: growth shows here); one block's error is that
 *   block's only
 * @throws (rejects) Error when the wasm build does not load.
 */
export async function createWasmBlockRunner(variant, { dir, skipProofOfWork = false } = {}) {
  const engine = await loadEngine(variant, dir === undefined ? undefined : { dir });
  const options = skipProofOfWork ? { skipProofOfWork: true } : undefined;
  return {
    pass(blocks) {
      const out = [];
      let total = 0;
      for (const b of blocks) {
        let spent;
        try {
          spent = spentOf(b);
        } catch (err) {
          out.push({ height: b.height, seconds: 0, error: `spent outputs do not encode: ${err?.message ?? err}` });
          continue;
        }
        const c0 = cpuSeconds();
        const t0 = performance.now();
        try {
          const res = engine.validateBlock(b.block, spent, b.hash, b.height, options);
          const seconds = (performance.now() - t0) / 1000;
          const cpu = cpuSeconds() - c0;
          total += seconds;
          out.push({ height: b.height, seconds, cpu_seconds: cpu, times: res.times, heap_bytes: engine.HEAPU8.length, verdict: verdictOf(res, b.height) });
        } catch (err) {
          out.push({ height: b.height, seconds: (performance.now() - t0) / 1000, error: String(err?.message ?? err) });
        }
      }
      return { blocks: out, seconds: total };
    },
    dispose: () => {},
  };
}
