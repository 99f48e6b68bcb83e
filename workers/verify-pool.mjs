// The verify pool's logic, independent of the host: N workers, each with its own wasm
// instance. verify() splits a packed check buffer into batches (wasm/check-buffer.mjs), hands each
// batch to an idle worker, and puts the verdicts back in input order. Workers are created by a
// host (node-host.mjs: worker_threads; web-host.mjs: module Web Workers; same interface), so
// this file imports nothing host-specific. Node callers use pool.mjs, browsers web-pool.mjs.
//
// Transports (protocol: batch-handler.mjs). 'shared': verify() copies each batch once into a
// region of a SharedArrayBuffer ring (job-ring.mjs); a batch message carries only its offsets
// (and the ring's buffer the first time a worker sees it); the worker reads the records in
// place and writes the verdicts back into the region, and its reply carries only the status.
// 'transfer' (a page that is not cross-origin isolated has no SharedArrayBuffer): verify()
// copies each batch into its own ArrayBuffer, kept for retries; each send transfers a copy of
// it and the verdicts come back as a transferred ArrayBuffer. Neither path structured-clones
// anything per signature. A region is freed when its batch completes or its job fails, but not
// while a worker may still be writing into it: a batch in flight keeps its region until the
// reply, and a worker terminated while holding one retires the ring's buffer (a retry reads
// the same region; no later batch is placed where the dying worker may write).
//
// Fault handling: a worker that dies while verifying a batch (exit, uncaught exception, wasm
// trap reported as an `error` reply, no reply before the batch deadline) is terminated and
// replaced by a new worker, and its batch goes back to the front of the queue; the same holds
// for a validation group (validate()) and a chain (validateChain()). A batch is
// tried at most `maxAttempts` times; a batch that exhausts them fails its own job only. A
// malformed record (verifyBatch status error != 0) fails its job at once and the worker stays.
import { MAX_BATCH_RECORDS } from './batch-handler.mjs';
import { splitBatches, walkChecks } from '../wasm/check-buffer.mjs';
import { JobRing } from './job-ring.mjs';

/** Largest accepted worker count. */
export const MAX_WORKERS = 256;
/**
 * Default records per worker message: the smallest size within 2% of the best median of
 * `npm run bench:batch -- --workers 2 --rounds 21` on the real fixture checks (2-core Xeon VM,
 * Node 20.20.2, 2026-11-30: 512 at 21,267 checks/s; every size from 8 to 2,048 was within 8% of
 * it, 1-4 lost 14-52%, 4,096 and 8,192 about 11%). Rerun the sweep on a new machine class.
 */
export const DEFAULT_BATCH_SIZE = 512;
/** Largest accepted batchSize, in records: each worker's check-buffer region is sized for it up front. */
export const MAX_BATCH_SIZE = MAX_BATCH_RECORDS;
/** Values of the `transport` option. */
export const TRANSPORTS = Object.freeze(['auto', 'shared', 'transfer']);
/** Default fixed part of a batch's deadline, in milliseconds. */
export const DEFAULT_BATCH_TIMEOUT_MS = 60_000;
/** Default per-record allowance added to a batch's deadline, in milliseconds per record. */
export const DEFAULT_RECORD_TIMEOUT_MS = 2;
/** Default number of times a batch is tried (on different workers) before its job fails. */
export const DEFAULT_MAX_ATTEMPTS = 3;
/** Default milliseconds a worker may take to load its engine and say it is ready. */
export const DEFAULT_LOAD_TIMEOUT_MS = 60_000;
/** Default factor of a task's stall deadline over the time its work is expected to take (see
 *  the constructor's stallFactor). */
export const DEFAULT_STALL_FACTOR = 20;
/** Default floor of a task's stall deadline, in milliseconds. */
export const DEFAULT_MIN_STALL_MS = 10_000;
/** Completed tasks of a kind whose time per unit the stall deadline is estimated from. */
const STALL_WINDOW = 16;

// The [[TypedArrayName]] of a value, '' when it is not a typed array (realm-independent, and
// not spoofable by Symbol.toStringTag overrides).
const typedArrayName = Object.getOwnPropertyDescriptor(
  Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag).get;
const copyBytes = (bytes, begin, end) => Uint8Array.prototype.slice.call(bytes, begin, end);

/**
 * Whether batches can travel through shared memory here: SharedArrayBuffer exists and, in a
 * browser, the document is cross-origin isolated (always true in Node).
 * @returns {boolean}
 */
export function sharedMemoryUsable() {
  return typeof SharedArrayBuffer === 'function' && globalThis.crossOriginIsolated !== false;
}

/** Runs `fn` once the messages already waiting on this thread are handled: a deadline that fires
 *  while the thread was busy (a long synchronous call) first lets the reply that came meanwhile
 *  in, so that a worker that answered in time is not taken for a stalled one. setImmediate
 *  (Node) runs after the pending messages; elsewhere a zero timeout. */
function afterPendingMessages(fn) {
  if (typeof setImmediate === 'function') setImmediate(fn);
  else setTimeout(fn, 0);
}

/** Longest timer setTimeout keeps, in milliseconds (2^31 - 1); a longer one fires at once. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** "the validation of blocks 170, 181" or "the validation of block 866342's transactions 0 to
 *  1499 (a part of a split block)" for a validation group's error messages. */
function describeGroup(group) {
  const parts = group.slice(0, 5).map((j) => {
    const o = j.options ?? {};
    const split = o.txBegin !== undefined || o.txEnd !== undefined;
    return split ? `${j.height}'s transactions ${o.txBegin ?? 0} to ${o.txEnd === undefined ? 'the last' : o.txEnd - 1} (a part of a split block)` : `${j.height}`;
  });
  return `the validation of block${group.length === 1 ? '' : 's'} ${parts.join(', ')}${group.length > 5 ? ` and ${group.length - 5} more` : ''}`;
}

/** A value for an error message: strings quoted, so "2" and 2 read differently. */
const shown = (v) => (typeof v === 'string' ? JSON.stringify(v) : String(v));

/**
 * Checks a call's options object: undefined, null or a plain object whose keys are all in
 * `known` ({key: typeof it takes, or null: checked by the call itself}); a wrong one is a
 * TypeError naming the call and the key.
 */
