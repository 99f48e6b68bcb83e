// libsecp256k1's 5x52 field multiply and square as wasm function bodies that use the
// wide-arithmetic proposal's 64x64->128-bit instructions (i64.mul_wide_u, i64.add128), and
// compiler-rt's __multi3 likewise. patch.mjs puts them into the 'wide' variant after the link.
//
// A field element is five uint64 limbs of 52 bits (libsecp256k1 src/field_5x52.h), little end
// first, 40 bytes. The bodies follow secp256k1_fe_mul_inner and secp256k1_fe_sqr_inner of
// src/field_5x52_int128_impl.h (libsecp256k1 0.5.0) step by step: the same products, the same
// 128-bit accumulators c and d (held as two i64 locals each), the same shifts and masks, in the
// same order. Every step is exact (a 128-bit sum wraps mod 2^128 in both), so the results are
// bit-identical to the C functions', which the build compiles into the module in their place
// (native/secp256k1/secp256k1_ibd.c, IBD_FIELD_5X52_OUT_OF_LINE). tests/wide-arithmetic.test.mjs
// checks these bodies in Chromium against BigInt (the value mod p and the output bounds) and
// that the shipped module holds them byte for byte; a hostile review compared them bit for bit
// with the C functions (gcc) on 60,035 inputs, none differing (docs/performance.md).
//
// Why: wasm has no 64x64->128-bit multiply, so clang builds the 5x52 field's products as calls
// to __multi3 (four 32-bit products each, through memory), and ibd-wasm's other variants use the
// 10x26 field instead (cmake/secp256k1.cmake). With i64.mul_wide_u (one x64 `mul`), the 5x52
// field, which the native build uses, is the faster one (docs/performance.md, "Wide arithmetic").
// Host-neutral: imports only the binary helpers.
import { sleb, uleb } from './wasm-binary.mjs';

/** Opcodes: core MVP, and the wide-arithmetic proposal's (prefix 0xfc; Overview.md). */
const OP = Object.freeze({
  localGet: 0x20, localSet: 0x21, i64Load: 0x29, i64Store: 0x37, i64Const: 0x42, end: 0x0b,
  i64Add: 0x7c, i64Mul: 0x7e, i64And: 0x83, i64Or: 0x84, i64Shl: 0x86, i64ShrU: 0x88,
});
export const MUL_WIDE_U = Object.freeze([0xfc, 0x16]);
export const ADD128 = Object.freeze([0xfc, 0x13]);
const I64 = 0x7e;

const M52 = (1n << 52n) - 1n;
const R = 0x1000003d10n; // 2^256 mod p, times 2^4: libsecp256k1's R for the 5x52 field

/** Assembles one body: `params` i32 parameters, then i64 locals allocated by `local()`. */
function assembler(params) {
  let next = params;
  const code = [];
  const a = {
    local: () => next++,
    emit: (...xs) => { for (const x of xs) Array.isArray(x) ? code.push(...x) : code.push(x); },
    get: (x) => [OP.localGet, x],
    set: (x) => [OP.localSet, x],
    k: (v) => [OP.i64Const, ...sleb(v)],
    body: () => [1, ...uleb(next - params), I64, ...code, OP.end],
  };
  return a;
}

