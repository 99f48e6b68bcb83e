// The page's verify Web Worker as one file: workers/verify-web-worker.mjs with every module it
// imports (the loader, the batch handler and what they import) bundled by rolldown into
// build/web/verify-web-worker.mjs, which web/server.mjs serves as /dist/verify-web-worker.mjs
// and the page starts (web/run.mjs). The unbundled worker asks for its modules level by level,
// each level a round trip; bundled, it is one request, and only the variant's glue
// (ibd-<variant>.mjs, imported by URL) and the .wasm are fetched beside it. Measured:
// `node bench/compare/worker-startup-parts.mjs` (docs/performance.md, "Where a worker's start-up
// goes"). Run by scripts/setup.mjs after the wasm build (each time: it takes well under a
// second), or on its own: `node scripts/bundle-web-worker.mjs`.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_DIR, REPO_ROOT } from '../wasm/paths.mjs';

/** The worker the bundle is made from. */
export const WEB_WORKER_SOURCE = path.join(REPO_ROOT, 'workers', 'verify-web-worker.mjs');
/** Where the bundle is written (served as /dist/verify-web-worker.mjs). */
export const WEB_WORKER_BUNDLE = path.join(BUILD_DIR, 'web', 'verify-web-worker.mjs');

/**
 * Writes WEB_WORKER_BUNDLE from WEB_WORKER_SOURCE: one ES module, no code splitting (the
 * worker's own dynamic imports of its modules are inlined; the glue's import, whose URL is
 * computed from the variant, stays an import).
 * @returns {Promise<{file: string, bytes: number}>}
 * @throws (rejects) Error from rolldown when a module cannot be resolved or parsed
 */
export async function bundleWebWorker() {
  const { rolldown } = await import('rolldown');
  mkdirSync(path.dirname(WEB_WORKER_BUNDLE), { recursive: true });
  const bundle = await rolldown({ input: WEB_WORKER_SOURCE, platform: 'browser', logLevel: 'warn' });
  try {
    const { output } = await bundle.write({ file: WEB_WORKER_BUNDLE, format: 'es', codeSplitting: false });
    return { file: WEB_WORKER_BUNDLE, bytes: output[0].code.length };
  } finally {
    await bundle.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  bundleWebWorker().then(({ file, bytes }) => console.log(`${path.relative(REPO_ROOT, file)}: ${bytes} bytes`), (err) => {
    console.error(`bundle-web-worker: ${err.message}`);
    process.exit(1);
  });
}
