// The command lines' one argument parser: Node's util.parseArgs, with one error class and one
// helper for typed flag values, shared by npm start (bench/cli/), npm run bench (bench/compare/),
// the pool benchmarks and the soak (bench/pool/), npm run serve (web/server.mjs) and
// npm run bench:native (scripts/bench-native.mjs). Each command prints a UsageError's message on
// one line (with its own prefix or hint) and exits with 2. Node only; imports nothing of the repo.
import { parseArgs } from 'node:util';

/** A command-line mistake: the command prints its message (one line naming the flag) and exits 2. */
export class UsageError extends Error {}

/**
 * util.parseArgs in strict mode, its errors turned into one-line UsageErrors. Beyond
 * util.parseArgs, a value flag given twice (`--workers 2 --workers 1`: which one was meant?) and
 * an empty value (`--fixtures ""`, which would silently mean the default) are refused too.
 * @param {string[]} args arguments after the script name
 * @param {object} options util.parseArgs' `options` (every flag with type 'string' or 'boolean')
 * @param {object} [config] further util.parseArgs settings (allowPositionals ...)
 * @returns {{values: object, positionals: string[]}} as util.parseArgs
 * @throws UsageError naming the flag, for an unknown flag, a missing, empty or repeated value, a
 *   value that starts with '-' written as a separate argument, or a stray positional.
 */
export function parseFlags(args, options, config = {}) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, strict: true, ...config, tokens: true });
  } catch (err) {
    // util.parseArgs' message for "--workers -1" runs over three lines of advice; say it in one.
    const ambiguous = err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && /^Option '([^']+)' argument is ambiguous/.exec(err.message);
    if (ambiguous) {
      const flag = ambiguous[1].split(' ').pop();
      const value = args[args.indexOf(flag) + 1];
      throw new UsageError(`${flag} needs a value; "${value}" looks like a flag (write ${flag}=${value} to pass it as the value)`);
    }
    // Its first sentence names the problem; the rest is advice about '--'.
    throw new UsageError(err.message.split(/\.(?:\s|$)/)[0]);
  }
  const seen = new Map();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option' || options[token.name]?.type !== 'string' || options[token.name]?.multiple) continue;
    if (token.value === '') throw new UsageError(`${token.rawName} needs a value, got ""`);
    if (seen.has(token.name)) {
      throw new UsageError(`${token.rawName} given twice ("${seen.get(token.name)}", then "${token.value}"); give it once`);
    }
    seen.set(token.name, token.value);
  }
  return { values: parsed.values, positionals: parsed.positionals };
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

/** The flags that name a Bitcoin Core node as the block source (npm start, npm run project --
 *  --check), as parseFlags options. */
export const NODE_SOURCE_FLAGS = Object.freeze({
  datadir: { type: 'string' }, rest: { type: 'string' }, rpc: { type: 'string' }, 'rpc-cookie': { type: 'string' },
});

/**
 * The node source that parsed flags name: at most one of --datadir, --rest and --rpc, an http or
 * https URL for the last two, --rpc-cookie only with --rpc.
 * @param {object} values parseFlags' values
 * @returns {{kind: 'datadir'|'rest'|'rpc', options: {datadir?: string, rest?: string, rpc?:
 *   string, rpcCookie?: string}}|null} options: blocks-fixtures/node-source.mjs openNodeSource's;
 *   null when none is named
 * @throws UsageError naming the flags; a URL is never echoed (it may hold a password)
 */
export function nodeSourceFlag(values) {
  const sources = ['datadir', 'rest', 'rpc'].filter((k) => values[k] !== undefined);
  if (sources.length > 1) throw new UsageError(`--${sources[0]} and --${sources[1]} do not go together: one source`);
  const kind = sources[0] ?? null;
  if (values['rpc-cookie'] !== undefined && kind !== 'rpc') throw new UsageError('--rpc-cookie needs --rpc');
  if (kind === 'rest' || kind === 'rpc') {
    let url;
    try {
      url = new URL(values[kind]);
    } catch {
      throw new UsageError(`--${kind} must be a URL such as http://127.0.0.1:8332`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--${kind} must be an http or https URL, got "${url.protocol}"`);
  }
  if (!kind) return null;
  return { kind, options: { [kind]: values[kind], ...(values['rpc-cookie'] !== undefined ? { rpcCookie: values['rpc-cookie'] } : {}) } };
}
