// The whole-block peer: bcoin (npm, pinned devDependency), the JavaScript full node, judging a
// fixture block through its own code: Block.fromRaw, the checks of its Chain.verify and
// Chain.verifyInputs (lib/blockchain/chain.js) that need no chain database, and its script
// engine through tx.verify(view, flags) with a CoinView built from spent_outputs.json.
//
// bcoin's crypto comes from bcrypto 0.3.7, which picks its backend when it is first required:
//   - native: bcrypto's own node-gyp binding (hashes) and secp256k1-node 3.5.0's binding (ECDSA);
//   - node: node:crypto (OpenSSL) for the hashes, when the binding is absent (no NODE_BACKEND);
//   - js: pure JavaScript hashes, with NODE_BACKEND=js.
// ECDSA without a binding is secp256k1-node 3.5.0's own pure-JS code (secp256k1/js) in both of
// the last two. Neither binding builds on Node 20 (see BCRYPTO_NATIVE_UNAVAILABLE), so the
// backend is detected here, never assumed. The backend is fixed per process: one process per
// backend (bench/compare/blocks/bcoin-child.mjs).
//
// bcoin 1.0.2 (2018) predates BIP341/342: a witness v1 program is an upgradable program to it,
// spendable by anyone, so it cannot judge a block that spends a P2TR output (bcoinCannotJudge).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export const PACKAGE = 'bcoin';

/** Why bcrypto's native backend is not there on this project's machines (Node 20): measured by
 *  running each package's node-gyp build against Node 20.20.2's headers. */
export const BCRYPTO_NATIVE_UNAVAILABLE =
  'bcrypto 0.3.7 and secp256k1-node 3.5.0 (its ECDSA binding) do not compile against Node 20: their C++ calls V8 ' +
  'APIs removed by Node 12 (v8::FunctionTemplate::GetFunction() and v8::Value::BooleanValue() without a context; ' +
  'nan 2.10, which bcrypto pins, fails first, and the latest nan does not help), so their install scripts are ' +
  'denied in package.json allowScripts and bcrypto falls back to its node or js backend';

/** The backends a run asks for: the environment each process starts with. `default` lets
 *  bcrypto choose (native when its binding loads, else node); `js` forces pure JavaScript. */
export const BACKENDS = Object.freeze([
  { id: 'default', env: {} },
  { id: 'js', env: { NODE_BACKEND: 'js' } },
]);

/** Core's BIP16 exception block (kernel/chainparams.cpp script_flag_exceptions): no P2SH, no
 *  witness rules. The taproot exception does not matter to bcoin, which has no taproot. */
const BIP16_EXCEPTION = '00000000000002dc756eebf4f49723ed8d30cc28a5f108eb94b1ba88ac4f9c22';
/** Mainnet activation heights, as native/script/consensus_flags.h. */
const HEIGHTS = { bip34: 227931, bip66: 363725, bip65: 388381, csv: 419328, segwit: 481824 };

/** A P2TR scriptPubKey: OP_1 then a 32-byte push (BIP341), as hex. */
const P2TR = /^5120[0-9a-f]{64}$/;

/**
 * Whether bcoin 1.0.2 can judge a fixture block, from its spent outputs alone (nothing is run).
 * @param {{spentOutputsJson: string}} block a loaded block (blocks-fixtures/loader.mjs loadBlocks)
 * @returns {string|null} null when it can; otherwise the reason, one sentence naming how many
 *   inputs spend P2TR outputs
 */
export function bcoinCannotJudge(block) {
  const spent = JSON.parse(block.spentOutputsJson).spent_outputs ?? [];
  const taproot = spent.filter((e) => P2TR.test(String(e.script_pubkey).toLowerCase())).length;
  if (taproot === 0) return null;
  return `${taproot.toLocaleString('en-US')} of its ${spent.length.toLocaleString('en-US')} inputs spend P2TR outputs: ` +
    'bcoin 1.0.2 predates BIP341/342 and treats a witness v1 program as anyone-can-spend, so its verdict would not check them';
}

/** The installed version of a package, from its package.json as `from` resolves it. */
const installedVersion = (name, from = require) => JSON.parse(readFileSync(from.resolve(`${name}/package.json`), 'utf8')).version;

/**
 * Which of the two native bindings bcrypto's native backend needs were not built (node-gyp puts
 * them in each package's build/Release/). Checked on disk, whatever NODE_BACKEND says.
 * @param {NodeRequire} bcryptoRequire a require function relative to bcrypto's package
 * @returns {string|null} null when both are there, else which files are missing
 */
