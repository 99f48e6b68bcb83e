// The npm package's API (docs/package.md), host-neutral: everything but how the engine and the
// workers are loaded, which index-node.mjs (Node: worker_threads, files on disk) and
// index-browser.mjs (browsers and bundlers: module Web Workers, fetched wasm) supply.
//
// One engine instance per thread, loaded once (init); the drop-in calls, verifyBatch and a
// validateBlock without a pool run in it. A pool (createPool) runs its own instance per worker.
import { createBatchVerifier } from '../../wasm/batch-verifier.mjs';
import { walkChecks } from '../../wasm/check-buffer.mjs';
import { createDropIn, isBytes, plainView } from '../../wasm/drop-in.mjs';
import { encodeSpentOutputs } from '../../wasm/spent-outputs.mjs';
import { validateBlocksInPool } from '../block-jobs.mjs';
import { CheckStream } from '../check-stream.mjs';

/** What a value is, for an error message: its type or class, a number or string as written. */
function describe(x) {
  if (x === null) return 'null';
  if (typeof x === 'number' || typeof x === 'boolean') return String(x);
  if (typeof x === 'string') return JSON.stringify(x.length > 40 ? `${x.slice(0, 40)}…` : x);
  if (typeof x !== 'object') return typeof x;
  if (x instanceof Uint8Array && !ArrayBuffer.isView(x)) return 'a Uint8Array look-alike that is no typed array (a Proxy, or an object made from its prototype)';
  return x.constructor?.name ?? 'object';
}

/** plainView(bytes), or a TypeError naming `what` when its ArrayBuffer is detached (transferred
 *  with postMessage or structuredClone), where V8 would say only "Cannot perform Construct on a
 *  detached ArrayBuffer". */
function viewOf(bytes, what) {
  try {
    return plainView(bytes);
  } catch (err) {
    throw new TypeError(`${what}: its ArrayBuffer is detached (transferred to a worker or by structuredClone): pass the bytes before transferring them`, { cause: err });
  }
}

/** Core's MAX_BLOCK_SERIALIZED_SIZE (consensus/consensus.h): the most bytes a block can have. */
const MAX_BLOCK_SERIALIZED_SIZE = 4000000;

/** The binary form's magic, "IBS1" (wasm/spent-outputs.mjs). */
const MAGIC = [0x49, 0x42, 0x53, 0x31];

/**
 * The spent outputs of a block in the engine's binary form (wasm/spent-outputs.mjs).
 * @param {Uint8Array|string|object|Array<object>} spent the binary form (bytes starting with
 *   "IBS1", passed as is), spent_outputs.json's text (a string, or its bytes: a Buffer read
 *   without an encoding) or parsed object ({spent_outputs: [...]}), or its array of {txid (hex,
 *   display order), vout, value (satoshis: integer number or bigint), script_pubkey (hex)}, one
 *   per non-coinbase input in block order
 * @returns {Uint8Array}
 * @throws TypeError naming `spentOutputs` for another type; SyntaxError naming it for text that
 *   is not JSON; encodeSpentOutputs' TypeError / RangeError naming the entry and field
 *   ("spent_outputs[2].vout: ...")
 */
export function spentOutputsBytes(spent) {
  if (isBytes(spent)) {
    spent = viewOf(spent, 'spentOutputs');
    if (MAGIC.every((b, k) => spent[k] === b)) return spent;
    // JSON text's first character after any whitespace and a UTF-8 BOM (ef bb bf).
    let k = spent[0] === 0xef && spent[1] === 0xbb && spent[2] === 0xbf ? 3 : 0;
    while (k < spent.length && (spent[k] === 0x20 || spent[k] === 0x09 || spent[k] === 0x0a || spent[k] === 0x0d)) k++;
    if (spent[k] !== 0x7b && spent[k] !== 0x5b) return spent; // not '{' or '[': the engine names what is wrong with it
    spent = new TextDecoder().decode(spent);
  }
  if (spent instanceof ArrayBuffer || (typeof SharedArrayBuffer === 'function' && spent instanceof SharedArrayBuffer)) {
    throw new TypeError('spentOutputs must be a Uint8Array, not an ArrayBuffer (wrap it: new Uint8Array(buffer))');
  }
  if (ArrayBuffer.isView(spent)) {
    throw new TypeError(`spentOutputs must be a Uint8Array, got ${describe(spent)} (wrap its bytes: new Uint8Array(view.buffer, view.byteOffset, view.byteLength))`);
  }
  if (typeof spent === 'string') {
    try {
      spent = JSON.parse(spent.replace(/^\uFEFF/, ''));
    } catch (err) {
      throw new SyntaxError(`not JSON (spent_outputs.json's text): ${err.message}`, { cause: err });
    }
  }
  if (Array.isArray(spent)) return encodeSpentOutputs({ spent_outputs: spent });
  if (spent !== null && typeof spent === 'object') return encodeSpentOutputs(spent);
  throw new TypeError(`spentOutputs must be a Uint8Array (the binary form, or JSON text's bytes), spent_outputs.json's text or object, or its array, got ${describe(spent)}`);
}

