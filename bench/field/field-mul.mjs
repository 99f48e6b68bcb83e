#!/usr/bin/env node
// Field arithmetic in wasm: candidate multiplies for libsecp256k1's 10x26 field (wasm SIMD
// i64x2.extmul lanes, one Karatsuba level, plain column sums; field_mul_variants.cpp), and two
// field elements in lockstep in f64x2 lanes (11 limbs of 24 bits as doubles), against the
// library's own portable C, in the same wasm, on one core, warm.
//
//   node bench/field/field-mul.mjs [--rounds N] [--cases N] [--fixtures DIR] [--json]
//
// 1. Differential check first (`--cases`, default 1,000,000 random and edge-case products): each
//    candidate's normalized result equals libsecp256k1's, and its output has magnitude 1. A
//    candidate that differs stops the run (exit 1): no time is reported for a wrong answer.
// 2. ns per multiply and square, each a dependent chain of 2,000,000 calls, not inlined (the
//    f64x2 lanes: ns per field element, half the time of a call that multiplies two).
// 3. ECDSA verification of real signatures (the fixture blocks' ECDSA checks whose strict-DER
//    signature parses, up to 2,048) with libsecp256k1 built three ways: as shipped, and with
//    the SIMD or Karatsuba multiply plugged in through its USE_EXTERNAL_ASM hook (the square is
//    the column-sum one in both). The f64x2 lanes have no such run: their form is not the
//    library's, and they would need a verifier that runs two signatures in lockstep. The builds run round by round in a rotating order, one
//    process each, and must agree on the valid count.
// 4. Two parts of that verification timed alone in the portable build, over the same records:
//    s^-1 mod n (what inverting a batch's s values at once, Montgomery's trick, could save at
//    most) and the key's parse, 33-byte keys (a square root) apart from 65-byte ones (what the
//    key cache saves for a recurring key).
// The harnesses are built here with emcc (the same flags as the shipped simd variant's
// libsecp256k1: -O3 -msimd128, WIDEMUL_INT64) into build/bench/field/, rebuilt when a source
// changes. Nothing here is shipped: docs/performance.md, "Field arithmetic in wasm".
// Exit 0; 1 when a candidate differs, or the fixtures, a build or a harness fails (one line);
// 2 on a bad flag.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError, numberFlag, parseFlags } from '../shared/args.mjs';
import { median } from '../core/verify-passes.mjs';
import { loadCheckSets } from '../compare/compare-checks.mjs';
import { BUILD_DIR } from '../../wasm/paths.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.join(BUILD_DIR, 'bench', 'field');
const SECP = path.join(BUILD_DIR, 'deps', 'libsecp256k1-0.5.0');
const BUILDS = {
  portable: [],
  simd: ['-DUSE_EXTERNAL_ASM=1', '-DIBD_FIELD_HOOK_SIMD=1'],
  karatsuba: ['-DUSE_EXTERNAL_ASM=1', '-DIBD_FIELD_HOOK_KARATSUBA=1'],
};
const USAGE = 'usage: node bench/field/field-mul.mjs [--rounds N (1..100, default 5)] [--cases N (1..100000000, default 1000000)] [--fixtures DIR] [--json]';

function build(name, defines) {
  const js = path.join(OUT, `${name}.cjs`); // CommonJS glue: the repo is "type": "module"
  const sources = ['field_mul_bench.c', 'field_mul_variants.cpp'].map((f) => path.join(HERE, f));
  if (existsSync(js) && sources.every((s) => statSync(s).mtimeMs < statSync(js).mtimeMs)) return js;
  const env = { ...process.env, NODE_PATH: process.env.NODE_PATH || '/usr/share/nodejs' };
  const common = ['-O3', '-msimd128', '-w', ...defines];
  const cObj = path.join(OUT, `${name}-bench.o`);
  const cppObj = path.join(OUT, `${name}-variants.o`);
  execFileSync('emcc', [...common, '-std=c90', '-DUSE_FORCE_WIDEMUL_INT64=1', '-DENABLE_MODULE_EXTRAKEYS=1',
    '-DENABLE_MODULE_SCHNORRSIG=1', '-DECMULT_WINDOW_SIZE=15', `-I${SECP}/src`, `-I${SECP}/include`,
    '-c', sources[0], '-o', cObj], { env, stdio: 'inherit' });
  execFileSync('em++', [...common, '-c', sources[1], '-o', cppObj], { env, stdio: 'inherit' });
  execFileSync('emcc', ['-O3', cObj, cppObj, '-sNODERAWFS=1', '-sENVIRONMENT=node', '-sALLOW_MEMORY_GROWTH=1',
    '-sSINGLE_FILE=1', '-o', js], { env, stdio: 'inherit' });
  return js;
}

/** A harness's last stdout line as JSON; a harness that exits 1 after its JSON line (`diff` when a
 *  candidate differs) still gives it. */
function runJson(js, args) {
  let out;
  try {
    out = execFileSync(process.execPath, [js, ...args], { encoding: 'utf8', maxBuffer: 1 << 24 });
  } catch (err) {
    out = err.stdout ?? '';
    if (!out.trim()) throw err;
  }
  return JSON.parse(out.trim().split('\n').pop());
}

