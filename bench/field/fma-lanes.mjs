#!/usr/bin/env node
// Issue 13's relaxed-SIMD scheme measured: a field multiply mod p in f64x2 lanes with fused
// multiply-add, and its product phase alone, against libsecp256k1's own 10x26 multiply in wasm,
// on one core, warm.
//
//   node bench/field/fma-lanes.mjs [--rounds N] [--cases N] [--chromium] [--json]
//
// The scheme: 5 limbs of 52 bits held as doubles, two field elements per v128 (two signatures in
// lockstep). Each 52x52-bit limb product is split exactly into a high and a low half with two
// fused multiply-adds (f64x2.relaxed_madd, where the host fuses it):
//   hi = fma(a, b, 2^104)             2^104 + H*2^52: the product rounded to a multiple of 2^52
//   lo = fma(a, b, 2^104 - hi)        a*b - H*2^52, exact, in [-2^51, 2^51]
// and the halves' bit patterns are summed in i64x2 columns (lo biased by 3*2^51 so its pattern is
// bits(3*2^51) + lo; the biases are taken off up front), then carried to 52-bit limbs: the
// exact product of two 260-bit numbers (`product`). `mul` then reduces it mod p, folding
// 2^260 = 0x1000003D10 (mod p) three times, each fold's products split as above; the bound that
// makes the third fold the last is at the fold.
//
// The module is written here, byte by byte (no toolchain this project can install emits the
// final relaxed-SIMD opcodes: Debian's emcc 3.1.6 / LLVM 14 emits the prototype f64x2.fma
// 0xfd 0xcf 0x01, which no current engine accepts). It runs in a child Node process started with
// --experimental-wasm-relaxed-simd (Node 20's V8 11.3 has relaxed SIMD only behind it); the
// scalar reference is build/bench/field/portable.cjs (`node bench/field/field-mul.mjs` builds
// it), in its own process, alternated round by round.
// 1. Fused check: relaxed_madd(1+2^-30, 1+2^-30, -(1+2^-29)) is 2^-60 when fused, 0 when not;
//    an unfused host stops the run (the split is exact only when fused).
// 2. Differential check (`--cases`, default 200,000 lane pairs, random and edge-case limbs
//    below 2^52): the carried product equals BigInt's, and the reduced one is below 2^260, each
//    limb below 2^52, and equal to it mod p.
// 3. ns per multiply, for `product` and `mul`: a dependent chain of 2,000,000 calls, each two
//    lanes (two multiplies), the low limbs fed back as the next input; against the portable
//    multiply's dependent chain of noinline calls.
// 4. With --chromium, each round also times the same module's two chains in a page of Debian's
//    Chromium (relaxed SIMD on without a flag there), after the same fused check; the scalar
//    reference is a Node build, so Chromium's lanes are compared with Node's lanes.
// Exit 0; 1 when the host does not fuse, a product differs or a child fails (one line); 2 on a
// bad flag. Nothing here is shipped: docs/performance.md, "Field arithmetic in wasm".
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError, numberFlag, parseFlags } from '../shared/args.mjs';
import { median } from '../core/verify-passes.mjs';
import { countOf } from '../core/format.mjs';
import { launchChromium } from '../shared/chromium-launcher.mjs';
import { BUILD_DIR } from '../../wasm/paths.mjs';

const SELF = fileURLToPath(import.meta.url);
const PORTABLE = path.join(BUILD_DIR, 'bench', 'field', 'portable.cjs');
const CHAIN = 2_000_000;
const USAGE = 'usage: node bench/field/fma-lanes.mjs [--rounds N (1..100, default 5)] [--cases N (1..10000000, default 200000)] [--chromium] [--json]';

// ---- the module, byte by byte (WebAssembly core binary format, SIMD and relaxed-SIMD opcodes)

