// A minimal walker over a block's bytes, for tests that rebuild or re-read blocks (bad-input,
// quadratic): offsets only, no validation.
/**
 * Minimal block walker: offsets of each transaction and input (enough to rebuild blocks).
 * @param {Uint8Array} raw a block's bytes
 * @returns {Array<{offset: number, vin: Array<{offset: number, lenAt: number, scriptStart: number,
 *   scriptLen: number}>, witnessAt: number|null, witnessEnd: number, end: number, segwit: boolean}>}
 *   per transaction: its offset, each input's (prevout) offset and scriptSig, where its witness
 *   starts and ends (witnessEnd is nLockTime's offset) and where it ends
 */
export function walkBlock(raw) {
  let pos = 80;
  const compact = () => {
    const first = raw[pos++];
    if (first < 0xfd) return first;
    const n = first === 0xfd ? 2 : first === 0xfe ? 4 : 8;
    let v = 0;
    for (let i = 0; i < n; i++) v += raw[pos + i] * 2 ** (8 * i);
    pos += n;
    return v;
  };
  const txs = [];
  const count = compact();
  for (let t = 0; t < count; t++) {
    const tx = { offset: pos, vin: [] };
    pos += 4;
    const segwit = raw[pos] === 0 && raw[pos + 1] === 1;
    if (segwit) pos += 2;
    const nIn = compact();
    for (let i = 0; i < nIn; i++) {
      const offset = pos;
      pos += 36;
      const lenAt = pos;
      const len = compact();
      tx.vin.push({ offset, lenAt, scriptStart: pos, scriptLen: len });
      pos += len + 4;
    }
    const nOut = compact();
    for (let o = 0; o < nOut; o++) { pos += 8; const n = compact(); pos += n; }
    tx.witnessAt = segwit ? pos : null;
    if (segwit) for (let i = 0; i < nIn; i++) { const items = compact(); for (let k = 0; k < items; k++) { const n = compact(); pos += n; } }
    tx.witnessEnd = pos;
    pos += 4;
    tx.end = pos;
    tx.segwit = segwit;
    txs.push(tx);
  }
  return txs;
}
