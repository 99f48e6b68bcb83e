// The browser host for the verify pool: one module Web Worker per slot, running
// verify-web-worker.mjs. It implements the host interface of node-host.mjs; everything else
// (batches, retries, transports) is the shared pool (verify-pool.mjs).
//
// A module worker whose script (or a module it imports) fails to load fires a bare 'error'
// Event without any detail. The host then fetches the script itself to name the reason (HTTP
// status or network error) before reporting it, so ready() / verify() reject with the URL and
// the reason instead of hanging. Errors inside a loaded worker arrive as ErrorEvents and are
// reported with their message and location.

import { bestVariant, compileWebModule } from '../wasm/engine-web.mjs';

/** The verify worker's script (a module worker). */
export const WEB_WORKER_URL = new URL('./verify-web-worker.mjs', import.meta.url);

/**
 * A host that runs verify workers as module Web Workers.
 * @param {{variant?: 'simd'|'scalar'|'wide', baseUrl?: URL|string, workerUrl?: URL|string,
 *   compileOnce?: boolean, createWorker?: (name: string) => Worker, settings?: object}} [options]
 *   variant: the wasm build each worker loads (default: bestVariant(), the fastest this
 *   browser runs); baseUrl: folder URL of the
 *   wasm build (default: wasm/engine-web.mjs's default, the folder of that loader), resolved
 *   against the document's location; both travel in the worker script's URL (?variant=&base=);
 *   compileOnce (default true; not with createWorker): the host fetches and compiles the
 *   variant's .wasm once, when the first worker is spawned (wasm/engine-web.mjs
 *   compileWebModule: streamed, V8 compiles on its background threads), and posts the
 *   compiled module to every worker it spawns (replacements included) when the worker asks
 *   for it, so that no worker fetches or compiles it again (&module=post, {type:
 *   'module-request'}; verify-web-worker.mjs); a compile failure is posted instead and each
 *   worker reports it as its load-error; false:
 *   each worker fetches and compiles its own;
 *   workerUrl: the worker script (default WEB_WORKER_URL). createWorker: starts each worker
 *   itself, for a script whose URL a bundler must see written as
 *   `new Worker(new URL(<script>, import.meta.url), {type: 'module'})` (the package's,
 *   workers/package/); workerUrl then only names it in errors, and `settings`, when given, is
 *   posted to each worker as its first message instead of URL parameters.
 * @returns {{spawn: Function, loads: string}} see the host interface in node-host.mjs; post() transfers the
 *   listed buffers, ref()/unref() do nothing (browsers have no such notion), terminate() stops
 *   the worker at once.
 */
export function webHost({ variant = bestVariant(), baseUrl = new URL(/* @vite-ignore */ '../wasm/', import.meta.url), workerUrl = WEB_WORKER_URL,
  compileOnce = true, createWorker, settings } = {}) {
  const script = new URL(workerUrl, globalThis.location?.href);
  const share = compileOnce && !createWorker;
  const base = new URL(baseUrl, globalThis.location?.href);
  if (!createWorker) {
    script.searchParams.set('variant', variant);
    script.searchParams.set('base', base.href);
    if (share) script.searchParams.set('module', 'post');
  }
  let compiled = null; // the module's compilation, started by the first spawn
  const wasmUrl = new URL(`ibd-${variant}.wasm`, base).href;
  return {
    loads: `the worker script ${script.href} and ${wasmUrl}${share ? ' (compiled once by the page)' : ''}`,
    spawn(index, { onMessage, onError }) {
      const name = `ibd-verify-${index}`;
      const worker = createWorker ? createWorker(name) : new Worker(script, { type: 'module', name });
      if (share && !compiled) { // started with the first worker
        compiled = compileWebModule(variant, { baseUrl: base });
        compiled.catch(() => {}); // reported to each worker that asks; not an unhandled rejection meanwhile
      }
      worker.addEventListener('message', (event) => {
        if (share && event.data?.type === 'module-request') { // the worker listens: the compiled module, or why not
          compiled.then((module) => worker.postMessage({ type: 'module', module }),
            (err) => worker.postMessage({ type: 'module', error: err?.message ?? String(err) }));
          return;
        }
        onMessage(event.data);
      });
      worker.addEventListener('messageerror', () => onError(new Error('message could not be deserialized')));
      worker.addEventListener('error', (event) => {
        event.preventDefault(); // reported through the pool, not as an uncaught page error
        if (event.message) {
          onError(new Error(`${event.message} (${event.filename || script.href}:${event.lineno}:${event.colno})`));
        } else {
          scriptLoadError(script).then(onError);
        }
      });
      if (createWorker && settings !== undefined) worker.postMessage(settings);
      return {
        post: (msg, transfer) => worker.postMessage(msg, transfer),
        ref: () => {},
        unref: () => {},
        terminate: async () => worker.terminate(),
      };
    },
  };
}

// Why the module worker `script` failed to start, as an Error naming it.
async function scriptLoadError(script) {
  let reason;
  try {
    const response = await fetch(script, { cache: 'no-store' });
    reason = response.ok
      ? `it or a module it imports failed to load or evaluate (the script itself is served: HTTP ${response.status})`
      : `HTTP ${response.status} ${response.statusText}`.trimEnd();
  } catch (err) {
    reason = `fetch failed: ${err.message}`;
  }
  return new Error(`worker script ${script.href} did not start: ${reason}`);
}
