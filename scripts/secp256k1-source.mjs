// Obtains libsecp256k1 v0.5.0 source and checks it by hash before anything compiles it.
//
// Where it comes from, first that works:
//   1. $SECP256K1_SOURCE_DIR, a source tree (a git checkout or an unpacked release);
//   2. Debian's source archive: `apt-get source --download-only libsecp256k1=0.5.0-2` from the
//      trixie suite, with a deb-src entry derived from this machine's own apt sources and all apt
//      state kept in build/deps/apt (the system's apt configuration is not touched);
//   3. the upstream v0.5.0 release tarball, where the network allows.
//
// What is pinned: SECP256K1_TREE_SHA256, a hash of the files that are compiled or included
// (everything under include/ and src/), the same whichever of the three sources the files came
// from. It is recomputable with coreutils:
//     find include src -type f | LC_ALL=C sort | xargs sha256sum | sha256sum
// Debian's orig tarball is also checked against its own pinned hash before it is unpacked.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const SECP256K1_VERSION = '0.5.0';
export const SECP256K1_TREE_SHA256 = '27041b31b98b724665b7628094edb673cb3f4765210664eb08c48854cee606b4';
const DEBIAN_SOURCE_VERSION = '0.5.0-2';
const DEBIAN_ORIG = { name: 'libsecp256k1_0.5.0.orig.tar.xz', sha256: '13b70138be52d7a23bdf0ea39ed79799a30eb855f2ed82c028357f6432cd536b' };
const DEBIAN_SUITE = 'trixie';
const UPSTREAM_TARBALL = 'https://github.com/bitcoin-core/secp256k1/archive/refs/tags/v0.5.0.tar.gz';
const STAMP = '.ibd-source.json';

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

function listFiles(dir, rel = '') {
  const out = [];
  for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFiles(dir, child));
    else if (entry.isFile()) out.push(child);
  }
  return out;
}

/** Tree hash of `dir` (hex): SHA-256 over "<sha256 hex>  <path>\n" for every file under include/
 *  and src/, sorted by path bytes: the output format of `sha256sum`, so coreutils reproduce it. */
export function treeSha256(dir) {
  const files = ['include', 'src']
    .filter((d) => existsSync(path.join(dir, d)))
    .flatMap((d) => listFiles(dir, d))
    .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const lines = files.map((f) => `${sha256(readFileSync(path.join(dir, f)))}  ${f}\n`).join('');
  return sha256(lines);
}

function checkTree(dir, origin) {
  const got = treeSha256(dir);
  if (got !== SECP256K1_TREE_SHA256) {
    throw new Error(`libsecp256k1 source from ${origin} (${dir}) has tree SHA-256 ${got}, ` +
      `expected ${SECP256K1_TREE_SHA256} (v${SECP256K1_VERSION}); refusing to build it`);
  }
}

function exec(cmd, args, opts = {}) {
  return spawnSync(cmd, args, { encoding: 'utf8', ...opts });
}

/** The first Debian archive URI among this machine's apt sources (deb822 and one-line forms),
 *  skipping security mirrors; null when there is none. */
function debianArchiveUri() {
  const files = [];
  if (existsSync('/etc/apt/sources.list')) files.push('/etc/apt/sources.list');
  const partsDir = '/etc/apt/sources.list.d';
  if (existsSync(partsDir)) {
    for (const f of readdirSync(partsDir)) if (/\.(list|sources)$/.test(f)) files.push(path.join(partsDir, f));
  }
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const uris = file.endsWith('.sources')
      ? [...text.matchAll(/^URIs:\s*(.+)$/gmi)].flatMap((m) => m[1].trim().split(/\s+/))
      : [...text.matchAll(/^\s*deb(?:-src)?\s+(?:\[[^\]]*\]\s+)?(\S+)/gm)].map((m) => m[1]);
    const uri = uris.find((u) => /\/debian\/?$/.test(u));
    if (uri) return uri;
  }
  return null;
}

