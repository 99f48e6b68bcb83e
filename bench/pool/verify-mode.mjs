// Which verify mode a worker's engine should use, measured: every fixture block validated whole
// in one wasm instance on this thread (validateBlock, wasm/API.md), with each check verified
// when the script asks (verify "synchronous", as Core) or with predicted verdicts and each
// round's pending checks verified in the same instance (verify "rounds"). One untimed warm-up
// pass of each, then --rounds timed passes of each, their order alternating round by round.
// Prints the median, min and max wall time (s, warm) of each mode and the ratio of the medians.
//
//   node bench/pool/verify-mode.mjs [--rounds N] [--variant simd|scalar]
import { fixturesDir, loadBlocks } from '../../blocks-fixtures/loader.mjs';
import { loadEngine } from '../../wasm/engine.mjs';
import { encodeSpentOutputs } from '../../wasm/spent-outputs.mjs';
import { choiceFlag, numberFlag, parseFlags, UsageError } from '../shared/args.mjs';
import { median } from '../core/verify-passes.mjs';

const MODES = ['synchronous', 'rounds'];

/** One pass of `mode` over `blocks` in `engine`: wall seconds; throws on a block not valid. */
function pass(engine, blocks, verify) {
  const start = performance.now();
  for (const b of blocks) {
    const r = engine.validateBlock(b.block, b.spentOutputs, b.hash, b.height, { verify });
    if (!r.ok || !r.valid) throw new Error(`block ${b.height}: ${r.error || 'not valid'} (verify ${verify})`);
  }
  return (performance.now() - start) / 1000;
}

async function main() {
  const { values } = parseFlags(process.argv.slice(2), {
    rounds: { type: 'string', default: '5' },
    variant: { type: 'string', default: 'simd' },
  });
  const rounds = numberFlag('rounds', values.rounds, { min: 1, max: 1000 });
  const variant = choiceFlag('variant', values.variant, ['simd', 'scalar']);
  const loaded = await loadBlocks(fixturesDir());
  const blocks = loaded.filter((b) => !b.error)
    .map((b) => ({ block: b.block, spentOutputs: encodeSpentOutputs(b.spentOutputsJson), hash: b.hash, height: b.height }));
  const engine = await loadEngine(variant);
  for (const mode of MODES) pass(engine, blocks, mode); // warm-up, untimed
  const times = { synchronous: [], rounds: [] };
  for (let r = 0; r < rounds; r++) {
    for (const mode of r % 2 ? [...MODES].reverse() : MODES) times[mode].push(pass(engine, blocks, mode));
  }
  console.log(`${blocks.length} fixture blocks, wasm ${variant}, one instance, ${rounds} timed rounds each (warm, interleaved):`);
  for (const mode of MODES) {
    const xs = times[mode];
    console.log(`  ${mode.padEnd(11)} median ${median(xs).toFixed(3)} s (min ${Math.min(...xs).toFixed(3)}, max ${Math.max(...xs).toFixed(3)})`);
  }
  console.log(`  rounds / synchronous, medians: ${(median(times.rounds) / median(times.synchronous)).toFixed(3)}`);
}

main().catch((err) => {
  process.stderr.write(`verify-mode: ${err.message}\n`);
  process.exit(err instanceof UsageError ? 2 : 1);
});
