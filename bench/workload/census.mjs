// The census of the fixture blocks: each one's workload (bench/core/block-workload.mjs), as the
// engine counts it.
//
// The census of a fixture folder (fixtureCensus) is saved as bench/workload/fixture-census.json
// by `npm run project -- --census` and read by the table (table.mjs); a test checks the saved
// file against the engine.
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { encodeSpentOutputs } from '../../wasm/spent-outputs.mjs';
import { blockWorkload } from '../core/block-workload.mjs';

/** Where the saved census lives. */
export const CENSUS_PATH = path.join(path.dirname(new URL(import.meta.url).pathname), 'fixture-census.json');

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
