#!/usr/bin/env node
// `npm run bench:quadratic`: the legacy sighash's quadratic cost (issue 12, part 6), native
// against wasm in one run, rounds interleaved (native first on odd rounds, wasm first on even):
//   - whole-block validation (ValidateBlock, one thread, synchronous verification) of fixture
//     block 57,043 and of a SYNTHETIC stress block: one legacy transaction of about 1 MB with
//     5,000 P2PKH inputs, each signed for real over its legacy sighash (the class of block
//     364,292; blocks-fixtures/derived/synthetic_legacy_tx.h). Per round, each contender runs in a
//     fresh process / wasm instance: its first validation is COLD, the next ones WARM;
//   - the share of sighash time in each (the engine's StageTimes: parse, sighash, script, verify);
//   - peak memory: the native process's peak RSS, the wasm instance's heap (memory only grows);
//   - SHA-256 throughput per byte (MB/s, 10^6 bytes) of the engine's SHA-256, native
//     (`ibd_quadratic sha256`) against wasm (`sha256Chain`), the same chain with the same digest;
//     node:crypto's (OpenSSL) beside them as a reference, not a contender.
// Verdicts, final check records (SHA-256 of them) and digests must agree between native and wasm
// and between rounds, else exit 1. Synthetic figures are labelled as such and never mixed
// into the fixture blocks' figures.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { fixturesDir, loadBlocks } from '../../blocks-fixtures/loader.mjs';
import { loadEngine } from '../../wasm/engine.mjs';
import { NATIVE_TOOLS } from '../../wasm/paths.mjs';
import { checkVariant } from '../../wasm/variants.mjs';
import { ensureNativeTools } from '../../scripts/bench-native.mjs';
import { median } from '../core/verify-passes.mjs';
import { numberFlag, parseFlags, UsageError } from '../shared/args.mjs';
import { machineInfo } from '../shared/machine.mjs';

const USAGE = `usage: npm run bench:quadratic -- [options]   (or node bench/quadratic/quadratic.mjs [options])

Whole-block validation of fixture block 57,043 and of a SYNTHETIC ~1 MB legacy transaction
(5,000 signed P2PKH inputs), native against wasm, cold and warm, with the sighash share and peak
memory; then the engine's SHA-256 in MB/s, native against wasm. Rounds interleaved.
  --rounds N      rounds (default 3): each runs every contender in a fresh process / instance
  --warm N        warm validations per round after the cold one (default 1)
  --inputs N      synthetic inputs (default 5000)     --outputs N  synthetic outputs (default 2750)
  --variant V     wasm variant: simd (default) or scalar
  --sha-bytes N   SHA-256 message size, bytes (default 1000000); --sha-reps N (default 64)
  --fixtures DIR  the fixture set (default: IBD_FIXTURES, else ../shared/blocks-fixtures)
  --json          one JSON document on stdout
  --help          this text
Exit code: 0 done; 1 a part failed or native and wasm disagreed; 2 bad command line.`;

const FIXTURE_HEIGHT = 57043;

function parseOptions(argv) {
  const { values } = parseFlags(argv, {
    rounds: { type: 'string' }, warm: { type: 'string' }, inputs: { type: 'string' }, outputs: { type: 'string' },
    variant: { type: 'string' }, 'sha-bytes': { type: 'string' }, 'sha-reps': { type: 'string' },
    fixtures: { type: 'string' }, json: { type: 'boolean', default: false }, help: { type: 'boolean', default: false },
  });
  const num = (name, def, min, max) => (values[name] === undefined ? def : numberFlag(`--${name}`, values[name], { min, max }));
  const variant = values.variant ?? 'simd';
  try { checkVariant(variant); } catch (err) { throw new UsageError(err.message); }
  return {
    help: values.help, json: values.json, variant, fixtures: values.fixtures,
    rounds: num('rounds', 3, 1, 100), warm: num('warm', 1, 1, 100),
    inputs: num('inputs', 5000, 1, 25000), outputs: num('outputs', 2750, 1, 30000),
    shaBytes: num('sha-bytes', 1_000_000, 32, 2 ** 30), shaReps: num('sha-reps', 64, 1, 1_000_000),
  };
}

