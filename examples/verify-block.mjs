// Validate a real mainnet block with the ibd-wasm package, in a pool of worker threads:
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
  if (!r.ok) throw new Error(r.error);
  const failed = r.inputVerdicts.filter((v) => v === 0).length;
  console.log(`block ${r.hash}: ${r.valid ? 'valid' : `invalid, ${r.rejectReason}: ${r.error}`}`);
  console.log(`${r.inputs} inputs (${failed} failed), ${r.ecdsa} ECDSA and ${r.schnorr} Schnorr signatures verified`);
  process.exitCode = r.valid ? 0 : 1;
} finally {
  await pool.close();
}
