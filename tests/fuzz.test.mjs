// Fuzzing, bounded: builds the libFuzzer targets (fuzz/, build/fuzz) and runs each for 25 s
// through scripts/fuzz.mjs, which exits non-zero on a crash, leak, timeout or out-of-memory
// (printing the reproducer). The long run is `npm run fuzz -- --seconds 3600`. Also its command
// line: --help, and a clean one-line error (exit 2) for a bad flag.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REPO_ROOT as ROOT } from '../wasm/paths.mjs';

const SECONDS = 25;

/** Whether clang can link a libFuzzer target with ASan and UBSan here. */
function libFuzzerAvailable() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ibd-fuzz-probe-'));
  try {
    const r = spawnSync('clang++', ['-x', 'c++', '-', '-fsanitize=fuzzer,address,undefined', '-o', path.join(dir, 'probe')], {
      input: 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }\n',
      encoding: 'utf8',
    });
    return r.status === 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function runFuzz(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'fuzz.mjs'), ...args], {
      cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c) => { output += c; });
    child.stderr.on('data', (c) => { output += c; });
    child.on('close', (code) => resolve({ code, output }));
  });
}

test('--help prints the usage (options, defaults, where corpus, artifacts and logs go) and exits 0', async () => {
  for (const flag of ['--help', '-h']) {
    const { code, output } = await runFuzz([flag]);
    assert.equal(code, 0, output);
    assert.match(output, /^usage: npm run fuzz -- \[options\]\n/);
    for (const text of ['--seconds N', '(default: 30)', '--target NAME', '--jobs N', 'build/fuzz',
      'corpus/<target>/', 'artifacts/<target>/', 'logs/<target>.log', '2 bad command line']) {
      assert.ok(output.includes(text), `${flag}: no "${text}" in:\n${output}`);
    }
  }
});

test('a bad flag is one error line naming it, exit 2, before any build', async () => {
  const cases = [
    [['--bogus'], /^\[fuzz\] error: Unknown option '--bogus' \(npm run fuzz -- --help for usage\)\n$/],
    [['--seconds'], /^\[fuzz\] error: Option '--seconds <value>' argument missing /],
    [['--seconds', '0'], /^\[fuzz\] error: --seconds must be a positive integer, got '0' /],
    [['--jobs', 'many'], /^\[fuzz\] error: --jobs must be a positive integer, got 'many' /],
    [['--target', 'nope'], /^\[fuzz\] error: unknown --target 'nope' \(known: block_parser_fuzz, script_eval_fuzz\) /],
    [['extra'], /^\[fuzz\] error: Unexpected argument 'extra' /],
  ];
  for (const [args, expected] of cases) {
    const { code, output } = await runFuzz(args);
    assert.equal(code, 2, `${args.join(' ')}: ${output}`);
    assert.match(output, expected, args.join(' '));
    assert.equal(output.trimEnd().split('\n').length, 1, `${args.join(' ')}: ${output}`);
  }
});

test(`fuzz targets run ${SECONDS} s each without a crash, leak or timeout`, { timeout: 20 * 60 * 1000 }, async (t) => {
  if (!libFuzzerAvailable() && process.getuid?.() !== 0) {
    t.skip('clang with libFuzzer is not available and not root to install it: '
      + 'sudo apt-get install -y clang libclang-rt-14-dev');
    return;
  }
  const { code, output } = await runFuzz(['--seconds', String(SECONDS)]);
  const summary = output.split('\n').filter((l) => l.startsWith('[fuzz]'));
  for (const line of summary) t.diagnostic(line);
  assert.equal(code, 0, `scripts/fuzz.mjs failed:\n${output.slice(-20000)}`);

  for (const target of ['block_parser_fuzz', 'script_eval_fuzz']) {
    const m = output.match(new RegExp(`^\\[fuzz\\] ${target}: Done (\\d+) runs`, 'm'));
    assert.ok(m, `no "Done N runs" line for ${target}:\n${output.slice(-5000)}`);
    assert.ok(Number(m[1]) > 0, `${target} executed no input`);
    assert.match(output, new RegExp(`^\\[fuzz\\] ${target}: ${SECONDS} s; corpus build/fuzz/corpus/${target}: \\d+ seeds \\+ \\d+ files found earlier$`, 'm'));
    assert.match(output, new RegExp(`^\\[fuzz\\] ${target}: corpus build/fuzz/corpus/${target} now \\d+ files \\([+-]\\d+ this run\\)`, 'm'));
  }
});
