// The loaders' last step (engine.mjs, engine-web.mjs): the Emscripten module's entry points
// wrapped so that
// - a JS Error a binding throws on purpose (bindings.cpp ThrowJs: a bad argument) leaves the
//   module's stack pointer where it was before the call. The throw unwinds the wasm frames
//   without their epilogues: unrestored, each such throw leaked about 150 bytes of the 1 MiB
//   stack, and after some 7,000 of them the stack ran into static data and valid signatures
//   failed;
// - the raw-pointer calls (verifyBatch, verifySingle, schnorrBatchVerify) take only what they
//   document: a TypeError names the argument that is not a number (or a boolean), where the
//   wasm boundary would turn null, "", [] or "7" into a number and run with it;
// - every entry point is called with as many arguments as it takes: a TypeError names the call,
//   its parameters and the count given ("validateBlock takes 5 arguments (block, ...), got 4"),
//   where Embind's own BindingError names no parameter and comes from an anonymous class and
//   wrapper (-sDYNAMIC_EXECUTION=0, wasm/CMakeLists.txt: no generated, named functions);
// - an instance runs one call at a time: a call made from a getter or callback that a running
//   call invoked (a Uint8Array subclass's `length`) throws. Embind checks that an object is
//   alive when its method is entered; a delete() from inside the method freed it under the
//   running call, and the next object allocated there took its place (a BlockValidation then
//   reported another's checks as verified);
// - an instance that trapped is retired. A WebAssembly.RuntimeError out of the module (an
//   Emscripten abort(), an out-of-bounds access, `unreachable`), the JS stack running out
//   inside it, or a C++ exception no binding caught, unwinds without restoring the module's
//   stack pointer or finishing what it interrupted (a malloc, a table growth): the instance's
//   later answers cannot be trusted. Every later call on it throws an Error naming the first
//   trap, instead of answering (wasm/API.md "A trapped instance is retired").
// The wrappers cost a closure call and a stackSave per entry point call (nanoseconds against a
// verification's tens of µs).

/** The raw-pointer functions and the JS type each argument must have (wasm/API.md). */
const RAW_SIGNATURES = {
  verifyBatch: ['checksPtr', 'checksLen', 'count', 'verdictsPtr'],
  verifySingle: ['ptr', 'kind', 'pubkeyLen', 'strict:boolean'],
  schnorrBatchVerify: ['checksPtr', 'checksLen', 'count'],
};

/** The Embind functions', constructors' and methods' parameters (wasm/API.md), for the arity
 *  check. A name ending in '?' may be left out: the constructors' Embind overloads fill it with
 *  undefined. validateBlock's `options` may not: it is bound as a fifth parameter. */
const EMBIND_SIGNATURES = {
  validateBlock: ['block', 'spentOutputs', 'expectedHashHex', 'height', 'options'],
  decodeSpentOutputs: ['block', 'spentOutputs'],
  engineInfo: [],
  sha256Chain: ['bytes', 'reps'],
  ecmultTablesSha256: [],
  'new BlockValidation': ['block?', 'spentOutputsJson?', 'expectedHashHex?', 'height?', 'options?'],
  'BlockValidation.status': [],
  'BlockValidation.pending': [],
  'BlockValidation.resolve': ['verdicts'],
  'BlockValidation.result': [],
  'new ChainValidation': ['options?'],
  'ChainValidation.status': [],
  'ChainValidation.connectBlock': ['block'],
  'ChainValidation.connectBlockFile': ['file'],
};

/** The other free functions of the module (Embind) and what the glue exports for memory. */
const FUNCTIONS = ['validateBlock', 'decodeSpentOutputs', 'engineInfo', 'sha256Chain', 'ecmultTablesSha256', '_malloc', '_free'];

/** Functions the glue reassigns on the module object (its lazy export stubs). */
const EXPORT_STUBS = ['_malloc', '_free'];

/** Embind classes whose construction and methods run wasm. */
const CLASSES = ['BlockValidation', 'ChainValidation'];

/** Embind's methods of every class handle that run wasm (the destructor, the copy). */
const HANDLE_METHODS = ['delete', 'clone', 'deleteLater'];

