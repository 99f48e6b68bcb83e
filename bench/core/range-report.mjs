// What a node range's run reports (npm start -- --datadir / --rest / --rpc, and the page's
// "your node's blocks" run): the document (docs/json.md), its exit code and its text.
// Host-neutral: the CLI (bench/cli/node-source.mjs) and the page (web/node-run.mjs) share it.
import { countOf } from './format.mjs';

/**
 * The document of a range validated by validateRange (range-stream.mjs).
 * @param {Awaited<ReturnType<typeof import('./range-stream.mjs').validateRange>>} run
 * @param {{described: object, skipped: string[], from: number, to: number, workers: number}} args
 *   described: the source (docs/json.md `source`); skipped: records not read, named (the blocks
 *   read but not validated are added: the run's notValidated)
 * @returns {{source: object, range: {from: number, to: number}, skipped: string[], blocks:
 *   object[], totals: object, figures: object, read_error: object|null, pool_error: string|null}}
 *   docs/json.md "--datadir,
 *   --rest and --rpc runs"; figures in s, blocks/s, inputs/s, bytes/s and a 0..1 share
 */
export function rangeDocument(run, { described, skipped, from, to, workers }) {
  const blocks = run.blocks;
  const count = (f) => blocks.filter(f).length;
  const inputs = blocks.reduce((n, b) => n + (b.inputs ?? 0), 0);
  const checks = blocks.reduce((n, b) => n + (b.ecdsa ?? 0) + (b.schnorr ?? 0), 0);
  return {
    source: described,
    range: { from, to },
    skipped: [...skipped, ...(run.notValidated ?? []).map((n) => `height ${n.height} ${n.hash}: ${n.reason}`)],
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
      workers,
      timing: 'cold: one pass over the range, worker start-up excluded',
    },
    read_error: run.readError,
    pool_error: run.poolError ?? null,
  };
}

/** The exit code of a node range's run: 0 every block valid, 3 an invalid block, 1 a block not
 *  judged (a damaged one among them: its stored bytes fail a check Core makes before storing a
 *  block, range-stream.mjs STAGES_BEFORE_STORAGE), a read error or a damaged block file
 *  (bench/cli/options.mjs). */
export function nodeSourceExitCode(doc) {
  if (doc.read_error || doc.pool_error || doc.totals.failed || doc.skipped.some((x) => x.startsWith('DAMAGED'))) return 1;
  return doc.totals.invalid ? 3 : 0;
}

/** Where the blocks came from, in words: the datadir (or the folder or files picked in a page),
 *  or the node's interface. */
function sourceLine(s) {
  if (s.kind === 'rest' || s.kind === 'rpc') return `Bitcoin Core ${s.kind === 'rest' ? 'REST' : 'RPC'} interface ${s.url}, active chain tip ${s.tip.height}`;
  return `Bitcoin Core ${s.picked ? `block files picked in the page (${s.folder})` : `datadir ${s.folder}`} (${s.obfuscated ? 'obfuscated, xor.dat' : 'no obfuscation'}), active chain tip ${s.tip.height} ${s.tip.hash}`;
}

/**
 * The report of a node range's run, one line each: the source, the verdicts and counts, the
 * rates (blocks/s, inputs/s, MB/s read), the share of the wall time waiting for data, then what
 * was skipped, each block not valid, and the read error that stopped the range.
 * @param {ReturnType<typeof rangeDocument>} doc
 * @returns {string[]}
 */
export function rangeReportLines(doc) {
  const t = doc.totals;
  const f = doc.figures;
  const damaged = doc.blocks.filter((b) => b.damaged).length;
  const lines = [
    `ibd-wasm: ${sourceLine(doc.source)}`,
    `heights ${doc.range.from} to ${doc.range.to}: ${countOf(t.blocks, 'block')} validated in ${countOf(f.workers, 'worker')}: ${t.valid} valid, ${t.invalid} invalid, ${t.failed} not judged` +
      `${damaged ? ` (${damaged} DAMAGED)` : ''}; ${t.inputs.toLocaleString('en-US')} inputs, ${t.checks.toLocaleString('en-US')} signature checks`,
    `  ${f.blocks_per_second.toFixed(1)} blocks/s, ${Math.round(f.inputs_per_second).toLocaleString('en-US')} inputs/s, ${(f.read_bytes_per_second / 1e6).toFixed(2)} MB/s read (blocks and spent outputs), ${f.seconds.toFixed(2)} s (${f.timing})`,
    t.blocks === 0 ? `  nothing validated: ${f.seconds.toFixed(2)} s, reading took ${f.read_seconds.toFixed(2)} s`
      : `  waiting for data: ${(100 * f.wait_share).toFixed(1)}% of the wall time, with no batch in the pool while the next was read (the first batch's read, and any read slower than validation); reading took ${f.read_seconds.toFixed(2)} s in all`,
  ];
  for (const s of doc.skipped) lines.push(`  skipped: ${s}`);
  const src = doc.source;
  if (src.unplaced_blocks) {
    lines.push(`  ${countOf(src.unplaced_blocks, 'block')} in the files with no height: neither linked to genesis nor placed by a BIP34 coinbase height (a missing or damaged parent), not read`);
  }
  for (const b of doc.blocks.filter((x) => x.valid !== true || x.note)) {
    const verdict = b.valid === true ? 'valid' : b.valid === false ? `INVALID, ${b.error}` : b.damaged ? `DAMAGED, ${b.error}` : `NOT JUDGED, ${b.error}`;
    lines.push(`  block ${b.height} ${b.hash}: ${verdict}${b.note ? `; ${b.note}` : ''}`);
  }
  if (doc.pool_error) lines.push(`POOL FAILED: ${doc.pool_error}; the range stopped there, the blocks before it are reported above`);
  if (doc.read_error) {
    lines.push(`READ ERROR at height ${doc.read_error.height}: ${doc.read_error.message}`);
    lines.push(`  the range stopped there; ${t.blocks === 1 ? 'the 1 block before it was validated and is' : `the ${countOf(t.blocks, 'block')} before it were validated and are`} reported above`);
  }
  return lines;
}
