// Every PyTorch fixture through the JS API on the real wasm build.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadAttentionLab } from '../../web/api/index.js';
import { compareTensors, fixtureNames, readFixture } from './fixtures.js';

let lab;
const worstByFixture = [];
beforeAll(async () => {
  lab = await loadAttentionLab();
});
afterAll(() => {
  const overall = worstByFixture.reduce((a, b) => (b.worst > a.worst ? b : a), { worst: 0 });
  console.log(
    `JS API vs PyTorch over ${worstByFixture.length} fixtures: worst |ours - torch| = ${overall.worst.toExponential(3)} (${overall.name}: ${overall.tensor})`,
  );
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
    expect(result.scaleFactor).toBeCloseTo(expected.scaleFactor, 12);
    if (expected.contextTokens) expect(result.contextTokens).toEqual(expected.contextTokens);
    if (expected.contextIds) expect(result.contextIds).toEqual(expected.contextIds);
    for (const tensor of Object.values(result.tensors)) expect(tensor.data).toBeInstanceOf(Float32Array);
    const { worst, worstName, problems } = compareTensors(expected.tensors, result.tensors);
    worstByFixture.push({ name, worst, tensor: worstName });
    expect(problems).toEqual([]);
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

  test('the same config gives the same numbers every time', () => {
    const { config } = readFixture('dropout');
    const a = lab.run(config).tensors.dropped.data;
    const b = lab.run(config).tensors.dropped.data;
    expect(Array.from(a)).toEqual(Array.from(b));
  });
});
