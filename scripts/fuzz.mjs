#!/usr/bin/env node
// Fuzzing: builds the libFuzzer targets of fuzz/ in build/fuzz (clang, -fsanitize=fuzzer,address,
// undefined, every finding fatal), writes their seed corpora from the fixtures and runs each
// target for a bounded time. `npm test` runs it briefly (tests/fuzz.test.mjs); a long run is
//
//   npm run fuzz -- --seconds 3600
//
// Flags and files: `npm run fuzz -- --help` (USAGE below).
//
// Layout under build/fuzz: the CMake build (targets in fuzz/), corpus/<target>/ (seeds named
// seed-*, written fresh each run, plus whatever libFuzzer adds: the corpus grows over runs),
// artifacts/<target>/ (reproducers of findings), logs/<target>.log (libFuzzer's full output).
// The fixtures (../shared/blocks-fixtures or IBD_FIXTURES) are only read.
//
// Exit code: 0 no finding; 1 a crash, leak, timeout or out-of-memory (the reproducer's path, its
// hex and the tail of the log with the stack trace are printed) or a build / set-up failure.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, createWriteStream } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

import { ensureSecp256k1Source } from './secp256k1-source.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUILD = path.join(ROOT, 'build');
const FUZZ = path.join(BUILD, 'fuzz');
const FIXTURES = process.env.IBD_FIXTURES
  ? path.resolve(process.env.IBD_FIXTURES)
  : path.resolve(ROOT, '..', 'shared', 'blocks-fixtures');
const TARGETS = ['block_parser_fuzz', 'script_eval_fuzz'];

const USAGE = `usage: npm run fuzz -- [options]
   or: node scripts/fuzz.mjs [options]

Builds the libFuzzer targets of fuzz/ in build/fuzz (clang with ASan, UBSan and libFuzzer; any
finding is fatal), writes their seed corpora from the fixtures, then runs each target for a
bounded time and reports runs, coverage and any crash, leak, timeout or out-of-memory.

  --seconds N     run time per target, seconds (default: 30)
  --target NAME   only this target: ${TARGETS.join(' | ')} (default: each built one)
  --jobs N        parallel build jobs (default: every core, ${os.availableParallelism()} here)
  -h, --help      this text

Files, under build/fuzz:
  corpus/<target>/    the corpus: seed-* files rewritten from the fixtures each run, plus the
                      inputs libFuzzer added in this and earlier runs (kept: it grows over runs)
  artifacts/<target>/ reproducers of findings
  logs/<target>.log   libFuzzer's full output of the last run
The fixtures (${path.relative(ROOT, FIXTURES) || '.'}, or $IBD_FIXTURES) are only read.

Exit code: 0 no finding; 1 a finding (its reproducer, hex and stack trace are printed) or a build
or set-up failure; 2 bad command line.`;

/** A command-line mistake: one line on stderr, exit 2. */
function usageError(message) {
  process.stderr.write(`[fuzz] error: ${message} (npm run fuzz -- --help for usage)\n`);
  process.exit(2);
}