function checkCallOptions(call, options, known) {
  if (options === undefined || options === null) return;
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`${call}: options must be an object, got ${Array.isArray(options) ? 'an array' : shown(options)}`);
  }
  for (const [key, value] of Object.entries(options)) {
    if (!Object.hasOwn(known, key)) throw new TypeError(`${call}: unknown option ${JSON.stringify(key)} (known: ${Object.keys(known).join(', ')})`);
    if (value !== undefined && known[key] !== null && typeof value !== known[key]) {
      throw new TypeError(`${call}: options.${key} must be a ${known[key]}, got ${typeof value === 'string' ? shown(value) : typeof value}`);
    }
  }
}

/** A validate() job's validateBlock options as they travel to a worker: a plain object of
 *  booleans, numbers and strings (the engine names a wrong key or value, per block); anything
 *  else (a function, an object) could not be posted and is a TypeError naming the job. */
function checkJobOptions(where, options) {
  if (options === undefined || options === null) return;
  if (typeof options !== 'object' || Array.isArray(options)) throw new TypeError(`${where}: options must be an object, got ${shown(options)}`);
  for (const [key, value] of Object.entries(options)) {
    if (value !== undefined && value !== null && !['boolean', 'number', 'string'].includes(typeof value)) {
      throw new TypeError(`${where}: options.${key} must be a boolean, number or string, got ${typeof value}`);
    }
  }
}

const checkPositive = (name, v, integer) => {
  if (typeof v !== 'number' || !(v > 0) || !Number.isFinite(v) || (integer && !Number.isInteger(v))) {
    throw new RangeError(`${name} must be a positive ${integer ? 'integer' : 'finite number'}, got ${shown(v)}`);
  }
};

/** A pool of verify workers; see createPool (pool.mjs) for Node. Not reusable after close(). */
export class VerifyPool {
  /**
   * Starts `workers` workers through `host` (they load their wasm in the background).
   * @param {{workers: number, host: {spawn: Function}, transport?: 'auto'|'shared'|'transfer',
   *   batchTimeoutMs?: number, recordTimeoutMs?: number, maxAttempts?: number, loadTimeoutMs?: number,
   *   stallFactor?: number, minStallMs?: number}} options
   *   workers: 1..MAX_WORKERS; host: see node-host.mjs for the interface; transport: how
   *   batches travel (file header): 'auto' (default) is 'shared' when sharedMemoryUsable(),
   *   else 'transfer'; a batch of n records that gets no reply within batchTimeoutMs + n *
   *   recordTimeoutMs milliseconds (defaults 60,000 and 2) has its worker terminated, replaced
   *   and the batch retried; maxAttempts (default 3) bounds the tries of one batch, and the
   *   starts in a row of one worker place; a worker not ready within loadTimeoutMs (default
   *   60,000) is given up on as one that exited: started again (an initial worker too: only a
   *   worker that fails to load on its own, a load-error reply or an error event, fails the
   *   pool at once). The stall deadline: a browser gives no event when a Web Worker stops
   *   (terminated by other code), so a dead worker would hold its batch to the full deadline.
   *   Once the pool has seen tasks of a kind done in full (verify batches without a malformed
   *   record; validation groups whose blocks all validated and were valid; encoding groups
   *   without an error), a task's first attempt gets max(minStallMs, stallFactor x its expected
   *   time) instead, never more than the full deadline: its expected time is its units
   *   (records; a group's units, see validate()) times the slowest time per unit of that kind's
   *   last 16 such tasks, from post to reply (defaults 20 and 10,000 ms; stallFactor 0 turns it
   *   off). It is set when the task is sent and again whenever a task of its kind completes
   *   (a task sent before any estimate gets one then). A retry gets the full deadline, and so
   *   does every attempt when maxAttempts is 1, so a task that is only slow (a block far
   *   costlier per byte than the recent ones) costs one attempt, never its result. A chain
   *   (validateChain, one task per call) always gets the full deadline.
   * @throws RangeError when `workers` is not an integer in 1..MAX_WORKERS, transport is not one
   *   of TRANSPORTS, a timeout / maxAttempts is not positive (maxAttempts: a positive
   *   integer), stallFactor is negative or minStallMs not positive, or the largest batch's
   *   deadline exceeds MAX_TIMEOUT_MS; Error when transport is 'shared' and sharedMemoryUsable() is false.
   */
  constructor({ workers, host, transport = 'auto', batchTimeoutMs = DEFAULT_BATCH_TIMEOUT_MS,
    recordTimeoutMs = DEFAULT_RECORD_TIMEOUT_MS, maxAttempts = DEFAULT_MAX_ATTEMPTS, loadTimeoutMs = DEFAULT_LOAD_TIMEOUT_MS,
    stallFactor = DEFAULT_STALL_FACTOR, minStallMs = DEFAULT_MIN_STALL_MS }) {
    if (!Number.isInteger(workers) || workers < 1 || workers > MAX_WORKERS) {
      throw new RangeError(`workers must be an integer from 1 to ${MAX_WORKERS}, got ${shown(workers)}`);
    }
    if (!TRANSPORTS.includes(transport)) {
      throw new RangeError(`transport must be one of ${TRANSPORTS.join(', ')}, got ${JSON.stringify(transport)}`);
    }
    if (transport === 'shared' && !sharedMemoryUsable()) {
      throw new Error("transport 'shared' needs SharedArrayBuffer, which this context does not allow " +
        '(a page must be cross-origin isolated: COOP same-origin and COEP require-corp)');
    }
    checkPositive('batchTimeoutMs', batchTimeoutMs, false);
    if (recordTimeoutMs !== 0) checkPositive('recordTimeoutMs', recordTimeoutMs, false);
    if (batchTimeoutMs + MAX_BATCH_SIZE * recordTimeoutMs > MAX_TIMEOUT_MS) {
      throw new RangeError(`batchTimeoutMs + ${MAX_BATCH_SIZE} * recordTimeoutMs (the deadline of the largest batch) ` +
        `must be at most ${MAX_TIMEOUT_MS} ms (setTimeout's limit), got ${batchTimeoutMs} + ${MAX_BATCH_SIZE} * ${recordTimeoutMs}`);
    }
    checkPositive('maxAttempts', maxAttempts, true);
    checkPositive('loadTimeoutMs', loadTimeoutMs, false);
    if (loadTimeoutMs > MAX_TIMEOUT_MS) throw new RangeError(`loadTimeoutMs must be at most ${MAX_TIMEOUT_MS} ms (setTimeout's limit), got ${loadTimeoutMs}`);
    if (stallFactor !== 0) checkPositive('stallFactor', stallFactor, false);
    checkPositive('minStallMs', minStallMs, false);
    this.size = workers;
    /** How batches travel to the workers: 'shared' or 'transfer' (file header). */
    this.transport = transport === 'auto' ? (sharedMemoryUsable() ? 'shared' : 'transfer') : transport;
    this._ring = this.transport === 'shared' ? new JobRing() : null;
    this._host = host;
    this._batchTimeoutMs = batchTimeoutMs;
    this._recordTimeoutMs = recordTimeoutMs;
    this._maxAttempts = maxAttempts;
    this._loadTimeoutMs = loadTimeoutMs;
    this._stallFactor = stallFactor;
    this._minStallMs = minStallMs;
    // Per task kind ('batch', 'validate'): ms per unit of the last STALL_WINDOW completed tasks.
    this._perUnitMs = { batch: [], validate: [], encode: [] };
    this._queue = [];       // tasks not yet sent (see verify())
    this._nextId = 1;
    this._jobs = new Set(); // pending verify() calls
    this._failure = null;   // Error once the pool is closed or a worker failed to start
    this._replacements = 0; // workers spawned to replace dead ones
    this._lost = [];        // why each given-up worker place was given up (see lostWorkers)
    this._faults = [];      // why each of the last STALL_WINDOW workers was retired (see faults)
    this._readyCount = 0;
    this._busyMs = 0;       // this thread's time in the pool's own code (see busyMs)
    this._ready = new Promise((resolve, reject) => { this._readyWaiters = { resolve, reject }; });
    this._ready.catch(() => {}); // surfaced through ready() / verify(), not as unhandled
    this._slots = [];
    for (let i = 0; i < workers; i++) this._slots.push(this._spawn(i, true));
  }

