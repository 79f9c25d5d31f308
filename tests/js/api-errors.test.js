// Bad configs: a thrown AttentionConfigError naming the field, and the same
// wasm instance keeps working afterwards.
import { beforeAll, describe, expect, test } from 'vitest';
import { AttentionConfigError, SCHEMA, loadAttentionLab } from '../../web/api/index.js';
import { OVERFLOWING_SCORES } from './edges.js';

const CODES = new Map(SCHEMA.errors.map((kind) => [kind.code, kind]));
/** The error's code is in the catalog, its params are exactly the code's, and they make its message. */
function expectCoded(error) {
  const kind = CODES.get(error.code);
  expect(kind, `code ${error.code}`).toBeDefined();
  expect(Object.keys(error.params).sort()).toEqual([...kind.params].sort());
  expect(kind.message.replace(/\{(\w+)\}/g, (_, name) => error.params[name])).toBe(error.message);
}

let lab;
beforeAll(async () => {
  lab = await loadAttentionLab();
});

function errorOf(config, options) {
  try {
    lab.run(config, options);
  } catch (error) {
    return error;
  }
  throw new Error('expected an AttentionConfigError');
}

const cases = [
  ['an empty sentence', { text: '' }, 'text', 'text is empty'],
  [
    'dModel not divisible by numHeads',
    { text: 'a b', dModel: 6, numHeads: 4 },
    'numHeads',
    'dModel (6) must be divisible by numHeads (4)',
  ],
  [
    'a NaN weight',
    {
      text: 'a',
      dModel: 2,
      numHeads: 1,
      weights: {
        values: {
          W_Q: [
            [1, NaN],
            [0, 1],
          ],
        },
      },
    },
    'weights.values.W_Q[0][1]',
    'must be a finite number, got "NaN"',
  ],
  [
    'an infinite bias',
    { text: 'a', dModel: 2, numHeads: 1, weights: { values: { b_V: [Infinity, 0] } } },
    'weights.values.b_V[0]',
    'got "Infinity"',
  ],
  ['100,000 tokens', { text: 'tok '.repeat(100_000) }, 'text', 'has 100000 tokens; the limit is 2048'],
  ['an unknown field', { text: 'a', heads: 2 }, 'heads', 'unknown field "heads"'],
  [
    'an unknown enum value',
    { text: 'a', weights: { layout: 'interleaved' } },
    'weights.layout',
    'must be one of "fused", "per-head"',
  ],
  [
    'a wrong values shape',
    { text: 'a', weights: { values: { W_K: [[1, 2]] } } },
    'weights.values.W_K',
    'must be [8, 8]',
  ],
  ['over the memory limit', { input: { randn: [16, 2048, 64] }, dModel: 64, numHeads: 16 }, 'dModel', 'memory limit'],
  // The modern variants' combinations.
  [
    'RoPE with an odd headDim',
    { text: 'a b', dModel: 6, numHeads: 2, rope: { style: 'interleaved' } },
    'rope.style',
    'headDim must be even; headDim is 3',
  ],
  [
    'numHeads not divisible by numKVHeads',
    { text: 'a', dModel: 12, numHeads: 6, numKVHeads: 4 },
    'numKVHeads',
    'numHeads (6) must be divisible by numKVHeads (4)',
  ],
  [
    'GQA with nn.MultiheadAttention',
    { text: 'a', numHeads: 2, numKVHeads: 1, weights: { init: 'torch-mha' } },
    'numKVHeads',
    'numKVHeads (1) below numHeads (2) needs weights.init',
  ],
  ['a window without a causal mask', { text: 'a b', window: 1 }, 'window', 'a sliding window needs mask "causal"'],
  [
    'ALiBi with cross-attention',
    { text: 'a', contextText: 'b c', alibi: true },
    'alibi',
    'alibi uses the positions i − j of queries and keys in one sequence',
  ],
  ['a softcap of 0', { text: 'a', softcap: 0 }, 'softcap', 'softcap (0) must be between 0.001 and 1000000'],
  ['malformed JSON text', '{"text": "a"', 'config', 'not valid JSON'],
  ['a config that is not an object', [1, 2], 'config', 'must be an object'],
];

