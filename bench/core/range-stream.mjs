// A height range of a block source validated in a pool, streamed: blocks are read in batches
// while the previous batch validates, so reading overlaps validation and the range is never
// held in memory (at most maxInFlight batches and the one being read). Host-neutral: the source
// is blocks-fixtures/datadir/datadir.mjs's (or any {read(height)}), the pool workers/pool.mjs's.
// The blocks are taken as a node's stored ones (its blk files, or its REST or RPC interface): a
// block failing a check Core makes before storing a block is reported damaged, not invalid
// (STAGES_BEFORE_STORAGE).
import { validateBlocksInPool } from '../../workers/block-jobs.mjs';
import { blockWorkload } from './block-workload.mjs';
import { warmBlockTimes } from './end-to-end.mjs';
import { median } from './verify-passes.mjs';

/** Bytes of block and undo data per batch: enough inputs for every worker to get work. */
export const DEFAULT_BATCH_BYTES = 8 * 1024 * 1024;

/**
 * Validates heights from..to of `source` in `pool`.
 * @param {{read: (height: number, last: number) => Promise<{height: number, hash: string, block:
 *   Uint8Array, undo: Uint8Array|null}>}} source read(height, last): `last` the range's end, so
 *   that a source reading ahead stops there
 * @param {object} pool a VerifyPool (workers/pool.mjs createPool)
 * @param {{from: number, to: number, batchBytes?: number, maxInFlight?: number, timedRounds?:
 *   number, onBatch?: (done: number, total: number) => void, onRead?: (item: object) => void,
 *   now?: () => number}} options onRead: each block as read, before it is validated (npm start
 *   -- --save); timedRounds: after its first pass, each batch is validated this many times
 *   more, timed (default 0: one pass, for the verdicts); with timed rounds no batch overlaps
 *   another, nor a read, so that the times are the engine's alone (npm run project -- --check)
 * @returns {Promise<{blocks: object[], notValidated: Array<{height: number, hash: string,
 *   reason: string}>, readError: {height: number, message: string}|null,
 *   poolError: string|null, seconds: number, readSeconds: number, waitSeconds: number,
 *   bytesRead: number, timedSeconds: number|null}>} blocks: one
 *   entry per block validated, in height order: {height, hash, bytes (block + undo), valid
 *   (true / false / null when not judged), damaged (true: the block fails a check of
 *   STAGES_BEFORE_STORAGE, which no block a node stored fails: valid null, and error says so),
 *   stage (Core's function that rejects the block, invalid or damaged; else null),
 *   reject_reason, error (naming the block's files and
 *   byte offsets where the source gives them, as block_file, block_offset, rev_file and
 *   rev_offset), note (when the block was read another way: item.alternatives), inputs, ecdsa,
 *   schnorr}, and
 *   with timed rounds, for a block that validated: workload (block-workload.mjs), engine_ms
 *   ({median, min, max, rounds}: the workers' time in the engine for the block, summed over its
 *   ranges), stages_ms and parts_ms (end-to-end.mjs warmBlockTimes), warm; notValidated: blocks
 *   read but not validated, and why (genesis, which has no undo data); timedSeconds: the
 *   sum over the batches of their median timed round's wall time, s (null without rounds);
 *   readError: the first block that could not be read, or whose header does not link to the
 *   block read for the height before it (linkError; the range stops there; every block
 *   read before it is validated and reported); poolError: the pool failed (the range stopped
 *   there, the blocks judged before it reported, those of its batch not judged); seconds: wall time; readSeconds: time in the
 *   source's reads; waitSeconds: wall time during which no batch was in the pool because the
 *   next was still being read (the wait for data, apart from validation)
 */
