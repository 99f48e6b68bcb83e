#!/usr/bin/env node
// `npm run project`: what the chain holds over a height range, era by era, with sources and
// ranges (the workload table, bench/workload/table.mjs), and how long validating it takes on N
// workers (the cost model over the last saved measurement: bench/core/model-projection.mjs).
// Measures nothing unless --measure (the main job, run in a child process, saves a new
// measurement) or --census (the fixture census, rewritten).
//
//   npm run project -- [--workers N] [--variant simd|scalar|wide] [--from H1] [--to H2] [--json]
//                      [--measure] [--table] [--census] [--fixtures DIR] [--workload DIR]
//   npm run project -- --check --datadir PATH | --rest URL | --rpc URL [--rpc-cookie FILE]
//                      [--from H1] [--to H2] [--rounds N] [--measure] [--json]
//
// --check validates and times a range of the user's own node and checks the model on it, blocks
// the measurement never saw (range-check.mjs).
// Exit 0; 1 when the data cannot be read or the measurement fails (one line naming the file), or
// when a --check range stopped at a block it could not read; 2 on a bad flag or range (a bad flag:
// one line naming it, then where the usage is; the usage itself only with --help).
import { execFileSync } from 'node:child_process';
import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fixturesDir, loadBlocks } from '../../blocks-fixtures/loader.mjs';
import { loadEngine } from '../../wasm/engine.mjs';
import { choiceFlag, NODE_SOURCE_FLAGS, nodeSourceFlag, numberFlag, parseFlags, UsageError } from '../shared/args.mjs';
import { CENSUS_PATH, fixtureCensus, readCensus } from './census.mjs';
import { contenderCosts, PUBLISHED } from '../core/contenders.mjs';
import { atMixLine, missCause } from '../core/format.mjs';
import { ASSUMEVALID, projectChain, schnorrPerEcdsaOf, spanHours, withoutKeyReuseOf } from '../core/model-projection.mjs';
import { FIGURES, INPUT_TYPES, roundFigures, roundRange, totalChecks, workloadFor } from '../core/workload-model.mjs';
import { REPO_ROOT } from '../../wasm/paths.mjs';
import { ALL_VARIANTS } from '../../wasm/variants.mjs';
import { checkNodeRuns } from '../../wasm/engine.mjs';
import { BENCH_RESULTS, readBenchRatios } from './bench-ratios.mjs';
import { measurementPath, readMeasurement } from './measurement.mjs';
import { buildTable, loadWorkloadModel, TABLE_PATH } from './table.mjs';
import { DEFAULT_CHECK_BLOCKS, rangeCheckLines, runRangeCheck } from './range-check.mjs';
import { MIN_ROUNDS } from '../core/model-projection.mjs';

/** An integer with thousands separators. */
const int = (n) => Math.round(n).toLocaleString('en-US');

const USAGE = `usage: npm run project -- [options]
  --workers N  workers to project for, 1..64 (default: the measurement's; past the counts it
               measured, each worker is assumed as busy as at the largest, and the output says so)
  --variant V  the wasm variant whose measurement to use: ${ALL_VARIANTS.join(' | ')} (default simd)
  --measure    measure again first: npm start -- --scaling --rounds 5 --variant V in a child process, which
               saves the measurement (build/project/measurement-V.json) that this reads
  --measurement FILE  project from this saved measurement (a main job's --json document) instead
  --compare    the same projection for the other engines the last npm run bench -- --readme run
               measured (Chromium, scalar, no batching, tiny-secp256k1, noble, the native build),
               beside published Bitcoin Core times
  --from H     first height (default 0; with --check, the source's first block after genesis)
  --to H       last height (default the newest sourced transaction count's, 938,343; with
               --check, ${DEFAULT_CHECK_BLOCKS.toLocaleString('en-US')} blocks from --from or the tip)
  --check      check the model on blocks it has never seen: validate and time --from..--to of a
               node, named by one of the three flags below, and set each block's measured time
               beside the time predicted from its own workload, and the range's wall time
               beside the projection of those heights (docs/workload.md)
  --datadir PATH  with --check: a Bitcoin Core datadir or its blocks/ folder (read-only, no lock)
  --rest URL      with --check: a running node's REST interface (Core 30+)
  --rpc URL       with --check: its JSON-RPC interface (Core 23+); --rpc-cookie FILE for the cookie
  --rounds N   with --check: timed rounds per batch, 1..15 (default ${MIN_ROUNDS}, the fewest the
               per-block check judges)
  --table      the workload table row by row (default: the range's workload, era by era)
  --json       one JSON document on stdout
  --census     validate the fixture blocks again with the engine and rewrite
               bench/workload/fixture-census.json and bench/workload/workload-table.json
  --fixtures DIR   with --census or --measure: the fixture folder (default ../shared/blocks-fixtures,
                   IBD_FIXTURES)
  --workload DIR   the chain-workload folder (default ../shared/chain-workload, IBD_CHAIN_WORKLOAD)
  --help       this text`;

