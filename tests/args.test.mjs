// The command lines' one parser (bench/shared/args.mjs): what util.parseArgs refuses, and what it
// would let through silently (a repeated value flag, an empty value), each as one UsageError line
// naming the flag; and the commands that do not go through it for every flag (npm test, the fuzz
// runner) refuse the same things with exit code 2.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { parseOptions } from '../bench/cli/options.mjs';
import { numberFlag, parseFlags, UsageError } from '../bench/shared/args.mjs';
import { REPO_ROOT } from '../wasm/paths.mjs';
import { wideArithmeticSupported } from '../wasm/variants.mjs';

const OPTIONS = { workers: { type: 'string' }, heights: { type: 'string' }, json: { type: 'boolean' } };
const refused = (args, message) => assert.throws(() => parseFlags(args, OPTIONS), (err) => {
  assert.ok(err instanceof UsageError, `${err}`);
  assert.match(err.message, message);
  assert.ok(!err.message.includes('\n'), `one line: ${JSON.stringify(err.message)}`);
  return true;
});

test('a well-formed command line parses as util.parseArgs would', () => {
  const { values } = parseFlags(['--workers', '2', '--json', '--heights=170,181'], OPTIONS);
  assert.deepEqual({ ...values }, { workers: '2', json: true, heights: '170,181' });
  assert.equal(parseFlags(['--json', '--json'], OPTIONS).values.json, true, 'a repeated switch is harmless');
});

