// The wasm variants the build produces (wasm/CMakeLists.txt, wasm/API.md): one list for both
// loaders (engine.mjs under Node, engine-web.mjs in browsers) and for every command line that
// takes --variant. Host-neutral: no import.

/** The wasm variants every engine with wasm runs, one or the other: 'simd' (wasm SIMD, simd128)
 *  and 'scalar' (no SIMD: Safari < 16.4). Node's commands, tests and benchmarks take these. */
export const VARIANTS = Object.freeze(['simd', 'scalar']);

/**
 * The variant that needs the wide-arithmetic proposal (i64.mul_wide_u, i64.add128) beside SIMD:
 * libsecp256k1's 5x52 field with 64x64->128-bit products (wasm/wide-arithmetic/). Firefox >= 155
 * runs it; Chromium 156 only with --js-flags=--wasm-wide-arithmetic (ECDSA 1.45x simd there);
 * Firefox ESR 153 only with javascript.options.wasm_wide_arithmetic (0.99-1.20x simd there:
 * docs/performance.md, "Firefox ESR: the second engine"); Node 20 (V8 11.3) not at all. Loaded
 * where wideArithmeticSupported() (engine-web.mjs) says so.
 */
export const WIDE_VARIANT = 'wide';

/** Every variant a loader accepts by name. */
export const ALL_VARIANTS = Object.freeze([...VARIANTS, WIDE_VARIANT]);

// The smallest module using a SIMD instruction: (func (result v128) i32.const 0 i8x16.splat
// i8x16.popcnt). WebAssembly.validate accepts it only where wasm SIMD (simd128) is supported.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

// (func (param i64 i64) (result i64) local.get 0 local.get 1 i64.mul_wide_u local.get 0
// local.get 1 i64.add128 drop): both instructions the 'wide' variant uses; validates only where
// the wide-arithmetic proposal is on.
const WIDE_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 7, 1, 96, 2, 126, 126, 1, 126, 3, 2, 1, 0,
  10, 17, 1, 15, 0, 32, 0, 32, 1, 252, 22, 32, 0, 32, 1, 252, 19, 26, 11,
]);

/**
 * Whether this engine runs wasm SIMD, i.e. whether the 'simd' variant can load (otherwise use
 * 'scalar': Safari < 16.4).
 * @returns {boolean}
 */
export function simdSupported() {
  return WebAssembly.validate(SIMD_PROBE);
}

/**
 * Whether this engine runs wasm SIMD and the wide-arithmetic proposal, i.e. whether the 'wide'
 * variant can load.
 * @returns {boolean}
 */
export function wideArithmeticSupported() {
  return WebAssembly.validate(WIDE_PROBE) && simdSupported();
}

/**
 * The fastest variant this engine runs: 'wide' where it has wide arithmetic (and SIMD), else
 * 'simd' where it has SIMD, else 'scalar'.
 * @returns {'wide'|'simd'|'scalar'}
 */
export function bestVariant() {
  if (wideArithmeticSupported()) return WIDE_VARIANT;
  return simdSupported() ? 'simd' : 'scalar';
}

/**
 * Checks that this engine runs `variant` before a loader fetches or compiles it: 'wide' needs
 * wide arithmetic (and SIMD).
 * @param {string} variant a checked variant name
 * @param {string} [engine] names the engine in the message (e.g. "Node 20.20.2, V8 11.3")
 * @throws Error saying what the variant needs and which variants to use instead.
 */
export function checkHostRuns(variant, engine = 'this engine') {
  if (variant === WIDE_VARIANT && !wideArithmeticSupported()) {
    throw new Error(`the wasm variant "${WIDE_VARIANT}" needs wasm wide arithmetic (i64.mul_wide_u, i64.add128), which ${engine} ` +
      'does not run (Firefox 155 and later do; Chromium only with --js-flags=--wasm-wide-arithmetic); use "simd" or "scalar"');
  }
}

/**
 * Checks a variant name before a loader touches the build.
 * @param {string} variant
 * @throws Error naming the variant and the known ones when it is not in ALL_VARIANTS.
 */
export function checkVariant(variant) {
  if (!ALL_VARIANTS.includes(variant)) {
    throw new Error(`unknown wasm variant "${variant}" (expected one of: ${ALL_VARIANTS.join(', ')})`);
  }
}