export async function validateRange(source, pool, { from, to, batchBytes = DEFAULT_BATCH_BYTES, maxInFlight = 2, timedRounds = 0, onBatch, onRead, now = () => performance.now() }) {
  const started = now();
  const blocks = [];
  const inFlight = new Set();
  let readMs = 0;
  let waitMs = 0;
  let idleSince = started; // the pool has nothing to do until the first batch goes out
  let bytesRead = 0;
  let readError = null;
  let done = 0;
  let failure = null;
  let timedMs = 0;
  const notValidated = [];

  // The batch's first pass gives the verdicts; a block not found valid is validated again from
  // each other way its source can read it (a datadir's other undo records with its checksum,
  // or another stored copy), the first that validates kept and said; its timed rounds give each
  // block's warm engine times.
  const validate = async (batch, jobs, slot) => {
    const results = await validateBlocksInPool(pool, jobs);
    for (const [i, r] of results.entries()) {
      if ((r.ok && r.valid) || !batch[i].alternatives) continue;
      const tried = [];
      for (const alt of await batch[i].alternatives().catch(() => [])) {
        const job = { block: alt.block, spentOutputs: alt.undo, hash: batch[i].hash, height: batch[i].height };
        const [again] = await validateBlocksInPool(pool, [job]);
        tried.push(alt.note);
        if (again.ok && again.valid) {
          results[i] = again;
          jobs[i] = job;
          batch[i] = { ...batch[i], ...alt };
          blocks[slot + i].note = `validated from ${alt.note}; the first read did not validate: ${r.error}`;
          break;
        }
      }
      if (!(results[i].ok && results[i].valid) && tried.length) blocks[slot + i].note = `${tried.length} other way${tried.length === 1 ? '' : 's'} to read it tried, none valid: ${tried.join('; ')}`;
    }
    results.forEach((r, i) => Object.assign(blocks[slot + i], summary(r, batch[i])));
    if (timedRounds > 0) {
      const perBlock = jobs.map(() => []);
      const walls = [];
      for (let r = 0; r < timedRounds; r++) {
        const t = now();
        const out = await validateBlocksInPool(pool, jobs);
        walls.push(now() - t);
        out.forEach((res, i) => perBlock[i].push(res.ok ? res.times : null));
      }
      timedMs += median(walls);
      results.forEach((r, i) => {
        const warm = r.ok ? warmBlockTimes(perBlock[i]) : null;
        if (warm) {
          Object.assign(blocks[slot + i], { workload: blockWorkload(r, { height: batch[i].height, block: batch[i].block }),
            engine_ms: warm.total, stages_ms: warm.stages, parts_ms: warm.parts });
        }
      });
    }
    done += results.length;
    onBatch?.(done, to - from + 1);
  };

  const submit = async (batch) => {
    while (inFlight.size >= (timedRounds > 0 ? 1 : maxInFlight)) await Promise.race(inFlight);
    if (inFlight.size === 0) waitMs += now() - idleSince;
    const jobs = batch.map((b) => ({ block: b.block, spentOutputs: b.undo, hash: b.hash, height: b.height }));
    const slot = blocks.length;
    blocks.push(...batch.map((b) => ({ height: b.height, hash: b.hash, bytes: b.block.length + b.undo.length })));
    const p = validate(batch, jobs, slot).catch((err) => {
      // The pool failed (closed, or no worker could start): this batch's blocks are not judged,
      // the range stops, and every block judged before stays reported.
      failure ??= err;
      for (let i = 0; i < batch.length; i++) {
        if (blocks[slot + i].valid === undefined) Object.assign(blocks[slot + i], { valid: null, reject_reason: null, error: `not judged: the worker pool failed: ${err.message}` });
      }
    }).finally(() => {
      inFlight.delete(p);
      if (inFlight.size === 0) idleSince = now();
    });
    inFlight.add(p);
    if (timedRounds > 0) await p; // timed: nothing beside it, not even the next read
  };

  let batch = [];
  let size = 0;
  let previous = null;
  for (let height = from; height <= to && !failure; height++) {
    const t = now();
    let item;
    try {
      item = await source.read(height, to);
    } catch (err) {
      readError = { height, message: err.message };
      break;
    } finally {
      readMs += now() - t;
    }
    // Consecutive heights must be one chain: a source that serves another block for a height
    // (a lying or confused node) is caught at the first block that does not link.
    const link = linkError(item, previous);
    previous = item;
    if (link) {
      readError = { height, message: link };
      break;
    }
    if (!item.undo) {
      // Genesis: Core never connects it, and it has no undo data.
      notValidated.push({ height: item.height, hash: item.hash, reason: 'the genesis block, not validated: Core never connects it (it has no undo data, and its coinbase output cannot be spent)' });
      continue;
    }
    onRead?.(item);
    bytesRead += item.block.length + item.undo.length;
    batch.push(item);
    size += item.block.length + item.undo.length;
    if (size >= batchBytes) {
      await submit(batch);
      batch = [];
      size = 0;
    }
  }
  if (batch.length && !failure) await submit(batch);
  // Reading that no batch overlapped, up to the end (a range whose every read failed waited all along).
  else if (inFlight.size === 0) waitMs += now() - idleSince;
  while (inFlight.size) await Promise.race(inFlight);
  return { blocks, notValidated, readError, poolError: failure ? failure.message : null, seconds: (now() - started) / 1000, readSeconds: readMs / 1000, waitSeconds: waitMs / 1000, bytesRead,
    timedSeconds: timedRounds > 0 ? timedMs / 1000 : null };
}