/** One of the two bodies; `square` selects secp256k1_fe_sqr_inner's sequence. Params: r, a[, b]. */
function fieldBody(square) {
  const A = assembler(square ? 2 : 3);
  const { emit, get, set, k } = A;
  const a = Array.from({ length: 5 }, A.local);
  const b = square ? a : Array.from({ length: 5 }, A.local);
  const [t3, t4, tx, u0, cl, ch, dl, dh] = Array.from({ length: 8 }, A.local);
  const operand = (x) => (typeof x === 'number' ? get(x) : x);
  for (let i = 0; i < 5; i++) emit(get(1), OP.i64Load, 3, uleb(8 * i), set(a[i]));
  if (!square) for (let i = 0; i < 5; i++) emit(get(2), OP.i64Load, 3, uleb(8 * i), set(b[i]));
  // the 128-bit steps of src/int128_native_impl.h
  const mul = (lo, hi, x, y) => emit(operand(x), operand(y), MUL_WIDE_U, set(hi), set(lo));
  const acc = (lo, hi, x, y) => emit(get(lo), get(hi), operand(x), operand(y), MUL_WIDE_U, ADD128, set(hi), set(lo));
  const accU64 = (lo, hi, x) => emit(get(lo), get(hi), operand(x), k(0), ADD128, set(hi), set(lo));
  const shr52 = (lo, hi) => emit(get(lo), k(52), OP.i64ShrU, get(hi), k(12), OP.i64Shl, OP.i64Or, set(lo),
    get(hi), k(52), OP.i64ShrU, set(hi));
  const shr64 = (lo, hi) => emit(get(hi), set(lo), k(0), set(hi));
  const low52 = (lo) => [...get(lo), ...k(M52), OP.i64And];
  const twice = (x) => [...get(x), ...k(1), OP.i64Shl];
  const store = (i, expr) => emit(get(0), expr, OP.i64Store, 3, uleb(8 * i));
  const splitT4 = () => emit(get(t4), k(48), OP.i64ShrU, set(tx), get(t4), k(M52 >> 4n), OP.i64And, set(t4));
  const makeU0 = () => emit(get(u0), k(4), OP.i64Shl, get(tx), OP.i64Or, set(u0));
  if (!square) {
    mul(dl, dh, a[0], b[3]); acc(dl, dh, a[1], b[2]); acc(dl, dh, a[2], b[1]); acc(dl, dh, a[3], b[0]);
    mul(cl, ch, a[4], b[4]);
    acc(dl, dh, k(R), cl); shr64(cl, ch);
    emit(low52(dl), set(t3)); shr52(dl, dh);
    acc(dl, dh, a[0], b[4]); acc(dl, dh, a[1], b[3]); acc(dl, dh, a[2], b[2]); acc(dl, dh, a[3], b[1]); acc(dl, dh, a[4], b[0]);
    acc(dl, dh, k(R << 12n), cl);
    emit(low52(dl), set(t4)); shr52(dl, dh);
    splitT4();
    mul(cl, ch, a[0], b[0]);
    acc(dl, dh, a[1], b[4]); acc(dl, dh, a[2], b[3]); acc(dl, dh, a[3], b[2]); acc(dl, dh, a[4], b[1]);
    emit(low52(dl), set(u0)); shr52(dl, dh);
    makeU0();
    acc(cl, ch, u0, k(R >> 4n));
    store(0, low52(cl)); shr52(cl, ch);
    acc(cl, ch, a[0], b[1]); acc(cl, ch, a[1], b[0]);
    acc(dl, dh, a[2], b[4]); acc(dl, dh, a[3], b[3]); acc(dl, dh, a[4], b[2]);
    acc(cl, ch, low52(dl), k(R)); shr52(dl, dh);
    store(1, low52(cl)); shr52(cl, ch);
    acc(cl, ch, a[0], b[2]); acc(cl, ch, a[1], b[1]); acc(cl, ch, a[2], b[0]);
    acc(dl, dh, a[3], b[4]); acc(dl, dh, a[4], b[3]);
  } else {
    mul(dl, dh, twice(a[0]), a[3]); acc(dl, dh, twice(a[1]), a[2]);
    mul(cl, ch, a[4], a[4]);
    acc(dl, dh, k(R), cl); shr64(cl, ch);
    emit(low52(dl), set(t3)); shr52(dl, dh);
    emit(twice(a[4]), set(a[4]));
    acc(dl, dh, a[0], a[4]); acc(dl, dh, twice(a[1]), a[3]); acc(dl, dh, a[2], a[2]);
    acc(dl, dh, k(R << 12n), cl);
    emit(low52(dl), set(t4)); shr52(dl, dh);
    splitT4();
    mul(cl, ch, a[0], a[0]);
    acc(dl, dh, a[1], a[4]); acc(dl, dh, twice(a[2]), a[3]);
    emit(low52(dl), set(u0)); shr52(dl, dh);
    makeU0();
    acc(cl, ch, u0, k(R >> 4n));
    store(0, low52(cl)); shr52(cl, ch);
    emit(twice(a[0]), set(a[0]));
    acc(cl, ch, a[0], a[1]);
    acc(dl, dh, a[2], a[4]); acc(dl, dh, a[3], a[3]);
    acc(cl, ch, low52(dl), k(R)); shr52(dl, dh);
    store(1, low52(cl)); shr52(cl, ch);
    acc(cl, ch, a[0], a[2]); acc(cl, ch, a[1], a[1]);
    acc(dl, dh, a[3], a[4]);
  }
  acc(cl, ch, k(R), dl); shr64(dl, dh);
  store(2, low52(cl)); shr52(cl, ch);
  acc(cl, ch, k(R << 12n), dl);
  accU64(cl, ch, t3);
  store(3, low52(cl)); shr52(cl, ch);
  store(4, [...get(cl), ...get(t4), OP.i64Add]);
  return A.body();
}