let opts;
try {
  ({ values: opts } = parseArgs({
    options: {
      seconds: { type: 'string', default: '30' },
      target: { type: 'string' },
      jobs: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: false,
  }));
} catch (err) {
  // parseArgs' messages run on with advice about '--'; the first sentence names the problem.
  usageError(err.message.split(/\.(\s|$)/)[0]);
}
if (opts.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const positiveInteger = (name, text) => {
  if (!/^\d+$/.test(text) || Number(text) < 1) usageError(`--${name} must be a positive integer, got '${text}'`);
  return Number(text);
};
const SECONDS = positiveInteger('seconds', opts.seconds);
if (opts.jobs !== undefined) positiveInteger('jobs', opts.jobs);
if (opts.target && !TARGETS.includes(opts.target)) {
  usageError(`unknown --target '${opts.target}' (known: ${TARGETS.join(', ')})`);
}

const log = (msg) => process.stderr.write(`[fuzz] ${msg}\n`);

function run(cmd, args, { capture = true, env } = {}) {
  const r = spawnSync(cmd, args, {
    cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, env: { ...process.env, ...env },
    stdio: capture ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'],
  });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) {
    throw new Error(`'${cmd} ${args.join(' ')}' failed with exit code ${r.status}\n${r.stdout ?? ''}${r.stderr ?? ''}`);
  }
  return r.stdout;
}

// ---------------------------------------------------------------------------------------------
// Build

function build(secpDir) {
  const jobs = opts.jobs ?? String(os.availableParallelism?.() ?? os.cpus().length);
  const started = Date.now();
  if (!existsSync(path.join(FUZZ, 'CMakeCache.txt'))) {
    log('configuring build/fuzz (clang, ASan + UBSan + libFuzzer)');
    run('cmake', ['-S', ROOT, '-B', FUZZ, '-DIBD_FUZZ=ON', `-DIBD_SECP256K1_DIR=${secpDir}`,
      '-DCMAKE_BUILD_TYPE=Release', '-DCMAKE_C_COMPILER=clang', '-DCMAKE_CXX_COMPILER=clang++']);
  }
  run('cmake', ['--build', FUZZ, '--target', 'ibd_fuzz_targets', '--parallel', jobs]);
  log(`build ok (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

// ---------------------------------------------------------------------------------------------
// Seeds. Layouts are documented at the top of fuzz/block_parser_fuzz.cpp and
// fuzz/script_eval_fuzz.cpp; the builders here must match them.

const u16 = (n) => { const b = Buffer.alloc(2); b.writeUInt16LE(n); return b; };
const u32 = (n) => { const b = Buffer.alloc(4); b.writeUInt32LE(n >>> 0); return b; };
const i32 = (n) => { const b = Buffer.alloc(4); b.writeInt32LE(n); return b; };
const i64 = (n) => { const b = Buffer.alloc(8); b.writeBigInt64LE(BigInt(n)); return b; };
const hex = (s) => Buffer.from(s, 'hex');

function compactSize(n) {
  if (n < 0xfd) return Buffer.from([n]);
  if (n <= 0xffff) return Buffer.concat([Buffer.from([0xfd]), u16(n)]);
  return Buffer.concat([Buffer.from([0xfe]), u32(n)]);
}

/** Byte ranges and input shapes (scriptSig length, witness item count) of a block's
 *  transactions (network serialization, BIP144). The fixtures are well formed: no checks. */
function parseBlock(raw) {
  let pos = 80;
  const varint = () => {
    const first = raw[pos++];
    if (first < 0xfd) return first;
    const size = first === 0xfd ? 2 : first === 0xfe ? 4 : 8;
    const v = raw.readUIntLE(pos, Math.min(size, 6));
    pos += size;
    return v;
  };
  const skipBytes = () => { const n = varint(); pos += n; return n; };
  const txs = [];
  for (let count = varint(); count > 0; --count) {
    const start = pos;
    pos += 4;
    const segwit = raw[pos] === 0 && raw[pos + 1] !== 0;
    if (segwit) pos += 2;
    const inputs = [];
    for (let n = varint(); n > 0; --n) {
      pos += 36;
      inputs.push({ scriptSigLen: skipBytes(), witness: 0 });
      pos += 4;
    }
    for (let n = varint(); n > 0; --n) { pos += 8; skipBytes(); }
    if (segwit) {
      for (const input of inputs) {
        input.witness = varint();
        for (let i = 0; i < input.witness; ++i) skipBytes();
      }
    }
    pos += 4;
    txs.push({ start, end: pos, inputs });
  }
  return txs;
}

function scriptKind(spk) {
  const s = spk.toString('hex');
  if (/^76a914[0-9a-f]{40}88ac$/.test(s)) return 'p2pkh';
  if (/^a914[0-9a-f]{40}87$/.test(s)) return 'p2sh';
  if (/^0014[0-9a-f]{40}$/.test(s)) return 'p2wpkh';
  if (/^0020[0-9a-f]{64}$/.test(s)) return 'p2wsh';
  if (/^5120[0-9a-f]{64}$/.test(s)) return 'p2tr';
  if (/^(21|41)[0-9a-f]+ac$/.test(s)) return 'p2pk';
  if (s === '') return 'empty';
  return `other-${s.slice(-2)}`;
}

function spentEntry(e) {
  const spk = hex(e.script_pubkey);
  return Buffer.concat([i64(e.value), u32(e.vout), Buffer.from(hex(e.txid).reverse()), u16(spk.length), spk]);
}

/** Block-mode seed: fix-up, matching outpoints and expected hash all on (options 0x1c), with
 *  verdict source `verdicts` (options bits 6-7: 0 real, 1 all valid, 2 all invalid, 3 msg32 bit). */
function blockSeed(height, block, entries, verdicts = 0) {
  return Buffer.concat([Buffer.from([0x1c | (verdicts << 6)]), i32(height), u32(block.length), block, ...entries.map(spentEntry)]);
}

const FULL_BLOCK_MAX = 4 * 1024;    // fixture blocks up to this size are seeds as they are
const PICK_TX_MAX = 8 * 1024;       // larger ones give coinbase + one small tx per new input shape
const PICKS_PER_BLOCK = 16;

function blockParserSeeds(add) {
  const mainnet = path.join(FIXTURES, 'mainnet');
  for (const dir of readdirSync(mainnet).sort((a, b) => Number(a) - Number(b))) {
    const rawFile = path.join(mainnet, dir, 'block.raw');
    const spentFile = path.join(mainnet, dir, 'spent_outputs.json');
    if (!existsSync(rawFile) || !existsSync(spentFile)) continue;
    const height = Number(dir);
    const raw = readFileSync(rawFile);
    const spentText = readFileSync(spentFile);
    const entries = JSON.parse(spentText).spent_outputs;
    if (spentText.length <= FULL_BLOCK_MAX) add(`json-${dir}`, Buffer.concat([Buffer.from([0x03]), spentText]));
    if (raw.length <= FULL_BLOCK_MAX) {
      add(`block-${dir}`, blockSeed(height, raw, entries));
      continue;
    }
    const txs = parseBlock(raw);
    const seen = new Set();
    let first = 0;  // index in `entries` of the tx's first input
    let picks = 0;
    for (let t = 1; t < txs.length && picks < PICKS_PER_BLOCK; ++t) {
      const tx = txs[t];
      const mine = entries.slice(first, first + tx.inputs.length);
      first += tx.inputs.length;
      if (tx.end - tx.start > PICK_TX_MAX) continue;
      const shapes = mine.map((e, i) =>
        `${scriptKind(hex(e.script_pubkey))}/${Math.min(tx.inputs[i].witness, 4)}/${tx.inputs[i].scriptSigLen > 0 ? 1 : 0}`);
      if (shapes.every((s) => seen.has(s))) continue;
      shapes.forEach((s) => seen.add(s));
      ++picks;
      const cb = txs[0];
      const sub = Buffer.concat([raw.subarray(0, 80), compactSize(2), raw.subarray(cb.start, cb.end), raw.subarray(tx.start, tx.end)]);
      add(`block-${dir}-tx${t}`, blockSeed(height, sub, mine, picks % 4));
      add(`tx-${dir}-tx${t}`, Buffer.concat([Buffer.from([0x02]), raw.subarray(tx.start, tx.end)]));
    }
  }
  const core = path.join(FIXTURES, 'vectors', 'bitcoin-core');
  for (const file of ['tx_valid.json', 'tx_invalid.json']) {
    const p = path.join(core, file);
    if (!existsSync(p)) continue;
    JSON.parse(readFileSync(p, 'utf8')).forEach((row, i) => {
      if (Array.isArray(row) && row.length >= 2 && typeof row[1] === 'string' && /^[0-9a-f]+$/i.test(row[1])) {
        add(`tx-${file.replace('.json', '')}-${i}`, Buffer.concat([Buffer.from([0x02]), hex(row[1])]));
      }
    });
  }
  add('json-empty', Buffer.from('\x03{"spent_outputs":[]}'));
}

// Core's script_tests.json asm (core_read.cpp ParseScript) and flag names (interpreter.h).
const OPCODES = (() => {
  const names = {
    0x00: ['0', 'FALSE'], 0x4c: ['PUSHDATA1'], 0x4d: ['PUSHDATA2'], 0x4e: ['PUSHDATA4'], 0x4f: ['1NEGATE'],
    0x50: ['RESERVED'], 0x51: ['1', 'TRUE'],
  };
  for (let n = 2; n <= 16; ++n) names[0x50 + n] = [String(n)];
  const rest = ['NOP', 'VER', 'IF', 'NOTIF', 'VERIF', 'VERNOTIF', 'ELSE', 'ENDIF', 'VERIFY', 'RETURN',
    'TOALTSTACK', 'FROMALTSTACK', '2DROP', '2DUP', '3DUP', '2OVER', '2ROT', '2SWAP', 'IFDUP', 'DEPTH', 'DROP',
    'DUP', 'NIP', 'OVER', 'PICK', 'ROLL', 'ROT', 'SWAP', 'TUCK', 'CAT', 'SUBSTR', 'LEFT', 'RIGHT', 'SIZE',
    'INVERT', 'AND', 'OR', 'XOR', 'EQUAL', 'EQUALVERIFY', 'RESERVED1', 'RESERVED2', '1ADD', '1SUB', '2MUL',
    '2DIV', 'NEGATE', 'ABS', 'NOT', '0NOTEQUAL', 'ADD', 'SUB', 'MUL', 'DIV', 'MOD', 'LSHIFT', 'RSHIFT',
    'BOOLAND', 'BOOLOR', 'NUMEQUAL', 'NUMEQUALVERIFY', 'NUMNOTEQUAL', 'LESSTHAN', 'GREATERTHAN',
    'LESSTHANOREQUAL', 'GREATERTHANOREQUAL', 'MIN', 'MAX', 'WITHIN', 'RIPEMD160', 'SHA1', 'SHA256', 'HASH160',
    'HASH256', 'CODESEPARATOR', 'CHECKSIG', 'CHECKSIGVERIFY', 'CHECKMULTISIG', 'CHECKMULTISIGVERIFY', 'NOP1',
    'CHECKLOCKTIMEVERIFY', 'CHECKSEQUENCEVERIFY', 'NOP4', 'NOP5', 'NOP6', 'NOP7', 'NOP8', 'NOP9', 'NOP10',
    'CHECKSIGADD'];
  rest.forEach((name, i) => { names[0x61 + i] = [name]; });
  names[0xb1].push('NOP2');
  names[0xb2].push('NOP3');
  const map = new Map();
  for (const [op, list] of Object.entries(names)) for (const n of list) { map.set(n, Number(op)); map.set(`OP_${n}`, Number(op)); }
  return map;
})();

function pushData(data) {
  const n = data.length;
  const head = n < 0x4c ? [n] : n <= 0xff ? [0x4c, n] : n <= 0xffff ? [0x4d, n & 0xff, n >> 8] : [0x4e, ...u32(n)];
  return Buffer.concat([Buffer.from(head), data]);
}

function scriptNum(n) {
  const out = [];
  const neg = n < 0n;
  let abs = neg ? -n : n;
  while (abs > 0n) { out.push(Number(abs & 0xffn)); abs >>= 8n; }
  if (out.length && out[out.length - 1] & 0x80) out.push(neg ? 0x80 : 0);
  else if (neg) out[out.length - 1] |= 0x80;
  return Buffer.from(out);
}

/** Core's ParseScript; null for a word it would reject. */
function parseAsm(asm) {
  const parts = [];
  for (const w of asm.split(/\s+/).filter(Boolean)) {
    if (/^-?\d+$/.test(w)) {
      const n = BigInt(w);
      if (n > 0xffffffffn || n < -0xffffffffn) return null;
      if (n === -1n || (n >= 1n && n <= 16n)) parts.push(Buffer.from([Number(n) + 0x50]));
      else if (n === 0n) parts.push(Buffer.from([0]));
      else parts.push(pushData(scriptNum(n)));
    } else if (/^0x([0-9a-fA-F]{2})+$/.test(w)) {
      parts.push(hex(w.slice(2)));
    } else if (w.length >= 2 && w.startsWith("'") && w.endsWith("'")) {
      parts.push(pushData(Buffer.from(w.slice(1, -1), 'latin1')));
    } else if (OPCODES.has(w)) {
      parts.push(Buffer.from([OPCODES.get(w)]));
    } else {
      return null;
    }
  }
  return Buffer.concat(parts);
}

const FLAG_BITS = {
  NONE: 0, P2SH: 0, STRICTENC: 1, DERSIG: 2, LOW_S: 3, NULLDUMMY: 4, SIGPUSHONLY: 5, MINIMALDATA: 6,
  DISCOURAGE_UPGRADABLE_NOPS: 7, CLEANSTACK: 8, CHECKLOCKTIMEVERIFY: 9, CHECKSEQUENCEVERIFY: 10, WITNESS: 11,
  DISCOURAGE_UPGRADABLE_WITNESS_PROGRAM: 12, MINIMALIF: 13, NULLFAIL: 14, WITNESS_PUBKEYTYPE: 15,
  CONST_SCRIPTCODE: 16, TAPROOT: 17, DISCOURAGE_UPGRADABLE_TAPROOT_VERSION: 18, DISCOURAGE_OP_SUCCESS: 19,
  DISCOURAGE_UPGRADABLE_PUBKEYTYPE: 20,
};
function parseFlags(s) {
  let flags = 0;
  for (const name of s.split(',').map((x) => x.trim()).filter(Boolean)) {
    if (!(name in FLAG_BITS)) return null;
    if (name !== 'NONE') flags |= 1 << FLAG_BITS[name];
  }
  return flags >>> 0;
}

/** Script-eval seed (layout at the top of fuzz/script_eval_fuzz.cpp). `checker` 0x75: ECDSA and
 *  Schnorr checks pass, CLTV and CSV pass, the flag-monotonicity check is on. */
let seedCounter = 0;
function scriptSeed({ flags, mode = 0, checker = 0x75, seed = 0, scriptSig, scriptPubKey, witness = [] }) {
  const items = witness.slice(0, 255).map((w) => Buffer.concat([u16(w.length), w]));
  // The flags the monotonicity check drops or adds: a different spread of the 21 known bits each seed.
  const flip = (Math.imul(++seedCounter, 2654435761) >>> 11) & 0x1fffff;
  return Buffer.concat([u32(flags), u32(flip), Buffer.from([mode, checker, seed]), u16(scriptSig.length), scriptSig,
    u16(scriptPubKey.length), scriptPubKey, Buffer.from([items.length]), ...items]);
}

function scriptEvalSeeds(add) {
  const core = path.join(FIXTURES, 'vectors', 'bitcoin-core', 'script_tests.json');
  if (existsSync(core)) {
    JSON.parse(readFileSync(core, 'utf8')).forEach((row, i) => {
      let witness = [];
      let r = row;
      if (Array.isArray(r[0])) { witness = r[0].slice(0, -1).map((w) => hex(w)); r = r.slice(1); }
      if (r.length < 4 || typeof r[0] !== 'string' || typeof r[1] !== 'string') return;
      const scriptSig = parseAsm(r[0]);
      const scriptPubKey = parseAsm(r[1]);
      const flags = parseFlags(r[2]);
      if (!scriptSig || !scriptPubKey || flags === null) return;
      add(`core-${i}`, scriptSeed({ flags, scriptSig, scriptPubKey, witness }));
      // The same scriptPubKey run alone by EvalScript, BASE, on the witness items as its stack.
      if (i % 4 === 0) add(`core-${i}-eval`, scriptSeed({ flags, mode: 2, scriptSig, scriptPubKey, witness }));
    });
  }
  const assets = path.join(FIXTURES, 'vectors', 'btcd-taproot-ref', 'taproot_script_assets.json');
  if (existsSync(assets)) {
    const perComment = new Map();
    JSON.parse(readFileSync(assets, 'utf8')).forEach((t, i) => {
      const n = perComment.get(t.comment) ?? 0;
      if (n >= 2) return;
      perComment.set(t.comment, n + 1);
      const prevout = hex(t.prevouts[t.index]);
      const spkLen = prevout[8];  // every prevout script here is shorter than 0xfd bytes
      const scriptPubKey = prevout.subarray(9, 9 + spkLen);
      const flags = parseFlags(t.flags);
      if (flags === null) return;
      for (const [kind, s] of [['ok', t.success], ['bad', t.failure]]) {
        if (!s) continue;
        add(`taproot-${i}-${kind}`, scriptSeed({
          flags, scriptSig: hex(s.scriptSig), scriptPubKey, witness: s.witness.map((w) => hex(w)),
        }));
      }
    });
  }
}

function writeSeeds(target) {
  const dir = path.join(FUZZ, 'corpus', target);
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) if (f.startsWith('seed-')) rmSync(path.join(dir, f));
  let count = 0;
  const add = (name, bytes) => { writeFileSync(path.join(dir, `seed-${name}`), bytes); ++count; };
  if (!existsSync(path.join(FIXTURES, 'mainnet'))) {
    log(`warning: no fixtures at ${FIXTURES}; ${target} starts from an empty corpus`);
  } else if (target === 'block_parser_fuzz') {
    blockParserSeeds(add);
  } else {
    scriptEvalSeeds(add);
  }
  return { dir, count };
}

// ---------------------------------------------------------------------------------------------
// Run

function runTarget(target, seconds) {
  const exe = path.join(FUZZ, 'fuzz', target);
  const artifacts = path.join(FUZZ, 'artifacts', target);
  const logs = path.join(FUZZ, 'logs');
  mkdirSync(artifacts, { recursive: true });
  mkdirSync(logs, { recursive: true });
  const { dir, count } = writeSeeds(target);
  const filesBefore = readdirSync(dir).length;
  log(`${target}: ${seconds} s; corpus ${path.relative(ROOT, dir)}: ${count} seeds + ${filesBefore - count} files found earlier`);
  const logFile = path.join(logs, `${target}.log`);
  const args = [
    `-max_total_time=${seconds}`, '-timeout=10', '-rss_limit_mb=2048', `-artifact_prefix=${artifacts}/`,
    '-print_final_stats=1', dir,
  ];
  return new Promise((resolve) => {
    const out = createWriteStream(logFile);
    let text = '';
    // Past max_total_time libFuzzer stops at the next unit; a hung unit is its own -timeout.
    // This outer limit only guards against libFuzzer itself not stopping.
    const child = spawn(exe, args, {
      cwd: FUZZ, stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=1:abort_on_error=0', UBSAN_OPTIONS: 'print_stacktrace=1' },
    });
    const guard = setTimeout(() => child.kill('SIGKILL'), (seconds + 120) * 1000);
    const take = (chunk) => { out.write(chunk); text += chunk; if (text.length > 4e6) text = text.slice(-2e6); };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      out.end();
      const done = text.match(/^Done (\d+) runs in (\d+) second.*$/m);
      const cov = [...text.matchAll(/^#\d+\s+\w+\s+cov: (\d+) ft: (\d+) corp: (\d+)/gm)].pop();
      const reproducer = text.match(/Test unit written to (\S+)/)?.[1] ?? null;
      const filesAfter = existsSync(dir) ? readdirSync(dir).length : 0;
      resolve({ target, code: code ?? 1, signal, runs: done ? Number(done[1]) : 0, done: done?.[0] ?? null,
        cov: cov ? { edges: Number(cov[1]), features: Number(cov[2]), corpus: Number(cov[3]) } : null,
        corpus: { dir, before: filesBefore, after: filesAfter }, reproducer, text, logFile });
    });
  });
}

function report(r) {
  const rel = (p) => path.relative(ROOT, p);
  if (r.code === 0 && r.done) {
    const cov = r.cov ? `, cov ${r.cov.edges} edges, ${r.cov.features} features` : '';
    log(`${r.target}: ${r.done}${cov}; no crash, leak or timeout (log ${rel(r.logFile)})`);
    // libFuzzer's own "corp: N" is its in-memory working set: the inputs it kept because they add
    // coverage; the files it skipped stay on disk, so N is far below the file count.
    const added = r.corpus.after - r.corpus.before;
    log(`${r.target}: corpus ${rel(r.corpus.dir)} now ${r.corpus.after} files (${added >= 0 ? '+' : ''}${added} this run)` +
      (r.cov ? `; libFuzzer's in-memory working set ("corp") is the ${r.cov.corpus} of them that add coverage` : ''));
    return true;
  }
  const lines = r.text.split('\n');
  const from = Math.max(0, lines.findIndex((l) => /^==\d+==ERROR|runtime error|^==\d+== ERROR|ALARM|out-of-memory|deadly signal/.test(l)));
  log(`${r.target}: FAILED (exit code ${r.code}${r.signal ? `, signal ${r.signal}` : ''})`);
  process.stderr.write(`${lines.slice(from, from + 80).join('\n')}\n`);
  if (r.reproducer) {
    const bytes = readFileSync(r.reproducer);
    log(`reproducer: ${r.reproducer} (${bytes.length} bytes)`);
    log(`reproducer hex${bytes.length > 4096 ? ' (first 4096 bytes)' : ''}: ${bytes.subarray(0, 4096).toString('hex')}`);
    log(`rerun: ${rel(path.join(FUZZ, 'fuzz', r.target))} ${r.reproducer}`);
  }
  log(`full log: ${rel(r.logFile)}`);
  return false;
}

async function main() {
  // Debian packages (clang, libclang-rt-14-dev: installed when root, else named) and the
  // libsecp256k1 source; the native and wasm builds are not needed here.
  run(process.execPath, [path.join(ROOT, 'scripts', 'setup.mjs'), '--quiet', '--skip-build'], { capture: false });
  const secpDir = await ensureSecp256k1Source(path.join(BUILD, 'deps'), () => {});
  build(secpDir);
  const built = TARGETS.filter((t) => existsSync(path.join(FUZZ, 'fuzz', t)));
  if (!existsSync(path.join(ROOT, 'native', 'script', 'interpreter.cpp'))) {
    log('script_eval_fuzz not built: native/script/interpreter.cpp does not exist yet');
  }
  const targets = opts.target ? [opts.target] : built;
  for (const t of targets) {
    if (!built.includes(t)) throw new Error(`${t} was not built (see fuzz/CMakeLists.txt)`);
  }
  let ok = true;
  for (const t of targets) {
    const r = await runTarget(t, SECONDS);
    ok = report(r) && ok;
  }
  process.exit(ok ? 0 : 1);
}

main().catch((err) => {
  log(`error: ${err.message}`);
  process.exit(1);
});
