// The txids of a serialized block (display hex, as spent_outputs.json names them), for tests that
// need to tell a block's own outputs from those it spends from earlier blocks. A plain reader of
// Core's serialization (BIP144 witnesses skipped when hashing); no checks beyond what it needs.
import { createHash } from 'node:crypto';

const sha256d = (b) => createHash('sha256').update(createHash('sha256').update(b).digest()).digest();

/**
 * @param {Uint8Array} raw a whole block
 * @returns {string[]} each transaction's txid, display hex (byte-reversed), in block order
 */
export function blockTxids(raw) {
  const buf = Buffer.from(raw.buffer, raw.byteOffset, raw.length);
  let at = 80;
  const varint = () => {
    const b = buf[at++];
    if (b < 0xfd) return b;
    const n = b === 0xfd ? buf.readUInt16LE(at) : b === 0xfe ? buf.readUInt32LE(at) : Number(buf.readBigUInt64LE(at));
    at += b === 0xfd ? 2 : b === 0xfe ? 4 : 8;
    return n;
  };
  const skipBytes = () => { const n = varint(); at += n; };
  const txids = [];
  for (let count = varint(), t = 0; t < count; t++) {
    const start = at;
    at += 4;
    const witness = buf[at] === 0 && buf[at + 1] === 1;
    if (witness) at += 2;
    const ioStart = at;
    const inputs = varint();
    for (let i = 0; i < inputs; i++) { at += 36; skipBytes(); at += 4; }
    for (let o = varint(); o > 0; o--) { at += 8; skipBytes(); }
    const ioEnd = at;
    if (witness) for (let i = 0; i < inputs; i++) for (let k = varint(); k > 0; k--) skipBytes();
    const stripped = Buffer.concat([buf.subarray(start, start + 4), buf.subarray(ioStart, ioEnd), buf.subarray(at, at + 4)]);
    at += 4;
    txids.push(Buffer.from(sha256d(stripped)).reverse().toString('hex'));
  }
  return txids;
}
