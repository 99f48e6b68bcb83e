// The wasm variants the build produces (wasm/CMakeLists.txt, wasm/API.md): one list for both
// loaders (engine.mjs under Node, engine-web.mjs in browsers) and for every command line that
// takes --variant. Host-neutral: no import.

/** The wasm variants: 'simd' (wasm SIMD, simd128) and 'scalar' (no SIMD: Safari < 16.4). */
export const VARIANTS = Object.freeze(['simd', 'scalar']);

/**
 * Checks a variant name before a loader touches the build.
 * @param {string} variant
 * @throws Error naming the variant and the known ones when it is not in VARIANTS.
 */
export function checkVariant(variant) {
  if (!VARIANTS.includes(variant)) {
    throw new Error(`unknown wasm variant "${variant}" (expected one of: ${VARIANTS.join(', ')})`);
  }
}