/** Throws a TypeError naming any key of `options` that is not in `known` (a misspelt option
 *  would otherwise be ignored). */
export function checkKeys(what, options, known) {
  for (const key of Object.keys(options)) {
    // The wasm location's option is the host's own: say so rather than "unknown".
    const other = { wasmDir: 'wasmUrl', wasmUrl: 'wasmDir' }[key];
    if (other && known.includes(other)) {
      throw new TypeError(`${what}: ${key} is the ${key === 'wasmDir' ? 'Node' : 'browser'} entry's option; here give ${other} (${other === 'wasmDir' ? 'a folder path' : 'the URL of the .wasm'})`);
    }
    if (!known.includes(key)) throw new TypeError(`${what}: unknown option ${JSON.stringify(key)} (known: ${known.join(', ')})`);
  }
}

const BLOCK_OPTIONS = ['height', 'hash', 'medianTimePast', 'pool'];

/** validateBlock's arguments checked and put in the engine's form; throws naming the field. */
function blockJob(block, spentOutputs, options) {
  if (!isBytes(block)) throw new TypeError(`blockBytes must be a Uint8Array (the serialized block), got ${describe(block)}`);
  block = viewOf(block, 'blockBytes');
  if (block.length > MAX_BLOCK_SERIALIZED_SIZE) {
    throw new RangeError(`blockBytes: ${block.length} bytes, over MAX_BLOCK_SERIALIZED_SIZE (${MAX_BLOCK_SERIALIZED_SIZE}): no valid block is that large`);
  }
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`options must be an object with the block's height ({height: 840000}), got ${describe(options)}`);
  }
  checkKeys('validateBlock', options, BLOCK_OPTIONS);
  const { height, hash = '', medianTimePast } = options;
  if (!Number.isInteger(height) || height < 0 || height > 2147483647) {
    throw new RangeError(`options.height must be the block's height, an integer in 0..2147483647, got ${describe(height)}`);
  }
  if (typeof hash !== 'string' || !/^(?:[0-9a-fA-F]{64})?$/.test(hash)) {
    throw new TypeError(`options.hash must be the block hash as 64 hex digits (display order), got ${describe(hash)}`);
  }
  if (medianTimePast !== undefined && (!Number.isInteger(medianTimePast) || medianTimePast < 0 || medianTimePast > 0xffffffff)) {
    throw new RangeError(`options.medianTimePast must be an integer number of seconds in 0..4294967295 (a header's time is 32 bits), got ${describe(medianTimePast)}`);
  }
  let spent;
  try {
    spent = spentOutputsBytes(spentOutputs);
  } catch (err) {
    // The package's own errors get the height; anything else (the caller's getter throwing a
    // string, a frozen error) passes through as it was thrown.
    if (!(err instanceof Error) || !Object.isExtensible(err) || !['TypeError', 'RangeError', 'SyntaxError', 'Error'].includes(err.constructor?.name)) throw err;
    throw new err.constructor(`spentOutputs of the block at height ${height}: ${err.message}`, { cause: err });
  }
  return {
    block, spentOutputs: spent, hash: hash.toLowerCase(), height,
    options: medianTimePast === undefined ? undefined : { medianTimePast },
  };
}

