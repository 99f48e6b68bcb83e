// What the main job says about its own measurement: the projection names the sample it was
// computed from (and warns when --heights made it a subset of the fixture set), which rates it
// used, every pass's spread over timed rounds, a warning when they disagree too much or the
// sample is small, and those warnings also as the JSON document's `warnings`.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../wasm/paths.mjs';
import { wideArithmeticSupported } from '../wasm/variants.mjs';
import { fixturesDir, loadBlocks } from '../blocks-fixtures/loader.mjs';
import { formatReport } from '../bench/cli/report.mjs';
import { warningsOf } from '../bench/core/warnings.mjs';
import { totalChecks, workloadFor } from '../bench/core/workload-model.mjs';
import { readWorkloadTable } from '../bench/workload/table.mjs';

const MAIN = path.join(REPO_ROOT, 'bench', 'cli', 'main.mjs');
const CHAIN_TXS = 1_315_805_869; // Bitcoin Core 31 chainTxData, height 938,343 (bench/core/projection.mjs)
const fmt = (n) => Math.round(n).toLocaleString('en-US');

/** Runs the main job; resolves to {code, stdout, stderr}. */
const run = (args) => promisify(execFile)(process.execPath, [MAIN, ...args], { timeout: 300_000, maxBuffer: 64 << 20 })
  .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }), (err) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }));

// Blocks 170 (2 transactions, 1 ECDSA check) and 866342 (4,864 transactions, 5,502 ECDSA and
// 2,223 Schnorr checks): 4,866 transactions, 7,726 checks.
const subset = await run(['--heights', '170,866342', '--workers', '1', '--rounds', '3', '--json']);
const subsetDoc = JSON.parse(subset.stdout);

test('--heights subset: the projection names its sample, flags it partial, and uses the separate passes\' rates', () => {
  assert.equal(subset.code, 0, subset.stderr);
  const p = subsetDoc.projection;
  assert.deepEqual(p.sample, { blocks: 2, transactions: 4866, checks: 8077, fixture_blocks: 24, partial: true });
  assert.equal(p.checks_per_transaction, 8077 / 4866);
  assert.equal(p.workload_checks, Math.round(CHAIN_TXS * (8077 / 4866)));
  assert.equal(p.workload_transactions, CHAIN_TXS);
  const { ecdsa, schnorr } = subsetDoc.totals.by_type;
  assert.deepEqual([ecdsa.checks, schnorr.checks], [5702, 2375]);
  assert.deepEqual(p.rates_per_second, { ecdsa: ecdsa.checks_per_second, schnorr: schnorr.checks_per_second });
  const hours = CHAIN_TXS * (8077 / 4866) * ((5702 / 8077) / ecdsa.checks_per_second + (2375 / 8077) / schnorr.checks_per_second) / 3600;
  assert.ok(Math.abs(p.hours - hours) < 1e-6 * hours, `${p.hours} vs ${hours}`);

  // The skeleton's lines are the report's only without the cost model's projection (two answers
  // to one question would contradict each other); with it, they are left out.
  assert.equal(formatReport(subsetDoc).split('\n').findIndex((l) => l.startsWith('projection: ')), -1);
  const lines = formatReport({ ...subsetDoc, projection: { ...p, model: null, model_error: 'test' } }).split('\n');
  const at = lines.findIndex((l) => l.startsWith('projection: '));
  assert.equal(lines[at], `projection: ${p.hours.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} ` +
    'h to verify every signature of the chain on 1 worker');
  assert.equal(lines[at + 1], `  workload: ${fmt(p.workload_checks)} checks = 1,315,805,869 transactions ` +
    '(Bitcoin Core 31 chainTxData, height 938,343, 2026-02-25) x 1.660 checks/tx (2 fixture blocks, 4,866 transactions)');
  assert.ok(lines[at + 2].startsWith(`  rates: ECDSA ${fmt(ecdsa.checks_per_second)}/s, Schnorr ${fmt(schnorr.checks_per_second)}/s; `));
  assert.equal(lines[at + 3], '  (rates from the separate ECDSA and Schnorr passes; the combined pass above ran at ' +
    `${fmt(subsetDoc.totals.checks_per_second)}/s)`);
  const whole = p.end_to_end;
  assert.equal(whole.checks_per_second, subsetDoc.end_to_end.checks_per_second);
  assert.equal(lines[at + 4], `  ${whole.hours.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} h to ` +
    `validate it whole (parse, sighash, script, verify) at this run's end-to-end rate, ${fmt(whole.checks_per_second)} checks/s on 1 worker`);
  assert.match(lines[at + 5], /^ {2}WARNING: partial sample: 2 of 24 fixture blocks; /);
  assert.doesNotMatch(lines[at + 6], /small sample/);
});

