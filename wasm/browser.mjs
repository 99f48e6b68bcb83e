// The engine's browser entry for one thread (a page, or a worker of the caller's own): the
// loader and the batch verifier in one module. scripts/bundle-web-worker.mjs bundles it with
// what it imports into build/web/engine-web.mjs, which web/server.mjs serves as
// /dist/engine-web.mjs: one request where the modules as written are fetched level by level
// (engine-web.mjs, then variants.mjs; batch-verifier.mjs), as a production page's bundler
// would serve them. `npm run bench` times a page's cold start through it
// (bench/compare/chromium.mjs pageColdStart).
export { compileWebModule, loadWebEngine, simdSupported } from './engine-web.mjs';
export { createBatchVerifier } from './batch-verifier.mjs';
