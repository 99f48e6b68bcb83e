// The 'wide' variant (wasm/wide-arithmetic/, docs/performance.md "Wide arithmetic"): libsecp256k1's
// 5x52 field with its multiply, square and __multi3 replaced after the link by code that uses
// the wide-arithmetic proposal's i64.mul_wide_u and i64.add128.
//
// Under Node (V8 11.3 has no wide arithmetic): the link step's module surgery (bodies found by
// name and type, the name section dropped, errors that name what is missing), the built module
// carrying no names, and the Node loader refusing the variant with the reason.
//
// In Chromium with --js-flags=--wasm-wide-arithmetic (off by default there) and in Firefox ESR
// with javascript.options.wasm_wide_arithmetic (SpiderMonkey, the engine that ships the proposal
// by default from Firefox 155; off in ESR 153), each of 1-3 and the defaults of 4:
//   1. the three replacement bodies, in a module of their own, against BigInt: field products
//      and squares of random and edge-case limbs up to magnitude 8, each equal to a*b mod p and
//      within libsecp256k1's magnitude-1 bounds; __multi3 as the low 128 bits of the product;
//   2. the engine: every final check of the fixture blocks (ECDSA and Schnorr; a copy with every
//      fifth record's message tampered), Wycheproof's ECDSA vectors and BIP340's, through the
//      wide variant's verifyBatch: the same verdicts as the simd variant in the same page and as
//      the validation's (or the vectors' expected ones);
//   3. validateBlock of blocks 170, 57,043 and 866,342 in the wide variant equal to Node's simd
//      result (verdict, reason, final checks, verdicts);
//   4. the web loader picks 'wide' where the host has it, and the page's pool runs it (the page's
//      own run: Chromium only, through playwright's controls).
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fixturesDir, loadBlocks } from '../blocks-fixtures/loader.mjs';
import { browserUnavailable, launchChromium, WIDE_ARITHMETIC_JS_FLAG } from '../bench/shared/chromium-launcher.mjs';
import { firefoxUnavailable, launchFirefox, WIDE_ARITHMETIC_FIREFOX_PREF } from '../bench/shared/firefox-launcher.mjs';
import { loadCheckSets } from '../bench/compare/compare-checks.mjs';
import { CheckType, concatChecks, encodeCheck } from '../wasm/check-buffer.mjs';
import { loadEngine } from '../wasm/engine.mjs';
import { wasmDir } from '../wasm/paths.mjs';
import { encodeSpentOutputs } from '../wasm/spent-outputs.mjs';
import { wideArithmeticSupported } from '../wasm/variants.mjs';
import { REPLACEMENTS, standaloneModule } from '../wasm/wide-arithmetic/field-5x52.mjs';
import { patchWide } from '../wasm/wide-arithmetic/patch-module.mjs';
import { functionIndex, readSections, replaceBodies, SECTION, uleb } from '../wasm/wide-arithmetic/wasm-binary.mjs';
import { startServer } from '../web/server.mjs';
import { measurementProblem } from '../bench/workload/measurement.mjs';
import { classify, readVectors } from './support/vectors.mjs';
import { verifyChecks } from './support/wasm.mjs';

const P = 2n ** 256n - 2n ** 32n - 977n;
const MASK52 = (1n << 52n) - 1n;
const limbsValue = (l) => l.reduce((v, x, i) => v + (x << (52n * BigInt(i))), 0n);

// ---- Node: the module surgery

/** A module with functions named as REPLACEMENTS (placeholder bodies) plus one other, and a
 *  "name" section; `rename` / `retype` break one of them. */
function namedModule({ rename = {}, retype = {} } = {}) {
  const fns = [...REPLACEMENTS.map((r) => ({ name: rename[r.name] ?? r.name, params: retype[r.name] ?? r.params })),
    { name: 'other', params: [0x7f] }];
  const section = (id, content) => [id, ...uleb(content.length), ...content];
  const str = (s) => [...uleb(s.length), ...new TextEncoder().encode(s)];
  const types = fns.map((f) => [0x60, ...uleb(f.params.length), ...f.params, 0]).flat();
  const body = [0, 0x0b]; // no locals, end
  const names = [1, ...(() => { const c = [...uleb(fns.length), ...fns.flatMap((f, i) => [i, ...str(f.name)])]; return [...uleb(c.length), ...c]; })()];
  return Uint8Array.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    ...section(1, [...uleb(fns.length), ...types]),
    ...section(3, [...uleb(fns.length), ...fns.map((_, i) => i)]),
    ...section(10, [...uleb(fns.length), ...fns.flatMap(() => [...uleb(body.length), ...body])]),
    ...section(0, [...str('name'), ...names])]);
}

