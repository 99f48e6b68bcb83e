// What the block-source tests (datadir, REST, RPC) compare between a block validated from a
// node's data and the same block from its spent_outputs.json.

/** The parts of a validateBlock result that must not depend on where the spent outputs came
 *  from: verdict, error, counts, fee, sigops, the checks and their verdicts, the sighash
 *  workload and the coverage by script type. */
export const verdictOf = (r) => ({
  ok: r.ok, valid: r.valid, error: r.error, inputs: r.inputs, fee: r.fee, sigopCost: r.sigopCost,
  checks: Buffer.from(r.checks ?? []).toString('hex'), verdicts: Buffer.from(r.verdicts ?? []).toString('hex'),
  sighash: JSON.stringify(r.sighash), coverage: JSON.stringify(r.coverage),
});
