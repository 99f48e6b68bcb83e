#!/usr/bin/env node
// Where whole-block validation's time goes in wasm against native, stage by stage: the
// whole-block part of `npm run bench` (whole-block.mjs) with ibd-wasm (each variant) and native
// BM_ValidateBlock only, no bcoin, contenders interleaved round by round, every fixture block.
//
//   node bench/compare/whole-block-stages.mjs [--rounds N] [--quick] [--fixtures DIR] [--json]
//
// Prints the rates (x native: the threshold wasm_whole_block_vs_native's ratio) and the stage
// table: copy-in, spent-output decode, parse, sighash, script, verify, result object, other,
// wall and process CPU, ms per pass, medians over rounds, with native ms / wasm ms per stage.
// Run it after `npm run setup` (it builds nothing). Exit 0, or 1 when a contender fails.
import { UsageError, numberFlag, parseFlags } from '../shared/args.mjs';
import { runWholeBlock } from './whole-block.mjs';
import { formatWholeBlock } from './whole-block-report.mjs';

const USAGE = 'usage: node bench/compare/whole-block-stages.mjs [--rounds N (1..1000, default 5)] [--quick] [--fixtures DIR] [--json]';

let values;
try {
  ({ values } = parseFlags(process.argv.slice(2), {
    rounds: { type: 'string' }, quick: { type: 'boolean', default: false }, fixtures: { type: 'string' },
    json: { type: 'boolean', default: false }, help: { type: 'boolean', default: false },
  }));
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  values.rounds = values.rounds === undefined ? 5 : numberFlag('rounds', values.rounds, { min: 1, max: 1000 });
} catch (err) {
  if (!(err instanceof UsageError)) throw err;
  console.error(`whole-block-stages: ${err.message}\n${USAGE}`);
  process.exit(2);
}

const log = (m) => console.error(m);
const wb = await runWholeBlock({ quick: values.quick, rounds: values.rounds, fixtures: values.fixtures, bcoin: false, log });
if (values.json) console.log(JSON.stringify(wb, null, 2));
else console.log(formatWholeBlock(wb));
process.exitCode = wb.errors.length ? 1 : 0;