/** The package's result: the engine's, with `valid` on every object: true or false when the
 *  block was judged (a block Core rejects before connecting any input is a failure object with
 *  a `stage`: invalid), null when it could not be judged (ok false without a stage). */
function judged(r) {
  if (r.ok) return r;
  return { ...r, valid: r.stage ? false : null };
}

/**
 * This thread's engine, loaded once, and init()'s rules for it (docs/package.md "init"): until a
 * load succeeds each init() replaces the options of the next load (a failed load leaves none
 * behind, so a later call takes the defaults); while a load is in progress, or once one has
 * succeeded, asking for another variant or location is an error.
 * @param {{key: 'wasmDir'|'wasmUrl', checkLocation: (value: unknown, what: string) => void, where: (value:
 *   string|URL|undefined) => string, defaultVariant: () => string, load: (next: object) =>
 *   Promise<object>, loadSync?: (next: object) => object, notLoaded?: string}} host key: the
 *   location option's name; checkLocation: throws a TypeError for a bad value; where: a value
 *   made comparable (the default's when undefined); load / loadSync: the engine for {variant,
 *   [key]}; notLoaded: the Error a synchronous call gets before init() where there is no loadSync
 * @returns {{engine: () => object, engineAsync: () => Promise<object>, current: () => object|null,
 *   init: (options: object) => void, settings: () => object, checkLoadOptions: (what: string,
 *   options: object) => void}} current: the engine once loaded,
 *   else null (nothing is loaded); init: checks and records `options` (throws TypeError / Error
 *   as described), the caller then awaits engineAsync(); settings: the options of the next load;
 *   checkLoadOptions: the location and variant checks init() makes, for createPool() too
 */
export function engineSlot({ key, checkLocation, where, defaultVariant, load, loadSync, notLoaded }) {
  /** The load options init() and createPool() share, checked alike: throws a TypeError naming
   *  `what` and the option. */
  const checkLoadOptions = (what, options) => {
    if (options[key] !== undefined) checkLocation(options[key], what);
    if (options.variant !== undefined && typeof options.variant !== 'string') throw new TypeError(`${what}: variant must be 'simd', 'scalar' or 'wide', got ${JSON.stringify(options.variant) ?? typeof options.variant}`);
  };
  let settings = {};   // the options of the next load (init's, or none)
  let loaded = null;   // {variant, [key]} the engine was loaded with
  let inFlight = null; // {variant, [key]} of the load in progress
  let engine = null;
  let loading = null;
  const next = () => ({ variant: settings.variant ?? defaultVariant(), [key]: settings[key] });
  const origin = (s) => `${s.variant} from ${where(s[key])}`;
  const differs = (options, s) => (options.variant !== undefined && options.variant !== s.variant)
    || (options[key] !== undefined && where(options[key]) !== where(s[key]));
  return {
    settings: () => settings,
    current: () => engine,
    engine() {
      if (engine) return engine;
      if (!loadSync) throw new Error(notLoaded);
      const n = next();
      engine = loadSync(n);
      loaded = n;
      return engine;
    },
    engineAsync() {
      if (engine) return Promise.resolve(engine);
      if (!loading) {
        const n = next();
        inFlight = n;
        loading = load(n).then((e) => {
          loaded ??= n;
          return (engine ??= e); // a synchronous load may have come first
        }, (err) => {
          loading = null;
          settings = {};
          throw err;
        });
      }
      return loading;
    },
    checkLoadOptions,
    init(options) {
      if (options === null || typeof options !== 'object') throw new TypeError(`init options must be an object such as {variant: 'simd'}, got ${options === null ? 'null' : typeof options}`);
      checkKeys('init', options, ['variant', key]);
      checkLoadOptions('init', options);
      if (engine) {
        if (differs(options, loaded)) throw new Error(`init: this thread's engine is already loaded (${origin(loaded)}); it cannot change`);
      } else if (loading) {
        if (differs(options, inFlight)) throw new Error(`init: a load of ${origin(inFlight)} is in progress; await it before asking for another`);
      } else {
        settings = { variant: options.variant, [key]: options[key] };
      }
    },
  };
}

