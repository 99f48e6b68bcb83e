// Just enough of the WebAssembly binary format (core spec, chapter 5) to replace function bodies
// in a linked module: its sections, the function index space (imports first), the "name" custom
// section's function names (emcc --profiling-funcs writes it), and a rewrite of the code section.
// Used by patch.mjs after the link of the 'wide' variant. Host-neutral: no import.

/** Section ids (core spec 5.5.2). */
export const SECTION = Object.freeze({ custom: 0, type: 1, import: 2, function: 3, code: 10 });

/** Unsigned LEB128 of a non-negative integer below 2^53, as an array of bytes. */
export function uleb(n) {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`uleb: ${n} is not a non-negative safe integer`);
  const out = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    out.push(byte);
  } while (n > 0);
  return out;
}

/** Signed LEB128 of a BigInt (an i64.const immediate), as an array of bytes. */
export function sleb(value) {
  let v = BigInt(value);
  const out = [];
  for (;;) {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    if ((v === 0n && (byte & 0x40) === 0) || (v === -1n && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

class Reader {
  constructor(bytes, pos, end, what) { Object.assign(this, { bytes, pos, end, what }); }
  fail(msg) { throw new Error(`${this.what}: ${msg} at byte offset ${this.pos}`); }
  byte() { if (this.pos >= this.end) this.fail('unexpected end'); return this.bytes[this.pos++]; }
  u32() {
    let result = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const b = this.byte();
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
    }
    return this.fail('LEB128 longer than 5 bytes');
  }
  name() {
    const n = this.u32();
    if (this.pos + n > this.end) this.fail('name runs past its section');
    const s = new TextDecoder().decode(this.bytes.subarray(this.pos, this.pos + n));
    this.pos += n;
    return s;
  }
  skipLimits() { const flags = this.byte(); this.u32(); if (flags & 1) this.u32(); }
}

/**
 * The module's sections in order: {id, start (offset of the id byte), content (offset of the
 * content), end}, each a byte offset into `bytes`.
 * @param {Uint8Array} bytes a whole .wasm
 * @param {string} [what] names the module in errors
 * @throws Error naming `what` and the byte offset when the header or a section size is malformed.
 */
export function readSections(bytes, what = 'wasm module') {
  const r = new Reader(bytes, 0, bytes.length, what);
  const magic = [0, 0x61, 0x73, 0x6d, 1, 0, 0, 0];
  for (const b of magic) if (r.byte() !== b) { r.pos -= 1; r.fail('not a version-1 wasm module (magic or version)'); }
  const sections = [];
  while (r.pos < bytes.length) {
    const start = r.pos;
    const id = r.byte();
    const size = r.u32();
    const content = r.pos;
    if (content + size > bytes.length) r.fail(`section ${id} (at ${start}) runs past the end of the module`);
    sections.push({ id, start, content, end: content + size });
    r.pos = content + size;
  }
  return sections;
}

/**
 * Function names by index from the "name" section, and how many functions are imported (they
 * come first in the function index space).
 * @param {Uint8Array} bytes
 * @param {string} [what]
 * @returns {{names: Map<string, number>, duplicates: Set<string>, importedFunctions: number,
 *   definedFunctions: number}} duplicates: names that more than one function has (names keeps
 *   the last)
 * @throws Error when a section is malformed.
 */
export function functionIndex(bytes, what = 'wasm module') {
  const names = new Map();
  const duplicates = new Set();
  let importedFunctions = 0;
  let definedFunctions = 0;
  for (const s of readSections(bytes, what)) {
    const r = new Reader(bytes, s.content, s.end, what);
    if (s.id === SECTION.import) {
      const count = r.u32();
      for (let i = 0; i < count; i++) {
        r.name(); r.name();
        const kind = r.byte();
        if (kind === 0) { r.u32(); importedFunctions++; }      // func: type index
        else if (kind === 1) { r.byte(); r.skipLimits(); }     // table: reftype, limits
        else if (kind === 2) r.skipLimits();                   // memory
        else if (kind === 3) { r.byte(); r.byte(); }           // global: valtype, mutability
        else if (kind === 4) { r.byte(); r.u32(); }            // tag (exception handling)
        else r.fail(`unknown import kind ${kind}`);
      }
    } else if (s.id === SECTION.function) {
      definedFunctions = r.u32();
    } else if (s.id === SECTION.custom && r.name() === 'name') {
      while (r.pos < s.end) {
        const sub = r.byte();
        const size = r.u32();
        const next = r.pos + size;
        if (sub === 1) {
          const count = r.u32();
          for (let i = 0; i < count; i++) {
            const index = r.u32();
            const name = r.name();
            if (names.has(name)) duplicates.add(name);
            names.set(name, index);
          }
        }
        r.pos = next;
      }
    }
  }
  return { names, duplicates, importedFunctions, definedFunctions };
}

/**
 * Each defined function's type, in order: {params, results}, arrays of value-type bytes
 * (0x7f i32, 0x7e i64, 0x7d f32, 0x7c f64, 0x7b v128, ...).
 * @param {Uint8Array} bytes
 * @param {string} [what]
 * @returns {{params: number[], results: number[]}[]}
 * @throws Error when the type or function section is missing or malformed.
 */
export function functionTypes(bytes, what = 'wasm module') {
  const sections = readSections(bytes, what);
  const typeSec = sections.find((s) => s.id === SECTION.type);
  const funcSec = sections.find((s) => s.id === SECTION.function);
  if (!typeSec || !funcSec) throw new Error(`${what}: no type or no function section`);
  const t = new Reader(bytes, typeSec.content, typeSec.end, what);
  const types = [];
  const valtypes = () => { const n = t.u32(); return Array.from({ length: n }, () => t.byte()); };
  for (let n = t.u32(), i = 0; i < n; i++) {
    if (t.byte() !== 0x60) { t.pos -= 1; t.fail(`type ${i} is not a function type`); }
    types.push({ params: valtypes(), results: valtypes() });
  }
  const f = new Reader(bytes, funcSec.content, funcSec.end, what);
  return Array.from({ length: f.u32() }, () => {
    const index = f.u32();
    if (index >= types.length) f.fail(`function type index ${index} past the ${types.length} types`);
    return types[index];
  });
}

/**
 * A copy of the module with some functions' bodies replaced and, optionally, custom sections
 * dropped.
 * @param {Uint8Array} bytes
 * @param {Map<number, number[]|Uint8Array>} bodies function index -> new body (its locals
 *   declarations, instructions and final `end`, without the size prefix); the index is in the
 *   function index space, so it must be at least the number of imported functions
 * @param {{dropCustom?: string[], what?: string}} [options] dropCustom: names of custom sections
 *   to leave out (e.g. 'name')
 * @returns {Uint8Array}
 * @throws Error when an index is not a defined function, or the module is malformed.
 */
export function replaceBodies(bytes, bodies, { dropCustom = [], what = 'wasm module' } = {}) {
  const { importedFunctions } = functionIndex(bytes, what);
  const parts = [bytes.subarray(0, 8)];
  let replaced = 0;
  for (const s of readSections(bytes, what)) {
    if (s.id === SECTION.custom) {
      const r = new Reader(bytes, s.content, s.end, what);
      if (dropCustom.includes(r.name())) continue;
    }
    if (s.id !== SECTION.code) { parts.push(bytes.subarray(s.start, s.end)); continue; }
    const r = new Reader(bytes, s.content, s.end, what);
    const count = r.u32();
    const content = [Uint8Array.from(uleb(count))];
    for (let i = 0; i < count; i++) {
      const sizeAt = r.pos;
      const size = r.u32();
      const index = importedFunctions + i;
      const body = bodies.get(index);
      if (body) { replaced++; content.push(Uint8Array.from(uleb(body.length)), Uint8Array.from(body)); }
      else content.push(bytes.subarray(sizeAt, r.pos + size));
      r.pos += size;
    }
    const length = content.reduce((n, c) => n + c.length, 0);
    parts.push(Uint8Array.from([SECTION.code, ...uleb(length)]), ...content);
  }
  if (replaced !== bodies.size) {
    const bad = [...bodies.keys()].filter((i) => i < importedFunctions);
    throw new Error(`${what}: replaced ${replaced} of ${bodies.size} function bodies` +
      (bad.length ? ` (index ${bad.join(', ')} is an imported function)` : ' (an index is past the defined functions)'));
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}