/** Runs `ibd_quadratic ARGS`, returns its JSON line. */
async function tool(args) {
  const { stdout } = await promisify(execFile)(NATIVE_TOOLS.quadratic, args, { timeout: 1_800_000, maxBuffer: 16 << 20 })
    .catch((err) => { throw new Error(`ibd_quadratic ${args[0]} failed: ${err.stderr || err.message}`); });
  return JSON.parse(stdout.trim().split('\n').pop());
}

const sha256Hex = (bytes) => createHash('sha256').update(bytes).digest('hex');
const stagesOfWasm = (t) => ({ parse_s: t.parseMs / 1e3, sighash_s: t.sighashMs / 1e3, script_s: t.scriptMs / 1e3, verify_s: t.verifyMs / 1e3 });

/** One wasm round on `subject`: a fresh instance, 1 cold + `warm` warm validations. */
async function wasmRound(variant, subject, warm) {
  const engine = await loadEngine(variant);
  const seconds = [];
  const stages = [];
  let r;
  for (let k = 0; k <= warm; k++) {
    const t0 = performance.now();
    r = engine.validateBlock(subject.block, subject.spent, subject.hash, subject.height, subject.options);
    seconds.push((performance.now() - t0) / 1e3);
    if (!r.ok) throw new Error(`wasm validateBlock of ${subject.name} failed: ${r.error}`);
    stages.push(stagesOfWasm(r.times));
  }
  return { seconds, stages, valid: r.valid, error: r.error, checks: r.origins.length / 2, checksSha256: sha256Hex(r.checks),
    peakHeapBytes: engine.HEAPU8.length };
}

/** One native round on `subject`: a fresh process, 1 cold + `warm` warm validations. */
async function nativeRound(subject, warm) {
  const d = await tool(['validate', subject.blockFile, subject.spentFile, String(subject.height), '--rounds', String(warm + 1),
    ...(subject.options.skipProofOfWork ? ['--skip-pow'] : []), ...(subject.hash ? ['--hash', subject.hash] : [])]);
  return { seconds: d.seconds, stages: d.stages, valid: d.valid, error: d.error, checks: d.checks, checksSha256: d.checks_sha256,
    peakRssBytes: d.peak_rss_bytes };
}

/** MB/s of the sha256Chain chain through node:crypto; adds its digest to `digests`. */
function nodeCryptoChain(bytes, reps, digests) {
  const buf = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i++) buf[i] = (i * 131 + 7) & 0xff;
  const t0 = performance.now();
  let d;
  for (let k = 0; k < reps; k++) { d = createHash('sha256').update(buf).digest(); d.copy(buf, 0); }
  const seconds = (performance.now() - t0) / 1e3;
  digests.add(d.toString('hex'));
  return (bytes * reps) / seconds / 1e6;
}

/** median with min-max of a list. */
const spread = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs), n: xs.length });
const sum = (o) => o.parse_s + o.sighash_s + o.script_s + o.verify_s;

/** Cold and warm figures of one contender's rounds on one subject. */
function summarize(rounds) {
  const warmStages = rounds.flatMap((r) => r.stages.slice(1));
  const share = (key) => median(warmStages.map((s) => s[key] / sum(s)));
  return {
    cold_s: spread(rounds.map((r) => r.seconds[0])),
    warm_s: spread(rounds.flatMap((r) => r.seconds.slice(1))),
    warm_stage_share: { parse: share('parse_s'), sighash: share('sighash_s'), script: share('script_s'), verify: share('verify_s') },
    warm_sighash_s: spread(warmStages.map((s) => s.sighash_s)),
    valid: rounds.every((r) => r.valid), checks: rounds[0].checks, checks_sha256: rounds[0].checksSha256,
    ...(rounds[0].peakRssBytes !== undefined ? { peak_rss_bytes: Math.max(...rounds.map((r) => r.peakRssBytes)) } : {}),
    ...(rounds[0].peakHeapBytes !== undefined ? { peak_heap_bytes: Math.max(...rounds.map((r) => r.peakHeapBytes)) } : {}),
  };
}

/** Throws when rounds or contenders disagree on the verdict or the final checks. */
function checkAgreement(name, native, wasm) {
  const all = [...native.map((r) => ['native', r]), ...wasm.map((r) => ['wasm', r])];
  const [, first] = all[0];
  for (const [who, r] of all) {
    if (r.valid !== first.valid || r.checksSha256 !== first.checksSha256 || r.checks !== first.checks) {
      throw new Error(`${name}: ${who} disagrees (valid ${r.valid} vs ${first.valid}, checks ${r.checks} vs ${first.checks}, ` +
        `records sha256 ${r.checksSha256} vs ${first.checksSha256})`);
    }
  }
}

