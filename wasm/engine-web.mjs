// Loads one wasm variant of the engine in a browser (page or module Web Worker): the browser
// counterpart of engine.mjs. The build emits, beside the CommonJS factory Node loads, an ES
// module copy of it, ibd-<variant>.mjs (wasm/CMakeLists.txt), which is imported here. The wasm
// is fetched here, so that every failure can name its URL, and compiled while it downloads
// (WebAssembly.compileStreaming, when the server sends it as application/wasm): compilation
// overlaps the download, and Chromium caches the compiled code of a streamed module with the
// HTTP response, so that later loads (each verify worker, the next visit) skip compiling. The
// factory instantiates that module (Emscripten's instantiateWasm hook).
import { guardEngine } from './engine-guard.mjs';
import { bestVariant, checkHostRuns, checkVariant } from './variants.mjs';

/** Feature probes, re-exported from variants.mjs where they live beside the variant list. */
export { simdSupported, wideArithmeticSupported, bestVariant } from './variants.mjs';

/**
 * Instantiates the engine's wasm module for `variant`.
 * @param {'simd'|'scalar'|'wide'} [variant=bestVariant()] the wasm build; by default the fastest
 *   this host runs (variants.mjs bestVariant)
 * @param {{baseUrl?: URL|string, wasmResponse?: Promise<Response>, wasmUrl?: URL|string,
 *   module?: WebAssembly.Module|Promise<WebAssembly.Module>,
 *   importGlue?: () => Promise<{default: Function}>}} [options] baseUrl: folder URL holding ibd-<variant>.mjs and .wasm
 *   (default: this file's folder: web/server.mjs serves the wasm build's modules under /wasm/
 *   beside this loader); a relative
 *   string is resolved against the document's (or worker's) location.
 *   wasmResponse: the fetch of <baseUrl>ibd-<variant>.wasm, already started by the caller (a
 *   verify worker starts it, and the glue's import, before its own imports have loaded); its
 *   network errors are reported as this function's own. module: the variant's .wasm already
 *   compiled (compileWebModule, e.g. by the page, once for all its workers: a Module can be
 *   posted to a worker); nothing is then fetched or compiled, and a rejection is reported as
 *   this function's own. wasmUrl: the .wasm file's URL instead
 *   of <baseUrl>ibd-<variant>.wasm (resolved against baseUrl); importGlue: imports the glue
 *   module instead of import(<baseUrl>ibd-<variant>.mjs), for a caller whose bundler must see
 *   the import written out (the package, workers/package/).
 * @returns {Promise<object>} the Emscripten module, same surface as engine.mjs loadEngine:
 *   BlockValidation, verifyBatch, engineInfo, _malloc, _free, HEAPU8 (wasm/API.md), guarded as
 *   engine.mjs's (engine-guard.mjs).
 * @throws (rejects) Error naming the variant when it is unknown, or naming the URL with the
 *   HTTP status, network error, import error or WebAssembly compile error.
 */
