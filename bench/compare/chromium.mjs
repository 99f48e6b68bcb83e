// The same wasm in Chromium (Debian's /usr/bin/chromium through playwright-core): per variant,
// the verify rate on the check sets (one wasm instance on the page's main thread, and one in a
// module Web Worker, where the product verifies; one batch size, interleaved round by round),
// the cold start (a fresh page with the HTTP cache disabled:
// import the loader (bundled, and as written), fetch, compile and instantiate the wasm, first verdict) and a verify Web
// Worker's start-up (new Worker until its 'ready' message; the module compiled by the page as
// its pool does, and the worker compiling its own). Times in ms, rates in sig/s.
import { launchChromium } from '../shared/chromium-launcher.mjs';
import { startServer } from '../../web/server.mjs';

/** Runs in the page, or in a Web Worker (pageSpeedInWorker): timed passes of every variant on
 *  every set (base64 check sets). `origin`: the server's, for absolute module URLs (a blob
 *  worker has no base URL of its own). */
async function pageSpeed({ variants, sets, batchSize, rounds, origin }) {
  const at = (p) => new URL(p, origin).href;
  const { loadWebEngine } = await import(at('/wasm/engine-web.mjs'));
  const { createBatchVerifier } = await import(at('/wasm/batch-verifier.mjs'));
  const { walkChecks } = await import(at('/wasm/check-buffer.mjs'));
  const { wasmPass } = await import(at('/bench/core/wasm-pass.mjs'));
  const decoded = Object.entries(sets).map(([type, b64]) => {
    const checks = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    return { type, checks, walked: walkChecks(checks) };
  });
  const head = (set) => { // the warm-up: the first 256 records, untimed
    const checks = set.checks.subarray(0, set.walked.offsets[Math.min(256, set.walked.count)]);
    return { checks, walked: walkChecks(checks) };
  };
  const runs = [];
  for (const variant of variants) {
    const verifier = createBatchVerifier(await loadWebEngine(variant, { baseUrl: at('/wasm/') }));
    for (const set of decoded) {
      wasmPass(verifier, head(set), batchSize);
      runs.push({ variant, set, verifier, rounds_seconds: [], verdicts: null });
    }
  }
  for (let r = 0; r < rounds; r++) {
    for (const run of runs) {
      const { verdicts, seconds } = wasmPass(run.verifier, run.set, batchSize);
      run.rounds_seconds.push(seconds);
      run.verdicts ??= verdicts;
    }
  }
  const sha = async (bytes) => [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))].map((x) => x.toString(16).padStart(2, '0')).join('');
  return Promise.all(runs.map(async (run) => ({
    variant: run.variant, type: run.set.type, checks: run.set.walked.count,
    rounds_seconds: run.rounds_seconds, verdicts_sha256: await sha(run.verdicts),
  })));
}

/** Runs in the page: pageSpeed (its source passed in) inside a module Web Worker made from a
 *  blob, the way the product's verify and block workers run the engine. */
function pageSpeedInWorker({ source, args }) {
  return new Promise((resolve, reject) => {
    const body = `const pageSpeed = ${source};\nonmessage = async ({ data }) => {\n` +
      '  try { postMessage({ ok: true, result: await pageSpeed(data) }); }\n' +
      '  catch (e) { postMessage({ ok: false, error: String(e && e.stack || e) }); }\n};\n';
    const url = URL.createObjectURL(new Blob([body], { type: 'text/javascript' }));
    const worker = new Worker(url, { type: 'module' });
    const done = (f) => { worker.terminate(); URL.revokeObjectURL(url); f(); };
    worker.onmessage = ({ data }) => done(() => (data.ok ? resolve(data.result) : reject(new Error(`in the Web Worker: ${data.error}`))));
    worker.onerror = (e) => done(() => reject(new Error(`Web Worker error: ${e.message}`)));
    worker.postMessage(args);
  });
}

/** Runs in a fresh page: loader import, fetch, compile, instantiate and first verdict, in ms.
 *  bundled: the engine's browser entry as one module (/dist/engine-web.mjs, wasm/browser.mjs
 *  bundled: what a production page's bundler serves); else the loader and the batch verifier
 *  as written (/wasm/engine-web.mjs, then /wasm/batch-verifier.mjs), each module-graph level a
 *  round trip. */
export async function pageColdStart({ variant, record, bundled = true }) {
  const t0 = performance.now();
  let loadWebEngine;
  let createBatchVerifier;
  if (bundled) {
    ({ loadWebEngine, createBatchVerifier } = await import('/dist/engine-web.mjs'));
  } else {
    ({ loadWebEngine } = await import('/wasm/engine-web.mjs'));
    ({ createBatchVerifier } = await import('/wasm/batch-verifier.mjs'));
  }
  const engine = await loadWebEngine(variant, { baseUrl: '/wasm/' });
  const t1 = performance.now();
  const { verdicts } = createBatchVerifier(engine).verify(Uint8Array.from(record), 1);
  const t2 = performance.now();
  return { load_ms: t1 - t0, first_verdict_ms: t2 - t1, total_ms: t2 - t0, verdict: verdicts[0] };
}

/** Runs in the page: one verify Web Worker until 'ready', ms: the page's own, the worker bundled
 *  into one file (/dist/verify-web-worker.mjs: scripts/bundle-web-worker.mjs, web/run.mjs).
 *  compileOnce: as the page's pool starts its workers (workers/web-host.mjs compileOnce): the
 *  page has compiled the .wasm (untimed here: once per page, part of the cold start) and posts
 *  the module to the worker, which only instantiates it; else the worker fetches and compiles
 *  the .wasm itself. */
