// The same engine, two targets: for every fixture block, the native build's validation
// (ibd_dump_checks: BlockValidation to the end, final checks and their verdicts) equals the wasm
// build's BlockValidation byte for byte, for both wasm variants, with the same block verdict,
// fee, subsidy, sigop cost and rules not checked.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixturesDir, loadBlocks } from '../blocks-fixtures/loader.mjs';
import { loadEngine } from '../wasm/engine.mjs';
import { VARIANTS } from '../wasm/variants.mjs';
import { walkChecks } from '../wasm/check-buffer.mjs';
import { nativeDump } from './support/native-tool.mjs';
import { firstDifference, validateFixture, verifyChecks } from './support/wasm.mjs';

const blocks = await loadBlocks(fixturesDir());
const engines = Object.fromEntries(await Promise.all(VARIANTS.map(async (v) => [v, await loadEngine(v)])));

/** Where the wasm buffer first departs from the native one, naming the native record. */
function describeDifference(native, wasm) {
  const at = firstDifference(native, wasm);
  let record = '';
  try {
    const { offsets } = walkChecks(native);
    record = ` (record ${offsets.findIndex((_, i) => offsets[i + 1] > at)})`;
  } catch { /* a malformed native buffer: the byte offset alone */ }
  return `first difference at byte ${at}${record}; lengths native ${native.length}, wasm ${wasm.length}`;
}

for (const block of blocks) {
  test(`block ${block.height}: native and wasm (${VARIANTS.join(', ')}) validation agree byte for byte`, async () => {
    const native = await nativeDump(block);
    assert.ok(native.checks.length > 0 || block.inputs === 0, 'native tool wrote the checks');
    for (const variant of VARIANTS) {
      const res = await validateFixture(engines[variant], block);
      const checks = Buffer.from(res.checks);
      assert.ok(checks.equals(native.checks), `${variant} final checks: ${describeDifference(native.checks, checks)}`);
      const verdicts = Buffer.from(res.verdicts);
      assert.ok(verdicts.equals(native.verdicts),
        `${variant} verdicts: first difference at record ${firstDifference(native.verdicts, verdicts)}`);
      // The rounds' verdicts are the verifier's verdicts of the final records.
      assert.ok(Buffer.from(verifyChecks(engines[variant], res.checks)).equals(verdicts), `${variant} re-verified`);
      // The block rules' verdict and figures (native/validation/block_rules.h) agree too.
      assert.equal(res.valid, true, `${variant}: ${res.error}`);
      const lines = [`fee ${res.fee} subsidy ${res.subsidy} sigop_cost ${res.sigopCost}`,
        `reject '${res.rejectReason}' stage '${res.stage}'`, `not_checked ${res.notChecked.map((n) => n.rule).join(' ')}`.trimEnd()];
      for (const line of lines) assert.ok(native.summary.split('\n').includes(line), `${variant}: native lacks "${line}":\n${native.summary}`);
    }
  });
}
