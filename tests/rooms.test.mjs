// The rooms' import rules, read from the source (every .mjs file git tracks): data flows one way
// (block -> checks -> batches -> verdicts -> report), so no import runs back up.
//   - wasm/ and workers/ (the engine's JS and the pool) import nothing from bench/, web/,
//     scripts/ or tests/;
//   - the run core (bench/core/) imports only itself, wasm/ and workers/: never the CLI
//     (bench/cli/), the page (web/) or another bench room;
//   - the run core reaches no `node:` module and no npm package, however deep (the page loads it);
//   - nothing outside tests/ imports tests/;
//   - no cycle between rooms (a room: bench/<folder>, else the top-level folder).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from '../wasm/paths.mjs';

/** Every tracked or new (not ignored) .mjs file of the repo, as repo-relative paths. */
const FILES = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.mjs'], { cwd: REPO_ROOT, encoding: 'utf8' })
  .split('\n').filter(Boolean).filter((f) => { try { readFileSync(path.join(REPO_ROOT, f)); return true; } catch { return false; } });

// import/export ... from 'x', bare import 'x', import('x'), new URL('x', import.meta.url).
const SPECIFIERS = [
  /^\s*(?:import|export)\s[^'"]*?\sfrom\s*['"]([^'"]+)['"]/gm,
  /^\s*import\s*['"]([^'"]+)['"]/gm,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  /\bnew URL\(\s*['"]([^'"]+\.mjs)(?:\?[^'"]*)?['"]\s*,\s*import\.meta\.url\s*\)/g,
];

/** The specifiers `file` imports: relative ones resolved to repo paths, others as written
 *  ('node:fs', 'sirv'); absolute URL paths ('/wasm/...', imports inside page.evaluate) skipped. */
function importsOf(file) {
  const source = readFileSync(path.join(REPO_ROOT, file), 'utf8');
  const out = new Set();
  for (const re of SPECIFIERS) {
    for (const [, spec] of source.matchAll(re)) {
      if (spec.startsWith('/')) continue;
      out.add(spec.startsWith('.') ? path.posix.normalize(path.posix.join(path.posix.dirname(file), spec.split('?')[0])) : spec);
    }
  }
  return [...out];
}

const GRAPH = new Map(FILES.map((f) => [f, importsOf(f)]));
const local = (spec) => GRAPH.has(spec);

/** bench/<folder> for files in a bench folder, else the top-level folder ('.' at the root). */
function roomOf(file) {
  const parts = file.split('/');
  if (parts.length === 1) return '.';
  return parts[0] === 'bench' && parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0];
}

/** Every [file, imported repo file] pair whose importer matches `from`. */
const edgesFrom = (from) => [...GRAPH].filter(([f]) => from(f)).flatMap(([f, specs]) => specs.filter(local).map((s) => [f, s]));
const show = (edges) => edges.map(([a, b]) => `${a} -> ${b}`).join('\n');

test('the parser sees the edges the rules are about', () => {
  assert.ok(GRAPH.size > 100, `${GRAPH.size} .mjs files`);
  const all = new Set(edgesFrom(() => true).map(([a, b]) => `${a} -> ${b}`));
  for (const edge of ['web/run.mjs -> bench/core/run-core.mjs', 'bench/cli/run.mjs -> bench/core/run-core.mjs',
    'workers/verify-worker.mjs -> wasm/engine.mjs', 'workers/node-host.mjs -> workers/verify-worker.mjs']) {
    assert.ok(all.has(edge), `missing edge ${edge}`);
  }
  for (const [file, specs] of GRAPH) {
    for (const spec of specs) {
      if (spec.startsWith('node:') || !spec.includes('/') || !spec.endsWith('.mjs') || spec.startsWith('@')) continue;
      if (spec.startsWith('build/wasm/')) continue; // the wasm build's glue (the package imports it), not a source file
      assert.ok(local(spec) || spec.startsWith('tests/support/no-such'), `${file} imports ${spec}, which is not in the repo`);
    }
  }
});

