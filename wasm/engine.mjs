// Loads one wasm variant of the engine under Node: the one place that knows where the build is
// and how Emscripten's MODULARIZE factory is called (wasm/API.md).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { wasmDir } from './paths.mjs';
import { guardEngine } from './engine-guard.mjs';
import { bestVariant, checkHostRuns, checkVariant } from './variants.mjs';

const require = createRequire(import.meta.url);

/**
 * Instantiates the engine's wasm module for `variant`.
 * @param {'simd'|'scalar'|'wide'} [variant=bestVariant()] the wasm build; by default the fastest
 *   this host runs (variants.mjs bestVariant)
 * @param {{dir?: string}} [options] folder holding ibd-<variant>.js/.wasm (default: wasmDir(),
 *   wasm/paths.mjs: IBD_WASM_DIR, else build/wasm).
 * @returns {Promise<object>} the Emscripten module: BlockValidation, verifyBatch, engineInfo,
 *   _malloc, _free, HEAPU8 (wasm/API.md), its entry points guarded (engine-guard.mjs: argument
 *   types checked, an instance that trapped retired).
 * @throws Error naming the variant or the missing file (with the command that builds it), or
 *   naming the .wasm that does not compile or link (the CompileError / LinkError as its cause).
 */
export async function loadEngine(variant = bestVariant(), { dir = wasmDir() } = {}) {
  const { factory, wasmFile } = buildFiles(variant, dir);
  let module;
  try {
    module = await WebAssembly.compile(readFileSync(wasmFile));
  } catch (err) {
    throw new Error(`${wasmFile} does not compile (a damaged or foreign .wasm): ${err.message}`, { cause: err });
  }
  // A hook failure is also caught by the glue, which then never settles its promise: the race
  // makes it this function's rejection.
  let failed;
  const failure = new Promise((_, reject) => { failed = reject; });
  return guardEngine(await Promise.race([failure, factory(instantiateHook(module, wasmFile, failed))]), wasmFile);
}

/** Emscripten's instantiateWasm hook over an already compiled module, which names the file
 *  when the module does not link or its exports are not the glue's; `onError` is also given
 *  that Error (the glue catches what the hook throws). */
function instantiateHook(module, wasmFile, onError = () => {}) {
  const fail = (what, err) => {
    const e = new Error(`${wasmFile} ${what} (a .wasm from another build?): ${err?.message ?? err}`, { cause: err });
    onError(e);
    throw e;
  };
  return {
    instantiateWasm(imports, done) {
      let instance;
      try {
        instance = new WebAssembly.Instance(module, imports);
      } catch (err) {
        fail('does not link with its glue', err);
      }
      try {
        done(instance, module);
      } catch (err) {
        fail('does not match its glue', err);
      }
      return instance.exports;
    },
  };
}

/**
 * loadEngine without a promise: the module compiled and instantiated on this thread before it
 * returns (WebAssembly.Module and WebAssembly.Instance, through Emscripten's instantiateWasm
 * hook, which the 3.1.6 MODULARIZE glue completes synchronously on the object it is given).
 * What lets a synchronous call (the drop-in's verify) load the engine on first use under Node.
 * @param {'simd'|'scalar'|'wide'} [variant=bestVariant()] the wasm build; by default the fastest
 *   this host runs (variants.mjs bestVariant)
 * @param {{dir?: string}} [options] as loadEngine
 * @returns {object} the Emscripten module, as loadEngine's
 * @throws Error as loadEngine, a WebAssembly.CompileError / LinkError, or an Error when the glue
 *   did not finish the start-up synchronously (a different Emscripten).
 */
export function loadEngineSync(variant = bestVariant(), { dir = wasmDir() } = {}) {
  const { factory, jsFile, wasmFile } = buildFiles(variant, dir);
  let module;
  try {
    module = new WebAssembly.Module(readFileSync(wasmFile));
  } catch (err) {
    throw new Error(`${wasmFile} does not compile (a damaged or foreign .wasm): ${err.message}`, { cause: err });
  }
  let hookError = null;
  const engine = instantiateHook(module, wasmFile, (err) => { hookError = err; });
  factory(engine).catch?.(() => {}); // a start-up failure is the check below
  if (hookError) throw hookError;
  if (!engine.calledRun || typeof engine.verifyBatch !== 'function') {
    throw new Error(`${jsFile}: the module did not start synchronously (an Emscripten other than the build's?)`);
  }
  return guardEngine(engine, wasmFile);
}

/**
 * Checks, before a command starts any work, that this Node runs `variant`: 'wide' needs wasm wide
 * arithmetic, which Node 20 lacks (variants.mjs checkHostRuns, naming this Node and its V8).
 * @param {string} variant a known variant name
 * @throws Error saying what the variant needs and which variants to use instead.
 */
export function checkNodeRuns(variant) {
  checkHostRuns(variant, `Node ${process.version} (V8 ${process.versions.v8})`);
}

/** The variant's glue factory and file names in `dir`; throws naming a missing file. */
function buildFiles(variant, dir) {
  checkVariant(variant);
  checkHostRuns(variant, `this engine (Node ${process.versions.node}, V8 ${process.versions.v8})`);
  const jsFile = path.join(dir, `ibd-${variant}.js`);
  const wasmFile = path.join(dir, `ibd-${variant}.wasm`);
  for (const file of [jsFile, wasmFile]) {
    if (!existsSync(file)) {
      throw new Error(`wasm build not found: ${file} is missing (in a checkout of the ibd-wasm repository, ` +
        '`node scripts/setup.mjs` builds it; a wasmDir or IBD_WASM_DIR must hold ibd-<variant>.js and .wasm)');
    }
  }
  const factory = require(jsFile);
  if (typeof factory !== 'function') throw new Error(`${jsFile} does not export an Emscripten factory`);
  return { factory, jsFile, wasmFile };
}
