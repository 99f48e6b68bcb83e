// The command lines' one argument parser: Node's util.parseArgs, with one error class and one
// helper for typed flag values, shared by npm start (bench/cli/), npm run bench (bench/compare/),
// the pool benchmarks and the soak (bench/pool/), npm run serve (web/server.mjs) and
// npm run bench:native (scripts/bench-native.mjs). Each command prints a UsageError's message on
// one line (with its own prefix or hint) and exits with 2. Node only; imports nothing of the repo.
import { parseArgs } from 'node:util';

/** A command-line mistake: the command prints its message (one line naming the flag) and exits 2. */
export class UsageError extends Error {}

/**
 * util.parseArgs in strict mode, its errors turned into UsageError (same message).
 * @param {string[]} args arguments after the script name
 * @param {object} options util.parseArgs' `options` (every flag with type 'string' or 'boolean')
 * @param {object} [config] further util.parseArgs settings (allowPositionals ...)
 * @returns {{values: object, positionals: string[]}} as util.parseArgs
 * @throws UsageError for an unknown flag, a missing value or a stray positional.
 */
export function parseFlags(args, options, config = {}) {
  try {
    return parseArgs({ args, options, strict: true, ...config });
  } catch (err) {
    throw new UsageError(err.message);
  }
}

const INTEGER = /^\s*\d+\s*$/;
const DECIMAL = /^\s*(\d+\.?\d*|\.\d+)\s*$/;

/**
 * A flag's value as a number within [min, max]: a decimal integer (digits, optional surrounding
 * blanks) or, with integer: false, a decimal fraction (5, 2.5, .5, 5.).
 * @param {string} name the flag without its dashes ('workers')
 * @param {string|undefined} text the value as given
 * @param {{min?: number, max?: number, integer?: boolean, message?: (text: string) => string}} spec
 *   bounds, inclusive (defaults: 0 and Infinity); integer (default true); message: the command's
 *   own wording of the error (default: `--NAME must be an integer from MIN to MAX, got "TEXT"`,
 *   or "a number" when integer is false)
 * @returns {number}
 * @throws UsageError naming the flag, the bounds and the value when it is not such a number.
 */
export function numberFlag(name, text, { min = 0, max = Infinity, integer = true, message } = {}) {
  const ok = (integer ? INTEGER : DECIMAL).test(text ?? '');
  const value = ok ? Number(text) : NaN;
  if (!(value >= min && value <= max)) {
    throw new UsageError(message ? message(text)
      : `--${name} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}, got "${text}"`);
  }
  return value;
}

/**
 * A flag whose value must be one of a list.
 * @param {string} name the flag without its dashes ('variant')
 * @param {string} text the value as given
 * @param {readonly string[]} choices
 * @returns {string} text
 * @throws UsageError `--NAME must be one of A, B, got "TEXT"`.
 */
export function choiceFlag(name, text, choices) {
  if (!choices.includes(text)) throw new UsageError(`--${name} must be one of ${choices.join(', ')}, got "${text}"`);
  return text;
}

/**
 * Checks --heights against the heights the fixture manifest lists, before any work.
 * @param {number[]|undefined} heights the parsed --heights (undefined: every block)
 * @param {{path: string, blocks: Array<{height: number}>}} manifest readManifest(dir)
 *   (blocks-fixtures/loader.mjs)
 * @throws UsageError naming the unknown heights and listing the available ones.
 */
export function checkHeights(heights, manifest) {
  const known = manifest.blocks.map((b) => b.height);
  const unknown = (heights ?? []).filter((h) => !known.includes(h));
  if (unknown.length) {
    throw new UsageError(`--heights: ${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not in the fixture ` +
      `manifest ${manifest.path}; available heights: ${known.join(', ')}`);
  }
}
