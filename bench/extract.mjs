// Phase 1 of the benchmark: each loaded fixture block through the engine's extractBlock (parse,
// sighash, check records) on the main thread's wasm instance, timed per block.
import { performance } from 'node:perf_hooks';
import { walkChecks } from '../workers/job-buffer.mjs';
import { countOf } from './report.mjs';

/**
 * Extracts the signature checks of every block. One block's failure is its `error`; the
 * others still run. An exception out of extractBlock (a wasm trap or abort, after which an
 * Emscripten module is unusable) also replaces the engine with a fresh one from `reload`.
 * @param {() => Promise<object>} reload creates a wasm module (workers/engine.mjs loadEngine)
 * @param {Array} loaded entries from loadBlocks (blocks-fixtures/loader.mjs)
 * @param {(msg: string) => void} log progress sink: one summary line (blocks, checks, seconds)
 * @returns {Array<{height: number, hash: string|null, dir: string, inputs: number|null,
 *   txCount?: number, checks?: Uint8Array, origins?: Uint32Array, types?: Uint8Array,
 *   ecdsa?: number, schnorr?: number, inputsByType?: object, unsupportedByType?: object,
 *   parseMs?: number, error?: string}>} in `loaded` order; parseMs is extractBlock's wall
 *   time in ms (parse + sighash + record packing).
 */
export async function extractBlocks(reload, loaded, log) {
  let engine = await reload();
  const out = [];
  const t0 = performance.now();
  for (const b of loaded) {
    const result = extractOne(engine, b);
    out.push(result);
    if (result.threw) {
      delete result.threw;
      engine = await reload();
    }
  }
  const ok = out.filter((b) => !b.error);
  const checks = ok.reduce((n, b) => n + b.ecdsa + b.schnorr, 0);
  const failed = out.length - ok.length;
  log(`extracted ${countOf(ok.length, 'block')}, ${countOf(checks, 'check')} in ` +
    `${((performance.now() - t0) / 1000).toFixed(2)} s${failed ? ` (${failed} failed, listed at the end)` : ''}`);
  return out;
}

/** extractBlock on one loaded block; `threw` is set when the engine threw. */
function extractOne(engine, b) {
  const base = { height: b.height, hash: b.hash, dir: b.dir, inputs: b.inputs };
  if (b.error) return { ...base, error: b.error };
  const where = b.dir;
  const t0 = performance.now();
  let res;
  try {
    res = engine.extractBlock(b.block, b.spentOutputsJson, b.hash, b.height);
  } catch (err) {
    return { ...base, error: `${where}: extractBlock threw: ${err?.message ?? err}`, threw: true };
  }
  const parseMs = performance.now() - t0;
  if (!res.ok) return { ...base, error: `${where}: ${res.error}` };
  let walked;
  try {
    walked = walkChecks(res.checks);
  } catch (err) {
    return { ...base, error: `${where}: engine produced a malformed check buffer: ${err.message}` };
  }
  const problem = inconsistency(b, res, walked);
  if (problem) return { ...base, error: `${where}: engine output inconsistent: ${problem}` };
  return {
    ...base,
    inputs: res.inputs,
    txCount: res.txCount,
    checks: res.checks,
    origins: res.origins,
    types: walked.types,
    ecdsa: res.ecdsa,
    schnorr: res.schnorr,
    inputsByType: { ...res.inputsByType },
    unsupportedByType: { ...res.unsupportedByType },
    parseMs,
  };
}

/** Cross-checks extractBlock's result against the manifest and its own (walked) buffer;
 *  returns a description of the first disagreement, or null. */
function inconsistency(loadedBlock, res, walked) {
  if (res.hash !== loadedBlock.hash) return `hash ${res.hash}, manifest ${loadedBlock.hash}`;
  if (res.inputs !== loadedBlock.inputs) return `${res.inputs} inputs, manifest ${loadedBlock.inputs}`;
  if (walked.byType.ecdsa !== res.ecdsa || walked.byType.schnorr !== res.schnorr) {
    return `counts ecdsa ${res.ecdsa} / schnorr ${res.schnorr}, buffer holds ${walked.byType.ecdsa} / ${walked.byType.schnorr}`;
  }
  if (res.origins.length !== 2 * walked.count) return `${res.origins.length / 2} origins for ${walked.count} checks`;
  return null;
}
