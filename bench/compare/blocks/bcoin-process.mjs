// Runs bcoin (bench/compare/blocks/bcoin.mjs) in a child process per crypto backend and asks it
// for passes over fixture blocks, one at a time, so that the whole-block rounds can interleave
// it with the other contenders (bench/compare/whole-block.mjs).
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./bcoin-child.mjs', import.meta.url));

/**
 * Starts one bcoin process and hands it the blocks.
 * @param {{id: string, env: object}} backend one of bcoin.mjs BACKENDS
 * @param {Array<{height: number, hash: string, block: Uint8Array, spentOutputsJson: string}>} blocks
 *   loaded blocks (blocks-fixtures/loader.mjs) it may be asked to judge
 * @param {{skipProofOfWork?: boolean, timeoutMs?: number}} [options] timeoutMs: per message
 *   (default 30 min: a full pass of pure-JS ECDSA takes minutes)
 * @returns {Promise<{info: {version: string, bcrypto: string, backend: object, load_ms: number,
 *   start_ms: number}, pass: (heights: number[]) => Promise<Array<object>>, close: () => void}>}
 *   info.backend: what bcrypto chose (bcoin.mjs loadBcoin); load_ms: requiring bcoin in the
 *   child; start_ms: fork to ready, blocks decoded (cold). pass resolves to bcoin-child.mjs's
 *   per-block entries {height, seconds, checks, verdict} or {height, seconds, error}.
 * @throws (rejects) Error when the process cannot start or bcoin does not load in it.
 */
export async function startBcoin(backend, blocks, { skipProofOfWork = false, timeoutMs = 30 * 60_000 } = {}) {
  const t0 = performance.now();
  const env = { ...process.env };
  delete env.NODE_BACKEND;
  const child = fork(CHILD, [], { env: { ...env, ...backend.env }, serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr = (stderr + d).slice(-4000); });
  let exited = null;
  const waiters = new Set();
  child.on('exit', (code, signal) => {
    exited = `bcoin process (${backend.id}) exited (${signal ?? `code ${code}`})${stderr ? `: ${stderr.trim()}` : ''}`;
    for (const w of waiters) w.reject(new Error(exited));
  });
  child.on('error', (err) => { for (const w of waiters) w.reject(err); });

  const ask = (msg) => new Promise((resolve, reject) => {
    if (exited) return reject(new Error(exited));
    const timer = setTimeout(() => reject(new Error(`bcoin process (${backend.id}): no answer to ${msg.cmd} in ${timeoutMs} ms`)), timeoutMs);
    const w = { reject: (e) => { clearTimeout(timer); waiters.delete(w); reject(e); } };
    waiters.add(w);
    child.once('message', (reply) => {
      clearTimeout(timer);
      waiters.delete(w);
      if (reply.type === 'error') reject(new Error(`bcoin (${backend.id}): ${reply.error}`));
      else resolve(reply);
    });
    child.send(msg);
  });

  const close = () => { if (!exited && child.connected) child.disconnect(); };
  try {
    const ready = await ask({
      cmd: 'init', skipProofOfWork,
      blocks: blocks.map((b) => ({ height: b.height, hash: b.hash, block: b.block, spentOutputsJson: b.spentOutputsJson })),
    });
    return {
      info: { version: ready.version, bcrypto: ready.bcrypto, backend: ready.backend, load_ms: ready.load_ms, start_ms: performance.now() - t0 },
      pass: async (heights) => (await ask({ cmd: 'pass', heights })).blocks,
      close,
    };
  } catch (err) {
    close();
    throw err;
  }
}
