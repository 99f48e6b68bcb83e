// Writes a Bitcoin Core datadir's blocks/ folder from the fixture data, in Core's exact on-disk
// formats, for tests with no node on the machine (issue 17): an independent JavaScript writer,
// so that the engine's C++ reader (native/undo/) and the datadir reader
// (blocks-fixtures/datadir/) are checked against it.
//   blk00000.dat  genesis, then blocks 1-255 (mainnet-chain/), stored out of height order
//   rev00000.dat  their undo records, in connection (height) order; genesis has none
//   blk00001.dat  the fixture blocks from BIP34 on (their height in their coinbase) and
//   rev00001.dat  their undo, from spent_outputs.json (whose coins carry no height: written
//                 as created at the block's height - 1, not by a coinbase)
//   xor.dat       a non-zero obfuscation key, applied to every blk and rev byte by file offset
// Each blk and rev file ends in 4,096 zero bytes, as Core's preallocation leaves them.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isPoint } from 'tiny-secp256k1';
import { loadBlocks, loadChain } from '../../blocks-fixtures/loader.mjs';

/** Mainnet's genesis block (Core's CreateGenesisBlock), 285 bytes. */
export const GENESIS_HEX = '0100000000000000000000000000000000000000000000000000000000000000000000003ba3edfd7a7b12b27ac72c3e67768f617fc81bc3888a51323a9fb8aa4b1e5e4a29ab5f49ffff001d1dac2b7c0101000000010000000000000000000000000000000000000000000000000000000000000000ffffffff4d04ffff001d0104455468652054696d65732030332f4a616e2f32303039204368616e63656c6c6f72206f6e206272696e6b206f66207365636f6e64206261696c6f757420666f722062616e6b73ffffffff0100f2052a01000000434104678afdb0fe5548271967f1a67130b7105cd6a828e03909a67962e0ea1f61deb649f6bc3f4cef38c4f35504e51ec112de5c384df7ba0b8d578a4c702b6bf11d5fac00000000';
/** The obfuscation key written to xor.dat. */
export const XOR_KEY = Uint8Array.from([0x5a, 0x17, 0xc3, 0x00, 0x9e, 0x41, 0xf0, 0x2b]);
const MAGIC = [0xf9, 0xbe, 0xb4, 0xd9];

const sha256 = (b) => createHash('sha256').update(b).digest();
export const hash256 = (b) => sha256(sha256(b));
const display = (internal) => Buffer.from(internal).reverse().toString('hex');

// Core's serializers, written afresh.
function compactSize(n) {
  if (n < 0xfd) return [n];
  if (n <= 0xffff) return [0xfd, n & 0xff, n >> 8];
  return [0xfe, n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, n >>> 24];
}
export function varInt(value) {
  let n = BigInt(value);
  const digits = [];
  for (;;) {
    digits.unshift(Number(n & 0x7fn) | (digits.length ? 0x80 : 0));
    if (n <= 0x7fn) return digits;
    n = (n >> 7n) - 1n;
  }
}
export function compressAmount(value) {
  let n = BigInt(value);
  if (n === 0n) return 0n;
  let e = 0n;
  while (n % 10n === 0n && e < 9n) { n /= 10n; e++; }
  if (e < 9n) {
    const d = n % 10n;
    n /= 10n;
    return 1n + (n * 9n + d - 1n) * 10n + e;
  }
  return 1n + (n - 1n) * 10n + 9n;
}
export function compressScript(s) {
  if (s.length === 25 && s[0] === 0x76 && s[1] === 0xa9 && s[2] === 20 && s[23] === 0x88 && s[24] === 0xac) return [0, ...s.subarray(3, 23)];
  if (s.length === 23 && s[0] === 0xa9 && s[1] === 20 && s[22] === 0x87) return [1, ...s.subarray(2, 22)];
  if (s.length === 35 && s[0] === 33 && s[34] === 0xac && (s[1] === 2 || s[1] === 3)) return [...s.subarray(1, 34)];
  if (s.length === 67 && s[0] === 65 && s[66] === 0xac && s[1] === 4 && isPoint(s.subarray(1, 66))) return [4 | (s[65] & 1), ...s.subarray(2, 34)];
  return [...varInt(s.length + 6), ...s];
}
const coinBytes = (c) => [...varInt(c.height * 2 + (c.coinbase ? 1 : 0)), ...(c.height > 0 ? [0] : []),
  ...varInt(compressAmount(c.value)), ...compressScript(c.script)];

