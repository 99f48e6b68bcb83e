#!/usr/bin/env node
// `npm test` after set-up: the GoogleTest suites through ctest, then every node:test suite.
// Both always run; the exit code is non-zero if either failed.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = (cmd, args) => spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit' }).status ?? 1;

const ctest = run('ctest', ['--test-dir', path.join(ROOT, 'build/native'), '--output-on-failure', '--parallel', '2']);
const suites = readdirSync(path.join(ROOT, 'tests'))
  .filter((f) => f.endsWith('.test.mjs'))
  .sort()
  .map((f) => path.join('tests', f));
const nodeTests = run(process.execPath, ['--test', '--test-concurrency=1', ...suites]);
process.exit(ctest === 0 && nodeTests === 0 ? 0 : 1);
