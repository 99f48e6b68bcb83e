// The verify pool's logic, independent of the host: N workers, each with its own wasm
// instance. verify() splits a packed check buffer into batches (job-buffer.mjs), hands each
// batch to an idle worker, and puts the verdicts back in input order. Workers are created by a
// host (node-host.mjs: worker_threads; a Web Worker host implements the same interface), so
// this file imports nothing host-specific. Node callers use pool.mjs.
//
// Fault handling: a worker that dies while verifying a batch (exit, uncaught exception, wasm
// trap reported as an `error` reply, no reply before the batch deadline) is terminated and
// replaced by a new worker, and its batch goes back to the front of the queue. A batch is
// tried at most `maxAttempts` times; a batch that exhausts them fails its own job only. A
// malformed record (verifyBatch status error != 0) fails its job at once and the worker stays.
import { splitBatches, walkChecks } from './job-buffer.mjs';

/** Largest accepted worker count. */
export const MAX_WORKERS = 256;
/** Default records per worker message (DESIGN.md: ~2,048 scales 2 workers 2.03-2.06x). */
export const DEFAULT_BATCH_SIZE = 2048;
/** Default fixed part of a batch's deadline, in milliseconds. */
export const DEFAULT_BATCH_TIMEOUT_MS = 60_000;
/** Default per-record allowance added to a batch's deadline, in milliseconds per record. */
export const DEFAULT_RECORD_TIMEOUT_MS = 2;
/** Default number of times a batch is tried (on different workers) before its job fails. */
export const DEFAULT_MAX_ATTEMPTS = 3;

// The [[TypedArrayName]] of a value, '' when it is not a typed array (realm-independent, and
// not spoofable by Symbol.toStringTag overrides).
const typedArrayName = Object.getOwnPropertyDescriptor(
  Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag).get;
const copyBytes = (bytes, begin, end) => Uint8Array.prototype.slice.call(bytes, begin, end);

const checkPositive = (name, v, integer) => {
  if (typeof v !== 'number' || !(v > 0) || !Number.isFinite(v) || (integer && !Number.isInteger(v))) {
    throw new RangeError(`${name} must be a positive ${integer ? 'integer' : 'finite number'}, got ${v}`);
  }
};

/** A pool of verify workers; see createPool (pool.mjs) for Node. Not reusable after close(). */
export class VerifyPool {
  /**
   * Starts `workers` workers through `host` (they load their wasm in the background).
   * @param {{workers: number, host: {spawn: Function}, batchTimeoutMs?: number,
   *   recordTimeoutMs?: number, maxAttempts?: number}} options workers: 1..MAX_WORKERS;
   *   host: see node-host.mjs for the interface; a batch of n records that gets no reply within
   *   batchTimeoutMs + n * recordTimeoutMs milliseconds (defaults 60,000 and 2) has its worker
   *   terminated, replaced and the batch retried; maxAttempts (default 3) bounds the tries of
   *   one batch.
   * @throws RangeError when `workers` is not an integer in 1..MAX_WORKERS, or a timeout /
   *   maxAttempts is not positive (maxAttempts: a positive integer).
   */
  constructor({ workers, host, batchTimeoutMs = DEFAULT_BATCH_TIMEOUT_MS,
    recordTimeoutMs = DEFAULT_RECORD_TIMEOUT_MS, maxAttempts = DEFAULT_MAX_ATTEMPTS }) {
    if (!Number.isInteger(workers) || workers < 1 || workers > MAX_WORKERS) {
      throw new RangeError(`workers must be an integer from 1 to ${MAX_WORKERS}, got ${workers}`);
    }
    checkPositive('batchTimeoutMs', batchTimeoutMs, false);
    if (recordTimeoutMs !== 0) checkPositive('recordTimeoutMs', recordTimeoutMs, false);
    checkPositive('maxAttempts', maxAttempts, true);
    this.size = workers;
    this._host = host;
    this._batchTimeoutMs = batchTimeoutMs;
    this._recordTimeoutMs = recordTimeoutMs;
    this._maxAttempts = maxAttempts;
    this._queue = [];       // tasks not yet sent: {job, batch, checks, id, attempts, lastError}
    this._nextId = 1;
    this._jobs = new Set(); // pending verify() calls
    this._failure = null;   // Error once the pool is closed or a worker failed to start
    this._replacements = 0; // workers spawned to replace dead ones
    this._readyCount = 0;
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
   * Each worker's wasm memory size in bytes as of its last verify reply, by worker index (null
   * before a worker has replied, or when its host does not report it). A replacement worker
   * starts over at null.
   * @returns {Array<number|null>}
   */
  get heapBytes() {
    return this._slots.map((s) => s.heapBytes);
  }