test('the report closes with the cost model\'s check and its projections, as --json gives them', () => {
  const p = subsetDoc.projection;
  const m = p.model;
  assert.ok(m, p.model_error);
  // Two blocks: each predicted from the other one's costs; only 866,342 has 100 or more checks.
  assert.deepEqual(p.per_block.map((b) => [b.height, b.judged]), [[170, false], [866342, true]]);
  // --rounds 3: each block's time is a median of 3, too few to judge the model by.
  assert.equal(p.trusted, false);
  assert.match(m.untrusted_reason, /median of 3 rounds; the check needs 5 or more/);
  for (const h of [p.full_chain_hours, p.after_assumevalid_hours]) assert.ok(h.low <= h.value && h.value <= h.high, JSON.stringify(h));
  assert.equal(m.workers, 1);
  const lines = formatReport(subsetDoc).trimEnd().split('\n');
  // The projection closes the report, before its verdict line (and the failed blocks).
  const at = lines.findIndex((l) => l.startsWith('projection, the whole chain'));
  assert.ok(at > 0 && lines.slice(at + 3).every((l) => l === '' || !l.startsWith('projection')), lines.join('\n'));
  const last = lines.slice(at);
  const hours = (h) => `${h.value.toFixed(1)} h (${h.low.toFixed(1)}-${h.high.toFixed(1)} h)`;
  assert.equal(last[0], `projection, the whole chain (heights 0-938,343): ${hours(p.full_chain_hours)} to validate (parse, sighash, script, verify)`);
  assert.equal(last[1], `projection, after assumevalid (heights 912,684-938,343, the scripts Core checks by default): ${hours(p.after_assumevalid_hours)}`);
  assert.ok(lines.some((l) => /^ +866342 .*predicted/.test(l)), 'the judged block\'s line');
});

