// The page's verify Web Worker as one file: workers/verify-web-worker.mjs with every module it
// imports (the loader, the batch handler and what they import) bundled by rolldown into
// build/web/verify-web-worker.mjs, which web/server.mjs serves as /dist/verify-web-worker.mjs
// and the page starts (web/run.mjs). The unbundled worker asks for its modules level by level,
// each level a round trip; bundled, it is one request, and only the variant's glue
// (ibd-<variant>.mjs, imported by URL) and the .wasm are fetched beside it. Measured:
// `node bench/compare/worker-startup-parts.mjs` (docs/performance.md, "Where a worker's start-up
// goes"). The engine's browser entry for one thread (wasm/browser.mjs: the loader and the batch
// verifier) is bundled the same way into build/web/engine-web.mjs (/dist/engine-web.mjs), which
// `npm run bench` loads for a page's cold start. Run by scripts/setup.mjs after the wasm build
// (each time: it takes well under a second), or on its own: `node scripts/bundle-web-worker.mjs`.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_DIR, REPO_ROOT } from '../wasm/paths.mjs';

/** The worker the bundle is made from. */
export const WEB_WORKER_SOURCE = path.join(REPO_ROOT, 'workers', 'verify-web-worker.mjs');
/** Where the bundle is written (served as /dist/verify-web-worker.mjs). */
export const WEB_WORKER_BUNDLE = path.join(BUILD_DIR, 'web', 'verify-web-worker.mjs');
/** The engine's browser entry for one thread, and where its bundle is written (served as
 *  /dist/engine-web.mjs). */
export const ENGINE_WEB_SOURCE = path.join(REPO_ROOT, 'wasm', 'browser.mjs');
export const ENGINE_WEB_BUNDLE = path.join(BUILD_DIR, 'web', 'engine-web.mjs');

/** `input` bundled into the ES module `file` (no code splitting: dynamic imports of modules
 *  are inlined; the glue's import, whose URL is computed from the variant, stays an import). */
async function bundle(input, file) {
  const { rolldown } = await import('rolldown');
  mkdirSync(path.dirname(file), { recursive: true });
  const b = await rolldown({ input, platform: 'browser', logLevel: 'warn' });
  try {
    const { output } = await b.write({ file, format: 'es', codeSplitting: false });
    return { file, bytes: output[0].code.length };
  } finally {
    await b.close();
  }
}

/**
 * Writes WEB_WORKER_BUNDLE from WEB_WORKER_SOURCE and ENGINE_WEB_BUNDLE from ENGINE_WEB_SOURCE,
 * each one ES module.
 * @returns {Promise<Array<{file: string, bytes: number}>>} the worker's, then the entry's
 * @throws (rejects) Error from rolldown when a module cannot be resolved or parsed
 */
export async function bundleWebWorker() {
  return [await bundle(WEB_WORKER_SOURCE, WEB_WORKER_BUNDLE), await bundle(ENGINE_WEB_SOURCE, ENGINE_WEB_BUNDLE)];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  bundleWebWorker().then((out) => out.forEach(({ file, bytes }) => console.log(`${path.relative(REPO_ROOT, file)}: ${bytes} bytes`)), (err) => {
    console.error(`bundle-web-worker: ${err.message}`);
    process.exit(1);
  });
}