/** Where to find the usage text, the line after a usage error (as npm start's, bench/cli/options.mjs
 *  HELP_HINT). */
const HELP_HINT = '(npm run project -- --help or node bench/workload/project.mjs --help for usage)';

/** A {value, low, high} in words, three significant digits, an SI prefix and `unit` (bytes:
 *  'B'): "2.44 G (1.49-6.84 G)", "548 GB (521-575 GB)". */
function rangeText({ value, low, high }, unit = '') {
  const scale = value > 0 ? value : high;
  const [div, prefix] = scale >= 1e12 ? [1e12, 'T'] : scale >= 1e9 ? [1e9, 'G'] : scale >= 1e6 ? [1e6, 'M'] : scale >= 1e3 ? [1e3, 'k'] : [1, ''];
  const suffix = prefix || unit ? ` ${prefix}${unit}` : '';
  const f = (x) => (x === 0 ? '0' : Number((x / div).toPrecision(3)).toLocaleString('en-US', { maximumSignificantDigits: 3 }));
  const v = value === 0 ? '0' : `${f(value)}${suffix}`;
  return low === high ? v : `${v} (${f(low)}-${f(high)}${suffix})`;
}

/** The unit of a workload figure: 'B' for the byte counts, none for counts. */
const unitOf = (name) => (/bytes|hashed/.test(name) ? 'B' : '');

/** `n` and a noun, singular for 1. */
const countOf = (n, noun) => `${int(n)} ${noun}${n === 1 ? '' : 's'}`;

/** Hours in words: hours with one decimal, minutes under an hour, seconds under a minute. */
function hoursText(x) {
  return x >= 1 ? `${x.toFixed(1)} h` : x * 60 >= 1 ? `${(x * 60).toFixed(1)} min` : `${(x * 3600).toFixed(1)} s`;
}

const LABELS = {
  transactions: 'transactions', inputs: 'inputs', checks_ecdsa_single: 'ECDSA single checks',
  checks_ecdsa_multisig: 'ECDSA multisig trials', checks_schnorr_keypath: 'Schnorr key path',
  checks_schnorr_scriptpath: 'Schnorr script path', sighash_bytes_legacy: 'legacy sighash bytes',
  sighash_hashed_legacy: 'legacy bytes hashed',
  sighash_bytes_bip143: 'BIP143 sighash bytes', sighash_bytes_bip341: 'BIP341 sighash bytes', block_bytes: 'block bytes',
  sighashes_legacy: 'legacy sighashes', sighashes_bip143: 'BIP143 sighashes', sighashes_bip341: 'BIP341 sighashes',
  ...Object.fromEntries(INPUT_TYPES.map(({ type, key }) => [`inputs_${key}`, `${type} inputs`])),
};

