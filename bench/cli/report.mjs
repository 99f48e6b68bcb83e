// Terminal rendering of the benchmark's result document (bench/core/run-core.mjs). Formatting only;
// the numbers' words (int, countOf) come from the run core, which the page shares.
import { MIN_ROUNDS } from '../core/model-projection.mjs';
import { amountsText, atMixLine, countOf, missCause, int, pairedEfficiencyText, verdictText } from '../core/format.mjs';
import { noiseWarning, projectionOrderWarning, sampleWarnings } from '../core/warnings.mjs';
import { chainShortfall } from '../core/run-core.mjs';

/** Invalid checks listed per block on the terminal; --json lists them all. */
const MAX_INVALID_LISTED = 20;

/** What a valid script's invalid checks are (every input succeeded, yet a check failed). */
const TOLERATED = 'CHECKMULTISIG trials and other checks that valid scripts tolerate; Core performs them too';

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
 * verdicts, the workers' warm engine time, coverage by script type, fee / subsidy / sigop
 * cost, block verdict with Core's reject reason and stage, the rules not checked), totals with the throughput of each pass
 * (median and min–max over the timed rounds, and a warning when they disagree), the projection, the
 * machine, the chain pass, then every invalid signature, every failed block and the chain's
 * failure at the end.
 * @param {object} doc result of runBench
 * @returns {string} text ending with a newline
 */
export function formatReport(doc) {
  const out = [];
  const e = doc.engine ?? {};
  out.push(`ibd-wasm: wasm variant ${doc.variant}, ${countOf(doc.workers, 'worker')}, batch ${int(doc.batch_size)}, ` +
    `libsecp256k1 ${e.secp256k1 ?? '?'} (${e.field ?? '?'} field)`);
  out.push(`fixtures: ${doc.fixtures}`, '');
  const widths = [7, -64, 5, 6, 6, 7, 6, 7, 9];
  out.push(row(['height', 'hash', 'txs', 'inputs', 'ecdsa', 'schnorr', 'valid', 'invalid', 'worker ms'], widths));
  for (const b of doc.blocks) {
    if (b.error) {
      out.push(row([b.height ?? '?', b.hash ?? '?', '-', '-', '-', '-', '-', '-', '-'], widths) + '  FAILED (see end)');
      continue;
    }
    out.push(row([b.height, b.hash, int(b.tx_count), int(b.inputs), int(b.checks.ecdsa), int(b.checks.schnorr),
      int(b.valid), int(b.invalid), workerMs(b)], widths));
    const pad = ' '.repeat(9);
    const amounts = amountsText(b);
    if (!amounts) { // rejected before any input was connected: no coverage, amounts or rounds
      out.push(`${pad}rejected before any input was connected; block ${verdictText(b)}`);
      if (b.not_checked?.length) out.push(`${pad}not checked (docs/validation.md): ${b.not_checked.map((n) => n.rule).join(', ')}`);
      continue;
    }
    out.push(`${pad}coverage (inputs evaluated / total, checks): ${coverageText(b.coverage)}`);
    out.push(`${pad}${amounts}`);
    out.push(`${pad}block ${verdictText(b)}`);
    if (b.not_checked?.length) out.push(`${pad}not checked (docs/validation.md): ${b.not_checked.map((n) => n.rule).join(', ')}`);
  }
  out.push(`worker ms: each block's engine time in the workers (parse, sighash, script, verify), warm: median of the ` +
    'timed end-to-end rounds, summed over a split block\'s ranges');
  // The answer the run is for, the cost model's check and its projections, closes the report,
  // before only its verdict line (and the failed blocks, named at the end).
  out.push('', ...totalsLines(doc), ...scalingLines(doc), ...chainLines(doc), '', ...modelLines(doc.projection ?? {}),
    '', ...tailLines(doc));
  return `${out.join('\n').trimEnd()}\n`;
}

/** A block's warm engine time in the workers (engine_ms.median: the median over the timed rounds
 *  of the four stages' sum, the time the cost model's check compares with), or '-' (a block
 *  rejected before any input was connected: its failure carries no times). */
function workerMs(b) {
  return b.engine_ms ? b.engine_ms.median.toFixed(1) : '-';
}

