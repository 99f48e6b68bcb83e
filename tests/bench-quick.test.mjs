// `npm run bench -- --quick --json` runs every part and prints one well-formed JSON document:
// results, thresholds [{name, target, measured, pass}] and machine. Shapes and verdicts only:
// timing targets live in the benchmark's own output, never here.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { browserUnavailable } from '../bench/shared/chromium-launcher.mjs';
import { firefoxUnavailable } from '../bench/shared/firefox-launcher.mjs';

const COMPARE = new URL('../bench/compare/compare.mjs', import.meta.url).pathname;
const THRESHOLDS = new URL('../bench/compare/thresholds.json', import.meta.url).pathname;
const run = (args) => promisify(execFile)(process.execPath, [COMPARE, ...args], { timeout: 600_000, maxBuffer: 64 << 20 });

test('the quick benchmark runs and prints a well-formed JSON document', { timeout: 600_000 }, async () => {
  const before = readFileSync(THRESHOLDS, 'utf8');
  const { stdout } = await run(['--quick', '--json']);
  const doc = JSON.parse(stdout);

  assert.equal(doc.mode, 'quick');
  assert.deepEqual(doc.errors, [], 'every part ran');
  for (const key of ['cpu', 'cores', 'node', 'v8', 'emcc']) assert.ok(key in doc.machine, `machine.${key}`);
  assert.equal(doc.machine.v8, process.versions.v8);
  // The model name alone hides the generation: on Linux the line carries /proc/cpuinfo's family,
  // model and the noted extensions.
  if (process.platform === 'linux') {
    assert.match(doc.machine.cpu_detail, /^family \d+ model \d+, \d+ MHz, /);
    assert.equal(doc.machine.cpu, `${doc.machine.cpu_model} (${doc.machine.cpu_detail})`);
  }

  const { speed, engines, sizes, startup } = doc.results;
  for (const type of ['ecdsa', 'schnorr']) {
    const rows = speed.filter((r) => r.type === type);
    assert.ok(rows.some((r) => r.kind === 'wasm'), `${type}: ibd-wasm rows`);
    assert.ok(rows.some((r) => r.name === 'tiny-secp256k1'), `${type}: tiny-secp256k1 row`);
    assert.ok(rows.some((r) => r.kind === 'drop-in'), `${type}: the package's drop-in row`);
    for (const r of rows) {
      assert.equal(r.checks, doc.check_sets[type].checks);
      assert.equal(r.rounds_seconds.length, doc.rounds);
      assert.ok(r.sig_per_s > 0 && r.sig_per_s_min <= r.sig_per_s && r.sig_per_s <= r.sig_per_s_max, `${r.name} ${type} rates`);
    }
    // ibd-wasm must return the validation's verdicts; peers are reported, whatever they say.
    for (const r of rows.filter((x) => x.kind === 'wasm' || x.kind === 'chromium-worker')) assert.equal(r.mismatches, 0, `${r.name} batch ${r.batch_size} ${type}`);
    // The wide variant, in a Chromium launched with --wasm-wide-arithmetic, in the same rounds.
    if (!browserUnavailable()) assert.ok(rows.some((r) => r.kind === 'chromium-worker' && r.variant === 'wide'), `${type}: the wide variant's row`);
  }
  for (const rs of Object.values(engines)) for (const r of rs) assert.equal(r.verdicts_match, true, `${r.engine} ${r.variant} ${r.type}`);
  assert.ok(doc.thresholds.find((x) => x.name === 'drop_in_vs_tiny_secp256k1').measured > 0, 'the drop-in measured against tiny-secp256k1');
  const browser = browserUnavailable() ? [] : ['chromium']; // without Chromium: listed as skipped
  assert.deepEqual(Object.keys(engines).sort(), [...browser.flatMap((b) => [b, `${b}_worker`]), 'v8_default', 'v8_liftoff']);
  for (const r of engines.chromium_worker ?? []) assert.match(r.engine, /Web Worker/);
  if (browser.length) {
    const t = doc.thresholds.find((x) => x.name === 'chromium_worker_vs_node');
    assert.ok(t.measured > 0, 'Chromium in a Web Worker measured against Node');
  }
  for (const s of sizes.filter((x) => !x.skipped)) assert.ok(s.gzip > 0 && s.gzip < s.raw, `${s.variant} window ${s.window} sizes`);
  const starts = ['node_cold_start', 'node_worker_startup',
    ...browser.flatMap(() => ['chromium_cold_start', 'chromium_cold_start_modules', 'chromium_worker_startup', 'chromium_worker_startup_own_compile', 'chromium_worker_startup_cached'])];
  for (const key of starts) assert.ok(startup[key]?.length > 0, `startup.${key}`);

  // Whole blocks: ibd-wasm (each variant), native and bcoin (each backend that loads; the
  // others named with their reason), the same blocks, verdicts compared; shapes, not speed.
  const wb = doc.results.whole_block;
  assert.deepEqual(wb.disagreements, [], 'bcoin and ibd-wasm agree on every block');
  assert.ok(wb.verdicts.length > 0 && wb.verdicts.every((v) => v.agree && v.ibd_wasm.valid), 'every quick block valid and agreed');
  assert.deepEqual(wb.left_out.map((x) => x.height), [866342], 'the P2TR block is left out for bcoin, named');
  const names = wb.contenders.map((c) => c.name);
  for (const name of ['ibd-wasm simd', 'ibd-wasm scalar', 'native']) assert.ok(names.includes(name), `${name} ran`);
  for (const id of ['default', 'js']) {
    assert.ok(names.includes(`bcoin ${id}`) || wb.skipped.some((s) => s.name.includes(id)), `bcoin ${id}: ran or named`);
  }
  assert.ok(names.some((n) => n.startsWith('bcoin')), 'bcoin ran under some backend');
  if (!wb.contenders.some((c) => c.crypto?.hashes === 'native')) {
    assert.ok(wb.skipped.some((s) => /native backend/.test(s.name)), 'a native backend that did not load is named');
  }
  for (const c of wb.contenders) {
    assert.equal(c.common.seconds.length, doc.rounds, `${c.name}: one pass per round`);
    assert.ok(c.common.blocks_per_s > 0 && c.common.inputs_per_s > 0 && c.common.checks_per_s > 0, `${c.name} rates`);
    assert.ok(c.common.checks_per_s_min <= c.common.checks_per_s && c.common.checks_per_s <= c.common.checks_per_s_max, `${c.name} min–max`);
    if (c.kind !== 'bcoin') {
      // Stage by stage (the engine's StageTimes on both sides): every stage that ran has time.
      for (const k of ['spentMs', 'parseMs', 'sighashMs', 'scriptMs', 'verifyMs', 'wallMs', 'cpuMs']) assert.ok(c.stages.median[k] > 0, `${c.name} ${k}`);
      assert.equal(c.stages.median.copyInMs === null, c.kind === 'native', `${c.name}: copy-in is wasm's alone`);
      assert.ok(c.x_native_stages.verifyMs > 0, `${c.name}: verify against native`);
    }
    if (c.kind === 'bcoin') {
      for (const p of c.per_block) assert.equal(p.checks, wb.blocks.find((b) => b.height === p.height).checks, `bcoin's checks of ${p.height}`);
    }
  }

  const registered = JSON.parse(before).thresholds.map((t) => t.name);
  assert.deepEqual(doc.thresholds.map((t) => t.name), registered);
  for (const t of doc.thresholds) {
    assert.equal(typeof t.target, 'number', `${t.name}.target`);
    assert.ok(t.measured === null || Number.isFinite(t.measured), `${t.name}.measured`);
    assert.equal(typeof t.pass, 'boolean', `${t.name}.pass`);
  }
  // Whole blocks against native: the best variant's ratio of the same run's medians.
  const native = wb.contenders.find((c) => c.kind === 'native');
  const ratios = wb.contenders.filter((c) => c.kind === 'wasm').map((c) => native.all.seconds_median / c.all.seconds_median);
  const wholeBlock = doc.thresholds.find((t) => t.name === 'wasm_whole_block_vs_native');
  assert.equal(wholeBlock.measured, Math.max(...ratios), 'wasm_whole_block_vs_native: the best variant, from the run\'s medians');
  assert.equal(readFileSync(THRESHOLDS, 'utf8'), before, 'the run never edits thresholds.json');
});