function main() {
  let values;
  try {
    ({ values } = parseFlags(process.argv.slice(2), {
      from: { type: 'string' }, to: { type: 'string' }, table: { type: 'boolean', default: false },
      workers: { type: 'string' }, variant: { type: 'string' }, measure: { type: 'boolean', default: false },
      measurement: { type: 'string' }, compare: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false }, census: { type: 'boolean', default: false },
      fixtures: { type: 'string' }, workload: { type: 'string' }, help: { type: 'boolean', default: false },
      check: { type: 'boolean', default: false }, rounds: { type: 'string' }, ...NODE_SOURCE_FLAGS,
    }));
    values.source = nodeSourceFlag(values);
    if (values.check && !values.source) throw new UsageError('--check needs the blocks to check on: --datadir PATH, --rest URL or --rpc URL');
    if (!values.check) {
      const stray = ['datadir', 'rest', 'rpc', 'rpc-cookie', 'rounds'].filter((k) => values[k] !== undefined);
      if (stray.length) throw new UsageError(`--${stray[0]} needs --check`);
    }
    if (values.check) {
      const other = ['table', 'census', 'compare'].filter((k) => values[k]);
      if (other.length) throw new UsageError(`--check and --${other[0]} do not go together`);
    }
    // Only --census and --measure read the fixture blocks: a --fixtures without them would be
    // ignored, the run looking as if it used that folder.
    if (values.fixtures !== undefined && !values.census && !values.measure) throw new UsageError('--fixtures needs --census or --measure (only they read the fixture blocks)');
    if (values.rounds !== undefined) values.rounds = numberFlag('rounds', values.rounds, { min: 1, max: 15 });
    const height = (name) => numberFlag(name, values[name], { max: 10_000_000,
      message: (text) => `--${name} must be a block height (an integer from 0 to 10,000,000; the table ends at its tip), got "${text}"` });
    if (values.from !== undefined) values.from = height('from');
    if (values.to !== undefined) values.to = height('to');
    if (values.workers !== undefined) values.workers = numberFlag('workers', values.workers, { min: 1, max: 64 });
    values.explicitVariant = values.variant !== undefined;
    values.variant = choiceFlag('variant', values.variant ?? 'simd', ALL_VARIANTS);
    // --measure runs the build here: one this Node cannot run is refused before any child starts.
    if (values.measure) {
      try { checkNodeRuns(values.variant); } catch (err) { throw new UsageError(`--measure --variant ${values.variant}: ${err.message}`); }
    }
    if (values.measure && values.measurement !== undefined) {
      throw new UsageError('--measure and --measurement exclude each other: --measure projects from the measurement it takes');
    }
    if (values.table) {
      const other = ['from', 'to', 'workers', 'measurement'].filter((k) => values[k] !== undefined)
        .concat(['compare', 'measure'].filter((k) => values[k]), values.explicitVariant ? ['variant'] : []);
      if (other.length) throw new UsageError(`--table prints the whole table and projects nothing; leave out ${other.map((k) => `--${k}`).join(', ')}`);
    }
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`project: ${err.message}\n${HELP_HINT}`);
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
    } else {
      census = readCensus();
    }
    model = loadWorkloadModel({ workloadDir: values.workload, census });
    if (values.census) {
      // Both built before either is written, each written whole (a temporary file renamed): the
      // census and the table never disagree, and a failure leaves both as they were.
      const table = buildTable(model);
      const put = (file, doc) => {
        writeFileSync(`${file}.tmp`, `${JSON.stringify(doc, null, 1)}\n`);
        return () => renameSync(`${file}.tmp`, file);
      };
      const commits = [put(CENSUS_PATH, census), put(TABLE_PATH, table)];
      commits.forEach((commit) => commit());
      console.error(`project: wrote ${CENSUS_PATH} and ${TABLE_PATH}`);
    }
  } catch (err) {
    console.error(`project: ${err.message}`);
    process.exit(1);
  }
  if (values.check) return check(values, model);
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
      console.log([`${typeof r.from === 'number' ? int(r.from) : r.from}${r.to === '' ? '' : `-${int(r.to)}`}`, ...cols.map((c) => rangeText(r[c], unitOf(c)))].join(' | '));
    }
    // Inputs by the script type they spend, the types the chain holds.
    const typeCols = INPUT_TYPES.map(({ key }) => `inputs_${key}`).filter((c) => table.totals[c].high > 0);
    console.log(`\n${['heights', ...typeCols.map((c) => LABELS[c])].join(' | ')}`);
    for (const r of [...table.rows, { ...table.totals, from: 'total', to: '' }]) {
      console.log([`${typeof r.from === 'number' ? int(r.from) : r.from}${r.to === '' ? '' : `-${int(r.to)}`}`, ...typeCols.map((c) => rangeText(r[c]))].join(' | '));
    }
    for (const n of table.notes) console.log(`note: ${n}`);
    return;
  }
  const whole = workloadFor(model, from, to);
  const eras = model.eras.filter((e) => e.to > from && e.from <= to).map((e) => ({
    era: e, workload: workloadFor(model, Math.max(from, e.from), Math.min(to, e.to - 1)),
  }));
  const projected = projection(values, model, from, to);
  if (values.json) {
    // Counts in whole units (the estimates' fractions are no precision they have); ratios and hours as computed.
    console.log(JSON.stringify({ from, to, workload: roundFigures(whole.figures), checks: roundRange(totalChecks(whole)),
      eras: eras.map(({ era, workload }) => ({ name: era.name, from: workload.from, to: workload.to, workload: roundFigures(workload.figures), ratios: era.ratios })),
      projection: projected.result, projection_error: projected.error }, null, 1));
    return;
  }
  console.log(`Workload of heights ${int(from)}-${int(to)} (${countOf(whole.blocks, 'block')}): value (low-high)`);
  for (const name of Object.keys(FIGURES)) console.log(`  ${LABELS[name].padEnd(24)} ${rangeText(whole.figures[name], unitOf(name))}`);
  console.log(`  ${'signature checks'.padEnd(24)} ${rangeText(totalChecks(whole))}`);
  for (const { era, workload } of eras) {
    console.log(`\n${era.name}: heights ${int(workload.from)}-${int(workload.to)}`);
    console.log(`  transactions ${rangeText(workload.figures.transactions)}, inputs ${rangeText(workload.figures.inputs)}, checks ${rangeText(totalChecks(workload))}`);
    for (const [name, r] of Object.entries(era.ratios)) {
      console.log(`  ${name} ${rangeText(r)}: ${r.label} - ${r.source ?? r.method}${r.widened ? `; range widened, ${r.widened}` : ''}`);
    }
  }
  console.log('');
  for (const line of projectionLines(projected, from, to)) console.log(line);
}