function fromDebianArchive(depsDir, log) {
  const uri = debianArchiveUri();
  if (!uri) return { error: 'no Debian archive found in /etc/apt/sources' };
  const state = path.join(depsDir, 'apt');
  for (const d of ['lists/partial', 'cache/archives/partial', 'etc/sources.list.d', 'etc/preferences.d', 'src']) {
    mkdirSync(path.join(state, d), { recursive: true });
  }
  writeFileSync(path.join(state, 'etc/sources.list'), `deb-src ${uri} ${DEBIAN_SUITE} main\n`);
  const aptOpts = [
    `Dir::State=${state}`, `Dir::State::Lists=${state}/lists`, 'Dir::State::status=/var/lib/dpkg/status',
    `Dir::Cache=${state}/cache`, `Dir::Etc::SourceList=${state}/etc/sources.list`,
    `Dir::Etc::SourceParts=${state}/etc/sources.list.d`, `Dir::Etc::Preferences=${state}/etc/preferences`,
    `Dir::Etc::PreferencesParts=${state}/etc/preferences.d`, 'APT::Sandbox::User=root',
  ].flatMap((o) => ['-o', o]);
  log(`fetching libsecp256k1 ${DEBIAN_SOURCE_VERSION} source from Debian ${DEBIAN_SUITE} (apt state in build/deps/apt)`);
  let r = exec('apt-get', [...aptOpts, '-qq', 'update']);
  if (r.status !== 0) return { error: `apt-get update failed: ${(r.stderr || r.error?.message || '').trim()}` };
  const srcDir = path.join(state, 'src');
  r = exec('apt-get', [...aptOpts, '-qq', 'source', '--download-only', `libsecp256k1=${DEBIAN_SOURCE_VERSION}`], { cwd: srcDir });
  if (r.status !== 0) return { error: `apt-get source failed: ${(r.stderr || r.error?.message || '').trim()}` };
  const tarball = path.join(srcDir, DEBIAN_ORIG.name);
  const got = sha256(readFileSync(tarball));
  if (got !== DEBIAN_ORIG.sha256) {
    return { error: `${DEBIAN_ORIG.name} has SHA-256 ${got}, expected ${DEBIAN_ORIG.sha256}` };
  }
  return { tarball, origin: `Debian ${DEBIAN_SUITE} libsecp256k1 ${DEBIAN_SOURCE_VERSION}` };
}

async function fromUpstream(depsDir, log) {
  log(`fetching ${UPSTREAM_TARBALL}`);
  try {
    const res = await fetch(UPSTREAM_TARBALL, { signal: AbortSignal.timeout(60_000) });
    if (!res.ok) return { error: `HTTP ${res.status}` };
    const tarball = path.join(depsDir, 'secp256k1-v0.5.0.tar.gz');
    writeFileSync(tarball, Buffer.from(await res.arrayBuffer()));
    return { tarball, origin: UPSTREAM_TARBALL };
  } catch (err) {
    return { error: `${err.message}${err.cause ? ` (${err.cause.code ?? err.cause.message})` : ''}` };
  }
}

function unpack(tarball, dest) {
  const tmp = `${dest}.unpack`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const r = exec('tar', ['-xf', tarball, '-C', tmp, '--strip-components=1']);
  if (r.status !== 0) throw new Error(`tar -xf ${tarball}: ${r.stderr.trim()}`);
  return tmp;
}

function install(fromDir, dest, origin) {
  checkTree(fromDir, origin);
  rmSync(dest, { recursive: true, force: true });
  cpSync(fromDir, dest, { recursive: true });
  writeFileSync(path.join(dest, STAMP), JSON.stringify({ version: SECP256K1_VERSION, tree_sha256: SECP256K1_TREE_SHA256, origin }, null, 1));
}

/** Returns the path of a verified libsecp256k1 v0.5.0 source tree under `depsDir`, fetching it
 *  first if needed (progress to `log`; the one line saying what was verified, from where, to
 *  `announce`). Throws naming every source tried when none worked, or when a source's hash
 *  does not match (a mismatch is never built). */
export async function ensureSecp256k1Source(depsDir, log = () => {}, announce = log) {
  const dest = path.join(depsDir, `libsecp256k1-${SECP256K1_VERSION}`);
  if (existsSync(path.join(dest, STAMP))) {
    checkTree(dest, JSON.parse(readFileSync(path.join(dest, STAMP), 'utf8')).origin);
    return dest;
  }
  mkdirSync(depsDir, { recursive: true });
  if (process.env.SECP256K1_SOURCE_DIR) {
    const dir = path.resolve(process.env.SECP256K1_SOURCE_DIR);
    log(`using libsecp256k1 source from SECP256K1_SOURCE_DIR=${dir}`);
    install(dir, dest, `SECP256K1_SOURCE_DIR=${dir}`);
    announce(`libsecp256k1 ${SECP256K1_VERSION} verified (tree SHA-256 ${SECP256K1_TREE_SHA256.slice(0, 16)}…) from SECP256K1_SOURCE_DIR=${dir}`);
    return dest;
  }
  const tried = [];
  for (const source of [fromDebianArchive, fromUpstream]) {
    const got = await source(depsDir, log);
    if (got.error) { tried.push(`${source.name}: ${got.error}`); continue; }
    const tmp = unpack(got.tarball, dest);
    try { install(tmp, dest, got.origin); } finally { rmSync(tmp, { recursive: true, force: true }); }
    announce(`libsecp256k1 ${SECP256K1_VERSION} verified (tree SHA-256 ${SECP256K1_TREE_SHA256.slice(0, 16)}…) from ${got.origin}`);
    return dest;
  }
  throw new Error(`could not obtain libsecp256k1 v${SECP256K1_VERSION}:\n  ${tried.join('\n  ')}\n` +
    '  set SECP256K1_SOURCE_DIR to an unpacked v0.5.0 source tree to build offline');
}