test('outside --quick, fewer than 5 rounds is a usage error (exit 2)', async () => {
  await assert.rejects(run(['--rounds', '3']), (err) => err.code === 2 && /--rounds/.test(err.stderr));
});

// bench/compare/browsers.mjs: ibd-wasm per build in Node, Chromium and Firefox ESR Web Workers in
// the same rounds. Shapes and verdicts only.
const BROWSERS = new URL('../bench/compare/browsers.mjs', import.meta.url).pathname;
const browsersMissing = browserUnavailable() ?? firefoxUnavailable() ?? false;

test('the per-engine benchmark runs every build in every engine, each with the validation\'s verdicts', { skip: browsersMissing, timeout: 300_000 }, async () => {
  const { stdout } = await promisify(execFile)(process.execPath, [BROWSERS, '--quick', '--rounds', '1', '--json'], { timeout: 300_000, maxBuffer: 64 << 20 });
  const doc = JSON.parse(stdout);
  assert.match(doc.browsers.firefox, /^Firefox \d+/);
  assert.deepEqual(doc.mismatched, []);
  for (const type of ['ecdsa', 'schnorr']) {
    const names = doc.rows.filter((r) => r.type === type).map((r) => `${r.kind}/${r.variant ?? '-'}`).sort();
    for (const want of ['wasm/simd', 'wasm/scalar', 'chromium-worker/simd', 'chromium-worker/scalar', 'chromium-worker/wide',
      'firefox-worker/simd', 'firefox-worker/scalar', 'firefox-worker/wide']) assert.ok(names.includes(want), `${type}: ${want} in ${names}`);
    for (const r of doc.rows.filter((x) => x.type === type)) {
      assert.equal(r.verdicts_match, true, `${r.name}: the validation's verdicts`);
      assert.ok(r.sig_per_s > 0, `${r.name}: a rate`);
    }
    // With one round each ratio is that round's time quotient, from the rows' own times.
    const q = doc.ratios[type];
    const seconds = (kind, variant) => doc.rows.find((r) => r.type === type && r.kind === kind && r.variant === variant).rounds_seconds[0];
    const pairs = [
      [q.browser_over_node.Chromium, ['wasm', 'simd'], ['chromium-worker', 'simd']],
      [q.browser_over_node['Firefox ESR'], ['wasm', 'simd'], ['firefox-worker', 'simd']],
      [q.simd_over_scalar.Node, ['wasm', 'scalar'], ['wasm', 'simd']],
      [q.simd_over_scalar.Chromium, ['chromium-worker', 'scalar'], ['chromium-worker', 'simd']],
      [q.simd_over_scalar['Firefox ESR'], ['firefox-worker', 'scalar'], ['firefox-worker', 'simd']],
      [q.wide_over_simd.Chromium, ['chromium-worker', 'simd'], ['chromium-worker', 'wide']],
      [q.wide_over_simd['Firefox ESR'], ['firefox-worker', 'simd'], ['firefox-worker', 'wide']],
    ];
    for (const [span, slower, faster] of pairs) {
      const want = seconds(...slower) / seconds(...faster);
      for (const k of ['median', 'min', 'max']) assert.equal(span[k], want, `${type} ${faster.join('/')} over ${slower.join('/')}: ${k}`);
    }
  }
});