/** "p2pkh 886/886, 886 checks; p2sh-multisig 150/150, 415 checks" */
function coverageText(coverage) {
  const entries = Object.entries(coverage ?? {});
  if (!entries.length) return 'no inputs';
  return entries.map(([k, c]) => `${k} ${int(c.evaluated)}/${int(c.inputs)}, ${countOf(c.checks, 'check')}`).join('; ');
}

/** "6,112 checks/s (median of 3 timed rounds, min 5,900 – max 6,300)" for one pass's totals
 *  entry; `note` opens the parenthesis. */
function rateWithSpread(pass, note = '') {
  const n = pass.rounds_seconds?.length ?? 0;
  const spread = pass.checks_per_second === null || n === 0 ? 'not measured'
    : n === 1 ? '1 timed round'
      : `median of ${n} timed rounds, min ${int(pass.checks_per_second_min)} – max ${int(pass.checks_per_second_max)}`;
  return `${perSec(pass.checks_per_second)} (${note}${spread})`;
}

/** The one-per-key passes (each type's first check under each key: no key reuse), which the
 *  projection's high end verifies at; none when the run has no such pass. */
function keyReuseLines(t) {
  const rows = ['ecdsa', 'schnorr'].map((k) => [k, t.by_type[`${k}_one_per_key`]]).filter(([, s]) => s?.checks > 0);
  if (!rows.length) return [];
  return ['  without key reuse (the first check under each key; the projection\'s high end verifies at these rates):',
    ...rows.map(([k, s]) => `    ${k.padEnd(8)} ${int(s.checks).padStart(6)} ${s.checks === 1 ? 'check ' : 'checks'}  ${secs(s.seconds).padStart(9)}  ` +
      `${rateWithSpread(s, 'separate pass; ')}`)];
}

/** The totals' words for the invalid checks: those of valid blocks (every input's script
 *  succeeded: trials the scripts tolerate) apart from those of invalid blocks (where a script
 *  failed; only the first failing input of each is known, as script_error). */
function invalidText(doc) {
  const t = doc.totals;
  if (!t.invalid) return '';
  const ok = doc.blocks.filter((b) => !b.error);
  const inValid = ok.filter((b) => b.block_valid).reduce((n, b) => n + b.invalid, 0);
  const bad = ok.filter((b) => !b.block_valid && b.invalid > 0);
  if (!bad.length) return ` (${TOLERATED})`;
  const inInvalid = t.invalid - inValid;
  // Checks of the named failing input of each invalid block, and the others (further failing
  // inputs, or trials of inputs that succeeded: which, the result does not say).
  const ofFailed = bad.reduce((n, b) => n + b.invalid_checks.filter((c) => c.of_failed_input).length, 0);
  const failedInputs = bad.reduce((n, b) => n + (b.failed_inputs?.length ?? 0), 0);
  const whose = bad.length === 1 ? (failedInputs === 1 ? 'its failing input' : 'its failing inputs') : 'their failing inputs';
  const what = ofFailed === inInvalid ? `checks of ${whose}`
    : ofFailed > 0 ? `${int(ofFailed)} of failing inputs, ${int(inInvalid - ofFailed)} tolerated by succeeding scripts`
      : `tolerated by succeeding scripts (${TOLERATED.split(';')[0]})`;
  const heights = bad.slice(0, 5).map((b) => b.height).join(', ') + (bad.length > 5 ? ` and ${bad.length - 5} more` : '');
  const where = `in invalid block${bad.length === 1 ? '' : 's'} ${heights} (${what})`;
  return inValid ? `: ${int(inValid)} in valid blocks (${TOLERATED}), ${int(inInvalid)} ${where}` : `, ${where}`;
}

