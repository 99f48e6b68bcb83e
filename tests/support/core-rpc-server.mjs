// A loopback stand-in for a Bitcoin Core node's JSON-RPC interface, answering from the fixture
// data in Core's shapes (JSON-RPC 1.0 as Core serves it, rpc/server.cpp and httprpc.cpp):
//   getblockcount                -> the tip height
//   getblockhash [h]             -> the hash; error -8 "Block height out of range" (HTTP 500)
//   getblock [hash, 0]           -> the block's hex; [hash, 3] -> its transactions with each
//                                   input's prevout {generated, height, value (BTC), scriptPubKey
//                                   {hex}}; error -5 "Block not found" (HTTP 500)
//   any other method             -> error -32601 "Method not found" (HTTP 404)
//   wrong or missing credentials -> HTTP 401, empty body, WWW-Authenticate: Basic realm="jsonrpc"
// `calls` lists each call's {method, params}; `tamper` rewrites a result before it is sent (a
// node answering wrongly); `intercept` hands a method's calls, whatever their credentials, to a
// test's own handler (a hostile or broken server) until cleared.
import http from 'node:http';
import { parseBlock } from './write-datadir.mjs';

/**
 * @param {Array<{height: number, hash: string, block: Uint8Array, txUndos: object[]}>} blocks
 * @param {{user: string, password: string}} credentials what the client must send
 * @returns {Promise<{url: string, close: () => Promise<void>, calls: Array<{method: string,
 *   params: unknown[]}>, tamper: (fn: ((method: string, params: unknown[], result: unknown) =>
 *   unknown)|null) => void, intercept: (method: string, handler: (req: http.IncomingMessage, res:
 *   http.ServerResponse) => void) => void, clearIntercepts: () => void}>}
 */
export async function startRpcServer(blocks, { user, password }) {
  const byHeight = new Map(blocks.map((b) => [b.height, b]));
  const byHash = new Map(blocks.map((b) => [b.hash, b]));
  const tip = Math.max(...blocks.map((b) => b.height));
  const expected = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const calls = [];
  const intercepts = new Map();
  let tamper = null;
  const reply = (res, status, id, result, error = null) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(`${JSON.stringify({ result, error, id })}\n`);
  };
  const verbose = (b) => ({
    hash: b.hash, height: b.height,
    tx: parseBlock(b.block).map((tx, t) => ({
      txid: tx.txid,
      vin: t === 0 ? [{ coinbase: '00', sequence: 4294967295 }] : tx.ins.map((outpoint, i) => {
        const [txid, vout] = outpoint.split(':');
        const coin = b.txUndos[t - 1][i];
        return { txid, vout: Number(vout), prevout: { generated: coin.coinbase, height: coin.height, value: Number(coin.value) / 1e8, scriptPubKey: { hex: Buffer.from(coin.script).toString('hex') } }, sequence: 4294967295 };
      }),
    })),
  });
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (d) => { text += d; });
    req.on('end', () => {
      const { method, params = [], id = null } = JSON.parse(text);
      calls.push({ method, params });
      if (intercepts.has(method)) return intercepts.get(method)(req, res); // whatever the credentials
      if (req.headers.authorization !== expected) {
        res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="jsonrpc"' });
        return res.end();
      }
      const ok = (result) => reply(res, 200, id, tamper ? tamper(method, params, result) : result);
      if (method === 'getblockcount') return ok(tip);
      if (method === 'getblockhash') {
        const b = byHeight.get(params[0]);
        if (!b) return reply(res, 500, id, null, { code: -8, message: 'Block height out of range' });
        return ok(b.hash);
      }
      if (method === 'getblock') {
        const b = byHash.get(params[0]);
        if (!b) return reply(res, 500, id, null, { code: -5, message: 'Block not found' });
        return ok(params[1] === 0 ? Buffer.from(b.block).toString('hex') : verbose(b));
      }
      return reply(res, 404, id, null, { code: -32601, message: 'Method not found' });
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    calls,
    tamper: (fn) => { tamper = fn; },
    intercept: (method, handler) => intercepts.set(method, handler),
    clearIntercepts: () => intercepts.clear(),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}
