// Module Web Worker entry of a verify worker (web-host.mjs starts it): loads its own wasm
// instance and serves the pool's batch messages (protocol and memory: batch-handler.mjs).
// Its URL carries the settings: ?variant=simd|scalar|wide&base=<URL of the folder holding
// ibd-<variant>.mjs / .wasm>[&module=post]. With module=post the page compiles the .wasm once
// for all its workers (web-host.mjs compileOnce): this worker, once it listens, posts
// {type: 'module-request'} and the page answers {type: 'module', module: WebAssembly.Module},
// or {type: 'module', error} when it could not compile it; the worker then fetches and
// compiles nothing and only instantiates. (Asked for, not pushed: a message that arrived
// before the worker listened, e.g. while a wrapper script imports this one, would be lost.)
// A load failure (bad variant, 404, bad wasm, the page's error) is posted as
// {type: 'load-error', message} naming the URL; a failure to load this script or its imports
// is reported by the host (web-host.mjs).
//
// No static imports: a cold start-up is a chain of round trips, so every request this worker
// needs leaves at once (the .wasm unless posted, the Emscripten glue, the loader, the batch
// handler) instead of one module-graph level after another (docs/performance.md, "Download and
// start-up").
const params = new URL(self.location.href).searchParams;
const variant = params.get('variant') ?? 'simd'; // web-host.mjs always sets it (its default: bestVariant())
const baseUrl = new URL(params.get('base'));
let module;
let wasmResponse;
if (params.get('module') === 'post') {
  module = new Promise((resolve, reject) => {
    const take = ({ data }) => {
      if (data?.type !== 'module') return;
      self.removeEventListener('message', take);
      if (data.module instanceof WebAssembly.Module) resolve(data.module);
      else reject(new Error(data.error ?? 'the page posted no WebAssembly.Module'));
    };
    self.addEventListener('message', take);
  });
  module.catch(() => {}); // handled by loadWebEngine
  self.postMessage({ type: 'module-request' });
} else {
  // Started here, consumed by loadWebEngine (which checks the variant first).
  wasmResponse = fetch(new URL(`ibd-${variant}.wasm`, baseUrl));
  wasmResponse.catch(() => {});
}
// The glue's import is the module map's, which loadWebEngine's own import then shares.
import(new URL(`ibd-${variant}.mjs`, baseUrl).href).catch(() => {});
const engine = import('../wasm/engine-web.mjs').then(({ loadWebEngine }) => loadWebEngine(variant, { baseUrl, wasmResponse, module }));
engine.catch(() => {}); // handled by serveVerifyWorker below; not an unhandled rejection meanwhile
const { serveVerifyWorker } = await import('./batch-handler.mjs');
await serveVerifyWorker(() => engine, {
  post: (msg, transfer) => self.postMessage(msg, transfer),
  listen: (onMessage) => self.addEventListener('message', (event) => {
    if (event.data?.type !== 'module') onMessage(event.data); // the page's module is not a pool message
  }),
});
