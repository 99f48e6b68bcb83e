#!/usr/bin/env node
// Assembles the npm package (docs/package.md) in build/package/ and packs it with `npm pack`:
//   node scripts/pack-package.mjs [--out DIR]     prints the tarball's path (default DIR: build/)
//
// The package holds the two entries (workers/package/index-node.mjs, index-browser.mjs), every
// module they import, found by following their relative imports (so a new import cannot be
// left out), the wasm build of every variant (build/wasm/ibd-<variant>.js, .mjs, .wasm, and the
// package.json that makes the .js CommonJS) at the same relative paths as in the repo, the type
// declarations, docs/package.md as its README and a package.json whose "exports" pick the entry
// by condition ("node", else the browser one).
// It has no dependencies. Run after the wasm build (node scripts/setup.mjs).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BUILD_DIR, REPO_ROOT, WASM_BUILD_DIR } from '../wasm/paths.mjs';
import { ALL_VARIANTS } from '../wasm/variants.mjs';

const ENTRIES = ['workers/package/index-node.mjs', 'workers/package/index-browser.mjs', 'workers/package/web-worker.mjs'];
const TYPES = 'workers/package/index.d.ts';

/** Relative module specifiers of `file` (repo path), resolved: static and dynamic imports and
 *  `new URL(x, import.meta.url)` of .mjs / .js files. */
function importsOf(file) {
  const source = readFileSync(path.join(REPO_ROOT, file), 'utf8');
  const out = new Set();
  const patterns = [
    /^\s*(?:import|export)\s[^'"]*?\sfrom\s*['"](\.[^'"]+)['"]/gm,
    /\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g,
    /\bnew URL\(\s*['"](\.[^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g,
  ];
  for (const re of patterns) {
    for (const [, spec] of source.matchAll(re)) if (/\.m?js$/.test(spec)) out.add(path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)));
  }
  return [...out];
}

/** Every repo source module the entries reach (the wasm build's files excluded). */
function closure() {
  const seen = new Set();
  const queue = [...ENTRIES];
  while (queue.length) {
    const file = queue.shift();
    if (seen.has(file)) continue;
    if (!existsSync(path.join(REPO_ROOT, file))) throw new Error(`${file} is imported by the package but does not exist`);
    seen.add(file);
    for (const spec of importsOf(file)) if (!spec.startsWith('build/')) queue.push(spec);
  }
  return [...seen].sort();
}

/**
 * Builds build/package/ and packs it.
 * @param {{out?: string}} [options] out: folder for the tarball (default BUILD_DIR)
 * @returns {{dir: string, tarball: string, files: string[]}} the package folder, the tarball's
 *   absolute path and the files packed (package-relative)
 * @throws Error naming a missing wasm build file or source module, or npm pack's failure
 */
export function packPackage({ out = BUILD_DIR } = {}) {
  const root = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
  const dir = path.join(BUILD_DIR, 'package');
  rmSync(dir, { recursive: true, force: true });
  const files = [];
  const put = (from, to) => {
    mkdirSync(path.dirname(path.join(dir, to)), { recursive: true });
    copyFileSync(from, path.join(dir, to));
    files.push(to);
  };
  for (const file of closure()) put(path.join(REPO_ROOT, file), file);
  for (const variant of ALL_VARIANTS) {
    for (const ext of ['js', 'mjs', 'wasm']) {
      const built = path.join(WASM_BUILD_DIR, `ibd-${variant}.${ext}`);
      if (!existsSync(built)) throw new Error(`${built} is missing: build the wasm first (node scripts/setup.mjs)`);
      put(built, `build/wasm/ibd-${variant}.${ext}`);
    }
  }
  // The factories are CommonJS: the package.json beside them says so (wasm/CMakeLists.txt).
  put(path.join(WASM_BUILD_DIR, 'package.json'), 'build/wasm/package.json');
  put(path.join(REPO_ROOT, TYPES), 'index.d.ts');
  put(path.join(REPO_ROOT, 'docs', 'package.md'), 'README.md');
  put(path.join(REPO_ROOT, 'wasm', 'API.md'), 'wasm/API.md'); // the result objects' reference, which the README cites
  const manifest = {
    name: 'ibd-wasm',
    version: root.version,
    description: 'Bitcoin signature and block validation in WebAssembly: libsecp256k1 with SIMD, BIP340 batch verification, '
      + 'worker pools for Node and browsers, and tiny-secp256k1-compatible verify / verifySchnorr / isPoint.',
    license: root.license,
    type: 'module',
    engines: { node: '>=20' },
    sideEffects: false,
    types: './index.d.ts',
    exports: {
      '.': {
        types: './index.d.ts',
        node: './workers/package/index-node.mjs',
        default: './workers/package/index-browser.mjs',
      },
      './package.json': './package.json',
    },
    files: ['index.d.ts', 'README.md', 'build/wasm/', 'wasm/', 'workers/'],
  };
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  mkdirSync(out, { recursive: true });
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', out], {
    cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' },
  }));
  return { dir, tarball: path.join(out, packed[0].filename), files: files.sort() };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { out: { type: 'string' } }, strict: true });
  try {
    const { tarball } = packPackage({ out: values.out ? path.resolve(values.out) : undefined });
    process.stdout.write(`${tarball}\n`);
  } catch (err) {
    process.stderr.write(`[pack] error: ${err.message}\n`);
    process.exit(1);
  }
}
