// The check sets `npm run bench` times every contender on: real mainnet signature checks, the
// FINAL checks of the fixture blocks (bench/shared/fixture-checks.mjs), split by type (ECDSA, Schnorr)
// and optionally thinned to an evenly spaced sample, with the validation's verdicts beside them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fixturesDir, loadBlocks } from '../../blocks-fixtures/loader.mjs';
import { BUILD_DIR } from '../../wasm/paths.mjs';
import { CheckType, concatChecks, selectByType, walkChecks } from '../../wasm/check-buffer.mjs';
import { createPool } from '../../workers/pool.mjs';
import { fixtureChecks } from '../shared/fixture-checks.mjs';

/** Where each run writes its check sets for out-of-process contenders (native tool, child
 *  Node), in a folder of its own: runs at the same time must not read each other's sets. */
export const CHECKS_DIR = path.join(BUILD_DIR, 'bench');

/**
 * Picks `limit` records spread evenly over a one-type selection (all when limit >= count).
 * @returns {{checks: Uint8Array, walked: object, verdicts: Uint8Array}}
 */
function sample(selection, allWalked, allVerdicts, allChecks, limit) {
  const n = selection.indices.length;
  const take = Math.min(n, limit);
  const picked = Array.from({ length: take }, (_, j) => selection.indices[Math.floor((j * n) / take)]);
  const checks = concatChecks(picked.map((i) => allChecks.subarray(allWalked.offsets[i], allWalked.offsets[i + 1])));
  return { checks, walked: walkChecks(checks), verdicts: Uint8Array.from(picked, (i) => allVerdicts[i]) };
}

/**
 * Validates the fixture blocks once and returns the ECDSA and Schnorr check sets.
 * @param {{fixtures?: string, limits: {ecdsa: number, schnorr: number}, log: (m: string) => void}}
 *   options limits: records per type at most (Infinity: all)
 * @returns {Promise<{blocks: number, failedBlocks: string[], total: {ecdsa: number, schnorr: number},
 *   sets: {ecdsa: {checks: Uint8Array, walked: object, verdicts: Uint8Array, file: string},
 *          schnorr: {...}}, dispose: () => void}>} `verdicts`: the validation's verdict per
 *   record (1 valid, 0 invalid); `file`: the set written to CHECKS_DIR/run-XXXXXX/<type>.checks
 *   (same bytes as `checks`); dispose() deletes that folder.
 * @throws (rejects) Error when no block validates (fixtureChecks) or the wasm build is missing.
 */
export async function loadCheckSets({ fixtures, limits, log }) {
  const loaded = await loadBlocks(fixturesDir(fixtures));
  const pool = createPool({ variant: 'simd' });
  let all;
  try {
    await pool.ready();
    all = await fixtureChecks(loaded, pool, { log });
  } finally {
    await pool.close();
  }
  const walked = walkChecks(all.checks);
  mkdirSync(CHECKS_DIR, { recursive: true });
  const dir = mkdtempSync(path.join(CHECKS_DIR, 'run-'));
  const sets = {};
  for (const [name, type] of [['ecdsa', CheckType.ECDSA], ['schnorr', CheckType.SCHNORR]]) {
    const set = sample(selectByType(all.checks, walked, type), walked, all.verdicts, all.checks, limits[name]);
    set.file = path.join(dir, `${name}.checks`);
    writeFileSync(set.file, set.checks);
    sets[name] = set;
  }
  return {
    blocks: all.ok.length,
    failedBlocks: all.failed.map((b) => b.error),
    total: walked.byType,
    sets,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
