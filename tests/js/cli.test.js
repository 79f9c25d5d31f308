// The CLI (package.json "bin"): fixtures via --config and stdin, flags, errors.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { compareTensors, fixtureDir, fixtureNames, readFixture } from './fixtures.js';

const cli = fileURLToPath(new URL('../../web/cli/attention-lab.js', import.meta.url));
const run = (args, input) => spawnSync(process.execPath, [cli, ...args], { input, encoding: 'utf8', maxBuffer: 64 << 20 });

// Non-finite numbers print as null (JSON has no NaN or -inf).
const asJson = { nonFiniteAs: () => null };

describe('CLI', () => {
  test.each(fixtureNames)('--config %s.json matches PyTorch', (name) => {
    // The fixture file is config + expected; give the CLI just the config through stdin.
    const { config, expected } = readFixture(name);
    const out = run(['--config', '-'], JSON.stringify(config));
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    const result = JSON.parse(out.stdout);
    expect(result.tokens).toEqual(expected.tokens);
    expect(result.vocab).toEqual(expected.vocab);
    const { problems } = compareTensors(expected.tensors, result.tensors, asJson);
    expect(problems).toEqual([]);
  });

  test('reads a config file, and flags override it', () => {
    const file = `${fixtureDir}tutorial-once-upon.json`;
    // The fixture file itself is not a config (it has "expected"): an unknown field.
    const bad = run(['--config', file]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('unknown field "name"');

    const out = run(['--text', 'I love my cat', '--d-model', '4', '--heads', '1', '--init', 'identity',
      '--no-out-proj', '--scale', 'none', '--seed', '5', '--tensors', 'weights,output']);
    expect(out.status).toBe(0);
    const { expected } = readFixture('identity-softmax-xxt-x');
    const result = JSON.parse(out.stdout);
    expect(Object.keys(result.tensors).sort()).toEqual(['output', 'weights']);
    const { problems } = compareTensors(
      { weights: expected.tensors.weights, output: expected.tensors.output }, result.tensors, asJson);
    expect(problems).toEqual([]);
  });

  test('repeated --text makes a batch; masks print null for -inf', () => {
    const out = run(['--text', 'the cat sat on the mat', '--text', 'a dog ran', '--mask', 'padding', '--seed', '21']);
    expect(out.status).toBe(0);
    const { expected } = readFixture('padded-batch');
    const result = JSON.parse(out.stdout);
    expect(result.tokens).toEqual(expected.tokens);
    expect(result.tensors.masked.data).toContain(null);
    expect(compareTensors(expected.tensors, result.tensors, asJson).problems).toEqual([]);
  });

  test.each([
    [['--text', 'a b', '--d-model', '6', '--heads', '4'], 'numHeads: dModel (6) must be divisible by numHeads (4)'],
    [['--text', ''], 'text: text is empty'],
    [['--text', 'a', '--d-model', 'eight'], 'dModel: dModel must be a finite number, got "eight"'],
    [['--text', 'a', '--mask', 'sideways'], 'mask: mask must be one of'],
    [['--config', '/nonexistent/config.json'], 'cannot read /nonexistent/config.json'],
    [['--bogus'], "Unknown option '--bogus'"],
  ])('%j exits 2 with the error on stderr', (args, message) => {
    const out = run(args);
    expect(out.status).toBe(2);
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain(message);
  });

  test('malformed JSON on stdin', () => {
    const out = run(['--config', '-'], '{"text": ');
    expect(out.status).toBe(2);
    expect(out.stderr).toContain('config: stdin is not valid JSON');
  });

  test('--help', () => {
    const out = run(['--help']);
    expect(out.status).toBe(0);
    expect(out.stdout).toContain('Usage: attention-lab');
  });
});