test('wasm/ and workers/ import nothing from bench/, web/, scripts/ or tests/', () => {
  const bad = edgesFrom((f) => /^(wasm|workers)\//.test(f)).filter(([, to]) => /^(bench|web|scripts|tests)\//.test(to));
  assert.deepEqual(bad, [], show(bad));
});

test('the run core (bench/core/) imports only itself, wasm/ and workers/', () => {
  const bad = edgesFrom((f) => f.startsWith('bench/core/')).filter(([, to]) => !/^(bench\/core|wasm|workers)\//.test(to));
  assert.deepEqual(bad, [], show(bad));
});

test('the run core reaches no node: module and no npm package, however deep', () => {
  const seen = new Set();
  const stack = FILES.filter((f) => f.startsWith('bench/core/'));
  assert.ok(stack.includes('bench/core/run-core.mjs'));
  const bad = [];
  while (stack.length) {
    const file = stack.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of GRAPH.get(file)) {
      if (local(spec)) stack.push(spec);
      else bad.push(`${file} imports ${spec}`);
    }
  }
  assert.deepEqual(bad, []);
  assert.ok(seen.has('wasm/check-buffer.mjs'), 'the walk follows imports out of bench/core');
});

test('nothing outside tests/ imports tests/', () => {
  const bad = edgesFrom((f) => !f.startsWith('tests/')).filter(([, to]) => to.startsWith('tests/'));
  assert.deepEqual(bad, [], show(bad));
});

/**
 * The cycles of the graph between rooms that `edges` ([from file, to file] pairs) make, each as
 * the chain of file edges that closes it.
 * @param {Array<[string, string]>} edges
 * @param {(file: string) => string} room the room a file belongs to
 * @returns {string[]}
 */
function roomCycles(edges, room) {
  const rooms = new Map();
  for (const [from, to] of edges) {
    const [a, b] = [room(from), room(to)];
    if (a === b) continue;
    if (!rooms.has(a)) rooms.set(a, new Map());
    if (!rooms.get(a).has(b)) rooms.get(a).set(b, `${from} -> ${to}`);
  }
  // Depth-first search; a room met again while still on the path closes a cycle.
  const state = new Map();
  const cycles = [];
  const visit = (r, trail) => {
    state.set(r, 'open');
    for (const [next, why] of rooms.get(r) ?? []) {
      if (state.get(next) === 'open') {
        const start = trail.findIndex((x) => x.room === next);
        cycles.push([...trail.slice(start + 1).map((x) => x.why), why].filter(Boolean).join('; '));
      } else if (!state.has(next)) visit(next, [...trail, { room: next, why }]);
    }
    state.set(r, 'done');
  };
  for (const r of rooms.keys()) if (!state.has(r)) visit(r, [{ room: r, why: null }]);
  return cycles;
}

test('no cycle between rooms', () => {
  assert.deepEqual(roomCycles(edgesFrom(() => true), roomOf), []);
});

// The engine's C++ folders (native/util, crypto, primitives, script, verify, validation): each
// includes only folders below it, by path below native/ ("script/interpreter.h"), and nothing of
// the repo outside native/.
const NATIVE_FILES = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'native/*.h', 'native/*.cpp'], { cwd: REPO_ROOT, encoding: 'utf8' })
  .split('\n').filter(Boolean);
const includesOf = (file) => [...readFileSync(path.join(REPO_ROOT, file), 'utf8').matchAll(/^\s*#\s*include\s+"([^"]+)"/gm)].map((m) => m[1]);

test('native/: every include is by path below native/ and names a file of native/', () => {
  assert.ok(NATIVE_FILES.length > 40, `${NATIVE_FILES.length} native files`);
  const bad = NATIVE_FILES.flatMap((f) => includesOf(f).filter((inc) => !NATIVE_FILES.includes(`native/${inc}`)).map((inc) => `${f}: "${inc}"`));
  assert.deepEqual(bad, []);
});

test('native/: no cycle between its folders', () => {
  const edges = NATIVE_FILES.flatMap((f) => includesOf(f).map((inc) => [f, `native/${inc}`]));
  assert.ok(edges.some(([a, b]) => a.startsWith('native/validation/') && b.startsWith('native/script/')), 'the parser sees includes');
  assert.deepEqual(roomCycles(edges, (f) => f.split('/').slice(0, 2).join('/')), []);
});