test('the link step replaces the three functions by name and drops the name section', () => {
  const before = namedModule();
  assert.equal(functionIndex(before).names.size, 4);
  const after = patchWide(before, 'test.wasm');
  assert.equal(functionIndex(after).names.size, 0, 'no name section left');
  assert.equal(readSections(after).filter((s) => s.id === SECTION.custom).length, 0);
  const code = readSections(after).find((s) => s.id === SECTION.code);
  const bodies = after.subarray(code.content, code.end);
  for (const r of REPLACEMENTS) {
    const b = Buffer.from(r.body());
    assert.ok(Buffer.from(bodies).includes(b), `${r.name}'s new body is in the code section`);
  }
  assert.throws(() => patchWide(after, 'test.wasm'), /test\.wasm: no function names .*already patched/);
});

test('the link step names what it cannot find or what has another type', () => {
  assert.throws(() => patchWide(namedModule({ rename: { ibd_fe_sqr_inner: 'renamed' } }), 'x.wasm'),
    /x\.wasm: no function named ibd_fe_sqr_inner/);
  assert.throws(() => patchWide(namedModule({ retype: { __multi3: [0x7f, 0x7e] } }), 'x.wasm'),
    /x\.wasm: __multi3 has type \(127,126\) -> \(\), expected \(127,126,126,126,126\) -> \(\)/);
  const m = namedModule();
  assert.throws(() => readSections(m.subarray(0, m.length - 3), 'cut.wasm'), /cut\.wasm: section 0 .* runs past the end/);
  assert.throws(() => readSections(Uint8Array.of(0, 0x61, 0x73, 0x6d, 2, 0, 0, 0)), /not a version-1 wasm module .* at byte offset 4/);
  assert.throws(() => replaceBodies(m, new Map([[99, [0, 0x0b]]])), /replaced 0 of 1 function bodies/);
  assert.throws(() => patchWide(namedModule({ rename: { __multi3: 'ibd_fe_mul_inner' } }), 'dup.wasm'),
    /dup\.wasm: more than one function is named ibd_fe_mul_inner/);
});

test('the built wide variant carries its replacements and no names; the other variants are untouched by a no-op rewrite', () => {
  const wide = readFileSync(path.join(wasmDir(), 'ibd-wide.wasm'));
  assert.equal(functionIndex(wide).names.size, 0);
  const count = (bytes, a, b) => { let n = 0; for (let i = 0; i + 1 < bytes.length; i++) if (bytes[i] === a && bytes[i + 1] === b) n++; return n; };
  const perBody = REPLACEMENTS.reduce((n, r) => n + count(r.body(), 0xfc, 0x16), 0);
  assert.ok(count(wide, 0xfc, 0x16) >= perBody, 'every i64.mul_wide_u of the three bodies is in the module');
  // The bodies the generator makes now, byte for byte: a generator change that did not reach the
  // built module fails here.
  for (const r of REPLACEMENTS) assert.ok(wide.includes(Buffer.from(r.body())), `${r.name}: the shipped module holds the generator's body`);
  const simd = readFileSync(path.join(wasmDir(), 'ibd-simd.wasm'));
  const rewritten = replaceBodies(new Uint8Array(simd), new Map());
  assert.ok(WebAssembly.validate(rewritten), 'a rewrite with no replacement still validates');
  assert.equal(rewritten.length <= simd.length, true);
});

test('under Node without wide arithmetic, the loader refuses the wide variant and says why', { skip: wideArithmeticSupported() && 'this Node runs wide arithmetic' }, async () => {
  await assert.rejects(loadEngine('wide'), /the wasm variant "wide" needs wasm wide arithmetic \(i64\.mul_wide_u, i64\.add128\), which this engine \(Node [^)]*\) does not run .*; use "simd" or "scalar"/);
});

// ---- Browsers with wide arithmetic on

