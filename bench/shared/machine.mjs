// What the numbers were measured on: CPU, cores, Node, V8 and Emscripten versions.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';

/** The instruction-set extensions named in the machine line, present or not: V8's code for wasm
 *  uses AVX and BMI where the CPU has them, and the same model name ("AMD EPYC" in a VM) can
 *  hide different generations. */
const NOTED_FLAGS = ['avx2', 'bmi2', 'avx512f'];

/**
 * What a model name leaves out, from /proc/cpuinfo (Linux; null elsewhere or when unreadable):
 * "family 25 model 1, 2445 MHz, no avx2/bmi2/avx512f". Two VMs both named "AMD EPYC" ran
 * libsecp256k1's wasm field multiply at 41 and 56 ns (docs/performance.md).
 * @returns {string|null}
 */
export function cpuDetail() {
  let text;
  try {
    text = readFileSync('/proc/cpuinfo', 'utf8');
  } catch {
    return null;
  }
  const field = (name) => new RegExp(`^${name}\\s*:\\s*(.*)$`, 'm').exec(text)?.[1]?.trim();
  const flags = new Set((field('flags') ?? '').split(/\s+/));
  const family = field('cpu family');
  const model = field('model');
  const mhz = Number(field('cpu MHz'));
  const have = NOTED_FLAGS.filter((f) => flags.has(f));
  const lack = NOTED_FLAGS.filter((f) => !flags.has(f));
  const parts = [
    family !== undefined && model !== undefined ? `family ${family} model ${model}` : null,
    Number.isFinite(mhz) && mhz > 0 ? `${Math.round(mhz)} MHz` : null,
    have.length ? have.join('/') : null,
    lack.length ? `no ${lack.join('/')}` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : null;
}

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
 * @returns {{cpu: string, cpu_model: string, cpu_detail: string|null, cores: number,
 *   platform: string, arch: string, node: string, v8: string, emcc: string|null,
 *   emcc_source: 'emcc --version'|'build stamp'|null}} cpu: the model name with cpuDetail() in
 *   parentheses where there is one ("AMD EPYC (family 25 model 1, 2445 MHz, no avx2/bmi2/avx512f)")
 */
export function machineInfo(engineInfo = {}) {
  const onPath = emccVersion();
  const stamped = engineInfo.emcc ?? engineInfo.emscripten ?? null;
  const model = os.cpus()[0]?.model?.trim() || 'unknown';
  const detail = cpuDetail();
  return {
    cpu: detail ? `${model} (${detail})` : model,
    cpu_model: model,
    cpu_detail: detail,
    cores: os.availableParallelism(),
    platform: os.platform(),
    arch: os.arch(),
    node: process.version,
    v8: process.versions.v8,
    emcc: onPath ?? stamped,
    emcc_source: onPath ? 'emcc --version' : stamped ? 'build stamp' : null,
  };
}
