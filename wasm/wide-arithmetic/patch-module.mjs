// What patch.mjs does to a module, as a function (tests call it on bytes). Host-neutral.
import { REPLACEMENTS } from './field-5x52.mjs';
import { functionIndex, functionTypes, replaceBodies } from './wasm-binary.mjs';

/**
 * The 'wide' variant's module with its three functions replaced (field-5x52.mjs REPLACEMENTS)
 * and its "name" section dropped.
 * @param {Uint8Array} bytes the linked .wasm, with a "name" section
 * @param {string} [what] names the module in errors
 * @returns {Uint8Array}
 * @throws Error naming `what` when the module has no "name" section (already patched, or linked
 *   without --profiling-funcs), a function is missing or named twice, or its type is not the
 *   expected one.
 */
export function patchWide(bytes, what = 'wasm module') {
  const { names, duplicates, importedFunctions } = functionIndex(bytes, what);
  if (names.size === 0) {
    throw new Error(`${what}: no function names (a "name" section): already patched, or linked without --profiling-funcs`);
  }
  const types = functionTypes(bytes, what);
  const bodies = new Map();
  for (const r of REPLACEMENTS) {
    const index = names.get(r.name);
    if (index === undefined) throw new Error(`${what}: no function named ${r.name} (inlined or renamed by the link?)`);
    if (duplicates.has(r.name)) throw new Error(`${what}: more than one function is named ${r.name}: which to replace is ambiguous`);
    if (index < importedFunctions) throw new Error(`${what}: ${r.name} is imported, not defined`);
    const type = types[index - importedFunctions];
    if (type.params.join() !== r.params.join() || type.results.length !== 0) {
      throw new Error(`${what}: ${r.name} has type (${type.params}) -> (${type.results}), expected (${r.params}) -> ()`);
    }
    bodies.set(index, r.body());
  }
  return replaceBodies(bytes, bodies, { dropCustom: ['name'], what });
}
