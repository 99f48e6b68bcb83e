// The node's active chain, from the block headers in its blk files alone: each header linked to
// its previous block, heights counted from a root, and the tip the one with the most work.
// Host-neutral (no Node import); hash256 (SHA256d) is given by the caller.
//
// Why not Core's block index (blocks/index, LevelDB): opening it takes LevelDB's LOCK file,
// which a running node holds, and a browser has no LevelDB reader; the headers are in the blk
// files anyway. What the headers alone cannot give, and how it is made up for:
//   - heights: counted from mainnet's genesis, or, for a chain whose first blocks are not in
//     the files (a pruned node), from the height its first block's coinbase commits to (BIP34,
//     from height 227,931); a chain with neither has no heights and is named, not used;
//   - validity: Core's index marks blocks that failed validation; the headers do not, so the
//     tip is the most work among what the files hold (Core would have picked another tip only
//     if that chain's blocks were invalid, which this run's own validation reports).

/** Mainnet's genesis block hash (display hex). */
export const GENESIS_HASH = '000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f';
/** BIP34's activation height on mainnet: from here on the coinbase starts with the height. */
export const BIP34_HEIGHT = 227931;
/** Mainnet genesis block's nTime (2009-01-03). */
const GENESIS_TIME = 1231006505;

const hex = (bytes) => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
/** Display hex of a 32-byte hash in internal byte order. */
export const displayHex = (bytes) => hex([...bytes].reverse());

/** The target an nBits sets (Core's arith_uint256::SetCompact), a BigInt; 0 for an nBits that
 *  is negative, zero or overflows. */
export function targetOf(bits) {
  const exponent = bits >>> 24;
  const mantissa = BigInt(bits & 0x007fffff);
  if ((bits & 0x00800000) !== 0 || mantissa === 0n) return 0n;
  const target = exponent <= 3 ? mantissa >> BigInt(8 * (3 - exponent)) : mantissa << BigInt(8 * (exponent - 3));
  return target >= (1n << 256n) ? 0n : target;
}

/** Whether a header's hash (display hex) meets the target of its own nBits (Core's
 *  CheckProofOfWork, without the network's limit): a header that does not was never stored by
 *  Core, which checks it before writing the block. */
export function meetsOwnTarget(hash, bits) {
  let target = targetHex.get(bits);
  if (target === undefined) {
    const t = targetOf(bits);
    target = t === 0n ? null : t.toString(16).padStart(64, '0');
    targetHex.set(bits, target);
  }
  // Equal-length lowercase hex strings compare as the numbers they spell.
  return target !== null && hash <= target;
}
/** Each nBits seen, its target as 64 hex digits (null for none): the chain has a few hundred. */
const targetHex = new Map();

/** The work of a header (Core's GetBlockProof): 2^256 / (target + 1), a BigInt; 0 for an nBits
 *  that is negative, zero or overflows. */
export function blockProof(bits) {
  const target = targetOf(bits);
  return target === 0n ? 0n : (1n << 256n) / (target + 1n);
}

/**
 * The height a block's coinbase commits to (BIP34: its scriptSig starts with a push of the
 * height as a CScriptNum), read from the start of the block.
 * @param {Uint8Array} head at least the block's first 200 bytes (fewer for a smaller block)
 * @returns {number|null} the height, or null when the coinbase does not start with a push of
 *   1 to 4 bytes (a block before BIP34, or bytes that are not a block)
 */
export function coinbaseHeight(head) {
  // BIP34 applies to version 2 and later blocks; before it coinbases start with anything (the
  // early ones with a push of nBits, 04 ffff001d, which is no height).
  const version = head[0] | (head[1] << 8) | (head[2] << 16) | (head[3] << 24);
  if (version < 2) return null;
  let p = 80;
  const compact = () => {
    const first = head[p];
    if (first < 0xfd) { p += 1; return first; }
    if (first === 0xfd) { const v = head[p + 1] | (head[p + 2] << 8); p += 3; return v; }
    return null; // no block has 2^16 transactions or a coinbase scriptSig that long
  };
  if (compact() === null) return null; // the transaction count
  p += 4; // nVersion
  if (head[p] === 0 && head[p + 1] === 1) p += 2; // BIP144 marker and flag
  if (compact() !== 1) return null; // a coinbase has one input
  p += 36; // the null prevout
  const scriptLength = compact();
  if (scriptLength === null || scriptLength < 2) return null;
  // CScript() << nHeight: the minimal little-endian push, 3 bytes up to 2^23 - 1 (and 4 bytes
  // after, with no sign bit): anything else is no BIP34 height.
  const push = head[p];
  if (push !== 3 && push !== 4) return null;
  if (p + 1 + push > head.length) return null;
  let height = 0;
  for (let i = push - 1; i >= 0; i--) height = height * 256 + head[p + 1 + i];
  const top = head[p + push];
  if (top === 0 || top >= 0x80) return null; // not minimal, or negative
  if (height < BIP34_HEIGHT) return null;
  // And no more blocks than one a minute since genesis by the header's own time (the chain has
  // averaged one in ten): a coinbase that merely starts with a 4-byte push (some miners' data
  // before BIP34 bound version 2 blocks to it) is no height.
  const time = (head[68] | (head[69] << 8) | (head[70] << 16) | (head[71] << 24)) >>> 0;
  if (height > (time - GENESIS_TIME) / 60) return null;
  return height;
}