  /**
   * Resolves when every initial worker has loaded its engine.
   * @returns {Promise<object[]>} each worker's engineInfo(), by worker index.
   * @throws (rejects) Error naming the worker index when a worker fails to start.
   */
  ready() {
    return this._ready;
  }

  /**
   * Each worker's wasm memory size in bytes as of its last message (ready or a verify reply),
   * by worker index (null before a worker is ready, or when it does not report it). A
   * replacement worker starts over at null.
   * @returns {Array<number|null>}
   */
  get heapBytes() {
    return this._slots.map((s) => s.heapBytes);
  }

  /**
   * Worker places given up, each with the reason: a replacement that failed to load maxAttempts
   * times in a row. The pool goes on with the workers that remain (fewer than `size`).
   * @returns {string[]}
   */
  get lostWorkers() {
    return [...this._lost];
  }

  /**
   * Bytes of shared memory the pool holds for batches and blocks in flight (its job ring's
   * capacity: the peak of bytes in flight, reused by later calls), 0 under the transfer
   * transport.
   * @returns {number}
   */
  get sharedBytes() {
    return this._ring?.capacity ?? 0;
  }

  /**
   * Milliseconds the calling thread has spent in the pool's own code so far: verify(),
   * validate() and validateChain() up to their return (checking and copying the caller's
   * buffers, posting the first tasks) and every worker reply's handling (collecting its results,
   * posting the next task: structured clone or transfer included). What the caller does with
   * the results, promise scheduling and garbage collection are not in it, so it is a lower
   * bound of the thread's busy time, for hosts without an event-loop utilization (browsers).
   */
  get busyMs() {
    return this._busyMs;
  }

  /** Runs `fn` and adds its duration to busyMs. */
  _timed(fn) {
    const start = performance.now();
    try {
      return fn();
    } finally {
      this._busyMs += performance.now() - start;
    }
  }

  /**
   * Why the pool retired each of its last 16 workers that died, trapped, sent a malformed reply
   * or missed a deadline while holding work, oldest first: the same text a job that failed
   * every attempt gives as its last error ("verify worker 1 timed out after 10000 ms (20x the
   * …)"). For diagnostics; a worker that failed to load is in lostWorkers or the pool's error.
   * @returns {string[]}
   */
  get faults() {
    return [...this._faults];
  }

  /** Number of workers spawned so far to replace dead, trapped or timed-out ones. */
  get replacements() {
    return this._replacements;
  }

  /**
   * Verifies every record of `checks`. The bytes are copied when verify() is called; the
   * caller's buffer is never modified nor detached (a Node Buffer is fine).
   * @param {Uint8Array} checks packed records (native/verify/check_buffer.h); not modified.
   * @param {{batchSize?: number, balance?: boolean, onProgress?: (recordsDone: number) => void}} [options]
   *   batchSize: records per worker message at most, 1..MAX_BATCH_SIZE (default DEFAULT_BATCH_SIZE, 512; workers
   *   size their memory for MAX_BATCH_SIZE up front); with balance (default true) the batches
   *   are spread evenly over the workers (wasm/check-buffer.mjs splitBatches), so that they finish
   *   together; balance false makes the fewest batches of at most batchSize records (a
   *   stream's batch of at most batchSize records goes to one worker as one message). onProgress: called after each batch's verdicts
   *   arrive with the number of records verified so far (increasing, the last call equal to
   *   the record count; not called for an empty buffer); an exception it throws is ignored.
   * @returns {Promise<Uint8Array>} one verdict byte per record, in input order (1 valid, 0 invalid).
   * @throws (rejects) TypeError when `checks` is not a Uint8Array, or options has an unknown
   *   key or a balance / onProgress of the wrong type; RangeError for a batchSize
   *   that is not an integer in 1..MAX_BATCH_SIZE, or when the shared ring cannot grow to hold
   *   the batches; Error naming the record index and byte offset of a malformed record; Error
   *   naming a batch's first record index, record count and its workers' last error when the
   *   batch failed maxAttempts times; Error when the pool is closed or a worker failed to start.
   */
  verify(checks, options = {}) {
    return this._timed(() => this._verify(checks, options));
  }

