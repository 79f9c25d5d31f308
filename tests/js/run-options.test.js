// run(config, {tensors}) through the wasm engine: only the asked tensors come
// back, equal bit for bit to an all-tensors run's; equal stages are one object
// under both names; the engine's reused buffers never leak into a later result.
import { beforeAll, describe, expect, test } from 'vitest';
import { TENSOR_NAMES, loadAttentionLab } from '../../web/api/index.js';

let lab;
beforeAll(async () => {
  lab = await loadAttentionLab();
});

const configs = [
  { text: 'the cat sat on the mat', dModel: 8, numHeads: 2 },
  { texts: ['the cat sat on the mat', 'a dog'], dModel: 12, numHeads: 3, mask: 'causal+padding', dropout: { p: 0.25 } },
  {
    text: 'one two three',
    dModel: 4,
    numHeads: 2,
    mask: 'causal',
    maskConvention: 'additive',
    weights: { outProj: false },
  },
  { text: 'he sat by the bank', contextText: 'the river bank was steep', dModel: 8, numHeads: 2, score: 'additive' },
];

// Same shape and the same bits (NaN included).
const bits = (t) => new Uint32Array(t.data.buffer, t.data.byteOffset, t.data.length);
function expectSame(got, want, what) {
  expect(got?.shape, what).toEqual(want.shape);
  expect(bits(got), what).toEqual(bits(want));
}

describe('options.tensors', () => {
  test('each name alone, and a few together, come back alone and equal to the all-tensors run', () => {
    const asks = [...TENSOR_NAMES.map((name) => [name]), ['output'], ['weights', 'dropped', 'averagedWeights'], []];
    for (const config of configs) {
      const all = lab.run(config);
      for (const names of asks) {
        const some = lab.run(config, { tensors: names });
        const present = names.filter((name) => name in all.tensors);
        expect(Object.keys(some.tensors), JSON.stringify(names)).toEqual(present);
        for (const name of present) expectSame(some.tensors[name], all.tensors[name], `${name} of ${config.text}`);
        expect(some.tokens).toEqual(all.tokens);
      }
    }
  });

  test('masked is scaled without a mask and dropped is weights at p = 0: one object under both names', () => {
    const plain = lab.run({ text: 'the cat sat', dModel: 4, numHeads: 2 });
    expect(plain.tensors.masked).toBe(plain.tensors.scaled);
    expect(plain.tensors.dropped).toBe(plain.tensors.weights);
    const masked = lab.run({ text: 'the cat sat', dModel: 4, numHeads: 2, mask: 'causal', dropout: { p: 0.5 } });
    expect(masked.tensors.masked).not.toBe(masked.tensors.scaled);
    expect(masked.tensors.dropped).not.toBe(masked.tensors.weights);
    expect(masked.tensors.masked.data.buffer).not.toBe(masked.tensors.scaled.data.buffer);
    // Asked for alone, each is an ordinary tensor.
    const dropped = lab.run({ text: 'the cat sat', dModel: 4, numHeads: 2 }, { tensors: ['dropped'] });
    expect(Object.keys(dropped.tensors)).toEqual(['dropped']);
    expectSame(dropped.tensors.dropped, plain.tensors.weights, 'dropped');
  });

  test('a result keeps its numbers after later runs reuse the engine buffers', () => {
    const large = { text: Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '), dModel: 32, numHeads: 4 };
    const first = lab.run(large);
    const copy = Object.fromEntries(Object.entries(first.tensors).map(([name, t]) => [name, bits(t).slice()]));
    lab.run(configs[1]);
    lab.run(large, { tensors: ['output'] });
    const again = lab.run(large);
    for (const [name, t] of Object.entries(first.tensors)) {
      expect(bits(t), name).toEqual(copy[name]); // the earlier result is untouched
      expectSame(again.tensors[name], t, name); // and a second run gives the same
    }
  });
});
