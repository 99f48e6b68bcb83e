// Decodes packed signature-check records (native/verify/check_buffer.h) into the arguments the peer
// libraries take: most peers verify a 64-byte compact (r || s) ECDSA signature, not Bitcoin's
// DER. The conversion follows the engine's (Bitcoin Core's) semantics, so a peer's verdict can
// be compared with ibd-wasm's: Core's lax DER parser (src/pubkey.cpp,
// ecdsa_signature_parse_der_lax; its JS transcription lives in der.mjs), then
// low-S normalization (secp256k1_ecdsa_signature_normalize, as CPubKey::Verify does).
// Decoding happens once, before any timing: peers are timed on verification alone.
import { parseDerLax, SECP256K1_N } from './der.mjs';
import { CHECK_HEADER_SIZE, CheckType } from '../../../wasm/check-buffer.mjs';

const HALF_N = SECP256K1_N / 2n;

function bigToBytes32(v, out, at) {
  for (let i = 31; i >= 0; i--) {
    out[at + i] = Number(v & 0xffn);
    v >>= 8n;
  }
}

/**
 * Converts one DER ECDSA signature (without its hash-type byte) to compact form.
 * @param {Uint8Array} der the record's signature bytes
 * @returns {Uint8Array|null} 64 bytes r || s (big-endian, s low: s <= n/2), all zero when Core
 *   parses it into its "correctly parsed but invalid" value (an integer over 32 bytes, r or s
 *   >= n); null when Core's lax parser rejects it (the check is then invalid without any
 *   verification, as in the engine).
 */
export function compactFromDer(der) {
  const rs = parseDerLax(der);
  if (!rs) return null;
  const out = new Uint8Array(64);
  bigToBytes32(rs.r, out, 0);
  bigToBytes32(rs.s > HALF_N ? SECP256K1_N - rs.s : rs.s, out, 32);
  return out;
}

/**
 * Decodes every record of a walked buffer of ONE type.
 * @param {Uint8Array} checks packed records
 * @param {{count: number, offsets: Uint32Array, types: Uint8Array}} walked walkChecks(checks)
 * @returns {Array<{type: number, msg32: Uint8Array, pubkey: Uint8Array, sig: Uint8Array|null}>}
 *   views into `checks` (msg32: 32 bytes; pubkey: 33/65-byte SEC1 key for ECDSA, 32-byte x-only
 *   key for Schnorr; sig: the 64-byte BIP340 signature, or compactFromDer of the DER signature).
 */
export function decodeChecks(checks, walked) {
  const out = new Array(walked.count);
  for (let i = 0; i < walked.count; i++) {
    const at = walked.offsets[i];
    const pubkeyLen = checks[at + 1];
    const sigLen = checks[at + 2] | (checks[at + 3] << 8);
    const msg32 = checks.subarray(at + 4, at + 36);
    const pubkey = checks.subarray(at + CHECK_HEADER_SIZE, at + CHECK_HEADER_SIZE + pubkeyLen);
    const raw = checks.subarray(at + CHECK_HEADER_SIZE + pubkeyLen, at + CHECK_HEADER_SIZE + pubkeyLen + sigLen);
    const type = walked.types[i];
    out[i] = { type, msg32, pubkey, sig: type === CheckType.ECDSA ? compactFromDer(raw) : raw };
  }
  return out;
}
