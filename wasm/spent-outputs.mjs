// The binary form of a block's spent outputs, the engine's input (native/validation/
// spent_outputs.h SerializeSpentOutputs / ParseSpentOutputsBinary), written from the fixtures'
// spent_outputs.json so that no JSON is parsed inside wasm:
//   magic "IBS1" (4 bytes) | entry count (uint32 LE) | entries
//   entry: prevout txid (32 bytes, internal byte order: the display hex reversed) |
//          prevout n (uint32 LE) | value (int64 LE, satoshis) |
//          scriptPubKey length (CompactSize) | scriptPubKey
// one entry per non-coinbase input in block order.

const MAGIC = [0x49, 0x42, 0x53, 0x31]; // "IBS1"

const HEX = /^(?:[0-9a-fA-F]{2})*$/;

/** Bytes of a CompactSize for n. */
const compactSizeLength = (n) => (n < 0xfd ? 1 : n <= 0xffff ? 3 : n <= 0xffffffff ? 5 : 9);

/**
 * Encodes a spent outputs list in the binary form (file header).
 * @param {string|{spent_outputs: Array<{txid: string, vout: number, value: number|bigint,
 *   script_pubkey: string}>}} doc spent_outputs.json's text or its parsed object (format:
 *   ../shared/blocks-fixtures/README.md)
 * @returns {Uint8Array}
 * @throws TypeError / RangeError naming the entry and field ("spent_outputs[2].vout: ...") for a
 *   JSON syntax error, a missing or mistyped field, a txid that is not 64 hex digits, a vout
 *   outside 0..2^32-1, a value that is not an integer within int64 (a JSON number above 2^53
 *   cannot be read exactly: an error, not a rounded amount), or a script that is not hex.
 *   Values outside the money range are kept: they are the engine's
 *   bad-txns-inputvalues-outofrange verdict.
 */
export function encodeSpentOutputs(doc) {
  const parsed = typeof doc === 'string' ? JSON.parse(doc) : doc;
  const list = parsed?.spent_outputs;
  if (!Array.isArray(list)) throw new TypeError('spent outputs JSON: "spent_outputs" is missing or not an array');
  const fail = (i, field, problem) => { throw new RangeError(`spent_outputs[${i}].${field}: ${problem}`); };
  let size = 8;
  const entries = Array.from(list, (e, i) => { // every index, holes included (map skips them)
    if (e === null || typeof e !== 'object') throw new TypeError(`spent_outputs[${i}]: not an object`);
    if (typeof e.txid !== 'string' || e.txid.length !== 64 || !HEX.test(e.txid)) fail(i, 'txid', 'not 64 hex digits');
    if (!Number.isInteger(e.vout) || e.vout < 0 || e.vout > 0xffffffff) fail(i, 'vout', `not an integer in 0..4294967295: ${JSON.stringify(e.vout)}`);
    let value;
    if (typeof e.value === 'bigint') value = e.value;
    else if (Number.isSafeInteger(e.value)) value = BigInt(e.value);
    else fail(i, 'value', typeof e.value === 'number' ? `not an exact integer: ${e.value}` : `not a number but ${typeof e.value === 'string' ? 'a string' : typeof e.value}: ${JSON.stringify(e.value)}`);
    if (value < -(2n ** 63n) || value >= 2n ** 63n) fail(i, 'value', 'outside int64');
    if (e.script_pubkey === undefined) fail(i, 'script_pubkey', `missing${'scriptPubKey' in e ? ' (the field is script_pubkey, not scriptPubKey)' : ''}`);
    if (typeof e.script_pubkey !== 'string' || !HEX.test(e.script_pubkey)) fail(i, 'script_pubkey', 'not hex');
    const scriptLength = e.script_pubkey.length / 2;
    size += 44 + compactSizeLength(scriptLength) + scriptLength;
    return { txid: e.txid, vout: e.vout, value, script: e.script_pubkey, scriptLength };
  });
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out.set(MAGIC, 0);
  view.setUint32(4, entries.length, true);
  let at = 8;
  for (const e of entries) {
    for (let k = 0; k < 32; k++) out[at + k] = parseInt(e.txid.slice(62 - 2 * k, 64 - 2 * k), 16);
    view.setUint32(at + 32, e.vout, true);
    view.setBigInt64(at + 36, e.value, true);
    at += 44;
    const n = e.scriptLength;
    if (n < 0xfd) {
      out[at++] = n;
    } else if (n <= 0xffff) {
      out[at++] = 0xfd;
      view.setUint16(at, n, true);
      at += 2;
    } else {
      out[at++] = 0xfe;
      view.setUint32(at, n, true);
      at += 4;
    }
    for (let k = 0; k < n; k++) out[at + k] = parseInt(e.script.slice(2 * k, 2 * k + 2), 16);
    at += n;
  }
  return out;
}