  _verify(checks, options) {
    if (this._failure) return Promise.reject(this._failure);
    try {
      checkCallOptions('verify(checks, options)', options, { batchSize: null, balance: 'boolean', onProgress: 'function' });
    } catch (err) {
      return Promise.reject(err);
    }
    const { batchSize = DEFAULT_BATCH_SIZE, balance = true, onProgress } = options ?? {};
    if (typedArrayName.call(checks) !== 'Uint8Array') {
      const what = checks === null ? 'null' : (checks?.constructor?.name ?? typeof checks);
      return Promise.reject(new TypeError(`verify(checks): checks must be a Uint8Array (or Buffer), got ${what}`));
    }
    if (batchSize > MAX_BATCH_SIZE) {
      return Promise.reject(new RangeError(`batch size must be at most ${MAX_BATCH_SIZE} records (MAX_BATCH_SIZE), got ${shown(batchSize)}`));
    }
    let batches;
    let count;
    try {
      const walked = walkChecks(checks);
      count = walked.count;
      batches = splitBatches(walked, batchSize, balance ? this.size : 1);
    } catch (err) {
      return Promise.reject(err);
    }
    const verdicts = new Uint8Array(count);
    if (count === 0) return Promise.resolve(verdicts);
    return new Promise((resolve, reject) => {
      const job = { verdicts, remaining: batches.length, done: 0, onProgress, resolve, reject, failed: false, tasks: [] };
      this._jobs.add(job);
      try {
        for (const batch of batches) job.tasks.push(this._task(job, checks, batch));
      } catch (err) {
        this._failJob(job, err);
        return;
      }
      this._queue.push(...job.tasks);
      this._dispatch();
    });
  }

  /**
   * Validates whole blocks, or ranges of their transactions, in the workers: each job runs end
   * to end in one worker's wasm instance (the engine's validateBlock, wasm/API.md: parse, block
   * rules, sighash, scripts, every signature verified there, synchronously). One worker message
   * per group; a group whose worker dies, traps or times out is re-run on another worker, with
   * the same fault handling and attempts as a verify batch. The caller's buffers are copied
   * when validate() is called, never modified nor detached.
   * @param {Array<Array<{block: Uint8Array, spentOutputs: Uint8Array, hash: string, height: number,
   *   options?: object, share?: number}>>} groups jobs grouped per worker message: validateBlock's
   *   arguments (spentOutputs in the binary form, wasm/spent-outputs.mjs; options: txBegin, txEnd,
   *   blockRules, verify, medianTimePast, skipProofOfWork); share: the part of its block's work a
   *   job carries, in (0, 1] (default 1: a whole block), which scales its part of the deadline
   * @param {{onProgress?: (groupsDone: number) => void}} [options] called after each group's
   *   results arrive; an exception it throws is ignored
   * @returns {Promise<object[][]>} per group, per job in order, validateBlock's result object or
   *   its failure object (a bad block fails alone); for each job of a group that failed
   *   maxAttempts times (its workers died, trapped or timed out on it every time), a failure
   *   object of the same shape with `workerFault: true`, whose `error` names the block (hash,
   *   height), the group and its workers' last error: the other groups' results are kept
   * @throws (rejects) TypeError when a job's block or spentOutputs is not a Uint8Array, its hash
   *   not a string, its height not a number, or an option of it not a boolean, number or string
   *   (naming the group, job and key; nothing is sent), or options has an unknown key; Error
   *   when the pool is closed or a worker failed to start.
   */
  validate(groups, options = {}) {
    return this._timed(() => this._validate(groups, options));
  }

  _validate(groups, options) {
    if (this._failure) return Promise.reject(this._failure);
    try {
      checkCallOptions('validate(groups, options)', options, { onProgress: 'function' });
    } catch (err) {
      return Promise.reject(err);
    }
    const { onProgress } = options ?? {};
    const copies = [];
    // One copy per distinct source view, shared by every job (range) that uses it, all in one
    // region: of the job ring under the shared transport (each message then carries a handle,
    // no bytes; the region is freed when the call settles and reused by later calls), else of a
    // plain ArrayBuffer whose views each send copies again and transfers. Reused memory, because
    // on these VMs fresh memory costs about 4 ms per MB in page faults on first write, against
    // 0.1 ms per MB to copy into memory already touched: the fixture blocks' 5 MB, copied into
    // 48 new SharedArrayBuffers per call, took 23-47 ms of this thread.
    const views = new Map(); // source buffer -> "offset:length" -> {bytes, at}
    let total = 0;
    const place = (bytes) => {
      const key = `${bytes.byteOffset}:${bytes.byteLength}`;
      let byBuffer = views.get(bytes.buffer);
      if (!byBuffer) views.set(bytes.buffer, (byBuffer = new Map()));
      let slot = byBuffer.get(key);
      if (!slot) {
        slot = { bytes, at: total, copy: null };
        total += bytes.byteLength;
        byBuffer.set(key, slot);
      }
      return slot;
    };
    try {
      if (!Array.isArray(groups)) throw new TypeError('validate(groups): groups must be an array of arrays of jobs');
      groups.forEach((group, g) => {
        if (!Array.isArray(group) || group.length === 0) throw new TypeError(`validate(groups): group ${g} must be a non-empty array of jobs`);
        copies.push(group.map((j, k) => {
          for (const field of ['block', 'spentOutputs']) {
            if (typedArrayName.call(j?.[field]) !== 'Uint8Array') {
              throw new TypeError(`validate(groups): group ${g} job ${k}: ${field} must be a Uint8Array`);
            }
          }
          if (j.hash !== undefined && typeof j.hash !== 'string') throw new TypeError(`validate(groups): group ${g} job ${k}: hash must be a string, got ${typeof j.hash}`);
          if (j.height !== undefined && typeof j.height !== 'number') throw new TypeError(`validate(groups): group ${g} job ${k}: height must be a number, got ${typeof j.height}`);
          checkJobOptions(`validate(groups): group ${g} job ${k}`, j.options);
          const share = Number.isFinite(j.share) && j.share > 0 && j.share <= 1 ? j.share : 1;
          return { block: place(j.block), spentOutputs: place(j.spentOutputs), hash: j.hash, height: j.height, options: j.options, share };
        }));
      });
    } catch (err) {
      return Promise.reject(err);
    }
    let region = null;
    try {
      region = this._ring && total > 0 ? this._ring.alloc(total) : null;
    } catch (err) {
      return Promise.reject(err);
    }
    const backing = region?.buffer ?? new ArrayBuffer(total);
    const base = region?.offset ?? 0;
    for (const byBuffer of views.values()) {
      for (const slot of byBuffer.values()) {
        slot.copy = new Uint8Array(backing, base + slot.at, slot.bytes.byteLength);
        slot.copy.set(slot.bytes);
      }
    }
    for (const group of copies) {
      for (const j of group) {
        j.block = j.block.copy;
        j.spentOutputs = j.spentOutputs.copy;
      }
    }
    const results = new Array(copies.length);
    if (copies.length === 0) {
      if (region) this._ring.free(region);
      return Promise.resolve(results);
    }
    return this._engineJob(copies.map((group, index) => ({
      kind: 'validate', group, index, what: describeGroup(group),
      // recordTimeoutMs per 40 bytes of spent outputs (about one input each) and per 250 bytes of
      // block, times the job's share of its block (a range's)
      units: group.reduce((n, j) => n + j.share * (j.spentOutputs.length / 40 + j.block.length / 250), 0),
    })), results, onProgress, region);
  }

