// The height range a run reads from a block source, from what the user gave and what the source
// holds. Host-neutral: the CLI (blocks-fixtures/node-source.mjs) and the page (web/node-run.mjs).

/**
 * The height range to read from an opened source: --from defaults to its first height, --to to
 * its tip, or for a datadir the end of the run of consecutive heights that holds --from (and at
 * most `span` blocks from --from, when given).
 * @param {{first: number, tip: number, spans?: Array<[number, number]>, described: {kind: string,
 *   folder?: string, url?: string}}} opened the source (node-source.mjs openNodeSource's, or the
 *   page's: web/node-run.mjs)
 * @param {number|null|undefined} from
 * @param {number|null|undefined} to
 * @param {{span?: number, fromName?: string, toName?: string}} [options] the names the errors give
 * @returns {{from: number, to: number}}
 * @throws Error when --from is above --to, or --to is past the tip (the source named)
 */
export function rangeOf(opened, from, to, { span = Infinity, fromName = '--from', toName = '--to' } = {}) {
  const where = opened.described.kind === 'datadir' ? `the files in ${opened.described.folder}` : opened.described.url;
  const first = from ?? opened.first;
  if (first > opened.tip) throw new Error(`${fromName} ${first} is past the tip of ${where}, height ${opened.tip}`);
  // A datadir with gaps (pruned, or blocks copied in parts): by default the run of consecutive
  // heights that holds --from, never across a gap.
  const run = opened.spans?.find(([a, b]) => a <= first && first <= b);
  const last = to ?? Math.min(run ? run[1] : opened.tip, first + span - 1);
  if (first > last) throw new Error(`${fromName} ${first} is above ${toName} ${last}${to === undefined || to === null ? ' (the end of its run of consecutive heights, or the tip)' : ''}`);
  if (last > opened.tip) throw new Error(`${toName} ${last} is past the tip of ${where}, height ${opened.tip}`);
  return { from: first, to: last };
}

