#!/usr/bin/env node
// `npm test` after set-up: the GoogleTest suites through ctest, then every node:test suite.
// Both always run; their output streams through unchanged, and the last line sums them up.
// The exit code is non-zero if either failed.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NATIVE_BUILD_DIR, NATIVE_TOOLS, REPO_ROOT as ROOT } from '../wasm/paths.mjs';
import { UsageError, parseFlags } from '../bench/shared/args.mjs';

// It takes no flags: `npm test -- --bogus` is refused rather than ignored.
try {
  parseFlags(process.argv.slice(2), {});
} catch (err) {
  if (!(err instanceof UsageError)) throw err;
  process.stderr.write(`[test] error: ${err.message} (npm test takes no flags)\n`);
  process.exit(2);
}

/** Runs `cmd`, echoing its output unless `echo` is false; resolves to { code, output } (stdout
 *  and stderr together). */
function run(cmd, args, { echo = true } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (stream) => (chunk) => { output += chunk; if (echo) stream.write(chunk); };
    child.stdout.on('data', collect(process.stdout));
    child.stderr.on('data', collect(process.stderr));
    child.on('error', (err) => resolve({ code: 1, output: `${cmd}: ${err.message}` }));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Passed/failed counts from ctest's closing line or node:test's TAP summary (null if absent). */
function counts(output, kind) {
  if (kind === 'ctest') {
    const m = output.match(/tests passed, (\d+) tests? failed out of (\d+)/);
    return m ? { passed: Number(m[2]) - Number(m[1]), failed: Number(m[1]) } : null;
  }
  const pass = output.match(/^# pass (\d+)$/m);
  const fail = output.match(/^# fail (\d+)$/m);
  return pass && fail ? { passed: Number(pass[1]), failed: Number(fail[1]) } : null;
}

const ctest = await run('ctest', ['--test-dir', NATIVE_BUILD_DIR, '--output-on-failure', '--parallel', '2']);
// The vector suites print one "<file>: N/M passed" line each; ctest keeps a passing test's
// output to itself, so show those lines here (the suites take a few seconds).
if (ctest.code === 0) {
  const vectors = await run(NATIVE_TOOLS.nativeTests,
    ['--gtest_filter=CoreScriptTests.*:CoreTxVectors.*:TaprootScriptAssets.*'], { echo: false });
  const lines = vectors.output.split('\n').filter((l) => /^\S+\.json: .*passed/.test(l));
  process.stdout.write(`\nCore and BIP vector files:\n${lines.map((l) => `  ${l}`).join('\n')}\n\n`);
}

const suites = readdirSync(path.join(ROOT, 'tests'))
  .filter((f) => f.endsWith('.test.mjs'))
  .sort()
  .map((f) => path.join('tests', f));
// The main job saves its measurement for `npm run project` (bench/workload/measurement.mjs):
// the suites' runs save theirs in a temporary folder, never over the user's.
const measurements = mkdtempSync(path.join(os.tmpdir(), 'ibd-measurements-'));
process.env.IBD_MEASUREMENT_DIR = measurements;
const node = await run(process.execPath, ['--test', '--test-concurrency=1', ...suites]);
rmSync(measurements, { recursive: true, force: true });

const parts = [['ctest', ctest], ['node:test', node]].map(([name, r]) => ({ name, r, c: counts(r.output, name) }));
const line = parts.map(({ name, r, c }) => (c ? `${name} ${c.passed} passed, ${c.failed} failed` : `${name} exit code ${r.code}`));
process.stdout.write(`\n${line.join('; ')}\n`);
if (parts.every(({ c }) => c)) {
  const sum = (k) => parts.reduce((n, { c }) => n + c[k], 0);
  process.stdout.write(`tests: ${sum('passed')} passed, ${sum('failed')} failed\n`);
}
process.exit(ctest.code === 0 && node.code === 0 ? 0 : 1);