test('unknown flags, missing values and values that look like flags are one line naming the flag', () => {
  refused(['--bogus'], /^Unknown option '--bogus'$/);
  refused(['--workers'], /'--workers <value>' argument missing/);
  refused(['--workers', '-1'], /^--workers needs a value; "-1" looks like a flag \(write --workers=-1/);
  assert.throws(() => numberFlag('workers', parseFlags(['--workers=-1'], OPTIONS).values.workers, { min: 1, max: 256 }),
    /--workers must be an integer from 1 to 256, got "-1"/);
});

test('a value flag given twice or given an empty value is refused, not silently resolved', () => {
  refused(['--workers', '2', '--workers', '1'], /^--workers given twice \("2", then "1"\)/);
  refused(['--heights=170', '--heights', '181'], /^--heights given twice/);
  refused(['--heights', ''], /^--heights needs a value, got ""$/);
  refused(['--workers='], /^--workers needs a value, got ""$/);
});

test('npm start\'s --heights: an empty item or a repeated height is refused, naming it', () => {
  const heights = (list) => parseOptions(['--heights', list]).heights;
  assert.deepEqual(heights('170, 866342'), [170, 866342]);
  for (const [list, message] of [[',170', /--heights has an empty item in ",170"/], ['170,,181', /--heights has an empty item/],
    ['170,', /--heights has an empty item/], ['170,170', /--heights lists 170 twice: each block is validated once/],
    [',', /--heights needs at least one height/]]) {
    assert.throws(() => heights(list), (err) => err instanceof UsageError && message.test(err.message), list);
  }
});

test('npm start --web refuses the run flags the page would ignore; --fixtures and --port apply', () => {
  assert.equal(parseOptions(['--web', '--port', '0', '--fixtures', '/tmp']).web, true);
  for (const extra of [['--json'], ['--rounds', '3'], ['--workers', '1'], ['--heights', '170'], ['--scaling'], ['--variant', 'scalar']]) {
    assert.throws(() => parseOptions(['--web', ...extra]), (err) => err instanceof UsageError &&
      err.message.startsWith(`--web serves the page, whose own controls set the run: ${extra[0]} would be ignored`), extra.join(' '));
  }
});

test('npm start --variant: the three builds are names it knows; wide is refused in one line where this Node cannot run it', () => {
  assert.equal(parseOptions(['--variant', 'scalar']).variant, 'scalar');
  assert.throws(() => parseOptions(['--variant', 'avx']), (err) => err instanceof UsageError && /--variant/.test(err.message) && /wide/.test(err.message));
  if (wideArithmeticSupported()) {
    assert.equal(parseOptions(['--variant', 'wide']).variant, 'wide');
  } else { // Node 20: the proposal is not there
    assert.throws(() => parseOptions(['--variant', 'wide']), (err) => {
      assert.ok(err instanceof UsageError, `${err}`);
      assert.match(err.message, new RegExp(`^--variant: the wasm variant "wide" needs wasm wide arithmetic .* which Node ${process.version.replaceAll('.', '\\.')} .* use "simd" or "scalar"$`));
      assert.ok(!err.message.includes('\n'));
      return true;
    });
  }
});

test('npm test and npm run fuzz refuse a bad flag with one line and exit code 2', () => {
  for (const [script, args, message] of [
    ['scripts/test.mjs', ['--bogus'], /^\[test\] error: Unknown option '--bogus'/],
    ['scripts/fuzz.mjs', ['--target', ''], /^\[fuzz\] error: --target needs a value, got ""/],
    ['scripts/fuzz.mjs', ['--seconds', '3000000'], /^\[fuzz\] error: --seconds must be at most 2,000,000, got '3000000'/],
    ['scripts/setup.mjs', ['--only', 'everything'], /^\[setup\] --only must be one of native, wasm, got "everything"/],
  ]) {
    const r = spawnSync(process.execPath, [path.join(REPO_ROOT, script), ...args], { encoding: 'utf8' });
    assert.equal(r.status, 2, `${script} ${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
});

// npm start and npm run project answer a bad flag alike: the error on one line, then one line on
// where the usage is (the usage itself only with --help), exit 2, before any work.
test('npm start and npm run project: a bad flag is one line naming it and one pointing to --help, exit 2', () => {
  for (const [script, prefix, args, message] of [
    ['bench/cli/main.mjs', 'error', ['--bogus'], "Unknown option '--bogus'"],
    ['bench/workload/project.mjs', 'project', ['--bogus'], "Unknown option '--bogus'"],
    ['bench/workload/project.mjs', 'project', ['--workers', '0'], '--workers must be an integer from 1 to 64, got "0"'],
    // A flag that would be ignored without (or with) another is refused, not silently dropped.
    ['bench/workload/project.mjs', 'project', ['--fixtures', '/nonexistent'], '--fixtures needs --census or --measure (only they read the fixture blocks)'],
    ['bench/workload/project.mjs', 'project', ['--table', '--variant', 'scalar'], '--table prints the whole table and projects nothing; leave out --variant'],
    ['bench/cli/main.mjs', 'error', ['--datadir', '/nonexistent', '--rounds', '3'], '--datadir and --rounds do not go together'],
    ['bench/cli/main.mjs', 'error', ['--rest', 'http://127.0.0.1:9', '--skip-proof-of-work'], '--rest and --skip-proof-of-work do not go together'],
  ]) {
    const r = spawnSync(process.execPath, [path.join(REPO_ROOT, script), ...args], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 2, `${script} ${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stdout, '');
    assert.deepEqual(r.stderr.trim().split('\n'), [`${prefix}: ${message}`, `(${script === 'bench/cli/main.mjs'
      ? 'npm start -- --help or node bench/cli/main.mjs --help' : 'npm run project -- --help or node bench/workload/project.mjs --help'} for usage)`], script);
  }
});

// The benchmark scripts of BIP340 batch verification, start-up A/B and field arithmetic: a bad
// flag (a repeated batch size or build among them: each would be timed into the same samples)
// exits 2 with the error and the usage line, before any build or run; a missing fixtures folder
// exits 1 with one line, before any build, never a stack trace.
test('bench:schnorr-batch, startup-ab and field-mul: bad flags exit 2, a missing fixtures folder exits 1, one line each', () => {
  const run = (script, args, env = {}) => spawnSync(process.execPath, [path.join(REPO_ROOT, script), ...args],
    { encoding: 'utf8', timeout: 120_000, env: { ...process.env, ...env } });
  for (const [script, args, message] of [
    ['bench/compare/schnorr-batch-sweep.mjs', ['--sizes', '4,8,4'], /^schnorr-batch: --sizes lists 4 twice; list each size once$/],
    ['bench/compare/schnorr-batch-sweep.mjs', ['--sizes', '8,,4'], /^schnorr-batch: --sizes must be an integer from 1 to 8192, got ""$/],
    ['bench/compare/startup-ab.mjs', ['--builds', 'tables-shipped,tables-shipped'], /^startup-ab: --builds names tables-shipped twice; name each build once$/],
    ['bench/compare/startup-ab.mjs', ['--builds', 'tables-shipped,'], /^startup-ab: --builds must be one of .*, got ""$/],
    ['bench/field/field-mul.mjs', ['--cases', '1e6'], /^field-mul: --cases must be an integer from 1 to 100000000, got "1e6"$/],
  ]) {
    const r = run(script, args);
    assert.equal(r.status, 2, `${script} ${args.join(' ')}: ${r.stderr}`);
    const lines = r.stderr.trim().split('\n');
    assert.match(lines[0], message);
    assert.equal(lines.length, 2, r.stderr);
    assert.match(lines[1], /^usage: /);
  }
  for (const script of ['bench/compare/schnorr-batch-sweep.mjs', 'bench/compare/startup-ab.mjs', 'bench/field/field-mul.mjs']) {
    for (const [args, env] of [[['--fixtures', '/nonexistent-ibd-fixtures'], {}], [[], { IBD_FIXTURES: '/nonexistent-ibd-fixtures' }]]) {
      const r = run(script, [...args, '--rounds', '1'], env);
      assert.equal(r.status, 1, `${script} ${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr.trim(), /^[a-z-]+: fixtures directory \/nonexistent-ibd-fixtures does not exist \(use --fixtures DIR or set IBD_FIXTURES\)$/,
        `${script}: ${r.stderr}`);
    }
  }
});
