// The main job (bench/cli/main.mjs) in a child process, run asynchronously: for tests whose
// loopback servers answer from the test's own process, which must not block while it runs.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../../wasm/paths.mjs';

/**
 * @param {string[]} args the main job's arguments
 * @returns {Promise<{status: number|null, stdout: string, stderr: string}>}
 */
export function runMainJob(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bench', 'cli', 'main.mjs'), ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
