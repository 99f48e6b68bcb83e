// Terminal rendering of the benchmark's result document (bench/run.mjs). Formatting only.

/** Invalid checks listed per block on the terminal; --json lists them all. */
const MAX_INVALID_LISTED = 20;

const int = (n) => (n === null || n === undefined ? '-' : Math.round(n).toLocaleString('en-US'));
const secs = (s) => (s === null || s === undefined ? '-' : `${s.toFixed(3)} s`);
const perSec = (r) => (r === null || r === undefined ? 'n/a' : `${int(r)} checks/s`);
const counts = (obj) => {
  const entries = Object.entries(obj ?? {});
  return entries.length ? entries.map(([k, v]) => `${k} ${int(v)}`).join(', ') : 'none';
};

/** Right-aligns cells to the given widths (negative width: left-align). */
function row(cells, widths) {
  return cells.map((c, i) => (widths[i] < 0 ? String(c).padEnd(-widths[i]) : String(c).padStart(widths[i]))).join('  ');
}

/**
 * Formats the result document as the terminal report: a header, one entry per block (counts,
 * verdicts, inputs by type, unsupported inputs by type), totals with per-type throughput, the
 * projection, the machine, then every invalid signature and every failed block at the end.
 * @param {object} doc result of runBench
 * @returns {string} text ending with a newline
 */
export function formatReport(doc) {
  const out = [];
  const e = doc.engine ?? {};
  out.push(`ibd-wasm: wasm variant ${doc.variant}, ${doc.workers} worker(s), batch ${doc.batch_size}, ` +
    `libsecp256k1 ${e.secp256k1 ?? '?'} (${e.field ?? '?'} field)`);
  out.push(`fixtures: ${doc.fixtures}`, '');
  const widths = [7, -64, 5, 6, 6, 7, 6, 7, 9];
  out.push(row(['height', 'hash', 'txs', 'inputs', 'ecdsa', 'schnorr', 'valid', 'invalid', 'parse ms'], widths));
  for (const b of doc.blocks) {
    if (b.error) {
      out.push(row([b.height, b.hash ?? '?', '-', int(b.inputs), '-', '-', '-', '-', '-'], widths) + '  FAILED (see end)');
      continue;
    }
    out.push(row([b.height, b.hash, int(b.tx_count), int(b.inputs), int(b.checks.ecdsa), int(b.checks.schnorr),
      int(b.valid), int(b.invalid), b.parse_sighash_ms.toFixed(1)], widths));
    out.push(`${' '.repeat(9)}inputs by type: ${counts(b.inputs_by_type)}; unsupported: ${counts(b.unsupported_by_type)}`);
  }
  out.push('', ...totalsLines(doc), '', ...tailLines(doc));
  return `${out.join('\n').trimEnd()}\n`;
}

function totalsLines(doc) {
  const t = doc.totals;
  const p = doc.projection ?? {};
  const m = doc.machine ?? {};
  return [
    `totals: ${t.blocks} blocks (${t.blocks_failed} failed), ${int(t.inputs)} inputs (${int(t.unsupported_inputs)} unsupported), ` +
      `${int(t.checks)} checks: ${int(t.valid)} valid, ${int(t.invalid)} invalid`,
    `verify, all checks (median of ${doc.rounds} rounds): ${secs(t.seconds)}, ${perSec(t.checks_per_second)} overall, ` +
      `${perSec(t.per_worker)} per worker (${doc.workers} workers, ${doc.variant}, batch ${doc.batch_size})`,
    ...['ecdsa', 'schnorr'].map((k) => {
      const s = t.by_type[k];
      return `  ${k.padEnd(8)} ${int(s.checks).padStart(8)} checks  ${secs(s.seconds).padStart(9)}  ${perSec(s.checks_per_second)} (separate pass)`;
    }),
    `parse + sighash (main thread): ${secs(t.parse_sighash_seconds)}`,
    p.error ? `projection: unavailable (${p.error})`
      : `projection: full IBD signature checks in ${p.hours.toFixed(2)} h on ${doc.workers} worker(s) ` +
        `(${int(p.workload_checks)} checks; ${p.source})`,
    `machine: ${m.cpu}, ${m.cores} cores, ${m.platform} ${m.arch}, Node ${m.node}, emcc ${m.emcc ?? 'unknown'}`,
  ];
}

/** Problems last, so they are what the reader sees: invalid signatures, disagreements, failures. */
function tailLines(doc) {
  const out = [];
  const invalid = doc.blocks.filter((b) => b.invalid > 0);
  if (invalid.length) {
    out.push(`INVALID SIGNATURES on mainnet data (${int(doc.totals.invalid)}):`);
    for (const b of invalid) {
      for (const c of b.invalid_checks.slice(0, MAX_INVALID_LISTED)) {
        out.push(`  block ${b.height} ${b.hash}: tx ${c.tx}, input ${c.input} (${c.type}, check ${c.index} of the block)`);
      }
      if (b.invalid_checks.length > MAX_INVALID_LISTED) {
        out.push(`  block ${b.height}: ${b.invalid_checks.length - MAX_INVALID_LISTED} more (all listed with --json)`);
      }
    }
  }
  if (doc.disagreements?.length) {
    out.push(`VERDICT DISAGREEMENT between the per-type and combined passes for ${doc.disagreements.length} ` +
      `check(s), first: ${doc.disagreements.slice(0, 10).join(', ')}`);
  }
  if (doc.errors.length) {
    out.push(`FAILED BLOCKS (${doc.errors.length}):`);
    for (const e of doc.errors) out.push(`  ${e.height}${e.hash ? ` ${e.hash}` : ''}: ${e.error}`);
  }
  if (!out.length) out.push('all checks valid; no block failed');
  return out;
}