  /**
   * Validates a block file as a chain from mainnet's genesis in one worker's engine
   * (ChainValidation.connectBlockFile, wasm/API.md: each header's link and proof of work, each
   * prevout from the engine's coins view, each block's validation; signatures verified in that
   * instance). One worker message; a worker that dies, traps or times out mid-chain is replaced
   * and the whole chain re-run on another worker (a fresh ChainValidation), with the same
   * attempts as a verify batch. `file` is copied when validateChain() is called, never modified
   * nor detached.
   * @param {Uint8Array} file Core's block-file layout (native/primitives/block_file.h)
   * @param {{skipProofOfWork?: boolean, maxCoinsBytes?: number}} [options] ChainValidation's
   * @returns {Promise<{run: object, status: object, ms: number}>} run: connectBlockFile's result
   *   ({frames, blocks: [chain block object], notValidated, fileError}); status: the chain's
   *   status() after it (tip height and hash, coins in the view and their bytes); ms: the
   *   worker's time in ChainValidation (construction, connectBlockFile, status), milliseconds
   * @throws (rejects) TypeError when `file` is not a Uint8Array; Error naming the chain file's
   *   size and its workers' last error when it failed maxAttempts times (an exception out of
   *   ChainValidation counts as a worker fault); Error when the pool is closed or a worker
   *   failed to start.
   */
  validateChain(file, options) {
    return this._timed(() => this._validateChain(file, options));
  }

  _validateChain(file, options) {
    if (this._failure) return Promise.reject(this._failure);
    if (typedArrayName.call(file) !== 'Uint8Array') {
      return Promise.reject(new TypeError('validateChain(file): file must be a Uint8Array'));
    }
    const copy = sharedMemoryUsable() ? new Uint8Array(new SharedArrayBuffer(file.byteLength)) : new Uint8Array(file.byteLength);
    copy.set(file);
    return this._engineJob([{ kind: 'chain', file: copy, options, index: 0, what: `chain validation of a ${file.byteLength}-byte block file`,
      units: file.byteLength / 250 }], null, undefined);
  }

  /**
   * Encodes spent outputs lists (spent_outputs.json's text) in the engine's binary form
   * (wasm/spent-outputs.mjs encodeSpentOutputs) in the workers, so that the calling thread only
   * hands the texts out: one worker message per group of texts, with the pool's fault handling
   * (a worker that dies on a group is replaced and the group re-run elsewhere).
   * @param {string[][]} groups texts, grouped per worker message
   * @returns {Promise<Array<Array<{bytes: Uint8Array}|{error: string, workerFault?: true}>>>} per
   *   group, per text in order: its binary form, or encodeSpentOutputs' error message for that
   *   text (a bad text fails alone); for each text of a group that failed maxAttempts times (its
   *   workers died, trapped or timed out on it every time), the group's last error with
   *   `workerFault`: the other groups' results are kept
   * @throws (rejects) TypeError when a group is not an array of strings; Error when the pool is
   *   closed or a worker failed to start.
   */
  encodeSpentOutputs(groups) {
    return this._timed(() => {
      if (this._failure) return Promise.reject(this._failure);
      if (!Array.isArray(groups) || !groups.every((g) => Array.isArray(g) && g.length > 0 && g.every((t) => typeof t === 'string'))) {
        return Promise.reject(new TypeError('encodeSpentOutputs(groups): groups must be non-empty arrays of strings'));
      }
      const results = new Array(groups.length);
      if (groups.length === 0) return Promise.resolve(results);
      return this._engineJob(groups.map((texts, index) => ({
        kind: 'encode', texts, index, what: `spent outputs encoding group ${index} (${texts.length} lists)`,
        units: texts.reduce((n, t) => n + t.length / 400, 0), // about one input per 400 characters
      })), results, undefined);
    });
  }

  // A job of engine tasks (validate groups, a chain): each task runs in one worker and is re-run
  // elsewhere when its worker dies (_retire). `results`: an array filled at each task's index,
  // or null for a single task whose reply is the job's value.
  // `region`: a job ring region holding the tasks' bytes, freed when the job settles, or null.
  _engineJob(specs, results, onProgress, region = null) {
    return new Promise((resolve, reject) => {
      const job = { results, remaining: specs.length, done: 0, onProgress, resolve, reject, failed: false, tasks: [], region };
      this._jobs.add(job);
      for (const spec of specs) job.tasks.push({ job, ...spec, id: 0, attempts: 0, lastError: null, inFlight: false, region: null });
      this._queue.push(...job.tasks);
      this._dispatch();
    });
  }

  // A task: one batch of `job` with its own copy of the records (a ring region, shared; an
  // ArrayBuffer, transfer; never a view of the caller's possibly shared memory). inFlight: a
  // worker holds it (its region must not be freed yet).
  _task(job, checks, batch) {
    const task = { job, batch, id: 0, attempts: 0, lastError: null, inFlight: false, region: null, checks: null };
    const end = batch.byteOffset + batch.byteLength;
    if (this._ring) {
      task.region = this._ring.alloc(batch.byteLength + batch.count); // records, then verdicts
      new Uint8Array(task.region.buffer, task.region.offset, batch.byteLength)
        .set(Uint8Array.prototype.subarray.call(checks, batch.byteOffset, end));
    } else {
      task.checks = copyBytes(checks, batch.byteOffset, end);
    }
    return task;
  }

