// Explicit values through the JS API: large matrices travel as typed arrays
// beside the JSON text, single edits as [row, col, value]; both give the same
// numbers as the plain JSON form, and a bad entry is named by its position.
import { beforeAll, describe, expect, test } from 'vitest';
import { AttentionConfigError, encodeConfig, loadAttentionLab } from '../../web/api/index.js';

let lab;
beforeAll(async () => {
  lab = await loadAttentionLab();
});

const D = 16;
const matrix = (f) => Array.from({ length: D }, (_, i) => Array.from({ length: D }, (_, j) => f(i, j)));
const base = { text: 'the cat sat on the mat', dModel: D, numHeads: 4 };

describe('the settings a run reports', () => {
  test('a random input is reported with its draw and shape; embedded tokens report none', () => {
    const rand = lab.run({ input: { rand: [2, 3, 8] }, contextInput: { randn: [2, 4, 8] }, numHeads: 2 });
    expect(rand.settings.input).toEqual({ rand: [2, 3, 8] });
    expect(rand.settings.contextInput).toEqual({ randn: [2, 4, 8] });
    expect(lab.run({ text: 'a b' }).settings.input).toBeUndefined();
  });
});

describe('explicit values', () => {
  test('a dense matrix is sent as a typed array, not printed into the JSON', () => {
    const { json, tensors } = encodeConfig({ ...base, weights: { values: { W_Q: matrix((i, j) => i - j) } } });
    expect(tensors).toHaveLength(1);
    expect(tensors[0]).toBeInstanceOf(Float64Array);
    expect(json).toContain('"W_Q":{"$tensor":0,"shape":[16,16]}');
    expect(json.length).toBeLessThan(200);
  });

  test('nested arrays, a Float32Array and JSON text with nulls give the same numbers', () => {
    const values = matrix((i, j) => Math.sin(i * D + j));
    const fromArrays = lab.run({ ...base, weights: { values: { W_Q: values } } });
    const fromTyped = lab.run({ ...base, weights: { values: { W_Q: Float32Array.from(values.flat()) } } });
    const fromText = lab.run(JSON.stringify({ ...base, weights: { values: { W_Q: values } } }));
    // A flat Float32Array is read row-major.
    const withNull = matrix((i, j) => Math.sin(i * D + j));
    withNull[0][0] = null; // keeps the drawn number: a JSON path
    const fromNulls = lab.run({ ...base, weights: { values: { W_Q: withNull } } });
    const output = (r) => Array.from(r.tensors.output.data);
    expect(output(fromArrays)).toEqual(output(fromText));
    expect(output(fromTyped)).toEqual(output(fromText));
    expect(Array.from(fromNulls.tensors.W_Q.data).slice(1)).toEqual(Array.from(fromText.tensors.W_Q.data).slice(1));
  });

  test('a non-finite or float32-overflowing entry is named by row and column', () => {
    const values = matrix(() => 0.5);
    values[2][3] = Number.NaN;
    expect(() => lab.run({ ...base, weights: { values: { W_Q: values } } })).toThrow(
      /weights\.values\.W_Q\[2\]\[3\] must be a finite number/,
    );
    values[2][3] = 1e39;
    try {
      lab.run({ ...base, weights: { values: { W_Q: values } } });
      throw new Error('expected an error');
    } catch (error) {
      expect(error).toBeInstanceOf(AttentionConfigError);
      expect(error.field).toBe('weights.values.W_Q[2][3]');
      expect(error.message).toContain('does not fit in float32');
    }
  });
});

describe('edits', () => {
  test('a weight edit changes that number and nothing drawn before or after it', () => {
    const plain = lab.run(base);
    const edited = lab.run({ ...base, weights: { edits: { W_Q: [[1, 2, 9]], b_O: [[3, -1]] } } });
    const W = (r) => Array.from(r.tensors.W_Q.data);
    const expected = W(plain);
    expected[1 * D + 2] = 9;
    expect(W(edited)).toEqual(expected);
    expect(edited.tensors.b_O.data[3]).toBe(-1);
    expect(Array.from(edited.tensors.W_K.data)).toEqual(Array.from(plain.tensors.W_K.data));
    expect(Array.from(edited.tensors.X.data)).toEqual(Array.from(plain.tensors.X.data));
  });

  test('an embedding edit by token changes every row of that token', () => {
    const edited = lab.run({ ...base, embedding: { edits: [['the', 0, 7]] } });
    const { X } = edited.tensors;
    expect(X.data[0 * D]).toBe(7); // "the" at position 0
    expect(X.data[4 * D]).toBe(7); // and at position 4
    expect(() => lab.run({ ...base, embedding: { edits: [['dog', 0, 7]] } })).toThrow(
      /embedding\.edits\[0\]: the token "dog" is not in the vocab/,
    );
  });

  test('an edit outside the matrix is named', () => {
    expect(() => lab.run({ ...base, weights: { edits: { W_Q: [[16, 0, 1]] } } })).toThrow(
      /weights\.edits\.W_Q\[0\]: row 16 is outside \[0, 15\]/,
    );
    expect(() => lab.run({ ...base, weights: { edits: { b_Q: [[0, 1, 1]] } } })).toThrow(
      /weights\.edits\.b_Q\[0\] must be \[index, value\]/,
    );
  });
});
