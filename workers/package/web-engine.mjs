// The package's engine in a browser (a page or a module Web Worker): wasm/engine-web.mjs's loader
// given the build's files as URLs written out relative to this module, the form bundlers (Vite,
// webpack 5, Rollup) recognize: `new URL('<file>', import.meta.url)` becomes the emitted asset's
// URL, and `import('<file>')` a chunk of the app. Served as is (a plain page loading the package
// from node_modules, a CDN), the same URLs point at the package's own build/wasm/ files.
import { bestVariant, loadWebEngine } from '../../wasm/engine-web.mjs';
import { checkVariant } from '../../wasm/variants.mjs';

const FILES = {
  simd: {
    wasm: () => new URL('../../build/wasm/ibd-simd.wasm', import.meta.url),
    glue: () => import('../../build/wasm/ibd-simd.mjs'),
  },
  scalar: {
    wasm: () => new URL('../../build/wasm/ibd-scalar.wasm', import.meta.url),
    glue: () => import('../../build/wasm/ibd-scalar.mjs'),
  },
  wide: {
    wasm: () => new URL('../../build/wasm/ibd-wide.wasm', import.meta.url),
    glue: () => import('../../build/wasm/ibd-wide.mjs'),
  },
};

/** The variant a load uses when none is asked for: 'wide' where wasm wide arithmetic runs
 *  (Firefox >= 155), else 'simd' where wasm SIMD runs, else 'scalar' (variants.mjs bestVariant). */
export const defaultVariant = () => bestVariant();

/**
 * Loads the package's engine for `variant`.
 * @param {{variant?: 'wide'|'simd'|'scalar', wasmUrl?: string|URL}} [options] variant: default
 *   defaultVariant(); wasmUrl: where to fetch ibd-<variant>.wasm instead of the package's own
 *   file (resolved against the document's or worker's location), e.g. a CDN
 * @returns {Promise<object>} the Emscripten module (wasm/API.md)
 * @throws (rejects) Error naming the variant, or the URL with the HTTP status, network error or
 *   compile error (loadWebEngine)
 */
export function loadPackageEngine({ variant = defaultVariant(), wasmUrl } = {}) {
  try {
    checkVariant(variant);
  } catch (err) {
    return Promise.reject(err);
  }
  const files = FILES[variant];
  return loadWebEngine(variant, { wasmUrl: wasmUrl ?? files.wasm(), baseUrl: globalThis.location?.href, importGlue: files.glue });
}