const skip = browserUnavailable() ?? false;
const skipFirefox = firefoxUnavailable() ?? false;
let sets; // loadCheckSets: every final check of the fixture blocks, by type
let vectorChecks; // {checks, expected} for Wycheproof and BIP340
let blocks; // base64 jobs and Node's simd results
before(async () => {
  if (skip && skipFirefox) return;
  sets = await loadCheckSets({ limits: { ecdsa: Infinity, schnorr: Infinity }, log: () => {} });
  const wy = classify().filter((v) => v.kind !== 'oversize');
  const msg32 = (m) => createHash('sha256').update(m).digest();
  const bip = readVectors().filter((v) => v.msg.length === 32);
  vectorChecks = {
    checks: concatChecks([
      ...wy.map((v) => encodeCheck({ type: CheckType.ECDSA, msg32: msg32(v.msg), pubkey: v.pubkey, sig: v.sig })),
      ...bip.map((v) => encodeCheck({ type: CheckType.SCHNORR, msg32: v.msg, pubkey: v.pubkey, sig: v.sig }))]),
    expected: Uint8Array.from([...wy.map((v) => (v.expected ? 1 : 0)), ...bip.map((v) => (v.valid ? 1 : 0))]),
  };
  const engine = await loadEngine('simd');
  blocks = [];
  for (const b of await loadBlocks(fixturesDir(), { heights: [170, 57043, 866342] })) {
    assert.equal(b.error, undefined, b.error);
    const spent = encodeSpentOutputs(b.spentOutputsJson);
    const r = engine.validateBlock(b.block, spent, b.hash, b.height, undefined);
    assert.equal(r.ok, true, r.error);
    blocks.push({ job: { block: Buffer.from(b.block).toString('base64'), spent: Buffer.from(spent).toString('base64'), hash: b.hash, height: b.height },
      expected: { valid: r.valid, rejectReason: r.rejectReason, checks: Buffer.from(r.checks), verdicts: Buffer.from(r.verdicts) } });
  }
});
after(() => sets?.dispose());

// The engines the browser tests run in, each with the proposal turned on: Chromium's V8 with its
// flag, and Firefox ESR's SpiderMonkey (the engine that ships the proposal by default from Firefox
// 155) with its preference. Each suite launches its browser and one page on a fresh server.
const ENGINES = [
  { name: 'Chromium', skip, launch: () => launchChromium({ jsFlags: [WIDE_ARITHMETIC_JS_FLAG] }), plain: () => launchChromium() },
  { name: 'Firefox ESR', skip: skipFirefox, launch: () => launchFirefox({ prefs: { [WIDE_ARITHMETIC_FIREFOX_PREF]: true } }), plain: () => launchFirefox() },
];

const b64 = (bytes) => Buffer.from(bytes).toString('base64');
const unb64 = (s) => Buffer.from(s, 'base64');

/** Random limbs of magnitude m (libsecp256k1: limbs 0-3 at most 2m(2^52-1), limb 4 2m(2^48-1)). */
function randomLimbs(m) {
  const top = [MASK52, MASK52, MASK52, MASK52, (1n << 48n) - 1n].map((x) => 2n * BigInt(m) * x);
  return top.map((t) => BigInt('0x' + randomBytes(8).toString('hex')) % (t + 1n));
}

function fieldCases() {
  const cases = [];
  const limbsOf = (v) => Array.from({ length: 5 }, (_, i) => (v >> (52n * BigInt(i))) & MASK52);
  const fixed = [0n, 1n, 2n, P - 1n, P, P + 1n, 2n ** 256n - 1n, 2n ** 255n, 0x1000003d1n].map(limbsOf);
  const max8 = [MASK52, MASK52, MASK52, MASK52, (1n << 48n) - 1n].map((x) => 16n * x);
  fixed.push(max8);
  for (const a of fixed) for (const b of fixed) cases.push([a, b]);
  for (let i = 0; i < 4000; i++) cases.push([randomLimbs(1 + (i % 8)), randomLimbs(1 + ((i >> 3) % 8))]);
  return cases;
}

/** In the page: runs the standalone module on the cases (limbs as decimal strings). */
async function runFieldModule({ module, cases, wide }) {
  const { instance } = await WebAssembly.instantiate(Uint8Array.from(atob(module), (c) => c.charCodeAt(0)));
  const { mul, sqr, multi3, memory } = instance.exports;
  const v = new BigUint64Array(memory.buffer);
  const out = [];
  for (const [a, b] of cases) {
    a.forEach((x, i) => { v[5 + i] = BigInt(x); });
    b.forEach((x, i) => { v[10 + i] = BigInt(x); });
    mul(0, 40, 80);
    const m = Array.from(v.subarray(0, 5), String);
    sqr(0, 40);
    out.push({ m, s: Array.from(v.subarray(0, 5), String) });
  }
  const products = wide.map(([a, b]) => {
    const [alo, ahi, blo, bhi] = [a, b].flatMap((x) => [BigInt.asUintN(64, BigInt(x)), BigInt.asUintN(64, BigInt(x) >> 64n)]);
    multi3(0, alo, ahi, blo, bhi);
    return (v[0] + (v[1] << 64n)).toString();
  });
  return { out, products };
}

