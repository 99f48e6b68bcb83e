// The same projection for other engines on this machine: what wasm, SIMD, batching, the
// browser and a native build each buy. Each contender is ibd-wasm's measured costs
// (model-projection.mjs) with the part it changes scaled by how it compares with ibd-wasm simd
// within one `npm run bench` run (bench/compare/results/latest.json: one core, the same fixture
// checks; ratios within one run, never rates across runs):
//   - signature verification only (tiny-secp256k1 and @noble/secp256k1 per call, ibd-wasm in a
//     Chromium Web Worker, the scalar variant, Schnorr checks verified one at a time): the verify
//     costs times ibd-wasm simd's rate over the contender's, ECDSA and Schnorr apart; parse,
//     sighash and script stay ibd-wasm's (those libraries verify signatures; a node built on
//     them needs the rest from somewhere);
//   - the native build (a stand-in for Bitcoin Core's own script and signature work): every
//     stage times the whole-block ratio of native to ibd-wasm time, the same blocks, one core.
// Host-neutral.
import { ASSUMEVALID, spanHours } from './model-projection.mjs';

/** `base` (projectChain's costs: {median, fast, slow}) with its verify costs times the ECDSA and
 *  Schnorr ratios. */
function verifyScaled(base, ratio) {
  const set = (c) => ({ ...c, verify: { per_ecdsa: c.verify.per_ecdsa * ratio.ecdsa, per_schnorr: c.verify.per_schnorr * ratio.schnorr } });
  return { median: set(base.median), fast: set(base.fast), slow: set(base.slow) };
}

/** Every cost of `costs` times `f`. */
const scaleAll = (costs, f) => Object.fromEntries(Object.entries(costs).map(([stage, c]) =>
  [stage, Object.fromEntries(Object.entries(c).map(([k, v]) => [k, v * f]))]));

/**
 * The contenders' cost sets.
 * @param {{median, fast, slow}} costs ibd-wasm simd's, as measured (projectChain's costs)
 * @param {object} ratios per contender key (chromium_worker, scalar, no_batch, tiny, noble):
 *   {ecdsa, schnorr}, ibd-wasm simd's verify rate over the contender's in one bench run (> 1:
 *   the contender is slower); native_whole_block: native time over ibd-wasm's for whole blocks
 * @param {{measuredOn?: string, variant?: string}} [options] variant: the wasm variant `costs`
 *   were measured with (default 'simd'). The ratios are relative to simd, so for another variant
 *   the contenders are derived from its costs converted to simd's by the bench run's ratio of
 *   that variant (`scalar`, `wide`), and its own contender is left out; without that ratio only
 *   the measured curve is given. measuredOn: where `costs` were measured: 'node' (default: Node
 *   worker_threads; the Chromium Web Worker contender is derived from the bench run's Chromium
 *   over Node ratio), or a browser's name (the page: "Chromium 156", "Firefox 133"), whose Web
 *   Workers the measured contender is named after. In a Chromium-based browser (Chrome, Edge,
 *   Opera, Brave: their names matched) the derived contender is Node
 *   worker_threads instead, at the inverse ratio; in another browser neither is derived (the
 *   bench run measured Chromium only).
 * @returns {Array<{key: string, name: string, costs: {median, fast, slow}, derivation: string}>}
 *   ibd-wasm as measured first, then each contender whose ratios are given
 */