export async function loadWebEngine(variant = bestVariant(), { baseUrl = new URL(/* @vite-ignore */ './', import.meta.url), wasmResponse, wasmUrl: wasmAt, module: compiled, importGlue } = {}) {
  checkVariant(variant);
  checkHostRuns(variant, 'this browser');
  const base = new URL(baseUrl, globalThis.location?.href);
  const wasmUrl = new URL(wasmAt ?? `ibd-${variant}.wasm`, base).href;
  const glueUrl = importGlue ? `the ${variant} glue module` : new URL(`ibd-${variant}.mjs`, base).href;
  // The glue is imported while the wasm downloads and compiles: two requests in flight, not one
  // after the other (a cold start-up is a chain of round trips; docs/performance.md).
  const glue = (importGlue ? importGlue() : import(glueUrl)).then((m) => ({ m }), (err) => ({ err }));
  let module;
  if (compiled !== undefined) {
    try {
      module = await compiled;
    } catch (err) {
      const message = String(err?.message ?? err);
      // The page's own error (compileWebModule's) names the URL already.
      throw new Error(message.includes(wasmUrl) ? message : `cannot load ${wasmUrl}: ${message}`, { cause: err });
    }
    if (!(module instanceof WebAssembly.Module)) throw new Error(`cannot load ${wasmUrl}: the module given is not a WebAssembly.Module`);
  } else {
    module = await fetchAndCompile(wasmUrl, wasmResponse);
  }
  const imported = await glue;
  if (imported.err) throw new Error(`cannot import ${glueUrl}: ${imported.err.message}`, { cause: imported.err });
  const factory = imported.m.default;
  if (typeof factory !== 'function') throw new Error(`${glueUrl} does not export an Emscripten factory`);
  let instantiateFailed;
  let engine;
  const failed = new Promise((_, reject) => { instantiateFailed = reject; });
  try {
    engine = await Promise.race([failed, factory({
      instantiateWasm(imports, done) {
        WebAssembly.instantiate(module, imports).then((instance) => {
          try {
            done(instance, module);
          } catch (err) { // exports the glue does not know: a .wasm from another build
            instantiateFailed(new Error(`${err?.message ?? err} (a .wasm from another build than its glue?)`, { cause: err }));
          }
        }, instantiateFailed);
        return {}; // the exports come later, through done()
      },
    })]);
  } catch (err) {
    throw new Error(`cannot instantiate ${wasmUrl}: ${err?.message ?? err}`, { cause: err });
  }
  return guardEngine(engine, wasmUrl);
}

/**
 * Fetches and compiles one wasm variant of the engine without instantiating it: what a page does
 * once so that each of its workers only instantiates the module (a WebAssembly.Module is posted
 * to a worker by reference, its compiled code shared; workers/web-host.mjs compileOnce).
 * Streamed (WebAssembly.compileStreaming) when the server says application/wasm.
 * @param {'simd'|'scalar'|'wide'} [variant=bestVariant()] the wasm build; by default the fastest
 *   this host runs (variants.mjs bestVariant)
 * @param {{baseUrl?: URL|string, wasmUrl?: URL|string}} [options] as loadWebEngine's
 * @returns {Promise<WebAssembly.Module>}
 * @throws (rejects) Error naming the variant when it is unknown, or naming the URL with the
 *   HTTP status, network error or WebAssembly compile error.
 */
export async function compileWebModule(variant = bestVariant(), { baseUrl = new URL(/* @vite-ignore */ './', import.meta.url), wasmUrl: wasmAt } = {}) {
  checkVariant(variant);
  checkHostRuns(variant, 'this browser');
  const wasmUrl = new URL(wasmAt ?? `ibd-${variant}.wasm`, new URL(baseUrl, globalThis.location?.href)).href;
  return fetchAndCompile(wasmUrl);
}

/** `wasmUrl` fetched (or the fetch already started, `wasmResponse`) and compiled; rejects with an
 *  Error naming the URL and the network error, the HTTP status or the compile error. */
async function fetchAndCompile(wasmUrl, wasmResponse) {
  let response;
  try {
    response = await (wasmResponse ?? fetch(wasmUrl));
  } catch (err) {
    throw new Error(`cannot fetch ${wasmUrl}: ${err.message}`, { cause: err });
  }
  if (!response.ok) throw new Error(`cannot fetch ${wasmUrl}: HTTP ${response.status} ${response.statusText}`.trimEnd());
  return compileResponse(response, wasmUrl);
}

/** The fetched module compiled: streamed when the browser can and the response says
 *  application/wasm (compileStreaming requires it), else from its bytes. Rejects with an Error
 *  naming `url` when the body cannot be read or is not valid wasm. */
async function compileResponse(response, url) {
  const type = response.headers.get('content-type') ?? '';
  try {
    if (typeof WebAssembly.compileStreaming === 'function' && type.split(';')[0].trim() === 'application/wasm') {
      return await WebAssembly.compileStreaming(response);
    }
    return await WebAssembly.compile(await response.arrayBuffer());
  } catch (err) {
    throw new Error(`cannot compile ${url}: ${err?.message ?? err}`, { cause: err });
  }
}
