#!/usr/bin/env node
// The main job (`npm start`): every fixture block validated whole in a pool of wasm workers
// (parse, sighash, scripts and signatures in each worker's engine; this thread runs none), the
// chain pass in a worker, then timed verification passes over the final checks and timed
// end-to-end rounds; a terminal report or, with --json, one JSON document on stdout.
// Progress (and, with --json, the report's warnings) goes to stderr. With --web it runs nothing
// here: it serves the benchmark page (web/server.mjs) and prints the URL to open. Usage and exit
// codes: bench/cli/options.mjs.
import { fixturesDir, readManifest } from '../../blocks-fixtures/loader.mjs';
import { countOf } from '../core/format.mjs';
import { formatReport } from './report.mjs';
import { createProgress } from './progress.mjs';
import { checkHeights, UsageError } from '../shared/args.mjs';
import { HELP_HINT, parseOptions, USAGE } from './options.mjs';
import { chainShortfall, exitCodeOf } from '../core/run-core.mjs';
import { runBench } from './run.mjs';
import { formatNodeSourceReport, nodeSourceExitCode, runNodeSource } from './node-source.mjs';
import { startServer } from '../../web/server.mjs';
import { saveMeasurement } from '../workload/measurement.mjs';
import { MIN_ROUNDS, schnorrPerEcdsaOf } from '../core/model-projection.mjs';

const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);

/** The run failed before a report: one error line on stderr (and a JSON document with --json); 1. */
function failed(options, err) {
  log(`error: ${err.message}`);
  if (options?.json) process.stdout.write(`${JSON.stringify({ error: err.message, exit_code: 1 }, null, 1)}\n`);
  return 1;
}

/** --web: serves the page (web/server.mjs, cross-origin isolated) until interrupted; 1 when
 *  the server cannot start (port in use, no manifest). */
async function serveWeb(options) {
  let server;
  try {
    server = await startServer({ port: options.port, fixtures: options.fixtures });
  } catch (err) {
    log(`error: ${err.message}`);
    return 1;
  }
  process.stdout.write(`ibd-wasm benchmark page: ${server.url}\n` +
    '  open it in a browser (cross-origin isolated: COOP same-origin, COEP require-corp); Ctrl-C stops\n');
  await new Promise((resolve) => process.once('SIGINT', resolve).once('SIGTERM', resolve));
  await server.close();
  return 0;
}

/** --datadir / --rest: the range from a node, streamed through the workers; its own report. */
async function nodeSourceMain(options) {
  let doc;
  try {
    doc = await runNodeSource(options, log);
  } catch (err) {
    return failed(options, err);
  }
  const code = nodeSourceExitCode(doc);
  process.stdout.write(options.json ? `${JSON.stringify({ ...doc, exit_code: code }, null, 1)}\n` : formatNodeSourceReport(doc));
  return code;
}

async function main() {
  let options;
  try {
    options = parseOptions(process.argv.slice(2));
    if (options.heights) checkHeights(options.heights, readManifest(fixturesDir(options.fixtures)));
  } catch (err) {
    if (!(err instanceof UsageError)) return failed(options, err);
    process.stderr.write(`error: ${err.message}\n${HELP_HINT}\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (options.web) return serveWeb(options);
  if (options.datadir !== undefined || options.rest !== undefined || options.rpc !== undefined) return nodeSourceMain(options);
  // A progress bar on stderr only on a terminal and without --json (bench/cli/progress.mjs).
  const progress = createProgress({ enabled: Boolean(process.stderr.isTTY) && !options.json });
  let doc;
  try {
    doc = await runBench(options, log, progress);
  } catch (err) {
    progress.done();
    return failed(options, err);
  }
  const code = exitCodeOf(doc);
  // The cost model's inputs, for `npm run project` to project from without measuring again:
  // only a run of every fixture block, each timed at least MIN_ROUNDS times, with no worker
  // replaced (a subset, a quick run or timings that include re-run work are no measurement to
  // project from, and must not replace one).
  // Nor a folder whose blocks cannot set the costs a projection needs: no Schnorr check (no
  // Schnorr rate), or no block with 100+ checks (nothing the model check judges), as a replay
  // of an early range saved from a node.
  const unusable = doc.projection?.model && (schnorrPerEcdsaOf(doc.totals) === null ? 'no Schnorr check among its blocks: no Schnorr verify rate'
    : !doc.projection.model.per_block?.some((b) => b.judged) ? 'no block with 100 or more checks: nothing for the model check to judge' : null);
  if (doc.projection?.model && !unusable && !doc.projection.sample?.partial && doc.projection.model.rounds >= MIN_ROUNDS && !doc.worker_replacements) {
    try {
      const saved = saveMeasurement(doc);
      log(saved.keptTrusted
        ? `measurement NOT trusted, so saved beside the trusted one, not over it: ${saved.file} (npm run project keeps projecting ` +
          `from the trusted one; npm run project -- --measurement ${saved.file} projects from this one)`
        : `measurement saved for npm run project: ${saved.file}`);
    } catch (err) {
      log(`WARNING: the measurement could not be saved: ${err.message}`);
    }
  } else if (doc.projection?.model) {
    const why = doc.worker_replacements ? `${countOf(doc.worker_replacements, 'worker')} replaced during the run`
      : unusable ?? `a subset of the blocks or fewer than ${MIN_ROUNDS} rounds`;
    log(`measurement not saved for npm run project (${why}); it keeps projecting from the last full run`);
  }
  if (options.json) {
    // The terminal report prints its warnings on stdout; with --json they also go to stderr.
    for (const w of doc.warnings) log(`WARNING: ${w}`);
    process.stdout.write(`${JSON.stringify({ ...doc, exit_code: code }, null, 1)}\n`);
  } else {
    process.stdout.write(formatReport(doc));
  }
  if (code !== 0) {
    log(`exit code ${code}: ${countOf(doc.errors.length, 'failed block')}, ${countOf(doc.totals.invalid_blocks, 'invalid block')}` +
      (doc.disagreements.length ? `, ${countOf(doc.disagreements.length, 'verdict disagreement')}` : '') +
      (doc.end_to_end?.disagreements?.length ? `, ${countOf(doc.end_to_end.disagreements.length, 'end-to-end disagreement')}` : '') +
      (doc.verify_error ? ', the timed signature passes failed' : '') +
      (doc.chain && (doc.chain.error || doc.chain.file_error || doc.chain.failure || chainShortfall(doc.chain)) ? ', the chain pass (see the report)' : ''));
  }
  return code;
}

process.exitCode = await main();