function totalsLines(doc) {
  const t = doc.totals;
  const m = doc.machine ?? {};
  return [
    `totals: ${countOf(t.blocks, 'block')} (${int(t.blocks_failed)} failed), ${countOf(t.inputs, 'input')} ` +
      `(${int(t.evaluated_inputs)} evaluated), ${countOf(t.checks, 'check')}: ${int(t.valid)} valid, ${int(t.invalid)} invalid` +
      `${invalidText(doc)}; ` +
      `${countOf(t.invalid_blocks, 'invalid block')}`,
    `verify, all checks: ${secs(t.seconds)}, ${rateWithSpread(t)}`,
    `  ${perSec(t.per_worker)} per worker (overall / ${countOf(doc.workers, 'worker')})` +
      (doc.workers > m.cores ? `; ${countOf(doc.workers, 'worker')} on ${countOf(m.cores, 'core')} take turns on them, so each runs slower than a worker with a core of its own` : ''),
    ...['ecdsa', 'schnorr'].map((k) => {
      const s = t.by_type[k];
      return `  ${k.padEnd(8)} ${int(s.checks).padStart(8)} ${s.checks === 1 ? 'check ' : 'checks'}  ${secs(s.seconds).padStart(9)}  ` +
        `${rateWithSpread(s, 'separate pass; ')}`;
    }),
    ...keyReuseLines(t),
    ...[noiseWarning(doc)].filter(Boolean).map((w) => `WARNING: ${w}`),
    ...endToEndLines(doc),
    ...projectionLines(doc),
    `machine: ${m.cpu}, ${countOf(m.cores, 'core')}, ${m.platform} ${m.arch}, Node ${m.node}, emcc ${m.emcc ?? 'unknown'}`,
  ];
}

/** Hex hash shortened for a line: its first 16 digits and an ellipsis. */
const shortHash = (h) => (h ? `${h.slice(0, 16)}…` : '?');

/**
 * The chain pass (bench/core/chain-pass.mjs), preceded by a blank line: what was connected from
 * genesis, the headers checked, the spends the coins view gave and their checks, whether they
 * equal the fixture path's, the coins left, the rules still not checked; or why it did not run.
 * Nothing when the fixture set has no chain.
 */
function chainLines(doc) {
  const c = doc.chain;
  if (!c) return [];
  if (c.error) return ['', `chain: not run: ${c.error}`];
  const heights = `heights ${int(c.first_height)} to ${int(c.first_height + c.blocks - 1)}`;
  const verdict = c.valid ? 'every one valid'
    : c.failure ? `stopped at height ${int(c.failure.height)}` : 'not all connected';
  const pow = c.proof_of_work_skipped ? 'proof of work skipped (--skip-proof-of-work)'
    : `${int(c.proof_of_work_checked)} proofs of work checked`;
  const spenders = c.spending_blocks;
  const matched = c.fixture_match;
  const lines = [
    '',
    `chain: ${c.file} (${heights}), connected from genesis: ${int(c.connected)} of ${countOf(c.blocks, 'block')}, ${verdict} ` +
      `(${c.seconds.toFixed(2)} s in a worker, not timed for throughput)`,
    `  headers: ${int(c.links_checked)} links to the previous block and ${pow}; tip ${int(c.tip.height)} ${shortHash(c.tip.hash)}` +
      (c.valid ? (c.tip.matches_manifest ? ' (the manifest\'s last block)' : ' (NOT the manifest\'s last block)') : ''),
    `  coins view: ${countOf(c.spends.from_view + c.spends.in_block, 'spend')} found in it (${int(c.spends.from_view)} from earlier ` +
      `blocks, ${int(c.spends.in_block)} from their own block), coinbase maturity and BIP30 checked; ` +
      `${countOf(c.coins.in_view, 'coin')} left, ${int(c.coins.bytes)} of ${int(c.coins.max_bytes)} bytes`,
  ];
  if (spenders.length) {
    lines.push(`  spends in ${spenders.length === 1 ? 'block' : 'blocks'} ${spenders.map((b) => b.height).join(', ')}: ` +
      `${countOf(c.checks.total, 'check')}, ${int(c.checks.valid)} valid, ${int(c.checks.invalid)} invalid; ` +
      (matched.compared ? `checks and verdicts equal the fixture path's for ${int(matched.equal)} of ${countOf(matched.compared, 'block')}` +
        (matched.differing.length ? ` (DIFFERENT: ${matched.differing.join(', ')})` : '')
        : 'no fixture block of these heights in this run to compare with'));
  }
  if (c.not_checked.length) lines.push(`  not checked for the chain's blocks (docs/validation.md): ${c.not_checked.join(', ')}`);
  return lines;
}

/** The --scaling table (nothing without --scaling), preceded by a blank line: per worker count,
 *  the median rate with its min–max, speedup vs 1 worker, efficiency and start-up. */
