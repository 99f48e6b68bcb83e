// A loopback stand-in for a Bitcoin Core node's REST interface (-rest), answering from the
// fixture data with Core 30's exact shapes (src/rest.cpp): binary bodies as
// application/octet-stream; errors as text/plain "<message>\r\n" with Core's status codes:
//   /rest/blockhashbyheight/<h>.bin  400 "Invalid height: <h>", 404 "Block height out of range"
//   /rest/block/<hash>.bin           400 "Invalid hash: <hash>", 404 "<hash> not found"
//   /rest/spenttxouts/<hash>.bin     the same; 404 "<hash> undo not available" when it has none;
//                                    genesis: an empty list (01 00), as Core's rest_spent_txouts
//                                    reads no undo data at height 0
//   /rest/chaininfo.json             {"chain": "main", "blocks": <tip height>, ...}
// Its active chain is the given blocks by height (a test double: heights it lacks below its tip
// answer "Block height out of range" as past the tip would). `failNext` makes the next n
// requests of a path answer 503 (a transient failure the client retries); `intercept` hands the
// requests of a path to a test's own handler (a hostile or broken server) until cleared.
import http from 'node:http';
import { spentTxOutsBody } from './write-datadir.mjs';

/**
 * @param {Array<{height: number, hash: string, block: Uint8Array, txUndos: object[]}>} blocks
 * @returns {Promise<{url: string, close: () => Promise<void>, failNext: (pathPrefix: string, n:
 *   number) => void, intercept: (pathPrefix: string, handler: (req: http.IncomingMessage, res:
 *   http.ServerResponse) => void) => void, clearIntercepts: () => void, requests: string[]}>}
 */
export async function startRestServer(blocks) {
  const byHeight = new Map(blocks.map((b) => [b.height, b]));
  const byHash = new Map(blocks.map((b) => [b.hash, b]));
  const tip = Math.max(...blocks.map((b) => b.height));
  const failing = [];
  const intercepts = [];
  const requests = [];
  const error = (res, status, message) => {
    res.writeHead(status, { 'Content-Type': 'text/plain' });
    res.end(`${message}\r\n`);
  };
  const binary = (res, bytes) => {
    res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
    res.end(Buffer.from(bytes));
  };
  const server = http.createServer((req, res) => {
    const path = req.url;
    requests.push(path);
    const fail = failing.find((f) => path.startsWith(f.prefix) && f.n > 0);
    if (fail) { fail.n--; return error(res, 503, 'Service temporarily unavailable'); }
    const own = intercepts.find((i) => path.startsWith(i.prefix));
    if (own) return own.handler(req, res);
    let m;
    if ((m = /^\/rest\/blockhashbyheight\/([^/.]*)\.bin$/.exec(path))) {
      const h = /^\d+$/.test(m[1]) ? Number(m[1]) : -1;
      if (h < 0 || h > 2 ** 31 - 1) return error(res, 400, `Invalid height: ${m[1]}`);
      const b = byHeight.get(h);
      if (h > tip || !b) return error(res, 404, 'Block height out of range');
      return binary(res, Buffer.from(b.hash, 'hex').reverse());
    }
    if ((m = /^\/rest\/(block|spenttxouts)\/([^/.]*)\.bin$/.exec(path))) {
      if (!/^[0-9a-f]{64}$/i.test(m[2])) return error(res, 400, `Invalid hash: ${m[2]}`);
      const b = byHash.get(m[2].toLowerCase());
      if (!b) return error(res, 404, `${m[2]} not found`);
      return binary(res, m[1] === 'block' ? b.block : spentTxOutsBody(b.height === 0 ? [] : b.txUndos));
    }
    if (path === '/rest/chaininfo.json') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      return res.end(`${JSON.stringify({ chain: 'main', blocks: tip, headers: tip, bestblockhash: byHeight.get(tip).hash })}\n`);
    }
    return error(res, 404, 'Not found');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests,
    failNext: (prefix, n) => failing.push({ prefix, n }),
    intercept: (prefix, handler) => intercepts.push({ prefix, handler }),
    clearIntercepts: () => intercepts.splice(0),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}
