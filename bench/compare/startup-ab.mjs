#!/usr/bin/env node
// Start-up A/B: Node cold starts (a fresh process reads the .wasm, compiles, instantiates — the
// module's own start included, e.g. tables computed at start — and verifies one real check) of
// two or more builds of toolchain.mjs, interleaved process by process, with each build's .wasm
// size raw and gzip -9.
//
//   node bench/compare/startup-ab.mjs [--builds a,b] [--variant simd|scalar] [--rounds N] [--fixtures DIR] [--json]
//
// Default: --builds tables-shipped,tables-computed --variant simd --rounds 15 (builds made when
// missing, into build/wasm-tables-*). ms, median (min-max) over rounds. Exit 0, 1 when a build,
// the fixtures or a cold start fails (one line), 2 on a bad flag.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { VARIANTS } from '../../wasm/variants.mjs';
import { median } from '../core/verify-passes.mjs';
import { choiceFlag, numberFlag, parseFlags, UsageError } from '../shared/args.mjs';
import { loadCheckSets } from './compare-checks.mjs';
import { nodeColdStarts } from './startup.mjs';
import { BUILDS, ensureBuild } from './toolchain.mjs';

const USAGE = `usage: node bench/compare/startup-ab.mjs [--builds a,b (of ${Object.keys(BUILDS).join(', ')}; default tables-shipped,tables-computed)] [--variant simd|scalar (default simd)] [--rounds N (1..200, default 15)] [--fixtures DIR] [--json]`;
const STEPS = ['read_ms', 'compile_ms', 'instantiate_ms', 'first_verdict_ms', 'total_ms'];

let values;
try {
  ({ values } = parseFlags(process.argv.slice(2), {
    builds: { type: 'string' }, variant: { type: 'string' }, rounds: { type: 'string' }, fixtures: { type: 'string' },
    json: { type: 'boolean', default: false }, help: { type: 'boolean', default: false },
  }));
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  values.builds = (values.builds ?? 'tables-shipped,tables-computed').split(',');
  values.builds.forEach((b, i) => {
    choiceFlag('builds', b, Object.keys(BUILDS));
    if (values.builds.indexOf(b) !== i) throw new UsageError(`--builds names ${b} twice; name each build once`);
  });
  values.variant = choiceFlag('variant', values.variant ?? 'simd', VARIANTS);
  values.rounds = values.rounds === undefined ? 15 : numberFlag('rounds', values.rounds, { min: 1, max: 200 });
} catch (err) {
  if (!(err instanceof UsageError)) throw err;
  console.error(`startup-ab: ${err.message}\n${USAGE}`);
  process.exit(2);
}

const log = (m) => console.error(m);
const samples = Object.fromEntries(values.builds.map((b) => [b, []]));
try {
  // The fixtures first: a missing folder is named before minutes of building.
  const sets = await loadCheckSets({ fixtures: values.fixtures, limits: { ecdsa: 16, schnorr: 1 }, log });
  try {
    for (const name of values.builds) {
      const why = ensureBuild(name, [values.variant], log);
      if (why) throw new Error(`build ${name}: ${why}`);
    }
    for (let r = 0; r < values.rounds; r++) {
      for (let k = 0; k < values.builds.length; k++) {
        const name = values.builds[(k + r) % values.builds.length];
        const [one] = await nodeColdStarts(values.variant, sets.sets.ecdsa.file, 1, BUILDS[name].dir);
        if (one.verdict !== sets.sets.ecdsa.verdicts[0]) throw new Error(`${name}: first verdict ${one.verdict}, the validation's ${sets.sets.ecdsa.verdicts[0]}`);
        samples[name].push(one);
      }
    }
  } finally {
    sets.dispose();
  }
} catch (err) {
  console.error(`startup-ab: ${err.message}`);
  process.exit(1);
}

const out = values.builds.map((name) => {
  const wasm = readFileSync(path.join(BUILDS[name].dir, `ibd-${values.variant}.wasm`));
  const steps = Object.fromEntries(STEPS.map((k) => {
    const xs = samples[name].map((s) => s[k]);
    return [k, { median: median(xs), min: Math.min(...xs), max: Math.max(...xs) }];
  }));
  return { name, dir: BUILDS[name].dir, wasm_bytes: wasm.length, wasm_gzip_bytes: gzipSync(wasm, { level: 9 }).length, ...steps };
});
if (values.json) {
  console.log(JSON.stringify({ variant: values.variant, rounds: values.rounds, builds: out }, null, 2));
} else {
  console.log(`Node cold start, ${values.variant}, ${values.rounds} fresh processes per build interleaved; ms, median (min-max)`);
  const f = (s) => `${s.median.toFixed(1)} (${s.min.toFixed(1)}-${s.max.toFixed(1)})`;
  console.log(['build', '.wasm bytes', 'gzip -9', ...STEPS].join('  '));
  for (const b of out) console.log([b.name, b.wasm_bytes.toLocaleString('en-US'), b.wasm_gzip_bytes.toLocaleString('en-US'), ...STEPS.map((k) => f(b[k]))].join('  '));
}
