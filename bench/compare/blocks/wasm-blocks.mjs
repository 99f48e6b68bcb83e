// ibd-wasm's whole-block contender: every fixture block validated end to end in ONE wasm
// instance on this thread: BlockValidation (parse, block rules, spent outputs from their JSON,
// sighash and script evaluation in rounds; wasm/API.md) with each round's pending checks
// verified by the same instance's verifyBatch (wasm/batch-verifier.mjs), as the engine's
// native ValidateBlock does (bench/native/block_bench.cpp, BM_ValidateBlock). One core.
import { createBatchVerifier } from '../../../wasm/batch-verifier.mjs';
import { loadEngine } from '../../../wasm/engine.mjs';

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
    if (!status.ok) {
      if (!status.stage) throw new Error(`block ${block.height}: ${status.error}`);
      return { valid: false, reject_reason: status.rejectReason, stage: status.stage, script_error: '', failed_inputs: 0,
        failing_inputs: [], first_failing: null, checks: 0, inputs: 0, txs: 0, rounds: 0 };
    }
    for (let p = v.pending(); p.count > 0; p = v.pending()) {
      const r = verifier.verify(p.checks, p.count);
      if (r.error) throw new Error(`block ${block.height}: verifyBatch error ${r.error} at record ${r.errorRecord}`);
      if (v.resolve(r.verdicts)) break;
    }
    const res = v.result();
    if (!res.ok) throw new Error(`block ${block.height}: ${res.error}`);
    return {
      valid: res.valid, reject_reason: res.rejectReason, stage: res.stage, script_error: res.scriptError,
      failed_inputs: res.failedInputs,
      failing_inputs: res.inputFailures.map((f) => ({ tx: f.tx, input: f.input, error: f.scriptError })),
      first_failing: res.inputIndex >= 0 ? { tx: res.txIndex, input: res.inputIndex } : null,
      checks: res.ecdsa + res.schnorr, inputs: res.inputs, txs: res.txCount, rounds: res.rounds,
    };
  } finally {
    v.delete();
  }
}

/**
 * A whole-block runner on one fresh wasm instance of `variant`.
 * @param {string} variant wasm/variants.mjs VARIANTS
 * @param {{skipProofOfWork?: boolean, dir?: string}} [options] dir: the folder of the build
 *   (wasm/engine.mjs loadEngine; default build/wasm)
 * @returns {Promise<{pass: (blocks: object[]) => {blocks: Array<{height: number, seconds: number,
 *   verdict?: EngineVerdict, error?: string}>, seconds: number}, dispose: () => void}>}
 *   pass: each block once, in order, timed one by one (wall clock, s: construction, every
 *   round's verification and resolution, the result); one block's error is that block's only
 * @throws (rejects) Error when the wasm build does not load.
 */
export async function createWasmBlockRunner(variant, { dir, ...options } = {}) {
  const engine = await loadEngine(variant, dir === undefined ? undefined : { dir });
  const verifier = createBatchVerifier(engine);
  return {
    pass(blocks) {
      const out = [];
      let total = 0;
      for (const b of blocks) {
        const t0 = performance.now();
        try {
          const verdict = validateInInstance(engine, verifier, b, options);
          const seconds = (performance.now() - t0) / 1000;
          total += seconds;
          out.push({ height: b.height, seconds, verdict });
        } catch (err) {
          out.push({ height: b.height, seconds: (performance.now() - t0) / 1000, error: String(err?.message ?? err) });
        }
      }
      return { blocks: out, seconds: total };
    },
    dispose: () => verifier.dispose(),
  };
}
