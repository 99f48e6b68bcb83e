// The check buffer (native/verify/check_buffer.h) in JavaScript: its reader (record offsets, counts by
// type, batches of at most N records, per-type selections) and its writer (one record, several
// buffers joined). Record boundaries come from each record's own header; nothing is assumed
// about sizes.
//
//   record: type u8 | pubkey_len u8 | sig_len u16 LE | msg32 [32] | pubkey | sig
//   record size = 36 + pubkey_len + sig_len

/** Size in bytes of a record's fixed part (kCheckHeaderSize in check_buffer.h). */
export const CHECK_HEADER_SIZE = 36;
/** Largest ECDSA signature in a record (kMaxEcdsaSigLen, MAX_SCRIPT_ELEMENT_SIZE). */
export const MAX_ECDSA_SIG_LEN = 520;
/** Largest record in bytes: header, a 255-byte pubkey (pubkey_len is a u8), a 520-byte ECDSA
 *  signature. */
export const MAX_RECORD_BYTES = CHECK_HEADER_SIZE + 255 + MAX_ECDSA_SIG_LEN;
/** Record types (CheckType in check_buffer.h). */
export const CheckType = Object.freeze({ ECDSA: 1, SCHNORR: 2 });
/** Verdict bytes (Verdict in check_buffer.h). */
export const Verdict = Object.freeze({ INVALID: 0, VALID: 1 });

/** Name of a CheckType value as used in reports ("ecdsa", "schnorr"). */
export function checkTypeName(type) {
  if (type === CheckType.ECDSA) return 'ecdsa';
  if (type === CheckType.SCHNORR) return 'schnorr';
  return `type ${type}`;
}

/**
 * Finds every record of `checks` and validates its framing the way VerifyBatch would
 * (batch_verify.h): truncated record, unknown type, Schnorr lengths other than 32/64, ECDSA
 * sig_len > 520 are errors.
 * @param {Uint8Array} checks packed records
 * @returns {{count: number, offsets: Uint32Array, types: Uint8Array,
 *   byType: {ecdsa: number, schnorr: number}}} `offsets` has count+1 entries (the last is
 *   checks.length), so record i is checks[offsets[i] .. offsets[i+1]).
 * @throws Error naming the record index and byte offset of the first malformed record.
 */
export function walkChecks(checks) {
  const starts = [];
  const types = [];
  const byType = { ecdsa: 0, schnorr: 0 };
  let offset = 0;
  while (offset < checks.length) {
    const where = `check record ${starts.length} at byte ${offset}`;
    if (checks.length - offset < CHECK_HEADER_SIZE) {
      throw new Error(`${where}: truncated header (${checks.length - offset} of ${CHECK_HEADER_SIZE} bytes)`);
    }
    const type = checks[offset];
    const pubkeyLen = checks[offset + 1];
    const sigLen = checks[offset + 2] | (checks[offset + 3] << 8);
    if (type === CheckType.ECDSA) {
      if (sigLen > MAX_ECDSA_SIG_LEN) throw new Error(`${where}: ECDSA sig_len ${sigLen} > ${MAX_ECDSA_SIG_LEN}`);
      byType.ecdsa++;
    } else if (type === CheckType.SCHNORR) {
      if (pubkeyLen !== 32 || sigLen !== 64) {
        throw new Error(`${where}: Schnorr record with pubkey_len ${pubkeyLen}, sig_len ${sigLen} (expected 32, 64)`);
      }
      byType.schnorr++;
    } else {
      throw new Error(`${where}: unknown check type ${type}`);
    }
    const size = CHECK_HEADER_SIZE + pubkeyLen + sigLen;
    if (checks.length - offset < size) {
      throw new Error(`${where}: truncated record (${checks.length - offset} of ${size} bytes)`);
    }
    starts.push(offset);
    types.push(type);
    offset += size;
  }
  const offsets = new Uint32Array(starts.length + 1);
  offsets.set(starts);
  offsets[starts.length] = checks.length;
  return { count: starts.length, offsets, types: Uint8Array.from(types), byType };
}

/**
 * Splits walked records into consecutive batches of at most `batchSize` records. With
 * `multipleOf` (the worker count), the number of batches is rounded up to a multiple of it and
 * the records are spread evenly (sizes differ by at most one), so that N workers finish
 * together instead of one worker verifying the last full batch alone.
 * @param {{count: number, offsets: Uint32Array}} walked result of walkChecks
 * @param {number} batchSize records per batch at most, a positive integer
 * @param {number} [multipleOf=1] batch count granularity, a positive integer
 * @returns {Array<{first: number, count: number, byteOffset: number, byteLength: number}>}
 *   `first` is the index of the batch's first record; bytes are offsets into the buffer.
 * @throws RangeError when batchSize or multipleOf is not a positive integer.
 */
export function splitBatches(walked, batchSize, multipleOf = 1) {
  for (const [name, v] of [['batch size', batchSize], ['batch multiple', multipleOf]]) {
    if (!Number.isInteger(v) || v < 1) throw new RangeError(`${name} must be a positive integer, got ${typeof v === 'string' ? JSON.stringify(v) : v}`);
  }
  if (walked.count === 0) return [];
  let parts = Math.ceil(walked.count / batchSize);
  parts = Math.min(walked.count, Math.ceil(parts / multipleOf) * multipleOf);
  const batches = [];
  let first = 0;
  for (let k = 0; k < parts; k++) {
    const count = Math.floor(walked.count / parts) + (k < walked.count % parts ? 1 : 0);
    const byteOffset = walked.offsets[first];
    batches.push({ first, count, byteOffset, byteLength: walked.offsets[first + count] - byteOffset });
    first += count;
  }
  return batches;
}

