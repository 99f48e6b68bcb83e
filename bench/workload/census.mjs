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
 * @param {object[]} blocks loadBlocks' blocks (with spentOutputsJson)
 * @param {string} dir the fixture folder (for index.json)
 * @returns {{blocks: object[], blocks_only: Array<{height: number, bytes: number, txs: number,
 *   inputs: number, source: string}>}} blocks: blockWorkload of each, height order
 * @throws {Error} naming the block when one failed to load or fails to validate (a fixture block
 *   is valid: none is left out quietly), or index.json and the entry and field it cannot use
 */
export function fixtureCensus(engine, blocks, dir) {
  const out = [];
  for (const b of blocks) {
    // A block that did not load is no block to leave out quietly: the era's ratios would change.
    if (b.error) throw new Error(`fixture block ${b.height ?? '?'} did not load: ${b.error}`);
    let spent;
    try {
      spent = encodeSpentOutputs(JSON.parse(b.spentOutputsJson));
    } catch (err) {
      throw new Error(`fixture block ${b.height} (${b.dir ?? b.hash}): spent_outputs.json: ${err.message}`, { cause: err });
    }
    const r = engine.validateBlock(b.block, spent, b.hash, b.height, undefined);
    if (!r.ok || !r.valid) throw new Error(`fixture block ${b.height} (${b.hash}) did not validate: ${r.error}`);
    out.push(blockWorkload(r, b));
  }
  out.sort((x, y) => x.height - y.height);
  const index = path.join(dir, 'index.json');
  const blocksOnly = [];
  if (existsSync(index)) {
    let doc;
    try {
      doc = JSON.parse(readFileSync(index, 'utf8'));
    } catch (err) {
      throw new Error(`${index}: ${err.message}`, { cause: err });
    }
    for (const [k, e] of (doc.mainnet_blocks_only ?? []).entries()) {
      const entry = { height: e?.height, bytes: e?.size_bytes, txs: e?.tx_count, inputs: e?.non_coinbase_inputs };
      for (const [field, v] of Object.entries({ height: entry.height, size_bytes: entry.bytes, tx_count: entry.txs, non_coinbase_inputs: entry.inputs })) {
        if (!Number.isSafeInteger(v) || v < (field === 'tx_count' ? 1 : 0)) {
          throw new Error(`${index}: mainnet_blocks_only[${k}].${field} is ${JSON.stringify(v)}; need a non-negative integer`);
        }
      }
      blocksOnly.push({ ...entry, source: `${path.basename(dir)}/index.json mainnet_blocks_only` });
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
  for (const [k, b] of doc.blocks.entries()) {
    const fields = [b?.height, b?.time, b?.bytes, b?.txs, b?.inputs, b?.legacy_sighash_hashed, ...Object.values(b?.checks ?? {}),
      ...Object.values(b?.sighash_bytes ?? {}), ...Object.values(b?.sighashes ?? {})];
    if (fields.length !== 16 || !fields.every((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0)) {
      throw new Error(`${file}: blocks[${k}] is no block workload (npm run project -- --census writes the census again)`);
    }
    const types = b.inputs_by_type;
    if (!types || typeof types !== 'object' || !Object.values(types).every((v) => Number.isInteger(v) && v >= 0) ||
        Object.values(types).reduce((n, v) => n + v, 0) !== b.inputs) {
      throw new Error(`${file}: blocks[${k}] has no inputs_by_type adding up to its ${b.inputs} inputs (npm run project -- --census writes the census again)`);
    }
  }
  return doc;
}
