#!/usr/bin/env node
// The main job (`npm start`): every fixture block validated (scripts evaluated on the main
// thread, signature checks verified through a pool of wasm workers), then timed verification
// passes over the final checks; a terminal report or, with --json, one JSON document on stdout.
// Progress (and, with --json, the report's warnings) goes to stderr. Usage and exit codes:
// bench/options.mjs.
import { fixturesDir, readManifest } from '../blocks-fixtures/loader.mjs';
import { countOf, formatReport } from './report.mjs';
import { createProgress } from './progress.mjs';
import { checkHeights, HELP_HINT, parseOptions, UsageError, USAGE } from './options.mjs';
import { runBench } from './run.mjs';

const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);

/** Exit code for a finished run: 1 failed block or inconsistent passes, 3 an invalid block (a
 *  script fails), else 0. Invalid checks alone (CHECKMULTISIG trials and other checks a valid
 *  script tolerates) are not a failure. */
function exitCodeOf(doc) {
  if (doc.errors.length > 0 || doc.disagreements.length > 0) return 1;
  if (doc.totals.invalid_blocks > 0) return 3;
  return 0;
}

/** The run failed before a report: one error line on stderr (and a JSON document with --json); 1. */
function failed(options, err) {
  log(`error: ${err.message}`);
  if (options?.json) process.stdout.write(`${JSON.stringify({ error: err.message, exit_code: 1 }, null, 1)}\n`);
  return 1;
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
  // A progress bar on stderr only on a terminal and without --json (bench/progress.mjs).
  const progress = createProgress({ enabled: Boolean(process.stderr.isTTY) && !options.json });
  let doc;
  try {
    doc = await runBench(options, log, progress);
  } catch (err) {
    progress.done();
    return failed(options, err);
  }
  const code = exitCodeOf(doc);
  if (options.json) {
    // The terminal report prints its warnings on stdout; with --json they also go to stderr.
    for (const w of doc.warnings) log(`WARNING: ${w}`);
    process.stdout.write(`${JSON.stringify({ ...doc, exit_code: code }, null, 1)}\n`);
  } else {
    process.stdout.write(formatReport(doc));
  }
  if (code !== 0) {
    log(`exit code ${code}: ${countOf(doc.errors.length, 'failed block')}, ${countOf(doc.totals.invalid_blocks, 'invalid block')}` +
      (doc.disagreements.length ? `, ${countOf(doc.disagreements.length, 'verdict disagreement')}` : ''));
  }
  return code;
}

process.exitCode = await main();