/** In the page: verdicts of each base64 check buffer through each variant's verifyBatch. */
async function verifyInPage({ variants, buffers }) {
  const { loadWebEngine, wideArithmeticSupported, bestVariant } = await import('/wasm/engine-web.mjs');
  const { createBatchVerifier } = await import('/wasm/batch-verifier.mjs');
  const { walkChecks } = await import('/wasm/check-buffer.mjs');
  const out = { wide: wideArithmeticSupported(), best: bestVariant(), verdicts: {} };
  for (const variant of variants) {
    const engine = await loadWebEngine(variant, { baseUrl: '/wasm/' });
    const verifier = createBatchVerifier(engine);
    out.verdicts[variant] = buffers.map((s) => {
      const checks = Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
      const r = verifier.verify(checks, walkChecks(checks).count);
      if (r.error !== 0) throw new Error(`${variant}: verifyBatch error ${r.error} at record ${r.errorRecord}`);
      let text = '';
      for (const x of r.verdicts) text += String.fromCharCode(x);
      return btoa(text);
    });
    out.field = engine.engineInfo?.().field ?? null;
  }
  return out;
}

/** In the page: validateBlock of each job in the wide variant. */
async function validateInPage({ jobs }) {
  const { loadWebEngine } = await import('/wasm/engine-web.mjs');
  const engine = await loadWebEngine('wide', { baseUrl: '/wasm/' });
  const dec = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
  const enc = (a) => { let t = ''; for (const x of new Uint8Array(a.buffer, a.byteOffset, a.byteLength)) t += String.fromCharCode(x); return btoa(t); };
  return jobs.map((j) => {
    const r = engine.validateBlock(dec(j.block), dec(j.spent), j.hash, j.height, undefined);
    return { ok: r.ok, error: r.error, valid: r.valid, rejectReason: r.rejectReason, checks: enc(r.checks), verdicts: enc(r.verdicts) };
  });
}

/** In the page: the loaders and the pools with no variant given, on `checks` (base64). */
async function defaultsInPage({ checks }) {
  const { loadWebEngine, compileWebModule } = await import('/wasm/engine-web.mjs');
  const { createWebPool } = await import('/workers/web-pool.mjs');
  const { webHost } = await import('/workers/web-host.mjs');
  const bytes = Uint8Array.from(atob(checks), (c) => c.charCodeAt(0));
  const engine = await loadWebEngine(undefined, { baseUrl: '/wasm/' });
  const compiled = await compileWebModule(undefined, { baseUrl: '/wasm/' });
  const fromModule = await loadWebEngine(undefined, { baseUrl: '/wasm/', module: compiled });
  const pools = [];
  for (const options of [{ workers: 1 }, { workers: 1, host: webHost() }]) {
    const pool = createWebPool(options);
    try {
      const infos = await pool.ready();
      const verdicts = await pool.verify(bytes, { batchSize: 512 });
      let out = '';
      for (const v of verdicts) out += String.fromCharCode(v);
      pools.push({ variants: infos.map((i) => i.variant), verdicts: btoa(out) });
    } finally {
      await pool.close();
    }
  }
  return { loader: engine.engineInfo().variant, fromModule: fromModule.engineInfo().variant, pools };
}

