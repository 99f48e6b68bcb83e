// The real signature checks the benchmarks verify: the FINAL checks of every fixture block
// (what Bitcoin Core performs, failed CHECKMULTISIG trials included), found by validating each
// block once, whole, in the pool's workers (bench/core/block-entries.mjs validateInWorkers),
// concatenated in block order.
import { concatChecks, walkChecks } from '../../wasm/check-buffer.mjs';
import { validateInWorkers } from '../core/block-entries.mjs';

/**
 * Validates the loaded fixture blocks in the workers and gathers the final checks of those that
 * validated.
 * @param {Array} loaded entries from loadBlocks (blocks-fixtures/loader.mjs)
 * @param {import('../../workers/verify-pool.mjs').VerifyPool} pool a ready pool (its workers
 *   validate the blocks; their wasm variant is the pool's)
 * @param {{log: (msg: string) => void}} options
 * @returns {Promise<{ok: object[], failed: object[], checks: Uint8Array, verdicts: Uint8Array,
 *   count: number}>} ok / failed: validateInWorkers entries of the blocks that validated /
 *   failed (with `error`); checks: the packed final records of the `ok` blocks
 *   (native/verify/check_buffer.h); verdicts: the workers' verdicts of them (1 valid, 0
 *   invalid), one byte per record; count: records.
 * @throws (rejects) Error when no block validated (nothing to verify), or what validateInWorkers
 *   rejects with (a worker failure).
 */
export async function fixtureChecks(loaded, pool, { log }) {
  const { entries } = await validateInWorkers(pool, loaded, { log });
  const failed = entries.filter((b) => b.error);
  const ok = entries.filter((b) => !b.error);
  if (ok.length === 0) throw new Error('no block validated: nothing to verify');
  const checks = concatChecks(ok.map((b) => b.checks));
  return { ok, failed, checks, verdicts: concatChecks(ok.map((b) => b.verdicts)), count: walkChecks(checks).count };
}
