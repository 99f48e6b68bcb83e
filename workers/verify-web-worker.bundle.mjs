// \0rolldown/runtime.js
var __defProp = Object.defineProperty;
var __esmMin = (fn, res, err) => () => {
	if (err) throw err[0];
	try {
		return fn && (res = fn(fn = 0)), res;
	} catch (e) {
		throw err = [e], e;
	}
};
var __exportAll = (all, flags) => {
	let target = Object.setPrototypeOf({}, null);
	for (var name in all) __defProp(target, name, {
		get: all[name],
		enumerable: true
	});
	if (!(flags & 1)) __defProp(target, Symbol.toStringTag, { value: "Module" });
	return flags & 2 ? target : Object.preventExtensions(target);
};
// wasm/variants.mjs
/**
* Checks a variant name before a loader touches the build.
* @param {string} variant
* @throws Error naming the variant and the known ones when it is not in VARIANTS.
*/
function checkVariant(variant) {
	if (!VARIANTS.includes(variant)) throw new Error(`unknown wasm variant "${variant}" (expected one of: ${VARIANTS.join(", ")})`);
}
var VARIANTS;
var init_variants = __esmMin((() => {
	VARIANTS = Object.freeze(["simd", "scalar"]);
}));
// wasm/engine-web.mjs
var engine_web_exports = /* @__PURE__ */ __exportAll({
	loadWebEngine: () => loadWebEngine,
	simdSupported: () => simdSupported
});
/**
* Whether this engine runs wasm SIMD, i.e. whether the 'simd' variant can load (otherwise use
* 'scalar': Safari < 16.4).
* @returns {boolean}
*/
function simdSupported() {
	return WebAssembly.validate(SIMD_PROBE);
}
/**
* Instantiates the engine's wasm module for `variant`.
* @param {'simd'|'scalar'} [variant='simd']
* @param {{baseUrl?: URL|string, wasmResponse?: Promise<Response>, wasmUrl?: URL|string,
*   importGlue?: () => Promise<{default: Function}>}} [options] baseUrl: folder URL holding ibd-<variant>.mjs and .wasm
*   (default: this file's folder: web/server.mjs serves the wasm build's modules under /wasm/
*   beside this loader); a relative
*   string is resolved against the document's (or worker's) location.
*   wasmResponse: the fetch of <baseUrl>ibd-<variant>.wasm, already started by the caller (a
*   verify worker starts it, and the glue's import, before its own imports have loaded); its
*   network errors are reported as this function's own. wasmUrl: the .wasm file's URL instead
*   of <baseUrl>ibd-<variant>.wasm (resolved against baseUrl); importGlue: imports the glue
*   module instead of import(<baseUrl>ibd-<variant>.mjs), for a caller whose bundler must see
*   the import written out (the package, workers/package/).
* @returns {Promise<object>} the Emscripten module, same surface as engine.mjs loadEngine:
*   BlockValidation, verifyBatch, engineInfo, _malloc, _free, HEAPU8 (wasm/API.md).
* @throws (rejects) Error naming the variant when it is unknown, or naming the URL with the
*   HTTP status, network error, import error or WebAssembly compile error.
*/
async function loadWebEngine(variant = "simd", { baseUrl = new URL(
	/* @vite-ignore */
	"./",
	import.meta.url
), wasmResponse, wasmUrl: wasmAt, importGlue } = {}) {
	checkVariant(variant);
	const base = new URL(baseUrl, globalThis.location?.href);
	const wasmUrl = new URL(wasmAt ?? `ibd-${variant}.wasm`, base).href;
	const glueUrl = importGlue ? `the ${variant} glue module` : new URL(`ibd-${variant}.mjs`, base).href;
	const glue = (importGlue ? importGlue() : import(glueUrl)).then((m) => ({ m }), (err) => ({ err }));
	let response;
	try {
		response = await (wasmResponse ?? fetch(wasmUrl));
	} catch (err) {
		throw new Error(`cannot fetch ${wasmUrl}: ${err.message}`, { cause: err });
	}
	if (!response.ok) throw new Error(`cannot fetch ${wasmUrl}: HTTP ${response.status} ${response.statusText}`.trimEnd());
	const module = await compileResponse(response, wasmUrl);
	const imported = await glue;
	if (imported.err) throw new Error(`cannot import ${glueUrl}: ${imported.err.message}`, { cause: imported.err });
	const factory = imported.m.default;
	if (typeof factory !== "function") throw new Error(`${glueUrl} does not export an Emscripten factory`);
	let instantiateFailed;
	const failed = new Promise((_, reject) => {
		instantiateFailed = reject;
	});
	try {
		return await Promise.race([failed, factory({ instantiateWasm(imports, done) {
			WebAssembly.instantiate(module, imports).then((instance) => done(instance, module), instantiateFailed);
			return {};
		} })]);
	} catch (err) {
		throw new Error(`cannot instantiate ${wasmUrl}: ${err?.message ?? err}`, { cause: err });
	}
}
/** The fetched module compiled: streamed when the browser can and the response says
*  application/wasm (compileStreaming requires it), else from its bytes. Rejects with an Error
*  naming `url` when the body cannot be read or is not valid wasm. */
async function compileResponse(response, url) {
	const type = response.headers.get("content-type") ?? "";
	try {
		if (typeof WebAssembly.compileStreaming === "function" && type.split(";")[0].trim() === "application/wasm") return await WebAssembly.compileStreaming(response);
		return await WebAssembly.compile(await response.arrayBuffer());
	} catch (err) {
		throw new Error(`cannot compile ${url}: ${err?.message ?? err}`, { cause: err });
	}
}
var SIMD_PROBE;
var init_engine_web = __esmMin((() => {
	init_variants();
	SIMD_PROBE = new Uint8Array([
		0,
		97,
		115,
		109,
		1,
		0,
		0,
		0,
		1,
		5,
		1,
		96,
		0,
		1,
		123,
		3,
		2,
		1,
		0,
		10,
		10,
		1,
		8,
		0,
		65,
		0,
		253,
		15,
		253,
		98,
		11
	]);
}));
// wasm/batch-verifier.mjs
/**
* Creates a verifier bound to one wasm module instance.
* @param {object} engine the module from loadEngine / loadWebEngine (verifyBatch, _malloc,
*   _free, HEAPU8)
* @param {{reserveBytes?: number}} [options] bytes of check-buffer region to allocate now (pool workers:
*   CHECK_BUFFER_RESERVE_BYTES, workers/batch-handler.mjs); by default it is allocated on first use.
* @returns {{verify: (checks: Uint8Array, count: number, out?: Uint8Array) => {verdicts:
*   Uint8Array, error: number, errorOffset: number, errorRecord: number}, heapBytes: () =>
*   number, dispose: () => void}}
*   verify copies `checks` (`count` packed records, native/verify/check_buffer.h) into the check-buffer region,
*   calls verifyBatch once and copies the `count` verdict bytes (1 valid, 0 invalid) into `out`
*   (default: a new Uint8Array), returned as `verdicts`, with verifyBatch's status (error 0 =
*   ok; otherwise batch_verify.h's code, the byte offset and index of the malformed record
*   within this batch). A batch larger than the region reallocates it (never shrinks; not
*   reached by pool workers). heapBytes: the wasm memory size in bytes.
*   verify throws Error when wasm memory cannot be allocated or `out` holds fewer than `count`
*   bytes, and rethrows any exception out of verifyBatch (a wasm trap); after such an exception
*   the instance is unusable (Emscripten does not restore its stack pointer: each trap leaks
*   stack), so every later verify throws too. Callers must discard the instance (the pool
*   replaces the worker).
* @throws Error when the reserved region cannot be allocated.
*/
function createBatchVerifier(engine, { reserveBytes = 0 } = {}) {
	let region = 0;
	let capacity = 0;
	let broken = null;
	function ensureCapacity(bytes) {
		if (bytes <= capacity) return;
		const size = Math.max(bytes, capacity * 2);
		if (region) engine._free(region);
		region = engine._malloc(size);
		capacity = region ? size : 0;
		if (!region) throw new Error(`wasm _malloc(${size}) failed: out of memory for the check-buffer region`);
	}
	if (reserveBytes > 0) ensureCapacity(reserveBytes);
	return {
		verify(checks, count, out = new Uint8Array(count)) {
			if (broken) throw new Error(`engine instance unusable after an earlier exception: ${broken}`);
			if (out.length < count) throw new Error(`verdict buffer of ${out.length} bytes for ${count} records`);
			ensureCapacity(checks.length + count);
			const checksPtr = region;
			const verdictsPtr = region + checks.length;
			engine.HEAPU8.set(checks, checksPtr);
			engine.HEAPU8.fill(0, verdictsPtr, verdictsPtr + count);
			let status;
			try {
				status = engine.verifyBatch(checksPtr, checks.length, count, verdictsPtr);
			} catch (err) {
				broken = String(err?.message ?? err);
				throw err;
			}
			out.set(engine.HEAPU8.subarray(verdictsPtr, verdictsPtr + count));
			return {
				verdicts: out,
				error: Number(status.error),
				errorOffset: Number(status.errorOffset),
				errorRecord: Number(status.errorRecord)
			};
		},
		heapBytes() {
			return engine.HEAPU8?.length ?? 0;
		},
		dispose() {
			if (region) engine._free(region);
			region = 0;
			capacity = 0;
		}
	};
}
var init_check_buffer = __esmMin((() => {
	Object.freeze({
		ECDSA: 1,
		SCHNORR: 2
	});
	Object.freeze({
		INVALID: 0,
		VALID: 1
	});
}));
// wasm/spent-outputs.mjs
/**
* Encodes a spent outputs list in the binary form (file header).
* @param {string|{spent_outputs: Array<{txid: string, vout: number, value: number|bigint,
*   script_pubkey: string}>}} doc spent_outputs.json's text or its parsed object (format:
*   ../shared/blocks-fixtures/README.md)
* @returns {Uint8Array}
* @throws TypeError / RangeError naming the entry and field ("spent_outputs[2].vout: ...") for a
*   JSON syntax error, a missing or mistyped field, a txid that is not 64 hex digits, a vout
*   outside 0..2^32-1, a value that is not an integer within int64 (a JSON number above 2^53
*   cannot be read exactly: an error, not a rounded amount), or a script that is not hex.
*   Values outside the money range are kept: they are the engine's
*   bad-txns-inputvalues-outofrange verdict.
*/
function encodeSpentOutputs(doc) {
	const list = (typeof doc === "string" ? JSON.parse(doc) : doc)?.spent_outputs;
	if (!Array.isArray(list)) throw new TypeError("spent outputs JSON: \"spent_outputs\" is missing or not an array");
	const fail = (i, field, problem) => {
		throw new RangeError(`spent_outputs[${i}].${field}: ${problem}`);
	};
	let size = 8;
	const entries = Array.from(list, (e, i) => {
		if (e === null || typeof e !== "object") throw new TypeError(`spent_outputs[${i}]: not an object`);
		if (typeof e.txid !== "string" || e.txid.length !== 64 || !HEX.test(e.txid)) fail(i, "txid", "not 64 hex digits");
		if (!Number.isInteger(e.vout) || e.vout < 0 || e.vout > 0xffffffff) fail(i, "vout", `not an integer in 0..4294967295: ${JSON.stringify(e.vout)}`);
		let value;
		if (typeof e.value === "bigint") value = e.value;
		else if (Number.isSafeInteger(e.value)) value = BigInt(e.value);
		else fail(i, "value", typeof e.value === "number" ? `not an exact integer: ${e.value}` : `not a number but ${typeof e.value === "string" ? "a string" : typeof e.value}: ${JSON.stringify(e.value)}`);
		if (value < -(2n ** 63n) || value >= 2n ** 63n) fail(i, "value", "outside int64");
		if (e.script_pubkey === void 0) fail(i, "script_pubkey", `missing${"scriptPubKey" in e ? " (the field is script_pubkey, not scriptPubKey)" : ""}`);
		if (typeof e.script_pubkey !== "string" || !HEX.test(e.script_pubkey)) fail(i, "script_pubkey", "not hex");
		const scriptLength = e.script_pubkey.length / 2;
		size += 44 + compactSizeLength(scriptLength) + scriptLength;
		return {
			txid: e.txid,
			vout: e.vout,
			value,
			script: e.script_pubkey,
			scriptLength
		};
	});
	const out = new Uint8Array(size);
	const view = new DataView(out.buffer);
	out.set(MAGIC, 0);
	view.setUint32(4, entries.length, true);
	let at = 8;
	for (const e of entries) {
		for (let k = 0; k < 32; k++) out[at + k] = parseInt(e.txid.slice(62 - 2 * k, 64 - 2 * k), 16);
		view.setUint32(at + 32, e.vout, true);
		view.setBigInt64(at + 36, e.value, true);
		at += 44;
		const n = e.scriptLength;
		if (n < 253) out[at++] = n;
		else if (n <= 65535) {
			out[at++] = 253;
			view.setUint16(at, n, true);
			at += 2;
		} else {
			out[at++] = 254;
			view.setUint32(at, n, true);
			at += 4;
		}
		for (let k = 0; k < n; k++) out[at + k] = parseInt(e.script.slice(2 * k, 2 * k + 2), 16);
		at += n;
	}
	return out;
}
var MAGIC, HEX, compactSizeLength;
var init_spent_outputs = __esmMin((() => {
	MAGIC = [
		73,
		66,
		83,
		49
	];
	HEX = /^(?:[0-9a-fA-F]{2})*$/;
	compactSizeLength = (n) => n < 253 ? 1 : n <= 65535 ? 3 : n <= 0xffffffff ? 5 : 9;
}));
// workers/batch-handler.mjs
var batch_handler_exports = /* @__PURE__ */ __exportAll({
	CHECK_BUFFER_RESERVE_BYTES: () => CHECK_BUFFER_RESERVE_BYTES,
	MAX_BATCH_RECORDS: () => MAX_BATCH_RECORDS,
	createBatchHandler: () => createBatchHandler,
	serveVerifyWorker: () => serveVerifyWorker$1
});
/**
* The worker side of the protocol (file header) over one verifier and its engine.
* @param {{verify: Function, heapBytes: Function}} verifier from createBatchVerifier
*   (wasm/batch-verifier.mjs)
* @param {object} [engine] the wasm module the verifier runs on (its validateBlock serves
*   validate messages, its ChainValidation chain messages; without them they get an error reply)
* @returns {{records: (msg: object) => Uint8Array, handle: (msg: object) => {reply: object,
*   transfer: ArrayBuffer[]}}} records: the batch's packed records (a view into the ring on the
*   shared path, no copy); handle: verifies one batch message and returns the reply to post and
*   the buffers to transfer with it; any exception (a wasm trap, a shared batch before any
*   ring) becomes the reply's `error`, after which the pool retires the worker.
*/
function createBatchHandler(verifier, engine) {
	let ring = null;
	const records = (msg) => {
		if (msg.checks) return new Uint8Array(msg.checks);
		if (msg.ring) ring = msg.ring;
		if (!ring) throw new Error(`batch ${msg.id}: shared batch but no ring buffer received yet`);
		return new Uint8Array(ring, msg.offset, msg.length);
	};
	return {
		records,
		handle(msg) {
			if (msg?.kind === "validate") return validateJobs(engine, verifier, msg);
			if (msg?.kind === "chain") return validateChain(engine, verifier, msg);
			if (msg?.kind === "encode") return encodeTexts(verifier, msg);
			try {
				const checks = records(msg);
				const shared = !msg.checks;
				const out = shared ? new Uint8Array(ring, msg.offset + msg.length, msg.count) : void 0;
				const { verdicts, ...status } = verifier.verify(checks, msg.count, out);
				const reply = {
					id: msg.id,
					status,
					heapBytes: verifier.heapBytes()
				};
				if (shared) return {
					reply,
					transfer: []
				};
				reply.verdicts = verdicts.buffer;
				return {
					reply,
					transfer: [verdicts.buffer]
				};
			} catch (err) {
				return {
					reply: {
						id: msg.id,
						error: String(err?.stack ?? err)
					},
					transfer: []
				};
			}
		}
	};
}
/** Answers a validate message (file header): each job through engine.validateBlock. */
function validateJobs(engine, verifier, msg) {
	try {
		if (typeof engine?.validateBlock !== "function") throw new Error("this worker has no engine with validateBlock");
		const transfer = [];
		const results = msg.jobs.map((j) => {
			const bytes = (b) => ArrayBuffer.isView(b) ? b : new Uint8Array(b);
			const r = engine.validateBlock(bytes(j.block), bytes(j.spentOutputs), j.hash, j.height, j.options);
			if (r.ok) for (const k of [
				"checks",
				"origins",
				"verdicts",
				"inputVerdicts"
			]) transfer.push(r[k].buffer);
			return r;
		});
		return {
			reply: {
				id: msg.id,
				results,
				heapBytes: verifier.heapBytes()
			},
			transfer
		};
	} catch (err) {
		return {
			reply: {
				id: msg.id,
				error: String(err?.stack ?? err)
			},
			transfer: []
		};
	}
}
/** Answers an encode message (file header): each spent outputs text in the engine's binary
*  form (JS, wasm/spent-outputs.mjs), or its error. */
function encodeTexts(verifier, msg) {
	const transfer = [];
	const results = msg.texts.map((text) => {
		try {
			const bytes = encodeSpentOutputs(text);
			transfer.push(bytes.buffer);
			return { bytes: bytes.buffer };
		} catch (err) {
			return { error: err.message };
		}
	});
	return {
		reply: {
			id: msg.id,
			results,
			heapBytes: verifier.heapBytes()
		},
		transfer
	};
}
/** Answers a chain message (file header): one ChainValidation over the whole file, then deleted. */
function validateChain(engine, verifier, msg) {
	let chain;
	try {
		if (typeof engine?.ChainValidation !== "function") throw new Error("this worker has no engine with ChainValidation");
		const start = performance.now();
		chain = new engine.ChainValidation(msg.options);
		const run = chain.connectBlockFile(ArrayBuffer.isView(msg.file) ? msg.file : new Uint8Array(msg.file));
		const status = chain.status();
		return {
			reply: {
				id: msg.id,
				chain: {
					run,
					status,
					ms: performance.now() - start
				},
				heapBytes: verifier.heapBytes()
			},
			transfer: []
		};
	} catch (err) {
		return {
			reply: {
				id: msg.id,
				error: String(err?.stack ?? err)
			},
			transfer: []
		};
	} finally {
		try {
			chain?.delete();
		} catch {}
	}
}
/**
* Runs a verify worker: loads the engine, reserves the check-buffer region (CHECK_BUFFER_RESERVE_BYTES), posts
* {type: 'ready'} and then answers every batch message (protocol in the file header). A load
* failure is posted as {type: 'load-error', message} (the pool names the worker, and the host
* names the script when the entry itself fails to load); no message is handled after it.
* @param {() => Promise<object>} loadEngine resolves to the wasm module (wasm/engine.mjs loadEngine,
*   wasm/engine-web.mjs loadWebEngine)
* @param {{post: (msg: object, transfer: ArrayBuffer[]) => void, listen: (onMessage: (msg:
*   object) => void) => void}} port the host's side of the worker's message channel
* @returns {Promise<void>} resolves once ready or load-error is posted.
*/
async function serveVerifyWorker$1(loadEngine, { post, listen }) {
	let handler;
	let ready;
	try {
		const engine = await loadEngine();
		const verifier = createBatchVerifier(engine, { reserveBytes: CHECK_BUFFER_RESERVE_BYTES });
		handler = createBatchHandler(verifier, engine);
		ready = {
			type: "ready",
			info: { ...engine.engineInfo() },
			heapBytes: verifier.heapBytes()
		};
	} catch (err) {
		post({
			type: "load-error",
			message: String(err?.message ?? err)
		}, []);
		return;
	}
	listen((msg) => {
		const { reply, transfer } = handler.handle(msg);
		post(reply, transfer);
	});
	post(ready, []);
}
var MAX_BATCH_RECORDS, CHECK_BUFFER_RESERVE_BYTES;
var init_batch_handler = __esmMin((() => {
	init_check_buffer();
	init_spent_outputs();
	MAX_BATCH_RECORDS = 8192;
	CHECK_BUFFER_RESERVE_BYTES = MAX_BATCH_RECORDS * 812;
}));
// workers/verify-web-worker.mjs
const params = new URL(self.location.href).searchParams;
const variant = params.get("variant") ?? "simd";
const baseUrl = new URL(params.get("base"));
const wasmResponse = fetch(new URL(`ibd-${variant}.wasm`, baseUrl));
wasmResponse.catch(() => {});
import(new URL(`ibd-${variant}.mjs`, baseUrl).href).catch(() => {});
const engine = Promise.resolve().then(() => (init_engine_web(), engine_web_exports)).then(({ loadWebEngine }) => loadWebEngine(variant, {
	baseUrl,
	wasmResponse
}));
engine.catch(() => {});
const { serveVerifyWorker } = await Promise.resolve().then(() => (init_batch_handler(), batch_handler_exports));
await serveVerifyWorker(() => engine, {
	post: (msg, transfer) => self.postMessage(msg, transfer),
	listen: (onMessage) => self.addEventListener("message", (event) => onMessage(event.data))
});
