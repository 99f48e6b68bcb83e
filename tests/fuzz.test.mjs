// Fuzzing, bounded: builds the libFuzzer targets (fuzz/, build/fuzz) and runs each for 25 s
// through scripts/fuzz.mjs, which exits non-zero on a crash, leak, timeout or out-of-memory
// (printing the reproducer). The long run is `npm run fuzz -- --seconds 3600`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
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

  const expected = ['block_parser_fuzz'];
  if (existsSync(path.join(ROOT, 'native', 'interpreter.cpp'))) expected.push('script_eval_fuzz');
  for (const target of expected) {
    const m = output.match(new RegExp(`^\\[fuzz\\] ${target}: Done (\\d+) runs`, 'm'));
    assert.ok(m, `no "Done N runs" line for ${target}:\n${output.slice(-5000)}`);
    assert.ok(Number(m[1]) > 0, `${target} executed no input`);
  }
});
