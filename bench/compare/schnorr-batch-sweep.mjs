#!/usr/bin/env node
// BIP340 batch verification's per-signature cost at batch sizes 1..4,096 and its crossover, in
// wasm (each variant) and native, same run (schnorr-batch.mjs says what is timed and how).
//
//   npm run bench:schnorr-batch -- [--rounds N] [--sizes 1,2,4,...] [--one-per-key] [--against DIR] [--fixtures DIR] [--json]
//
// --one-per-key: only the first signature under each key (in block order), so that no batch up
// to that many signatures shares a key: what batching pays without the blocks' key reuse.
//
// --against DIR: another build's wasm directory (an earlier commit's build/wasm, in a git worktree
// built with `node scripts/setup.mjs --only wasm`); its variants run in the same rounds, as
// "<variant> @ DIR" columns: a before/after in one run. The threshold line counts this build's.
//
// Run it on a quiet machine. Exit 0, 1 when a batch of valid signatures fails, 2 on a bad flag.
import { UsageError, numberFlag, parseFlags } from '../shared/args.mjs';
import { DEFAULT_SIZES, formatSchnorrBatch, runSchnorrBatch } from './schnorr-batch.mjs';

const USAGE = 'usage: npm run bench:schnorr-batch -- [--rounds N (1..100, default 5)] [--sizes S,S,... (1..8192 each, distinct, any order; default 1,2,4,..,4096)] [--one-per-key] [--against DIR (another build\'s wasm directory)] [--fixtures DIR] [--json]';

let values;
try {
  ({ values } = parseFlags(process.argv.slice(2), {
    rounds: { type: 'string' }, sizes: { type: 'string' }, fixtures: { type: 'string' }, against: { type: 'string' },
    json: { type: 'boolean', default: false }, help: { type: 'boolean', default: false },
    'one-per-key': { type: 'boolean', default: false },
  }));
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  values.rounds = values.rounds === undefined ? 5 : numberFlag('rounds', values.rounds, { min: 1, max: 100 });
  values.sizes = values.sizes === undefined ? [...DEFAULT_SIZES]
    : values.sizes.split(',').map((s) => numberFlag('sizes', s, { min: 1, max: 8192 }));
  values.sizes.forEach((size, i) => {
    if (values.sizes.indexOf(size) !== i) throw new UsageError(`--sizes lists ${size} twice; list each size once`);
  });
} catch (err) {
  if (!(err instanceof UsageError)) throw err;
  console.error(`schnorr-batch: ${err.message}\n${USAGE}`);
  process.exit(2);
}

try {
  const result = await runSchnorrBatch({ sizes: values.sizes, rounds: values.rounds, fixtures: values.fixtures,
    onePerKey: values['one-per-key'], against: values.against, log: (m) => console.error(m) });
  console.log(values.json ? JSON.stringify(result, null, 2) : formatSchnorrBatch(result));
} catch (err) {
  console.error(`schnorr-batch: ${err.message}`);
  process.exitCode = 1;
}