/** Transactions of a block, enough to follow its coins: txid, prevouts, outputs. */
export function parseBlock(block) {
  let p = 80;
  const u8 = () => block[p++];
  const cs = () => { const f = u8(); if (f < 0xfd) return f; const n = f === 0xfd ? 2 : f === 0xfe ? 4 : 8; let v = 0; for (let i = 0; i < n; i++) v += block[p + i] * 2 ** (8 * i); p += n; return v; };
  const count = cs();
  const txs = [];
  for (let t = 0; t < count; t++) {
    const start = p;
    p += 4;
    const segwit = block[p] === 0 && block[p + 1] === 1;
    if (segwit) p += 2;
    const bodyStart = p;
    const ins = [];
    for (let n = cs(), i = 0; i < n; i++) { ins.push(display(block.subarray(p, p + 32)) + ':' + new DataView(block.buffer, block.byteOffset + p + 32, 4).getUint32(0, true)); p += 36; const scriptLength = cs(); p += scriptLength + 4; }
    const outs = [];
    for (let n = cs(), i = 0; i < n; i++) {
      const value = new DataView(block.buffer, block.byteOffset + p, 8).getBigUint64(0, true); p += 8;
      const len = cs(); outs.push({ value, script: block.subarray(p, p + len) }); p += len;
    }
    const bodyEnd = p;
    if (segwit) for (let i = 0; i < ins.length; i++) for (let n = cs(), k = 0; k < n; k++) { const itemLength = cs(); p += itemLength; }
    p += 4;
    const stripped = segwit ? Buffer.concat([block.subarray(start, start + 4), block.subarray(bodyStart, bodyEnd), block.subarray(p - 4, p)]) : block.subarray(start, p);
    txs.push({ txid: display(hash256(stripped)), ins, outs });
  }
  return txs;
}

/** A blk record (magic, size, body), or a rev record with its checksum when `checksumPrev` (the
 *  previous block's hash, internal order) is given. */
export const record = (body, checksumPrev) => {
  const size = Buffer.alloc(4);
  size.writeUInt32LE(body.length);
  const parts = [Buffer.from(MAGIC), size, Buffer.from(body)];
  if (checksumPrev) parts.push(hash256(Buffer.concat([checksumPrev, Buffer.from(body)])));
  return Buffer.concat(parts);
};
/** A CBlockUndo: a CTxUndo per non-coinbase transaction, each its coins. */
export const undoBody = (txUndos) => [...compactSize(txUndos.length), ...txUndos.flatMap((coins) => [...compactSize(coins.length), ...coins.flatMap(coinBytes)])];
/** `buffers` joined as one file, obfuscated with XOR_KEY, then 4,096 preallocated zeros. */
export function obfuscated(buffers) {
  const file = Buffer.concat([...buffers, Buffer.alloc(4096)]);
  const data = file.length - 4096; // the preallocated zeros stay zeros on disk
  for (let i = 0; i < data; i++) file[i] ^= XOR_KEY[i % 8];
  return file;
}

/**
 * The blocks the fixture set gives, each with the coins its inputs spend: genesis and blocks
 * 1-255 (the coins followed through the chain) and the fixture blocks from BIP34 on (from
 * spent_outputs.json, heights written as the block's - 1, not coinbase).
 * @param {string} fixtures
 * @returns {Promise<{chain: object[], modern: object[]}>} each {height, hash, block, txUndos}:
 *   txUndos[t - 1] the coins of tx t's inputs, {height, coinbase, value (bigint), script}
 */