/**
 * Wraps the module's entry points in place (file header) and returns it.
 * @param {object} engine an instantiated Emscripten module of this build
 * @param {string} where what the module was loaded from (the .wasm path or URL), for messages
 * @returns {object} `engine`, with `engine.trapped` (null, or the first trap's Error) added
 * @throws Error naming `where` when the glue exports no stackSave/stackRestore
 */
export function guardEngine(engine, where) {
  let trapped = null;
  // Read-only: assigning null must not bring a retired instance back.
  Object.defineProperty(engine, 'trapped', { get: () => trapped, enumerable: true });
  const retire = (name, err) => {
    trapped ??= new Error(`${name} trapped in ${where}: ${trapText(err)}`, { cause: err });
  };
  const refuse = (name) => {
    throw new Error(`${name}: this engine instance (${where}) trapped earlier and is retired; load a new one ` +
      `(first trap: ${engine.trapped.message})`, { cause: engine.trapped });
  };
  const { stackSave, stackRestore } = engine;
  if (typeof stackSave !== 'function' || typeof stackRestore !== 'function') {
    throw new Error(`${where}: the glue exports no stackSave/stackRestore (a build from before wasm/CMakeLists.txt exported them?)`);
  }
  let running = null; // the entry point being run, while one is
  const guard = (name, fn) => function guarded(...args) {
    if (engine.trapped) refuse(name);
    if (running !== null) {
      // A getter or callback the running call invoked (a Uint8Array subclass's `length`, an
      // options getter) calling back in: Embind checked the running call's object when it was
      // entered, so a delete() here would free it under that call.
      throw new Error(`${name}: called while ${running} is running on this engine instance (from a getter or ` +
        'callback it invoked); an engine instance runs one call at a time');
    }
    const stack = stackSave();
    running = name;
    try {
      return fn.apply(this, args);
    } catch (err) {
      if (!isTrap(err)) {
        stackRestore(stack);
        throw err;
      }
      retire(name, err);
      // A C++ exception that escaped has no message of its own: thrown as the retirement's Error.
      throw isEscapedException(err) ? engine.trapped : err;
    } finally {
      running = null;
    }
  };
  // Emscripten's export stubs (_malloc, _free) assign the raw export to the module object on
  // their first call, which Embind makes itself whenever a string crosses: those become
  // accessors that keep the guard and take such an assignment as the new raw function. The
  // Embind functions are never reassigned by the glue and stay plain properties (a caller may
  // wrap them).
  const install = (target, name, wrap) => {
    let raw = target[name];
    const guarded = wrap((...args) => raw(...args));
    if (!EXPORT_STUBS.includes(name)) {
      target[name] = guarded;
      return;
    }
    Object.defineProperty(target, name, { get: () => guarded, set: (fn) => { raw = fn; }, configurable: true, enumerable: true });
  };
  for (const [name, list] of Object.entries(RAW_SIGNATURES)) {
    if (typeof engine[name] !== 'function') continue;
    const params = list.map((param) => {
      const [label, type = 'number'] = param.split(':');
      return { label, type };
    });
    install(engine, name, (call) => {
      const guarded = guard(name, call);
      return (...args) => {
        checkRawArguments(name, params, args);
        return guarded(...args);
      };
    });
  }
  /** `guarded`, behind the arity check of `name` when EMBIND_SIGNATURES lists it. */
  const counted = (name, guarded) => {
    const params = EMBIND_SIGNATURES[name];
    if (!params) return guarded;
    return function (...args) {
      checkArity(name, params, args);
      return guarded.apply(this, args);
    };
  };
  for (const name of FUNCTIONS) {
    if (typeof engine[name] === 'function') install(engine, name, (call) => counted(name, guard(name, call)));
  }
  for (const name of CLASSES) {
    const Class = engine[name];
    if (typeof Class !== 'function') continue;
    const own = Object.getOwnPropertyNames(Class.prototype).filter((m) => m !== 'constructor' && typeof Class.prototype[m] === 'function');
    // Embind's handle methods live on a prototype all classes share: given to each class as its own.
    for (const method of [...own, ...HANDLE_METHODS]) {
      const fn = Class.prototype[method];
      if (typeof fn === 'function') Class.prototype[method] = counted(`${name}.${method}`, guard(`${name}.${method}`, fn));
    }
    const construct = counted(`new ${name}`, guard(`new ${name}`, function construct(...args) { return new Class(...args); }));
    // `new engine.BlockValidation(...)` still returns a BlockValidation (instanceof holds: the
    // prototype is the class's own).
    const Guarded = function (...args) { return construct(...args); };
    Object.defineProperty(Guarded, 'name', { value: name });
    Guarded.prototype = Class.prototype;
    // Embind's prototype.constructor (non-configurable) still names the raw class: `new
    // v.constructor(...)` constructs unguarded (wasm/API.md).
    engine[name] = Guarded;
  }
  return engine;
}

