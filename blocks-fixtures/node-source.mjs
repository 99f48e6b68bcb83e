// The block source a Node command line names: a Bitcoin Core datadir (--datadir, read-only, no
// lock: datadir/), its REST interface (--rest: rest/) or its JSON-RPC interface (--rpc, with
// --rpc-cookie: rpc/). `npm start` (bench/cli/node-source.mjs) and `npm run project -- --check`
// (bench/workload/range-check.mjs) open theirs here.
import { readFileSync } from 'node:fs';
import { openDatadir, spansText } from './datadir/datadir.mjs';
import { displayHex } from './datadir/chain-order.mjs';
import { datadirFiles, hash256 } from './datadir/node-files.mjs';
import { openRest } from './rest/rest-source.mjs';
import { openRpc } from './rpc/rpc-source.mjs';

export { rangeOf } from './range.mjs';

/**
 * A node's source whose read() also checks that the block served for a hash is that block: its
 * 80-byte header hashes (SHA256d, display hex) to the hash asked for. Else read() rejects naming
 * both hashes, the height and the request, where the link check that follows would only have
 * seen a block that does not link.
 */
function servedAsAsked(source, request) {
  return {
    ...source,
    read: (height, last) => source.read(height, last).then((item) => {
      if (item?.block?.length >= 80) {
        const got = displayHex(hash256(item.block.subarray(0, 80)));
        if (got !== item.hash) {
          throw new Error(`${source.url} ${request} ${item.hash} (height ${height}): the node served block ${got}, ` +
            'whose header hashes to another hash than the one asked for');
        }
      }
      return item;
    }),
  };
}

const plural = (n, noun) => `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;

/**
 * Opens the source the options name.
 * @param {{datadir?: string, rest?: string, rpc?: string, rpcCookie?: string}} options exactly
 *   one of datadir, rest and rpc
 * @param {(msg: string) => void} log also told each retry of a node's request (what failed, "try
 *   k of n")
 * @returns {Promise<{source: {read: (height: number, last: number) => Promise<object>},
 *   described: object, skipped: string[], first: number, tip: number, close: () =>
 *   Promise<void>}>} source: read(h) gives {height, hash, block, undo} (datadir.mjs,
 *   rest-source.mjs, rpc-source.mjs); described: the document's `source` (docs/json.md);
 *   skipped: a record a node is still writing (cut by the end of the newest blk file), and
 *   "DAMAGED: ..." for a damaged blk file's first bad record (a record cut by the end of an older
 *   blk file among them); first: the lowest height worth validating (1: genesis has no undo data, or a
 *   pruned node's first); tip: the active chain's tip height; close: releases open files
 * @throws Error naming the folder, file and byte offset, or the URL, when the source cannot be
 *   opened (not a datadir, a damaged record, a refused connection, a 401, an unreadable or empty
 *   cookie)
 */
export async function openNodeSource(options, log) {
  if (options.rpc !== undefined) {
    let cookie;
    if (options.rpcCookie !== undefined) {
      try {
        cookie = readFileSync(options.rpcCookie, 'utf8');
      } catch (err) {
        throw new Error(`--rpc-cookie ${options.rpcCookie}: ${err.code === 'ENOENT' ? 'no such file (the node writes <datadir>/.cookie while it runs)' : err.message}`);
      }
    }
    const source = openRpc(options.rpc, { cookie, cookieFile: options.rpcCookie, onRetry: (m) => log(`RPC: ${m}`) });
    log(`RPC: ${source.url}: asking for the tip`);
    const tip = await source.tipHeight();
    return { source: servedAsAsked(source, 'getblock'), described: { kind: 'rpc', url: source.url, tip: { height: tip } }, skipped: [], first: 1, tip, close: async () => {} };
  }
  if (options.rest !== undefined) {
    const source = openRest(options.rest, { onRetry: (m) => log(`REST: ${m}`) });
    log(`REST: ${source.url}: asking for the tip`);
    const tip = await source.tipHeight();
    return { source: servedAsAsked(source, '/rest/block'), described: { kind: 'rest', url: source.url, tip: { height: tip } }, skipped: [], first: 1, tip, close: async () => {} };
  }
  const files = datadirFiles(options.datadir);
  log(`datadir: ${files.folder}: ${plural(files.blk.length, 'blk file')}, ${plural(files.rev.length, 'rev file')}, ${files.xor ? 'xor.dat' : 'no xor.dat'}; ordering the headers`);
  try {
    const source = await openDatadir(files, { hash256 });
    for (const p of source.partial) log(`skipped: ${p}`);
    for (const d of source.damaged) log(`DAMAGED: ${d}`);
    for (const x of files.ignored) log(`skipped: ${x}`);
    if (source.spans.length > 1) log(`the files hold heights ${spansText(source.spans)}: without --to, a range ends where its run of consecutive heights does`);
    if (!source.tip) throw new Error(`${files.folder}: no block with a known height (neither linked to genesis nor after BIP34)`);
    return {
      source,
      described: { kind: 'datadir', folder: files.folder, obfuscated: Boolean(files.xor), tip: source.tip, unplaced_blocks: source.unplaced, stale_blocks: source.stale },
      skipped: [...files.ignored, ...source.partial, ...source.damaged.map((d) => `DAMAGED: ${d}`)],
      first: Math.max(1, source.heights.first),
      tip: source.tip.height,
      spans: source.spans,
      close: () => files.close(),
    };
  } catch (err) {
    await files.close();
    throw err;
  }
}