const LIMBS = 5;
const COLS = 2 * LIMBS; // column k holds the products of limbs i + j = k (and the high halves of i + j = k - 1)
const u32 = (n) => { // unsigned LEB128
  const out = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
};
const simd = (op) => [0xfd, ...u32(op)];
const OP = {
  load: (offset) => [...simd(0x00), 4, ...u32(offset)], store: (offset) => [...simd(0x0b), 4, ...u32(offset)],
  and: simd(0x4e), or: simd(0x50), i64Add: simd(0xce), i64Sub: simd(0xd1), i64ShrS: simd(0xcc),
  f64Add: simd(0xf0), f64Sub: simd(0xf1), madd: simd(0x107), lane0: [...simd(0x21), 0],
};
const get = (i) => [0x20, ...u32(i)];
const set = (i) => [0x21, ...u32(i)];
const tee = (i) => [0x22, ...u32(i)];
const i32c = (n) => [0x41, ...sleb(n)];
function sleb(n) { // signed LEB128 of a small i32
  const out = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(b & 0x40)) || (n === -1 && (b & 0x40))) return [...out, b];
    out.push(b | 0x80);
  }
}
/** v128.const of two equal i64 lanes (a BigInt, taken mod 2^64). */
const constI64 = (v) => {
  const b = new Uint8Array(16);
  const dv = new DataView(b.buffer);
  dv.setBigUint64(0, BigInt.asUintN(64, v), true);
  dv.setBigUint64(8, BigInt.asUintN(64, v), true);
  return [...simd(0x0c), ...b];
};
const constF64 = (x) => {
  const b = new Uint8Array(16);
  new Float64Array(b.buffer).fill(x);
  return [...simd(0x0c), ...b];
};
const bitsOf = (x) => new BigUint64Array(new Float64Array([x]).buffer)[0];

const C1 = 2 ** 104; // the high half's anchor: ulp 2^52 over [2^104, 2^105)
const M = 3 * 2 ** 51; // the low half's bias: ulp 1 over [2^52, 2^53)
const MASK = (1n << 52n) - 1n;

const R = 0x1000003d10; // 2^260 mod p, exact as a double
const P = (1n << 256n) - 0x1000003d1n;

/**
 * mulPair's body. `reduce` false: the product only: pr + 80 gets the carried columns 0..10 as
 * i64 lanes (value = a*b); true: the whole multiply mod p, pr + 80 gets limbs 0..4 (each below
 * 2^52, value below 2^260 and equal to a*b mod p). Either way pr gets limbs 0..4 as doubles,
 * the next input of a chain.
 */
