// The real signature checks the benchmarks verify: the FINAL checks of every fixture block
// (what Bitcoin Core performs, failed CHECKMULTISIG trials included), found by validating each
// block once (bench/core/validation-rounds.mjs validateBlocks), concatenated in block order.
import { loadEngine } from '../../wasm/engine.mjs';
import { concatChecks, walkChecks } from '../../wasm/check-buffer.mjs';
import { validateBlocks } from '../core/validation-rounds.mjs';

/**
 * Validates the loaded fixture blocks and gathers the final checks of those that validated.
 * @param {Array} loaded entries from loadBlocks (blocks-fixtures/loader.mjs)
 * @param {import('../../workers/verify-pool.mjs').VerifyPool} pool a ready pool (verifies each
 *   validation round)
 * @param {{variant: string, batchSize: number, log: (msg: string) => void}} options variant:
 *   the wasm build of the main thread's engine (wasm/variants.mjs VARIANTS); batchSize:
 *   records per worker message during validation
 * @returns {Promise<{ok: object[], failed: object[], checks: Uint8Array, verdicts: Uint8Array,
 *   count: number}>} ok / failed: validateBlocks entries of the blocks that validated / failed
 *   (with `error`); checks: the packed final records of the `ok` blocks (native/verify/check_buffer.h);
 *   verdicts: their validation verdicts (1 valid, 0 invalid), one byte per record; count: records.
 * @throws (rejects) Error when no block validated (nothing to verify), or what validateBlocks
 *   rejects with (no wasm build, a worker failure).
 */
export async function fixtureChecks(loaded, pool, { variant, batchSize, log }) {
  const validated = await validateBlocks(() => loadEngine(variant), loaded, pool, { batchSize, log });
  const failed = validated.filter((b) => b.error);
  const ok = validated.filter((b) => !b.error);
  if (ok.length === 0) throw new Error('no block validated: nothing to verify');
  const checks = concatChecks(ok.map((b) => b.checks));
  return { ok, failed, checks, verdicts: concatChecks(ok.map((b) => b.verdicts)), count: walkChecks(checks).count };
}
