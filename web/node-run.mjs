// The page's run over a node's block files (the "your node's block files" source): the files
// picked (web/block-files.mjs) opened as a datadir (blocks-fixtures/datadir/datadir.mjs), a
// height range of its active chain streamed through a Web Worker pool (workers/web-pool.mjs,
// bench/core/range-stream.mjs), and the document and exit code of `npm start -- --datadir`
// (bench/core/range-report.mjs), as blocks-fixtures/node-source.mjs and bench/cli/node-source.mjs
// make them in Node. The page's thread reads and orders the files; the workers validate.
import { openDatadir } from '../blocks-fixtures/datadir/datadir.mjs';
import { rangeOf } from '../blocks-fixtures/range.mjs';
import { countOf } from '../bench/core/format.mjs';
import { nodeSourceExitCode, rangeDocument } from '../bench/core/range-report.mjs';
import { validateRange } from '../bench/core/range-stream.mjs';
import { createWebPool } from '../workers/web-pool.mjs';
import { hash256, webCryptoProblem } from './block-files.mjs';
import { reportingHost, usableVariant } from './run.mjs';

/** The datadirs opened, per pick: a second run over the same pick does not read the headers
 *  again (pick again to see what a running node wrote since). */
const openedByPick = new WeakMap();
/** Numbers the opens, so that a pick's notices are shown once however many runs it has. */
let opens = 0;

/**
 * Opens the picked files as a datadir: reads the XOR key and every blk file's record and block
 * headers (the files named in the log as they are read), and orders them into the active chain.
 * @param {Awaited<ReturnType<typeof import('./block-files.mjs').filesFromList>>} picked
 * @param {{log: (msg: string) => void}} report
 * @returns {Promise<{source: object, described: object, skipped: string[], damaged: string[],
 *   partial: string[], first: number, tip: number, heights: {first: number, last: number},
 *   serial: number}>} source: openDatadir's (read(height)); described: the document's
 *   `source` ({kind: 'datadir', picked: true, folder, obfuscated, tip, unplaced_blocks,
 *   stale_blocks}); skipped: records not read, a damaged blk file's as "DAMAGED: ..."; first:
 *   the lowest height worth validating (1, or a pruned node's first); tip: the active chain's
 *   tip height; serial: this open's number in the page
 * @throws Error naming the file and byte offset (a wrong XOR key, a damaged first record, a
 *   read the browser refuses), or the folder when no block has a known height; Web Crypto
 *   missing
 */
export function openPicked(picked, report) {
  let opening = openedByPick.get(picked);
  if (!opening) {
    opening = open(picked, report);
    openedByPick.set(picked, opening);
    opening.catch(() => openedByPick.delete(picked)); // a failed open is tried again
  }
  return opening;
}

async function open(picked, report) {
  const problem = webCryptoProblem();
  if (problem) throw new Error(problem);
  // Each blk file named in the log when openDatadir first reads it (its headers, in order).
  let listing = true;
  const blk = picked.blk.map((file, i) => {
    let seen = false;
    return {
      name: file.name,
      size: file.size,
      read(offset, length) {
        if (listing && !seen) {
          seen = true;
          report.log(`${picked.folder}: ordering the headers: ${file.name} (${i + 1} of ${countOf(picked.blk.length, 'blk file')})`);
        }
        return file.read(offset, length);
      },
    };
  });
  const serial = ++opens;
  const source = await openDatadir({ blk, rev: picked.rev, xor: picked.xor }, { hash256 });
  listing = false;
  if (!source.tip) throw new Error(`${picked.folder}: no block with a known height (neither linked to genesis nor after BIP34)`);
  return {
    source,
    described: {
      kind: 'datadir', picked: true, folder: picked.folder, obfuscated: Boolean(picked.xor),
      tip: source.tip, unplaced_blocks: source.unplaced, stale_blocks: source.stale,
    },
    skipped: [...source.partial, ...source.damaged.map((d) => `DAMAGED: ${d}`)],
    damaged: source.damaged,
    partial: source.partial,
    first: Math.max(1, source.heights.first),
    tip: source.tip.height,
    spans: source.spans,
    heights: source.heights,
    serial,
  };
}

/**
 * Validates a height range of the picked files in a Web Worker pool.
 * @param {Awaited<ReturnType<typeof import('./block-files.mjs').filesFromList>>} picked
 * @param {{workers: number|'auto', variant: 'wide'|'simd'|'scalar', from: number|null, to: number|null}}
 *   settings from the controls: workers 'auto' is every core (navigator.hardwareConcurrency);
 *   from / to null: the first height after genesis the files hold / the tip, as the CLI's
 *   defaults
 * @param {ReturnType<typeof import('./environment.mjs').detectEnvironment>} env
 * @param {{log: (msg: string) => void, track: Function, notice: (msg: string, id?: string) =>
 *   void, error: (what: string, message: string) => void}} report the progress panel and the
 *   notice / error panels: a damaged blk file, the read error that stopped the range and a
 *   replaced worker are error panels, a record still being written a notice (shown once: `id`)
 * @returns {Promise<object>} rangeDocument's document (docs/json.md "--datadir, --rest and
 *   --rpc runs") with `exit_code` (nodeSourceExitCode: 0 all valid, 3 an invalid block, 1 a
 *   block not judged, a read error or a damaged file), `environment` (env, the pool's
 *   `transport`, the page's URL) and `settings` (the controls', with the variant that ran)
 * @throws Error when the files cannot be opened (openPicked), the range is empty, or no wasm
 *   variant compiles
 */
export async function runNodeFiles(picked, settings, env, report) {
  const opened = await openPicked(picked, report);
  opened.partial.forEach((p, i) => report.notice(`skipped: ${p}`, `skipped-${opened.serial}-${i}`));
  for (const d of opened.damaged) report.error('Damaged block file', `${d} (DAMAGED: exit code 1)`);
  const { from, to } = rangeOf(opened, settings.from, settings.to, { fromName: 'from height', toName: 'to height' });
  const workers = settings.workers === 'auto' ? env.hardware_concurrency : settings.workers;

  report.log('compiling the wasm engine in a worker');
  const variant = await usableVariant(settings.variant, env, report);
  const pool = createWebPool({ workers, variant, transport: 'auto', host: reportingHost(variant, report) });
  let run;
  try {
    await pool.ready();
    report.log(`tip ${opened.tip}; validating heights ${from} to ${to} in ${countOf(workers, 'worker')}`);
    const onProgress = report.track(`heights ${from} to ${to}: reading and validating`, to - from + 1, 'blocks');
    run = await validateRange(opened.source, pool, { from, to, onBatch: (done) => onProgress?.(done) });
  } finally {
    await pool.close();
  }
  const doc = rangeDocument(run, { described: opened.described, skipped: opened.skipped, from, to, workers });
  if (doc.read_error) {
    report.error(`Read error at height ${doc.read_error.height}`, `${doc.read_error.message}. The range stopped there; ` +
      `the ${countOf(doc.totals.blocks, 'block')} before it ${doc.totals.blocks === 1 ? 'was' : 'were'} validated and ${doc.totals.blocks === 1 ? 'is' : 'are'} shown below.`);
  }
  if (pool.replacements > 0) {
    report.error('Web Workers', `${pool.replacements} verify worker${pool.replacements === 1 ? ' was' : 's were'} ` +
      'replaced (died, trapped or missed a deadline); their blocks ran again on other workers, so no verdict is missing');
  }
  return {
    ...doc,
    exit_code: nodeSourceExitCode(doc),
    environment: { ...env, transport: pool.transport, page: location.href },
    settings: { ...settings, variant },
  };
}
