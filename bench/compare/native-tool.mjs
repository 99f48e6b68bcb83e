// The native contender of `npm run bench`: the native build of the same libsecp256k1 through
// the tool ibd_verify_checks (bench/native/, built into build/native), on the same check-set
// file the wasm contenders verify. (ibd-wasm: bench/core/wasm-pass.mjs; peers: bench/compare/peers/.)
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { NATIVE_TOOLS } from '../../wasm/paths.mjs';

/** The native tool's path (build/native/bench/native/ibd_verify_checks), or null when it is not built. */
export function nativeTool() {
  return existsSync(NATIVE_TOOLS.verifyChecks) ? NATIVE_TOOLS.verifyChecks : null;
}

/** SHA-256 (hex) of verdict bytes: what ibd_verify_checks prints as verdicts_sha256. */
export const verdictsSha256 = (verdicts) => createHash('sha256').update(verdicts).digest('hex');

/**
 * One native pass: `ibd_verify_checks FILE --rounds 1 [...extra]` (one thread, timed inside the
 * tool, so process start-up and file reading are excluded).
 * @param {string} tool nativeTool()
 * @param {string} file the check set's file (the same bytes the wasm contenders verify)
 * @param {string[]} [extra] more arguments: `['--batch', '1']` verifies each check in its own
 *   VerifyBatch call (single verification; by default the whole file is one call, which
 *   batch-verifies its Schnorr records)
 * @returns {Promise<{seconds: number, count: number, valid: number, verdictsSha256: string}>}
 * @throws (rejects) Error with the tool's stderr when it fails or prints no JSON line.
 */
export async function nativePass(tool, file, extra = []) {
  const { stdout } = await promisify(execFile)(tool, [file, '--rounds', '1', ...extra], { timeout: 600_000 }).catch((err) => {
    throw new Error(`${tool} failed: ${err.stderr || err.message}`);
  });
  const line = stdout.trim().split('\n').pop();
  let doc;
  try { doc = JSON.parse(line); } catch { throw new Error(`${tool} printed no JSON line: ${stdout.slice(0, 300)}`); }
  return { seconds: doc.seconds[0], count: doc.count, valid: doc.valid, verdictsSha256: doc.verdicts_sha256 };
}
