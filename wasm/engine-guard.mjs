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
// - an instance that trapped is retired. A WebAssembly.RuntimeError out of the module (an
//   Emscripten abort(), an out-of-bounds access, `unreachable`) unwinds without restoring the
//   module's stack pointer or finishing what the trap interrupted (a malloc, a table growth):
//   the instance's later answers cannot be trusted. Every later call on it throws an Error
//   naming the first trap, instead of answering (wasm/API.md "A trapped instance").
// The wrappers cost a closure call and a stackSave per entry point call (nanoseconds against a
// verification's tens of µs).

/** The raw-pointer functions and the JS type each argument must have (wasm/API.md). */
const RAW_SIGNATURES = {
  verifyBatch: ['checksPtr', 'checksLen', 'count', 'verdictsPtr'],
  verifySingle: ['ptr', 'kind', 'pubkeyLen', 'strict:boolean'],
  schnorrBatchVerify: ['checksPtr', 'checksLen', 'count'],
};

/** The other free functions of the module (Embind) and what the glue exports for memory. */
const FUNCTIONS = ['validateBlock', 'decodeSpentOutputs', 'engineInfo', 'sha256Chain', 'ecmultTablesSha256', '_malloc', '_free'];

/** Embind classes whose construction and methods run wasm. */
const CLASSES = ['BlockValidation', 'ChainValidation'];

/**
 * Wraps the module's entry points in place (file header) and returns it.
 * @param {object} engine an instantiated Emscripten module of this build
 * @param {string} where what the module was loaded from (the .wasm path or URL), for messages
 * @returns {object} `engine`, with `engine.trapped` (null, or the first trap's Error) added
 * @throws Error naming `where` when the glue exports no stackSave/stackRestore
 */
export function guardEngine(engine, where) {
  engine.trapped = null;
  const retire = (name, err) => {
    engine.trapped ??= new Error(`${name} trapped in ${where}: ${err.message}`, { cause: err });
  };
  const refuse = (name) => {
    throw new Error(`${name}: this engine instance (${where}) trapped earlier and is retired; load a new one ` +
      `(first trap: ${engine.trapped.message})`, { cause: engine.trapped });
  };
  const { stackSave, stackRestore } = engine;
  if (typeof stackSave !== 'function' || typeof stackRestore !== 'function') {
    throw new Error(`${where}: the glue exports no stackSave/stackRestore (a build from before wasm/CMakeLists.txt exported them?)`);
  }
  const guard = (name, fn) => function guarded(...args) {
    if (engine.trapped) refuse(name);
    const stack = stackSave();
    try {
      return fn.apply(this, args);
    } catch (err) {
      if (err instanceof WebAssembly.RuntimeError) retire(name, err);
      else stackRestore(stack);
      throw err;
    }
  };
  for (const [name, list] of Object.entries(RAW_SIGNATURES)) {
    const fn = engine[name];
    if (typeof fn !== 'function') continue;
    const guarded = guard(name, fn);
    const params = list.map((param) => {
      const [label, type = 'number'] = param.split(':');
      return { label, type };
    });
    engine[name] = (...args) => {
      checkRawArguments(name, params, args);
      return guarded(...args);
    };
  }
  for (const name of FUNCTIONS) {
    if (typeof engine[name] === 'function') engine[name] = guard(name, engine[name]);
  }
  for (const name of CLASSES) {
    const Class = engine[name];
    if (typeof Class !== 'function') continue;
    for (const method of Object.getOwnPropertyNames(Class.prototype)) {
      const fn = Class.prototype[method];
      if (method === 'constructor' || typeof fn !== 'function') continue;
      Class.prototype[method] = guard(`${name}.${method}`, fn);
    }
    const construct = guard(`new ${name}`, function construct(...args) { return new Class(...args); });
    // `new engine.BlockValidation(...)` still returns a BlockValidation (instanceof holds: the
    // prototype is the class's own).
    const Guarded = function (...args) { return construct(...args); };
    Object.defineProperty(Guarded, 'name', { value: name });
    Guarded.prototype = Class.prototype;
    engine[name] = Guarded;
  }
  return engine;
}

/** Throws a TypeError naming the first argument of `name` that is missing or of the wrong type
 *  (`params`: [{label, type}]): a pointer, length or count must be a number (its range is
 *  checked in wasm/bindings.cpp), `strict` a boolean. */
function checkRawArguments(name, params, args) {
  if (args.length !== params.length) {
    throw new TypeError(`${name} takes ${params.length} arguments (${params.map((p) => p.label).join(', ')}), got ${args.length}`);
  }
  for (let i = 0; i < params.length; i++) {
    const value = args[i];
    if (typeof value !== params[i].type) {
      const got = value === null ? 'null' : Array.isArray(value) ? 'an Array' : typeof value;
      throw new TypeError(`${name}: ${params[i].label} must be a ${params[i].type}, got ${got}`);
    }
  }
}