export function contenderCosts(measured, ratios, { measuredOn = 'node', variant = 'simd' } = {}) {
  const inNode = measuredOn === 'node';
  const inChromium = !inNode && /chrom|edge|opera|brave/i.test(measuredOn); // V8 in Chromium's Web Workers
  const host = inNode ? 'Node worker_threads' : `${measuredOn} Web Workers`;
  const out = [{ key: 'ibd-wasm', name: `ibd-wasm ${variant}, ${host} (measured)`, costs: measured, derivation: 'the cost model as measured' }];
  const invert = (r) => r && { ecdsa: 1 / r.ecdsa, schnorr: 1 / r.schnorr };
  if (variant !== 'simd' && !ratios[variant]) return out; // nothing relates this variant to the ratios' simd
  // simd's costs: the measured ones, or another variant's with its verify costs at simd's rates.
  const costs = variant === 'simd' ? measured : verifyScaled(measured, invert(ratios[variant]));
  // The wide variant runs in browsers only (Node 20 lacks the proposal) and its ratio is to simd
  // in the same Chromium Web Worker: from Node's costs it is reached through Chromium's ratio to
  // Node as well, so that the line is wide in a Chromium Web Worker, not wide at Node's speed.
  // Without that ratio there is no wide line from Node's costs.
  const wideViaChromium = inNode && ratios.wide && ratios.chromium_worker;
  const rates = { ...ratios, chromium_worker: inNode ? ratios.chromium_worker : undefined,
    node_worker: inChromium ? invert(ratios.chromium_worker) : undefined,
    wide: !inNode ? ratios.wide
      : wideViaChromium ? { ecdsa: ratios.wide.ecdsa * ratios.chromium_worker.ecdsa, schnorr: ratios.wide.schnorr * ratios.chromium_worker.schnorr } : undefined };
  const verifyOnly = [
    ['chromium_worker', 'ibd-wasm simd, Chromium Web Workers', 'verify at the Chromium Web Worker\'s rates relative to Node\'s'],
    ['node_worker', 'ibd-wasm simd, Node worker_threads', 'verify at Node\'s rates relative to the Chromium Web Worker\'s'],
    ['wide', `ibd-wasm wide${wideViaChromium ? ', Chromium Web Workers' : ''} (wasm wide arithmetic: Firefox 155+, Chromium with a flag)`,
      `verify at the wide variant's rates relative to simd's, both in one Chromium Web Worker with --wasm-wide-arithmetic` +
      (wideViaChromium ? ', times the Chromium Web Worker\'s relative to Node\'s' : '')],
    ['scalar', 'ibd-wasm scalar (no SIMD)', 'verify at the scalar variant\'s rates'],
    ['no_batch', 'ibd-wasm simd, Schnorr checks one at a time', 'verify at single verification\'s rates (no BIP340 batch; ECDSA at batch size 1 too)'],
    ['tiny', 'tiny-secp256k1 per call', 'verify at tiny-secp256k1\'s rates, a call per signature; the rest ibd-wasm\'s'],
    ['noble', '@noble/secp256k1 (pure JS)', 'verify at @noble/secp256k1\'s rates; the rest ibd-wasm\'s'],
  ];
  for (const [key, name, derivation] of verifyOnly) {
    if (key === variant) continue; // the measured curve
    const r = rates[key];
    if (r) out.push({ key, name, costs: verifyScaled(costs, r), derivation: `${derivation} (x${r.ecdsa.toFixed(2)} ECDSA, x${r.schnorr.toFixed(2)} Schnorr)` });
  }
  const n = ratios.native_whole_block;
  if (n) {
    out.push({
      key: 'native',
      name: 'native build of the same engine (a stand-in for Core\'s script and signature work)',
      costs: { median: scaleAll(costs.median, n), fast: scaleAll(costs.fast, n), slow: scaleAll(costs.slow, n) },
      derivation: `every stage at ${n.toFixed(2)}x ibd-wasm's time: native whole-block time over ibd-wasm's, the same blocks, one core`,
    });
  }
  return out;
}

/** Published full-validation times of Bitcoin Core, as reference points: with their source and
 *  hardware, never measured here. */
export const PUBLISHED = Object.freeze([
  { name: 'Bitcoin Core 26, full sync to block 819,000 (Jameson Lopp, 2023)', to: 819000, hours: 8 + 38 / 60,
    hardware: 'Intel i7-8700 (6 cores, 12 threads)', source: 'Jameson Lopp\'s 2023 Bitcoin full-node sync tests: a whole sync, download and the UTXO set included' },
  { name: 'Bitcoin Core 31.1, blocks 0-150,000 from a local peer, assumevalid off', to: 150000, hours: 73.46 / 3600,
    hardware: '32-CPU Xeon Gold 6138', source: '../shared/chain-workload/input_mix.md section 1 (gosuda/bitcoin-rs census, 2026-08): median 73.46 s' },
]);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * The ratios, from a bench results document.
 * @param {object} doc bench/compare/results/latest.json's content
 * @returns {{ratios: object, run: {generated_at: string, command: string, machine: object},
 *   missing: string[]}} ratios for contenderCosts (bench/core/contenders.mjs); missing: the
 *   contenders the run lacks, or whose rates are not positive numbers
 * @throws {Error} when `doc` is no bench results document
 */
