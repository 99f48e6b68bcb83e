#!/usr/bin/env node
// What a verify Web Worker's start-up is made of in Chromium (issue 13's ≤ 60 ms target), with
// the HTTP cache disabled as in `npm run bench`'s chromium_worker_startup_ms: a fresh page per
// sample, then one module Web Worker until its first message, for five workers interleaved
// round by round:
//   empty     a blob module worker that posts at once: the browser's own cost of a worker
//   imports   one that imports the verify worker's modules (loader, batch handler, the glue)
//   compile   one that fetches and compiles the .wasm (WebAssembly.compileStreaming)
//   source    the verify worker as written (workers/verify-web-worker.mjs) until 'ready'
//   bundled   the same bundled into one file, as the page starts it (/dist/verify-web-worker.mjs,
//             scripts/bundle-web-worker.mjs) until 'ready'
//
//   node bench/compare/worker-startup-parts.mjs [--rounds N] [--variant simd|scalar] [--json]
//
// ms, median (min-max) over rounds. Exit 0; 1 when Chromium or a worker fails (one line); 2 on a
// bad flag.
import { VARIANTS } from '../../wasm/variants.mjs';
import { median } from '../core/verify-passes.mjs';
import { choiceFlag, numberFlag, parseFlags, UsageError } from '../shared/args.mjs';
import { launchChromium } from '../shared/chromium-launcher.mjs';
import { startServer } from '../../web/server.mjs';

const USAGE = 'usage: node bench/compare/worker-startup-parts.mjs [--rounds N (1..100, default 7)] [--variant simd|scalar (default simd)] [--json]';
const KINDS = ['empty', 'imports', 'compile', 'source', 'bundled'];

/** Runs in the page: one worker of `kind` from new Worker() to its first message, ms. */
function startOne({ kind, variant }) {
  return new Promise((resolve, reject) => {
    const origin = location.origin;
    const bodies = {
      empty: 'postMessage({ type: "ready" });',
      imports: `await Promise.all(${JSON.stringify(['/wasm/engine-web.mjs', '/workers/batch-handler.mjs', `/wasm/ibd-${variant}.mjs`]
        .map((p) => origin + p))}.map((url) => import(url)));\npostMessage({ type: "ready" });`,
      compile: `await WebAssembly.compileStreaming(fetch('${origin}/wasm/ibd-${variant}.wasm'));\npostMessage({ type: "ready" });`,
    };
    const script = { source: '/workers/verify-web-worker.mjs', bundled: '/dist/verify-web-worker.mjs' }[kind];
    const blob = script ? null : URL.createObjectURL(new Blob([bodies[kind]], { type: 'text/javascript' }));
    const url = blob ?? `${script}?variant=${variant}&base=${encodeURIComponent(`${origin}/wasm/`)}`;
    const t0 = performance.now();
    const worker = new Worker(url, { type: 'module' });
    const done = (f) => { worker.terminate(); if (blob) URL.revokeObjectURL(blob); f(); };
    worker.onmessage = ({ data }) => done(() => (data.type === 'ready' ? resolve(performance.now() - t0)
      : reject(new Error(`${kind} worker: ${data.message ?? JSON.stringify(data)}`))));
    worker.onerror = (e) => done(() => reject(new Error(`${kind} worker: ${e.message}`)));
  });
}

let values;
try {
  ({ values } = parseFlags(process.argv.slice(2), {
    rounds: { type: 'string' }, variant: { type: 'string' }, json: { type: 'boolean', default: false }, help: { type: 'boolean', default: false },
  }));
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  values.rounds = values.rounds === undefined ? 7 : numberFlag('rounds', values.rounds, { min: 1, max: 100 });
  values.variant = choiceFlag('variant', values.variant ?? 'simd', VARIANTS);
} catch (err) {
  if (!(err instanceof UsageError)) throw err;
  console.error(`worker-startup-parts: ${err.message}\n${USAGE}`);
  process.exit(2);
}

const samples = Object.fromEntries(KINDS.map((k) => [k, []]));
let server;
let browser;
try {
  server = await startServer({ port: 0 });
  browser = await launchChromium();
  for (let r = 0; r < values.rounds; r++) {
    for (const kind of KINDS) {
      const page = await browser.context.newPage();
      const cdp = await browser.context.newCDPSession(page);
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await page.goto(`${server.url}fixtures/manifest.json`);
      samples[kind].push(await page.evaluate(startOne, { kind, variant: values.variant }));
      await page.close();
    }
  }
} catch (err) {
  console.error(`worker-startup-parts: ${err.message.split('\n')[0]}`);
  process.exitCode = 1;
} finally {
  await browser?.close();
  await server?.close();
}
if (!process.exitCode) {
  const stat = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs) });
  const result = { variant: values.variant, rounds: values.rounds, ms: Object.fromEntries(KINDS.map((k) => [k, stat(samples[k])])) };
  if (values.json) {
    console.log(JSON.stringify(result, null, 2));
  } else {
    console.log(`Chromium module Web Worker start-up, HTTP cache disabled, a fresh page each, ${values.variant}, ms, median (min-max) of ${values.rounds}:`);
    for (const k of KINDS) {
      const s = result.ms[k];
      console.log(`  ${k.padEnd(8)} ${s.median.toFixed(1)} (${s.min.toFixed(1)}-${s.max.toFixed(1)})`);
    }
  }
}
