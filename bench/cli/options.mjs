// Command line of the benchmark (bench/cli/main.mjs): parsing and validation, nothing else.
import os from 'node:os';
import { choiceFlag, NODE_SOURCE_FLAGS, nodeSourceFlag, numberFlag, parseFlags, UsageError } from '../shared/args.mjs';
import { ALL_VARIANTS } from '../../wasm/variants.mjs';
import { checkNodeRuns } from '../../wasm/engine.mjs';
import { DEFAULT_BATCH_SIZE, MAX_BATCH_SIZE, MAX_WORKERS } from '../../workers/pool.mjs';
import { DEFAULT_PORT } from '../../web/server.mjs';

/** Timed rounds by default: one pass over the fixture checks lasts about a second on two
 *  cores, so a single round is at the mercy of a noisy neighbour; the median of 5 is steadier,
 *  and the cost model judges its per-block predictions only against a median of 5 or more. */
export const DEFAULT_ROUNDS = 5;

export const USAGE = `usage: npm start -- [options]
   or: node bench/cli/main.mjs [options]

Validates every fixture block whole in a pool of wasm workers (parse, sighash, every input's
script and every signature in each worker's engine; the main thread runs none); validates the
fixture set's blocks 1-255 as a chain from genesis in a worker (links, proof of work, spends from
a coins view); then times verification passes over the final checks (ECDSA, Schnorr, all
together) and whole-block validation end to end, and reports counts, verdicts, throughput and
the projection of how long validating the whole chain takes (the validation work of an
IBD: parse, sighash, scripts, signatures; not the download or the coins on disk).

  --fixtures DIR     fixture set (default: $IBD_FIXTURES, else ../shared/blocks-fixtures)
  --datadir PATH     instead of the fixtures: a Bitcoin Core node's datadir (or its blocks/
                     folder), read-only and without its locks; the blocks of --from..--to on its
                     active chain, each with its undo data, validated in the workers, streamed;
                     reports verdicts, blocks/s, MB/s read and the share of time waiting for data
  --rest URL         instead of the fixtures: a running node's REST interface (bitcoind -rest;
                     Core 30 or later, for /rest/spenttxouts/), e.g. http://127.0.0.1:8332;
                     requests pipelined, transient failures retried
  --rpc URL          instead of the fixtures: a running node's JSON-RPC interface (Core 23 or
                     later: getblock verbosity 3), e.g. http://user:password@127.0.0.1:8332
  --rpc-cookie FILE  with --rpc: the node's cookie file (<datadir>/.cookie) for the credentials
  --save DIR         with --datadir, --rest or --rpc: also write each block of the range as a
                     fixture folder (DIR/mainnet/<height>/block.raw, spent_outputs.json) and
                     DIR/manifest.json with their SHA-256, for --fixtures DIR to replay offline
  --from H1, --to H2 with --datadir, --rest or --rpc: the height range (default: the first height
                     after genesis the source holds, to the tip)
  --heights LIST     only these block heights, comma-separated (e.g. 170,866342)
  --workers N        workers (each validates whole blocks and verifies signatures), 1..${MAX_WORKERS} (default: available parallelism, ${os.availableParallelism()} here)
  --variant NAME     wasm build: ${ALL_VARIANTS.join(' | ')} (default: simd; wide needs a Node with wasm
                     wide arithmetic, which Node 20 lacks)
  --batch-size N     checks per worker message (default: ${DEFAULT_BATCH_SIZE})
  --rounds N         timed rounds, each an ECDSA, a Schnorr and a combined pass;
                     throughput is the median timed round (default: ${DEFAULT_ROUNDS})
  --scaling          after the validation and timed passes, time whole-block validation (end to
                     end) and, apart, the final checks' verification on 1, 2, .. N workers
                     (N: --max-workers), rounds interleaved, and report throughput, speedup vs
                     1 worker, parallel efficiency (and worker start-up) for each
  --max-workers M    largest worker count of --scaling, 1..${MAX_WORKERS} (default: available
                     parallelism, ${os.availableParallelism()} here)
  --web              instead of running here, serve the benchmark page (web/) on localhost,
                     cross-origin isolated, and print its URL to open in a browser (of the
                     other flags only --fixtures and --port apply: the page has its own controls)
  --port N           with --web: TCP port (default: ${DEFAULT_PORT}; 0 picks a free one)
  --skip-proof-of-work
                     do not check each header's hash against its own nBits target
                     (high-hash): only for fixture folders of blocks mutated from real ones
                     (tests), whose proof of work the mutation broke (the chain's blocks
                     too); every block's not_checked then says so
  --json             one JSON document on stdout (progress and warnings on stderr); through npm,
                     npm start --silent -- --json keeps npm's banner off stdout
  -h, --help         this text

Exit code: 0 every block valid; 1 a block failed to load or parse, no block could be loaded, the
timed passes disagreed with the validation's verdicts, or the chain could not be judged (or the
run failed: no wasm build, a worker died); 2 bad command line; 3 an invalid block, of the fixture
blocks or of the chain (Bitcoin Core rejects it: a consensus rule or an input's script fails;
docs/validation.md) and no block failed to load.`;

/** Where to find the usage text, for error messages. */
export const HELP_HINT = '(npm start -- --help or node bench/cli/main.mjs --help for usage)';

/** A decimal integer flag value in [min, max] (bench/shared/args.mjs numberFlag), in this
 *  command's words: "--workers must be a positive integer (1 to 256), got "x"". */
