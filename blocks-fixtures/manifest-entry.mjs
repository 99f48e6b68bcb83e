// One fixture-manifest entry's shape, checked the same way by the Node loader (loader.mjs) and
// by the page (web/fixtures.mjs, which the server lets import this file), and the shape of the
// manifest's `chain` entry (the consecutive blocks of mainnet-chain/). No Node imports.

const HEX64 = /^[0-9a-f]{64}$/;

/** Whether a manifest path is relative and stays inside the fixture set (no '..' segment). */
function insideFixtures(p) {
  return !/^([\\/]|[A-Za-z]:)/.test(p) && !p.split(/[\\/]/).includes('..');
}

/**
 * Checks one manifest entry: an object with an integer `height` >= 0, a 64-hex `hash`,
 * `block_raw_sha256` and `spent_outputs_sha256`, an integer `inputs` >= 0, and a relative `dir`
 * ('mainnet/170') none of whose segments is '..', so that it stays inside the fixture set, and
 * whose last segment, when it is a number, is the entry's height.
 * @param {*} entry one element of the manifest's `blocks` array
 * @param {number} index its position in that array
 * @returns {string|null} what is wrong, naming the entry index (and its height once known), or
 *   null when the entry is sound
 */
export function manifestEntryProblem(entry, index) {
  const where = `manifest entry ${index}`;
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return `${where} is not an object`;
  if (!Number.isInteger(entry.height) || entry.height < 0) return `${where}: height ${JSON.stringify(entry.height)} is not a block height`;
  const at = `${where} (height ${entry.height})`;
  for (const field of ['hash', 'block_raw_sha256', 'spent_outputs_sha256']) {
    if (typeof entry[field] !== 'string' || !HEX64.test(entry[field])) return `${at}: ${field} is not 64 lowercase hex digits`;
  }
  if (!Number.isInteger(entry.inputs) || entry.inputs < 0) return `${at}: inputs is not a count`;
  if (typeof entry.dir !== 'string' || entry.dir === '') return `${at}: dir is not a path`;
  // An absolute path (/etc, \\server, C:) or a '..' segment could lead out of the fixture set.
  if (!insideFixtures(entry.dir)) return `${at}: dir ${entry.dir} leads outside the fixtures directory`;
  // A folder named by a height ('mainnet/170') must hold that height: a wrong height silently
  // changes the rules a block is judged by (before BIP34 nothing in the block contradicts it).
  const last = entry.dir.split(/[\\/]/).filter(Boolean).pop();
  if (/^[0-9]+$/.test(last) && Number(last) !== entry.height) {
    return `${at}: dir ${entry.dir} names height ${Number(last)}, not the entry's ${entry.height}`;
  }
  return null;
}

/**
 * Checks the manifest's `chain` entry (blocks-fixtures/make-manifest.mjs writes it): an object
 * with a relative `file` ('mainnet-chain/btcd-blocks1-255.dat', inside the fixture set), its
 * `sha256`, the height of its first block `first_height` (an integer >= 1), the number of its
 * blocks `blocks` (an integer >= 1), the hash of its first block's parent `prev_hash` and of its
 * last block `last_hash` (64 lowercase hex digits each).
 * @param {*} chain the manifest's `chain` value
 * @returns {string|null} what is wrong ("manifest chain: sha256 is not 64 lowercase hex digits"),
 *   or null when it is sound
 */
export function chainEntryProblem(chain) {
  const where = 'manifest chain';
  if (chain === null || typeof chain !== 'object' || Array.isArray(chain)) return `${where} is not an object`;
  if (typeof chain.file !== 'string' || chain.file === '') return `${where}: file is not a path`;
  if (!insideFixtures(chain.file)) return `${where}: file ${chain.file} leads outside the fixtures directory`;
  for (const field of ['sha256', 'prev_hash', 'last_hash']) {
    if (typeof chain[field] !== 'string' || !HEX64.test(chain[field])) return `${where}: ${field} is not 64 lowercase hex digits`;
  }
  if (!Number.isInteger(chain.first_height) || chain.first_height < 1) return `${where}: first_height is not a block height above 0`;
  if (!Number.isInteger(chain.blocks) || chain.blocks < 1) return `${where}: blocks is not a count above 0`;
  return null;
}