function mulPairBody(reduce) {
  // locals after the 3 i32 params: a0..a4, b0..b4, c0..c10, hi, nh, u0..u5, six constants (v128)
  const A = 3; const B = A + LIMBS; const C = B + LIMBS; const HI = C + COLS + 1; const NH = HI + 1; const U = NH + 1;
  // the constants, each in a local of its own, set once (a v128.const in the loop body is
  // materialized at every use by V8 11.3)
  const K = U + LIMBS + 1; const KC1 = K; const KM = K + 1; const KMASK = K + 2; const K52BITS = K + 3; const K52 = K + 4; const KR = K + 5;
  const code = [...constF64(C1), ...set(KC1), ...constF64(M), ...set(KM), ...constI64(MASK), ...set(KMASK),
    ...constI64(bitsOf(2 ** 52)), ...set(K52BITS), ...constF64(2 ** 52), ...set(K52), ...constF64(R), ...set(KR)];
  for (let i = 0; i < LIMBS; i++) code.push(...get(0), ...OP.load(16 * i), ...set(A + i), ...get(1), ...OP.load(16 * i), ...set(B + i));
  const nLo = Array(COLS + 1).fill(0n);
  const nHi = Array(COLS + 1).fill(0n);
  for (let i = 0; i < LIMBS; i++) for (let j = 0; j < LIMBS; j++) { nLo[i + j]++; nHi[i + j + 1]++; }
  for (let k = 0; k <= COLS; k++) code.push(...constI64(-(nLo[k] * bitsOf(M) + nHi[k] * bitsOf(C1))), ...set(C + k));
  // x*y split into column k (low half) and k+1 (high half); x, y: code pushing a double each
  const split = (x, y, k) => code.push(
    ...x, ...y, ...get(KC1), ...OP.madd, ...tee(HI), //      hi = fma(x, y, 2^104)
    ...get(C + k + 1), ...OP.i64Add, ...set(C + k + 1), //   column k+1 += bits(hi)
    ...get(KC1), ...get(HI), ...OP.f64Sub, ...set(NH), //     nh = 2^104 - hi = -H*2^52
    ...x, ...y, ...get(NH), ...OP.madd, //                   lo = fma(x, y, nh)
    ...get(KM), ...OP.f64Add, //                             lo + 3*2^51
    ...get(C + k), ...OP.i64Add, ...set(C + k)); //          column k += bits(lo + 3*2^51)
  for (let i = 0; i < LIMBS; i++) for (let j = 0; j < LIMBS; j++) split(get(A + i), get(B + j), i + j);
  const carry = (from, to, maskLast) => { // columns from..to-1 to 52 bits, carries into the next
    for (let k = from; k < to; k++) {
      code.push(...get(C + k), ...i32c(52), ...OP.i64ShrS, ...get(C + k + 1), ...OP.i64Add, ...set(C + k + 1),
        ...get(C + k), ...get(KMASK), ...OP.and, ...set(C + k));
    }
    if (maskLast) code.push(...get(C + to), ...get(KMASK), ...OP.and, ...set(C + to));
  };
  carry(0, COLS, false);
  // as a double: bits(2^52) | v, minus 2^52 (exact for 0 <= v < 2^52)
  const asDouble = (local) => [...get(local), ...get(K52BITS), ...OP.or, ...get(K52), ...OP.f64Sub];
  let out = COLS + 1;
  if (reduce) {
    // Fold 1: value = L + 2^260 U, U = columns 5..10 (each below 2^52): L + R*U, below 2^297.
    // Each u*R (< 2^89) is split as the products are, its low half into column m, its high
    // half into m+1; the biases of those halves are taken off first.
    for (let m = 0; m <= LIMBS; m++) code.push(...asDouble(C + LIMBS + m), ...set(U + m));
    for (let k = 0; k <= LIMBS + 1; k++) {
      const bias = -((k <= LIMBS ? bitsOf(M) : 0n) + (k >= 1 ? bitsOf(C1) : 0n));
      if (k < LIMBS) code.push(...get(C + k), ...constI64(bias), ...OP.i64Add, ...set(C + k));
      else code.push(...constI64(bias), ...set(C + k));
    }
    for (let m = 0; m <= LIMBS; m++) split(get(U + m), get(KR), m);
    carry(0, LIMBS + 1, false); // columns 0..5 to 52 bits; column 6 is 0 (the bound above)
    // Fold 2: column 5 (below 2^37) times R (< 2^74) into columns 0 and 1.
    code.push(...asDouble(C + LIMBS), ...set(U), ...constI64(-bitsOf(M)), ...get(C), ...OP.i64Add, ...set(C),
      ...constI64(-bitsOf(C1)), ...get(C + 1), ...OP.i64Add, ...set(C + 1));
    split(get(U), get(KR), 0);
    carry(0, LIMBS - 1, false);
    // value below 2^260 + 2^75: what is left above 2^260 is t = 0 or 1
    code.push(...get(C + LIMBS - 1), ...i32c(52), ...OP.i64ShrS, ...set(U), ...get(C + LIMBS - 1), ...get(KMASK), ...OP.and, ...set(C + LIMBS - 1));
    // Fold 3: t*R (R masked by -t) into column 0; if t = 1 the rest was below 2^75, so the
    // value is now below 2^260 and the carries end in column 4, below 2^52.
    code.push(...constI64(0n), ...get(U), ...OP.i64Sub, ...constI64(BigInt(R)), ...OP.and, ...get(C), ...OP.i64Add, ...set(C));
    carry(0, LIMBS - 1, false);
    out = LIMBS;
  }
  for (let k = 0; k < out; k++) code.push(...get(2), ...get(C + k), ...OP.store(80 + 16 * k));
  for (let k = 0; k < LIMBS; k++) code.push(...get(2), ...asDouble(C + k), ...OP.store(16 * k));
  const locals = [1, ...u32(LIMBS * 2 + COLS + 1 + 2 + LIMBS + 1 + 6), 0x7b]; // one run of v128 locals
  return [...locals, ...code, 0x0b];
}

