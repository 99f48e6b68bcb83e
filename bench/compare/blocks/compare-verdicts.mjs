// bcoin's verdict on a block against the engine's: the block verdict, Core's reject reason and,
// where both evaluated the scripts, the failing inputs, input by input (each side lists every
// input whose script failed; the ScriptError names are kept beside them but not compared:
// bcoin names some errors its own way).

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
    const mine = new Set(ours.failing_inputs.map(where));
    const theirs = new Set(t.failing_inputs.map(where));
    const onlyOurs = [...mine].filter((x) => !theirs.has(x));
    const onlyTheirs = [...theirs].filter((x) => !mine.has(x));
    if (onlyOurs.length) out.push(`inputs failing in ibd-wasm only: ${onlyOurs.slice(0, 5).join(', ')}${onlyOurs.length > 5 ? `, … (${onlyOurs.length})` : ''}`);
    if (onlyTheirs.length) out.push(`inputs failing in bcoin only: ${onlyTheirs.slice(0, 5).join(', ')}${onlyTheirs.length > 5 ? `, … (${onlyTheirs.length})` : ''}`);
  }
  return out;
}