function missingBindings(bcryptoRequire) {
  const files = [
    path.join(path.dirname(bcryptoRequire.resolve('bcrypto/package.json')), 'build', 'Release', 'bcrypto.node'),
    path.join(path.dirname(bcryptoRequire.resolve('secp256k1/package.json')), 'build', 'Release', 'secp256k1.node'),
  ];
  const missing = files.filter((f) => !existsSync(f)).map((f) => path.relative(path.resolve(f, '..', '..', '..', '..'), f));
  return missing.length ? `not built: ${missing.join(', ')}` : null;
}

/**
 * Loads bcoin's block, coin and script modules in this process and says which crypto backend
 * bcrypto chose (which depends on NODE_BACKEND and on whether its bindings were built).
 * @returns {{version: string, bcrypto: string, backend: {requested: string, hashes: 'native'|'node'|'js',
 *   ecdsa: 'native'|'js', native_error: string|null, label: string}, load_ms: number,
 *   validate: Function, prepare: Function, counter: {checks: number}}}
 *   backend: NODE_BACKEND as set, what bcrypto picked for hashes and for ECDSA, which native
 *   binding files are missing (missingBindings; null when both were built) and a one-line label;
 *   load_ms: time to require bcoin's modules (cold, this process, ms); validate / prepare: see
 *   validateWithBcoin and prepareForBcoin below, bound to these modules; counter.checks: ECDSA
 *   verifications bcoin has asked for so far (every secp256k1.verifyDER call: a signature check)
 * @throws Error when bcoin does not load.
 */
export function loadBcoin() {
  const t0 = performance.now();
  const bcoinRequire = createRequire(require.resolve('bcoin/package.json'));
  const m = {
    Block: bcoinRequire('./lib/primitives/block'),
    CoinView: bcoinRequire('./lib/coins/coinview'),
    Output: bcoinRequire('./lib/primitives/output'),
    Script: bcoinRequire('./lib/script/script'),
    consensus: bcoinRequire('./lib/protocol/consensus'),
    halvingInterval: bcoinRequire('./lib/protocol/networks').main.halvingInterval,
  };
  // The modules bcoin itself requires (its own bcrypto copy, not another one).
  const bcryptoRequire = createRequire(bcoinRequire.resolve('bcrypto/package.json'));
  const secp256k1 = bcryptoRequire('./lib/secp256k1');
  const sha256 = bcryptoRequire('./lib/sha256');
  const load_ms = performance.now() - t0;

  const nativeError = missingBindings(bcryptoRequire);
  const hashes = sha256 === bcryptoRequire('./lib/js/sha256') ? 'js' : sha256 === bcryptoRequire('./lib/node/sha256') ? 'node' : 'native';
  const ecdsa = secp256k1.native ? 'native' : 'js';
  const requested = process.env.NODE_BACKEND ? `NODE_BACKEND=${process.env.NODE_BACKEND}` : 'NODE_BACKEND unset';
  const label = `bcrypto ${hashes === 'native' ? 'native binding' : hashes === 'node' ? 'node:crypto (OpenSSL)' : 'pure JS'} hashes, ` +
    `ECDSA ${ecdsa === 'native' ? 'libsecp256k1 binding' : 'secp256k1-node 3.5.0 pure JS'} (${requested})`;

  // Count signature checks: bcoin's TX.checksig calls secp256k1.verifyDER once per check
  // (looked up on the shared module object at each call), so a wrapper sees every one.
  const counter = { checks: 0 };
  const verifyDER = secp256k1.verifyDER;
  secp256k1.verifyDER = function countedVerifyDER(...args) {
    counter.checks++;
    return verifyDER.apply(this, args);
  };

  return {
    version: installedVersion('bcoin'),
    bcrypto: installedVersion('bcrypto', bcoinRequire),
    backend: { requested, hashes, ecdsa, native_error: nativeError, label },
    load_ms,
    counter,
    prepare: (block, options) => prepareForBcoin(m, block, options),
    validate: (prepared) => validateWithBcoin(m, prepared),
  };
}