function integerFlag(name, text, min, max) {
  const kind = min >= 1 ? 'a positive integer' : 'an integer';
  return numberFlag(name, text, { min, max, message: (got) => `--${name} must be ${kind} (${min} to ${max}), got "${got}"` });
}

/**
 * Parses and validates the benchmark's arguments.
 * @param {string[]} argv arguments after the script name
 * @returns {{help: boolean, fixtures?: string, heights?: number[], workers: number,
 *   variant: 'simd'|'scalar'|'wide', batchSize: number, rounds: number, json: boolean,
 *   scaling: boolean, maxWorkers?: number, web: boolean, port?: number,
 *   skipProofOfWork: boolean}} maxWorkers: set with
 *   --scaling only; port: with --web only (the page server's TCP port).
 * @throws UsageError (bench/shared/args.mjs) with a message naming the bad flag.
 */
export function parseOptions(argv) {
  const { values } = parseFlags(argv, {
    fixtures: { type: 'string' },
    ...NODE_SOURCE_FLAGS,
    save: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    heights: { type: 'string' },
    workers: { type: 'string' },
    variant: { type: 'string', default: 'simd' },
    'batch-size': { type: 'string' },
    rounds: { type: 'string' },
    json: { type: 'boolean', default: false },
    'skip-proof-of-work': { type: 'boolean', default: false },
    scaling: { type: 'boolean', default: false },
    'max-workers': { type: 'string' },
    web: { type: 'boolean', default: false },
    port: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  choiceFlag('variant', values.variant, ALL_VARIANTS);
  if (values.port !== undefined && !values.web) {
    throw new UsageError('--port needs --web');
  }
  if (values.web) {
    // The page has its own controls: a run's flags would be ignored, so they are refused.
    const ignored = ['heights', 'workers', 'batch-size', 'rounds', 'max-workers'].filter((f) => values[f] !== undefined)
      .concat(['json', 'scaling', 'skip-proof-of-work'].filter((f) => values[f]))
      .concat(values.variant !== 'simd' ? ['variant'] : []);
    if (ignored.length) {
      throw new UsageError(`--web serves the page, whose own controls set the run: ${ignored.map((f) => `--${f}`).join(', ')} ` +
        `would be ignored (of the other flags only --fixtures and --port apply)`);
    }
  }
  // 'wide' where this Node cannot run it: refused here, before any worker starts.
  try { checkNodeRuns(values.variant); } catch (err) { throw new UsageError(`--variant: ${err.message}`); }
  const source = nodeSourceFlag(values);
  const node = source?.kind ?? null;
  for (const flag of ['from', 'to']) {
    if (values[flag] !== undefined && !node) throw new UsageError(`--${flag} needs --datadir, --rest or --rpc`);
  }
  if (values.save !== undefined && !node) throw new UsageError('--save needs --datadir, --rest or --rpc');
  if (node) {
    // A node's range is one validation pass with no timed rounds, its blocks' proof of work always
    // checked (a stored block must have it): the fixture run's flags would be ignored.
    for (const other of ['fixtures', 'heights', 'scaling', 'web', 'rounds', 'batch-size', 'skip-proof-of-work']) {
      if (values[other] !== undefined && values[other] !== false) throw new UsageError(`--${node} and --${other} do not go together`);
    }
  }
  if (values['max-workers'] !== undefined && !values.scaling) {
    throw new UsageError('--max-workers needs --scaling');
  }
  let heights;
  if (values.heights !== undefined) {
    const items = values.heights.split(',').map((s) => s.trim());
    if (items.every((s) => s === '')) throw new UsageError('--heights needs at least one height, e.g. --heights 170,866342');
    if (items.includes('')) throw new UsageError(`--heights has an empty item in "${values.heights}": heights separated by single commas, e.g. --heights 170,866342`);
    heights = items.map((s) => integerFlag('heights', s, 0, 2 ** 31 - 1));
    const twice = heights.find((h, i) => heights.indexOf(h) !== i);
    if (twice !== undefined) throw new UsageError(`--heights lists ${twice} twice: each block is validated once`);
  }
  const range = Object.fromEntries(['from', 'to'].filter((k) => node && values[k] !== undefined)
    .map((k) => [k, integerFlag(k, values[k], 0, 2 ** 31 - 1)]));
  if (range.from > range.to) throw new UsageError(`--from ${range.from} is above --to ${range.to}`); // before the source is opened
  return {
    help: values.help,
    fixtures: values.fixtures,
    ...(node ? {
      ...source.options,
      ...(values.save !== undefined ? { save: values.save } : {}),
      ...range,
    } : {}),
    heights,
    workers: values.workers === undefined ? Math.min(os.availableParallelism(), MAX_WORKERS)
      : integerFlag('workers', values.workers, 1, MAX_WORKERS),
    variant: values.variant,
    batchSize: values['batch-size'] === undefined ? DEFAULT_BATCH_SIZE
      : integerFlag('batch-size', values['batch-size'], 1, MAX_BATCH_SIZE),
    rounds: values.rounds === undefined ? DEFAULT_ROUNDS : integerFlag('rounds', values.rounds, 1, 1000),
    json: values.json,
    skipProofOfWork: values['skip-proof-of-work'],
    scaling: values.scaling,
    web: values.web,
    ...(values.web ? { port: values.port === undefined ? DEFAULT_PORT : integerFlag('port', values.port, 0, 65535) } : {}),
    ...(values.scaling ? {
      maxWorkers: values['max-workers'] === undefined ? Math.min(os.availableParallelism(), MAX_WORKERS)
        : integerFlag('max-workers', values['max-workers'], 1, MAX_WORKERS),
    } : {}),
  };
}