  /** Number of workers spawned so far to replace dead, trapped or timed-out ones. */
  get replacements() {
    return this._replacements;
  }

  /**
   * Verifies every record of `checks`. The bytes are copied when verify() is called; the
   * caller's buffer is never modified nor detached (a Node Buffer is fine).
   * @param {Uint8Array} checks packed records (native/check_buffer.h); not modified.
   * @param {{batchSize?: number, onProgress?: (recordsDone: number) => void}} [options]
   *   batchSize: records per worker message at most (default 2048); batches are balanced over
   *   the workers (job-buffer.mjs splitBatches). onProgress: called after each batch's verdicts
   *   arrive with the number of records verified so far (increasing, the last call equal to
   *   the record count; not called for an empty buffer); an exception it throws is ignored.
   * @returns {Promise<Uint8Array>} one verdict byte per record, in input order (1 valid, 0 invalid).
   * @throws (rejects) TypeError when `checks` is not a Uint8Array; RangeError for a bad
   *   batchSize; Error naming the record index and byte offset of a malformed record; Error
   *   naming a batch's first record index, record count and its workers' last error when the
   *   batch failed maxAttempts times; Error when the pool is closed or a worker failed to start.
   */
  verify(checks, { batchSize = DEFAULT_BATCH_SIZE, onProgress } = {}) {
    if (this._failure) return Promise.reject(this._failure);
    if (typedArrayName.call(checks) !== 'Uint8Array') {
      const what = checks === null ? 'null' : (checks?.constructor?.name ?? typeof checks);
      return Promise.reject(new TypeError(`verify(checks): checks must be a Uint8Array (or Buffer), got ${what}`));
    }
    let batches;
    let count;
    try {
      const walked = walkChecks(checks);
      count = walked.count;
      batches = splitBatches(walked, batchSize, this.size);
    } catch (err) {
      return Promise.reject(err);
    }
    const verdicts = new Uint8Array(count);
    if (count === 0) return Promise.resolve(verdicts);
    return new Promise((resolve, reject) => {
      const job = { verdicts, remaining: batches.length, done: 0, onProgress, resolve, reject, failed: false };
      this._jobs.add(job);
      for (const batch of batches) {
        // A copy with its own ArrayBuffer: Buffer#slice / subarray would be views into the
        // caller's (possibly shared) memory.
        const bytes = copyBytes(checks, batch.byteOffset, batch.byteOffset + batch.byteLength);
        this._queue.push({ job, batch, checks: bytes, id: 0, attempts: 0, lastError: null });
      }
      this._dispatch();
    });
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
  _spawn(index, initial, loadFailures = 0) {
    const slot = { index, initial, loadFailures, ready: false, dead: false, task: null, timer: null, info: null, endpoint: null, heapBytes: null };
    const label = () => `verify worker ${index} of ${this.size}`;
    slot.endpoint = this._host.spawn(index, {
      onMessage: (msg) => this._onMessage(slot, msg),
      onError: (err) => this._onWorkerDeath(slot, `${label()} failed: ${err?.message ?? err}`, err),
      onExit: (code) => this._onWorkerDeath(slot, `${label()} exited (code ${code})`),
    });
    return slot;
  }

  _onWorkerDeath(slot, message, cause) {
    if (slot.dead || this._failure) return;
    if (!slot.ready) {
      // An initial worker failing to load is not transient (missing build, bad variant): the
      // pool is unusable. A replacement gets maxAttempts tries in a row.
      if (slot.initial || slot.loadFailures + 1 >= this._maxAttempts) {
        this._fail(new Error(message, { cause }));
        return;
      }
      slot.dead = true;
      Promise.resolve().then(() => slot.endpoint.terminate()).catch(() => {});
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
    clearTimeout(slot.timer);
    Promise.resolve().then(() => slot.endpoint.terminate()).catch(() => {});
    const task = slot.task;
    slot.task = null;
    if (task) this._retry(task, reason);
    if (this._failure) return;
    this._replacements++;
    this._slots[slot.index] = this._spawn(slot.index, false);
    this._dispatch();
  }

  _retry(task, reason) {
    task.lastError = reason;
    if (task.job.failed) return;
    if (task.attempts >= this._maxAttempts) {
      const { first, count } = task.batch;
      this._failJob(task.job, new Error(`batch of ${count} records starting at record ${first} failed ` +
        `${task.attempts} times (${this._maxAttempts} attempts allowed); last error: ${reason}`));
      return;
    }
    this._queue.unshift(task);
  }

  _onMessage(slot, msg) {
    if (slot.dead) return; // a late reply from a worker already given up on
    if (msg?.type === 'ready') {
      slot.ready = true;
      slot.info = msg.info;
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
      this._retire(slot, `verify worker ${slot.index}: ${msg.error}`);
      return;
    }
    clearTimeout(slot.timer);
    slot.task = null;
    if (Number.isFinite(msg.heapBytes)) slot.heapBytes = msg.heapBytes;
    const { job, batch } = task;
    if (!job.failed) {
      if (msg.status.error !== 0) {
        this._failJob(job, new Error(`malformed check record ${batch.first + msg.status.errorRecord} at byte ` +
          `${batch.byteOffset + msg.status.errorOffset} (verifyBatch error ${msg.status.error})`));
      } else {
        job.verdicts.set(new Uint8Array(msg.verdicts), batch.first);
        job.done += batch.count;
        if (job.onProgress) {
          try { job.onProgress(job.done); } catch { /* progress display only */ }
        }
        if (--job.remaining === 0) {
          this._jobs.delete(job);
          job.resolve(job.verdicts);
        }
      }
    }
    this._dispatch();
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

  // Posts `task` to the idle `slot` and arms its deadline; a failure to send fails the task's
  // job and leaves the slot idle.
  _send(slot, task) {
    task.id = this._nextId++;
    task.attempts++;
    try {
      const copy = copyBytes(task.checks); // transferred; task.checks is kept for a retry
      slot.endpoint.ref();
      slot.endpoint.post({ id: task.id, checks: copy.buffer, count: task.batch.count }, [copy.buffer]);
    } catch (err) {
      const { first, count } = task.batch;
      this._failJob(task.job, new Error(`could not send the batch of ${count} records starting at record ` +
        `${first} to verify worker ${slot.index}: ${err?.message ?? err}`, { cause: err }));
      return;
    }
    slot.task = task;
    const ms = this._batchTimeoutMs + task.batch.count * this._recordTimeoutMs;
    slot.timer = setTimeout(() => {
      if (slot.task === task) this._retire(slot, `verify worker ${slot.index} timed out after ${ms} ms`);
    }, ms);
    slot.timer.unref?.(); // the busy worker (ref'd) keeps the process alive
  }

  _failJob(job, err) {
    if (job.failed) return;
    job.failed = true;
    this._jobs.delete(job);
    job.reject(err);
  }

  _fail(err) {
    if (this._failure) return;
    this._failure = err;
    this._readyWaiters.reject(err);
    for (const job of this._jobs) this._failJob(job, err);
    this._queue.length = 0;
    for (const slot of this._slots) {
      clearTimeout(slot.timer);
      slot.endpoint?.unref();
    }
  }
}
