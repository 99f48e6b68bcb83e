// Evaluates the pre-registered targets of bench/compare/thresholds.json against one run of
// `npm run bench`. Read-only: the file is never written.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Path of the thresholds file. */
export const THRESHOLDS_FILE = fileURLToPath(new URL('./thresholds.json', import.meta.url));

const best = (rows) => rows.reduce((a, b) => (b.sig_per_s > (a?.sig_per_s ?? -1) ? b : a), null);

/** The metrics the thresholds name, from the run's results; null (with a reason) when absent. */
function metrics({ speed, sizes, startup, engines = {}, whole_block: wholeBlock }) {
  const ecdsa = speed.filter((r) => r.type === 'ecdsa');
  const wasm = ecdsa.filter((r) => r.kind === 'wasm' && r.window === 15);
  const top = best(wasm);
  const peer = (name) => ecdsa.find((r) => r.name === name);
  const dropIn = ecdsa.find((r) => r.kind === 'drop-in');
  const ratio = (other, what) => (top && other ? { value: top.sig_per_s / other.sig_per_s } : { value: null, note: `${what} not measured` });
  const sweep = top ? wasm.filter((r) => r.variant === top.variant) : [];
  const at256 = sweep.find((r) => r.batch_size === 256);
  const largest = sweep.reduce((a, b) => (b.batch_size > (a?.batch_size ?? 0) ? b : a), null);
  const shipped = sizes.filter((s) => s.window === 15 && s.gzip);
  const cold = startup.node_cold_start?.find((s) => s.variant === 'simd');
  // Whole blocks: x_native_all is native's median pass time over the variant's (whole-block.mjs).
  const blocksVsNative = (wholeBlock?.contenders ?? []).filter((c) => c.kind === 'wasm' && c.x_native_all !== null)
    .reduce((a, c) => (c.x_native_all > (a?.x_native_all ?? -1) ? c : a), null);
  // Schnorr: the fastest wasm pass (its Schnorr records batch-verified at batch sizes >= 4)
  // over native single verification (ibd_verify_checks --batch 1).
  const schnorr = speed.filter((r) => r.type === 'schnorr');
  const schnorrTop = best(schnorr.filter((r) => r.kind === 'wasm' && r.window === 15));
  const schnorrSingle = schnorr.find((r) => r.kind === 'native' && r.batch_size === 1);
  const variantTop = (variant) => best(wasm.filter((r) => r.variant === variant));
  const simdTop = variantTop('simd');
  const scalarTop = variantTop('scalar');
  const chromiumCold = startup.chromium_cold_start?.find((s) => s.variant === 'simd');
  const chromiumColdModules = startup.chromium_cold_start_modules?.find((s) => s.variant === 'simd');
  const chromiumWorker = startup.chromium_worker_startup?.find((s) => s.variant === 'simd');
  const chromiumWorkerOwn = startup.chromium_worker_startup_own_compile?.find((s) => s.variant === 'simd');
  // The wide variant runs only where the host has wasm wide arithmetic (in this run: Chromium
  // with a flag), so the targets read the default engines; its ratio is given in their notes.
  const wide = ecdsa.find((r) => r.kind === 'chromium-worker' && r.variant === 'wide');
  const wideNote = (metric, other) => (metric.value === null || !wide || !other ? metric
    : { ...metric, note: `${metric.note ? `${metric.note}; ` : ''}the wide variant (wasm wide arithmetic, in Chromium with --wasm-wide-arithmetic, batch ${wide.batch_size}): ${(wide.sig_per_s / other.sig_per_s).toFixed(2)}x` });
  const native = ecdsa.find((r) => r.kind === 'native' && r.batch_size === null);
  return {
    wasm_ecdsa_vs_native: wideNote(withStock(ratio(native, 'native ibd_verify_checks'),
      top, ecdsa.find((r) => r.kind === 'native-stock')), native),
    wasm_ecdsa_vs_tiny_secp256k1: wideNote(ratio(peer('tiny-secp256k1'), 'tiny-secp256k1'), peer('tiny-secp256k1')),
    wasm_ecdsa_vs_noble_secp256k1: ratio(peer('@noble/secp256k1'), '@noble/secp256k1'),
    drop_in_vs_tiny_secp256k1: dropIn && peer('tiny-secp256k1')
      ? { value: dropIn.sig_per_s / peer('tiny-secp256k1').sig_per_s, note: 'ECDSA, a call per signature each' }
      : { value: null, note: 'the drop-in and tiny-secp256k1 not both measured' },
    batch_overhead_at_256: at256 && largest && largest.batch_size > 256
      ? { value: (largest.sig_per_s / at256.sig_per_s - 1) * 100, note: `${top.variant}: batch 256 vs batch ${largest.batch_size}` }
      : { value: null, note: 'batch 256 and a larger batch not both measured' },
    wasm_gzip_bytes: shipped.length ? { value: Math.max(...shipped.map((s) => s.gzip)) } : { value: null, note: 'no wasm build measured' },
    wasm_whole_block_vs_native: blocksVsNative
      ? { value: blocksVsNative.x_native_all, note: `${blocksVsNative.name}, ${wholeBlock.sets.all.blocks} blocks, ${wholeBlock.mode} run` }
      : { value: null, note: 'whole-block validation of ibd-wasm and native not both measured' },
    node_cold_start_ms: cold ? { value: cold.total_ms } : { value: null, note: 'cold start not measured' },
    wasm_schnorr_batched_vs_native_single: schnorrTop && schnorrSingle
      ? { value: schnorrTop.sig_per_s / schnorrSingle.sig_per_s,
        note: `${schnorrTop.name}, batch ${schnorrTop.batch_size}; the fixtures' Schnorr checks share keys (block 866,342's 2,375 are under 444), ` +
          'and a batch verifies each key once: npm run bench:schnorr-batch -- --one-per-key measures it without that reuse' }
      : { value: null, note: 'wasm Schnorr and native single verification not both measured' },
    simd_vs_scalar: simdTop && scalarTop
      ? { value: simdTop.sig_per_s / scalarTop.sig_per_s, note: 'ECDSA, best batch size of each' }
      : { value: null, note: 'simd and scalar not both measured' },
    chromium_worker_vs_node: chromiumWorkerVsNode(engines),
    // The page loads the engine's bundled browser entry (/dist/engine-web.mjs), as a production
    // page's bundler serves it; the modules as written beside it.
    chromium_cold_start_ms: chromiumCold
      ? { value: chromiumCold.total_ms, note: `through the bundled entry${chromiumColdModules ? `; the modules as written: ${chromiumColdModules.total_ms.toFixed(1)} ms` : ''}` }
      : { value: null, note: 'Chromium cold start not measured' },
    // The page's worker as its pool starts it: given the module the page compiled once for all
    // its workers (workers/web-host.mjs compileOnce); the worker compiling its own beside it.
    chromium_worker_startup_ms: chromiumWorker
      ? { value: chromiumWorker.ms, note: `given the page's compiled module, as the page's pool starts workers${chromiumWorkerOwn ? `; compiling its own: ${chromiumWorkerOwn.ms.toFixed(1)} ms` : ''}` }
      : { value: null, note: 'Chromium worker start-up not measured' },
  };
}

