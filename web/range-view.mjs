// The page's presentation of a node range's document (web/node-run.mjs, bench/core/range-report.mjs):
// the report's lines as the terminal prints them, and a table of the blocks. Formatting only.
import { rangeReportLines } from '../bench/core/range-report.mjs';
import { blockRow, int, plural } from './results.mjs';

/** Most rows the table shows: a long range's blocks are all in the JSON download. */
export const MAX_ROWS = 5000;

/** A block's verdict in words: valid, INVALID, DAMAGED (its stored bytes fail a check Core makes
 *  before storing a block: bench/core/range-stream.mjs), or not judged. */
const verdictOf = (b) => (b.valid === true ? 'valid' : b.valid === false ? 'INVALID' : b.damaged ? 'DAMAGED' : 'not judged');

/**
 * Fills the node range's section.
 * @param {HTMLElement} section holds #range-report (a <pre>), #range-table (its tbody: a row per
 *   block: height, hash, verdict, inputs, ECDSA, Schnorr, reject reason or error) and #range-note
 * @param {object} doc the range's document
 */
export function renderRange(section, doc) {
  section.hidden = false;
  section.querySelector('#range-report').textContent = rangeReportLines(doc).join('\n');
  const body = section.querySelector('#range-table').tBodies[0];
  // Every block not valid, then the others in height order, up to MAX_ROWS.
  const notValid = doc.blocks.filter((b) => b.valid !== true);
  const shown = doc.blocks.length <= MAX_ROWS ? doc.blocks
    : [...notValid.slice(0, MAX_ROWS), ...doc.blocks.filter((b) => b.valid === true).slice(0, Math.max(0, MAX_ROWS - notValid.length))]
      .sort((a, b) => a.height - b.height);
  body.replaceChildren(...shown.map((b) => {
    const { tr, cell } = blockRow(document.createElement('tr'), b);
    cell(verdictOf(b), b.valid === true ? 'ok' : 'bad');
    for (const n of [b.inputs, b.ecdsa, b.schnorr]) cell(int(n), 'num');
    cell(b.valid === true ? (b.note ?? '') : [b.reject_reason, b.error, b.note].filter(Boolean).join(': '), 'error-cell');
    if (b.valid !== true) tr.className = 'failed';
    tr.dataset.height = String(b.height);
    return tr;
  }));
  const read = doc.read_error ? `; the range stopped at height ${int(doc.read_error.height)}, which could not be read (above)` : '';
  section.querySelector('#range-note').textContent = (shown.length < doc.blocks.length
    ? `${int(shown.length)} of ${plural(doc.blocks.length, 'block')} shown (every block not valid among them); the JSON download has them all`
    : `${plural(doc.blocks.length, 'block')}`) + read + '. ECDSA and Schnorr: the signature checks of each block\'s inputs; ' +
    'genesis is never validated (it has no undo data). The verdict is Bitcoin Core\'s on the rules the block, its height and ' +
    'the outputs it spends decide (not checked: the rules that need the chain, docs/validation.md).';
}
