// A node URL whose every request is redirected (307) to a server on another origin (another
// port: an origin is scheme, host and port), which answers with a fixed status and text: for the REST and RPC sources'
// tests of an answer that is not the node's.
import http from 'node:http';

/**
 * @param {number} status the other server's answer to every request
 * @param {string} text its body (text/plain)
 * @returns {Promise<{nodeUrl: string, otherUrl: string, seen: Array<{url: string, auth:
 *   string|null}>, close: () => Promise<void>}>} nodeUrl: the redirecting "node"; seen: each
 *   request the other server got, with its Authorization header
 */
export async function redirectingPair(status, text) {
  const seen = [];
  const other = http.createServer((req, res) => {
    seen.push({ url: req.url, auth: req.headers.authorization ?? null });
    res.writeHead(status, { 'Content-Type': 'text/plain' });
    res.end(text);
  });
  await new Promise((resolve) => other.listen(0, '127.0.0.1', resolve));
  const otherUrl = `http://127.0.0.1:${other.address().port}`;
  const node = http.createServer((req, res) => {
    res.writeHead(307, { Location: `${otherUrl}${req.url}` });
    res.end();
  });
  await new Promise((resolve) => node.listen(0, '127.0.0.1', resolve));
  return {
    nodeUrl: `http://127.0.0.1:${node.address().port}`, otherUrl, seen,
    close: () => Promise.all([other, node].map((s) => new Promise((resolve) => { s.closeAllConnections(); s.close(resolve); }))),
  };
}