/**
 * Body of `void mul(uint64_t r[5], const uint64_t a[5], const uint64_t b[5])`, wasm type
 * (i32, i32, i32) -> (): r = a*b mod p in libsecp256k1's 5x52 representation, as
 * secp256k1_fe_mul_inner (a, b of magnitude at most 8; r of magnitude 1, not normalized).
 * r may alias a or b (both are read first). Uses i64.mul_wide_u and i64.add128.
 * @returns {number[]}
 */
export const fieldMulBody = () => fieldBody(false);

/** Body of `void sqr(uint64_t r[5], const uint64_t a[5])`, (i32, i32) -> (): r = a^2 mod p, as
 *  secp256k1_fe_sqr_inner. @returns {number[]} */
export const fieldSqrBody = () => fieldBody(true);

/**
 * Body of compiler-rt's `void __multi3(ti_int *ret, i64 a_lo, i64 a_hi, i64 b_lo, i64 b_hi)`,
 * wasm type (i32, i64, i64, i64, i64) -> (): ret = the low 128 bits of a*b (16 bytes, low half
 * first), with one i64.mul_wide_u for a_lo*b_lo and two i64.mul for the cross terms. clang calls
 * it for every 128-bit multiply left in the module (libsecp256k1's 4x64 scalar, modinv64).
 * @returns {number[]}
 */
export function multi3Body() {
  const [ret, aLo, aHi, bLo, bHi, lo, hi] = [0, 1, 2, 3, 4, 5, 6];
  return [1, 2, I64,
    OP.localGet, aLo, OP.localGet, bLo, ...MUL_WIDE_U, OP.localSet, hi, OP.localSet, lo,
    OP.localGet, ret, OP.localGet, lo, OP.i64Store, 3, 0,
    OP.localGet, ret,
    OP.localGet, hi, OP.localGet, aLo, OP.localGet, bHi, OP.i64Mul, OP.i64Add,
    OP.localGet, aHi, OP.localGet, bLo, OP.i64Mul, OP.i64Add,
    OP.i64Store, 3, 8,
    OP.end];
}

/** The functions patch.mjs replaces, by the name the link gives them (emcc --profiling-funcs),
 *  with their wasm types' parameter lists (0x7f i32, 0x7e i64) and the new bodies. */
export const REPLACEMENTS = Object.freeze([
  { name: 'ibd_fe_mul_inner', params: [0x7f, 0x7f, 0x7f], body: fieldMulBody },
  { name: 'ibd_fe_sqr_inner', params: [0x7f, 0x7f], body: fieldSqrBody },
  { name: '__multi3', params: [0x7f, I64, I64, I64, I64], body: multi3Body },
]);

/**
 * A small module exporting the three replacements as `mul`, `sqr` and `multi3`, and its memory
 * (one 64 KiB page) as `memory`: what tests/wide-arithmetic.test.mjs checks against BigInt and
 * against the C functions. Compiles only where the host has wide arithmetic.
 * @returns {Uint8Array}
 */
export function standaloneModule() {
  const types = REPLACEMENTS.map((r) => [0x60, ...uleb(r.params.length), ...r.params, 0]);
  const section = (id, content) => [id, ...uleb(content.length), ...content];
  const names = ['mul', 'sqr', 'multi3'];
  const exportsSec = [...uleb(names.length + 1),
    ...names.flatMap((n, i) => [...uleb(n.length), ...new TextEncoder().encode(n), 0, i]),
    6, ...new TextEncoder().encode('memory'), 2, 0];
  const bodies = REPLACEMENTS.map((r) => r.body());
  return Uint8Array.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    ...section(1, [...uleb(types.length), ...types.flat()]),
    ...section(3, [...uleb(bodies.length), ...bodies.map((_, i) => i)]),
    ...section(5, [1, 0, 1]),
    ...section(7, exportsSec),
    ...section(10, [...uleb(bodies.length), ...bodies.flatMap((b) => [...uleb(b.length), ...b])])]);
}