/** A chain (pa, pb, n): n dependent calls of function `callee` (pa, pb, pa). */
function chainBody(callee) {
  return [1, 1, 0x7f, // one i32 local: the counter
    0x02, 0x40, 0x03, 0x40, // block, loop
    ...get(3), ...get(2), 0x4e, 0x0d, 1, // br_if 1 when counter >= n (i32.ge_s)
    ...get(0), ...get(1), ...get(0), 0x10, callee, // call the multiply
    ...get(3), ...i32c(1), 0x6a, ...set(3), 0x0c, 0, 0x0b, 0x0b, 0x0b];
}

/** probe(): relaxed_madd(1+2^-30, 1+2^-30, -(1+2^-29)), lane 0: 2^-60 fused, 0 unfused. */
function probeBody() {
  const x = 1 + 2 ** -30;
  return [0, ...constF64(x), ...constF64(x), ...constF64(-(1 + 2 ** -29)), ...OP.madd, ...OP.lane0, 0x0b];
}

/** The module's bytes: memory (2 pages); product(pa, pb, pr) and mul(pa, pb, pr) (mulPairBody
 *  without and with the reduction); chainProduct and chainMul (pa, pb, n); probe(). */
export function fmaLanesModule() {
  const section = (id, bytes) => [id, ...u32(bytes.length), ...bytes];
  const vec = (items) => [...u32(items.length), ...items.flat()];
  const name = (s) => [...u32(s.length), ...Buffer.from(s)];
  const types = vec([[0x60, 3, 0x7f, 0x7f, 0x7f, 0], [0x60, 0, 1, 0x7c]]);
  const funcs = vec([[0], [0], [0], [0], [1]]);
  const memory = vec([[0, 2]]);
  const exports = vec([[...name('memory'), 2, 0], ...['product', 'mul', 'chainProduct', 'chainMul', 'probe'].map((n, i) => [...name(n), 0, i])]);
  const code = vec([mulPairBody(false), mulPairBody(true), chainBody(0), chainBody(1), probeBody()].map((b) => [...u32(b.length), ...b]));
  return new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...section(1, types), ...section(3, funcs), ...section(5, memory),
    ...section(7, exports), ...section(10, code)]);
}

// ---- the child: fused check, differential check, timed chain

function lcg(seed) { // deterministic 64-bit pseudo-random limbs
  let s = BigInt(seed);
  return () => { s = (s * 6364136223846793005n + 1442695040888963407n) & ((1n << 64n) - 1n); return s; };
}

