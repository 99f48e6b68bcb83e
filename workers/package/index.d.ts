// Types of the ibd-wasm package (workers/package/index-node.mjs and index-browser.mjs; the API
// is documented in docs/package.md). Checked by `tsc --noEmit` on an example in npm test
// (tests/package.test.mjs).

/** The wasm builds: 'wide' (wasm SIMD and wide arithmetic), 'simd' (wasm SIMD) and 'scalar' (hosts without SIMD). */
export type Variant = 'simd' | 'scalar' | 'wide';
export declare const VARIANTS: readonly Variant[];

/** Whether this host runs wasm SIMD (then the 'simd' build is the default, or 'wide' where wideArithmeticSupported()). */
export declare function simdSupported(): boolean;
/** Whether this host runs wasm SIMD and the wide-arithmetic proposal (the 'wide' build: Firefox >= 155). */
export declare function wideArithmeticSupported(): boolean;

/** What init() resolves to: the loaded engine's description. */
export interface EngineInfo {
  variant: Variant;
  [key: string]: unknown;
}

export interface InitOptions {
  /** Default: 'wide' where the host runs wasm wide arithmetic, else 'simd' where it runs wasm SIMD, else 'scalar'. */
  variant?: Variant;
  /** Node: the folder holding ibd-<variant>.js and .wasm (default IBD_WASM_DIR, else the package's). */
  wasmDir?: string;
  /** Browsers: the URL of ibd-<variant>.wasm (default the package's own file, as bundled). */
  wasmUrl?: string | URL;
}

/** Loads this thread's engine once. Required before the synchronous calls in a browser. */
export declare function init(options?: InitOptions): Promise<EngineInfo>;

/** tiny-secp256k1's `verify`: ECDSA over a 32-byte hash, a 33- or 65-byte key and a 64-byte
 *  compact signature (r || s); `strict` rejects a high S. Throws TypeError("Expected Hash" |
 *  "Expected Point" | "Expected Signature") as tiny-secp256k1 does. */
export declare function verify(h: Uint8Array, Q: Uint8Array, signature: Uint8Array, strict?: boolean): boolean;
/** tiny-secp256k1's `verifySchnorr`: BIP340 over a 32-byte message, a 32-byte x-only key and a
 *  64-byte signature. Same errors as verify. */
export declare function verifySchnorr(h: Uint8Array, Q: Uint8Array, signature: Uint8Array): boolean;
/** tiny-secp256k1's `isPoint`: 33 or 65 bytes that parse as a public key. */
export declare function isPoint(p: Uint8Array): boolean;

/** Check record types and verdict bytes of the packed check format. */
export declare const CheckType: { readonly ECDSA: 1; readonly SCHNORR: 2 };
export declare const Verdict: { readonly INVALID: 0; readonly VALID: 1 };

/** One packed check record: type u8 | pubkey_len u8 | sig_len u16 LE | msg32 | pubkey | sig
 *  (ECDSA: a DER signature; Schnorr: a 32-byte x-only key and a 64-byte signature). */
export declare function encodeCheck(check: { type: 1 | 2; msg32: Uint8Array; pubkey: Uint8Array; sig: Uint8Array }): Uint8Array;

/** Packed check records in, one verdict byte per record out (1 valid, 0 invalid), in this
 *  thread's engine. Throws naming the record and byte offset of a malformed record. */
export declare function verifyBatch(checks: Uint8Array): Uint8Array;

/** A spent output, spent_outputs.json's shape. */
export interface SpentOutput {
  /** The prevout's txid, 64 hex digits in display order. */
  txid: string;
  vout: number;
  /** Satoshis. */
  value: number | bigint;
  /** Hex. */
  script_pubkey: string;
}

/** The outputs a block spends, one per non-coinbase input in block order: the engine's binary
 *  form ("IBS1"), spent_outputs.json's text or object, or its array. */
export type SpentOutputs = Uint8Array | string | { spent_outputs: SpentOutput[] } | SpentOutput[];

export interface ValidateBlockOptions {
  /** The block's mainnet height: selects the consensus rules (required). */
  height: number;
  /** The expected block hash, 64 hex digits (display order); checked when given. */
  hash?: string;
  /** The median time past of the 11 blocks before it, seconds: enables BIP113 and time-too-old. */
  medianTimePast?: number;
  /** Run in this pool's workers (a large block split into ranges over them). */
  pool?: Pool;
}

export interface InputFailure {
  tx: number;
  input: number;
  /** The script type of the input, e.g. 'p2wpkh'. */
  type: string;
  /** Bitcoin Core's ScriptError name, e.g. 'EVAL_FALSE'. */
  scriptError: string;
}

export interface BlockTimes {
  /** Milliseconds in the engine, by stage. */
  parseMs: number;
  sighashMs: number;
  scriptMs: number;
  verifyMs: number;
  [key: string]: unknown;
}

