// Validate a real mainnet block with the ibd-wasm package, in a pool of worker threads. Copy it
// into a project where the package is installed (npm install ibd-wasm-<version>.tgz), then:
//   node verify-block.mjs <block.raw> <spent_outputs.json> <height>
import { readFileSync } from 'node:fs';
import { createPool, validateBlock } from 'ibd-wasm';

const [blockFile, spentFile, height] = process.argv.slice(2);
if (!height) {
  console.error('usage: node verify-block.mjs <block.raw> <spent_outputs.json> <height>');
  process.exit(2);
}
const pool = createPool(); // one worker per core
try {
  const r = await validateBlock(readFileSync(blockFile), readFileSync(spentFile, 'utf8'), { height: Number(height), pool });
  if (r.valid === null) { // not judged: the block or its spent outputs are unreadable
    console.error(`not validated: ${r.error}`);
    process.exitCode = 2;
  } else {
    console.log(`block ${r.hash ?? r.blockHash}: ${r.valid ? 'valid' : `invalid, ${r.error}`}`);
    if (r.ok) console.log(`${r.inputs} inputs (${r.failedInputs} failed), ${r.ecdsa} ECDSA and ${r.schnorr} Schnorr signature checks made (a failed CHECKMULTISIG trial among them is no failed input)`);
    process.exitCode = r.valid ? 0 : 1;
  }
} finally {
  await pool.close();
}
