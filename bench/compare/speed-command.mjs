// The command line of the interleaved speed comparisons that stand beside `npm run bench`
// (bench/compare/wide-arithmetic.mjs, bench/compare/browsers.mjs): the same flags, the text or
// JSON report, and the exit code.
import { numberFlag, parseFlags, UsageError } from '../shared/args.mjs';

/**
 * Parses `--rounds N (1..100, default 5) --batch N (1..8192, default 2048) --quick --json
 * --help`, runs `measure` and prints `report(result)` (or the result as JSON).
 * @param {{name: string, usage: string, argv: string[],
 *   measure: (o: {rounds: number, batch: number, quick: boolean, log: (m: string) => void}) => Promise<{mismatched: string[]}>,
 *   report: (result: object) => string}} command name: the prefix of an error line
 * @returns {Promise<number>} the exit code: 0; 1 when a contender's verdicts differ from the
 *   validation's or the run fails (one line on stderr naming why); 2 on a usage error.
 */
export async function speedCommand({ name, usage, argv, measure, report }) {
  let values;
  try {
    ({ values } = parseFlags(argv, {
      rounds: { type: 'string' }, batch: { type: 'string' }, quick: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false }, help: { type: 'boolean', default: false },
    }));
    if (values.help) { console.log(usage); return 0; }
    values.rounds = values.rounds === undefined ? 5 : numberFlag('rounds', values.rounds, { min: 1, max: 100 });
    values.batch = values.batch === undefined ? 2048 : numberFlag('batch', values.batch, { min: 1, max: 8192 });
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(err.message);
    return 2;
  }
  try {
    const res = await measure({ rounds: values.rounds, batch: values.batch, quick: values.quick, log: (m) => (values.json ? null : console.error(m)) });
    console.log(values.json ? JSON.stringify(res, null, 2) : report(res));
    return res.mismatched.length ? 1 : 0;
  } catch (err) {
    console.error(`${name}: ${String(err.message).split('\n')[0]}`);
    return 1;
  }
}

/**
 * The report's warning when the run had fewer than 5 rounds, else null.
 * @param {{rounds_seconds: number[]}[]} rows runSpeed rows (all with the same round count)
 * @returns {string|null}
 */
export function fewRoundsNote(rows) {
  const rounds = rows[0]?.rounds_seconds.length ?? 0;
  return rounds < 5 ? `note: ${rounds} round${rounds === 1 ? '' : 's'}: too few for a ratio to mean much on a shared or virtual machine (use --rounds 5 or more)` : null;
}