export function benchRatios(doc) {
  if (!doc || typeof doc !== 'object' || !doc.results || typeof doc.results !== 'object' || !Array.isArray(doc.results.speed)) {
    throw new Error('not a bench results document (npm run bench -- --readme writes one): no results.speed array');
  }
  const speed = doc.results.speed;
  const best = (name, type, pick = () => true) => Math.max(0, ...speed.filter((x) => x?.name === name && x.type === type && pick(x))
    .map((x) => (Number.isFinite(x.sig_per_s) ? x.sig_per_s : 0)));
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
  // The wide variant: only where the run had a browser with wasm wide arithmetic (npm run bench
  // launches Chromium with --wasm-wide-arithmetic), against simd in the same Web Worker; optional,
  // so not listed as missing.
  const inWorker = (v, type) => best(`ibd-wasm ${v}, Chromium Web Worker`, type, (x) => x.kind === 'chromium-worker');
  const wide = { ecdsa: inWorker('wide', 'ecdsa'), schnorr: inWorker('wide', 'schnorr') };
  const simdWorker = { ecdsa: inWorker('simd', 'ecdsa'), schnorr: inWorker('simd', 'schnorr') };
  if (wide.ecdsa > 0 && wide.schnorr > 0 && simdWorker.ecdsa > 0 && simdWorker.schnorr > 0) {
    ratios.wide = { ecdsa: simdWorker.ecdsa / wide.ecdsa, schnorr: simdWorker.schnorr / wide.schnorr };
  }
  vs('no_batch', { ecdsa: best('ibd-wasm simd', 'ecdsa', (x) => x.batch_size === 1), schnorr: best('ibd-wasm simd', 'schnorr', (x) => x.batch_size === 1) });
  vs('tiny', { ecdsa: best('tiny-secp256k1', 'ecdsa'), schnorr: best('tiny-secp256k1', 'schnorr') });
  vs('noble', { ecdsa: best('@noble/secp256k1', 'ecdsa'), schnorr: best('@noble/secp256k1', 'schnorr') });
  // The browser: Chromium's Web Worker against Node's V8 in the same harness (engine passes).
  const engines = doc.results?.engines ?? {};
  const rate = (list, type) => (Array.isArray(list) ? list.find((x) => x.variant === 'simd' && x.type === type)?.sig_per_s ?? 0 : 0);
  const node = { ecdsa: rate(engines.v8_default, 'ecdsa'), schnorr: rate(engines.v8_default, 'schnorr') };
  const chromium = { ecdsa: rate(engines.chromium_worker, 'ecdsa'), schnorr: rate(engines.chromium_worker, 'schnorr') };
  if (node.ecdsa > 0 && node.schnorr > 0 && chromium.ecdsa > 0 && chromium.schnorr > 0) {
    ratios.chromium_worker = { ecdsa: node.ecdsa / chromium.ecdsa, schnorr: node.schnorr / chromium.schnorr };
  } else {
    missing.push('chromium_worker');
  }
  // Native whole blocks: the sum of per-block medians over the blocks both ran.
  const contenders = Array.isArray(doc.results.whole_block?.contenders) ? doc.results.whole_block.contenders : [];
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
 * Every contender's projection on the projection's workers and pool efficiency: the whole
 * chain, after assumevalid, and the cumulative hours over block height (the page's chart).
 * @param {object} p projectChain's result (its costs, workers and efficiency)
 * @param {object} table workloadFor's model (the saved workload table)
 * @param {object} ratios benchRatios' ratios
 * @param {{step?: number, measuredOn?: string, variant?: string}} [options] the curve's spacing in
 *   blocks (default 25,000; the tip last); measuredOn, variant: as contenderCosts'
 * @returns {Array<{key, name, derivation, full_chain_hours, after_assumevalid_hours,
 *   curve: Array<{height: number, hours: number, low: number, high: number}>}>}
 */
export function projectContenders(p, table, ratios, { step = 25000, measuredOn = 'node', variant = 'simd' } = {}) {
  const heights = [];
  for (let h = step; h < table.tip; h += step) heights.push(h);
  heights.push(table.tip);
  const at = (costs, from, to) => spanHours({ costs, table, efficiency: p.efficiency, workers: p.workers, from, to });
  return contenderCosts(p.costs, ratios, { measuredOn, variant }).map((c) => ({
    key: c.key, name: c.name, derivation: c.derivation,
    full_chain_hours: at(c.costs, 0, table.tip),
    after_assumevalid_hours: at(c.costs, ASSUMEVALID.height + 1, table.tip),
    curve: heights.map((h) => {
      const x = at(c.costs, 0, h);
      return { height: h, hours: x.value, low: x.low, high: x.high };
    }),
  }));
}
