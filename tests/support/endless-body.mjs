// A loopback server's answer whose body runs on: for the REST and RPC clients' size caps.

/**
 * Answers 200 with a body of `fill` bytes in 64 KiB chunks, as fast as the client takes them,
 * up to `total` bytes (the client is expected to stop reading well before).
 * @param {import('node:http').ServerResponse} res
 * @param {{contentType: string, fill: number, total: number, headers?: object}} options
 */
export function endlessBody(res, { contentType, fill, total, headers = {} }) {
  res.writeHead(200, { 'Content-Type': contentType, ...headers });
  const chunk = Buffer.alloc(64 * 1024, fill);
  let sent = 0;
  const more = () => {
    while (!res.destroyed && sent < total) {
      sent += chunk.length;
      if (!res.write(chunk)) return res.once('drain', more);
    }
    if (!res.destroyed) res.end();
  };
  more();
}
