// The package's verify worker in a browser (a module Web Worker that index-browser.mjs starts):
// its first message is its settings, {variant, wasmUrl}; it then loads its engine
// (web-engine.mjs) and serves the pool's messages (protocol: workers/batch-handler.mjs). A load
// failure is posted as {type: 'load-error', message} naming the URL, as the page's own workers do.
import { serveVerifyWorker } from '../batch-handler.mjs';
import { loadPackageEngine } from './web-engine.mjs';

const settings = new Promise((resolve) => {
  self.addEventListener('message', (event) => resolve(event.data ?? {}), { once: true });
});

serveVerifyWorker(async () => loadPackageEngine(await settings), {
  post: (msg, transfer) => self.postMessage(msg, transfer),
  listen: (onMessage) => self.addEventListener('message', (event) => onMessage(event.data)),
});
