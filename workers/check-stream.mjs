// Following the tip: checks verified as they arrive, one at a time, instead of a whole buffer
// at once. A CheckStream gathers submitted records into an open batch; the batch closes when it
// holds maxBatch records, or (policy 'size-or-timeout') when its oldest record has waited
// fillTimeoutMs, or at flush()/close(). A closed batch is one VerifyPool.verify() call, so
// several batches can be in flight across the pool's workers while the next one fills; each
// batch goes to one worker as one message (verify's balance: false).
// Host-neutral: it uses only a VerifyPool's verify() and setTimeout.
import { concatChecks, walkChecks } from '../wasm/check-buffer.mjs';
import { DEFAULT_BATCH_SIZE, MAX_BATCH_SIZE, MAX_TIMEOUT_MS } from './verify-pool.mjs';

const shown = (v) => (typeof v === 'string' ? JSON.stringify(v) : String(v));

/** Batch-closing policies: 'size' closes a batch only when full (or at flush()/close());
 *  'size-or-timeout' also closes it when its oldest record has waited fillTimeoutMs. */
export const POLICIES = Object.freeze(['size', 'size-or-timeout']);

/** Default fill timeout of 'size-or-timeout', in milliseconds: the longest a check waits for
 *  its batch to fill. A stream that brings maxBatch checks within it (at 256 records: above
 *  12,800 checks/s, about 1.4 times one worker's ~9,400 checks/s) fills its batches before the
 *  timeout, so they stay full; at a slower rate a verdict comes at most this long after
 *  arrival plus the verification itself (about 0.1 ms per check on one worker). */
export const DEFAULT_FILL_TIMEOUT_MS = 20;

/** Why a batch closed: it reached maxBatch, its oldest record waited fillTimeoutMs, or flush()
 *  / close() closed it. */
export const CloseCause = Object.freeze({ FULL: 'full', TIMEOUT: 'timeout', FLUSH: 'flush' });

/** A stream of single checks over a VerifyPool. Not reusable after close(). */
export class CheckStream {
  /**
   * @param {{verify: (checks: Uint8Array, options: {batchSize: number}) => Promise<Uint8Array>}} pool
   *   a VerifyPool (workers/verify-pool.mjs) or anything with its verify(); the stream does not
   *   own it (close() leaves it open).
   * @param {{policy?: 'size'|'size-or-timeout', maxBatch?: number, fillTimeoutMs?: number}} [options]
   *   policy: see POLICIES (default 'size-or-timeout'); maxBatch: records per batch at most, a
   *   integer in 1..MAX_BATCH_SIZE (verify-pool.mjs; default
   *   DEFAULT_BATCH_SIZE of verify-pool.mjs); fillTimeoutMs: milliseconds the
   *   oldest record of an open batch waits before the batch closes (default 20; used by
   *   'size-or-timeout' only).
   * @throws RangeError naming the option when policy is unknown, maxBatch is not an integer
   *   in 1..MAX_BATCH_SIZE or fillTimeoutMs is not a positive number up to MAX_TIMEOUT_MS (setTimeout's limit).
   */
  constructor(pool, { policy = 'size-or-timeout', maxBatch = DEFAULT_BATCH_SIZE, fillTimeoutMs = DEFAULT_FILL_TIMEOUT_MS } = {}) {
    if (typeof pool?.verify !== 'function') throw new TypeError('CheckStream needs a pool with a verify() method');
    if (!POLICIES.includes(policy)) throw new RangeError(`policy must be one of ${POLICIES.join(', ')}, got ${JSON.stringify(policy)}`);
    if (!Number.isInteger(maxBatch) || maxBatch < 1 || maxBatch > MAX_BATCH_SIZE) {
      throw new RangeError(`maxBatch must be an integer from 1 to ${MAX_BATCH_SIZE} (MAX_BATCH_SIZE), got ${shown(maxBatch)}`);
    }
    if (typeof fillTimeoutMs !== 'number' || !(fillTimeoutMs > 0) || !(fillTimeoutMs <= MAX_TIMEOUT_MS)) {
      throw new RangeError(`fillTimeoutMs must be a positive number of milliseconds up to ${MAX_TIMEOUT_MS}, got ${shown(fillTimeoutMs)}`);
    }
    this.policy = policy;
    this.maxBatch = maxBatch;
    this.fillTimeoutMs = fillTimeoutMs;
    this._pool = pool;
    this._open = [];          // the open batch: {record, resolve, reject}, in submit order
    this._timer = null;       // fill timer of the open batch ('size-or-timeout' only)
    this._inFlight = new Set(); // promises of closed batches not yet settled
    this._submitted = 0;
    this._closed = false;
    this._stats = { batches: 0, records: 0, byCause: { full: 0, timeout: 0, flush: 0 } };
  }