function scalingLines(doc) {
  const rows = doc.scaling;
  if (!rows?.length) return [];
  const cores = doc.machine?.cores;
  const n = doc.rounds;
  const checks = doc.totals?.checks;
  const widths = [7, 14, 21, 7, 10, 11];
  const ratio = (x, digits) => (x === null || x === undefined ? '-' : x.toFixed(digits));
  const pct = (x) => (x === null || x === undefined ? '-' : `${(100 * x).toFixed(1)}%`);
  const lines = [
    '',
    `verify scaling, signature checks only: all ${countOf(checks, 'check')} on 1 to ${countOf(rows.length, 'worker')}, ${countOf(n, 'timed round')} ` +
      (doc.scaling_interleaved ? '(each round runs every worker count once)' : '(worker counts one after another)'),
    row(['workers', 'checks/s', 'min – max', 'speedup', 'efficiency', 'start-up ms'], widths),
    ...rows.map((r) => row([r.workers, int(r.checks_per_second),
      `${int(r.checks_per_second_min)} – ${int(r.checks_per_second_max)}`,
      `${ratio(r.speedup, 2)}x`, pct(r.efficiency), ratio(r.startup_ms, 1)], widths)),
    '  checks/s: median of the timed rounds; speedup: vs 1 worker, measured in this same run (ratios come from ' +
      'this one run); efficiency: speedup / workers',
    '  start-up: pool creation until every worker has loaded its wasm, apart from (not in) the checks/s',
  ];
  if (cores && rows.length > cores) {
    lines.push(`  past ${countOf(cores, 'core')} workers share cores: speedup there is not expected to grow`);
  }
  return lines;
}

/** The skeleton projection as a short block (result, workload, rates and model, where the rates
 *  come from, then the sample warnings and, when the two figures are out of order, that warning),
 *  printed only when the cost model's projection (modelLines, at the end) could not be made:
 *  two projections of the same question would contradict each other. */
function projectionLines(doc) {
  const p = doc.projection ?? {};
  if (p.model) return sampleWarnings(doc).map((w) => `WARNING: ${w}`);
  if (p.error || p.hours === null || p.hours === undefined) return [`projection: unavailable (${p.error ?? 'no result'})`];
  const sample = p.sample ?? {};
  const hours = p.hours.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const rate = (r) => (r === null ? 'none in the sample' : `${int(r)}/s`);
  const lines = [
    `projection: ${hours} h to verify every signature of the chain on ${countOf(p.workers, 'worker')}`,
    `  workload: ${int(p.workload_checks)} checks = ${int(p.workload_transactions)} transactions ` +
      `(${p.workload_transactions_source}) x ${p.checks_per_transaction.toFixed(3)} checks/tx ` +
      `(${countOf(sample.blocks, 'fixture block')}, ${countOf(sample.transactions, 'transaction')})`,
    `  rates: ECDSA ${rate(p.rates_per_second.ecdsa)}, Schnorr ${rate(p.rates_per_second.schnorr)}; ` +
      'skeleton model: the fixture mix stands in for the chain\'s',
    `  (rates from the separate ECDSA and Schnorr passes; the combined pass above ran at ${rate(doc.totals.checks_per_second)})`,
    ...(p.end_to_end ? [`  ${p.end_to_end.hours.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} h ` +
      `to validate it whole (parse, sighash, script, verify) at this run's end-to-end rate, ${int(p.end_to_end.checks_per_second)} ` +
      `checks/s on ${countOf(p.end_to_end.workers, 'worker')}`] : []),
  ];
  return [...lines, ...[...sampleWarnings(doc), projectionOrderWarning(doc)].filter(Boolean).map((w) => `  WARNING: ${w}`)];
}

/** Hours with one decimal, and a {value, low, high} as "28.9 h (21.0-64.3 h)". */
const hoursText = (h) => `${h.value.toFixed(1)} h (${h.low.toFixed(1)}-${h.high.toFixed(1)} h)`;

/** The cost model's projection (bench/core/model-projection.mjs): the per-block check, then the
 *  full-chain and after-assumevalid hours with their ranges, last, as `npm start` ends. */
