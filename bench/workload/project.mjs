#!/usr/bin/env node
// `npm run project`: what the chain holds over a height range, era by era, with sources and
// ranges (the workload table, bench/workload/table.mjs). Reads the saved fixture census and the
// sourced chain data; measures nothing unless --census.
//
//   npm run project -- [--from H1] [--to H2] [--table] [--json] [--census] [--fixtures DIR] [--workload DIR]
//
// Exit 0; 1 when the data cannot be read (one line naming the file); 2 on a bad flag.
import { writeFileSync } from 'node:fs';
import { fixturesDir, loadBlocks } from '../../blocks-fixtures/loader.mjs';
import { loadEngine } from '../../wasm/engine.mjs';
import { numberFlag, parseFlags, UsageError } from '../shared/args.mjs';
import { CENSUS_PATH, fixtureCensus, readCensus } from './census.mjs';
import { FIGURES, totalChecks, workloadFor } from '../core/workload-model.mjs';
import { buildTable, loadWorkloadModel, TABLE_PATH } from './table.mjs';

/** An integer with thousands separators. */
const int = (n) => Math.round(n).toLocaleString('en-US');

const USAGE = `usage: npm run project -- [options]
  --from H     first height (default 0)
  --to H       last height (default the newest sourced transaction count's, 938,343)
  --table      the workload table row by row (default: the range's workload, era by era)
  --json       one JSON document on stdout
  --census     validate the fixture blocks again with the engine and rewrite
               bench/workload/fixture-census.json and bench/workload/workload-table.json
  --fixtures DIR   the fixture folder for --census (default ../shared/blocks-fixtures, IBD_FIXTURES)
  --workload DIR   the chain-workload folder (default ../shared/chain-workload, IBD_CHAIN_WORKLOAD)
  --help       this text`;

/** A {value, low, high} in words: "2.44 G (1.49-6.84 G)". */
function rangeText({ value, low, high }) {
  const scale = value > 0 ? value : high;
  const [div, unit] = scale >= 1e9 ? [1e9, ' G'] : scale >= 1e6 ? [1e6, ' M'] : scale >= 1e3 ? [1e3, ' k'] : [1, ''];
  const f = (x) => (div === 1 ? Number(x.toPrecision(3)).toString() : (x / div).toFixed(2));
  return low === high ? `${f(value)}${unit}` : `${f(value)}${unit} (${f(low)}-${f(high)}${unit})`;
}

const LABELS = {
  transactions: 'transactions', inputs: 'inputs', checks_ecdsa_single: 'ECDSA single checks',
  checks_ecdsa_multisig: 'ECDSA multisig trials', checks_schnorr_keypath: 'Schnorr key path',
  checks_schnorr_scriptpath: 'Schnorr script path', sighash_bytes_legacy: 'legacy sighash bytes',
  sighash_hashed_legacy: 'legacy bytes hashed',
  sighash_bytes_bip143: 'BIP143 sighash bytes', sighash_bytes_bip341: 'BIP341 sighash bytes', block_bytes: 'block bytes',
};

function main() {
  let values;
  try {
    ({ values } = parseFlags(process.argv.slice(2), {
      from: { type: 'string' }, to: { type: 'string' }, table: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false }, census: { type: 'boolean', default: false },
      fixtures: { type: 'string' }, workload: { type: 'string' }, help: { type: 'boolean', default: false },
    }));
    if (values.from !== undefined) values.from = numberFlag('from', values.from);
    if (values.to !== undefined) values.to = numberFlag('to', values.to);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`project: ${err.message}\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  return run(values);
}

async function run(values) {
  let model;
  try {
    let census;
    if (values.census) {
      const dir = fixturesDir(values.fixtures);
      console.error(`project: validating the fixture blocks of ${dir} for the census`);
      census = fixtureCensus(await loadEngine('simd'), await loadBlocks(dir), dir);
      writeFileSync(CENSUS_PATH, `${JSON.stringify(census, null, 1)}\n`);
    } else {
      census = readCensus();
    }
    model = loadWorkloadModel({ workloadDir: values.workload, census });
    if (values.census) {
      writeFileSync(TABLE_PATH, `${JSON.stringify(buildTable(model), null, 1)}\n`);
      console.error(`project: wrote ${CENSUS_PATH} and ${TABLE_PATH}`);
    }
  } catch (err) {
    console.error(`project: ${err.message}`);
    process.exit(1);
  }
  const from = values.from ?? 0;
  const to = values.to ?? model.tip;
  if (to < from || to > model.tip) {
    console.error(`project: --from ${from} --to ${to}: need from <= to <= ${model.tip} (the newest sourced transaction count)`);
    process.exit(2);
  }
  if (values.table) {
    const table = buildTable(model);
    if (values.json) {
      console.log(JSON.stringify(table, null, 1));
      return;
    }
    const cols = ['transactions', 'inputs', 'checks_ecdsa_single', 'checks_ecdsa_multisig', 'checks_schnorr_keypath',
      'checks_schnorr_scriptpath', 'sighash_bytes_legacy', 'sighash_bytes_bip143', 'sighash_bytes_bip341', 'block_bytes'];
    console.log(['heights', ...cols.map((c) => LABELS[c])].join(' | '));
    for (const r of [...table.rows, { ...table.totals, from: 'total', to: '' }]) {
      console.log([`${typeof r.from === 'number' ? int(r.from) : r.from}${r.to === '' ? '' : `-${int(r.to)}`}`, ...cols.map((c) => rangeText(r[c]))].join(' | '));
    }
    for (const n of table.notes) console.log(`note: ${n}`);
    return;
  }
  const whole = workloadFor(model, from, to);
  const eras = model.eras.filter((e) => e.to > from && e.from <= to).map((e) => ({
    era: e, workload: workloadFor(model, Math.max(from, e.from), Math.min(to, e.to - 1)),
  }));
  if (values.json) {
    console.log(JSON.stringify({ from, to, workload: whole.figures, checks: totalChecks(whole),
      eras: eras.map(({ era, workload }) => ({ name: era.name, from: workload.from, to: workload.to, workload: workload.figures, ratios: era.ratios })) }, null, 1));
    return;
  }
  console.log(`Workload of heights ${int(from)}-${int(to)} (${int(whole.blocks)} blocks): value (low-high)`);
  for (const name of Object.keys(FIGURES)) console.log(`  ${LABELS[name].padEnd(24)} ${rangeText(whole.figures[name])}`);
  console.log(`  ${'signature checks'.padEnd(24)} ${rangeText(totalChecks(whole))}`);
  for (const { era, workload } of eras) {
    console.log(`\n${era.name}: heights ${int(workload.from)}-${int(workload.to)}`);
    console.log(`  transactions ${rangeText(workload.figures.transactions)}, inputs ${rangeText(workload.figures.inputs)}, checks ${rangeText(totalChecks(workload))}`);
    for (const [name, r] of Object.entries(era.ratios)) {
      console.log(`  ${name} ${rangeText(r)}: ${r.label} - ${r.source ?? r.method}${r.widened ? `; range widened, ${r.widened}` : ''}`);
    }
  }
}

await main();