/** Whether `err`, thrown out of the module, left it mid-call: a trap (WebAssembly.RuntimeError:
 *  abort(), out of bounds, unreachable) or the JS stack running out inside it (V8 and
 *  JavaScriptCore: RangeError "Maximum call stack size exceeded"; SpiderMonkey: InternalError
 *  "too much recursion"), which cuts the wasm frames off at an arbitrary instruction. */
function isTrap(err) {
  return err instanceof WebAssembly.RuntimeError || (err instanceof RangeError && /call stack/i.test(err.message)) ||
    err?.name === 'InternalError' || isEscapedException(err);
}

/** Whether `err` is a C++ exception that no binding caught, such as a std::bad_alloc from
 *  Embind's own allocation of an argument when the heap is full: the simd variant's wasm
 *  exception handling throws it as a WebAssembly.Exception, the scalar variant's JS-emulated
 *  exceptions as the exception's address (a number). The call stopped where no binding
 *  expected it to. */
function isEscapedException(err) {
  return typeof err === 'number' || (typeof WebAssembly.Exception === 'function' && err instanceof WebAssembly.Exception);
}

/** A trap's text: its message, or what an escaped C++ exception is. */
function trapText(err) {
  if (!isEscapedException(err)) return err?.message ?? String(err);
  return `a C++ exception escaped the engine (${typeof err === 'number' ? 'thrown at address ' + err : 'WebAssembly.Exception'}; out of memory?)`;
}

/** Throws a TypeError naming the first argument of `name` that is missing or of the wrong type
 *  (`params`: [{label, type}]): a pointer, length or count must be a number (its range is
 *  checked in wasm/bindings.cpp), `strict` a boolean. */
function checkRawArguments(name, params, args) {
  checkArity(name, params.map((p) => p.label), args);
  for (let i = 0; i < params.length; i++) {
    const value = args[i];
    if (typeof value !== params[i].type) {
      const got = value === null ? 'null' : Array.isArray(value) ? 'an Array' : typeof value;
      throw new TypeError(`${name}: ${params[i].label} must be a ${params[i].type}, got ${got}`);
    }
  }
}

/** Throws a TypeError naming `name`, its parameters (`params`: names, '?' after one that may be
 *  left out) and the count given, when `args` has fewer than the required or more than all:
 *  "validateBlock takes 5 arguments (block, spentOutputs, expectedHashHex, height, options), got
 *  4 (options: pass undefined for none)", "new ChainValidation takes at most 1 argument (options),
 *  got 2", "engineInfo takes no arguments, got 1". */
function checkArity(name, params, args) {
  const required = params.filter((p) => !p.endsWith('?')).length;
  if (args.length >= required && args.length <= params.length) return;
  const plural = (n) => `${n} argument${n === 1 ? '' : 's'}`;
  const count = params.length === 0 ? 'no arguments'
    : required === params.length ? plural(params.length)
      : required === 0 ? `at most ${plural(params.length)}` : `${required} to ${params.length} arguments`;
  const labels = params.length ? ` (${params.map((p) => p.replace(/\?$/, '')).join(', ')})` : '';
  const hint = params.at(-1) === 'options' && args.length === params.length - 1 ? ' (options: pass undefined for none)' : '';
  throw new TypeError(`${name} takes ${count}${labels}, got ${args.length}${hint}`);
}
