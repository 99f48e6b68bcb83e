// Whole-block validation over the pool: the main thread's side. It plans the work (small
// blocks grouped into one worker message, large blocks split into ranges of transactions so
// that every worker helps on them), hands it to VerifyPool.validate (verify-pool.mjs), and
// merges the ranges' results back into one result per block, as BlockValidation.result()
// (wasm/API.md) gives it for the whole block. The main thread parses nothing: it reads two
// counts, the block's transaction count (the CompactSize after the 80-byte header) and the
// spent outputs' entry count (the binary form's header, wasm/spent-outputs.mjs). In the
// workers, a range without the block rules parses only its own transactions and reads only
// its own spent outputs (BlockScope), so a block's ranges do not repeat each other's work.

/** Default inputs per worker message: groups fill up to it, blocks above twice it are split. */
export const DEFAULT_TARGET_INPUTS = 512;

/** Most ranges of one block per worker. A range without the block rules skims the transactions
 *  it does not evaluate and reads only its own spent outputs (BlockScope, wasm/API.md), so its
 *  cost beyond its inputs is a skim of the block; the cap only bounds the messages of a block
 *  (docs/pool.md has the measurement that chose it). */
export const MAX_RANGES_PER_WORKER = 2;

/** The fewest bytes a transaction can take: nVersion, one input (prevout, empty scriptSig,
 *  nSequence), one output (nValue, empty scriptPubKey), nLockTime and the two counts, 60 bytes
 *  (CheckTransaction requires an input and an output). A block whose count needs more bytes
 *  than it has is not cut. */
const MIN_TX_BYTES = 60;

/** The share of its block's work the block-rules range is given for its deadline: it parses and
 *  hashes the whole block and reads every spent output, but runs no script. */
const RULES_RANGE_SHARE = 0.25;

/** The CompactSize at `at` of `bytes`, or null when it does not fit. */
function compactSize(bytes, at) {
  if (at >= bytes.length) return null;
  const first = bytes[at];
  const width = first < 0xfd ? 0 : first === 0xfd ? 2 : first === 0xfe ? 4 : 8;
  if (at + 1 + width > bytes.length) return null;
  if (width === 0) return first;
  let n = 0;
  for (let k = width - 1; k >= 0; k--) n = n * 256 + bytes[at + 1 + k];
  return n;
}

// The [[TypedArrayName]] of a value, '' when it is not a typed array (realm-independent, as
// verify-pool.mjs reads it).
const typedArrayName = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag).get;

/** What a value that is not a Uint8Array is, for planBlockJobs' TypeError: a string's length
 *  (and what such a string usually is), a typed array's or object's class, or the typeof. */
function describeNotBytes(x, field) {
  if (typeof x === 'string') {
    return `a string of ${x.length} characters` +
      (field === 'spentOutputs' ? " (spent_outputs.json's text? wasm/spent-outputs.mjs encodeSpentOutputs writes the binary form from its parsed entries)" : '');
  }
  if (x === null || typeof x !== 'object') return String(x === null ? 'null' : typeof x);
  return x.constructor?.name ?? 'object';
}

/** Throws a TypeError naming blocks[index] (its height and hash) when its block or spentOutputs
 *  is not a Uint8Array: planBlockJobs reads both (counts in their first bytes), where a string
 *  or an ArrayBuffer gave V8's bare "First argument to DataView constructor must be an
 *  ArrayBuffer" or a plan made of characters. */
