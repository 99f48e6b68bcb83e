// The full-chain (IBD) projection: how long verifying every signature of Bitcoin's history would
// take on this machine, at the throughput just measured.
//
// Skeleton model (the projection issue replaces it with per-era workload tables):
//   workload_checks = CHAIN_TX_COUNT x checks_per_transaction
//   hours           = workload_checks x (ecdsa_share / ecdsa_rate + schnorr_share / schnorr_rate) / 3600
// where checks_per_transaction and the ECDSA/Schnorr shares are measured over the fixture blocks
// that were run, and the rates are the measured aggregate rates of all workers (sig/s).

/** Transactions in the chain, coinbases included, at the newest point the sourced workload data
 *  holds (../shared/chain-workload/tx_count_points.csv, its last row): Bitcoin Core 31's
 *  src/kernel/chainparams.cpp CMainParams::chainTxData at height 938,343 (block
 *  00000000000000000000ccebd6d74d9194d8dcdc1d177c478e094bfad51ba5ac, 2026-02-25T21:32:53Z),
 *  as reviewed in bitcoin/bitcoin PR #34677 and read in a copy of those chainparams
 *  (2140-dev/bitcoin@6ea23b2b). The chain grew past it since; the projection says so by its
 *  date. */
export const CHAIN_TX_DATA = Object.freeze({
  tx_count: 1_315_805_869,
  time: '2026-02-25',
  label: 'Bitcoin Core 31 chainTxData, height 938,343',
  source: 'Bitcoin Core 31 chainparams.cpp CMainParams::chainTxData.tx_count at height 938,343 (2026-02-25; bitcoin/bitcoin PR #34677)',
});

/**
 * Projects the time to verify every signature check of the chain.
 * @param {object} args
 * @param {number} args.ecdsaPerSecond   measured ECDSA rate of the whole pool, sig/s (> 0)
 * @param {number} args.schnorrPerSecond measured Schnorr rate of the whole pool, sig/s (> 0, or any
 *                                       value when the sample has no Schnorr checks)
 * @param {number} args.workers          workers that produced those rates
 * @param {{transactions:number, ecdsa:number, schnorr:number}} args.sample
 *        the fixture blocks run: transactions (coinbases included) and checks by type
 * @returns {{hours:number, workload_checks:number, workload_transactions:number,
 *            workload_transactions_source:string, checks_per_transaction:number,
 *            schnorr_share:number, rates_per_second:{ecdsa:number|null, schnorr:number|null},
 *            workers:number, source:string}} hours of verification; the workload in checks and
 *            in chain transactions (with a short source label); the rates used (sig/s, the
 *            arguments; null for a type the sample lacks); `source`, the model in one sentence
 * @throws {RangeError} when the sample is empty or a needed rate is not a positive number
 */
export function projectIbd({ ecdsaPerSecond, schnorrPerSecond, workers, sample }) {
  const checks = sample.ecdsa + sample.schnorr;
  if (!(sample.transactions > 0) || !(checks > 0)) {
    throw new RangeError('projection needs a sample with transactions and signature checks');
  }
  const schnorrShare = sample.schnorr / checks;
  const ecdsaShare = 1 - schnorrShare;
  if (ecdsaShare > 0 && !(ecdsaPerSecond > 0)) throw new RangeError(`ECDSA rate ${ecdsaPerSecond} is not positive`);
  if (schnorrShare > 0 && !(schnorrPerSecond > 0)) throw new RangeError(`Schnorr rate ${schnorrPerSecond} is not positive`);

  const checksPerTx = checks / sample.transactions;
  const workload = Math.round(CHAIN_TX_DATA.tx_count * checksPerTx);
  const secondsPerCheck = (ecdsaShare > 0 ? ecdsaShare / ecdsaPerSecond : 0) +
                          (schnorrShare > 0 ? schnorrShare / schnorrPerSecond : 0);
  return {
    hours: (workload * secondsPerCheck) / 3600,
    workload_checks: workload,
    workload_transactions: CHAIN_TX_DATA.tx_count,
    workload_transactions_source: `${CHAIN_TX_DATA.label}, ${CHAIN_TX_DATA.time}`,
    checks_per_transaction: checksPerTx,
    schnorr_share: schnorrShare,
    rates_per_second: { ecdsa: ecdsaShare > 0 ? ecdsaPerSecond : null, schnorr: schnorrShare > 0 ? schnorrPerSecond : null },
    workers,
    source: `${CHAIN_TX_DATA.source} x ${checksPerTx.toFixed(3)} checks/transaction measured over ` +
            `${sample.transactions} fixture transactions (skeleton model: the fixture mix stands in for ` +
            'the chain\'s; checks are those of every input\'s final script evaluation, as Core performs them)',
  };
}
