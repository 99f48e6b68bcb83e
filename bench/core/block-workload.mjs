// What a validated block holds, as the workload table and the cost model count it: its
// transactions, inputs, signature checks by kind, sighash bytes by kind and bytes. Counted by the
// engine itself (validateBlock's result: its final checks and their origins, its coverage by
// script type and its sighash workload, wasm/API.md), never by a second parser. Host-neutral.
import { CHECK_HEADER_SIZE, CheckType, walkChecks } from '../../wasm/check-buffer.mjs';

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** The block header's nTime (bytes 68..71, little-endian), unix seconds. */
export function headerTime(block) {
  return (block[68] | (block[69] << 8) | (block[70] << 16)) + block[71] * 2 ** 24;
}

/**
 * The workload of one validated block.
 * @param {object} result validateBlock's result (ok), or a merged one (workers/block-jobs.mjs)
 * @param {{height: number, block: Uint8Array}} block the block bytes it validated
 * @returns {{height: number, time: number, bytes: number, txs: number, inputs: number,
 *   checks: {ecdsa_single: number, ecdsa_multisig: number, schnorr_keypath: number,
 *   schnorr_scriptpath: number}, ecdsa_keys: {first_compressed: number, first_other: number,
 *   repeat: number}, sighash_bytes: {legacy: number, bip143: number, bip341: number},
 *   legacy_sighash_hashed: number, calls: number,
 *   sighashes: {legacy: number, bip143: number, bip341: number},
 *   inputs_by_type: {[type: string]: number}, checks_by_type: {[type: string]: number},
 *   script_bytes_by_type: {[type: string]: number}}}
 *   checks: the final checks (as Core performs them); ecdsa_multisig counts the ECDSA checks of
 *   inputs that made more than one (OP_CHECKMULTISIG trials, or several OP_CHECKSIGs in one
 *   script), ecdsa_single those of inputs that made one; schnorr_keypath those of p2tr-keypath
 *   inputs, schnorr_scriptpath the other Schnorr checks (tapscript). ecdsa_keys: the same ECDSA
 *   checks by public key, which sets what a check costs (the key cache of VerifyBatch,
 *   native/verify/batch_verify.cpp): repeat, under a key an earlier ECDSA check of the block
 *   used (parsed once, and from its second use verified with the key's own tables, half the
 *   doublings); else the key's first check in the block: first_compressed for a 33-byte key
 *   (its parse computes a square root), first_other for any other length (65 bytes: none). A
 *   block split into ranges counts over the whole block, though each range's worker sees its
 *   keys anew. sighash_bytes: message
 *   bytes (BIP143 and BIP341: with their per-transaction precomputation), bytes;
 *   legacy_sighash_hashed: the bytes the engine fed SHA-256 for the legacy ones (less than their
 *   messages where its LegacySighashCache held part of them: what its time follows); calls:
 *   the engine calls that validated it (a block split into ranges for the workers takes one per
 *   range, each parsing or skimming the whole block: workers/block-jobs.mjs); inputs_by_type:
 *   the inputs by the script type they spend (the engine's coverage names, script_type.h);
 *   checks_by_type: their final checks; script_bytes_by_type: the bytes of script the
 *   interpreter is given for them (scriptSig, spent scriptPubKey, witness items).
 * @throws {Error} naming the block when the result is a failure
 */
export function blockWorkload(result, block) {
  if (!result.ok) throw new Error(`block ${block.height}: ${result.error}`);
  const walked = walkChecks(result.checks);
  const ecdsaPerInput = new Map();
  const keysSeen = new Set();
  const keys = { first_compressed: 0, first_other: 0, repeat: 0 };
  for (let i = 0; i < walked.count; i++) {
    const at = walked.offsets[i];
    if (result.checks[at] !== CheckType.ECDSA) continue;
    const input = `${result.origins[2 * i]}:${result.origins[2 * i + 1]}`;
    ecdsaPerInput.set(input, (ecdsaPerInput.get(input) ?? 0) + 1);
    const pubkeyLen = result.checks[at + 1];
    const pubkey = hex(result.checks.subarray(at + CHECK_HEADER_SIZE, at + CHECK_HEADER_SIZE + pubkeyLen));
    if (keysSeen.has(pubkey)) keys.repeat += 1;
    else {
      keysSeen.add(pubkey);
      if (pubkeyLen === 33) keys.first_compressed += 1;
      else keys.first_other += 1;
    }
  }
  let single = 0;
  let multisig = 0;
  for (const n of ecdsaPerInput.values()) {
    if (n === 1) single += 1;
    else multisig += n;
  }
  const keypath = result.coverage['p2tr-keypath']?.checks ?? 0;
  const s = result.sighash;
  return {
    height: block.height,
    time: headerTime(block.block),
    bytes: block.block.length,
    txs: result.txCount,
    inputs: result.inputs,
    checks: { ecdsa_single: single, ecdsa_multisig: multisig, schnorr_keypath: keypath, schnorr_scriptpath: result.schnorr - keypath },
    ecdsa_keys: keys,
    sighash_bytes: { legacy: s.legacy.bytes, bip143: s.bip143.bytes + s.precomputeBip143Bytes, bip341: s.bip341.bytes + s.precomputeBip341Bytes },
    legacy_sighash_hashed: s.legacy.hashedBytes,
    calls: result.calls ?? 1,
    sighashes: { legacy: s.legacy.count, bip143: s.bip143.count, bip341: s.bip341.count },
    inputs_by_type: Object.fromEntries(Object.entries(result.coverage).map(([type, c]) => [type, c.inputs])),
    checks_by_type: Object.fromEntries(Object.entries(result.coverage).map(([type, c]) => [type, c.checks])),
    script_bytes_by_type: Object.fromEntries(Object.entries(result.coverage).map(([type, c]) => [type, c.scriptBytes])),
  };
}
