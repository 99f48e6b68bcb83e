// `npm start -- --datadir PATH | --rest URL | --rpc URL [--from H1] [--to H2] [--save DIR]`: a
// height range of a Bitcoin Core node's active chain, read from its blocks/ folder (read-only,
// no lock), its REST or its RPC interface (blocks-fixtures/node-source.mjs), validated in a pool
// of wasm workers, streamed (bench/core/range-stream.mjs). Reports the verdicts, blocks/s, MB/s
// read and the share of the wall time spent waiting for data (bench/core/range-report.mjs).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadEngine } from '../../wasm/engine.mjs';
import { REPO_ROOT } from '../../wasm/paths.mjs';
import { openNodeSource, rangeOf } from '../../blocks-fixtures/node-source.mjs';
import { createPool } from '../../workers/pool.mjs';
import { validateRange } from '../core/range-stream.mjs';
import { countOf } from '../core/format.mjs';
import { rangeDocument, rangeReportLines } from '../core/range-report.mjs';

/**
 * Runs the range from the source the options name (blocks-fixtures/node-source.mjs).
 * @param {{datadir?: string, rest?: string, rpc?: string, rpcCookie?: string, from?: number,
 *   to?: number, workers: number, variant: string, save?: string}} options exactly one of
 *   datadir, rest and rpc
 * @param {(msg: string) => void} log
 * @returns {Promise<object>} the result document (docs/json.md "--datadir, --rest and --rpc
 *   runs", bench/core/range-report.mjs): source, range, blocks, totals, figures, read_error,
 *   skipped
 * @throws Error when the folder is not a datadir, a record is damaged (file and byte named), the
 *   node cannot be reached, or the range is empty
 */
export async function runNodeSource(options, log) {
  const opened = await openNodeSource(options, log);
  try {
    const { from, to } = rangeOf(opened, options.from, options.to);
    log(`tip ${opened.tip}; validating heights ${from} to ${to} in ${countOf(options.workers, 'worker')}`);
    const pool = createPool({ workers: options.workers, variant: options.variant });
    let run;
    let saved = null;
    try {
      await pool.ready();
      const saver = options.save === undefined ? null : await fixtureSaver(options.save, opened.described);
      run = await validateRange(opened.source, pool, { from, to, onRead: saver?.save, onBatch: (done, total) => log(`validated ${done} of ${total} blocks`) });
      if (saver) {
        for (const f of saver.failures()) log(`--save: ${f}`);
        let manifest = null;
        let manifestError = null;
        if (saver.count()) {
          try {
            manifest = saver.finish();
            log(`saved ${countOf(saver.count(), 'block')} as fixture folders: ${manifest}`);
          } catch (err) {
            manifestError = `the manifest could not be written: ${err.stderr?.toString().trim() || err.message}`;
            log(`--save: ${manifestError}`);
          }
        }
        saved = { dir: path.resolve(options.save), blocks: saver.count(), heights: saver.saved(), manifest, failures: [...saver.failures(), ...(manifestError ? [manifestError] : [])] };
      }
    } finally {
      await pool.close();
    }
    return { ...rangeDocument(run, { described: opened.described, skipped: opened.skipped, from, to, workers: options.workers }), ...(saved ? { saved } : {}) };
  } finally {
    await opened.close();
  }
}

export { nodeSourceExitCode } from '../core/range-report.mjs';

/** The terminal report of a --datadir, --rest or --rpc run. */
export const formatNodeSourceReport = (doc) => `${rangeReportLines(doc).join('\n')}\n`;

/** The real path `target` has or would have: its deepest existing ancestor's real path, and
 *  the rest as given. */
function realTarget(target) {
  let head = target;
  const rest = [];
  while (!existsSync(head) && path.dirname(head) !== head) {
    rest.unshift(path.basename(head));
    head = path.dirname(head);
  }
  return path.join(realpathSync(head), ...rest);
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
  // A new or empty folder, never the node's own: checked before any block is read, on real
  // paths (a symbolic link on either side must not lead into the datadir).
  const target = path.resolve(dir);
  if (described.kind === 'datadir') {
    const datadir = realpathSync(path.resolve(described.folder, '..'));
    const real = realTarget(target);
    if (real === datadir || real.startsWith(`${datadir}${path.sep}`)) throw new Error(`--save ${dir}: inside the node's datadir (${datadir}), which is never written`);
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
  const saved = [];
  return {
    save(item) {
      const decoded = engine.decodeSpentOutputs(item.block, item.undo);
      if (!decoded.ok) {
        // Not saved, and said; the block still goes to validation, which judges it.
        failures.push(`block ${item.hash} at height ${item.height} not saved: ${decoded.error}`);
        return;
      }
      const folder = path.join(dir, 'mainnet', String(item.height));
      const doc = {
        network: 'mainnet', height: item.height, block_hash: item.hash,
        note: 'Written by npm start -- --save: one entry per non-coinbase input, in block order. value in satoshis, script_pubkey as hex.',
        derived_from: origin,
        spent_outputs: decoded.spent.map((e) => ({ txid: e.txid, vout: e.vout, value: e.value, script_pubkey: e.scriptPubKey })),
      };
      try {
        mkdirSync(folder, { recursive: true });
        writeFileSync(path.join(folder, 'block.raw'), item.block);
        writeFileSync(path.join(folder, 'spent_outputs.json'), `${JSON.stringify(doc, null, 1)}\n`);
      } catch (err) {
        // A full disk or a folder changed under the run: this block is not saved, the run goes
        // on (its verdicts do not depend on the copy), and the manifest leaves it out.
        rmSync(folder, { recursive: true, force: true });
        failures.push(`block ${item.hash} at height ${item.height} not saved to ${folder}: ${err.message}`);
        return;
      }
      saved.push(item.height);
      count++;
    },
    count: () => count,
    saved: () => saved,
    failures: () => failures,
    finish() {
      const out = path.join(dir, 'manifest.json');
      execFileSync(process.execPath, [path.join(REPO_ROOT, 'blocks-fixtures', 'make-manifest.mjs'), '--fixtures', dir, '--out', out], { stdio: ['ignore', 'ignore', 'pipe'] });
      return out;
    },
  };
}
