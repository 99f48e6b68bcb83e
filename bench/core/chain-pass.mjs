// The chain pass of the benchmark, host-neutral: the fixture set's consecutive blocks (the
// manifest's `chain`, mainnet blocks 1-255) validated as a chain from genesis by the engine's
// ChainValidation (wasm/API.md, native/validation/chain_validation.h) in one worker of the
// pool (VerifyPool.validateChain: one message, re-run on another worker if its worker dies):
// every header's link and proof of work, every spend's prevout taken from the engine's coins
// view, each block through the same validation as the fixture path. Then the spends' check
// records and verdicts are compared with the fixture path's (the same heights validated from
// their spent_outputs.json by the workers in this run). Its signature checks (seven in blocks
// 1-255) are verified inside that worker's instance; the chain's blocks are not timed passes.
// The main thread runs no engine here either: it sends the file and reads the results.
import { countOf } from './format.mjs';

/** Byte-for-byte equality of two typed arrays. */
function sameBytes(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Runs the chain pass.
 * @param {import('../../workers/verify-pool.mjs').VerifyPool} pool a ready pool; one of its
 *   workers runs the chain (VerifyPool.validateChain)
 * @param {{file: string, firstHeight: number, blocks: number, prevHash: string, lastHash: string,
 *   bytes?: Uint8Array, error?: string}} chain the host's chain (blocks-fixtures/loader.mjs
 *   loadChain): the framed block file, or the error that kept it from loading
 * @param {Array} validated the fixture blocks' entries (bench/core/block-entries.mjs
 *   validateInWorkers): the fixture path's checks and verdicts, compared with the chain's for
 *   the heights both hold
 * @param {{skipProofOfWork?: boolean, log: (msg: string) => void}} options skipProofOfWork:
 *   ChainValidation's option (only for chains mutated from real ones)
 * @returns {Promise<object>} the document's `chain` entry (docs/json.md): {file, first_height,
 *   blocks, frames, offered, connected, not_validated, valid, links_checked,
 *   proof_of_work_checked, proof_of_work_skipped, spends: {from_view, in_block}, checks: {total,
 *   valid, invalid, ecdsa, schnorr}, spending_blocks: [{height, hash, inputs, spends_from_view,
 *   spends_in_block, checks, valid_checks, block_valid, fixture_match}], fixture_match:
 *   {compared, equal, differing}, coins: {in_view, bytes, max_bytes}, tip: {height, hash,
 *   matches_manifest}, not_checked, failure, file_error, error, seconds (the worker's time in
 *   ChainValidation, s)}. `error` (the file did not load, or the worker's engine threw on
 *   every attempt) leaves the counts null; never rejects.
 */
export async function runChainPass(pool, chain, validated, { skipProofOfWork = false, log }) {
  const base = {
    file: chain.file, first_height: chain.firstHeight ?? null, blocks: chain.blocks ?? null, frames: null, offered: null,
    connected: null, not_validated: null, valid: false, links_checked: null, proof_of_work_checked: null,
    proof_of_work_skipped: skipProofOfWork, spends: null, checks: null, spending_blocks: [], fixture_match: null,
    coins: null, tip: null, not_checked: [], failure: null, file_error: null, error: null, seconds: null,
  };
  if (chain.error) {
    log(`chain: not run: ${chain.error}`);
    return { ...base, error: chain.error };
  }
  let run;
  let status;
  let ms;
  try {
    ({ run, status, ms } = await pool.validateChain(chain.bytes, skipProofOfWork ? { skipProofOfWork: true } : undefined));
  } catch (err) {
    const error = `${chain.file}: ChainValidation in a worker failed: ${err?.message ?? err}`;
    log(`chain: ${error}`);
    return { ...base, error };
  }
  const seconds = ms / 1000;
  const blocks = run.blocks;
  const connected = blocks.filter((b) => b.connected);
  const last = blocks[blocks.length - 1];
  const stopped = last && !last.connected ? last : null;
  const sum = (f) => blocks.reduce((n, b) => n + f(b), 0);
  const verdicts = blocks.flatMap((b) => [...b.verdicts]);
  const fixtureBy = new Map(validated.filter((b) => !b.error).map((b) => [b.height, b]));
  const spending = blocks.filter((b) => b.inputs > 0 && b.ok).map((b) => {
    const f = fixtureBy.get(b.height);
    const comparable = f && f.hash === b.hash && !f.rejected;
    return {
      height: b.height, hash: b.hash, inputs: b.inputs, spends_from_view: b.spendsFromView, spends_in_block: b.spendsInBlock,
      checks: b.verdicts.length, valid_checks: [...b.verdicts].filter((x) => x === 1).length, block_valid: b.valid,
      fixture_match: comparable
        ? sameBytes(b.checks, f.checks) && sameBytes(b.verdicts, f.verdicts) && sameBytes(b.origins, f.origins) : null,
    };
  });
  const compared = spending.filter((s) => s.fixture_match !== null);
  const notChecked = [...new Set(connected.flatMap((b) => b.notChecked.map((n) => n.rule)))];
  const doc = {
    ...base,
    frames: run.frames,
    offered: blocks.length,
    connected: connected.length,
    not_validated: run.notValidated,
    valid: !stopped && !run.fileError && connected.length === chain.blocks,
    links_checked: blocks.filter((b) => b.linkChecked).length,
    proof_of_work_checked: blocks.filter((b) => b.proofOfWorkChecked).length,
    spends: { from_view: sum((b) => b.spendsFromView), in_block: sum((b) => b.spendsInBlock) },
    checks: { total: verdicts.length, valid: verdicts.filter((x) => x === 1).length, invalid: verdicts.filter((x) => x !== 1).length,
      ecdsa: sum((b) => b.ecdsa), schnorr: sum((b) => b.schnorr) },
    spending_blocks: spending,
    fixture_match: { compared: compared.length, equal: compared.filter((s) => s.fixture_match).length,
      differing: compared.filter((s) => !s.fixture_match).map((s) => s.height) },
    coins: { in_view: status.coins, bytes: status.coinsBytes, max_bytes: status.coinsMaxBytes },
    tip: { height: status.height, hash: status.hash, matches_manifest: status.hash === chain.lastHash },
    not_checked: notChecked,
    failure: stopped ? {
      height: stopped.height, hash: stopped.hash, reject_reason: stopped.ok ? stopped.rejectReason : null,
      stage: stopped.ok ? stopped.stage : null, tx: stopped.txIndex, input: stopped.inputIndex, output: stopped.outputIndex,
      byte: stopped.byteOffset, message: stopped.error, judged: stopped.ok,
    } : null,
    file_error: run.fileError ? run.fileError.error : null,
    seconds,
  };
  log(`chain: ${countOf(doc.connected, 'block')} of ${chain.file} connected from genesis (${countOf(doc.offered, 'block')} offered), ` +
    `${countOf(doc.spends.from_view, 'spend')} from the coins view, ${seconds.toFixed(2)} s in a worker` +
    (stopped ? `; stopped at height ${stopped.height}: ${stopped.error}` : '') +
    (doc.file_error ? `; ${doc.file_error}` : ''));
  return doc;
}