export async function pageWorkerStartup({ variant, compileOnce = false }) {
  const base = new URL('/wasm/', location.href).href;
  let module;
  if (compileOnce) {
    const { compileWebModule } = await import('/wasm/engine-web.mjs');
    module = await compileWebModule(variant, { baseUrl: base });
  }
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const url = `/dist/verify-web-worker.mjs?variant=${variant}&base=${encodeURIComponent(base)}${compileOnce ? '&module=post' : ''}`;
    const worker = new Worker(url, { type: 'module' });
    worker.onmessage = ({ data }) => {
      if (data.type === 'module-request') return worker.postMessage({ type: 'module', module });
      worker.terminate();
      if (data.type === 'ready') resolve(performance.now() - t0);
      else reject(new Error(data.message ?? JSON.stringify(data)));
    };
    worker.onerror = (e) => { worker.terminate(); reject(new Error(`worker error: ${e.message}`)); };
  });
}

/**
 * Everything measured in Chromium, in one browser launch.
 * @param {{variants: string[], sets: {ecdsa: object, schnorr: object}, batchSize: number,
 *   rounds: number, startupRounds: number, log: (m: string) => void}} options sets: the check
 *   sets (bench/compare/compare-checks.mjs); startupRounds: cold starts and worker starts per variant
 * @returns {Promise<{browser: string, speed: Array<{variant, type, checks, rounds_seconds,
 *   verdicts_sha256}>, speed_worker: the same measured in a module Web Worker (the main
 *   thread's passes and the worker's run one after the other, each interleaving its variants
 *   and sets round by round), cold_start: Array<{variant, load_ms, first_verdict_ms, total_ms,
 *   verdict}> (through the bundled entry, /dist/engine-web.mjs), cold_start_modules: the same
 *   through the modules as written, worker_startup: Array<{variant, ms}> (the module compiled by the page and
 *   posted, as the page's pool does), worker_startup_own_compile: the same worker fetching and
 *   compiling the .wasm itself, worker_startup_cached: that with the HTTP cache on, after one
 *   untimed worker}>} one cold_start / cold_start_modules / worker_startup /
 *   worker_startup_own_compile / worker_startup_cached entry per round and variant
 * @throws (rejects) Error when Chromium or the server cannot start, or the page fails (e.g.
 *   build/wasm/ibd-<variant>.mjs missing: the message names the URL).
 */
export async function measureChromium({ variants, sets, batchSize, rounds, startupRounds, log }) {
  const server = await startServer({ port: 0 });
  let browser;
  try {
    browser = await launchChromium();
    const open = async () => {
      const page = await browser.context.newPage();
      const cdp = await browser.context.newCDPSession(page);
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await page.goto(`${server.url}fixtures/manifest.json`);
      return page;
    };
    const record = Array.from(sets.ecdsa.checks.subarray(0, sets.ecdsa.walked.offsets[1]));
    const coldStart = [];
    const coldStartModules = [];
    const workerStartup = [];
    const workerStartupOwn = [];
    for (let r = 0; r < startupRounds; r++) {
      for (const variant of variants) {
        // Two fresh pages, in alternating order round by round: the cold start through the
        // bundled entry, then the page's worker both ways (also in alternating order); and the
        // cold start through the modules as written.
        for (const bundled of r % 2 ? [false, true] : [true, false]) {
          const page = await open();
          const cold = await page.evaluate(pageColdStart, { variant, record, bundled });
          if (cold.verdict !== sets.ecdsa.verdicts[0]) {
            throw new Error(`Chromium cold start (${variant}, ${bundled ? 'bundled entry' : 'modules'}): first verdict ${cold.verdict}, the validation's ${sets.ecdsa.verdicts[0]}`);
          }
          if (bundled) {
            coldStart.push({ variant, ...cold });
            const kinds = r % 2 ? [[workerStartupOwn, false], [workerStartup, true]] : [[workerStartup, true], [workerStartupOwn, false]];
            for (const [into, compileOnce] of kinds) into.push({ variant, ms: await page.evaluate(pageWorkerStartup, { variant, compileOnce }) });
          } else {
            coldStartModules.push({ variant, ...cold });
          }
          await page.close();
        }
      }
    }
    // The same worker start-up with the HTTP cache on, as a returning visitor's page or a pool's
    // later workers get it: one untimed worker first (it fetches the .wasm, and Chromium may
    // keep the streamed module's compiled code with the response), then the timed ones.
    const workerStartupCached = [];
    {
      const page = await browser.context.newPage();
      await page.goto(`${server.url}fixtures/manifest.json`);
      for (const variant of variants) {
        await page.evaluate(pageWorkerStartup, { variant });
        for (let r = 0; r < startupRounds; r++) workerStartupCached.push({ variant, ms: await page.evaluate(pageWorkerStartup, { variant }) });
      }
      await page.close();
    }
    log(`chromium: timing ${variants.join(', ')} at batch ${batchSize}, ${rounds} rounds`);
    const page = await open();
    const b64 = Object.fromEntries(Object.entries(sets).map(([t, s]) => [t, Buffer.from(s.checks).toString('base64')]));
    const args = { variants, sets: b64, batchSize, rounds, origin: server.url };
    const speed = await page.evaluate(pageSpeed, args);
    log(`chromium: the same in a module Web Worker`);
    const speedWorker = await page.evaluate(pageSpeedInWorker, { source: pageSpeed.toString(), args });
    const browserVersion = browser.context.browser()?.version() ?? await page.evaluate(() => navigator.userAgent);
    return { browser: browserVersion, speed, speed_worker: speedWorker, cold_start: coldStart, cold_start_modules: coldStartModules, worker_startup: workerStartup,
      worker_startup_own_compile: workerStartupOwn, worker_startup_cached: workerStartupCached };
  } finally {
    await browser?.close();
    await server.close();
  }
}
