#!/usr/bin/env node
// The static server behind `npm run serve`: serves the benchmark page, the engine's modules, the
// wasm builds and the fixture blocks on localhost, cross-origin isolated (COOP same-origin, COEP
// require-corp) so that the page gets SharedArrayBuffer. Files are served by sirv (MIME types
// from mrmime: .wasm is application/wasm); this file only maps URL prefixes to folders and adds
// the isolation headers. Nothing outside the mounted folders is reachable: a path that leaves
// its folder (../, %2e%2e/, an absolute path), a dotfile, a symlink that points out of its
// folder, and anything under /wasm/ but the engine's JS modules and the build's modules is a 404.
//
// URL layout (the page imports by these paths):
//   /                      web/            the page
//   /workers/              workers/        the pool, hosts and the verify worker
//   /wasm/                 wasm/           the engine's JS: loaders, check buffer, batch verifier (*.mjs only)
//   /wasm/ibd-*            build/wasm/     ibd-<variant>.mjs / .wasm only (not the build's other files), from
//                                          IBD_WASM_DIR when set: beside the loader that fetches them
//   /dist/verify-web-worker.mjs  build/web/  the page's verify worker bundled (scripts/bundle-web-worker.mjs)
//   /dist/engine-web.mjs   build/web/      the engine's browser entry for one thread bundled (wasm/browser.mjs)
//   /bench/core/           bench/core/     the run core: blocks in the workers, timed passes, projection
//   /bench/workload/workload-table.json    the saved workload table the projection reads (that file only)
//   /bench/compare/results/latest.json     the last `npm run bench -- --readme` run, for the other engines' projections
//   /blocks-fixtures/      blocks-fixtures/  the manifest-entry check the page shares with the loader
//   /fixtures/             the fixture blocks (../shared/blocks-fixtures, --fixtures, IBD_FIXTURES)
//   /fixtures/manifest.json  the manifest that describes them (blocks-fixtures/loader.mjs readManifest)
//   /vendor/chart.js/      node_modules/chart.js/dist
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sirv from 'sirv';
import { fixturesDir, readManifest } from '../blocks-fixtures/loader.mjs';
import { BUILD_DIR, REPO_ROOT as ROOT, wasmDir as defaultWasmDir } from '../wasm/paths.mjs';
import { numberFlag, parseFlags, UsageError } from '../bench/shared/args.mjs';

/** Default TCP port of `npm run serve`. */
export const DEFAULT_PORT = 8080;

/** The build's files served under /wasm/: the browser glue and the binaries of each variant. */
const WASM_FILE = /^\/wasm\/ibd-[a-z0-9-]+\.(mjs|wasm)$/;
/** The engine's own JS modules served under /wasm/ from the source folder wasm/ (not its C++,
 *  CMake or Markdown files). */
const WASM_MODULE = /^\/wasm\/(?!ibd-)[a-z0-9-]+\.mjs$/;

/** The real path of `dir` (symlinks resolved), or null when it does not exist. */
function realDir(dir) {
  try {
    return realpathSync(dir);
  } catch {
    return null;
  }
}

/** Whether `file` exists, is a regular file, and its real path lies inside the real folder `root`. */
function isFileInside(file, root) {
  try {
    const real = realpathSync(file);
    return real.startsWith(root + path.sep) && statSync(real).isFile();
  } catch {
    return false;
  }
}

/** Whether a Range header is one sirv serves correctly: `bytes=START-` or `bytes=START-END`, END >= START. */
function isSimpleRange(range) {
  const m = /^bytes=(\d{1,15})-(\d{0,15})$/.exec(range);
  return m !== null && (m[2] === '' || Number(m[2]) >= Number(m[1]));
}

/** Headers that make a document cross-origin isolated (window.crossOriginIsolated === true). */
export const ISOLATION_HEADERS = Object.freeze({
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
});

/**
 * Starts the server.
 * @param {{port?: number, host?: string, isolation?: boolean, fixtures?: string,
 *   wasmDir?: string}} [options] port: TCP port (default 8080; 0 picks a free one); host:
 *   interface (default 127.0.0.1); isolation: send COOP/COEP (default true; false serves the
 *   page in its transferable-buffer mode); fixtures: fixture folder (default as the loader's
 *   fixturesDir); wasmDir: wasm build folder (default: IBD_WASM_DIR, else build/wasm:
 *   wasm/paths.mjs wasmDir, as the Node loader).
 * @returns {Promise<{url: string, port: number, close: () => Promise<void>}>} url: the page's
 *   address, e.g. http://127.0.0.1:8080/
 * @throws (rejects) Error naming the port when it cannot listen (e.g. EADDRINUSE), the fixture
 *   folder when it does not exist, or the manifest when it cannot be read.
 */