/**
 * Orders the headers into the active chain. Each header gains `parent`, `child` and `sibling`
 * (its parent, its first child and its next sibling among the headers, in the order stored) and
 * `height` (-1 while unplaced), and loses `prev` (null once linked): links kept on the headers
 * rather than in maps and strings, since a mainnet datadir holds nearly a million of them.
 * @param {Array<{hash: string, prev: string, bits: number}>} headers every block of the files
 *   (hash and prev as display hex), in the order stored
 * @param {{coinbaseHeight: (header: object) => Promise<number|null>}} reader coinbaseHeight: the
 *   block's BIP34 height (asked only for the first block of a chain whose parent is missing)
 * @returns {Promise<{chain: Array<object|undefined>, tip: {height: number, hash: string}|null,
 *   unplaced: number, stale: number, duplicates: Map<string, object[]>}>} chain[h]: the header at height h on the active chain
 *   (undefined where the files lack that height: pruned, or genesis, which a datadir may not
 *   hold); unplaced: blocks with no height (neither linked to genesis nor under a BIP34
 *   height); stale: blocks with a height but off the active chain; duplicates: hash -> the
 *   other stored copies of a block stored more than once (the first is the chain's)
 */
export async function activeChain(headers, { coinbaseHeight: heightOf }) {
  const byHash = new Map();
  const duplicates = new Map(); // hash -> the other stored copies of a block, in stored order
  for (const h of headers) {
    if (byHash.has(h.hash)) {
      // The same block stored twice: the first copy is the chain's, the others kept aside.
      if (!duplicates.has(h.hash)) duplicates.set(h.hash, []);
      duplicates.get(h.hash).push(h);
      continue;
    }
    Object.assign(h, { parent: null, child: null, sibling: null, height: -1 });
    byHash.set(h.hash, h);
  }
  // Children prepended: each list runs last stored first.
  const roots = [];
  for (const h of byHash.values()) {
    if (h.hash === GENESIS_HASH) { roots.push({ header: h, height: 0 }); continue; }
    if (h.prev === GENESIS_HASH && !byHash.has(GENESIS_HASH)) { roots.push({ header: h, height: 1 }); continue; }
    const parent = byHash.get(h.prev);
    if (parent) {
      h.parent = parent;
      h.sibling = parent.child;
      parent.child = h;
    } else {
      roots.push({ header: h, height: null });
    }
  }
  for (const h of byHash.values()) h.prev = null;
  // Each root's subtree, with its own most-work tip; then the chain is filled height by height
  // from the tips, the most work first (a pruned node has one root; a folder of separate
  // blocks, one per block).
  let placed = 0;
  const tips = [];
  for (const root of roots) {
    let height = root.height;
    if (height === null) {
      height = await heightOf(root.header);
      if (height === null || height < BIP34_HEIGHT) continue;
    }
    let best = null;
    const stack = [{ header: root.header, height, work: blockProof(root.header.bits) }]; // iterative: chains are long
    while (stack.length) {
      const node = stack.pop();
      node.header.height = node.height;
      placed++;
      if (!best || node.work > best.work) best = node;
      // Pushed last stored first (the list's order), so that of children with equal work the
      // first stored (the first the node received, as Core keeps it) is visited first and
      // stays the best.
      for (let c = node.header.child; c; c = c.sibling) {
        stack.push({ header: c, height: node.height + 1, work: node.work + blockProof(c.bits) });
      }
    }
    tips.push(best);
  }
  tips.sort((a, b) => (a.work > b.work ? -1 : a.work < b.work ? 1 : 0));
  const chain = [];
  for (const tip of tips) {
    for (let h = tip.header; h; h = h.parent) {
      if (chain[h.height]) break;
      chain[h.height] = h;
    }
  }
  const top = chain.length - 1; // a sparse array: heights the files hold (BIP34 roots plausible only)
  const best = top >= 0 ? { height: top, hash: chain[top].hash } : null;
  const onChain = chain.filter(Boolean).length;
  return {
    chain,
    tip: best,
    unplaced: byHash.size - placed,
    stale: placed - onChain,
    duplicates,
  };
}
