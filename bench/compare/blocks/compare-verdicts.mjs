// bcoin's verdict on a block against the engine's: the block verdict, Core's reject reason and,
// where both evaluated the scripts, the failing inputs. The engine reports how many inputs
// failed and which one is the verdict's (the first in block order); bcoin reports each one.

/** A reject reason without its detail in parentheses ("bad-version(0x1)" -> "bad-version"). */
const reasonOnly = (r) => String(r ?? '').replace(/\(.*\)$/, '');

/** Core's stages after which the engine has evaluated every input's script (block_validation.h). */
const SCRIPTS_EVALUATED = new Set(['', 'CheckTxInputs', 'ConnectBlock']);

const where = (f) => (f ? `tx ${f.tx} input ${f.input}` : 'none');
const verdictWords = (v) => (v.valid ? 'valid' : `INVALID (${v.reject_reason})`);

/**
 * What differs between the engine's and bcoin's verdicts on one block.
 * @param {import('./wasm-blocks.mjs').EngineVerdict} ours
 * @param {{verdict?: {valid: boolean, reject_reason: string, stage: string,
 *   failing_inputs: Array<{tx: number, input: number, error: string}>}, error?: string}} theirs
 *   a bcoin-child.mjs pass entry
 * @returns {string[]} one sentence per difference; empty when they agree
 */
export function verdictDifferences(ours, theirs) {
  if (theirs.error) return [`bcoin could not judge it: ${theirs.error.split('\n')[0]}`];
  const t = theirs.verdict;
  if (ours.valid !== t.valid) return [`block verdict: ibd-wasm ${verdictWords(ours)}, bcoin ${verdictWords(t)}`];
  const out = [];
  if (!ours.valid && reasonOnly(ours.reject_reason) !== reasonOnly(t.reject_reason)) {
    out.push(`reject reason: ibd-wasm ${ours.reject_reason}, bcoin ${t.reject_reason}`);
  }
  if (SCRIPTS_EVALUATED.has(ours.stage) && t.stage !== 'block') {
    if (ours.failed_inputs !== t.failing_inputs.length) {
      out.push(`failing inputs: ibd-wasm ${ours.failed_inputs}, bcoin ${t.failing_inputs.length} (${t.failing_inputs.slice(0, 5).map(where).join(', ')})`);
    }
    if (ours.reject_reason === 'mandatory-script-verify-flag-failed') {
      const first = t.failing_inputs[0] ?? null;
      if (where(first) !== where(ours.first_failing)) out.push(`first failing input: ibd-wasm ${where(ours.first_failing)}, bcoin ${where(first)}`);
    }
  }
  return out;
}