test('npm run project projects from a saved measurement: 16 workers, a height range, the assumption stated', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'ibd-project-'));
  try {
    const file = path.join(dir, 'measurement.json');
    await writeFile(file, JSON.stringify({ saved_at: 'test', ...subsetDoc }));
    const project = path.join(REPO_ROOT, 'bench', 'workload', 'project.mjs');
    const out = await promisify(execFile)(process.execPath, [project, '--measurement', file, '--workers', '16',
      '--from', '800000', '--to', '900000', '--json'], { maxBuffer: 16 << 20 });
    const doc = JSON.parse(out.stdout);
    const p = doc.projection;
    // Estimated counts in whole units (transactions, inputs, checks, sighashes, bytes): the
    // range's, its eras', the projection's; rounded from the full-precision figures.
    const figures = (where, w) => Object.entries(w).map(([name, r]) => [`${where}.${name}`, r]);
    const counts = [['checks', doc.checks], ...figures('workload', doc.workload), ...doc.eras.flatMap((e) => figures(`${e.name}.workload`, e.workload)),
      ...['range_hours', 'full_chain_hours', 'after_assumevalid_hours'].map((k) => [`projection.${k}.checks`, p[k].checks]),
      ...p.eras.flatMap((e) => [[`projection ${e.name}.hours.checks`, e.hours.checks], ...figures(`projection ${e.name}.workload`, e.workload)])];
    assert.ok(counts.length > 50);
    for (const [where, r] of counts) assert.ok([r.value, r.low, r.high].every(Number.isInteger), `${where}: ${JSON.stringify(r)}`);
    const table = readWorkloadTable();
    const exact = totalChecks(workloadFor(table, 800000, 900000));
    assert.deepEqual(doc.checks, { value: Math.round(exact.value), low: Math.round(exact.low), high: Math.round(exact.high) });
    assert.ok(!Number.isInteger(p.range_hours.value));
    assert.equal(p.workers, 16);
    assert.equal(p.measured_workers, 1);
    assert.deepEqual([p.range_hours.from, p.range_hours.to], [800000, 900000]);
    for (const h of [p.range_hours, p.full_chain_hours, p.after_assumevalid_hours]) assert.ok(h.low <= h.value && h.value <= h.high);
    assert.ok(p.range_hours.value < p.full_chain_hours.value);
    assert.match(p.assumption, /^16 workers: beyond the 1 measured/);
    // In words, only the eras the range touches: Taproot alone for 800,000-900,000.
    const text = (await promisify(execFile)(process.execPath, [project, '--measurement', file, '--from', '800000', '--to', '900000'], { maxBuffer: 16 << 20 })).stdout;
    const eraLines = text.split('\n').filter((l) => /, the whole era\): /.test(l));
    assert.deepEqual(eraLines.map((l) => l.trim().split(' (heights')[0]), ['Nov 2021 - Feb 2026: Taproot']);
    // A file that is no measurement: exit 1, naming it.
    const bad = path.join(dir, 'bad.json');
    await writeFile(bad, '{"blocks": 5}');
    const r = await promisify(execFile)(process.execPath, [project, '--measurement', bad]).catch((e) => e);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /bad\.json is no usable measurement \(a main job.s --json document\): no blocks array/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('npm run project and the wide build: a browser\'s wide measurement projects under its own name; what this Node cannot run is refused, saying why', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'ibd-project-wide-'));
  const project = path.join(REPO_ROOT, 'bench', 'workload', 'project.mjs');
  const run = (args) => promisify(execFile)(process.execPath, [project, ...args], { maxBuffer: 16 << 20 }).catch((e) => e);
  try {
    // As the page saves it (Download JSON): the build and the browser that ran it.
    const file = path.join(dir, 'wide.json');
    await writeFile(file, JSON.stringify({ ...subsetDoc, variant: 'wide', environment: { browser: 'Chromium 156' } }));
    const out = await run(['--measurement', file, '--variant', 'wide', '--compare', '--json']);
    assert.equal(out.code, undefined, out.stderr);
    const p = JSON.parse(out.stdout).projection;
    assert.equal(p.variant, 'wide');
    const engines = p.contenders.engines;
    assert.equal(engines[0].name, 'ibd-wasm wide, Chromium 156 Web Workers (measured)');
    assert.ok(!engines.some((e) => e.key === 'wide'), 'the measured build is not derived again');
    assert.ok(engines.some((e) => e.key === 'node_worker'), 'in Chromium, Node worker_threads is the derived host');
    if (!wideArithmeticSupported()) { // Node 20
      // --check validates with the measurement's build: refused before any source is opened.
      const c = await run(['--check', '--rest', 'http://127.0.0.1:9', '--measurement', file]);
      assert.equal(c.code, 1);
      assert.match(c.stderr, /^project: --check validates with the measurement's build \(.*wide\.json\): the wasm variant "wide" needs wasm wide arithmetic/);
      assert.equal(c.stderr.trim().split('\n').length, 1, c.stderr);
      // --measure would run it here: one line, exit 2, no child started.
      const m = await run(['--measure', '--variant', 'wide']);
      assert.equal(m.code, 2);
      assert.match(m.stderr, /^project: --measure --variant wide: the wasm variant "wide" needs wasm wide arithmetic .*\n\(npm run project -- --help/);
      assert.doesNotMatch(m.stderr, /measuring/);
      // No measurement: the advice is one this Node can follow.
      const none = await run(['--variant', 'wide']);
      assert.equal(none.code, undefined, none.stderr);
      assert.match(none.stdout, /^Projection: none \(no saved measurement for variant wide \(.*\): this Node \(v[\d.]+\) cannot run the wide build .*Download JSON\), for --measurement FILE\)$/m);
      assert.doesNotMatch(none.stdout, /npm start -- --variant wide/);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('--json carries the report\'s warnings as `warnings` and prints them on stderr too', () => {
  assert.ok(Array.isArray(subsetDoc.warnings));
  const partial = subsetDoc.warnings.filter((w) => w.startsWith('partial sample: 2 of 24 fixture blocks; '));
  assert.equal(partial.length, 1, JSON.stringify(subsetDoc.warnings));
  assert.deepEqual(subsetDoc.warnings, warningsOf(subsetDoc));
  for (const w of subsetDoc.warnings) assert.ok(subset.stderr.includes(`[bench] WARNING: ${w}\n`), subset.stderr);
  // Timed rounds are named so on stderr; the first pass through the workers is named cold.
  assert.match(subset.stderr, /^\[bench\] timed round 1\/3: verifying [\d,]+ ecdsa checks /m);
  assert.match(subset.stderr, /^\[bench\] timed round 3\/3: verifying all 8,077 checks$/m);
  assert.match(subset.stderr, /^\[bench\] first pass \(cold\): 2 blocks whole in 1 worker$/m);
  assert.doesNotMatch(subset.stderr, /^\[bench\] round /m);
});

test('the terminal report of a --heights subset shows the sample and the partial-sample warning', async () => {
  const text = await run(['--heights', '170', '--workers', '1', '--rounds', '1']);
  assert.equal(text.code, 0, text.stderr);
  const lines = text.stdout.split('\n');
  assert.ok(lines.includes('totals: 1 block (0 failed), 1 input (1 evaluated), 1 check: 1 valid, 0 invalid; ' +
    '0 invalid blocks'), text.stdout);
  assert.ok(lines.some((l) => / x 0\.500 checks\/tx \(1 fixture block, 2 transactions\)$/.test(l)), text.stdout);
  assert.ok(lines.some((l) => l.startsWith('  WARNING: partial sample: 1 of 24 fixture blocks; ')), text.stdout);
  assert.ok(lines.some((l) => l.startsWith('  WARNING: projection from a small sample (1 check): ')), text.stdout);
  assert.ok(lines.some((l) => /^verify, all checks: \d+\.\d{3} s, [\d,]+ checks\/s \(1 timed round\)$/.test(l)), text.stdout);
  assert.ok(lines.some((l) => /^ {2}[\d,.]+ h to validate it whole \(parse, sighash, script, verify\) at this run's end-to-end rate, [\d,]+ checks\/s on 1 worker$/.test(l)),
    text.stdout);
  assert.match(lines.find((l) => l.trimStart().startsWith('height ')), /  invalid  worker ms$/);
  assert.match(lines.find((l) => l.trimStart().startsWith('170 ')), /  \d+\.\d$/);
  assert.ok(lines.some((l) => /^ {2}first pass \(cold; gave the block entries\): \d+\.\d{3} s, after encoding the spent outputs in the workers in \d+\.\d{3} s \(\d+\.\d% of encoding and first pass\); main thread busy \d+\.\d% of both$/.test(l)), text.stdout);
  assert.ok(lines.some((l) => /^ {2}[\d,]+ checks\/s per worker \(overall \/ 1 worker\)$/.test(l)), text.stdout);
  assert.match(lines[0], /^ibd-wasm: wasm variant simd, 1 worker, batch 512, /);
  const validated = text.stderr.split('\n').filter((l) => l.includes('validated'));
  assert.equal(validated.length, 1, text.stderr);
  assert.match(validated[0], /^\[bench\] validated 1 block, 1 check in the workers, \d+\.\d\d s cold$/);
  assert.doesNotMatch(text.stderr, /fixtures:/);
});

test('every pass reports its median and its spread over rounds, in JSON and on the terminal', () => {
  const t = subsetDoc.totals;
  for (const [pass, checks] of [[t, 8077], [t.by_type.ecdsa, 5702], [t.by_type.schnorr, 2375]]) {
    const rounds = pass.rounds_seconds;
    assert.equal(rounds.length, 3);
    assert.equal(pass.seconds, [...rounds].sort((a, b) => a - b)[1]);
    assert.equal(pass.checks_per_second, checks / pass.seconds);
    assert.equal(pass.checks_per_second_min, checks / Math.max(...rounds));
    assert.equal(pass.checks_per_second_max, checks / Math.min(...rounds));
  }
  assert.equal(t.per_worker, t.checks_per_second);
  const lines = formatReport(subsetDoc).split('\n');
  assert.ok(lines.includes(`verify, all checks: ${t.seconds.toFixed(3)} s, ${fmt(t.checks_per_second)} checks/s ` +
    `(median of 3 timed rounds, min ${fmt(t.checks_per_second_min)} – max ${fmt(t.checks_per_second_max)})`));
  const s = t.by_type.schnorr;
  assert.ok(lines.some((l) => l.endsWith(`${fmt(s.checks_per_second)} checks/s (separate pass; median of 3 timed rounds, ` +
    `min ${fmt(s.checks_per_second_min)} – max ${fmt(s.checks_per_second_max)})`)));
});

test('rounds more than 1.25x apart give a noise warning suggesting more rounds; closer rounds none', () => {
  const withRounds = (all, ecdsa, schnorr) => {
    const doc = structuredClone(subsetDoc);
    doc.totals.rounds_seconds = all;
    doc.totals.by_type.ecdsa.rounds_seconds = ecdsa;
    doc.totals.by_type.schnorr.rounds_seconds = schnorr;
    doc.end_to_end.rounds_seconds = [1, 1, 1]; // this test is about the verify passes
    const lines = formatReport(doc).split('\n').filter((l) => l.startsWith('WARNING: noisy'));
    assert.deepEqual(warningsOf(doc).filter((w) => w.startsWith('noisy')).map((w) => `WARNING: ${w}`), lines);
    return lines;
  };
  assert.deepEqual(withRounds([1, 1.25, 1.1], [2, 2.2, 2.4], [0.5, 0.5, 0.5]), []);
  assert.deepEqual(withRounds([1, 1.2, 1.1], [2, 2.6, 2.2], [0.4, 0.6, 0.5]), [
    'WARNING: noisy machine: timed-round times varied by up to 1.30x (ecdsa), 1.50x (schnorr); ' +
      'rates are less certain; rerun with 7 timed rounds (--rounds 7; on the page, the Timed rounds box) or on an idle machine',
  ]);
});

test('a projection whose signatures alone come out longer than the whole validation is flagged, in the report and the warnings', () => {
  // The skeleton's two figures, printed when the cost model's projection could not be made.
  const doc = structuredClone(subsetDoc);
  doc.projection.model = null;
  // The two figures' order as measured depends on the machine's noise (the signature passes and
  // the end-to-end rounds run at different moments): set it, in order, then out of order.
  const whole = doc.projection.end_to_end.hours;
  doc.projection.hours = whole * 0.5;
  assert.equal(warningsOf(doc).some((w) => w.startsWith('the projection\'s signatures alone')), false);
  doc.projection.hours = whole * 1.5;
  const warning = warningsOf(doc).find((w) => w.startsWith('the projection\'s signatures alone'));
  assert.match(warning, new RegExp(`\\(${(whole * 1.5).toFixed(1)} h\\) come out longer than the whole validation \\(${whole.toFixed(1)} h\\)`));
  assert.ok(formatReport(doc).split('\n').includes(`  WARNING: ${warning}`));
});

test('every fixture block: the projection\'s sample is the whole set, with no partial-sample warning', async () => {
  const full = await run(['--workers', '1', '--rounds', '1', '--json']);
  assert.equal(full.code, 0, full.stderr);
  const doc = JSON.parse(full.stdout);
  assert.deepEqual(doc.projection.sample, { blocks: 24, transactions: 7363, checks: 14527, fixture_blocks: 24, partial: false });
  const text = formatReport(doc);
  // The skeleton's workload line (printed when the cost model cannot project) names the sample.
  assert.match(formatReport({ ...doc, projection: { ...doc.projection, model: null } }),
    / x 1\.973 checks\/tx \(24 fixture blocks, 7,363 transactions\)\n/);
  assert.match(text, /cost model \(docs\/workload\.md\): each block predicted from costs fitted on the other 23 blocks/);
  assert.doesNotMatch(text, /partial sample|small sample/);
  assert.deepEqual(doc.warnings, []);
  // Every block valid: the invalid checks are all trials that valid scripts tolerate.
  assert.deepEqual([doc.totals.invalid, doc.totals.invalid_in_valid_blocks], [171, 171]);
  assert.ok(text.includes('14,527 checks: 14,356 valid, 171 invalid (CHECKMULTISIG trials and other checks that ' +
    'valid scripts tolerate; Core performs them too); 0 invalid blocks\n'), text);
  // Every input of every block evaluated by the interpreter; every block valid.
  for (const b of doc.blocks) {
    assert.equal(b.block_valid, true, `block ${b.height}`);
    const cov = Object.values(b.coverage);
    assert.equal(cov.reduce((n, c) => n + c.evaluated, 0), b.inputs, `block ${b.height}`);
    assert.equal(cov.reduce((n, c) => n + c.checks, 0), b.checks.ecdsa + b.checks.schnorr, `block ${b.height}`);
  }
  const b367891 = doc.blocks.find((b) => b.height === 367891);
  assert.deepEqual(b367891.coverage.empty, { inputs: 20000, evaluated: 20000, checks: 0, scriptBytes: 20000 });
  assert.deepEqual([doc.totals.invalid_blocks, doc.totals.evaluated_inputs], [0, 34012]);
  // The whole-block projection: the signature projection's workload at the end-to-end rate.
  const pe = doc.projection.end_to_end;
  assert.equal(pe.workers, 1);
  assert.equal(pe.checks_per_second, doc.end_to_end.checks_per_second);
  assert.ok(Math.abs(pe.hours - doc.projection.workload_checks / pe.checks_per_second / 3600) < 1e-9 * pe.hours);
  assert.deepEqual(doc.invalid_blocks, []);
  assert.deepEqual(doc.disagreements, []);
  // The end-to-end pass: every block whole in the workers, each timed round agreeing with the first pass.
  const e = doc.end_to_end;
  assert.deepEqual([e.workers, e.rounds, e.blocks, e.inputs, e.checks, e.disagreements], [1, 1, 24, 34012, 14527, []]);
  const fixtureBytes = (await loadBlocks(fixturesDir())).reduce((n, b) => n + b.block.length, 0);
  assert.equal(e.bytes, fixtureBytes);
  for (const k of ['parse_s', 'sighash_s', 'script_s', 'verify_s']) assert.ok(e.stages[k] > 0, k);
  assert.ok(e.main_thread_busy_share > 0 && e.main_thread_busy_share < 1, String(e.main_thread_busy_share));
  assert.equal(e.main_thread_busy_method, 'event-loop utilization');
  // The run's own code is part of the event loop's busy time.
  assert.ok(e.main_thread_own_code_share > 0 && e.main_thread_own_code_share <= e.main_thread_busy_share,
    `${e.main_thread_own_code_share} vs ${e.main_thread_busy_share}`);
  assert.equal(e.checks_per_second, e.checks / e.seconds);
  const report = formatReport(doc).split('\n');
  assert.ok(report.some((l) => /^end to end, whole blocks in 1 worker \(parse, sighash, script, verify in each\): \d+\.\d{3} s for 24 blocks \(1 timed round, warm\)$/.test(l)), report.join('\n'));
  assert.doesNotMatch(text, /not yet|unsupported/);
});

test('--scaling: 1..--max-workers workers over the same checks, speedup vs 1 worker, efficiency, start-up apart', async () => {
  const res = await run(['--scaling', '--max-workers', '2', '--rounds', '1', '--heights', '170,553724', '--json']);
  assert.equal(res.code, 0, res.stderr);
  const doc = JSON.parse(res.stdout);
  assert.deepEqual(doc.scaling.map((s) => s.workers), [1, 2]);
  assert.deepEqual(doc.end_to_end.scaling.map((s) => s.workers), [1, 2]);
  for (const s of doc.end_to_end.scaling) {
    assert.equal(s.efficiency, s.speedup / s.workers);
    assert.ok(s.checks_per_second_min <= s.checks_per_second && s.checks_per_second <= s.checks_per_second_max);
    // One round: the paired efficiency is that round's 1-worker time over its own, per worker.
    const paired = doc.end_to_end.scaling[0].rounds_seconds[0] / s.rounds_seconds[0] / s.workers;
    assert.deepEqual(s.efficiency_rounds, { median: paired, min: paired, max: paired });
  }
  assert.equal(doc.end_to_end.scaling[0].speedup, 1);
  assert.equal(doc.end_to_end.scaling[0].efficiency_rounds.median, 1);
  assert.equal(doc.scaling[0].speedup, 1);
  for (const s of doc.scaling) {
    assert.equal(s.efficiency, s.speedup / s.workers);
    assert.equal(s.speedup, s.checks_per_second / doc.scaling[0].checks_per_second);
    for (const k of ['checks_per_second', 'checks_per_second_min', 'checks_per_second_max', 'startup_ms']) {
      assert.ok(Number.isFinite(s[k]) && s[k] > 0, `${k} of ${s.workers} workers: ${s[k]}`);
    }
    assert.ok(s.checks_per_second_min <= s.checks_per_second && s.checks_per_second <= s.checks_per_second_max);
  }
  assert.deepEqual(doc.disagreements, []);
  const lines = formatReport(doc).split('\n');
  assert.ok(lines.some((l) => l.startsWith('verify scaling, signature checks only: all 4 checks on 1 to 2 workers, 1 timed round ')), lines.join('\n'));
  assert.ok(lines.some((l) => l.includes('ratios come from this one run')));
  // Without --scaling there is no scaling section.
  assert.equal(subsetDoc.scaling, undefined);
  assert.doesNotMatch(formatReport(subsetDoc), /^scaling:/m);
});

test('--max-workers is validated like --workers and needs --scaling', async () => {
  for (const args of [['--scaling', '--max-workers', '0'], ['--scaling', '--max-workers', 'x'], ['--max-workers', '2']]) {
    const res = await run(args);
    assert.equal(res.code, 2, `${args.join(' ')}: ${res.stderr}`);
    assert.match(res.stderr, /^error: --max-workers /, args.join(' '));
  }
});

test('no progress bar when stderr is not a terminal: no escape codes, the [bench] lines only', async () => {
  const r = await run(['--heights', '170', '--rounds', '1']);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!r.stderr.includes('\u001b['), JSON.stringify(r.stderr));
  assert.ok(!r.stderr.includes('\r'), JSON.stringify(r.stderr));
  for (const line of r.stderr.trimEnd().split('\n')) assert.match(line, /^\[bench\] /);
});

test('--web serves the page cross-origin isolated and prints its URL; --port needs --web', async () => {
  const child = spawn(process.execPath, [MAIN, '--web', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    let out = '';
    const url = await new Promise((resolve, reject) => {
      child.stdout.on('data', (chunk) => {
        out += chunk;
        const m = /^ibd-wasm benchmark page: (http:\/\/127\.0\.0\.1:\d+\/)\n/.exec(out);
        if (m) resolve(m[1]);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code} before printing the URL: ${out}`)));
    });
    assert.match(out, /open it in a browser/);
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cross-origin-opener-policy'), 'same-origin');
    assert.equal(res.headers.get('cross-origin-embedder-policy'), 'require-corp');
    assert.match(await res.text(), /<title>ibd-wasm/);
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    assert.equal(await exited, 0);
  }
  const misuse = await run(['--port', '8081']);
  assert.equal(misuse.code, 2);
  assert.match(misuse.stderr, /^error: --port needs --web\n/);
  const bad = await run(['--web', '--port', '70000']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^error: --port must be an integer \(0 to 65535\), got "70000"\n/);
});
