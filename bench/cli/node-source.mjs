// `npm start -- --datadir PATH | --rest URL [--from H1] [--to H2]`: a height range of a Bitcoin
// Core node's active chain, read from its blocks/ folder (read-only, no lock:
// blocks-fixtures/datadir/) or from its REST interface (blocks-fixtures/rest/), validated in a
// pool of wasm workers, streamed (bench/core/range-stream.mjs). Reports the verdicts, blocks/s,
// MB/s read and the share of the wall time spent waiting for data.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadEngine } from '../../wasm/engine.mjs';
import { REPO_ROOT } from '../../wasm/paths.mjs';
import { openDatadir } from '../../blocks-fixtures/datadir/datadir.mjs';
import { datadirFiles, hash256 } from '../../blocks-fixtures/datadir/node-files.mjs';
import { openRest } from '../../blocks-fixtures/rest/rest-source.mjs';
import { openRpc } from '../../blocks-fixtures/rpc/rpc-source.mjs';
import { createPool } from '../../workers/pool.mjs';
import { validateRange } from '../core/range-stream.mjs';
import { countOf } from '../core/format.mjs';

/**
 * Runs the range from the source the options name.
 * @param {{datadir?: string, rest?: string, from?: number, to?: number, workers: number,
 *   variant: string}} options exactly one of datadir and rest
 * @param {(msg: string) => void} log
 * @returns {Promise<object>} the result document (docs/json.md "--datadir and --rest runs"):
 *   source, range, blocks, totals, figures, read_error, skipped
 * @throws Error when the folder is not a datadir, a record is damaged (file and byte named), the
 *   node cannot be reached, or the range is empty
 */
export async function runNodeSource(options, log) {
  if (options.rpc !== undefined) {
    let cookie;
    if (options.rpcCookie !== undefined) {
      try {
        cookie = readFileSync(options.rpcCookie, 'utf8');
      } catch (err) {
        throw new Error(`--rpc-cookie ${options.rpcCookie}: ${err.code === 'ENOENT' ? 'no such file (the node writes <datadir>/.cookie while it runs)' : err.message}`);
      }
    }
    const source = openRpc(options.rpc, { cookie });
    log(`RPC: ${source.url}: asking for the tip`);
    const tipHeight = await source.tipHeight();
    return runRange(source, { kind: 'rpc', url: source.url, tip: { height: tipHeight } }, [], options, 1, tipHeight, log);
  }
  if (options.rest !== undefined) {
    const source = openRest(options.rest);
    log(`REST: ${source.url}: asking for the tip`);
    const tipHeight = await source.tipHeight();
    return runRange(source, { kind: 'rest', url: source.url, tip: { height: tipHeight } }, [], options, 1, tipHeight, log);
  }
  const files = datadirFiles(options.datadir);
  log(`datadir: ${files.folder}: ${countOf(files.blk.length, 'blk file')}, ${countOf(files.rev.length, 'rev file')}, ${files.xor ? 'xor.dat' : 'no xor.dat'}; ordering the headers`);
  try {
    const source = await openDatadir(files, { hash256 });
    for (const p of source.partial) log(`skipped: ${p}`);
    for (const d of source.damaged) log(`DAMAGED: ${d}`);
    if (!source.tip) throw new Error(`${files.folder}: no block with a known height (neither linked to genesis nor after BIP34)`);
    const described = { kind: 'datadir', folder: files.folder, obfuscated: Boolean(files.xor), tip: source.tip, unplaced_blocks: source.unplaced, stale_blocks: source.stale };
    return await runRange(source, described, [...source.partial, ...source.damaged.map((d) => `DAMAGED: ${d}`)], options, Math.max(1, source.heights.first), source.tip.height, log);
  } finally {
    await files.close();
  }
}