/**
 * Core's GetBlockScriptFlags for a block, as bcoin's Script.flags bits: P2SH and WITNESS for
 * every block but the BIP16 exception, DERSIG, CHECKLOCKTIMEVERIFY, CHECKSEQUENCEVERIFY and
 * NULLDUMMY from their heights (the same flags the engine applies: native/script/consensus_flags.h).
 * bcoin's own chain would switch P2SH on by time and WITNESS with segwit's activation; with
 * Core's flags both sides judge the same rules.
 */
function scriptFlags(Script, hash, height) {
  const F = Script.flags;
  let flags = hash === BIP16_EXCEPTION ? 0 : F.VERIFY_P2SH | F.VERIFY_WITNESS;
  if (height >= HEIGHTS.bip66) flags |= F.VERIFY_DERSIG;
  if (height >= HEIGHTS.bip65) flags |= F.VERIFY_CHECKLOCKTIMEVERIFY;
  if (height >= HEIGHTS.csv) flags |= F.VERIFY_CHECKSEQUENCEVERIFY;
  if (height >= HEIGHTS.segwit) flags |= F.VERIFY_NULLDUMMY;
  return flags;
}

/**
 * What validateWithBcoin needs of a loaded block, made once, outside any timing: the block bytes
 * and the spent outputs decoded from JSON (value in satoshis, scriptPubKey bytes), in input order.
 * @param {object} m the bcoin modules (loadBcoin)
 * @param {{height: number, hash: string, block: Uint8Array, spentOutputsJson: string}} block
 *   a loaded block (blocks-fixtures/loader.mjs)
 * @param {{skipProofOfWork?: boolean}} [options] skipProofOfWork: for blocks mutated from real
 *   ones (the tests), whose proof of work the mutation broke
 * @returns {{height: number, hash: string, raw: Buffer, spent: Array<{value: number, script: Buffer}>,
 *   flags: number, skipProofOfWork: boolean}}
 */
function prepareForBcoin(m, block, { skipProofOfWork = false } = {}) {
  const spent = (JSON.parse(block.spentOutputsJson).spent_outputs ?? [])
    .map((e) => ({ value: e.value, script: Buffer.from(e.script_pubkey, 'hex') }));
  return {
    height: block.height, hash: block.hash, raw: Buffer.from(block.block.buffer, block.block.byteOffset, block.block.byteLength),
    spent, flags: scriptFlags(m.Script, block.hash, block.height), skipProofOfWork,
  };
}

/** A verdict that rejects the block for `reason` at `stage`, with no input judged. */
const rejected = (reason, stage, extra = {}) => ({ valid: false, reject_reason: reason, stage, failing_inputs: [], ...extra });

/**
 * Judges one block with bcoin, single-threaded, as bcoin's Chain.verify and Chain.verifyInputs
 * do, without what needs its chain database: the header chain (bad-prevblk, bad-diffbits,
 * checkpoints), the median time past (time-too-old; finality is judged against the header's
 * time, which catches every lock at or above it), the UTXO set (missing or spent coins,
 * coinbase maturity: the spent outputs are taken as given) and sequence locks. In order:
 * Block.fromRaw; the hash against the fixture's; verifyPOW (high-hash); checkBody (size,
 * coinbase, merkle root, sanity, legacy sigops); bad-version; tx.isFinal (bad-txns-nonfinal);
 * BIP34 coinbase height (bad-cb-height); the witness commitment (bad-witness-nonce-size,
 * bad-witness-merkle-match, unexpected-witness); bad-blk-weight; then, over a CoinView of the
 * spent outputs, each tx's sigop cost (bad-blk-sigops) and tx.checkInputs (amounts, fees),
 * the coinbase claim (bad-cb-amount), and every non-coinbase tx through tx.verify(view, flags)
 * (mandatory-script-verify-flag-failed). Scripts run whatever the rules said, so that failing
 * inputs are counted as the engine counts them; a rule failing comes first, as in Core.
 * @param {object} m the bcoin modules (loadBcoin)
 * @param {object} p prepareForBcoin's result
 * @returns {{valid: boolean, reject_reason: string, stage: string, failing_inputs:
 *   Array<{tx: number, input: number, error: string}>, inputs: number, txs: number}}
 *   reject_reason: Core's reason ("" when valid); stage: where bcoin found it ('block' for the
 *   block rules, 'inputs' for amounts, sigops and claim, 'scripts'; "" when valid);
 *   failing_inputs: every input whose script failed (tx and input index in the block, bcoin's
 *   ScriptError code), found by tx.checkInput on each input of a tx whose tx.verify was false.
 * @throws Error for what is not a verdict: a block that does not parse, a hash that differs
 *   from the fixture's, spent outputs that do not match the inputs, or bcoin throwing anything
 *   but a ScriptError.
 */
