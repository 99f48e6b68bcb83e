// Writes a fixture manifest to FILE: for every block under <fixtures>/mainnet/, its height,
// block hash, the SHA-256 of block.raw and of spent_outputs.json, and the number of
// non-coinbase inputs; and, when the folder has mainnet-chain/btcd-blocks1-255.dat, a `chain`
// entry for it: file, SHA-256, first height, block count, the hash its first block links to and
// the hash of its last block (manifest-entry.mjs chainEntryProblem). Every value is computed here
// from the files themselves and, when the folder has an index.json (the shared fixture set
// does), cross-checked against it; a disagreement stops the run.
//
//   node blocks-fixtures/make-manifest.mjs [--fixtures DIR] --out FILE
//
// --out is required: the tracked blocks-fixtures/manifest.json (the shared set's) is rewritten
// only when it is named, `--out blocks-fixtures/manifest.json`; a folder of your own gets its
// own, `--fixtures DIR --out DIR/manifest.json` (the loaders read DIR/manifest.json first).
// A usage error is one line on stderr, exit 2; any other failure exit 1.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fixturesDir, MANIFEST_PATH } from './loader.mjs';

/** SHA-256 of `bytes` as lowercase hex. */
function sha256Hex(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Block hash in display hex: double-SHA256 of the 80-byte header, byte-reversed
 *  (Core's CBlockHeader::GetHash, printed by uint256::GetHex). */
function blockHashHex(blockRaw) {
  if (blockRaw.length < 80) throw new Error(`block.raw is ${blockRaw.length} bytes, shorter than a header`);
  const once = createHash('sha256').update(blockRaw.subarray(0, 80)).digest();
  return Buffer.from(createHash('sha256').update(once).digest()).reverse().toString('hex');
}

/** The consecutive chain of the shared fixture set (README "btcd framed block file"): blocks 1
 *  to 255, each framed as magic f9beb4d9, a 4-byte little-endian size, the block. */
const CHAIN_FILE = 'mainnet-chain/btcd-blocks1-255.dat';
const CHAIN_FIRST_HEIGHT = 1;

/** The manifest's chain entry for the framed block file `rel` of `dir`, or null when the folder
 *  has none. Throws naming the file and byte offset when a frame is not whole or not mainnet's. */
async function chainEntry(dir, rel) {
  const file = path.join(dir, rel);
  if (!existsSync(file)) return null;
  const bytes = await readFile(file);
  const hashes = [];
  let prevHash = null;
  for (let pos = 0; pos < bytes.length;) {
    if (bytes.length - pos < 8 || bytes.readUInt32BE(pos) !== 0xf9beb4d9) {
      throw new Error(`${rel}: no mainnet frame (magic f9beb4d9, size) at byte ${pos}`);
    }
    const size = bytes.readUInt32LE(pos + 4);
    if (size < 80 || pos + 8 + size > bytes.length) throw new Error(`${rel}: frame at byte ${pos} has size ${size}, past the end or below a header`);
    const block = bytes.subarray(pos + 8, pos + 8 + size);
    if (prevHash === null) prevHash = Buffer.from(block.subarray(4, 36)).reverse().toString('hex');
    hashes.push(blockHashHex(block));
    pos += 8 + size;
  }
  if (hashes.length === 0) throw new Error(`${rel}: no block`);
  return {
    file: rel, sha256: sha256Hex(bytes), first_height: CHAIN_FIRST_HEIGHT, blocks: hashes.length,
    prev_hash: prevHash, last_hash: hashes[hashes.length - 1],
    // The chain's blocks that the mainnet/ folders also hold must be the same blocks.
    hashes_by_height: (height) => hashes[height - CHAIN_FIRST_HEIGHT],
  };
}

async function main() {
  let values;
  try {
    ({ values } = parseArgs({ options: { fixtures: { type: 'string' }, out: { type: 'string' } }, strict: true }));
    if (!values.out) {
      throw new Error('--out FILE is required (e.g. --fixtures DIR --out DIR/manifest.json; ' +
        '--out blocks-fixtures/manifest.json rewrites the tracked manifest)');
    }
  } catch (err) {
    // A usage error, as every command line gives it: one line naming the flag, exit code 2.
    process.stderr.write(`make-manifest: ${err.message}\n`);
    process.exit(2);
  }
  const dir = fixturesDir(values.fixtures);
  const out = path.resolve(values.out);
  const indexFile = path.join(dir, 'index.json');
  let indexByHeight = null;
  if (existsSync(indexFile)) {
    try {
      indexByHeight = new Map(JSON.parse(await readFile(indexFile, 'utf8')).mainnet_with_prevouts.map((b) => [b.height, b]));
    } catch (err) {
      throw new Error(`${indexFile}: ${err.message} (need {"mainnet_with_prevouts": [{height, ...}]})`, { cause: err });
    }
  }
  const heights = (await readdir(path.join(dir, 'mainnet'))).map(Number).sort((a, b) => a - b);
  const blocks = [];
  for (const height of heights) {
    const rel = `mainnet/${height}`;
    const blockRaw = await readFile(path.join(dir, rel, 'block.raw'));
    const spentText = await readFile(path.join(dir, rel, 'spent_outputs.json'));
    let spent;
    try {
      spent = JSON.parse(spentText.toString('utf8'));
    } catch (err) {
      throw new Error(`${rel}/spent_outputs.json: ${err.message}`, { cause: err });
    }
    if (!Array.isArray(spent?.spent_outputs)) throw new Error(`${rel}/spent_outputs.json: no "spent_outputs" array`);
    let hash;
    try {
      hash = blockHashHex(blockRaw);
    } catch (err) {
      throw new Error(`${rel}/${err.message}`, { cause: err });
    }
    const entry = {
      height,
      hash,
      dir: rel,
      block_raw_sha256: sha256Hex(blockRaw),
      spent_outputs_sha256: sha256Hex(spentText),
      inputs: spent.spent_outputs.length,
    };
    const known = indexByHeight?.get(height);
    if (indexByHeight && !known) throw new Error(`${rel}: not in index.json`);
    const mismatches = [
      ...(known ? [
        ['block hash', entry.hash, known.block_hash],
        ['block.raw sha256', entry.block_raw_sha256, known.block_raw_sha256],
        ['non-coinbase inputs', entry.inputs, known.non_coinbase_inputs],
      ] : []),
      ...(indexByHeight ? [['spent_outputs.json block_hash', entry.hash, spent.block_hash]] : []),
    ].filter(([, mine, theirs]) => mine !== theirs);
    for (const [what, mine, theirs] of mismatches) {
      throw new Error(`${rel}: ${what} computed ${mine}, index says ${theirs}`);
    }
    blocks.push(entry);
  }
  const found = await chainEntry(dir, CHAIN_FILE);
  let chain;
  if (found) {
    const { hashes_by_height: hashAt, ...entry } = found;
    for (const b of blocks) {
      const inChain = hashAt(b.height);
      if (inChain !== undefined && inChain !== b.hash) {
        throw new Error(`${CHAIN_FILE}: block ${b.height} hashes to ${inChain}, mainnet/${b.height} to ${b.hash}`);
      }
    }
    chain = entry;
  }
  const manifest = {
    note: 'Generated by blocks-fixtures/make-manifest.mjs from the fixture files (see ../shared/blocks-fixtures/README.md). ' +
      'hash: block hash (display hex); *_sha256: SHA-256 of the file bytes; inputs: non-coinbase inputs (= spent outputs). ' +
      'chain: the framed file of consecutive blocks from first_height (magic, 4-byte LE size, block), its SHA-256, ' +
      'block count, the hash its first block links to and its last block\'s hash.',
    blocks,
    ...(chain ? { chain } : {}),
  };
  await writeFile(out, `${JSON.stringify(manifest, null, 1)}\n`);
  process.stderr.write(`wrote ${out}: ${blocks.length} blocks${chain ? `, chain ${chain.file} (${chain.blocks} blocks)` : ''}` +
    `${out === MANIFEST_PATH ? ' (the tracked manifest)' : ''}\n`);
}

main().catch((err) => {
  process.stderr.write(`make-manifest: ${err.message}\n`);
  process.exitCode = 1;
});
