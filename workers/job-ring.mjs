// The job ring: where the pool's shared transport (verify-pool.mjs) puts batches. Each batch
// gets one contiguous region of a SharedArrayBuffer holding its packed records followed by one
// byte per record for its verdicts; a worker reads the records in place and writes the verdicts
// there, so a batch message carries only offsets (batch-handler.mjs, protocol).
//
// Regions are handed out in order from the head and wrap to the start of the buffer once the
// oldest live region has moved on:
//   [ free | oldest live .. newest live | free ]     not wrapped: tail < head
//   [ newest live .. | free | oldest live .. ]       wrapped: head <= tail
// A region may be freed in any order; its bytes are reused once every region allocated before
// it is freed too (the tail moves over freed regions in allocation order). When the buffer is
// empty the head goes back to 0.
//
// Full: alloc never waits and never fails for lack of room. When no free run fits a request,
// the ring grows: a new SharedArrayBuffer of twice the capacity, or of the request when that is
// larger, becomes the buffer later regions come from. Regions already handed out stay valid in
// their old buffer (each region names its buffer), which is garbage once they are gone. So one
// batch larger than the ring, or a ring held up by a batch waiting for a retry, costs a larger
// buffer, never a deadlock. The ring does not shrink: its size is the peak of bytes in flight.
//
// retire(): a worker terminated while it held a region may still write its verdicts there
// before it stops, so the pool retires that region's buffer: no later region is placed in it.

/** Capacity of a new ring in bytes (1 MiB: about 7,000 typical records with their verdicts). */
export const DEFAULT_RING_BYTES = 1 << 20;

/** Regions of SharedArrayBuffers; see the file header. */
export class JobRing {
  /**
   * @param {number} [capacity=DEFAULT_RING_BYTES] bytes of the first buffer (allocated on the
   *   first alloc()), a positive integer.
   * @throws RangeError when capacity is not a positive integer.
   */
  constructor(capacity = DEFAULT_RING_BYTES) {
    checkSize('job ring capacity', capacity);
    this._capacity = capacity;
    this._buffer = null; // the buffer regions come from; null until the first alloc or after retire()
    this._live = [];     // regions of _buffer not yet reclaimed, in allocation order
    this._head = 0;      // end of the newest region of _buffer
  }

  /** Size in bytes of the buffer regions come from (grows, never shrinks). */
  get capacity() {
    return this._capacity;
  }

  /**
   * A region of `size` contiguous bytes, in the current buffer or, when no free run of it fits,
   * in a new larger one (see the file header).
   * @param {number} size bytes, a positive integer
   * @returns {{buffer: SharedArrayBuffer, offset: number, size: number}} the region is
   *   buffer[offset, offset + size); its bytes hold whatever was there before.
   * @throws RangeError when size is not a positive integer or a buffer that large cannot be
   *   allocated (the message names the size).
   */
  alloc(size) {
    checkSize('ring region size', size);
    let offset = this._buffer ? this._place(size) : -1;
    if (offset < 0) {
      const capacity = this._buffer ? Math.max(2 * this._capacity, size) : Math.max(this._capacity, size);
      try {
        this._buffer = new SharedArrayBuffer(capacity);
      } catch (err) {
        throw new RangeError(`cannot allocate a ${capacity}-byte job ring for a ${size}-byte region: ${err.message}`, { cause: err });
      }
      this._capacity = capacity;
      this._live = [];
      offset = 0;
    }
    const region = { buffer: this._buffer, offset, size, freed: false };
    this._live.push(region);
    this._head = offset + size;
    return region;
  }

  /**
   * Gives a region back. A region of an older or retired buffer is only marked free.
   * @param {{buffer: SharedArrayBuffer, offset: number, size: number}} region from alloc()
   * @throws Error when the region was already freed.
   */
  free(region) {
    if (region.freed) throw new Error(`ring region [${region.offset}, +${region.size}) freed twice`);
    region.freed = true;
    if (region.buffer !== this._buffer) return;
    while (this._live.length > 0 && this._live[0].freed) this._live.shift();
    if (this._live.length === 0) this._head = 0;
  }

  /**
   * Stops allocating from `buffer` when it is the current buffer (a worker that may still write
   * into it is being terminated); the next alloc() starts a new buffer of the same capacity.
   * @param {SharedArrayBuffer} buffer
   */
  retire(buffer) {
    if (buffer !== this._buffer) return;
    this._buffer = null;
    this._live = [];
    this._head = 0;
  }

  // Offset of a free run of `size` bytes in the current buffer, or -1.
  _place(size) {
    if (this._live.length === 0) return size <= this._capacity ? 0 : -1;
    const tail = this._live[0].offset;
    if (tail < this._head) { // not wrapped: after the head, else before the tail
      if (this._capacity - this._head >= size) return this._head;
      return tail >= size ? 0 : -1;
    }
    return tail - this._head >= size ? this._head : -1;
  }
}

function checkSize(name, size) {
  if (!Number.isSafeInteger(size) || size < 1) {
    throw new RangeError(`${name} must be a positive integer of bytes, got ${typeof size === 'string' ? JSON.stringify(size) : size}`);
  }
}
