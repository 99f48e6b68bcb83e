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