const ms = (s) => `${(s * 1e3).toFixed(s < 0.1 ? 2 : 1)} ms`;
const rangeText = (x, f = ms) => `${f(x.median)} (${f(x.min)}-${f(x.max)}, n=${x.n})`;
const pct = (x) => `${(x * 100).toFixed(1)}%`;
const mib = (b) => `${(b / 2 ** 20).toFixed(1)} MiB`;

function report(doc) {
  const lines = [];
  lines.push(`bench:quadratic on ${doc.machine.cpu}, ${doc.machine.cores} cores, node ${doc.machine.node}; wasm variant ${doc.variant}; ` +
    `${doc.rounds} rounds interleaved, each in a fresh process / instance (1 cold + ${doc.warm} warm validations)`);
  lines.push(`command: ${doc.command}`);
  lines.push('Timings on a shared machine are indicative; figures are medians (min-max, n samples).');
  for (const s of doc.subjects) {
    lines.push('');
    lines.push(`${s.label}: ${s.inputs.toLocaleString('en-US')} inputs, ${s.block_bytes.toLocaleString('en-US')} bytes, ` +
      `${s.native.checks} checks, verdict ${s.native.valid ? 'valid' : 'INVALID'} (native and wasm agree on every check record)`);
    for (const who of ['native', 'wasm']) {
      const x = s[who];
      const mem = who === 'native' ? `peak RSS ${mib(x.peak_rss_bytes)}` : `peak wasm heap ${mib(x.peak_heap_bytes)}`;
      lines.push(`  ${who.padEnd(6)} warm ${rangeText(x.warm_s)}   cold ${rangeText(x.cold_s)}   ${mem}`);
      const sh = x.warm_stage_share;
      lines.push(`         warm stages: sighash ${pct(sh.sighash)} (${rangeText(x.warm_sighash_s)}), verify ${pct(sh.verify)}, ` +
        `script ${pct(sh.script)}, parse ${pct(sh.parse)}`);
    }
    lines.push(`  wasm/native warm time ${(s.wasm.warm_s.median / s.native.warm_s.median).toFixed(2)}x ` +
      `(native/wasm speed ${(s.native.warm_s.median / s.wasm.warm_s.median).toFixed(2)}x)`);
  }
  const h = doc.sha256;
  lines.push('');
  lines.push(`SHA-256, warm, ${h.bytes.toLocaleString('en-US')}-byte message x ${h.reps} per sample (digests agree):`);
  lines.push(`  native ${rangeText(h.native_mb_per_s, (v) => `${v.toFixed(0)} MB/s`)}`);
  lines.push(`  wasm   ${rangeText(h.wasm_mb_per_s, (v) => `${v.toFixed(0)} MB/s`)}`);
  lines.push(`  wasm/native per byte: ${(h.wasm_mb_per_s.median / h.native_mb_per_s.median).toFixed(2)}x the native rate`);
  lines.push(`  reference, not the engine: node:crypto (OpenSSL, SHA-NI where present) ${rangeText(h.node_crypto_mb_per_s, (v) => `${v.toFixed(0)} MB/s`)}`);
  return lines.join('\n');
}

