#!/usr/bin/env node
// Start-up A/B: Node cold starts (a fresh process reads the .wasm, compiles, instantiates — the
// module's own start included, e.g. tables computed at start — and verifies one real check) of
// two or more builds of toolchain.mjs, interleaved process by process, with each build's .wasm
// size raw and gzip -9. With --chromium, each round also times each build in Chromium as
// `npm run bench` does (bench/compare/chromium.mjs): a fresh page with the HTTP cache disabled,
// its cold start to the first verdict (the bundled entry), then one verify Web Worker's start-up (the bundled worker)
// until 'ready'; each build served by its own server (web/server.mjs wasmDir).
//
//   node bench/compare/startup-ab.mjs [--builds a,b] [--variant simd|scalar] [--rounds N] [--chromium] [--fixtures DIR] [--json]
//
// Default: --builds tables-shipped,tables-computed --variant simd --rounds 15 (builds made when
// missing, into build/wasm-tables-*). ms, median (min-max) over rounds. Exit 0, 1 when a build,
// the fixtures or a cold start fails (one line), 2 on a bad flag.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { VARIANTS } from '../../wasm/variants.mjs';
import { median } from '../core/verify-passes.mjs';
import { choiceFlag, numberFlag, parseFlags, UsageError } from '../shared/args.mjs';
import { loadCheckSets } from './compare-checks.mjs';
import { nodeColdStarts } from './startup.mjs';
import { BUILDS, ensureBuild } from './toolchain.mjs';

const USAGE = `usage: node bench/compare/startup-ab.mjs [--builds a,b (of ${Object.keys(BUILDS).join(', ')}; default tables-shipped,tables-computed)] [--variant simd|scalar (default simd)] [--rounds N (1..200, default 15)] [--chromium] [--fixtures DIR] [--json]`;
const STEPS = ['read_ms', 'compile_ms', 'instantiate_ms', 'first_verdict_ms', 'total_ms'];
const CHROMIUM_STEPS = ['chromium_cold_start_ms', 'chromium_worker_startup_ms'];

let values;
try {
  ({ values } = parseFlags(process.argv.slice(2), {
    builds: { type: 'string' }, variant: { type: 'string' }, rounds: { type: 'string' }, fixtures: { type: 'string' },
    chromium: { type: 'boolean', default: false }, json: { type: 'boolean', default: false }, help: { type: 'boolean', default: false },
  }));
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  values.builds = (values.builds ?? 'tables-shipped,tables-computed').split(',');
  values.builds.forEach((b, i) => {
    choiceFlag('builds', b, Object.keys(BUILDS));
    if (values.builds.indexOf(b) !== i) throw new UsageError(`--builds names ${b} twice; name each build once`);
  });
  values.variant = choiceFlag('variant', values.variant ?? 'simd', VARIANTS);
  values.rounds = values.rounds === undefined ? 15 : numberFlag('rounds', values.rounds, { min: 1, max: 200 });
} catch (err) {
  if (!(err instanceof UsageError)) throw err;
  console.error(`startup-ab: ${err.message}\n${USAGE}`);
  process.exit(2);
}

const log = (m) => console.error(m);
const samples = Object.fromEntries(values.builds.map((b) => [b, []]));
const steps = values.chromium ? [...STEPS, ...CHROMIUM_STEPS] : STEPS;
let chromium = null;
/** Chromium, and one server per build (its wasm folder under /wasm/). */
async function openChromium() {
  const { launchChromium } = await import('../shared/chromium-launcher.mjs');
  const { startServer } = await import('../../web/server.mjs');
  const servers = {};
  for (const name of values.builds) servers[name] = await startServer({ port: 0, wasmDir: BUILDS[name].dir });
  const browser = await launchChromium();
  return {
    servers,
    async time(name, record) {
      const { pageColdStart, pageWorkerStartup } = await import('./chromium.mjs');
      const page = await browser.context.newPage();
      try {
        const cdp = await browser.context.newCDPSession(page);
        await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
        await page.goto(`${servers[name].url}fixtures/manifest.json`);
        const cold = await page.evaluate(pageColdStart, { variant: values.variant, record });
        const worker = await page.evaluate(pageWorkerStartup, { variant: values.variant });
        return { cold, worker };
      } finally {
        await page.close();
      }
    },
    async close() {
      await browser.close();
      for (const s of Object.values(servers)) await s.close();
    },
  };
}
try {
  // The fixtures first: a missing folder is named before minutes of building.
  const sets = await loadCheckSets({ fixtures: values.fixtures, limits: { ecdsa: 16, schnorr: 1 }, log });
  try {
    for (const name of values.builds) {
      const why = ensureBuild(name, [values.variant], log);
      if (why) throw new Error(`build ${name}: ${why}`);
    }
    for (let r = 0; r < values.rounds; r++) {
      for (let k = 0; k < values.builds.length; k++) {
        const name = values.builds[(k + r) % values.builds.length];
        const [one] = await nodeColdStarts(values.variant, sets.sets.ecdsa.file, 1, BUILDS[name].dir);
        if (one.verdict !== sets.sets.ecdsa.verdicts[0]) throw new Error(`${name}: first verdict ${one.verdict}, the validation's ${sets.sets.ecdsa.verdicts[0]}`);
        if (values.chromium) {
          chromium ??= await openChromium();
          const { ecdsa } = sets.sets;
          const { cold, worker } = await chromium.time(name, Array.from(ecdsa.checks.subarray(0, ecdsa.walked.offsets[1])));
          if (cold.verdict !== ecdsa.verdicts[0]) throw new Error(`${name}: Chromium's first verdict ${cold.verdict}, the validation's ${ecdsa.verdicts[0]}`);
          Object.assign(one, { chromium_cold_start_ms: cold.total_ms, chromium_worker_startup_ms: worker });
        }
        samples[name].push(one);
      }
    }
  } finally {
    sets.dispose();
    await chromium?.close();
  }
} catch (err) {
  console.error(`startup-ab: ${err.message}`);
  process.exit(1);
}

const out = values.builds.map((name) => {
  const wasm = readFileSync(path.join(BUILDS[name].dir, `ibd-${values.variant}.wasm`));
  const timed = Object.fromEntries(steps.map((k) => {
    const xs = samples[name].map((s) => s[k]);
    return [k, { median: median(xs), min: Math.min(...xs), max: Math.max(...xs) }];
  }));
  return { name, dir: BUILDS[name].dir, wasm_bytes: wasm.length, wasm_gzip_bytes: gzipSync(wasm, { level: 9 }).length, ...timed };
});
if (values.json) {
  console.log(JSON.stringify({ variant: values.variant, rounds: values.rounds, builds: out }, null, 2));
} else {
  console.log(`Node cold start${values.chromium ? ', then Chromium\'s (cold page, cache disabled) and one Web Worker\'s start-up' : ''}, ${values.variant}, ${values.rounds} rounds, builds interleaved; ms, median (min-max)`);
  const f = (s) => `${s.median.toFixed(1)} (${s.min.toFixed(1)}-${s.max.toFixed(1)})`;
  console.log(['build', '.wasm bytes', 'gzip -9', ...steps].join('  '));
  for (const b of out) console.log([b.name, b.wasm_bytes.toLocaleString('en-US'), b.wasm_gzip_bytes.toLocaleString('en-US'), ...steps.map((k) => f(b[k]))].join('  '));
}