/** --measure: the main job in a child process, which saves a new measurement of the variant
 *  (build/project/measurement-V.json); exits 1 when it fails. */
function measure(values) {
  const flags = ['--scaling', '--rounds', '5', '--variant', values.variant, '--json', ...(values.fixtures ? ['--fixtures', values.fixtures] : [])];
  const args = [path.join(REPO_ROOT, 'bench', 'cli', 'main.mjs'), ...flags];
  console.error(`project: measuring: node bench/cli/main.mjs ${flags.join(' ')}`);
  try {
    execFileSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  } catch (err) {
    const how = err.signal ? `killed by ${err.signal}` : `exit ${err.status}`;
    console.error(`project: the measurement failed (${how}); nothing saved to ${measurementPath(values.variant)}`);
    process.exit(1);
  }
}

/** --check: the model checked on a node's range (range-check.mjs); exits 1 when the measurement
 *  or the source cannot be read, or the range stopped at a block it could not read. */
async function check(values, model) {
  if (values.measure) measure(values);
  const file = values.measurement ?? measurementPath(values.variant);
  let out;
  try {
    const doc = readMeasurement(values.variant, values.measurement, { explicitVariant: values.explicitVariant });
    out = await runRangeCheck({ source: values.source.options, from: values.from, to: values.to, workers: values.workers, rounds: values.rounds },
      { doc, file }, model, (msg) => console.error(`project: ${msg}`));
  } catch (err) {
    console.error(`project: ${err.message}`);
    process.exit(1);
  }
  if (values.json) console.log(JSON.stringify(out, null, 1));
  else for (const line of rangeCheckLines(out)) console.log(line);
  if (out.range.read_error || !out.check) process.exitCode = 1;
}