/** The metric with, in its note, the best wasm rate over stock native libsecp256k1's
 *  (ibd_verify_checks --stock: no key cache, no key tables), which the engine's native build
 *  outruns by what those additions buy both builds. */
function withStock(metric, top, stock) {
  if (metric.value === null || !top || !stock) return metric;
  return { ...metric, note: `the native build of the same engine; against stock libsecp256k1 as Core calls it (ibd_verify_checks --stock): ${(top.sig_per_s / stock.sig_per_s).toFixed(2)}x` };
}

/** Chromium's Web Worker rate over Node's (V8 default tiers), the same wasm at the same batch
 *  size in the same run: the lower of the variants' ECDSA ratios. */
function chromiumWorkerVsNode(engines) {
  const rows = (name) => (engines[name] ?? []).filter((r) => r.type === 'ecdsa');
  const worker = rows('chromium_worker');
  const node = rows('v8_default');
  const ratios = worker.map((w) => {
    const n = node.find((x) => x.variant === w.variant);
    return n ? { variant: w.variant, value: w.sig_per_s / n.sig_per_s } : null;
  }).filter(Boolean);
  if (!ratios.length) return { value: null, note: 'Chromium in a Web Worker and Node not both measured' };
  const low = ratios.reduce((a, b) => (b.value < a.value ? b : a));
  return { value: low.value, note: `ECDSA, ${low.variant} (the lower of ${ratios.map((r) => `${r.variant} ${r.value.toFixed(2)}x`).join(', ')})` };
}

/**
 * @param {{speed: object[], sizes: object[], startup: object, engines?: object, whole_block: object|null}} results
 *   this run's results (bench/compare/compare.mjs document parts; whole_block: whole-block.mjs
 *   runWholeBlock's, null when that part failed)
 * @returns {Array<{name: string, description: string, op: string, target: number, unit: string,
 *   measured: number|null, pass: boolean, note?: string}>} a threshold that could not be
 *   measured fails, with a note saying why.
 * @throws Error when thresholds.json is unreadable or names an unknown metric.
 */
export function evaluateThresholds(results) {
  const { thresholds } = JSON.parse(readFileSync(THRESHOLDS_FILE, 'utf8'));
  const m = metrics(results);
  return thresholds.map((t) => {
    const metric = t.metric ?? t.name; // several thresholds (issues) may target one metric
    if (!(metric in m)) throw new Error(`${THRESHOLDS_FILE}: unknown metric "${metric}" (threshold "${t.name}")`);
    const { value, note } = m[metric];
    const pass = value !== null && (t.op === '>=' ? value >= t.target : value <= t.target);
    return { ...t, measured: value, pass, ...(note ? { note } : {}) };
  });
}