function checkBlockBytes(b, index) {
  const which = `blocks[${index}] (height ${b?.height}, hash ${b?.hash === undefined || b?.hash === '' ? 'not given' : b.hash})`;
  if (b === null || typeof b !== 'object') throw new TypeError(`planBlockJobs: ${which} must be an object {block, spentOutputs, hash, height, options?}, got ${describeNotBytes(b)}`);
  if (typedArrayName.call(b.block) !== 'Uint8Array') {
    throw new TypeError(`planBlockJobs: ${which}: block must be a Uint8Array (the serialized block), got ${describeNotBytes(b.block, 'block')}`);
  }
  if (typedArrayName.call(b.spentOutputs) !== 'Uint8Array') {
    throw new TypeError(`planBlockJobs: ${which}: spentOutputs must be a Uint8Array in the binary form (IBS1, ` +
      `wasm/spent-outputs.mjs) or the block's rev record from a node's blocks/rev?????.dat, got ${describeNotBytes(b.spentOutputs, 'spentOutputs')}`);
  }
}

/** About the bytes of one compressed coin in a rev record (a P2PKH coin takes 24 to 27, a
 *  P2WPKH one 26 to 29): the estimate of a rev record's inputs when planning. */
const UNDO_BYTES_PER_INPUT = 28;
/** About the bytes of one spent CTxOut in a REST spenttxouts body (8-byte value, script length,
 *  script: 34 for P2PKH, 31 for P2WPKH, 43 for P2TR): the estimate of such a body's inputs. */
const SPENT_TXOUT_BYTES_PER_INPUT = 34;

/**
 * Plans the worker messages for `blocks`.
 * @param {Array<{block: Uint8Array, spentOutputs: Uint8Array, hash: string, height: number,
 *   options?: object}>} blocks in order; spentOutputs in the binary form, or the block's rev
 *   record from a node's datadir or "IBT1" + its REST spenttxouts body (their inputs then
 *   estimated from their size)
 * @param {{workers: number, targetInputs?: number, maxRangesPerWorker?: number}} options
 *   targetInputs: inputs per message (default DEFAULT_TARGET_INPUTS, lowered so that there are
 *   at least 4 messages per worker when the blocks hold enough inputs); a block above twice it
 *   is cut into one range that runs the block rules alone (transaction 0, the coinbase: the
 *   whole parse, merkle root, witness commitment, sigop and fee totals) and at most
 *   maxRangesPerWorker * workers (default MAX_RANGES_PER_WORKER) ranges of about targetInputs
 *   inputs each, cut by transaction index, that skim the rest of the block
 * @returns {{groups: object[][], parts: Array<Array<{group: number, job: number}>>}} groups:
 *   VerifyPool.validate's argument (each job: a block's arguments, with txBegin / txEnd /
 *   blockRules in its options and `share`, about the part of the block's work it carries, 0..1,
 *   for a range); parts[b]: where block b's jobs are, in transaction order. A block whose
 *   transaction count its bytes cannot hold is not cut (the engine names the fault).
 * @throws TypeError naming the block (its index, height and hash) whose block or spentOutputs
 *   is not a Uint8Array (JSON text for spentOutputs among them: encodeSpentOutputs first)
 */