function validateWithBcoin(m, p) {
  const { Block, CoinView, Output, Script, consensus, halvingInterval } = m;
  const block = Block.fromRaw(p.raw);
  if (block.rhash() !== p.hash) throw new Error(`block ${p.height}: bcoin hashes it as ${block.rhash()}, the fixture says ${p.hash}`);
  const height = p.height;
  const txs = block.txs.length;
  const inputs = block.txs.reduce((n, tx, i) => n + (i > 0 ? tx.inputs.length : 0), 0);
  const at = (extra) => ({ inputs, txs, ...extra });

  if (!p.skipProofOfWork && !block.verifyPOW()) return at(rejected('high-hash', 'block'));
  const [bodyValid, bodyReason] = block.checkBody();
  if (!bodyValid) return at(rejected(bodyReason, 'block'));
  if ((block.version < 2 && height >= HEIGHTS.bip34) || (block.version < 3 && height >= HEIGHTS.bip66) ||
      (block.version < 4 && height >= HEIGHTS.bip65)) return at(rejected('bad-version', 'block'));
  for (const tx of block.txs) if (!tx.isFinal(height, block.time)) return at(rejected('bad-txns-nonfinal', 'block'));
  if (height >= HEIGHTS.bip34 && block.getCoinbaseHeight() !== height) return at(rejected('bad-cb-height', 'block'));
  let commit = null;
  if (height >= HEIGHTS.segwit && (p.flags & Script.flags.VERIFY_WITNESS)) {
    commit = block.getCommitmentHash();
    if (commit) {
      if (!block.getWitnessNonce()) return at(rejected('bad-witness-nonce-size', 'block'));
      if (!commit.equals(block.createCommitmentHash())) return at(rejected('bad-witness-merkle-match', 'block'));
    }
  }
  if (!commit && block.hasWitness()) return at(rejected('unexpected-witness', 'block'));
  if (block.getWeight() > consensus.MAX_BLOCK_WEIGHT) return at(rejected('bad-blk-weight', 'block'));

  // The CoinView: one output per non-coinbase input, from spent_outputs.json (bcoin would read
  // them from its UTXO set, and take same-block outputs from the txs before).
  if (p.spent.length !== inputs) throw new Error(`block ${height}: ${p.spent.length} spent outputs for ${inputs} inputs`);
  const view = new CoinView();
  let k = 0;
  for (let i = 1; i < txs; i++) {
    for (const input of block.txs[i].inputs) {
      const e = p.spent[k++];
      view.addOutput(input.prevout, new Output({ value: e.value, script: Script.fromRaw(e.script) }));
    }
  }

  let verdict = null;
  let sigops = 0;
  let reward = 0;
  for (let i = 0; i < txs && !verdict; i++) {
    const tx = block.txs[i];
    sigops += tx.getSigopsCost(view, p.flags);
    if (sigops > consensus.MAX_BLOCK_SIGOPS_COST) verdict = rejected('bad-blk-sigops', 'inputs');
    else if (i > 0) {
      const [fee, reason] = tx.checkInputs(view, height);
      if (fee === -1) verdict = rejected(reason, 'inputs');
      else if ((reward += fee) > consensus.MAX_MONEY) verdict = rejected('bad-cb-amount', 'inputs');
    }
  }
  if (!verdict && block.getClaimed() > reward + consensus.getReward(height, halvingInterval)) {
    verdict = rejected('bad-cb-amount', 'inputs');
  }

  const failing = [];
  for (let i = 1; i < txs; i++) {
    const tx = block.txs[i];
    if (tx.verify(view, p.flags)) continue;
    for (let j = 0; j < tx.inputs.length; j++) {
      try {
        tx.checkInput(j, view.getOutput(tx.inputs[j].prevout), p.flags);
      } catch (err) {
        if (err?.type !== 'ScriptError') throw err;
        failing.push({ tx: i, input: j, error: err.code });
      }
    }
  }
  if (verdict) return at({ ...verdict, failing_inputs: failing });
  if (failing.length) return at({ valid: false, reject_reason: 'mandatory-script-verify-flag-failed', stage: 'scripts', failing_inputs: failing });
  return at({ valid: true, reject_reason: '', stage: '', failing_inputs: [] });
}
