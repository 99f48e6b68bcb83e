// The soak command (bench/pool/soak.mjs, npm run soak): a short run over two blocks verifies the
// fixture checks repeatedly and reports passes, throughput, RSS and each worker's wasm memory
// (after warm-up, at the end, their range and peaks) with their growth and the verdict
// mismatches; trend() tells a breathing heap from a leaking one. The growth
// criterion (under 5%) is the tool's own, for the 10-minute run; memory in a few seconds is too
// noisy to assert here.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../wasm/paths.mjs';
import { trend } from '../bench/pool/soak.mjs';

const SOAK = path.join(REPO_ROOT, 'bench', 'pool', 'soak.mjs');
const run = (args) => promisify(execFile)(process.execPath, [SOAK, ...args], { timeout: 120_000, maxBuffer: 64 << 20 })
  .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }), (err) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }));

const ARGS = ['--minutes', '0.15', '--heights', '170,553724', '--workers', '2'];

test('soak --json: passes, checks, memory growth figures and no verdict mismatch', async () => {
  const { code, stdout, stderr } = await run([...ARGS, '--json']);
  const doc = JSON.parse(stdout);
  assert.equal(doc.mismatches, 0, stderr);
  assert.equal(doc.replacements, 0);
  assert.equal(doc.workers, 2);
  assert.equal(doc.blocks, 2);
  assert.ok(doc.passes >= 2, `${doc.passes} passes`);
  assert.ok(doc.checks_per_pass > 0);
  assert.equal(doc.checks_verified, doc.passes * doc.checks_per_pass);
  assert.equal(typeof doc.checks_per_second, 'number');
  for (const key of ['after_warmup', 'end', 'min', 'max', 'first_third_peak', 'last_third_peak', 'growth_percent']) {
    assert.equal(typeof doc.rss[key], 'number', `rss.${key}`);
  }
  assert.equal(doc.wasm_memory.length, 2);
  for (const w of doc.wasm_memory) {
    for (const key of ['after_warmup', 'end', 'growth_percent']) assert.equal(typeof w[key], 'number', `wasm_memory[${w.worker}].${key}`);
    assert.ok(w.end > 0);
  }
  assert.ok(doc.samples.length >= 2);
  assert.equal(typeof doc.growth_ok, 'boolean');
  assert.equal(code, doc.pass ? 0 : 1); // the exit code follows the tool's own verdict
});

test('soak report: the documented lines', async () => {
  const { code, stdout, stderr } = await run(ARGS);
  assert.ok(code === 0 || code === 1, stderr);
  for (const re of [/^soak: \d[\d,]* passes in /m, /^checks verified: [\d,]+ \([\d,]+ per pass\), [\d,]+ checks\/s$/m,
    /^RSS: .* after warm-up, .* at end, .* – .*; peak .* in the first third, .* in the last \([+-]\d+\.\d\d%\)$/m, /^wasm memory, worker 0: /m, /^wasm memory, worker 1: /m,
    /^verdict mismatches vs first pass: 0$/m, /^growth under 5%: (PASS|FAIL)$/m, /^soak: (PASS|FAIL)/m]) {
    assert.match(stdout, re);
  }
});

test('soak: a bad --minutes is a usage error (exit 2)', async () => {
  const { code, stderr } = await run(['--minutes', '0']);
  assert.equal(code, 2);
  assert.match(stderr, /--minutes must be a positive number/);
});

test('trend: a heap that breathes does not grow; one that leaks does', () => {
  const MiB = 2 ** 20;
  // Oscillating between 135 and 162 MiB (V8 growing and shrinking its heap), no trend.
  const breathing = Array.from({ length: 60 }, (_, i) => (i % 8 < 4 ? 135 : 162) * MiB);
  const b = trend(breathing);
  assert.equal(b.growth_percent, 0);
  assert.equal(b.min, 135 * MiB);
  assert.equal(b.max, 162 * MiB);
  // Rising by 0.5 MiB per sample: 30 MiB over the run.
  const leaking = Array.from({ length: 60 }, (_, i) => (130 + i / 2) * MiB);
  const l = trend(leaking);
  assert.equal(l.first_third_peak, 139.5 * MiB);
  assert.equal(l.last_third_peak, 159.5 * MiB);
  assert.ok(l.growth_percent > 14 && l.growth_percent < 15, String(l.growth_percent));
  assert.equal(trend([null, null]).growth_percent, null);
  assert.equal(trend([100 * MiB]).growth_percent, 0);
});
