// Module Web Worker entry of a verify worker (web-host.mjs starts it): loads its own wasm
// instance and serves the pool's batch messages (protocol and memory: batch-handler.mjs).
// Its URL carries the settings: ?variant=simd|scalar&base=<URL of the folder holding
// ibd-<variant>.mjs / .wasm>. A load failure (bad variant, 404, bad wasm) is posted as
// {type: 'load-error', message} naming the URL; a failure to load this script or its imports
// is reported by the host (web-host.mjs).
import { serveVerifyWorker } from './batch-handler.mjs';
import { loadWebEngine } from '../wasm/engine-web.mjs';

const params = new URL(self.location.href).searchParams;
await serveVerifyWorker(() => loadWebEngine(params.get('variant') ?? 'simd', { baseUrl: new URL(params.get('base')) }), {
  post: (msg, transfer) => self.postMessage(msg, transfer),
  listen: (onMessage) => self.addEventListener('message', (event) => onMessage(event.data)),
});
