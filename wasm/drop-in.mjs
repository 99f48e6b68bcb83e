// tiny-secp256k1's single-signature calls over an ibd-wasm engine: the same names, argument order,
// results and errors (tiny-secp256k1 2.2.4, lib/index.js and lib/validate.js), so that a project
// switches by changing an import. Host-neutral: give it an engine from loadEngine (Node,
// wasm/engine.mjs) or loadWebEngine (browser, wasm/engine-web.mjs).
//
//   verify(h, Q, signature, strict = false)  ECDSA, compact 64-byte signature (r || s)
//   verifySchnorr(h, Q, signature)           BIP340, 32-byte x-only key
//   isPoint(p)                               33 or 65 bytes that parse as a public key
//
// Errors, as tiny-secp256k1's: TypeError("Expected Hash") for a hash that is not a 32-byte
// Uint8Array; TypeError("Expected Point") for a key of the wrong type or size, or one that does
// not parse (not on the curve, a bad prefix, x >= p); TypeError("Expected Signature") for a
// signature that is not 64 bytes, or whose r or s is not below the group order n. Checked in
// that order, the key's parse last. A well-formed signature that does not verify is `false`.

const N = Uint8Array.from([
  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe,
  0xba, 0xae, 0xdc, 0xe6, 0xaf, 0x48, 0xa0, 0x3b, 0xbf, 0xd2, 0x5e, 0x8c, 0xd0, 0x36, 0x41, 0x41,
]);

/** Whether the 32 big-endian bytes at `at` of `bytes` are below the group order n. */
function belowN(bytes, at) {
  for (let i = 0; i < 32; i++) {
    if (bytes[at + i] !== N[i]) return bytes[at + i] < N[i];
  }
  return false;
}

const fail = (what) => { throw new TypeError(`Expected ${what}`); };
/**
 * Whether `x` is a real Uint8Array (or subclass, such as Buffer): not a Proxy of one nor an object
 * that merely inherits its prototype, whose typed-array getters would throw V8's "incompatible
 * receiver" inside plainView.
 * @param {unknown} x
 * @returns {boolean}
 */
export const isBytes = (x) => x instanceof Uint8Array && ArrayBuffer.isView(x);

// The typed-array getters themselves: a subclass may override `length` and friends, but what a
// copy into wasm memory writes is the real extent, so every size check reads it here.
const TYPED = Object.getPrototypeOf(Uint8Array.prototype);
const getter = (name) => Object.getOwnPropertyDescriptor(TYPED, name).get;
const lengthOf = getter('length');
const bufferOf = getter('buffer');
const offsetOf = getter('byteOffset');

/**
 * A plain Uint8Array over the same bytes as `bytes` (a Uint8Array or a subclass of it, such as
 * Buffer), whose length is the real one whatever `bytes` claims: what the engine's copies into
 * wasm memory rely on.
 * @param {Uint8Array} bytes
 * @returns {Uint8Array}
 */
export function plainView(bytes) {
  return new Uint8Array(bufferOf.call(bytes), offsetOf.call(bytes), lengthOf.call(bytes));
}
const len = (x) => lengthOf.call(x);

function checkHash(h) {
  if (!isBytes(h) || len(h) !== 32) fail('Hash');
}

function checkSignature(s) {
  if (!isBytes(s) || len(s) !== 64 || !belowN(s, 0) || !belowN(s, 32)) fail('Signature');
}

/** verifySingle's verdicts (native/verify/single_verify.h SingleVerdict; 0 is invalid). */
const VALID = 1;
const BAD_POINT = 2;

/** Bytes of the scratch region: msg32 | key (at most 65) | signature (64). */
const SCRATCH_BYTES = 32 + 65 + 64;

/**
 * The drop-in calls over one engine instance.
 * @param {object} engine the wasm module (loadEngine / loadWebEngine): verifySingle, _malloc,
 *   HEAPU8 (wasm/API.md)
 * @returns {{verify: (h: Uint8Array, Q: Uint8Array, signature: Uint8Array, strict?: boolean) =>
 *   boolean, verifySchnorr: (h: Uint8Array, Q: Uint8Array, signature: Uint8Array) => boolean,
 *   isPoint: (p: unknown) => boolean}} each a call into the instance (about 1 µs of its own beside
 *   the verification: its arguments copied into a 161-byte region allocated once)
 * @throws {Error} when the region cannot be allocated
 */
export function createDropIn(engine) {
  const scratch = engine._malloc(SCRATCH_BYTES);
  if (!scratch) throw new Error(`wasm _malloc(${SCRATCH_BYTES}) failed: out of memory for the drop-in's scratch region`);

  /** The key's parse at `at` of the region (kind 3 a public key, 4 an x-only key). */
  const parses = (p, kind) => {
    engine.HEAPU8.set(plainView(p), scratch);
    return engine.verifySingle(scratch, kind, len(p), false) === VALID;
  };

  const run = (kind, h, Q, signature, strict) => {
    const heap = engine.HEAPU8;
    heap.set(plainView(h), scratch);
    heap.set(plainView(Q), scratch + 32);
    heap.set(plainView(signature), scratch + 32 + len(Q));
    const verdict = engine.verifySingle(scratch, kind, len(Q), strict);
    if (verdict === BAD_POINT) fail('Point');
    return verdict === VALID;
  };

  return {
    /** tiny-secp256k1's verify: ECDSA of `signature` (r || s) over `h` by key `Q` (33 or 65
     *  bytes; a 32-byte key passes the size check and fails to parse, as there); a high S verifies
     *  unless `strict` is exactly true. */
    verify(h, Q, signature, strict = false) {
      checkHash(h);
      if (!isBytes(Q) || (len(Q) !== 32 && len(Q) !== 33 && len(Q) !== 65)) fail('Point');
      checkSignature(signature);
      if (len(Q) === 32) fail('Point');
      return run(1, h, Q, signature, strict === true);
    },
    /** tiny-secp256k1's verifySchnorr: BIP340 verification of `signature` over the 32-byte `h`
     *  by the x-only key `Q`. */
    verifySchnorr(h, Q, signature) {
      checkHash(h);
      if (!isBytes(Q) || len(Q) !== 32) fail('Point');
      checkSignature(signature);
      return run(2, h, Q, signature, false);
    },
    /** tiny-secp256k1's isPoint: `p` is a 33- or 65-byte Uint8Array that parses as a public
     *  key (compressed, uncompressed or hybrid); never throws. */
    isPoint(p) {
      return isBytes(p) && (len(p) === 33 || len(p) === 65) && parses(p, 3);
    },
  };
}