/**
 * Copies the records of one type into a new buffer, in order.
 * @param {Uint8Array} checks packed records
 * @param {{count: number, offsets: Uint32Array, types: Uint8Array}} walked walkChecks(checks)
 * @param {number} type a CheckType value
 * @returns {{checks: Uint8Array, indices: Uint32Array}} the selected records and, for each,
 *   its index in the original buffer.
 */
export function selectByType(checks, walked, type) {
  const indices = [];
  for (let i = 0; i < walked.count; i++) if (walked.types[i] === type) indices.push(i);
  return copyRecords(checks, walked, indices);
}

/**
 * As selectByType, without a repeated key: the records of one type whose public key (the key
 * bytes as given: 33 or 65 bytes for ECDSA, 32 for Schnorr) no earlier record of that type
 * has, in order. Measures verification without key reuse, which a batch (one term per distinct
 * Schnorr key) and the engine's parsed-key cache (ECDSA) otherwise turn into speed
 * (docs/performance.md).
 * @param {Uint8Array} checks packed records
 * @param {{count: number, offsets: Uint32Array, types: Uint8Array}} walked walkChecks(checks)
 * @param {number} type a CheckType value
 * @returns {{checks: Uint8Array, indices: Uint32Array}} as selectByType
 */
export function selectFirstPerKey(checks, walked, type) {
  const seen = new Set();
  const indices = [];
  for (let i = 0; i < walked.count; i++) {
    if (walked.types[i] !== type) continue;
    const at = walked.offsets[i];
    const key = String.fromCharCode(...checks.subarray(at + CHECK_HEADER_SIZE, at + CHECK_HEADER_SIZE + checks[at + 1]));
    if (seen.has(key)) continue;
    seen.add(key);
    indices.push(i);
  }
  return copyRecords(checks, walked, indices);
}

/** The records at `indices` (walkChecks indices, in order) copied into a new buffer. */
function copyRecords(checks, walked, indices) {
  let bytes = 0;
  for (const i of indices) bytes += walked.offsets[i + 1] - walked.offsets[i];
  const out = new Uint8Array(bytes);
  let at = 0;
  for (const i of indices) {
    const record = checks.subarray(walked.offsets[i], walked.offsets[i + 1]);
    out.set(record, at);
    at += record.length;
  }
  return { checks: out, indices: Uint32Array.from(indices) };
}

/**
 * Concatenates check buffers (e.g. of several blocks) into one.
 * @param {Uint8Array[]} parts
 * @returns {Uint8Array}
 */
export function concatChecks(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Builds one record (for tests and vector runners).
 * @param {{type: number, msg32: Uint8Array, pubkey: Uint8Array, sig: Uint8Array}} check
 * @returns {Uint8Array} CHECK_HEADER_SIZE + pubkey.length + sig.length bytes
 * @throws TypeError when `check` is not an object or a field is not a Uint8Array; RangeError
 *   when type is not a CheckType, msg32 is not 32 bytes, the key is over 255 bytes or the
 *   signature over 65535 bytes (they would not fit the header fields).
 */
export function encodeCheck(check) {
  if (check === null || typeof check !== 'object') throw new TypeError(`encodeCheck needs {type, msg32, pubkey, sig}, got ${check === null ? 'null' : typeof check}`);
  const { type, msg32, pubkey, sig } = check;
  if (type !== CheckType.ECDSA && type !== CheckType.SCHNORR) throw new RangeError(`type must be CheckType.ECDSA (1) or CheckType.SCHNORR (2), got ${JSON.stringify(type) ?? typeof type}`);
  for (const [name, bytes] of [['msg32', msg32], ['pubkey', pubkey], ['sig', sig]]) {
    if (!(bytes instanceof Uint8Array)) throw new TypeError(`${name} must be a Uint8Array`);
  }
  if (msg32.length !== 32) throw new RangeError(`msg32 must be 32 bytes, got ${msg32.length}`);
  if (pubkey.length > 255) throw new RangeError(`pubkey of ${pubkey.length} bytes does not fit pubkey_len`);
  // What verifyBatch accepts (native/verify/check_buffer.h): a record it would refuse is refused here.
  if (type === CheckType.SCHNORR && (pubkey.length !== 32 || sig.length !== 64)) {
    throw new RangeError(`a Schnorr check takes a 32-byte x-only pubkey and a 64-byte signature, got ${pubkey.length} and ${sig.length} bytes`);
  }
  if (type === CheckType.ECDSA && sig.length > 520) throw new RangeError(`an ECDSA signature (DER, without its hash_type byte) is at most 520 bytes, got ${sig.length}`);
  const out = new Uint8Array(CHECK_HEADER_SIZE + pubkey.length + sig.length);
  out[0] = type;
  out[1] = pubkey.length;
  out[2] = sig.length & 0xff;
  out[3] = sig.length >> 8;
  out.set(msg32, 4);
  out.set(pubkey, CHECK_HEADER_SIZE);
  out.set(sig, CHECK_HEADER_SIZE + pubkey.length);
  return out;
}
