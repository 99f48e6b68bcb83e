// What a validated block holds, as the workload table and the cost model count it: its
// transactions, inputs, signature checks by kind, sighash bytes by kind and bytes. Counted by the
// engine itself (validateBlock's result: its final checks and their origins, its coverage by
// script type and its sighash workload, wasm/API.md), never by a second parser.
//
// The census of a fixture folder (fixtureCensus) is saved as bench/workload/fixture-census.json
// by `npm run project -- --census` and read by the table (table.mjs); a test checks the saved
// file against the engine.
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { CheckType, walkChecks } from '../../wasm/check-buffer.mjs';
import { encodeSpentOutputs } from '../../wasm/spent-outputs.mjs';

/** Where the saved census lives. */
export const CENSUS_PATH = path.join(path.dirname(new URL(import.meta.url).pathname), 'fixture-census.json');

/** The block header's nTime (bytes 68..71, little-endian), unix seconds. */
export function headerTime(block) {
  return (block[68] | (block[69] << 8) | (block[70] << 16)) + block[71] * 2 ** 24;
}

/**
 * The workload of one validated block.
 * @param {object} result validateBlock's result (ok), or a merged one (workers/block-jobs.mjs)
 * @param {{height: number, block: Uint8Array}} block the block bytes it validated
 * @returns {{height: number, time: number, bytes: number, txs: number, inputs: number,
 *   checks: {ecdsa_single: number, ecdsa_multisig: number, schnorr_keypath: number,
 *   schnorr_scriptpath: number}, sighash_bytes: {legacy: number, bip143: number, bip341: number},
 *   sighashes: {legacy: number, bip143: number, bip341: number}}}
 *   checks: the final checks (as Core performs them); ecdsa_multisig counts the ECDSA checks of
 *   inputs that made more than one (OP_CHECKMULTISIG trials, or several OP_CHECKSIGs in one
 *   script), ecdsa_single those of inputs that made one; schnorr_keypath those of p2tr-keypath
 *   inputs, schnorr_scriptpath the other Schnorr checks (tapscript). sighash_bytes: message
 *   bytes (BIP143 and BIP341: with their per-transaction precomputation), bytes.
 * @throws {Error} naming the block when the result is a failure
 */
export function blockWorkload(result, block) {
  if (!result.ok) throw new Error(`block ${block.height}: ${result.error}`);
  const walked = walkChecks(result.checks);
  const ecdsaPerInput = new Map();
  for (let i = 0; i < walked.count; i++) {
    if (result.checks[walked.offsets[i]] !== CheckType.ECDSA) continue;
    const key = `${result.origins[2 * i]}:${result.origins[2 * i + 1]}`;
    ecdsaPerInput.set(key, (ecdsaPerInput.get(key) ?? 0) + 1);
  }
  let single = 0;
  let multisig = 0;
  for (const n of ecdsaPerInput.values()) {
    if (n === 1) single += 1;
    else multisig += n;
  }
  const keypath = result.coverage['p2tr-keypath']?.checks ?? 0;
  const s = result.sighash;
  return {
    height: block.height,
    time: headerTime(block.block),
    bytes: block.block.length,
    txs: result.txCount,
    inputs: result.inputs,
    checks: { ecdsa_single: single, ecdsa_multisig: multisig, schnorr_keypath: keypath, schnorr_scriptpath: result.schnorr - keypath },
    sighash_bytes: { legacy: s.legacy.bytes, bip143: s.bip143.bytes + s.precomputeBip143Bytes, bip341: s.bip341.bytes + s.precomputeBip341Bytes },
    sighashes: { legacy: s.legacy.count, bip143: s.bip143.count, bip341: s.bip341.count },
  };
}

/**
 * The census of the fixture blocks: every block of the folder validated whole in one engine
 * instance (validateBlock, signatures verified as asked), and the blocks the folder holds
 * without their spent outputs (index.json's mainnet_blocks_only: size, transactions and inputs
 * only, as the fixture set's index states them).
 * @param {object} engine a loaded engine (wasm/engine.mjs loadEngine)
 * @param {object[]} blocks loadBlocks' blocks (with spentOutputsJson); any with `error` are left out
 * @param {string} dir the fixture folder (for index.json)
 * @returns {{blocks: object[], blocks_only: Array<{height: number, bytes: number, txs: number,
 *   inputs: number, source: string}>}} blocks: blockWorkload of each, height order
 * @throws {Error} naming the block when one fails to validate (a fixture block is valid)
 */
export function fixtureCensus(engine, blocks, dir) {
  const out = [];
  for (const b of blocks) {
    if (b.error) continue;
    const spent = encodeSpentOutputs(JSON.parse(b.spentOutputsJson));
    const r = engine.validateBlock(b.block, spent, b.hash, b.height, undefined);
    if (!r.ok || !r.valid) throw new Error(`fixture block ${b.height} (${b.hash}) did not validate: ${r.error}`);
    out.push(blockWorkload(r, b));
  }
  out.sort((x, y) => x.height - y.height);
  const index = path.join(dir, 'index.json');
  const blocksOnly = [];
  if (existsSync(index)) {
    for (const e of JSON.parse(readFileSync(index, 'utf8')).mainnet_blocks_only ?? []) {
      blocksOnly.push({ height: e.height, bytes: e.size_bytes, txs: e.tx_count, inputs: e.non_coinbase_inputs,
        source: `${path.basename(dir)}/index.json mainnet_blocks_only` });
    }
  }
  return { blocks: out, blocks_only: blocksOnly };
}

/**
 * The saved census (fixture-census.json).
 * @returns {{blocks: object[], blocks_only: object[]}}
 * @throws {Error} naming the file when it is missing or not the census's shape
 */
export function readCensus(file = CENSUS_PATH) {
  let doc;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read the fixture census ${file}: ${err.message} (npm run project -- --census writes it)`, { cause: err });
  }
  if (!Array.isArray(doc?.blocks) || !Array.isArray(doc?.blocks_only)) throw new Error(`${file}: not a fixture census (no blocks / blocks_only arrays)`);
  return doc;
}
