// Every PyTorch fixture through the JS API on the real wasm build.
import { beforeAll, describe, expect, test } from 'vitest';
import { loadAttentionLab } from '../../web/api/index.js';
import { compareTensors, fixtureNames, readFixture, reportWorst } from './fixtures.js';

// The per-head tensors [B, H, ...], and the tensors without a batch dimension besides the weights: the
// additive score's own weights, the RoPE angles [S, dk/2] and the ALiBi bias [H, S, S_kv].
const PER_HEAD = ['scores', 'scaled', 'capped', 'biased', 'masked', 'weights', 'sinkWeights', 'dropped', 'context'];
const NO_BATCH = ['W_a', 'U_a', 'v_a', 'ropeAngles', 'alibiBias'];

/** Sentence `b` and head `h` (null: all) of a fixture tensor {shape: [B, H?, ...], data}. */
function sliceOf({ shape, data }, b, h) {
  if (b === null && h === null) return { shape, data };
  const heads = h === null ? 1 : shape[1];
  const size = data.length / (shape[0] * heads);
  const out = [];
  for (let bb = 0; bb < shape[0]; bb++)
    for (let hh = 0; hh < heads; hh++)
      if ((b === null || bb === b) && (h === null || hh === h))
        out.push(...data.slice((bb * heads + hh) * size, (bb * heads + hh + 1) * size));
  return { shape: shape.map((n, k) => ((k === 0 && b !== null) || (k === 1 && h !== null) ? 1 : n)), data: out };
}

let lab;
const recordWorst = reportWorst('JS API vs PyTorch');
beforeAll(async () => {
  lab = await loadAttentionLab();
});

describe('JS API reproduces PyTorch 1.13', () => {
  test('there are at least 25 fixtures', () => {
    expect(fixtureNames.length).toBeGreaterThanOrEqual(25);
  });

  test.each(fixtureNames)('%s', (name) => {
    const { config, expected } = readFixture(name);
    const result = lab.run(config);
    expect(result.tokens).toEqual(expected.tokens);
    expect(result.ids).toEqual(expected.ids);
    expect(result.vocab).toEqual(expected.vocab);
    expect(result.unknownTokens).toEqual(expected.unknownTokens);
    expect(result.headDim).toBe(expected.headDim);
    const [B, H, S, Skv] = expected.tensors.scores.shape;
    // K [B, S_kv, H_kv·dk]: H_kv key/value heads (H without grouped-query attention).
    const H_kv = expected.tensors.K ? expected.tensors.K.shape[2] / expected.headDim : H;
    expect(result.sizes).toEqual({ B, H, S, S_kv: Skv, D: expected.tensors.output.shape[2], H_kv });
    expect(result.scaleFactor).toBeCloseTo(expected.scaleFactor, 12);
    if (expected.contextTokens) expect(result.contextTokens).toEqual(expected.contextTokens);
    if (expected.contextIds) expect(result.contextIds).toEqual(expected.contextIds);
    for (const tensor of Object.values(result.tensors)) expect(tensor.data).toBeInstanceOf(Float32Array);
    const comparison = compareTensors(expected.tensors, result.tensors);
    recordWorst(name, comparison);
    expect(comparison.problems).toEqual([]);
  });

  test('options.tensors returns only the named tensors', () => {
    const { config, expected } = readFixture('cat-4-heads');
    const result = lab.run(config, { tensors: ['weights', 'output'] });
    expect(Object.keys(result.tensors).sort()).toEqual(['output', 'weights']);
    const { problems } = compareTensors(
      { weights: expected.tensors.weights, output: expected.tensors.output },
      result.tensors,
    );
    expect(problems).toEqual([]);
  });

  // Every fixture with more than one sentence or head, one sentence and one head at a time (and all heads of
  // `weights` and `dropped` too): each tensor against the same slice of PyTorch's.
  const selectable = fixtureNames.filter((name) => {
    const [B, H] = readFixture(name).expected.tensors.scores.shape;
    return B > 1 || H > 1;
  });
  test('there are fixtures with several sentences and several heads to select from', () => {
    expect(selectable.length).toBeGreaterThanOrEqual(5);
    expect(selectable.some((name) => readFixture(name).expected.tensors.scores.shape[0] > 1)).toBe(true);
  });
  test.each(selectable)('%s, one sentence and one head at a time', (name) => {
    const { config, expected } = readFixture(name);
    const [B, H] = expected.tensors.scores.shape;
    for (let b = 0; b < B; b++)
      for (const h of new Set([0, H - 1])) {
        const result = lab.run(config, { batch: b, head: h, allHeads: ['weights', 'dropped'] });
        const want = {};
        for (const [tensorName, tensor] of Object.entries(expected.tensors)) {
          const perHead = PER_HEAD.includes(tensorName) && !['weights', 'dropped'].includes(tensorName);
          const hasBatch =
            !tensorName.startsWith('W_') && !tensorName.startsWith('b_') && !NO_BATCH.includes(tensorName);
          want[tensorName] = sliceOf(tensor, hasBatch ? b : null, perHead ? h : null);
          expect(result.tensors[tensorName]?.batch).toBe(hasBatch ? b : undefined);
          expect(result.tensors[tensorName]?.head).toBe(perHead ? h : undefined);
        }
        const { problems } = compareTensors(want, result.tensors);
        expect(problems, `sentence ${b}, head ${h}`).toEqual([]);
      }
  });

  test('the same config gives the same numbers every time', () => {
    const { config } = readFixture('dropout');
    const a = lab.run(config).tensors.dropped.data;
    const b = lab.run(config).tensors.dropped.data;
    expect(Array.from(a)).toEqual(Array.from(b));
  });
});