async function main() {
  let opts;
  try {
    opts = parseOptions(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`bench:quadratic: ${err.message}\n${USAGE}\n`);
    return 2;
  }
  if (opts.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const log = (m) => process.stderr.write(`[quadratic] ${m}\n`);
  ensureNativeTools(['ibd_quadratic']);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'ibd-quadratic-'));
  try {
    log(`generating the synthetic block (${opts.inputs} inputs, ${opts.outputs} outputs)`);
    const gen = await tool(['synthetic', tmp, '--inputs', String(opts.inputs), '--outputs', String(opts.outputs)]);
    const [fixture] = await loadBlocks(fixturesDir(opts.fixtures), { heights: [FIXTURE_HEIGHT] });
    if (fixture.error) throw new Error(`block ${FIXTURE_HEIGHT}: ${fixture.error}`);
    const subjects = [
      { name: String(FIXTURE_HEIGHT), label: `block ${FIXTURE_HEIGHT} (fixture)`, height: FIXTURE_HEIGHT, hash: fixture.hash,
        block: fixture.block, spent: fixture.spentOutputsJson, options: {}, inputs: fixture.inputs, block_bytes: fixture.block.length,
        blockFile: path.join(fixture.dir, 'block.raw'), spentFile: path.join(fixture.dir, 'spent_outputs.json') },
      { name: 'synthetic', label: `SYNTHETIC legacy tx (${gen.tx_bytes.toLocaleString('en-US')}-byte tx, generated, not a real block)`,
        height: gen.height, hash: gen.hash, block: readFileSync(path.join(tmp, 'block.raw')),
        spent: readFileSync(path.join(tmp, 'spent_outputs.bin')), options: { skipProofOfWork: true }, inputs: gen.inputs,
        block_bytes: gen.block_bytes, blockFile: path.join(tmp, 'block.raw'), spentFile: path.join(tmp, 'spent_outputs.bin') },
    ];
    const runs = subjects.map(() => ({ native: [], wasm: [] }));
    const sha = { native: [], wasm: [], nodeCrypto: [], digests: new Set() };
    const shaEngine = await loadEngine(opts.variant);
    // SHA-256 is timed warm: untimed chains for half a second first (V8 tiers the wasm up).
    for (const t0 = performance.now(); performance.now() - t0 < 500;) shaEngine.sha256Chain(opts.shaBytes, 1);
    nodeCryptoChain(opts.shaBytes, 1, new Set());
    for (let round = 1; round <= opts.rounds; round++) {
      const order = round % 2 ? ['native', 'wasm'] : ['wasm', 'native'];
      for (const [k, subject] of subjects.entries()) {
        for (const who of order) {
          log(`round ${round}/${opts.rounds}: ${who} ${subject.name}`);
          runs[k][who].push(who === 'native' ? await nativeRound(subject, opts.warm) : await wasmRound(opts.variant, subject, opts.warm));
        }
      }
      // Reference, not a contender: node:crypto (OpenSSL; SHA-NI where the CPU has it, as Core's
      // native SHA-256 uses), the same chain.
      sha.nodeCrypto.push(nodeCryptoChain(opts.shaBytes, opts.shaReps, sha.digests));
      for (const who of order) {
        if (who === 'native') {
          const d = await tool(['sha256', '--bytes', String(opts.shaBytes), '--reps', String(opts.shaReps)]);
          sha.native.push(d.mb_per_s);
          sha.digests.add(d.digest);
        } else {
          const t0 = performance.now();
          const digest = shaEngine.sha256Chain(opts.shaBytes, opts.shaReps);
          sha.wasm.push((opts.shaBytes * opts.shaReps) / ((performance.now() - t0) / 1e3) / 1e6);
          sha.digests.add(digest);
        }
      }
    }
    if (sha.digests.size !== 1) throw new Error(`SHA-256 digests disagree: ${[...sha.digests].join(', ')}`);
    const doc = {
      command: `npm run bench:quadratic -- ${process.argv.slice(2).join(' ')}`.trim(),
      machine: machineInfo(shaEngine.engineInfo()), variant: opts.variant, rounds: opts.rounds, warm: opts.warm,
      synthetic: { inputs: gen.inputs, outputs: gen.outputs, tx_bytes: gen.tx_bytes, block_bytes: gen.block_bytes, generate_seconds: gen.generate_seconds },
      subjects: subjects.map((s, k) => {
        checkAgreement(s.name, runs[k].native, runs[k].wasm);
        return { name: s.name, label: s.label, synthetic: s.name === 'synthetic', inputs: s.inputs, block_bytes: s.block_bytes,
          native: summarize(runs[k].native), wasm: summarize(runs[k].wasm) };
      }),
      sha256: { bytes: opts.shaBytes, reps: opts.shaReps, native_mb_per_s: spread(sha.native), wasm_mb_per_s: spread(sha.wasm),
        node_crypto_mb_per_s: spread(sha.nodeCrypto) },
    };
    process.stdout.write(opts.json ? `${JSON.stringify(doc, null, 2)}\n` : `${report(doc)}\n`);
    return 0;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().then((code) => { process.exitCode = code; }, (err) => {
  process.stderr.write(`bench:quadratic: ${err.message}\n`);
  process.exitCode = 1;
});