function modelLines(p) {
  const m = p.model;
  if (!m) return [`projection by the cost model: unavailable (${p.model_error ?? 'no result'}); the skeleton projection above stands in`];
  const judged = m.per_block.filter((b) => b.judged);
  const pct = (r) => `${r >= 1 ? '+' : ''}${((r - 1) * 100).toFixed(1)}%`;
  const lines = [
    `cost model (docs/workload.md): each block predicted from costs fitted on the other ${countOf(m.blocks_fitted - 1, 'block')}, against its measured time in the workers (warm, median)`,
    ...judged.map((b) => `  ${String(b.height).padStart(7)}  ${countOf(b.checks, 'check').padStart(13)}  predicted ${b.predicted_ms.toFixed(1).padStart(7)} ms  measured ${b.measured_ms.toFixed(1).padStart(7)} ms  ${pct(b.ratio).padStart(7)}${b.within ? '' : '  MISS'}${b.pooled?.length ? `  (pooled costs for ${b.pooled.join(', ')}: no other block holds them)` : ''}`),
    m.trusted ? `  trusted: every block with 100 or more checks within +-15% (medians of ${m.rounds} rounds)`
      : `  NOT trusted: ${m.misses.length ? `${m.misses.map((x) => `${x.height} ${pct(x.ratio)}`).join(', ')} outside +-15%` : m.untrusted_reason}` +
        `${m.misses.length && m.untrusted_reason !== 'blocks outside +-15%' ? `; ${m.untrusted_reason}` : ''}; the projection below is ` +
        `then only indicative${m.misses.length ? missCause(m, 'rerun', MIN_ROUNDS) : ''}`,
    ...(m.at_mix ? [atMixLine(m.at_mix)] : []),
    `  on ${countOf(m.workers, 'worker')} (each ${(m.efficiency * 100).toFixed(0)}% of the wall time in the engine, measured)${m.assumption ? `; ${m.assumption}` : ''}`,
    `projection, the whole chain (heights 0-${int(m.tip)}): ${hoursText(m.full_chain_hours)} to validate (parse, sighash, script, verify)`,
    `projection, after assumevalid (heights ${int(m.assumevalid.height + 1)}-${int(m.tip)}, the scripts Core checks by default): ${hoursText(m.after_assumevalid_hours)}`,
    `  range: the workload table's low and high (npm run project) under the fastest, median and slowest rounds' costs (from 5 rounds, one left out at each end), the extremes; ${m.assumevalid.source}`,
  ];
  return lines;
}

/** The end-to-end pass (bench/core/end-to-end.mjs): whole blocks validated in the workers. */
function endToEndLines(doc) {
  const e = doc.end_to_end;
  if (!e) return [];
  const n = e.rounds_seconds.length;
  const spread = n > 1 ? `median of ${n} timed rounds, warm; min ${int(e.checks_per_second_min)} – max ${int(e.checks_per_second_max)} checks/s`
    : '1 timed round, warm';
  const st = e.stages;
  const busy = e.main_thread_busy_share === null ? 'not measurable in this host'
    : `${(100 * e.main_thread_busy_share).toFixed(1)}% of the wall time (${e.main_thread_busy_method})` +
      (e.main_thread_busy_method === 'own code' ? '' : `, ${(100 * e.main_thread_own_code_share).toFixed(1)}% in the run's own code`);
  const cold = e.cold;
  return [
    `end to end, whole blocks in ${countOf(e.workers, 'worker')} (parse, sighash, script, verify in each): ${secs(e.seconds)} ` +
      `for ${countOf(e.blocks, 'block')} (${spread})`,
    `  ${e.blocks_per_second.toFixed(1)} blocks/s, ${int(e.inputs_per_second)} inputs/s, ${int(e.checks_per_second)} checks/s, ` +
      `${(e.bytes_per_second / 1e6).toFixed(2)} MB/s of block data`,
    `  stages, summed over the workers: parse ${secs(st.parse_s)}, sighash ${secs(st.sighash_s)}, script ${secs(st.script_s)}, ` +
      `verify ${secs(st.verify_s)}`,
    `  main thread busy: ${busy}; it runs no engine`,
    `  first pass (cold; gave the block entries): ${secs(cold.seconds)}, after encoding the spent outputs in the workers ` +
      `in ${secs(cold.encode_seconds)} (${(100 * cold.encode_share).toFixed(1)}% of encoding and first pass)` +
      (cold.main_thread_busy_share === null ? '' : `; main thread busy ${(100 * cold.main_thread_busy_share).toFixed(1)}% of both`),
    ...(e.scaling ? [`  end-to-end scaling, whole blocks (${n > 1 ? 'interleaved rounds, median' : '1 timed round'}): ${e.scaling.map((s) => `${countOf(s.workers, 'worker')} ` +
      `${int(s.checks_per_second)} checks/s${s.workers > 1 ? ` (${s.speedup.toFixed(2)}x, ${(100 * s.efficiency).toFixed(0)}% efficiency${pairedEfficiencyText(s)})` : ''}`).join('; ')}`] : []),
  ];
}