async function runRange(source, described, skipped, options, firstHeight, tipHeight, log) {
  const from = options.from ?? firstHeight;
  const to = options.to ?? tipHeight;
  if (from > to) throw new Error(`--from ${from} is above --to ${to}`);
  log(`tip ${tipHeight}; validating heights ${from} to ${to} in ${countOf(options.workers, 'worker')}`);
  const pool = createPool({ workers: options.workers, variant: options.variant });
  let run;
  try {
    await pool.ready();
    const saver = options.save === undefined ? null : await fixtureSaver(options.save, described);
    run = await validateRange(source, pool, { from, to, onRead: saver?.save, onBatch: (done, total) => log(`validated ${done} of ${total} blocks`) });
    if (saver) {
      for (const f of saver.failures()) log(`--save: ${f}`);
      if (saver.count()) log(`saved ${countOf(saver.count(), 'block')} as fixture folders: ${saver.finish()}`);
    }
  } finally {
    await pool.close();
  }
  const blocks = run.blocks;
  const count = (f) => blocks.filter(f).length;
  const inputs = blocks.reduce((n, b) => n + (b.inputs ?? 0), 0);
  const checks = blocks.reduce((n, b) => n + (b.ecdsa ?? 0) + (b.schnorr ?? 0), 0);
  return {
    source: described,
    range: { from, to },
    skipped,
    blocks,
    totals: {
      blocks: blocks.length, valid: count((b) => b.valid === true), invalid: count((b) => b.valid === false),
      failed: count((b) => b.valid === null), inputs, checks, bytes_read: run.bytesRead,
    },
    figures: {
      seconds: run.seconds,
      blocks_per_second: blocks.length / run.seconds,
      inputs_per_second: inputs / run.seconds,
      read_bytes_per_second: run.bytesRead / run.seconds,
      read_seconds: run.readSeconds,
      wait_share: run.waitSeconds / run.seconds,
      workers: options.workers,
      timing: 'cold: one pass over the range, worker start-up excluded',
    },
    read_error: run.readError,
  };
}

/** The exit code of a --datadir, --rest or --rpc run: 0 every block valid, 3 an invalid block,
 *  1 a block not judged, a read error or a damaged block file (bench/cli/options.mjs). */
export function nodeSourceExitCode(doc) {
  if (doc.read_error || doc.totals.failed || doc.skipped.some((x) => x.startsWith('DAMAGED'))) return 1;
  return doc.totals.invalid ? 3 : 0;
}