/**
 * The projection over `from`..`to` from the last saved measurement of the variant (measured
 * again first with --measure): {result} or {error}. Exits 1 when --measure fails, or when
 * --workers or --measure asked for a projection that cannot be made.
 */
function projection(values, model, from, to) {
  if (values.measure) measure(values);
  let doc;
  const file = values.measurement ?? measurementPath(values.variant);
  try {
    doc = readMeasurement(values.variant, values.measurement, { explicitVariant: values.explicitVariant });
  } catch (err) {
    // No measurement yet is no error for the workload alone; one that cannot be used, or a
    // projection asked for by a flag, is.
    const asked = values.workers !== undefined || values.measurement !== undefined || values.measure || values.compare;
    if (!err.missing || asked) {
      console.error(`project: ${err.message}`);
      process.exit(1);
    }
    return { result: null, error: err.message };
  }
  const schnorrPerEcdsa = schnorrPerEcdsaOf(doc.totals);
  if (schnorrPerEcdsa === null) {
    console.error(`project: ${file} has no ECDSA and Schnorr verify rates (totals.by_type): a Schnorr check's cost cannot be set; measure again on the fixture set (npm start, or npm run project -- --measure)`);
    process.exit(1);
  }
  try {
    const p = projectChain({ blocks: doc.blocks, table: model, endToEnd: doc.end_to_end, schnorrPerEcdsa,
      withoutKeyReuse: withoutKeyReuseOf(doc.totals), workers: values.workers ?? doc.workers, from, to });
    const result = { ...p, variant: doc.variant, measured_at: doc.saved_at ?? doc.generated_at ?? 'an unknown time (the document has neither saved_at nor generated_at)', measured_workers: doc.workers, machine: doc.machine,
      measurement: file };
    // The measurement's own build and host (a page run's document names its browser).
    if (values.compare) result.contenders = compare(p, model, from, to, { variant: doc.variant, measuredOn: doc.environment?.browser ?? 'node' });
    return { result };
  } catch (err) {
    console.error(`project: cannot project from ${file}: ${err.message}`);
    process.exit(1);
  }
}

/**
 * Every contender's hours (bench/core/contenders.mjs) on the projection's workers and efficiency,
 * over the range, the whole chain and after assumevalid, and to the published figures' heights;
 * variant, measuredOn: the measurement's build and where it ran (contenderCosts'). Exits 1 when the bench run cannot be read.
 */
function compare(p, model, from, to, { variant, measuredOn }) {
  let bench;
  try {
    bench = readBenchRatios();
  } catch (err) {
    console.error(`project: --compare: ${err.message}`);
    process.exit(1);
  }
  const at = (costs, a, b) => spanHours({ costs, table: model, efficiency: p.efficiency, workers: p.workers, from: a, to: b });
  return {
    bench_run: bench.run,
    bench_file: BENCH_RESULTS,
    missing: bench.missing,
    engines: contenderCosts(p.costs, bench.ratios, { variant, measuredOn }).map((c) => ({
      key: c.key, name: c.name, derivation: c.derivation,
      range_hours: at(c.costs, from, to), full_chain_hours: at(c.costs, 0, model.tip),
      after_assumevalid_hours: at(c.costs, ASSUMEVALID.height + 1, model.tip),
      published_spans: PUBLISHED.map((x) => ({ to: x.to, hours: at(c.costs, 0, x.to) })),
    })),
    published: PUBLISHED,
  };
}

/** The projection in words: the range's hours, the whole chain's, after assumevalid, by era, the
 *  model's check and the assumption beyond the measured worker counts. */