  /**
   * Adds one check to the open batch.
   * @param {Uint8Array} record exactly one packed check record (native/verify/check_buffer.h; see
   *   wasm/check-buffer.mjs): type u8 | pubkey_len u8 | sig_len u16 LE | msg32 | pubkey | sig. Copied;
   *   the caller may reuse the buffer at once.
   * @returns {Promise<0|1>} the check's verdict (1 valid, 0 invalid) once its batch is verified.
   * @throws (rejects) TypeError when `record` is not a Uint8Array; Error naming the submission
   *   number (0-based, counting every submit) and the problem when it is not exactly one
   *   well-framed record (the record joins no batch); Error "check stream closed" after
   *   close(); Error naming the batch (0-based number, records, close cause) with the pool's
   *   error as `cause` when its batch's verify() fails (only that batch's checks reject).
   */
  submit(record) {
    const where = `check stream submission ${this._submitted++}`;
    if (this._closed) return Promise.reject(new Error(`${where}: check stream closed`));
    if (!(record instanceof Uint8Array)) {
      const what = record === null ? 'null' : typeof record !== 'object' ? typeof record : (record.constructor?.name ?? 'object');
      return Promise.reject(new TypeError(`${where}: record must be a Uint8Array, got ${what}`));
    }
    try {
      const { count } = walkChecks(record);
      if (count !== 1) throw new Error(`holds ${count} records, expected exactly one`);
    } catch (err) {
      return Promise.reject(new Error(`${where}: malformed record: ${err.message}`));
    }
    return new Promise((resolve, reject) => {
      // A copy: Buffer#slice would be a view into the caller's memory.
      this._open.push({ record: Uint8Array.prototype.slice.call(record), resolve, reject });
      if (this._open.length >= this.maxBatch) {
        this._closeBatch(CloseCause.FULL);
      } else if (this._open.length === 1 && this.policy === 'size-or-timeout') {
        // One timer per open batch, armed by its oldest record. It is not unref'd: a check is
        // waiting for it. With no open batch there is no timer, so an idle stream keeps no
        // process alive.
        this._timer = setTimeout(() => this._closeBatch(CloseCause.TIMEOUT), this.fillTimeoutMs);
      }
    });
  }

  /**
   * Closes the open batch now (cause 'flush'), if it holds any record.
   * @returns {Promise<void>} resolves when every batch closed so far has settled (its checks'
   *   promises resolved or rejected); never rejects.
   */
  flush() {
    if (this._open.length) this._closeBatch(CloseCause.FLUSH);
    return Promise.allSettled([...this._inFlight]).then(() => {});
  }

  /**
   * flush(), then rejects every later submit with "check stream closed". The pool stays open.
   * @returns {Promise<void>} as flush().
   */
  close() {
    this._closed = true;
    return this.flush();
  }

  /**
   * Counts so far.
   * @returns {{batches: number, records: number, byCause: {full: number, timeout: number,
   *   flush: number}, meanBatchSize: number|null, open: number, inFlight: number}} batches
   *   closed, and by cause; records sent in them; meanBatchSize in records per batch (null
   *   before the first batch); open: records in the open batch; inFlight: closed batches not
   *   yet settled.
   */
  stats() {
    const { batches, records, byCause } = this._stats;
    return {
      batches, records, byCause: { ...byCause },
      meanBatchSize: batches ? records / batches : null,
      open: this._open.length,
      inFlight: this._inFlight.size,
    };
  }

  _closeBatch(cause) {
    clearTimeout(this._timer);
    this._timer = null;
    const batch = this._open;
    this._open = [];
    const number = this._stats.batches++;
    this._stats.records += batch.length;
    this._stats.byCause[cause]++;
    let verified;
    try {
      verified = this._pool.verify(concatChecks(batch.map((c) => c.record)), { batchSize: batch.length, balance: false });
    } catch (err) {
      verified = Promise.reject(err);
    }
    const settled = Promise.resolve(verified).then(
      (verdicts) => {
        if (verdicts?.length !== batch.length) {
          throw new Error(`the pool returned ${verdicts?.length ?? 'no'} verdicts for ${batch.length} records`);
        }
        batch.forEach((c, i) => c.resolve(verdicts[i]));
      })
      .catch((err) => {
        const failure = new Error(`check stream batch ${number} (${batch.length} records, closed: ${cause}) failed: ${err?.message ?? err}`, { cause: err });
        for (const c of batch) c.reject(failure);
      });
    this._inFlight.add(settled);
    settled.then(() => this._inFlight.delete(settled));
  }
}
