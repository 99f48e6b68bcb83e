// The engine's browser entry for one thread (a page, or a worker of the caller's own): the
// loader and the batch verifier in one module. scripts/bundle-web-worker.mjs bundles it with
// what it imports into build/web/engine-web.mjs, which web/server.mjs serves as
// /dist/engine-web.mjs: one request where the modules as written are fetched level by level
// (engine-web.mjs, then variants.mjs; batch-verifier.mjs), as a production page's bundler
// would serve them. `npm run bench` times a page's cold start through it
// (bench/compare/chromium.mjs pageColdStart).
//
// Its loaders' default baseUrl is the folder `wasm/` beside this file's: /wasm/ both as written
// (/wasm/browser.mjs) and bundled (/dist/engine-web.mjs), where web/server.mjs serves the build.
import { compileWebModule as compile, loadWebEngine as load } from './engine-web.mjs';

export { simdSupported } from './engine-web.mjs';
export { createBatchVerifier } from './batch-verifier.mjs';

/** The wasm build's folder when the caller names none (file header). */
const DEFAULT_BASE = new URL(/* @vite-ignore */ '../wasm/', import.meta.url);

/** wasm/engine-web.mjs loadWebEngine, baseUrl defaulting to DEFAULT_BASE. */
export function loadWebEngine(variant, options = {}) {
  return load(variant, { ...options, baseUrl: options.baseUrl ?? DEFAULT_BASE });
}

/** wasm/engine-web.mjs compileWebModule, baseUrl defaulting to DEFAULT_BASE. */
export function compileWebModule(variant, options = {}) {
  return compile(variant, { ...options, baseUrl: options.baseUrl ?? DEFAULT_BASE });
}