/** Problems last, so they are what the reader sees: invalid blocks (with their invalid checks),
 *  disagreements, failures. Invalid checks of valid blocks (CHECKMULTISIG trials and other checks
 *  the scripts tolerate) are counted in the totals, listed only in --json. */
function tailLines(doc) {
  const out = [];
  const invalidBlocks = doc.blocks.filter((b) => b.block_valid === false);
  if (invalidBlocks.length) {
    out.push(`INVALID BLOCKS on mainnet data (${invalidBlocks.length}):`);
    for (const b of invalidBlocks) out.push(`  block ${b.height} ${b.hash}: ${b.reject_message} (${b.stage})`);
    for (const b of invalidBlocks) {
      const failed = b.failed_inputs ?? [];
      for (const f of failed.slice(0, MAX_INVALID_LISTED)) {
        out.push(`  block ${b.height}: tx ${f.tx}, input ${f.input} (${f.type}) fails its script: SCRIPT_ERR_${f.error}`);
      }
      if (failed.length > MAX_INVALID_LISTED) {
        out.push(`  block ${b.height}: ${failed.length - MAX_INVALID_LISTED} more failing inputs (all listed with --json)`);
      }
      // Only the checks of failing inputs: a succeeding script's tolerated trials are no fault.
      const ofFailed = b.invalid_checks.filter((c) => c.of_failed_input);
      for (const c of ofFailed.slice(0, MAX_INVALID_LISTED)) {
        out.push(`  block ${b.height}: invalid check ${c.index}: tx ${c.tx}, input ${c.input} (${c.type})`);
      }
      if (ofFailed.length > MAX_INVALID_LISTED) {
        out.push(`  block ${b.height}: ${ofFailed.length - MAX_INVALID_LISTED} more invalid checks of failing inputs (all listed with --json)`);
      }
      const tolerated = b.invalid_checks.length - ofFailed.length;
      if (tolerated) {
        out.push(`  block ${b.height}: ${countOf(tolerated, 'invalid check')} of inputs whose scripts succeed (${TOLERATED}), listed with --json`);
      }
    }
  }
  const e2e = doc.end_to_end?.disagreements ?? [];
  if (e2e.length) {
    out.push(`END-TO-END DISAGREEMENT (${e2e.length}): the timed rounds differ from the first pass, or failed, on:`);
    for (const d of e2e) out.push(`  block ${d.height}: ${d.what}`);
  }
  if (doc.disagreements?.length) {
    out.push(`VERDICT DISAGREEMENT between the timed passes or with the workers' whole-block validation for ${countOf(doc.disagreements.length, 'check')}, ` +
      `first: ${doc.disagreements.slice(0, 10).join(', ')}`);
  }
  if (doc.errors.length) {
    out.push(`FAILED BLOCKS (${doc.errors.length}):`);
    for (const e of doc.errors) out.push(`  ${e.height ?? '?'}${e.hash ? ` ${e.hash}` : ''}: ${e.error}`);
  }
  const c = doc.chain;
  if (c?.failure) {
    const f = c.failure;
    out.push(f.judged ? `CHAIN INVALID at height ${f.height} ${f.hash}: ${f.message} (${f.stage})`
      : `CHAIN FAILED at height ${f.height}${f.hash ? ` ${f.hash}` : ''}: ${f.message}`);
  }
  if (doc.verify_error) out.push(`VERIFY PASSES FAILED: ${doc.verify_error}`);
  if (c?.file_error) out.push(`CHAIN FILE: ${c.file_error}`);
  const shortfall = c ? chainShortfall(c) : null;
  if (shortfall) out.push(`CHAIN NOT VALIDATED: ${shortfall}`);
  if (c?.error) out.push(`CHAIN FAILED: ${c.error}`);
  if (c?.fixture_match?.differing.length) {
    out.push(`CHAIN DISAGREEMENT: the chain's checks or verdicts differ from the fixture path's at heights ${c.fixture_match.differing.join(', ')}`);
  }
  if (!out.length) {
    out.push(`every block valid${c ? ', the chain\'s too' : ''}; no block failed${doc.totals.invalid ? '' : '; all checks valid'}`);
  }
  return out;
}
