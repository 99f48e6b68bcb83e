// The soak command (bench/soak.mjs, npm run soak): a short run over two blocks verifies the
// fixture checks repeatedly and reports passes, throughput, RSS and each worker's wasm memory
// after warm-up and at the end, with their growth and the verdict mismatches. The growth
// criterion (under 5%) is the tool's own, for the 10-minute run; memory in a few seconds is too
// noisy to assert here.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../blocks-fixtures/loader.mjs';

const SOAK = path.join(REPO_ROOT, 'bench', 'soak.mjs');
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
  for (const key of ['after_warmup', 'end', 'growth_percent']) assert.equal(typeof doc.rss[key], 'number', `rss.${key}`);
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
    /^RSS: .* after warm-up, .* at end \([+-]\d+\.\d\d%\)$/m, /^wasm memory, worker 0: /m, /^wasm memory, worker 1: /m,
    /^verdict mismatches vs first pass: 0$/m, /^growth under 5%: (PASS|FAIL)$/m, /^soak: (PASS|FAIL)/m]) {
    assert.match(stdout, re);
  }
});

test('soak: a bad --minutes is a usage error (exit 2)', async () => {
  const { code, stderr } = await run(['--minutes', '0']);
  assert.equal(code, 2);
  assert.match(stderr, /--minutes must be a positive number/);
});