  // Frees `task`'s ring region (once its batch is done or its job failed, and no worker holds it).
  _release(task) {
    if (!task.region) return;
    this._ring.free(task.region);
    task.region = null;
  }

  /**
   * Stops every worker; pending verify() calls reject with "verify pool closed", and so do
   * later ones.
   * @returns {Promise<void>}
   */
  async close() {
    this._fail(new Error('verify pool closed'));
    await Promise.all(this._slots.map((s) => {
      s.dead = true;
      return s.endpoint?.terminate();
    }));
  }

  // Starts worker `index`; `loadFailures` counts the replacements of this index that died
  // before they were ready, in a row.
  // slot.ring: the ring buffer last sent to this worker.
  _spawn(index, initial, loadFailures = 0) {
    const slot = { index, initial, loadFailures, ready: false, dead: false, task: null, timer: null, info: null, endpoint: null, heapBytes: null, ring: null };
    slot.endpoint = this._host.spawn(index, {
      onMessage: (msg) => this._timed(() => this._onMessage(slot, msg)),
      onError: (err) => this._onWorkerDeath(slot, `${this._label(slot)} failed: ${err?.message ?? err}`, err),
      onExit: (code) => this._onWorkerDeath(slot, `${this._label(slot)} exited (code ${code})`, undefined, true),
    });
    // A worker that never says it is ready (a stalled download, a hung start) is given up on
    // after loadTimeoutMs, as one that exits before it is ready.
    slot.loadTimer = setTimeout(() => afterPendingMessages(() => {
      if (slot.ready || slot.dead || this._failure) return;
      const loads = typeof this._host.loads === 'string' ? ` (loading ${this._host.loads})` : '';
      this._onWorkerDeath(slot, `${this._label(slot)} did not load within ${this._loadTimeoutMs} ms${loads}`, undefined, true);
    }), this._loadTimeoutMs);
    slot.loadTimer.unref?.();
    return slot;
  }

  _label(slot) {
    return `verify worker ${slot.index} of ${this.size}`;
  }

  // `transient`: the worker exited or stalled without an error of its own (killed, or out of
  // memory), which a new worker may not meet; an error or a load-error reply is the worker's
  // own failure to load (a missing build or script, a bad variant), which every new one would
  // meet too.
  _onWorkerDeath(slot, message, cause, transient = false) {
    if (slot.dead || this._failure) return;
    clearTimeout(slot.loadTimer);
    if (!slot.ready) {
      // An initial worker failing to load on its own is not transient: the pool is unusable.
      // One that exited or stalled is started again, up to maxAttempts times in a row.
      if (slot.initial) {
        if (!transient || slot.loadFailures + 1 >= this._maxAttempts) {
          const tries = slot.loadFailures > 0 ? ` (start ${slot.loadFailures + 1} in a row; the pool cannot start)` : '';
          this._fail(new Error(`${message}${tries}`, { cause }));
          return;
        }
        slot.dead = true;
        Promise.resolve().then(() => slot.endpoint.terminate()).catch(() => {});
        this._replacements++;
        this._slots[slot.index] = this._spawn(slot.index, true, slot.loadFailures + 1);
        return;
      }
      slot.dead = true;
      Promise.resolve().then(() => slot.endpoint.terminate()).catch(() => {});
      // A replacement gets maxAttempts tries in a row. Then its place is given up, and the
      // queued batches go to the workers that remain; the pool fails only when none remains.
      if (slot.loadFailures + 1 >= this._maxAttempts) {
        slot.abandoned = true;
        this._lost.push(`${message} (replacement ${slot.loadFailures + 1} in a row that failed to load; its place is given up)`);
        if (this._slots.every((s) => s.abandoned)) {
          this._fail(new Error(`no verify worker is left: ${this._lost.join('; ')}`, { cause }));
        } else {
          this._dispatch();
        }
        return;
      }
      this._replacements++;
      this._slots[slot.index] = this._spawn(slot.index, false, slot.loadFailures + 1);
      return;
    }
    this._retire(slot, message);
  }

  // Terminates `slot`'s worker, puts its batch back (or fails its job when out of attempts)
  // and starts a replacement worker in its place.
  _retire(slot, reason) {
    if (slot.dead) return;
    slot.dead = true;
    this._faults.push(reason);
    if (this._faults.length > STALL_WINDOW) this._faults.shift();
    clearTimeout(slot.timer);
    Promise.resolve().then(() => slot.endpoint.terminate()).catch(() => {});
    const task = slot.task;
    slot.task = null;
    if (task) {
      task.inFlight = false;
      if (task.region) this._ring.retire(task.region.buffer); // the dying worker may still write there
      this._retry(task, reason);
    }
    if (this._failure) return;
    this._replacements++;
    this._slots[slot.index] = this._spawn(slot.index, false);
    this._dispatch();
  }

  _retry(task, reason) {
    task.lastError = reason;
    if (task.job.failed) {
      this._release(task);
      return;
    }
    if (task.attempts >= this._maxAttempts) {
      const what = task.what ?? `batch of ${task.batch.count} records starting at record ${task.batch.first}`;
      const message = `${what} failed ${task.attempts === 1 ? 'once' : `${task.attempts} times`} (${this._maxAttempts} attempt${this._maxAttempts === 1 ? '' : 's'} allowed); last error: ${reason}`;
      if (task.kind === 'validate') {
        // One group's failure loses no other group's results: each of its jobs gets a failure
        // object (wasm/API.md's shape, locations unknown) naming its block and the last error.
        task.job.results[task.index] = task.group.map((j) => ({
          ok: false, error: `block ${j.hash || '(hash not given)'} (height ${j.height}): ${message}`, reason: message, rejectReason: '', stage: '',
          blockHash: j.hash, txIndex: -1, inputIndex: -1, outputIndex: -1, byteOffset: -1, workerFault: true,
        }));
        this._release(task);
        this._progress(task.job, 1, task.job.results);
        return;
      }
      if (task.kind === 'encode') {
        // The same for an encoding group: each of its texts gets the error, the others' results stay.
        task.job.results[task.index] = task.texts.map(() => ({ error: message, workerFault: true }));
        this._release(task);
        this._progress(task.job, 1, task.job.results);
        return;
      }
      this._failJob(task.job, new Error(message));
      return;
    }
    this._queue.unshift(task);
  }

