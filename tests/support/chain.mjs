// Shared by the chain tests: the fixture chain's framed file (Core's blk?????.dat layout:
// magic f9beb4d9, 4-byte LE size, block) split into blocks and framed again, block hashes, and
// the header-only mutations the tests make of it (blocks removed and the rest relinked).
import { createHash } from 'node:crypto';

const MAGIC = Buffer.from('f9beb4d9', 'hex');

/** SHA256d of `bytes`. */
export const sha256d = (bytes) => createHash('sha256').update(createHash('sha256').update(bytes).digest()).digest();

/** A block's hash in display hex (its header's SHA256d, byte-reversed). */
export const blockHash = (block) => Buffer.from(sha256d(block.subarray(0, 80))).reverse().toString('hex');

/**
 * The blocks of a framed file, as copies.
 * @param {Uint8Array} file
 * @returns {Buffer[]}
 * @throws Error at a frame that is not mainnet's or runs past the end.
 */
export function splitFrames(file) {
  const bytes = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  const out = [];
  for (let pos = 0; pos < bytes.length;) {
    if (!bytes.subarray(pos, pos + 4).equals(MAGIC)) throw new Error(`no frame at byte ${pos}`);
    const size = bytes.readUInt32LE(pos + 4);
    if (pos + 8 + size > bytes.length) throw new Error(`frame at byte ${pos} runs past the end`);
    out.push(Buffer.from(bytes.subarray(pos + 8, pos + 8 + size)));
    pos += 8 + size;
  }
  return out;
}

/** `blocks` framed into one file. */
export function frame(blocks) {
  return new Uint8Array(Buffer.concat(blocks.flatMap((b) => {
    const size = Buffer.alloc(4);
    size.writeUInt32LE(b.length);
    return [MAGIC, size, b];
  })));
}

/** Rewrites hashPrevBlock of blocks[from..] so that each links to the block before it (the
 *  proof of work of each rewritten header is then broken). In place; returns `blocks`. */
export function relink(blocks, from) {
  for (let i = Math.max(from, 1); i < blocks.length; i++) sha256d(blocks[i - 1].subarray(0, 80)).copy(blocks[i], 4);
  return blocks;
}
