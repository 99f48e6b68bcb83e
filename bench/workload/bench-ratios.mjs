// How each contender compares with ibd-wasm simd within the last `npm run bench -- --readme` run
// (bench/compare/results/latest.json, docs/performance.md): the ratios bench/core/contenders.mjs
// turns into their projections. Every ratio is within that one run, on one core and the same
// fixture checks or blocks.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../wasm/paths.mjs';

/** The saved run of `npm run bench -- --readme`. */
export const BENCH_RESULTS = path.join(REPO_ROOT, 'bench', 'compare', 'results', 'latest.json');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * The ratios, from a bench results document.
 * @param {object} doc bench/compare/results/latest.json's content
 * @returns {{ratios: object, run: {generated_at: string, command: string, machine: object},
 *   missing: string[]}} ratios for contenderCosts (bench/core/contenders.mjs); missing: the
 *   contenders the run lacks
 */
export function benchRatios(doc) {
  const speed = doc.results?.speed ?? [];
  const best = (name, type, pick = () => true) => Math.max(0, ...speed.filter((x) => x.name === name && x.type === type && pick(x)).map((x) => x.sig_per_s));
  const simd = { ecdsa: best('ibd-wasm simd', 'ecdsa'), schnorr: best('ibd-wasm simd', 'schnorr') };
  const ratios = {};
  const missing = [];
  const vs = (key, rates) => {
    if (rates.ecdsa > 0 && rates.schnorr > 0 && simd.ecdsa > 0 && simd.schnorr > 0) {
      ratios[key] = { ecdsa: simd.ecdsa / rates.ecdsa, schnorr: simd.schnorr / rates.schnorr };
    } else {
      missing.push(key);
    }
  };
  vs('scalar', { ecdsa: best('ibd-wasm scalar', 'ecdsa'), schnorr: best('ibd-wasm scalar', 'schnorr') });
  vs('no_batch', { ecdsa: best('ibd-wasm simd', 'ecdsa', (x) => x.batch_size === 1), schnorr: best('ibd-wasm simd', 'schnorr', (x) => x.batch_size === 1) });
  vs('tiny', { ecdsa: best('tiny-secp256k1', 'ecdsa'), schnorr: best('tiny-secp256k1', 'schnorr') });
  vs('noble', { ecdsa: best('@noble/secp256k1', 'ecdsa'), schnorr: best('@noble/secp256k1', 'schnorr') });
  // The browser: Chromium's Web Worker against Node's V8 in the same harness (engine passes).
  const engines = doc.results?.engines ?? {};
  const rate = (list, type) => list?.find((x) => x.variant === 'simd' && x.type === type)?.sig_per_s ?? 0;
  const node = { ecdsa: rate(engines.v8_default, 'ecdsa'), schnorr: rate(engines.v8_default, 'schnorr') };
  const chromium = { ecdsa: rate(engines.chromium_worker, 'ecdsa'), schnorr: rate(engines.chromium_worker, 'schnorr') };
  if (node.ecdsa > 0 && node.schnorr > 0 && chromium.ecdsa > 0 && chromium.schnorr > 0) {
    ratios.chromium_worker = { ecdsa: node.ecdsa / chromium.ecdsa, schnorr: node.schnorr / chromium.schnorr };
  } else {
    missing.push('chromium_worker');
  }
  // Native whole blocks: the sum of per-block medians over the blocks both ran.
  const contenders = doc.results?.whole_block?.contenders ?? [];
  const wasm = contenders.find((c) => c.name === 'ibd-wasm simd');
  const native = contenders.find((c) => c.kind === 'native');
  if (wasm?.per_block && native?.per_block) {
    const nativeAt = new Map(native.per_block.map((b) => [b.height, median(b.seconds)]));
    const common = wasm.per_block.filter((b) => nativeAt.has(b.height));
    const w = common.reduce((n, b) => n + median(b.seconds), 0);
    const nat = common.reduce((n, b) => n + nativeAt.get(b.height), 0);
    if (w > 0 && nat > 0) ratios.native_whole_block = nat / w;
  }
  if (!ratios.native_whole_block) missing.push('native');
  return { ratios, run: { generated_at: doc.generated_at, command: doc.command, machine: doc.machine }, missing };
}

/**
 * The ratios of the saved bench run.
 * @throws {Error} naming the file when it cannot be read
 */
export function readBenchRatios(file = BENCH_RESULTS) {
  let doc;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read ${file} (npm run bench -- --readme writes it): ${err.message}`, { cause: err });
  }
  return benchRatios(doc);
}
