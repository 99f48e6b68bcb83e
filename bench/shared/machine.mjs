// What the numbers were measured on: CPU, cores, Node, V8 and Emscripten versions.
import { spawnSync } from 'node:child_process';
import os from 'node:os';

/**
 * The version of `emcc` on PATH, from `emcc --version` ("3.1.6"), or null when emcc is absent
 * or does not answer within 20 s.
 * @returns {string|null}
 */
export function emccVersion() {
  const r = spawnSync('emcc', ['--version'], { encoding: 'utf8', timeout: 20_000, stdio: ['ignore', 'pipe', 'ignore'] });
  if (r.status !== 0 || !r.stdout) return null;
  return /\b(\d+\.\d+\.\d+)\b/.exec(r.stdout.split('\n')[0])?.[1] ?? null;
}

/**
 * Describes this machine for the report.
 * @param {object} [engineInfo] the wasm module's engineInfo(); its `emcc` field (a version
 *   stamped at build time, if the build provides one) is used when emcc is not on PATH.
 * @returns {{cpu: string, cores: number, platform: string, arch: string, node: string,
 *   v8: string, emcc: string|null, emcc_source: 'emcc --version'|'build stamp'|null}}
 */
export function machineInfo(engineInfo = {}) {
  const onPath = emccVersion();
  const stamped = engineInfo.emcc ?? engineInfo.emscripten ?? null;
  return {
    cpu: os.cpus()[0]?.model?.trim() ?? 'unknown',
    cores: os.availableParallelism(),
    platform: os.platform(),
    arch: os.arch(),
    node: process.version,
    v8: process.versions.v8,
    emcc: onPath ?? stamped,
    emcc_source: onPath ? 'emcc --version' : stamped ? 'build stamp' : null,
  };
}