export async function startServer({ port = DEFAULT_PORT, host = '127.0.0.1', isolation = true,
  fixtures, wasmDir = defaultWasmDir() } = {}) {
  const fixtureRoot = fixturesDir(fixtures);
  if (!existsSync(fixtureRoot)) throw new Error(`fixture folder ${fixtureRoot} does not exist (--fixtures or IBD_FIXTURES)`);
  if (!statSync(fixtureRoot).isDirectory()) throw new Error(`fixture folder ${fixtureRoot} is not a directory (--fixtures or IBD_FIXTURES)`);
  const manifest = readManifest(fixtureRoot);
  const manifestBody = readFileSync(manifest.path);
  const headers = isolation ? ISOLATION_HEADERS : {};
  const serveOptions = {
    dev: true, // read files per request: a rebuilt wasm is served without a restart
    setHeaders(res) {
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    },
  };
  // [URL prefix, folder, sirv handler, accepted paths]; the folder's real path bounds what the
  // prefix serves; under /wasm/ only the two patterns are served, each from its own folder.
  const mounts = [
    ['/workers/', path.join(ROOT, 'workers')],
    ['/wasm/', wasmDir, WASM_FILE],
    ['/dist/', path.join(BUILD_DIR, 'web'), /^\/dist\/(verify-web-worker|engine-web)\.mjs$/],
    ['/wasm/', path.join(ROOT, 'wasm'), WASM_MODULE],
    ['/bench/core/', path.join(ROOT, 'bench', 'core')],
    ['/bench/workload/', path.join(ROOT, 'bench', 'workload'), /^\/bench\/workload\/workload-table\.json$/],
    ['/bench/compare/results/', path.join(ROOT, 'bench', 'compare', 'results'), /^\/bench\/compare\/results\/latest\.json$/],
    ['/blocks-fixtures/', path.join(ROOT, 'blocks-fixtures')],
    ['/fixtures/', fixtureRoot],
    ['/vendor/chart.js/', path.join(ROOT, 'node_modules', 'chart.js', 'dist')],
    ['/', path.join(ROOT, 'web')],
  ].map(([prefix, dir, accept]) => [prefix, realDir(dir), sirv(dir, serveOptions), accept]);
  const notFound = (res) => {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
    res.end('not found\n');
  };

  const server = http.createServer((req, res) => {
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    } catch {
      return notFound(res); // malformed URL or percent-encoding
    }
    // No segment may climb out (..) or name a dotfile (.env, .git), whatever its encoding.
    if (pathname.split(/[\\/]/).some((segment) => segment.startsWith('.'))) return notFound(res);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', ...headers });
      return res.end();
    }
    if (pathname === '/fixtures/manifest.json') {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers });
      return res.end(req.method === 'HEAD' ? undefined : manifestBody);
    }
    // build/wasm also holds CMake's files (CMakeCache.txt names local paths): only the modules.
    const mount = mounts.find(([prefix, , , accept]) => pathname.startsWith(prefix) && (!accept || accept.test(pathname)));
    if (!mount || (pathname.startsWith('/wasm/') && mount[0] !== '/wasm/')) return notFound(res);
    const [prefix, root, handler] = mount;
    // The file itself, resolved through any symlink, must lie inside its folder: a link in a
    // fixture set that points elsewhere is not followed out.
    let file = pathname.slice(prefix.length);
    if (file === '' || file.endsWith('/')) file += 'index.html';
    if (!root || !isFileInside(path.join(root, file), root)) return notFound(res);
    // sirv gets exactly that file (its first candidate), relative to its folder. A Range it
    // would mishandle (start after end, a suffix range) is dropped: the whole file is sent.
    req.url = '/' + file.split('/').map(encodeURIComponent).join('/');
    if (req.headers.range !== undefined && !isSimpleRange(req.headers.range)) delete req.headers.range;
    handler(req, res, () => notFound(res));
  });

  await new Promise((resolve, reject) => {
    server.once('error', (err) => {
      const hint = err.code === 'EADDRINUSE' ? ' (another server holds the port: stop it, or pass --port 0 for a free one)' : '';
      reject(new Error(`cannot serve on ${host}:${port}: ${err.message}${hint}`, { cause: err }));
    });
    server.listen(port, host, resolve);
  });
  const actualPort = server.address().port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}/`,
    port: actualPort,
    close: () => new Promise((resolve) => {
      server.closeAllConnections?.();
      server.close(() => resolve());
    }),
  };
}

const USAGE = `usage: npm run serve -- [--port N] [--host ADDR] [--no-isolation] [--fixtures DIR]

Serves the benchmark page on localhost, cross-origin isolated (COOP/COEP).
  --port N         TCP port (default ${DEFAULT_PORT}; 0 picks a free port)
  --host ADDR      interface to listen on (default 127.0.0.1)
  --no-isolation   omit COOP/COEP: the page runs in its slower transferable-buffer mode
  --fixtures DIR   fixture blocks (default ../shared/blocks-fixtures or IBD_FIXTURES)
`;

async function main() {
  let values;
  try {
    ({ values } = parseFlags(process.argv.slice(2), {
      port: { type: 'string', default: String(DEFAULT_PORT) },
      host: { type: 'string', default: '127.0.0.1' },
      'no-isolation': { type: 'boolean', default: false },
      fixtures: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    }));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`serve: ${err.message}\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  let port;
  try {
    port = numberFlag('port', values.port, { min: 0, max: 65535 });
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`serve: ${err.message}\n`);
    process.exit(2);
  }
  try {
    const { url } = await startServer({ port, host: values.host, isolation: !values['no-isolation'], fixtures: values.fixtures });
    process.stdout.write(`ibd-wasm benchmark page: ${url}\n` +
      `  ${values['no-isolation'] ? 'NOT cross-origin isolated (transferable buffers)' : 'cross-origin isolated (COOP same-origin, COEP require-corp)'}; Ctrl-C stops\n`);
  } catch (err) {
    process.stderr.write(`serve: ${err.message}\n`);
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