function child(cases, timed = true) {
  const instance = new WebAssembly.Instance(new WebAssembly.Module(fmaLanesModule()), {});
  const { memory, product, mul, chainProduct, chainMul, probe } = instance.exports;
  const fused = probe();
  if (fused !== 2 ** -60) return { fused: false, probe: fused };
  const f64 = new Float64Array(memory.buffer);
  const i64 = new BigInt64Array(memory.buffer);
  const PA = 0; const PB = 1024; const PR = 2048; // byte offsets
  const next = lcg(1);
  const edge = [0n, 1n, MASK, MASK - 1n, 1n << 51n, (1n << 51n) - 1n];
  const limb = (i) => (i % 3 === 0 ? edge[Number(next() % BigInt(edge.length))] : next() & MASK);
  const value = (limbs) => limbs.reduce((s, l, k) => s + (l << (52n * BigInt(k))), 0n);
  for (let c = 0; c < cases; c++) {
    const a = [[], []]; const b = [[], []];
    for (let lane = 0; lane < 2; lane++) {
      for (let k = 0; k < LIMBS; k++) {
        a[lane][k] = c % 17 === 0 ? MASK : limb(c + k + lane);
        b[lane][k] = c % 19 === 0 ? MASK : limb(c + k + 1 + lane);
        f64[(PA >> 3) + 2 * k + lane] = Number(a[lane][k]);
        f64[(PB >> 3) + 2 * k + lane] = Number(b[lane][k]);
      }
    }
    const limbsOut = (count, lane) => Array.from({ length: count }, (_, k) => i64[((PR + 80) >> 3) + 2 * k + lane]);
    const bad = (count, lane) => limbsOut(count, lane).findIndex((l, k) => k < count - 1 && (l < 0n || l > MASK));
    product(PA, PB, PR);
    for (let lane = 0; lane < 2; lane++) {
      const want = value(a[lane]) * value(b[lane]);
      const got = value(limbsOut(COLS + 1, lane));
      if (bad(COLS + 1, lane) >= 0 || got !== want) return { fused: true, ok: false, what: 'product', case: c, lane, got: got.toString(16), want: want.toString(16) };
    }
    mul(PA, PB, PR);
    for (let lane = 0; lane < 2; lane++) {
      const want = (value(a[lane]) * value(b[lane])) % P;
      const limbs = limbsOut(LIMBS, lane);
      const got = value(limbs);
      if (limbs.some((l) => l < 0n || l > MASK) || got >= 1n << 260n || got % P !== want) {
        return { fused: true, ok: false, what: 'mul', case: c, lane, got: got.toString(16), want: want.toString(16) };
      }
    }
  }
  const time = (chain) => {
    for (let k = 0; k < 2 * LIMBS; k++) { f64[(PA >> 3) + k] = Number(next() & MASK); f64[(PB >> 3) + k] = Number(next() & MASK); }
    chain(PA, PB, 20_000); // warm-up: tiered up
    const t0 = performance.now();
    chain(PA, PB, CHAIN);
    return ((performance.now() - t0) * 1e6) / CHAIN / 2; // two multiplies per call
  };
  if (!timed) return { fused: true, ok: true, cases };
  return { fused: true, ok: true, cases, ns_product: time(chainProduct), ns_mul: time(chainMul) };
}

/** Runs in a Chromium page: the module's fused check, then its two chains timed as child()
 *  times them (limbs below 2^52 from Math.random; the arithmetic was checked in Node). */
async function pageTime({ bytes, chain }) {
  const { instance } = await WebAssembly.instantiate(Uint8Array.from(bytes));
  const { memory, chainProduct, chainMul, probe } = instance.exports;
  if (probe() !== 2 ** -60) return { fused: false, probe: probe() };
  const f64 = new Float64Array(memory.buffer);
  const time = (fn) => {
    for (let k = 0; k < 10; k++) { f64[k] = Math.floor(Math.random() * 2 ** 52); f64[128 + k] = Math.floor(Math.random() * 2 ** 52); }
    fn(0, 1024, 20_000);
    const t0 = performance.now();
    fn(0, 1024, chain);
    return ((performance.now() - t0) * 1e6) / chain / 2;
  };
  return { fused: true, ns_product: time(chainProduct), ns_mul: time(chainMul) };
}

