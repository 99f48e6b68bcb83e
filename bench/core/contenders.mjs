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
 * @returns {Array<{key: string, name: string, costs: {median, fast, slow}, derivation: string}>}
 *   ibd-wasm as measured first, then each contender whose ratios are given
 */
export function contenderCosts(costs, ratios) {
  const out = [{ key: 'ibd-wasm', name: 'ibd-wasm simd, Node worker_threads (measured)', costs, derivation: 'the cost model as measured' }];
  const verifyOnly = [
    ['chromium_worker', 'ibd-wasm simd, Chromium Web Workers', 'verify at the Chromium Web Worker\'s rates relative to Node\'s'],
    ['scalar', 'ibd-wasm scalar (no SIMD)', 'verify at the scalar variant\'s rates'],
    ['no_batch', 'ibd-wasm simd, Schnorr checks one at a time', 'verify at single verification\'s rates (no BIP340 batch)'],
    ['tiny', 'tiny-secp256k1 per call', 'verify at tiny-secp256k1\'s rates, a call per signature; the rest ibd-wasm\'s'],
    ['noble', '@noble/secp256k1 (pure JS)', 'verify at @noble/secp256k1\'s rates; the rest ibd-wasm\'s'],
  ];
  for (const [key, name, derivation] of verifyOnly) {
    const r = ratios[key];
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
    hardware: 'Intel i7-8700 (6 cores, 12 threads)', source: 'Jameson Lopp, 2023 full-node sync tests (as the projection issue cites them): a sync, download and UTXO set included' },
  { name: 'Bitcoin Core 31.1, blocks 0-150,000 from a local peer, assumevalid off', to: 150000, hours: 73.46 / 3600,
    hardware: '32-CPU Xeon Gold 6138', source: '../shared/chain-workload/input_mix.md section 1 (gosuda/bitcoin-rs census, 2026-08): median 73.46 s' },
]);
