// The page's sentences (web/results.mjs) that need no browser: what the projection's model check
// says, against what the terminal report says of the same result (bench/cli/report.mjs).
import test from 'node:test';
import assert from 'node:assert/strict';
import { trustText } from '../web/results.mjs';

const reason3 = 'each block\'s measured time is a median of 3 rounds; the check needs 5 or more (--rounds; on the page, the Timed rounds box)';

test('the page\'s model check: blocks outside ±15% are named, and too few rounds is said beside them, as in the terminal report', () => {
  const misses = [{ height: 57043, ratio: 1.21 }, { height: 170, ratio: 0.8 }];
  assert.equal(trustText({ trusted: false, misses, untrusted_reason: reason3 }),
    `not trusted: blocks 57,043 +21.0%, 170 −20.0% outside ±15%; ${reason3}`);
  // Enough rounds: the misses are the reason, said once.
  assert.equal(trustText({ trusted: false, misses, untrusted_reason: 'blocks outside +-15%' }),
    'not trusted: blocks 57,043 +21.0%, 170 −20.0% outside ±15%');
  // No miss: the reason alone.
  assert.equal(trustText({ trusted: false, misses: [], untrusted_reason: reason3 }), `not trusted: ${reason3}`);
  assert.equal(trustText({ trusted: true, misses: [] }), 'trusted');
});