if (process.argv[1] === SELF && process.argv[2] === '--child') {
  process.stdout.write(`${JSON.stringify(child(Number(process.argv[3]), process.argv[4] !== '--untimed'))}\n`);
} else if (process.argv[1] === SELF) {
  let values;
  try {
    ({ values } = parseFlags(process.argv.slice(2), {
      rounds: { type: 'string' }, cases: { type: 'string' }, json: { type: 'boolean', default: false }, help: { type: 'boolean', default: false },
      chromium: { type: 'boolean', default: false },
    }));
    if (values.help) { console.log(USAGE); process.exit(0); }
    values.rounds = values.rounds === undefined ? 5 : numberFlag('rounds', values.rounds, { min: 1, max: 100 });
    values.cases = values.cases === undefined ? 200_000 : numberFlag('cases', values.cases, { min: 1, max: 10_000_000 });
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`fma-lanes: ${err.message}\n${USAGE}`);
    process.exit(2);
  }
  if (!existsSync(PORTABLE)) {
    console.error(`fma-lanes: no ${PORTABLE}: run node bench/field/field-mul.mjs once to build the scalar reference`);
    process.exit(1);
  }
  const run = (args) => JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8' }).trim().split('\n').pop());
  const product = []; const full = []; const scalar = []; const chromium = { product: [], full: [] };
  let browser = null;
  try {
    if (values.chromium) browser = await launchChromium();
    for (let r = 0; r < values.rounds; r++) {
      if (browser) {
        const page = await browser.context.newPage();
        const out = await page.evaluate(pageTime, { bytes: Array.from(fmaLanesModule()), chain: CHAIN });
        await page.close();
        if (!out.fused) throw new Error(`Chromium does not fuse f64x2.relaxed_madd (probe gave ${out.probe})`);
        chromium.product.push(out.ns_product);
        chromium.full.push(out.ns_mul);
      }
      const cases = r === 0 ? values.cases : 1000; // the full differential check once
      const out = run(['--experimental-wasm-relaxed-simd', SELF, '--child', String(cases)]);
      if (!out.fused) throw new Error(`this host does not fuse f64x2.relaxed_madd (probe gave ${out.probe}): the split would not be exact`);
      if (!out.ok) throw new Error(`a ${out.what} differs: ${JSON.stringify(out)}`);
      product.push(out.ns_product);
      full.push(out.ns_mul);
      scalar.push(run([PORTABLE, 'mul', String(CHAIN)]).portable_mul_ns);
      console.error(`round ${r + 1}/${values.rounds}: lanes ${full.at(-1).toFixed(1)} ns (product only ${product.at(-1).toFixed(1)}), portable ${scalar.at(-1).toFixed(1)} ns`);
    }
  } catch (err) {
    console.error(`fma-lanes: ${err.message.split('\n')[0]}`);
    process.exit(1);
  } finally {
    await browser?.close();
  }
  const stat = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs) });
  const result = {
    differential_cases: values.cases,
    ns_per_multiply: { fma_lanes: stat(full), fma_lanes_product_only: stat(product), portable_10x26: stat(scalar),
      ...(browser ? { chromium_fma_lanes: stat(chromium.full), chromium_fma_lanes_product_only: stat(chromium.product) } : {}) },
    portable_over_fma_lanes: median(scalar) / median(full),
  };
  if (values.json) {
    console.log(JSON.stringify(result, null, 2));
  } else {
    const f = (x) => `${x.median.toFixed(1)} (${x.min.toFixed(1)}-${x.max.toFixed(1)})`;
    const n = result.ns_per_multiply;
    console.log(`differential: ${values.cases} lane pairs, products and products mod p equal to BigInt's; relaxed_madd fused`);
    console.log(`ns per multiply, median (min-max) of ${countOf(values.rounds, 'round')}, dependent chains, warm (Node ${process.versions.node}, V8 ${process.versions.v8}, --experimental-wasm-relaxed-simd):`);
    console.log(`  f64x2 FMA lanes, multiply mod p:               ${f(n.fma_lanes)}`);
    console.log(`  f64x2 FMA lanes, product only (no reduction):  ${f(n.fma_lanes_product_only)}`);
    console.log(`  libsecp256k1 portable 10x26, multiply mod p:   ${f(n.portable_10x26)}`);
    console.log(`  portable / FMA lanes: ${result.portable_over_fma_lanes.toFixed(2)}x (above 1: the lanes are faster)`);
    if (n.chromium_fma_lanes) {
      console.log(`  the same module in Chromium (${browser.context.browser()?.version() ?? 'Debian chromium'}), multiply mod p: ${f(n.chromium_fma_lanes)}; ` +
        `product only: ${f(n.chromium_fma_lanes_product_only)}`);
    }
  }
}