for (const e of ENGINES) {
  describe(`${e.name} with wide arithmetic turned on`, { skip: e.skip }, () => {
    let browser;
    let server;
    let page;
    before(async () => {
      server = await startServer({ port: 0 });
      browser = await e.launch();
      page = await browser.context.newPage();
      await page.goto(`${server.url}fixtures/manifest.json`);
    });
    after(async () => {
      await browser?.close();
      await server?.close();
    });

    test(`${e.name}: the replacement field multiply, square and __multi3 agree with BigInt`, async () => {
      const cases = fieldCases();
      const wide = Array.from({ length: 2000 }, (_, i) => [randomBytes(16), randomBytes(16)].map((b) =>
        (i % 10 === 0 ? (1n << 128n) - 1n - BigInt(i) : BigInt('0x' + b.toString('hex'))).toString()));
      const { out, products } = await page.evaluate(runFieldModule,
        { module: b64(standaloneModule()), cases: cases.map(([a, b]) => [a.map(String), b.map(String)]), wide });
      const bad = [];
      const bounded = (r) => r.slice(0, 4).every((x) => x <= MASK52) && r[4] <= 2n * ((1n << 48n) - 1n);
      cases.forEach(([a, b], i) => {
        const m = out[i].m.map(BigInt);
        const s = out[i].s.map(BigInt);
        if (limbsValue(m) % P !== (limbsValue(a) * limbsValue(b)) % P || !bounded(m)) bad.push(`mul case ${i}: ${a} * ${b} -> ${m}`);
        if (limbsValue(s) % P !== (limbsValue(a) ** 2n) % P || !bounded(s)) bad.push(`sqr case ${i}: ${a}^2 -> ${s}`);
      });
      wide.forEach(([a, b], i) => {
        if (BigInt(products[i]) !== (BigInt(a) * BigInt(b)) % (1n << 128n)) bad.push(`__multi3 case ${i}: ${a} * ${b} -> ${products[i]}`);
      });
      assert.deepEqual(bad.slice(0, 5), []);
      assert.equal(cases.length, 100 + 4000);
    });

    test(`${e.name}: the wide variant gives simd's verdicts on every fixture check, tampered copies and the vectors`, async () => {
      const { walkChecks } = await import('../wasm/check-buffer.mjs');
      const tampered = (checks) => {
        const copy = checks.slice();
        const { offsets, count } = walkChecks(copy);
        for (let i = 2; i < count; i += 5) copy[offsets[i] + 4] ^= 0x01; // msg32's first byte
        return copy;
      };
      const inputs = [sets.sets.ecdsa.checks, sets.sets.schnorr.checks, tampered(sets.sets.ecdsa.checks), tampered(sets.sets.schnorr.checks), vectorChecks.checks];
      const r = await page.evaluate(verifyInPage, { variants: ['simd', 'wide'], buffers: inputs.map(b64) });
      assert.equal(r.wide, true, 'the engine with the proposal turned on validates the probe');
      assert.equal(r.best, 'wide');
      assert.equal(r.field, '5x52-wide', 'engineInfo().field of the wide variant');
      const [simd, wide] = [r.verdicts.simd, r.verdicts.wide].map((list) => list.map(unb64));
      for (let i = 0; i < inputs.length; i++) assert.ok(wide[i].equals(simd[i]), `buffer ${i}: wide's verdicts equal simd's`);
      assert.ok(wide[0].equals(Buffer.from(sets.sets.ecdsa.verdicts)), 'ECDSA: the validation\'s verdicts');
      assert.ok(wide[1].equals(Buffer.from(sets.sets.schnorr.verdicts)), 'Schnorr: the validation\'s verdicts');
      assert.ok(wide[4].equals(Buffer.from(vectorChecks.expected)), 'Wycheproof and BIP340: the expected verdicts');
      const node = await loadEngine('simd');
      assert.ok(wide[2].equals(Buffer.from(verifyChecks(node, inputs[2]))), 'tampered ECDSA: Node simd\'s verdicts');
      assert.ok(wide[3].equals(Buffer.from(verifyChecks(node, inputs[3]))), 'tampered Schnorr: Node simd\'s verdicts');
      assert.ok(wide[2].includes(0) && wide[3].includes(0), 'tampering made some checks invalid');
      assert.equal(sets.sets.ecdsa.walked.count + sets.sets.schnorr.walked.count, 14527);
    });

    test(`${e.name}: whole blocks in the wide variant equal Node's simd validation`, async () => {
      const results = await page.evaluate(validateInPage, { jobs: blocks.map((b) => b.job) });
      results.forEach((r, i) => {
        const { expected, job } = blocks[i];
        assert.equal(r.ok, true, `${job.height}: ${r.error}`);
        assert.deepEqual([r.valid, r.rejectReason], [expected.valid, expected.rejectReason], `block ${job.height}`);
        assert.ok(unb64(r.checks).equals(expected.checks), `block ${job.height}: final checks`);
        assert.ok(unb64(r.verdicts).equals(expected.verdicts), `block ${job.height}: verdicts`);
      });
    });

    test(`${e.name}: with no variant given, the loaders and the pools load the wide build, and verify with it`, async () => {
      const tab = await browser.context.newPage();
      const wasm = [];
      tab.on('request', (r) => { if (r.url().endsWith('.wasm')) wasm.push(path.basename(new URL(r.url()).pathname)); });
      try {
        await tab.goto(`${server.url}fixtures/manifest.json`);
        const r = await tab.evaluate(defaultsInPage, { checks: b64(vectorChecks.checks) });
        assert.deepEqual([r.loader, r.fromModule], ['wide', 'wide']);
        for (const pool of r.pools) {
          assert.deepEqual(pool.variants, ['wide']);
          assert.ok(unb64(pool.verdicts).equals(Buffer.from(vectorChecks.expected)), 'Wycheproof and BIP340: the expected verdicts');
        }
        assert.ok(wasm.length > 0 && wasm.every((f) => f === 'ibd-wide.wasm'), `fetched: ${wasm.join(', ')}`);
      } finally {
        await tab.close();
      }
    });

    test(`${e.name} without the flag or preference: bestVariant is simd, and a forced wide load is refused before any fetch, saying why`, async (t) => {
      const plain = await e.plain();
      try {
        const tab = await plain.context.newPage();
        const requests = [];
        tab.on('request', (r) => requests.push(r.url()));
        await tab.goto(`${server.url}fixtures/manifest.json`);
        const r = await tab.evaluate(async () => {
          const { loadWebEngine, bestVariant, wideArithmeticSupported } = await import('/wasm/engine-web.mjs');
          let error = null;
          try { await loadWebEngine('wide', { baseUrl: '/wasm/' }); } catch (e) { error = e.message; }
          return { best: bestVariant(), wide: wideArithmeticSupported(), error };
        });
        if (r.wide) { t.skip(`this ${e.name} runs wide arithmetic by default`); return; }
        assert.deepEqual([r.best, r.wide], ['simd', false]);
        assert.match(r.error, /^the wasm variant "wide" needs wasm wide arithmetic \(i64\.mul_wide_u, i64\.add128\), which this browser does not run .*; use "simd" or "scalar"$/);
        assert.ok(!requests.some((u) => u.endsWith('ibd-wide.wasm')), 'the wide .wasm was not fetched');
      } finally {
        await plain.close();
      }
    });

    if (e.name !== 'Chromium') return; // the page's controls, through playwright's API (Firefox's page run: firefox.test.mjs)

    test(`${e.name}: the page picks the wide build where the browser has it and validates blocks with it`, { timeout: 240_000 }, async () => {
      const tab = await browser.context.newPage();
      const errors = [];
      tab.on('pageerror', (err) => errors.push(err.message));
      try {
        await tab.goto(server.url);
        await tab.locator('#blocks input').first().waitFor();
        assert.equal(await tab.locator('[data-env="wide"]').innerText(), 'yes');
        assert.equal(await tab.locator('#variant').inputValue(), 'wide');
        await tab.selectOption('#workers', '2');
        await tab.fill('#rounds', '1');
        await tab.click('#blocks-none');
        for (const h of [170, 866342]) await tab.check(`#blocks input[value="${h}"]`);
        for (const box of ['#extra-scaling', '#extra-variants', '#extra-sweep']) await tab.setChecked(box, false);
        await tab.click('#run');
        await tab.waitForFunction(() => ['done', 'failed'].includes(document.body.dataset.run), null, { timeout: 200_000 });
        const panels = await tab.locator('.error-panel').allInnerTexts();
        assert.equal(await tab.evaluate(() => document.body.dataset.run), 'done', panels.join(' | '));
        assert.deepEqual(panels, [], 'no variant fell back, no worker died');
        const [download] = await Promise.all([tab.waitForEvent('download'), tab.click('#download')]);
        const doc = JSON.parse(readFileSync(await download.path(), 'utf8'));
        assert.equal(doc.variant, 'wide');
        assert.equal(doc.environment.wide_arithmetic, true);
        // The downloaded document is a measurement npm run project reads (--measurement FILE).
        assert.equal(measurementProblem(doc), null);
        assert.match(doc.environment.browser, /^Chromium \d+/);
        assert.deepEqual(doc.blocks.map((b) => [b.height, b.block_valid]), [[170, true], [866342, true]]);
        assert.equal(doc.exit_code, 0);
        assert.deepEqual(doc.disagreements, []);
        assert.match(await tab.locator('[data-stat="overall-sub"]').innerText(), /wide arithmetic/);
        assert.deepEqual(errors, []);
      } finally {
        await tab.close();
      }
    });
  });
}