/**
 * The package's functions over one thread's engine and a pool factory.
 * @param {{slot: object, startPool: (options: object) => import('../verify-pool.mjs').VerifyPool,
 *   poolOptions: string[]}} host slot: this thread's engine (engineSlot); startPool: a started
 *   VerifyPool for createPool's options; poolOptions: the option names createPool takes there
 * @returns {object} init, verify, verifySchnorr, isPoint, verifyBatch, validateBlock, createPool
 *   (documented in docs/package.md and index.d.ts)
 */
export function packageApi(host) {
  let dropIn = null;
  let verifier = null;
  const pools = new WeakMap(); // each pool createPool returned -> its VerifyPool
  const drop = () => (dropIn ??= createDropIn(host.slot.engine()));

  /** Checks `checks` (packed records) and verifies them in this thread's engine: verdict bytes. */
  function verifyBatch(checks) {
    if (!isBytes(checks)) throw new TypeError(`checks must be a Uint8Array of packed check records, got ${describe(checks)}`);
    checks = viewOf(checks, 'checks');
    const { count } = walkChecks(checks); // throws naming the record and byte offset
    verifier ??= createBatchVerifier(host.slot.engine());
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
      return validateBlocksInPool(pools.get(pool), [job]).then((r) => judged(r[0]));
    }
    // A loaded engine validates now, before this returns. Otherwise the caller may reuse its
    // buffers once this returns: the engine, loaded asynchronously, reads copies taken now (the
    // pool copies at the call too).
    const loaded = host.slot.current();
    if (loaded) return judged(loaded.validateBlock(job.block, job.spentOutputs, job.hash, job.height, job.options));
    const block = job.block.slice();
    const spent = job.spentOutputs.slice();
    const engine = await host.slot.engineAsync();
    return judged(engine.validateBlock(block, spent, job.hash, job.height, job.options));
  }

  /** A pool of workers, each with its own engine (createPool in docs/package.md). */
  function createPool(options = {}) {
    if (options === null || typeof options !== 'object') throw new TypeError(`createPool options must be an object such as {workers: 4}, got ${describe(options)}`);
    checkKeys('createPool', options, host.poolOptions);
    host.slot.checkLoadOptions('createPool', options);
    const inner = host.startPool(options);
    let stream = null;
    let closed = false;
    const pool = {
      get size() { return inner.size; },
      get replacements() { return inner.replacements; },
      ready: () => (closed ? Promise.reject(new Error('verify pool closed')) : inner.ready().then(() => undefined)),
      verify: (checks) => {
        if (!isBytes(checks)) return Promise.reject(new TypeError(`checks must be a Uint8Array of packed check records, got ${describe(checks)}`));
        try {
          return inner.verify(viewOf(checks, 'checks'));
        } catch (err) {
          return Promise.reject(err);
        }
      },
      submit: (check) => {
        if (closed) return Promise.reject(new Error('verify pool closed'));
        try {
          return (stream ??= new CheckStream(inner)).submit(isBytes(check) ? viewOf(check, 'check') : check);
        } catch (err) {
          return Promise.reject(err);
        }
      },
      flush: () => (stream ? stream.flush() : Promise.resolve()),
      validateBlock: (blockBytes, spentOutputs, blockOptions) => {
        try {
          if (blockOptions?.pool !== undefined) throw new TypeError('pool.validateBlock: options.pool is not taken here (this pool runs the block); leave it out');
          return validateBlocksInPool(inner, [blockJob(blockBytes, spentOutputs, blockOptions)]).then((r) => judged(r[0]));
        } catch (err) {
          return Promise.reject(err);
        }
      },
      close: async () => {
        closed = true;
        // The open batch of submit() goes out, and the pool closes at once behind it: whatever
        // has no verdict yet rejects with "verify pool closed", as verify and validateBlock do.
        const flushed = stream?.close();
        await inner.close();
        await flushed;
      },
    };
    pools.set(pool, inner);
    return pool;
  }

  return {
    /** Loads this thread's engine (engineSlot's rules), or gives the loaded one's description:
     *  its engineInfo(). Rejects with engineSlot.init's errors or the load's. */
    init: async (options = {}) => {
      host.slot.init(options);
      const engine = await host.slot.engineAsync();
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