/** A block judged: Bitcoin Core's verdict, each input's, and what it took. */
export interface BlockResult {
  ok: true;
  hash: string;
  txCount: number;
  /** Non-coinbase inputs. */
  inputs: number;
  /** The block verdict: no rule and no script failed. */
  valid: boolean;
  /** Core's reject reason ('' when valid), e.g. 'bad-blk-sigops', 'mandatory-script-verify-flag-failed'. */
  rejectReason: string;
  stage: string;
  /** The first failing input's ScriptError name when the verdict is a script failure. */
  scriptError: string;
  /** The verdict's message, naming the tx, input or output and byte offset ('' when valid). */
  error: string;
  txIndex: number;
  inputIndex: number;
  outputIndex: number;
  byteOffset: number;
  /** One byte per non-coinbase input, block order: 1 its script passed, 0 it failed. */
  inputVerdicts: Uint8Array;
  /** Every input whose script failed, block order. */
  inputFailures: InputFailure[];
  failedInputs: number;
  /** Satoshis (-1 when an amount rule failed first). */
  fee: number;
  subsidy: number;
  sigopCost: number;
  /** The rules Core applies that this verdict does not cover. */
  notChecked: Array<{ rule: string; reason: string }>;
  /** Inputs, evaluated inputs, checks and script bytes by script type ('p2wpkh', 'p2tr-keypath', ...). */
  coverage: Record<string, { inputs: number; evaluated: number; checks: number; scriptBytes: number }>;
  /** Signature checks performed, by kind. */
  ecdsa: number;
  schnorr: number;
  /** The final checks (packed records), their (tx, input) origins and verdicts. A valid block's
   *  verdicts may hold 0s: CHECKMULTISIG's trial checks, which valid scripts tolerate. */
  checks: Uint8Array;
  origins: Uint32Array;
  verdicts: Uint8Array;
  times: BlockTimes;
  [key: string]: unknown;
}

/** A block that Core rejects before connecting any input (`valid` false, `stage` and
 *  `rejectReason` set, e.g. 'bad-cb-height', 'high-hash'), or one that could not be judged
 *  (`valid` null: it does not parse, the binary spent outputs are malformed, a worker kept dying
 *  on it); `error` names what and where. */
export interface BlockFailure {
  ok: false;
  valid: false | null;
  error: string;
  reason: string;
  rejectReason: string;
  stage: string;
  blockHash: string;
  txIndex: number;
  inputIndex: number;
  outputIndex: number;
  byteOffset: number;
  workerFault?: boolean;
  [key: string]: unknown;
}

/** Validates one block: in this thread's engine, or in `options.pool`'s workers. Rejects with a
 *  TypeError / RangeError naming a wrong argument; a bad block resolves to a BlockFailure. */
export declare function validateBlock(blockBytes: Uint8Array, spentOutputs: SpentOutputs, options: ValidateBlockOptions): Promise<BlockResult | BlockFailure>;

export interface PoolOptions {
  /** Workers, 1..256 (default: the host's cores). */
  workers?: number;
  /** How batches travel: 'shared' (a SharedArrayBuffer; a page must be cross-origin isolated),
   *  'transfer', or 'auto' (default: shared where possible). */
  transport?: 'auto' | 'shared' | 'transfer';
  variant?: Variant;
  /** Node: as InitOptions.wasmDir. */
  wasmDir?: string;
  /** Browsers: as InitOptions.wasmUrl. */
  wasmUrl?: string | URL;
  /** Milliseconds a batch or block may take (default 60,000) before its worker is replaced and
   *  the work retried, plus recordTimeoutMs (default 2) per record, or per 40 bytes of spent
   *  outputs and 250 bytes of block. */
  batchTimeoutMs?: number;
  recordTimeoutMs?: number;
  /** Once batches or blocks have completed, a first attempt's deadline is max(minStallMs,
   *  stallFactor x its expected time from the last 16 of its kind), never more than the full
   *  one above; a retry gets the full one (defaults 20 and 10,000 ms; stallFactor 0: off). */
  stallFactor?: number;
  minStallMs?: number;
  /** Tries per batch, and starts in a row of a worker that exits or stalls before it is ready (default 3). */
  maxAttempts?: number;
  /** Milliseconds a worker may take to load its engine (default 60,000) before it is started again. */
  loadTimeoutMs?: number;
}

export interface Pool {
  readonly size: number;
  /** Workers started to replace dead ones. */
  readonly replacements: number;
  /** Resolves when every worker has loaded its engine. */
  ready(): Promise<void>;
  /** Packed check records in, verdict bytes out, spread over the workers. */
  verify(checks: Uint8Array): Promise<Uint8Array>;
  /** One packed check record; its verdict once its batch (filled, or 20 ms old) is verified. */
  submit(check: Uint8Array): Promise<0 | 1>;
  /** Sends the open batch of submit() now. */
  flush(): Promise<void>;
  validateBlock(blockBytes: Uint8Array, spentOutputs: SpentOutputs, options: Omit<ValidateBlockOptions, 'pool'>): Promise<BlockResult | BlockFailure>;
  /** Stops the workers at once: every pending call (a record submit() holds included), and every
   *  later call, rejects with 'verify pool closed'. */
  close(): Promise<void>;
}

export declare function createPool(options?: PoolOptions): Pool;

/** spent_outputs.json (text or object) in the engine's binary form. */
export declare function encodeSpentOutputs(doc: string | { spent_outputs: SpentOutput[] }): Uint8Array;
