// What the page runs on: the browser, its core count, cross-origin isolation and WebAssembly
// SIMD, for the environment strip, the `machine` entry of the result document (the same
// fields as Node's bench/shared/machine.mjs) and the page-only `environment` entry.
import { simdSupported, wideArithmeticSupported } from '../wasm/engine-web.mjs';

/** The browser's name and version from User-Agent Client Hints, else the user-agent string. */
function browserName() {
  const brands = navigator.userAgentData?.brands?.filter((b) => !/not.?a.?brand/i.test(b.brand));
  const brand = brands?.find((b) => /chrom|edge|opera/i.test(b.brand) && b.brand !== 'Chromium') ?? brands?.[0];
  if (brand) return `${brand.brand} ${brand.version}`;
  const m = /(Firefox|Edg|Chrome|Version)\/([\d.]+)/.exec(navigator.userAgent);
  if (!m) return navigator.userAgent;
  const name = { Edg: 'Edge', Version: 'Safari' }[m[1]] ?? m[1];
  return `${name} ${m[2].split('.')[0]}`;
}

/**
 * The page's environment.
 * @returns {{browser: string, user_agent: string, hardware_concurrency: number,
 *   cross_origin_isolated: boolean, simd: boolean, wide_arithmetic: boolean, shared_array_buffer: boolean}}
 *   hardware_concurrency: navigator.hardwareConcurrency (logical cores the browser reports, at
 *   least 1); simd: WebAssembly SIMD validates here (wasm/engine-web.mjs simdSupported);
 *   wide_arithmetic: so do SIMD and the wide-arithmetic proposal, which the 'wide' variant needs
 *   (wideArithmeticSupported).
 */
export function detectEnvironment() {
  return {
    browser: browserName(),
    user_agent: navigator.userAgent,
    hardware_concurrency: Math.max(1, navigator.hardwareConcurrency || 1),
    cross_origin_isolated: globalThis.crossOriginIsolated === true,
    simd: simdSupported(),
    wide_arithmetic: wideArithmeticSupported(),
    shared_array_buffer: typeof SharedArrayBuffer === 'function',
  };
}

/**
 * The result document's `machine` entry for the page: Node's fields (bench/shared/machine.mjs), with
 * what a browser cannot tell as null, plus `browser`.
 * @param {ReturnType<typeof detectEnvironment>} env
 * @param {object} [engineInfo] the wasm module's engineInfo() (wasm/API.md)
 * @returns {{cpu: null, cpu_model: null, cpu_detail: null, cores: number, platform: string, arch: null,
 *   node: null, v8: null, emcc: string|null, emcc_source: 'build stamp'|null, browser: string}}
 */
export function machineOf(env, engineInfo = {}) {
  const emcc = engineInfo.emcc ?? engineInfo.emscripten ?? null;
  return {
    cpu: null,
    cpu_model: null,
    cpu_detail: null,
    cores: env.hardware_concurrency,
    platform: navigator.userAgentData?.platform ?? navigator.platform ?? null,
    arch: null,
    node: null,
    v8: null,
    emcc,
    emcc_source: emcc ? 'build stamp' : null,
    browser: env.browser,
  };
}
