// Runs the native engine's dump tool (tests/native/dump_checks.cpp, built into
// build/native/tests/native/ibd_dump_checks) on one fixture block.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { NATIVE_TOOLS } from '../../wasm/paths.mjs';

/** Path of the native dump tool. */
export const DUMP_TOOL = NATIVE_TOOLS.dumpChecks;

/**
 * The native engine's check buffer and verdicts for one block, or for a range of its
 * transactions without the block rules (the tool's <tx_begin> <tx_end>: a worker's range job).
 * @param {{dir: string, hash: string}} block a loaded fixture block (blocks-fixtures/loader.mjs)
 * @param {{range?: [number, number]}} [options] range: [txBegin, txEnd)
 * @returns {Promise<{checks: Buffer, verdicts: Buffer, summary: string}>} summary: the tool's
 *   stdout (block, counts, verdict, "fee F subsidy S sigop_cost C", "reject 'R' stage 'S'",
 *   "not_checked rule ...")
 * @throws Error when the tool is missing (with the build command), fails (with its stderr), or
 *   runs over 120 s.
 */
export async function nativeDump(block, { range } = {}) {
  if (!existsSync(DUMP_TOOL)) {
    throw new Error(`${DUMP_TOOL} is missing; build it with \`node scripts/setup.mjs --only native\``);
  }
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'ibd-dump-'));
  try {
    const prefix = path.join(tmp, 'out');
    const { stdout } = await promisify(execFile)(DUMP_TOOL, [path.join(block.dir, 'block.raw'), path.join(block.dir, 'spent_outputs.json'), block.hash, String(block.height), prefix,
      ...(range ? range.map(String) : [])],
      { timeout: 120_000, maxBuffer: 16 << 20 }).catch((err) => {
      throw new Error(`ibd_dump_checks failed on ${block.dir}: ${err.stderr || err.message}`);
    });
    return { checks: await readFile(`${prefix}.checks`), verdicts: await readFile(`${prefix}.verdicts`), summary: stdout };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** Path of the native chain dump tool. */
export const DUMP_CHAIN_TOOL = NATIVE_TOOLS.dumpChain;

/**
 * The native engine's validation of a block file as a chain from genesis (tests/native/dump_chain.cpp).
 * @param {string} file path of the block file (magic, LE32 size, block per frame)
 * @param {{skipProofOfWork?: boolean}} [options]
 * @returns {Promise<object>} the tool's JSON document: {frames, not_validated, file_error, tip,
 *   blocks: [{height, hash, connected, valid, reject_reason, stage, message, tx, input, output,
 *   byte, checks (hex), verdicts (hex), origins, spent, not_checked, ...}]}
 * @throws Error when the tool is missing (with the build command) or fails (with its stderr).
 */
export async function nativeChainDump(file, { skipProofOfWork = false } = {}) {
  if (!existsSync(DUMP_CHAIN_TOOL)) {
    throw new Error(`${DUMP_CHAIN_TOOL} is missing; build it with \`node scripts/setup.mjs --only native\``);
  }
  const args = [file, ...(skipProofOfWork ? ['--skip-proof-of-work'] : [])];
  const { stdout } = await promisify(execFile)(DUMP_CHAIN_TOOL, args, { timeout: 120_000, maxBuffer: 64 << 20 }).catch((err) => {
    throw new Error(`ibd_dump_chain failed on ${file}: ${err.stderr || err.message}`);
  });
  return JSON.parse(stdout);
}