/** The terminal report of a --datadir or --rest run. */
export function formatNodeSourceReport(doc) {
  const t = doc.totals;
  const f = doc.figures;
  const lines = [
    doc.source.kind !== 'datadir'
      ? `ibd-wasm: Bitcoin Core ${doc.source.kind === 'rest' ? 'REST' : 'RPC'} interface ${doc.source.url}, active chain tip ${doc.source.tip.height}`
      : `ibd-wasm: Bitcoin Core datadir ${doc.source.folder} (${doc.source.obfuscated ? 'obfuscated, xor.dat' : 'no obfuscation'}), active chain tip ${doc.source.tip.height} ${doc.source.tip.hash}`,
    `heights ${doc.range.from} to ${doc.range.to}: ${countOf(t.blocks, 'block')} validated in ${countOf(f.workers, 'worker')}: ${t.valid} valid, ${t.invalid} invalid, ${t.failed} not judged; ${t.inputs.toLocaleString('en-US')} inputs, ${t.checks.toLocaleString('en-US')} signature checks`,
    `  ${f.blocks_per_second.toFixed(1)} blocks/s, ${Math.round(f.inputs_per_second).toLocaleString('en-US')} inputs/s, ${(f.read_bytes_per_second / 1e6).toFixed(2)} MB/s read (blocks and spent outputs), ${f.seconds.toFixed(2)} s (${f.timing})`,
    `  waiting for data: ${(100 * f.wait_share).toFixed(1)}% of the wall time (no batch in the pool while the next was read); reading took ${f.read_seconds.toFixed(2)} s in all, overlapped with validation`,
  ];
  for (const s of doc.skipped) lines.push(`  skipped: ${s}`);
  for (const b of doc.blocks.filter((x) => x.valid !== true)) {
    lines.push(`  block ${b.height} ${b.hash}: ${b.valid === false ? `INVALID, ${b.error}` : `NOT JUDGED, ${b.error}`}`);
  }
  if (doc.read_error) {
    lines.push(`READ ERROR at height ${doc.read_error.height}: ${doc.read_error.message}`);
    lines.push(`  the range stopped there; the ${countOf(t.blocks, 'block')} before it were validated and are reported above`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * --save DIR: each block read is written as DIR/mainnet/<height>/block.raw and
 * spent_outputs.json (the shared fixture set's format, ../shared/blocks-fixtures/README.md), its
 * spent outputs decoded by a wasm engine on this thread (decodeSpentOutputs, wasm/API.md); at the
 * end, blocks-fixtures/make-manifest.mjs writes DIR/manifest.json with each file's SHA-256, so
 * that `npm start -- --fixtures DIR` replays the range offline.
 * @returns {Promise<{save: (item: object) => void, count: () => number, finish: () => string}>}
 *   finish: writes the manifest, returns its path
 * @throws Error naming the block when its spent outputs do not decode
 */
async function fixtureSaver(dir, described) {
  // A new or empty folder, never the node's own: checked before any block is read.
  const target = path.resolve(dir);
  if (described.kind === 'datadir') {
    const datadir = path.resolve(described.folder, '..');
    if (target === datadir || target.startsWith(`${datadir}${path.sep}`)) throw new Error(`--save ${dir}: inside the node's datadir (${datadir}), which is never written`);
  }
  try {
    mkdirSync(target, { recursive: true });
    if (readdirSync(target).length) throw new Error('not empty: give a new or empty folder (a fixture set is saved whole, with its own manifest)');
    writeFileSync(path.join(target, '.write-test'), '');
    rmSync(path.join(target, '.write-test'));
  } catch (err) {
    throw new Error(`--save ${dir}: ${err.message}`);
  }
  const engine = await loadEngine('simd');
  const failures = [];
  const origin = described.kind === 'datadir' ? `a Bitcoin Core datadir (${described.folder})` : `a Bitcoin Core node's ${described.kind === 'rest' ? 'REST' : 'RPC'} interface (${described.url})`;
  let count = 0;
  return {
    save(item) {
      const decoded = engine.decodeSpentOutputs(item.block, item.undo);
      if (!decoded.ok) {
        // Not saved, and said; the block still goes to validation, which judges it.
        failures.push(`block ${item.hash} at height ${item.height} not saved: ${decoded.error}`);
        return;
      }
      const folder = path.join(dir, 'mainnet', String(item.height));
      mkdirSync(folder, { recursive: true });
      writeFileSync(path.join(folder, 'block.raw'), item.block);
      const doc = {
        network: 'mainnet', height: item.height, block_hash: item.hash,
        note: 'Written by npm start -- --save: one entry per non-coinbase input, in block order. value in satoshis, script_pubkey as hex.',
        derived_from: origin,
        spent_outputs: decoded.spent.map((e) => ({ txid: e.txid, vout: e.vout, value: e.value, script_pubkey: e.scriptPubKey })),
      };
      writeFileSync(path.join(folder, 'spent_outputs.json'), `${JSON.stringify(doc, null, 1)}\n`);
      count++;
    },
    count: () => count,
    failures: () => failures,
    finish() {
      const out = path.join(dir, 'manifest.json');
      execFileSync(process.execPath, [path.join(REPO_ROOT, 'blocks-fixtures', 'make-manifest.mjs'), '--fixtures', dir, '--out', out], { stdio: ['ignore', 'ignore', 'pipe'] });
      return out;
    },
  };
}