  _onMessage(slot, msg) {
    if (slot.dead) return; // a late reply from a worker already given up on
    if (msg?.type === 'load-error') {
      this._onWorkerDeath(slot, `${this._label(slot)} failed to load: ${msg.message}`);
      return;
    }
    if (msg?.type === 'ready') {
      clearTimeout(slot.loadTimer);
      slot.ready = true;
      slot.info = msg.info;
      if (Number.isFinite(msg.heapBytes)) slot.heapBytes = msg.heapBytes;
      if (slot.initial && ++this._readyCount === this.size) {
        this._readyWaiters.resolve(this._slots.map((s) => s.info));
      }
      this._dispatch();
      return;
    }
    const task = slot.task;
    if (!task || msg?.id !== task.id) {
      this._retire(slot, `verify worker ${slot.index}: unexpected reply ${JSON.stringify(msg?.id)}`);
      return;
    }
    if (msg.error !== undefined) {
      // An exception out of verifyBatch (wasm trap, out of memory): the instance may be
      // corrupt (e.g. its stack pointer is not restored), so the worker is never reused.
      // Its first line: the message (a wasm trap's stack follows it in msg.error).
      this._retire(slot, `verify worker ${slot.index}: ${String(msg.error).split('\n')[0]}`);
      return;
    }
    if (task.kind) {
      this._onEngineReply(slot, task, msg);
      return;
    }
    const { job, batch } = task;
    const malformed = !Number.isInteger(msg.status?.error) ? 'no status'
      : !task.region && !(msg.verdicts instanceof ArrayBuffer && msg.verdicts.byteLength === batch.count)
        ? `not ${batch.count} verdict bytes` : null;
    if (malformed) {
      this._retire(slot, `verify worker ${slot.index}: malformed reply to a batch of ${batch.count} records (${malformed})`);
      return;
    }
    this._settle(slot, task, msg, msg.status.error === 0); // a malformed record stops the batch early
    if (!job.failed) {
      if (msg.status.error !== 0) {
        this._failJob(job, new Error(`malformed check record ${batch.first + msg.status.errorRecord} at byte ` +
          `${batch.byteOffset + msg.status.errorOffset} (verifyBatch error ${msg.status.error})`));
      } else {
        job.verdicts.set(task.region
          ? new Uint8Array(task.region.buffer, task.region.offset + batch.byteLength, batch.count)
          : new Uint8Array(msg.verdicts), batch.first);
        this._progress(job, batch.count, job.verdicts);
      }
    }
    this._release(task);
    this._dispatch();
  }

  // A validate reply (one result object per job of the group) or a chain reply (batch-handler.mjs).
  _onEngineReply(slot, task, msg) {
    const { job } = task;
    const count = task.kind === 'validate' ? task.group.length : task.kind === 'encode' ? task.texts.length : null;
    const malformed = count !== null
      ? (!Array.isArray(msg.results) || msg.results.length !== count ? `not ${count} results` : null)
      : (!Array.isArray(msg.chain?.run?.blocks) || !msg.chain.status ? 'no chain result' : null);
    if (malformed) {
      this._retire(slot, `verify worker ${slot.index}: malformed reply to ${task.what} (${malformed})`);
      return;
    }
    // Only work done in full tells how long such work takes: a block that failed or was found
    // invalid may have stopped early, an encoding that failed too.
    const full = task.kind === 'validate' ? msg.results.every((r) => r?.ok === true && r.valid === true)
      : task.kind === 'encode' ? msg.results.every((r) => r?.error === undefined) : false;
    this._settle(slot, task, msg, full);
    if (!job.failed) {
      if (job.results) {
        job.results[task.index] = task.kind === 'encode'
          ? msg.results.map((r) => (r.error !== undefined ? { error: String(r.error) } : { bytes: new Uint8Array(r.bytes) }))
          : msg.results;
      }
      this._progress(job, 1, job.results ?? msg.chain);
    }
    this._dispatch();
  }

  // A reply arrived for `task`: its worker is idle again and no longer holds it. `full`: the
  // task did all its work (its time per unit then feeds its kind's stall deadline, and the
  // tasks of that kind in flight have theirs set again from it).
  _settle(slot, task, msg, full) {
    clearTimeout(slot.timer);
    slot.task = null;
    task.inFlight = false;
    if (task.stallKind && full) {
      const seen = this._perUnitMs[task.stallKind];
      seen.push((performance.now() - task.sentAt) / Math.max(task.units, 1));
      if (seen.length > STALL_WINDOW) seen.shift();
      for (const other of this._slots) if (other.task?.stallKind === task.stallKind) this._restall(other);
    }
    if (Number.isFinite(msg.heapBytes)) slot.heapBytes = msg.heapBytes;
  }

  // `done` more units of `job` finished: its progress, and its resolution with `value` once
  // every task is in.
  _progress(job, done, value) {
    job.done += done;
    if (job.onProgress) {
      try { job.onProgress(job.done); } catch { /* progress display only */ }
    }
    if (--job.remaining === 0) {
      this._jobs.delete(job);
      this._releaseJob(job);
      job.resolve(value);
    }
  }

  _dispatch() {
    for (const slot of this._slots) {
      while (!this._failure && slot.ready && !slot.dead && !slot.task) {
        let task;
        while ((task = this._queue.shift()) && task.job.failed);
        if (!task) {
          slot.endpoint.unref(); // idle: do not keep the process alive
          break;
        }
        this._send(slot, task);
      }
    }
  }

