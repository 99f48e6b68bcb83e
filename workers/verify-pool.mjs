// The verify pool's logic, independent of the host: N workers, each with its own wasm
// instance. verify() splits a packed check buffer into batches (job-buffer.mjs), hands each
// batch to an idle worker, and puts the verdicts back in input order. Workers are created by a
// host (node-host.mjs: worker_threads; a Web Worker host implements the same interface), so
// this file imports nothing host-specific. Node callers use pool.mjs.
import { splitBatches, walkChecks } from './job-buffer.mjs';

/** Largest accepted worker count. */
export const MAX_WORKERS = 256;
/** Default records per worker message (DESIGN.md: ~2,048 scales 2 workers 2.03-2.06x). */
export const DEFAULT_BATCH_SIZE = 2048;

/** A pool of verify workers; see createPool (pool.mjs) for Node. Not reusable after close(). */
export class VerifyPool {
  /**
   * Starts `workers` workers through `host` (they load their wasm in the background).
   * @param {{workers: number, host: {spawn: Function}}} options workers: 1..MAX_WORKERS;
   *   host: see node-host.mjs for the interface.
   * @throws RangeError when `workers` is not an integer in 1..MAX_WORKERS.
   */
  constructor({ workers, host }) {
    if (!Number.isInteger(workers) || workers < 1 || workers > MAX_WORKERS) {
      throw new RangeError(`workers must be an integer from 1 to ${MAX_WORKERS}, got ${workers}`);
    }
    this.size = workers;
    this._queue = [];       // tasks not yet sent: {job, batch, checks, id}
    this._nextId = 1;
    this._jobs = new Set(); // pending verify() calls
    this._failure = null;   // Error once a worker has failed or the pool is closed
    this._readyCount = 0;
    this._ready = new Promise((resolve, reject) => { this._readyWaiters = { resolve, reject }; });
    this._ready.catch(() => {}); // surfaced through ready() / verify(), not as unhandled
    this._slots = [];
    for (let i = 0; i < workers; i++) {
      const slot = { index: i, ready: false, task: null, info: null, endpoint: null };
      slot.endpoint = host.spawn(i, {
        onMessage: (msg) => this._onMessage(slot, msg),
        onError: (err) => this._fail(new Error(`verify worker ${i} of ${workers} failed: ${err?.message ?? err}`, { cause: err })),
        onExit: (code) => this._fail(new Error(`verify worker ${i} of ${workers} exited (code ${code})`)),
      });
      this._slots.push(slot);
    }
  }

  /**
   * Resolves when every worker has loaded its engine.
   * @returns {Promise<object[]>} each worker's engineInfo(), by worker index.
   * @throws (rejects) Error naming the worker index when a worker fails to start.
   */
  ready() {
    return this._ready;
  }

  /**
   * Verifies every record of `checks`.
   * @param {Uint8Array} checks packed records (native/check_buffer.h); not modified.
   * @param {{batchSize?: number}} [options] records per worker message at most (default 2048);
   *   batches are balanced over the workers (job-buffer.mjs splitBatches).
   * @returns {Promise<Uint8Array>} one verdict byte per record, in input order (1 valid, 0 invalid).
   * @throws (rejects) Error naming the record index and byte offset of a malformed record, or
   *   naming the worker index when a worker fails; or when the pool is closed.
   */
  verify(checks, { batchSize = DEFAULT_BATCH_SIZE } = {}) {
    if (this._failure) return Promise.reject(this._failure);
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
      const job = { verdicts, remaining: batches.length, resolve, reject, failed: false };
      this._jobs.add(job);
      for (const batch of batches) {
        const view = checks.subarray(batch.byteOffset, batch.byteOffset + batch.byteLength);
        this._queue.push({ job, batch, checks: view, id: 0 });
      }
      this._dispatch();
    });
  }

  /**
   * Stops every worker; pending verify() calls reject with "verify pool closed".
   * @returns {Promise<void>}
   */
  async close() {
    this._fail(new Error('verify pool closed'));
    await Promise.all(this._slots.map((s) => s.endpoint.terminate()));
  }

  _onMessage(slot, msg) {
    if (msg?.type === 'ready') {
      slot.ready = true;
      slot.info = msg.info;
      if (++this._readyCount === this.size) this._readyWaiters.resolve(this._slots.map((s) => s.info));
      this._dispatch();
      return;
    }
    const task = slot.task;
    slot.task = null;
    if (!task || msg?.id !== task.id) {
      this._fail(new Error(`verify worker ${slot.index}: unexpected reply ${JSON.stringify(msg?.id)}`));
      return;
    }
    const { job, batch } = task;
    if (!job.failed) {
      if (msg.error) {
        this._failJob(job, new Error(`verify worker ${slot.index}: ${msg.error}`));
      } else if (msg.status.error !== 0) {
        this._failJob(job, new Error(`malformed check record ${batch.first + msg.status.errorRecord} at byte ` +
          `${batch.byteOffset + msg.status.errorOffset} (verifyBatch error ${msg.status.error})`));
      } else {
        job.verdicts.set(new Uint8Array(msg.verdicts), batch.first);
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
      if (this._failure) return;
      if (!slot.ready || slot.task) continue;
      let task;
      while ((task = this._queue.shift()) && task.job.failed);
      if (!task) {
        slot.endpoint.unref(); // idle: do not keep the process alive
        continue;
      }
      task.id = this._nextId++;
      slot.task = task;
      const copy = task.checks.slice(); // own ArrayBuffer, transferred to the worker
      slot.endpoint.ref();
      slot.endpoint.post({ id: task.id, checks: copy.buffer, count: task.batch.count }, [copy.buffer]);
    }
  }

  _failJob(job, err) {
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
    for (const slot of this._slots) slot.endpoint?.unref();
  }
}
