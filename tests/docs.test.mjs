// The README and the docs/ pages name files and link to each other; a file that moves or a page
// that is renamed must not leave them pointing nowhere. Every repository path written in
// backticks (`native/script/sighash.h`, `bench/core/`) and every relative Markdown link must
// resolve to a file or folder of this checkout, and every #anchor of such a link to a heading of
// its page.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT as ROOT } from '../wasm/paths.mjs';

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

/** GitHub's anchor for a heading: lower case, punctuation dropped (letters, digits, spaces,
 *  hyphens and underscores kept), each space a hyphen; a repeated one gets -1, -2, ... */
function anchorsOf(file) {
  const seen = new Map();
  const anchors = new Set();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (!m) continue;
    const base = m[1].trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

test('every #anchor of a link in README.md and docs/*.md is a heading of its page', () => {
  const broken = [];
  for (const page of PAGES) {
    const text = readFileSync(path.join(ROOT, page), 'utf8');
    for (const [, link] of text.matchAll(/\]\(([^)\s]*#[^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(link)) continue;
      const [file, anchor] = link.split('#');
      const target = file === '' ? path.join(ROOT, page) : path.resolve(path.dirname(path.join(ROOT, page)), file);
      if (!target.endsWith('.md') || !existsSync(target)) continue; // the path itself: the test above
      if (!anchorsOf(target).has(anchor)) broken.push(`${page}: ${link}`);
    }
  }
  assert.deepEqual(broken, []);
});
