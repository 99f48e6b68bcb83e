// Numbers in words for progress lines and reports, host-neutral: the run core's log lines, the
// terminal reports (bench/cli/, bench/compare/, bench/pool/) and the document's warnings.

/** An integer with thousands separators (12,152); '-' for null or undefined. */
export const int = (n) => (n === null || n === undefined ? '-' : Math.round(n).toLocaleString('en-US'));

/**
 * `n` and a noun, singular when n is 1: countOf(1, 'worker') is '1 worker', countOf(2048,
 * 'check') is '2,048 checks'.
 * @param {number} n
 * @param {string} noun singular; the plural adds 's'
 * @returns {string}
 */
export function countOf(n, noun) {
  return `${int(n)} ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * An end-to-end scaling row's paired efficiency in words, as the terminal and the page give it:
 * "; rounds paired with their 1-worker round: 94% (92–97%)" (median, lowest, highest of
 * `efficiency_rounds`, bench/core/end-to-end.mjs), or "" when one round or none was timed.
 * @param {{efficiency_rounds?: {median: number, min: number, max: number}, rounds_seconds?: number[]}} row
 * @returns {string}
 */
export function pairedEfficiencyText(row) {
  const e = row.efficiency_rounds;
  if (!e || !(row.rounds_seconds?.length > 1)) return '';
  const pct = (x) => `${(100 * x).toFixed(0)}%`;
  return `; rounds paired with their 1-worker round: ${pct(e.median)} (${(100 * e.min).toFixed(0)}–${pct(e.max)})`;
}

/** Mainnet's MAX_BLOCK_SIGOPS_COST (Core consensus/consensus.h). */
export const MAX_BLOCK_SIGOPS_COST = 80000;

/**
 * A block entry's amounts in words (the terminal report and the page share them): "fee
 * 1,356,295,554 sat, subsidy 2,500,000,000 sat, sigop cost 1,224 of 80,000", from the entry's
 * fee / subsidy / sigop_cost (bench/core/run-core.mjs); an unknown fee is "-".
 * @param {{fee: number|null, subsidy: number|null, sigop_cost: number|null}} b
 * @returns {string|null} null when the block was rejected before ConnectBlock (nothing summed)
 */
export function amountsText(b) {
  if (b.subsidy === null || b.subsidy === undefined) return null;
  return `fee ${int(b.fee)} sat, subsidy ${int(b.subsidy)} sat, sigop cost ${int(b.sigop_cost)} of ${int(MAX_BLOCK_SIGOPS_COST)}`;
}

/**
 * A block entry's verdict in words: "valid", or "INVALID in <stage>: <reject_message>" (Core's
 * reject reason first, then its detail and the tx / input / output at fault).
 * @param {{block_valid: boolean, stage: string, reject_message: string}} b
 * @returns {string}
 */
export function verdictText(b) {
  return b.block_valid ? 'valid' : `INVALID in ${b.stage}: ${b.reject_message}`;
}

/** The cost model check's note on what it does not judge (cost-model.mjs predictBlocks'
 *  `at_mix`): the price of an ECDSA check in a span of the chain, at the fixtures' key mix. */
export function atMixLine(a) {
  const pctOf = (r) => `${r >= 1 ? '+' : ''}${((r - 1) * 100).toFixed(1)}%`;
  return `  the check prices each ECDSA check by its key's class (a key's first check in the block, 33-byte or other, or a recurring key); ` +
    `a span of the chain, whose keys no table counts, at the fixtures' mix of them (${[a.mix.first_compressed, a.mix.first_other, a.mix.repeat].map((x) => `${(x * 100).toFixed(0)}%`).join(' / ')}), ` +
    `which the check does not judge: at that price the judged blocks land at ${pctOf(a.min)} to ${pctOf(a.max)} (docs/workload.md)`;
}

/**
 * Why the cost model check's blocks miss, as far as the run can tell (a parenthesis to append,
 * or '' where the untrusted reason already says it): too few other blocks to fit on, too few
 * rounds, else the machine's other work.
 * @param {{blocks_fitted: number, rounds: number}} m the projection (model-projection.mjs)
 * @param {string} verb what the user does again: 'rerun' (npm start) or 'measure' (npm run project)
 * @param {number} minRounds the rounds the check needs (model-projection.mjs MIN_ROUNDS)
 */
export function missCause(m, verb, minRounds) {
  if (m.blocks_fitted < 5) return ` (${countOf(m.blocks_fitted - 1, 'other block')} to fit each block's costs on: too few for costs of its own)`;
  if (m.rounds < minRounds) return '';
  return ` (other work on the machine makes the times of the blocks vary, some up and some down, more than the model allows: ${verb} on an idle one)`;
}