describe('errors name the field', () => {
  test.each(cases)('%s', (_, config, field, message) => {
    const error = errorOf(config);
    expect(error).toBeInstanceOf(AttentionConfigError);
    expect(error.name).toBe('AttentionConfigError');
    expect(error.field).toBe(field);
    expect(error.message).toContain(message);
    expectCoded(error);
    // The instance survives every error.
    expect(lab.run({ text: 'still alive', dModel: 4, numHeads: 2 }).tensors.output.shape).toEqual([1, 2, 4]);
  });

  test('jsonError: the same coded error as run() on the text, without running; null for valid JSON', () => {
    expect(lab.jsonError('{"text": "a"}')).toBeNull();
    for (const text of ['{"text": "a",}', '{"text": "a", "text": "b"}', '{"weights": {"seed": 1, "seed": 2}}', '']) {
      const error = lab.jsonError(text);
      expect(error).toBeInstanceOf(AttentionConfigError);
      expectCoded(error);
      const ran = errorOf(text);
      expect([error.field, error.code, error.params, error.message]).toEqual([
        ran.field,
        ran.code,
        ran.params,
        ran.message,
      ]);
    }
    expect(lab.jsonError('{"weights": {"seed": 1, "seed": 2}}').field).toBe('weights.seed');
  });

  test('an unknown tensor name in options.tensors', () => {
    const error = errorOf({ text: 'a' }, { tensors: ['attention'] });
    expect(error).toBeInstanceOf(AttentionConfigError);
    expect(error.field).toBe('options.tensors');
    expect(error.message).toContain('unknown tensor "attention"');
    expect(error.code).toBe('unknown-tensor');
    expectCoded(error);
  });

  test('a sentence or head to keep that is out of range or not an index names its option', () => {
    const config = { texts: ['a b', 'c d'], dModel: 4, numHeads: 2 };
    for (const [options, field, code, message] of [
      [{ batch: 2 }, 'options.batch', 'out-of-range', 'options.batch (2) must be between 0 and 1'],
      [{ head: 2 }, 'options.head', 'out-of-range', 'options.head (2) must be between 0 and 1'],
      [{ head: -1 }, 'options.head', 'not-an-index', 'options.head must be a whole number from 0'],
      [{ batch: 0.5 }, 'options.batch', 'not-an-index', 'got 0.5'],
      [{ batch: '1' }, 'options.batch', 'not-an-index', 'got 1'],
      [{ allHeads: 'weights' }, 'options.allHeads', 'tensors-not-array', 'options.allHeads must be an array'],
      [{ allHeads: ['heads'] }, 'options.allHeads', 'unknown-tensor', 'unknown tensor "heads"'],
    ]) {
      const error = errorOf(config, options);
      expect(error).toBeInstanceOf(AttentionConfigError);
      expect([error.field, error.code]).toEqual([field, code]);
      expect(error.message).toContain(message);
      expectCoded(error);
    }
    // The instance still runs after them.
    expect(lab.run(config, { batch: 1, head: 1 }).tensors.weights.shape).toEqual([1, 1, 2, 2]);
  });

  test('errors of the JS API itself have codes too', () => {
    const cyclic = { text: 'a' };
    cyclic.self = cyclic;
    for (const [config, code] of [
      [42, 'config-not-object-or-text'],
      [null, 'config-not-object-or-text'],
      [cyclic, 'config-not-serializable'],
    ]) {
      const error = errorOf(config);
      expect(error.code).toBe(code);
      expectCoded(error);
    }
    expect(errorOf({ text: 'a' }, { tensors: 'weights' }).code).toBe('tensors-not-array');
    const made = AttentionConfigError.of('dModel', 'out-of-range', {
      field: 'dModel',
      got: '0',
      min: '1',
      max: '4096',
    });
    expect(made.message).toBe('dModel (0) must be between 1 and 4096');
  });

  test('overflowing scores give NaN weights as in PyTorch, with a warning and no crash', () => {
    // scale 1e30 overflows the scores to ±inf; softmax of a row holding +inf is NaN, as in PyTorch.
    const result = lab.run(OVERFLOWING_SCORES);
    expect(Array.from(result.tensors.weights.data).some(Number.isNaN)).toBe(true);
    expect(result.warnings).toHaveLength(1);
    const [warning] = result.warnings;
    expect(warning.code).toBe('nan-rows');
    expect(warning.message).toContain('NaN');
    expectCoded(warning);
  });
});
