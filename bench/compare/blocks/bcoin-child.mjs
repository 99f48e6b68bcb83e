// The process one bcoin backend runs in (bench/compare/blocks/bcoin-process.mjs forks it with
// NODE_BACKEND set or unset): bcrypto picks its backend once, when bcoin is first required, so
// each backend needs a process of its own. Single-threaded: bcoin's worker pool is not used.
//
// Messages (process.send, 'advanced' serialization, so block bytes cross as Uint8Array):
//   in  {cmd: 'init', blocks: [{height, hash, block, spentOutputsJson}], skipProofOfWork}
//   out {type: 'ready', version, bcrypto, backend, load_ms}   or {type: 'error', error}
//   in  {cmd: 'pass', heights: number[]}
//   out {type: 'pass', blocks: [{height, seconds, checks, verdict} | {height, seconds, error}]}
// The process exits when its parent disconnects.
import { loadBcoin } from './bcoin.mjs';

let bcoin = null;
let prepared = new Map(); // height -> prepareForBcoin result (decoded once, untimed)

function init(msg) {
  bcoin = loadBcoin();
  prepared = new Map(msg.blocks.map((b) => [b.height, bcoin.prepare(b, { skipProofOfWork: msg.skipProofOfWork })]));
  return { type: 'ready', version: bcoin.version, bcrypto: bcoin.bcrypto, backend: bcoin.backend, load_ms: bcoin.load_ms };
}

/** One pass: each block once, in order; seconds is that block's wall time (validate only). */
function pass(msg) {
  const blocks = [];
  for (const height of msg.heights) {
    const p = prepared.get(height);
    const c0 = bcoin.counter.checks;
    const t0 = performance.now();
    try {
      if (!p) throw new Error(`block ${height} was not sent at init`);
      const verdict = bcoin.validate(p);
      blocks.push({ height, seconds: (performance.now() - t0) / 1000, checks: bcoin.counter.checks - c0, verdict });
    } catch (err) {
      blocks.push({ height, seconds: (performance.now() - t0) / 1000, error: String(err?.stack ?? err) });
    }
  }
  return { type: 'pass', blocks };
}

process.on('message', (msg) => {
  let reply;
  try {
    reply = msg.cmd === 'init' ? init(msg) : msg.cmd === 'pass' ? pass(msg) : { type: 'error', error: `unknown command ${msg.cmd}` };
  } catch (err) {
    reply = { type: 'error', error: String(err?.stack ?? err) };
  }
  process.send(reply);
});
process.on('disconnect', () => process.exit(0));