  // Posts `task` to the idle `slot` (protocol: batch-handler.mjs) and arms its deadline; a
  // failure to send fails the task's job and leaves the slot idle.
  _send(slot, task) {
    task.id = this._nextId++;
    task.attempts++;
    if (task.kind) {
      this._sendEngineTask(slot, task);
      return;
    }
    const { count, byteLength } = task.batch;
    try {
      slot.endpoint.ref();
      if (task.region) {
        const { buffer, offset } = task.region;
        const msg = { id: task.id, count, offset, length: byteLength };
        if (slot.ring !== buffer) msg.ring = buffer;
        slot.endpoint.post(msg, []);
        slot.ring = buffer;
      } else {
        const copy = copyBytes(task.checks); // transferred; task.checks is kept for a retry
        slot.endpoint.post({ id: task.id, count, checks: copy.buffer }, [copy.buffer]);
      }
    } catch (err) {
      this._failJob(task.job, new Error(`could not send the batch of ${count} records starting at record ` +
        `${task.batch.first} to verify worker ${slot.index}: ${err?.message ?? err}`, { cause: err }));
      return;
    }
    slot.task = task;
    task.inFlight = true;
    this._arm(slot, task, 'batch', count);
  }

  // Arms `slot`'s deadline for `task` of `units` units: the full deadline (batchTimeoutMs plus
  // recordTimeoutMs per unit), or the stall deadline (_restall). kind: 'batch', 'validate',
  // 'encode', or null (a chain: the full deadline only).
  _arm(slot, task, kind, units) {
    task.sentAt = performance.now();
    task.units = task.units ?? units;
    task.stallKind = kind;
    task.fullMs = Math.min(MAX_TIMEOUT_MS, Math.ceil(this._batchTimeoutMs + task.units * this._recordTimeoutMs));
    task.timerMs = null;
    this._restall(slot);
  }

  // Sets the deadline of `slot`'s task from its sending (constructor): the stall deadline,
  // max(minStallMs, stallFactor x its units x the slowest time per unit of its kind's last
  // STALL_WINDOW tasks done in full), when there is such an estimate, the task is on its first
  // attempt and a retry is left, and it is shorter than the full deadline; else the full one.
  // Called when the task is sent and again whenever a task of its kind completes, so a task sent
  // before there was an estimate gets one, and one sent under an older estimate the new one.
  _restall(slot) {
    const task = slot.task;
    if (!task || this._failure) return; // a failed pool arms nothing (_fail cleared the timers)
    let ms = task.fullMs;
    let why = '';
    const seen = task.stallKind ? this._perUnitMs[task.stallKind] : [];
    if (this._stallFactor > 0 && task.attempts === 1 && this._maxAttempts > 1 && seen.length > 0) {
      const expected = Math.max(...seen) * Math.max(task.units, 1);
      const stall = Math.max(this._minStallMs, Math.ceil(this._stallFactor * expected));
      if (stall < task.fullMs) {
        ms = stall;
        const kinds = { batch: 'batches', validate: 'validation groups', encode: 'encoding groups' };
        why = ` (${this._stallFactor}x the ${expected < 10 ? expected.toFixed(1) : Math.round(expected)} ms its work was expected ` +
          `to take from the last ${seen.length === 1 ? `1 ${kinds[task.stallKind].replace(/e?s$/, '')}` : `${seen.length} ${kinds[task.stallKind]}`}, or ${this._minStallMs} ms at least; ` +
          `a retry gets the full ${task.fullMs} ms)`;
      }
    }
    if (ms === task.timerMs) return;
    clearTimeout(slot.timer);
    task.timerMs = ms;
    slot.timer = setTimeout(() => afterPendingMessages(() => {
      // Not when the pending messages set the deadline again (_settle: a later estimate); every
      // deadline counts from the same sentAt, so the same ms is the same deadline.
      if (slot.task === task && task.timerMs === ms && !this._failure) this._retire(slot, `verify worker ${slot.index} timed out after ${ms} ms${why}`);
    }), Math.max(0, task.sentAt + ms - performance.now()));
    slot.timer.unref?.(); // the busy worker (ref'd) keeps the process alive
  }

  // _send for a validate or chain task: views of its shared bytes (no copy), or fresh copies of
  // them, transferred (the task keeps its own for a retry). Deadline: batchTimeoutMs plus
  // recordTimeoutMs per unit of the task (validate: per 40 bytes of spent outputs, about one
  // input, and per 250 bytes of block; chain: per 250 bytes of the file).
  _sendEngineTask(slot, task) {
    const transfer = [];
    const bytes = (b) => {
      if (!(b.buffer instanceof ArrayBuffer)) return b; // shared: the worker reads it in place
      const copy = copyBytes(b).buffer;
      transfer.push(copy);
      return copy;
    };
    const msg = task.kind === 'validate'
      ? { id: task.id, kind: 'validate', jobs: task.group.map((j) => ({ block: bytes(j.block), spentOutputs: bytes(j.spentOutputs),
        hash: j.hash, height: j.height, options: j.options })) }
      : task.kind === 'encode' ? { id: task.id, kind: 'encode', texts: task.texts }
        : { id: task.id, kind: 'chain', file: bytes(task.file), options: task.options };
    try {
      slot.endpoint.ref();
      slot.endpoint.post(msg, transfer);
    } catch (err) {
      this._failJob(task.job, new Error(`could not send ${task.what} to verify worker ${slot.index}: ${err?.message ?? err}`, { cause: err }));
      return;
    }
    slot.task = task;
    task.inFlight = true;
    this._arm(slot, task, task.kind === 'chain' ? null : task.kind, task.units);
  }

  _failJob(job, err) {
    if (job.failed) return;
    job.failed = true;
    this._jobs.delete(job);
    for (const task of job.tasks) if (!task.inFlight) this._release(task);
    // A worker may still be reading the job's region: its buffer takes no later region.
    if (job.region && job.tasks.some((t) => t.inFlight)) this._ring.retire(job.region.buffer);
    this._releaseJob(job);
    job.reject(err);
  }

  // Frees `job`'s ring region (validate: the blocks and spent outputs), once.
  _releaseJob(job) {
    if (!job.region) return;
    this._ring.free(job.region);
    job.region = null;
  }

  _fail(err) {
    if (this._failure) return;
    this._failure = err;
    this._readyWaiters.reject(err);
    for (const job of this._jobs) this._failJob(job, err);
    this._queue.length = 0;
    for (const slot of this._slots) {
      clearTimeout(slot.timer);
      clearTimeout(slot.loadTimer);
      slot.endpoint?.unref();
      // A failed pool runs nothing more: its workers stop now, not at close().
      if (!slot.dead) Promise.resolve().then(() => slot.endpoint?.terminate()).catch(() => {});
    }
  }
}
