// The README and the docs/ pages name files and link to each other; a file that moves or a page
// that is renamed must not leave them pointing nowhere. Every repository path written in
// backticks (`native/script/sighash.h`, `bench/core/`) and every relative Markdown link must
// resolve to a file or folder of this checkout.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROOMS = ['native', 'wasm', 'workers', 'web', 'bench', 'tests', 'scripts', 'cmake', 'fuzz', 'blocks-fixtures', 'docs'];
const PAGES = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** Paths a page names: backticked repo paths (no placeholders or globs) and relative links. */
function referencesOf(page) {
  const text = readFileSync(path.join(ROOT, page), 'utf8');
  const refs = [];
  for (const [, p] of text.matchAll(/`([^`\s]+)`/g)) {
    const top = p.split('/')[0];
    if (!p.includes('/') || !ROOMS.includes(top) || /[<>*{}|$]/.test(p)) continue;
    refs.push({ target: p.replace(/[:#].*$/, ''), from: ROOT, how: `\`${p}\`` });
  }
  for (const [, link] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/.test(link) || link.startsWith('#')) continue;
    refs.push({ target: link.replace(/#.*$/, ''), from: path.dirname(path.join(ROOT, page)), how: `link (${link})` });
  }
  return refs;
}

test('README.md and docs/*.md name only paths that exist', () => {
  const missing = [];
  for (const page of PAGES) {
    for (const { target, from, how } of referencesOf(page)) {
      if (!existsSync(path.resolve(from, target))) missing.push(`${page}: ${how}`);
    }
  }
  assert.deepEqual(missing, []);
});

test('every docs/ page is linked from the README', () => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const unlinked = PAGES.filter((p) => p.startsWith('docs/') && !readme.includes(`](${p})`));
  assert.deepEqual(unlinked, []);
});
