// bench/core/format.mjs: the words the terminal report and the page share.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pairedEfficiencyText } from '../bench/core/format.mjs';

test('pairedEfficiencyText: median and range of the paired rounds, nothing for one round or none', () => {
  const row = { efficiency_rounds: { median: 0.9349, min: 0.915, max: 0.9701 }, rounds_seconds: [0.5, 0.51, 0.49] };
  assert.equal(pairedEfficiencyText(row), '; rounds paired with their 1-worker round: 93% (92–97%)');
  assert.equal(pairedEfficiencyText({ ...row, rounds_seconds: [0.5] }), '');
  assert.equal(pairedEfficiencyText({ rounds_seconds: [0.5, 0.6] }), ''); // a document from before the field
});