export function planBlockJobs(blocks, { workers, targetInputs = DEFAULT_TARGET_INPUTS, maxRangesPerWorker = MAX_RANGES_PER_WORKER }) {
  blocks.forEach(checkBlockBytes);
  const inputsOf = (b) => {
    const s = b.spentOutputs;
    if (s.length < 8) return 0;
    // A node's rev record (f9 be b4 d9, native/undo/block_undo.h) does not count its coins up
    // front: estimated from its size.
    if (s[0] === 0xf9 && s[1] === 0xbe && s[2] === 0xb4 && s[3] === 0xd9) return Math.ceil(Math.max(0, s.length - 40) / UNDO_BYTES_PER_INPUT);
    // Nor does a REST spenttxouts body ("IBT1", then lists of CTxOuts): from its size too.
    if (s[0] === 0x49 && s[1] === 0x42 && s[2] === 0x54 && s[3] === 0x31) return Math.ceil(Math.max(0, s.length - 8) / SPENT_TXOUT_BYTES_PER_INPUT);
    // The binary form (IBS1) gives its entry count after the tag.
    return new DataView(s.buffer, s.byteOffset, 8).getUint32(4, true);
  };
  const total = blocks.reduce((n, b) => n + inputsOf(b), 0);
  const target = Math.max(16, Math.min(targetInputs, Math.ceil(total / (4 * workers))));
  const groups = [];
  const parts = blocks.map(() => []);
  let open = null; // the group small blocks are being added to, at groups[openIndex]
  let openIndex = -1;
  let openInputs = 0;
  blocks.forEach((b, index) => {
    const inputs = inputsOf(b);
    const txCount = compactSize(b.block, 80);
    const job = (options) => ({ block: b.block, spentOutputs: b.spentOutputs, hash: b.hash, height: b.height,
      options: { ...b.options, ...options } });
    // share: about the part of the block's work a range carries (for its deadline in the pool).
    const range = (txBegin, txEnd, blockRules, share) => {
      parts[index].push({ group: groups.length, job: 0 });
      groups.push([{ ...job({ txBegin, txEnd, blockRules }), share }]);
    };
    // A block is cut only when its transaction count is one its bytes can hold (each
    // transaction takes at least MIN_TX_BYTES): any other count is a malformed block, which the
    // engine names, validated whole.
    const plausible = txCount !== null && txCount * MIN_TX_BYTES <= b.block.length - 80;
    if (inputs > 2 * target && plausible && txCount > 2) {
      // The block rules need the whole block parsed, hashed and its spent outputs read: alone
      // in their range, beside the ranges of inputs, which skim what they do not evaluate.
      // The input ranges are cut by transaction index (input counts per transaction are
      // unknown here: the binary spent outputs do not group entries by transaction).
      range(0, 1, true, RULES_RANGE_SHARE);
      const ranges = Math.min(txCount - 1, Math.ceil(inputs / target), maxRangesPerWorker * workers);
      for (let r = 0; r < ranges; r++) {
        const txBegin = 1 + Math.floor((r * (txCount - 1)) / ranges);
        const txEnd = 1 + Math.floor(((r + 1) * (txCount - 1)) / ranges);
        range(txBegin, txEnd, false, (txEnd - txBegin) / (txCount - 1));
      }
      return;
    }
    if (!open || openInputs >= target) {
      open = [];
      openInputs = 0;
      openIndex = groups.length;
      groups.push(open);
    }
    // openIndex, not the last group: a split block's ranges may have been pushed after it.
    parts[index].push({ group: openIndex, job: open.length });
    open.push(job({}));
    openInputs += Math.max(1, inputs);
  });
  return { groups, parts };
}

/** The sum of the ranges' sighash workloads (result().sighash, wasm/API.md): each range counts
 *  its own transactions' sighashes and precomputation, so the sum is the whole block's. */
function sumSighash(results) {
  const kinds = ['legacy', 'bip143', 'bip341'];
  const out = Object.fromEntries(kinds.map((k) => [k, { count: 0, bytes: 0, hashedBytes: 0 }]));
  out.precomputeBip143Bytes = 0;
  out.precomputeBip341Bytes = 0;
  for (const { sighash } of results) {
    for (const k of kinds) {
      out[k].count += sighash[k].count;
      out[k].bytes += sighash[k].bytes;
      out[k].hashedBytes += sighash[k].hashedBytes;
    }
    out.precomputeBip143Bytes += sighash.precomputeBip143Bytes;
    out.precomputeBip341Bytes += sighash.precomputeBip341Bytes;
  }
  return out;
}

/** Sums `add`'s coverage into `into` ({type: {inputs, evaluated, checks}}). */
function addCoverage(into, add) {
  for (const [type, c] of Object.entries(add)) {
    const t = (into[type] ??= { inputs: 0, evaluated: 0, checks: 0, scriptBytes: 0 });
    t.inputs += c.inputs;
    t.evaluated += c.evaluated;
    t.checks += c.checks;
    t.scriptBytes += c.scriptBytes;
  }
}

