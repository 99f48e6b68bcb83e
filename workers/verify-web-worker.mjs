// Module Web Worker entry of a verify worker (web-host.mjs starts it): loads its own wasm
// instance and serves the pool's batch messages (protocol and memory: batch-handler.mjs).
// Its URL carries the settings: ?variant=simd|scalar&base=<URL of the folder holding
// ibd-<variant>.mjs / .wasm>. A load failure (bad variant, 404, bad wasm) is posted as
// {type: 'load-error', message} naming the URL; a failure to load this script or its imports
// is reported by the host (web-host.mjs).
//
// No static imports: a cold start-up is a chain of round trips, so every request this worker
// needs leaves at once (the .wasm, the Emscripten glue, the loader, the batch handler) instead of
// one module-graph level after another (docs/performance.md, "Download and start-up").
const params = new URL(self.location.href).searchParams;
const variant = params.get('variant') ?? 'simd';
const baseUrl = new URL(params.get('base'));
// Started here, consumed by loadWebEngine (which checks the variant first): the fetch is passed
// in, and the glue's import is the module map's, which loadWebEngine's own import then shares.
const wasmResponse = fetch(new URL(`ibd-${variant}.wasm`, baseUrl));
wasmResponse.catch(() => {});
import(new URL(`ibd-${variant}.mjs`, baseUrl).href).catch(() => {});
const engine = import('../wasm/engine-web.mjs').then(({ loadWebEngine }) => loadWebEngine(variant, { baseUrl, wasmResponse }));
engine.catch(() => {}); // handled by serveVerifyWorker below; not an unhandled rejection meanwhile
const { serveVerifyWorker } = await import('./batch-handler.mjs');
await serveVerifyWorker(() => engine, {
  post: (msg, transfer) => self.postMessage(msg, transfer),
  listen: (onMessage) => self.addEventListener('message', (event) => onMessage(event.data)),
});
