// Loads one wasm variant of the engine under Node: the one place that knows where the build is
// and how Emscripten's MODULARIZE factory is called (wasm/API.md).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { wasmDir } from './paths.mjs';
import { checkVariant } from './variants.mjs';

const require = createRequire(import.meta.url);

/**
 * Instantiates the engine's wasm module for `variant`.
 * @param {'simd'|'scalar'} [variant='simd']
 * @param {{dir?: string}} [options] folder holding ibd-<variant>.js/.wasm (default: wasmDir(),
 *   wasm/paths.mjs: IBD_WASM_DIR, else build/wasm).
 * @returns {Promise<object>} the Emscripten module: BlockValidation, verifyBatch, engineInfo,
 *   _malloc, _free, HEAPU8 (wasm/API.md).
 * @throws Error naming the variant or the missing file (with the command that builds it).
 */
export async function loadEngine(variant = 'simd', { dir = wasmDir() } = {}) {
  checkVariant(variant);
  const jsFile = path.join(dir, `ibd-${variant}.js`);
  const wasmFile = path.join(dir, `ibd-${variant}.wasm`);
  for (const file of [jsFile, wasmFile]) {
    if (!existsSync(file)) {
      throw new Error(`wasm build not found: ${file} is missing; build it with ` +
        '`emcmake cmake -S . -B build/wasm && cmake --build build/wasm` (or node scripts/setup.mjs)');
    }
  }
  const factory = require(jsFile);
  if (typeof factory !== 'function') throw new Error(`${jsFile} does not export an Emscripten factory`);
  return factory({ wasmBinary: readFileSync(wasmFile) });
}