/** Why `item` (read for the height after `previous`'s) is not `previous`'s child, or null: its
 *  header's previous-block hash (bytes 4-35, internal order) against `previous.hash` (display
 *  hex). A first block of a range is its source's word (nothing before it was read). */
export function linkError(item, previous) {
  if (!previous || !(item?.block?.length >= 80)) return null;
  let prevHash = '';
  for (let i = 35; i >= 4; i--) prevHash += item.block[i].toString(16).padStart(2, '0');
  if (prevHash === previous.hash) return null;
  return `block ${item.hash} given for height ${item.height} does not link to the block given for height ${previous.height} ` +
    `(${previous.hash}): its header's previous-block hash is ${prevHash}; the source's blocks are not one chain`;
}

/**
 * The stages of Core's checks that a block passes before the node writes it to disk: validation.cpp
 * AcceptBlockHeader (CheckBlockHeader, ContextualCheckBlockHeader), then AcceptBlock (CheckBlock,
 * ContextualCheckBlock), and only then WriteBlock (SaveBlockToDisk before Core 29). A block a node
 * stored, or serves from its disk (REST, RPC), that fails one of them is not the block the node
 * accepted: its bytes were damaged (on disk, or on the way) or altered. A block failing
 * CheckTxInputs or ConnectBlock (its inputs, amounts, sigops, scripts) can be stored
 * legitimately: the node connects it only later, and may find it invalid then.
 */
export const STAGES_BEFORE_STORAGE = new Set(['CheckBlockHeader', 'CheckBlock', 'ContextualCheckBlockHeader', 'ContextualCheckBlock']);

/** What the report keeps of a block's result (its checks are not held for a whole range), and
 *  where its source read it (a datadir's files and byte offsets) when the source says. Every
 *  block of a range comes from a node that stored it (its blk files, or its REST or RPC
 *  interface, which serve what it stored), so a block failing a stage of STAGES_BEFORE_STORAGE
 *  is damaged: valid null (not judged: these bytes are not the mainnet block), damaged true. */
function summary(r, item) {
  const judged = r.ok ? r.valid : (r.stage ? false : null);
  const damaged = judged === false && STAGES_BEFORE_STORAGE.has(r.stage);
  const valid = damaged ? null : judged;
  const at = item.blockFile ? { block_file: item.blockFile, block_offset: item.blockOffset, rev_file: item.revFile, rev_offset: item.revOffset } : {};
  const place = item.blockFile ? ` (block at ${item.blockFile} byte ${item.blockOffset}, undo record at ${item.revFile} byte ${item.revOffset})` : '';
  const why = !damaged ? ''
    : `; damaged: Bitcoin Core writes a block to disk only once it passed ${r.stage} (validation.cpp AcceptBlock), so ` +
      (item.blockFile ? `the block stored in ${item.blockFile} is not the one the node accepted: the file is damaged or was altered`
        : 'the block served is not the one the node accepted: its copy on disk or the transfer is damaged, or the answer was altered');
  return {
    valid,
    damaged,
    stage: r.stage || null,
    ...at,
    reject_reason: r.rejectReason || null,
    error: valid === true ? null : `${r.error}${place}${why}`,
    inputs: r.inputs ?? null,
    ecdsa: r.ecdsa ?? null,
    schnorr: r.schnorr ?? null,
  };
}
