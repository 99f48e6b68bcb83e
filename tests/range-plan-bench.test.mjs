// The range-plan benchmark (bench/pool/range-plan.mjs) end to end, shortest run: the JSON
// document's shape and its correctness fields (the blocks it splits, every configuration and
// worker count present, the messages of each plan), never its timings; a bad flag exits 2.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../wasm/paths.mjs';

const CLI = path.join(REPO_ROOT, 'bench', 'pool', 'range-plan.mjs');
const run = (args) => promisify(execFile)(process.execPath, [CLI, ...args], { timeout: 300_000, maxBuffer: 16 << 20 })
  .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }), (err) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }));

test('range-plan: one round, 1 worker, two caps: the blocks it splits and each plan\'s messages', async () => {
  const { code, stdout, stderr } = await run(['--rounds', '1', '--max-workers', '1', '--caps', '1,8', '--calls', '1', '--json']);
  assert.equal(code, 0, stderr);
  const report = JSON.parse(stdout);
  assert.deepEqual(report.range_cost.map((c) => c.height), [300025, 367891, 403200, 866342]);
  assert.ok(report.range_cost.every((c) => c.txs > 2 && c.whole_ms > 0 && c.range_ms > 0 && !('baseline_range_ms' in c)));
  assert.deepEqual(report.end_to_end.map((r) => [r.config, r.workers]), [['cap 1', 1], ['cap 8', 1]]);
  // 24 blocks: the 4 split ones as a rules range plus 1 range each (cap 1) or up to 8 (cap 8,
  // target 512: 3, 8, 3 and 8 ranges), the others grouped.
  const [one, eight] = report.end_to_end.map((r) => r.messages);
  assert.equal(eight - one, (3 - 1) + (8 - 1) + (3 - 1) + (8 - 1));
  assert.ok(report.end_to_end.every((r) => r.efficiency === 1 && r.model_efficiency === 1 && r.worker_busy_seconds > 0 && r.cpu_seconds > 0));
});

test('range-plan: a bad flag is a usage error (exit 2)', async () => {
  const { code, stderr } = await run(['--caps', '0']);
  assert.equal(code, 2);
  assert.match(stderr, /caps/);
});