let values;
try {
  ({ values } = parseFlags(process.argv.slice(2), {
    rounds: { type: 'string' }, cases: { type: 'string' }, fixtures: { type: 'string' },
    json: { type: 'boolean', default: false }, help: { type: 'boolean', default: false },
  }));
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  values.rounds = values.rounds === undefined ? 5 : numberFlag('rounds', values.rounds, { min: 1, max: 100 });
  values.cases = values.cases === undefined ? 1_000_000 : numberFlag('cases', values.cases, { min: 1, max: 100_000_000 });
} catch (err) {
  if (!(err instanceof UsageError)) throw err;
  console.error(`field-mul: ${err.message}\n${USAGE}`);
  process.exit(2);
}
if (!existsSync(path.join(SECP, 'src', 'secp256k1.c'))) {
  console.error(`field-mul: no libsecp256k1 source under ${SECP}: run npm run setup first`);
  process.exit(1);
}

const names = Object.keys(BUILDS);
const verify = Object.fromEntries(names.map((n) => [n, []]));
const mul = [];
const PARTS = { us_per_scalar_inverse: 's^-1 mod n (secp256k1_scalar_inverse_var)', us_per_parse_33: 'a 33-byte key\'s parse (its square root)', us_per_parse_65: 'a 65-byte key\'s parse (a curve check)' };
const parts = Object.fromEntries(Object.keys(PARTS).map((k) => [k, []]));
let count = null;
let diff;
try {
  // The fixtures first: a missing folder is named before the harnesses are built.
  const sets = await loadCheckSets({ fixtures: values.fixtures, limits: { ecdsa: 2048, schnorr: 1 }, log: (m) => console.error(m) });
  try {
    mkdirSync(OUT, { recursive: true });
    const js = Object.fromEntries(Object.entries(BUILDS).map(([name, defines]) => [name, build(name, defines)]));
    diff = runJson(js.portable, ['diff', String(values.cases)]);
    if (!diff.ok) throw new Error(`candidate ${diff.candidate} differs from libsecp256k1 at case ${diff.case}`);
    runRounds(js, sets);
  } finally {
    sets.dispose();
  }
} catch (err) {
  console.error(`field-mul: ${err.message.split('\n')[0]}`);
  process.exit(1);
}

/** The timed rounds: multiplies, then ECDSA verification in each build, in rotating order. */
function runRounds(js, sets) {
  for (let r = 0; r < values.rounds; r++) {
    mul.push(runJson(js.portable, ['mul', '2000000']));
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + r) % names.length];
      const out = runJson(js[name], ['verify', sets.sets.ecdsa.file, '1']);
      if (count === null) count = { verifications: out.verifications, valid: out.valid, keys_33: out.keys_33, keys_65: out.keys_65 };
      if (name === 'portable') for (const k of Object.keys(PARTS)) parts[k].push(out[k][0]);
      if (out.valid !== count.valid) throw new Error(`${name} found ${out.valid} valid signatures, portable ${count.valid}`);
      verify[name].push(out.us_per_verify[0]);
    }
    console.error(`round ${r + 1}/${values.rounds} done`);
  }
}

const stat = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs) });
const result = {
  differential: diff,
  rounds: values.rounds,
  ns_per_call: Object.fromEntries(Object.keys(mul[0]).map((k) => [k, stat(mul.map((m) => m[k]))])),
  ecdsa: { ...count, us_per_verify: Object.fromEntries(names.map((n) => [n, stat(verify[n])])),
    parts: Object.fromEntries(Object.keys(PARTS).map((k) => [k, stat(parts[k])])) },
};
if (values.json) {
  console.log(JSON.stringify(result, null, 2));
} else {
  const f = (s) => `${s.median.toFixed(1)} (${s.min.toFixed(1)}-${s.max.toFixed(1)})`;
  console.log(`differential: ${diff.cases} products, every candidate equal to libsecp256k1's 10x26 field, magnitude 1 ` +
    '(f64x2 lanes: both elements of each call equal, limbs within their output bound)');
  console.log(`ns per call, median (min-max) of ${values.rounds} rounds, dependent chains, not inlined:`);
  for (const [k, s] of Object.entries(result.ns_per_call)) console.log(`  ${k.padEnd(18)} ${f(s)}`);
  console.log(`ECDSA verify, µs per verification over ${count.verifications} real signatures (${count.valid} valid), median (min-max):`);
  const base = result.ecdsa.us_per_verify.portable.median;
  for (const n of names) {
    const s = result.ecdsa.us_per_verify[n];
    console.log(`  ${n.padEnd(10)} ${f(s)}  speed x portable ${(base / s.median).toFixed(2)}`);
  }
  const g = (s) => `${s.median.toFixed(2)} (${s.min.toFixed(2)}-${s.max.toFixed(2)})`;
  console.log(`its parts timed alone, portable build, µs per call over the same signatures (${count.keys_33} keys of 33 bytes, ${count.keys_65} of 65), median (min-max), and the share of a verification:`);
  for (const [k, what] of Object.entries(PARTS)) {
    const s = result.ecdsa.parts[k];
    console.log(`  ${what.padEnd(44)} ${g(s)}  ${((100 * s.median) / base).toFixed(1)}%`);
  }
}