function concat(Type, arrays) {
  const out = new Type(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
}

/** Defines `key` on `object` as the join of `arrays` (concat), made on first read and kept: an
 *  enumerable property, so that copies (spread, structured clone) hold the joined array. */
function lazyJoin(object, key, Type, arrays) {
  let joined = null;
  Object.defineProperty(object, key, {
    enumerable: true,
    configurable: true,
    get: () => (joined ??= concat(Type, arrays)),
  });
}

/** The ranges' `times` summed: each number, and each figure of the per-kind and per-type
 *  objects (sighashMsByKind, scriptMsByType) key by key, a key missing from a range counting 0. */
function sumTimes(list) {
  const out = {};
  for (const t of list) {
    for (const [k, v] of Object.entries(t)) {
      if (typeof v === 'number') {
        out[k] = (out[k] ?? 0) + v;
      } else {
        out[k] ??= {};
        for (const [name, ms] of Object.entries(v)) out[k][name] = (out[k][name] ?? 0) + ms;
      }
    }
  }
  return out;
}

/**
 * One block's result from its ranges' results, in transaction order: what validateBlock gives
 * for the whole block, byte for byte in its checks, origins and verdicts (tests assert it).
 * The verdict is the block-rules range's rule failure when it has one (Core checks every
 * transaction's amounts and sigops before any script's result), else the first failing input
 * of the block. A failure object of any range (a load error, or a block rejected before any
 * input is connected) is the block's.
 * @param {object[]} results validateBlock results or failure objects, transaction order; the
 *   block rules ran in exactly one (blockRulesChecked), whose notChecked the block's is (the
 *   others' entries, the block rules they skipped among them, are dropped)
 * @returns {object} a result object (ok true), with `calls`: the validateBlock calls it took (1,
 *   or the rules range and the input ranges of a split block), or the failure object
 */
export function mergeBlockResults(results) {
  const failure = results.find((r) => !r.ok && r.stage) ?? results.find((r) => !r.ok);
  if (failure) return failure;
  if (results.length === 1) return { ...results[0], calls: 1 };
  const rules = results.find((r) => r.blockRulesChecked);
  if (!rules) throw new Error('mergeBlockResults: no range ran the block rules');
  const merged = { ...rules };
  merged.txBegin = results[0].txBegin;
  merged.txEnd = results[results.length - 1].txEnd;
  // notChecked is the rules range's. The other ranges list the block rules they skipped
  // (proof-of-work, merkle-root, ... : BlockRulesNotRun, native/validation/block_rules.h), which
  // that range ran; the rules no call checks, which it lists as well; and the spent outputs and
  // scripts outside their range, which the rules range compared (every outpoint) or the ranges
  // together evaluate: their lists are dropped. The rules range lists the scripts outside it as
  // not checked; the ranges together, when they leave no transaction with inputs out, checked
  // them.
  let next = 1;  // the first transaction with inputs (the coinbase has none) not yet covered
  for (const r of results) if (Math.max(r.txBegin, 1) <= next) next = Math.max(next, r.txEnd);
  if (next >= merged.txCount) merged.notChecked = rules.notChecked.filter((n) => n.rule !== 'scripts-outside-range');
  for (const k of ['inputs', 'failedInputs', 'ecdsa', 'schnorr', 'evaluations', 'verifiedRecords']) {
    merged[k] = results.reduce((n, r) => n + r[k], 0);
  }
  merged.rounds = Math.max(...results.map((r) => r.rounds));
  merged.coverage = {};
  for (const r of results) addCoverage(merged.coverage, r.coverage);
  merged.sighash = sumSighash(results);
  merged.calls = results.length;
  merged.inputFailures = results.flatMap((r) => r.inputFailures);
  // The checks and their origins are joined on first read: the pipeline itself needs only the
  // verdicts, and joining a large block's megabyte of records into fresh memory costs its page
  // faults (about 4 ms per MB on these VMs) on the thread that collects the verdicts.
  lazyJoin(merged, 'checks', Uint8Array, results.map((r) => r.checks));
  lazyJoin(merged, 'origins', Uint32Array, results.map((r) => r.origins));
  merged.verdicts = concat(Uint8Array, results.map((r) => r.verdicts));
  merged.inputVerdicts = concat(Uint8Array, results.map((r) => r.inputVerdicts));
  merged.times = sumTimes(results.map((r) => r.times));
  const ruleFailed = !rules.valid && rules.rejectReason !== 'mandatory-script-verify-flag-failed';
  if (!ruleFailed) {
    const script = results.find((r) => !r.valid);
    const verdict = script ?? rules;
    for (const k of ['valid', 'rejectReason', 'stage', 'scriptError', 'error', 'txIndex', 'inputIndex', 'outputIndex',
      'byteOffset', 'inputType']) merged[k] = verdict[k];
  }
  return merged;
}

/**
 * The order in which validateBlocksInPool hands `groups` to the pool: largest first (by
 * spent-output bytes, about the inputs, plus an eighth of the block bytes; a range weighs as its
 * whole block), ties in plan order. The pool sends messages in order to whichever worker is free,
 * so the last ones to finish are small and no worker waits long on another's range.
 * @param {object[][]} groups planBlockJobs' groups
 * @returns {number[]} group indices, in sending order
 */
export function sendOrder(groups) {
  const weight = (g) => g.reduce((n, j) => n + j.spentOutputs.length + j.block.length / 8, 0);
  return groups.map((g, i) => ({ i, w: weight(g) })).sort((a, b) => b.w - a.w || a.i - b.i).map((x) => x.i);
}

/**
 * Validates `blocks` end to end in `pool`'s workers (planBlockJobs, VerifyPool.validate,
 * mergeBlockResults).
 * @param {import('./verify-pool.mjs').VerifyPool} pool
 * @param {Array<object>} blocks as planBlockJobs
 * @param {{targetInputs?: number, maxRangesPerWorker?: number, onProgress?: (groupsDone: number,
 *   groups: number) => void, busy?: {ms: number}}} [options] targetInputs, maxRangesPerWorker: as
 *   planBlockJobs; busy: its `ms` grows by this thread's time planning the groups and merging the
 *   results (ms; the pool's own share is VerifyPool.busyMs)
 * @returns {Promise<object[]>} one result (or failure) object per block, in order; a group of
 *   several blocks that failed every attempt in the pool (workerFault) has each of its blocks
 *   re-run alone once, so that a block that kills its worker fails alone
 * @throws (rejects) as planBlockJobs (a block or spentOutputs that is not a Uint8Array) and
 *   VerifyPool.validate
 */
export async function validateBlocksInPool(pool, blocks, { targetInputs, maxRangesPerWorker, onProgress, busy } = {}) {
  let start = performance.now();
  const { groups, parts } = planBlockJobs(blocks, { workers: pool.size, targetInputs, maxRangesPerWorker });
  const order = sendOrder(groups);
  if (busy) busy.ms += performance.now() - start;
  const sorted = await pool.validate(order.map((i) => groups[i]),
    { onProgress: onProgress && ((done) => onProgress(done, groups.length)) });
  const results = new Array(groups.length);
  order.forEach((i, k) => { results[i] = sorted[k]; });
  // A group of several blocks whose workers died on it every time: each of its blocks once more
  // alone, so that only the one at fault fails (its failure object names it).
  const faulted = groups.map((g, i) => i).filter((i) => groups[i].length > 1 && results[i].every((r) => r.workerFault));
  if (faulted.length) {
    const alone = await pool.validate(faulted.flatMap((i) => groups[i].map((j) => [j])));
    let k = 0;
    for (const i of faulted) results[i] = groups[i].map(() => alone[k++][0]);
  }
  start = performance.now();
  const merged = parts.map((list) => mergeBlockResults(list.map(({ group, job }) => results[group][job])));
  if (busy) busy.ms += performance.now() - start;
  return merged;
}