export async function fixtureChain(fixtures) {
  const chainFile = await loadChain(fixtures);
  if (!chainFile?.bytes) throw new Error(`no chain in ${fixtures}: ${chainFile?.error}`);
  const blocks = [Buffer.from(GENESIS_HEX, 'hex')];
  for (let p = 0; p < chainFile.bytes.length;) {
    const size = new DataView(chainFile.bytes.buffer, chainFile.bytes.byteOffset + p + 4, 4).getUint32(0, true);
    blocks.push(Buffer.from(chainFile.bytes.subarray(p + 8, p + 8 + size)));
    p += 8 + size;
  }
  const coins = new Map();
  const chain = blocks.map((block, height) => {
    const txUndos = [];
    parseBlock(block).forEach((tx, t) => {
      if (t > 0) txUndos.push(tx.ins.map((outpoint) => { const c = coins.get(outpoint); coins.delete(outpoint); if (!c) throw new Error(`height ${height}: ${outpoint} not in the chain's coins`); return c; }));
      tx.outs.forEach((o, n) => coins.set(`${tx.txid}:${n}`, { height, coinbase: t === 0, value: o.value, script: o.script }));
    });
    return { height, hash: display(hash256(block.subarray(0, 80))), block, txUndos };
  });
  const modern = (await loadBlocks(fixtures)).filter((f) => f.height >= 227931 && f.block).sort((a, b) => a.height - b.height).map((f) => {
    const spent = JSON.parse(f.spentOutputsJson).spent_outputs;
    let k = 0;
    const txUndos = parseBlock(f.block).slice(1).map((tx) => tx.ins.map(() => {
      const s = spent[k++];
      return { height: f.height - 1, coinbase: false, value: BigInt(s.value), script: Buffer.from(s.script_pubkey, 'hex') };
    }));
    return { height: f.height, hash: f.hash, block: Buffer.from(f.block), txUndos };
  });
  return { chain, modern };
}

/** Core 30's /rest/spenttxouts/<hash>.bin body of a block (rest.cpp SerializeBlockUndo): the
 *  transaction count, an empty list for the coinbase, then each transaction's spent CTxOuts. */
export function spentTxOutsBody(txUndos) {
  const out = [...compactSize(txUndos.length + 1), 0];
  for (const coins of txUndos) {
    out.push(...compactSize(coins.length));
    for (const c of coins) {
      const value = Buffer.alloc(8);
      value.writeBigInt64LE(BigInt(c.value));
      out.push(...value, ...compactSize(c.script.length), ...c.script);
    }
  }
  return Buffer.from(out);
}

/**
 * Writes `<dir>/blocks/` (layout above) from the fixture set in `fixtures`.
 * @param {string} dir
 * @param {string} fixtures the fixture set (../shared/blocks-fixtures)
 * @returns {Promise<{blocks: string, chainHeights: number[], fixtureHeights: number[]}>}
 */
export async function writeDatadir(dir, fixtures) {
  const blocksDir = path.join(dir, 'blocks');
  mkdirSync(blocksDir, { recursive: true });
  const { chain, modern } = await fixtureChain(fixtures);
  // Out of height order in the blk file (pairs swapped), as blocks arrive from several peers.
  const order = chain.map((_, h) => h);
  for (let h = 1; h + 1 < order.length; h += 2) [order[h], order[h + 1]] = [order[h + 1], order[h]];
  writeFileSync(path.join(blocksDir, 'blk00000.dat'), obfuscated(order.map((h) => record(chain[h].block))));
  writeFileSync(path.join(blocksDir, 'rev00000.dat'), obfuscated(chain.slice(1).map((b) => record(undoBody(b.txUndos), b.block.subarray(4, 36)))));
  writeFileSync(path.join(blocksDir, 'blk00001.dat'), obfuscated(modern.map((f) => record(f.block))));
  writeFileSync(path.join(blocksDir, 'rev00001.dat'), obfuscated(modern.map((f) => record(undoBody(f.txUndos), f.block.subarray(4, 36)))));
  writeFileSync(path.join(blocksDir, 'xor.dat'), XOR_KEY);
  return { blocks: blocksDir, chainHeights: chain.map((b) => b.height), fixtureHeights: modern.map((f) => f.height) };
}
