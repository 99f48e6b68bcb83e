// The npm package's API (docs/package.md), host-neutral: everything but how the engine and the
// workers are loaded, which index-node.mjs (Node: worker_threads, files on disk) and
// index-browser.mjs (browsers and bundlers: module Web Workers, fetched wasm) supply.
//
// One engine instance per thread, loaded once (init); the drop-in calls, verifyBatch and a
// validateBlock without a pool run in it. A pool (createPool) runs its own instance per worker.
import { createBatchVerifier } from '../../wasm/batch-verifier.mjs';
import { walkChecks } from '../../wasm/check-buffer.mjs';
import { createDropIn } from '../../wasm/drop-in.mjs';
import { encodeSpentOutputs } from '../../wasm/spent-outputs.mjs';
import { validateBlocksInPool } from '../block-jobs.mjs';
import { CheckStream } from '../check-stream.mjs';

/** What a value is, for an error message: its type or class, a number or string as written. */
function describe(x) {
  if (x === null) return 'null';
  if (typeof x === 'number' || typeof x === 'boolean') return String(x);
  if (typeof x === 'string') return JSON.stringify(x.length > 40 ? `${x.slice(0, 40)}…` : x);
  if (typeof x !== 'object') return typeof x;
  return x.constructor?.name ?? 'object';
}

/**
 * The spent outputs of a block in the engine's binary form (wasm/spent-outputs.mjs).
 * @param {Uint8Array|string|object|Array<object>} spent the binary form ("IBS1", passed as is),
 *   spent_outputs.json's text or parsed object ({spent_outputs: [...]}), or its array of
 *   {txid (hex, display order), vout, value (satoshis: integer number or bigint), script_pubkey
 *   (hex)}, one per non-coinbase input in block order
 * @returns {Uint8Array}
 * @throws TypeError naming `spentOutputs` for another type; encodeSpentOutputs' TypeError /
 *   RangeError naming the entry and field ("spent_outputs[2].vout: ...")
 */
export function spentOutputsBytes(spent) {
  if (spent instanceof Uint8Array) return spent;
  if (Array.isArray(spent)) return encodeSpentOutputs({ spent_outputs: spent });
  if (typeof spent === 'string' || (spent !== null && typeof spent === 'object')) return encodeSpentOutputs(spent);
  throw new TypeError(`spentOutputs must be a Uint8Array (the binary form), spent_outputs.json's text or object, or its array, got ${describe(spent)}`);
}

/** validateBlock's arguments checked and put in the engine's form; throws naming the field. */
function blockJob(block, spentOutputs, options) {
  if (!(block instanceof Uint8Array)) throw new TypeError(`blockBytes must be a Uint8Array (the serialized block), got ${describe(block)}`);
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`options must be an object with the block's height ({height: 840000}), got ${describe(options)}`);
  }
  const { height, hash = '', medianTimePast } = options;
  if (!Number.isInteger(height) || height < 0 || height > 2147483647) {
    throw new RangeError(`options.height must be the block's height, an integer in 0..2147483647, got ${describe(height)}`);
  }
  if (typeof hash !== 'string' || !/^(?:[0-9a-fA-F]{64})?$/.test(hash)) {
    throw new TypeError(`options.hash must be the block hash as 64 hex digits (display order), got ${describe(hash)}`);
  }
  if (medianTimePast !== undefined && (!Number.isInteger(medianTimePast) || medianTimePast < 0)) {
    throw new RangeError(`options.medianTimePast must be an integer number of seconds >= 0, got ${describe(medianTimePast)}`);
  }
  return {
    block, spentOutputs: spentOutputsBytes(spentOutputs), hash: hash.toLowerCase(), height,
    options: medianTimePast === undefined ? undefined : { medianTimePast },
  };
}

/**
 * The package's functions over one thread's engine and a pool factory.
 * @param {{engine: () => object, engineAsync: () => Promise<object>, startPool: (options: object)
 *   => import('../verify-pool.mjs').VerifyPool}} host engine: this thread's engine, loaded
 *   synchronously if needed, or throwing when the host cannot (a browser before init());
 *   engineAsync: it, loaded if needed; startPool: a started VerifyPool for createPool's options
 * @returns {object} init, verify, verifySchnorr, isPoint, verifyBatch, validateBlock, createPool
 *   (documented in docs/package.md and index.d.ts)
 */
export function packageApi(host) {
  let dropIn = null;
  let verifier = null;
  const pools = new WeakMap(); // each pool createPool returned -> its VerifyPool
  const drop = () => (dropIn ??= createDropIn(host.engine()));

  /** Checks `checks` (packed records) and verifies them in this thread's engine: verdict bytes. */
  function verifyBatch(checks) {
    if (!(checks instanceof Uint8Array)) throw new TypeError(`checks must be a Uint8Array of packed check records, got ${describe(checks)}`);
    const { count } = walkChecks(checks); // throws naming the record and byte offset
    verifier ??= createBatchVerifier(host.engine());
    const { verdicts, error, errorOffset, errorRecord } = verifier.verify(checks, count);
    if (error !== 0) throw new Error(`check record ${errorRecord} at byte ${errorOffset}: malformed (verifyBatch error ${error})`);
    return verdicts;
  }

  /** One block in this thread's engine, or in `pool`'s workers (split into ranges there). */
  async function validateBlock(blockBytes, spentOutputs, options) {
    const job = blockJob(blockBytes, spentOutputs, options);
    const { pool } = options;
    if (pool !== undefined) {
      if (!pools.has(pool)) throw new TypeError(`options.pool must be a pool from createPool(), got ${describe(pool)}`);
      return validateBlocksInPool(pools.get(pool), [job]).then((r) => r[0]);
    }
    const engine = await host.engineAsync();
    return engine.validateBlock(job.block, job.spentOutputs, job.hash, job.height, job.options);
  }

  /** A pool of workers, each with its own engine (createPool in docs/package.md). */
  function createPool(options = {}) {
    if (options === null || typeof options !== 'object') throw new TypeError(`createPool options must be an object such as {workers: 4}, got ${describe(options)}`);
    const inner = host.startPool(options);
    let stream = null;
    const pool = {
      get size() { return inner.size; },
      get replacements() { return inner.replacements; },
      ready: () => inner.ready().then(() => undefined),
      verify: (checks) => {
        if (!(checks instanceof Uint8Array)) return Promise.reject(new TypeError(`checks must be a Uint8Array of packed check records, got ${describe(checks)}`));
        return inner.verify(checks);
      },
      submit: (check) => (stream ??= new CheckStream(inner)).submit(check),
      flush: () => (stream ? stream.flush() : Promise.resolve()),
      validateBlock: (blockBytes, spentOutputs, blockOptions) => {
        try {
          return validateBlocksInPool(inner, [blockJob(blockBytes, spentOutputs, blockOptions)]).then((r) => r[0]);
        } catch (err) {
          return Promise.reject(err);
        }
      },
      close: async () => {
        if (stream) await stream.close();
        await inner.close();
      },
    };
    pools.set(pool, inner);
    return pool;
  }

  return {
    init: async () => {
      const engine = await host.engineAsync();
      return { ...engine.engineInfo() };
    },
    verify: (h, Q, signature, strict) => drop().verify(h, Q, signature, strict),
    verifySchnorr: (h, Q, signature) => drop().verifySchnorr(h, Q, signature),
    isPoint: (p) => drop().isPoint(p),
    verifyBatch,
    validateBlock,
    createPool,
  };
}