function projectionLines({ result: p, error }, from, to) {
  if (!p) return [`Projection: none (${error})`];
  const h = (x) => `${hoursText(x.value)} (${hoursText(x.low)}-${hoursText(x.high)})`;
  const pct = (r) => `${r >= 1 ? '+' : ''}${((r - 1) * 100).toFixed(1)}%`;
  const m = p.machine ?? {};
  return [
    `Projection on ${countOf(p.workers, 'worker')}: ibd-wasm ${p.variant}, from the measurement of ${p.measured_at}, ${countOf(p.blocks_fitted, 'block')} ` +
      `(${countOf(p.measured_workers, 'worker')}, ${m.cpu ?? 'unknown CPU'}, ${countOf(m.cores ?? 0, 'core')}; ${p.measurement})`,
    ...(from === 0 && to === p.tip ? [] : [`  heights ${int(from)}-${int(to)}: ${h(p.range_hours)} to validate (parse, sighash, script, verify)`]),
    `  the whole chain, heights 0-${int(p.tip)}: ${h(p.full_chain_hours)}${from === 0 && to === p.tip ? ' to validate (parse, sighash, script, verify)' : ''}`,
    `  after assumevalid, heights ${int(p.assumevalid.height + 1)}-${int(p.tip)}: ${h(p.after_assumevalid_hours)} (${p.assumevalid.source})`,
    // With --from/--to, the eras the range touches (each still priced whole, as labelled).
    ...p.eras.filter((e) => e.to >= from && e.from <= to).map((e) => `  ${e.name} (heights ${int(e.from)}-${int(e.to)}, the whole era): ${h(e.hours)}`),
    `  each worker ${(p.efficiency * 100).toFixed(0)}% of the wall time in the engine (${p.efficiency_measured ? 'measured' : 'assumed'})` +
      (p.assumption ? `; ASSUMED: ${p.assumption}` : ''),
    p.trusted ? `  model check: trusted, every measured block with 100+ checks predicted within +-15% from the others' costs`
      : `  model check: NOT trusted: ${p.misses.length ? `${p.misses.map((x) => `block ${x.height} ${pct(x.ratio)}`).join(', ')} outside +-15%` : p.untrusted_reason}; ` +
        `the hours above are then only indicative${p.misses.length ? missCause(p, 'measure', MIN_ROUNDS) : ''}`,
    ...(p.at_mix ? [atMixLine(p.at_mix)] : []),
    '  range: the workload\'s low and high at the fastest and slowest measured round\'s costs (from 5 rounds, one left out at each end; docs/workload.md)',
    ...(p.contenders ? compareLines(p, h) : []),
  ];
}

/** --compare in words: a row per engine, then the published figures beside ibd-wasm's hours over
 *  the same heights. */
function compareLines(p, h) {
  const c = p.contenders;
  const f = (x) => hoursText(x.value);
  const bm = c.bench_run.machine ?? {};
  return [
    '',
    `Compared on ${countOf(p.workers, 'worker')} at the same efficiency, each from ibd-wasm's measured costs and its ratio to ` +
      `ibd-wasm within one npm run bench run: ${c.bench_run.generated_at} on ${bm.cpu ?? 'unknown CPU'}, ${countOf(bm.cores ?? 0, 'core')} ` +
      `(${c.bench_file}; the repository carries the developers' run: npm run bench -- --readme measures this machine's):`,
    ...c.engines.map((e) => `  ${e.name}: whole chain ${h(e.full_chain_hours)}, after assumevalid ${f(e.after_assumevalid_hours)}; ${e.derivation}`),
    ...(c.missing.length ? [`  not in that run: ${c.missing.join(', ')}`] : []),
    'Published Bitcoin Core times (reference points, not measured here):',
    ...c.published.map((x, k) => `  ${x.name}: ${x.hours >= 1 ? `${x.hours.toFixed(1)} h` : `${(x.hours * 3600).toFixed(1)} s`} on ${x.hardware} (${x.source}); ` +
      `ibd-wasm's projection for heights 0-${int(x.to)} here: ${f(c.engines[0].published_spans[k].hours)}`),
  ];
}

await main();
