// The page's and the element's runs (api/prepared-runs.js): a config that
// changes only by its edits runs through one prepared handle, and every
// result, stepper figure and error is the one lab.run, lab.decode or lab.flash
// gives on that config.
import { beforeAll, describe, expect, test } from 'vitest';
import { loadAttentionLab } from '../../web/api/index.js';
import { PreparedRuns } from '../../web/api/prepared-runs.js';
import { expectSameResult } from './same-result.js';

let lab;
beforeAll(async () => {
  lab = await loadAttentionLab();
});

/** `lab` with its prepare calls counted. */
function counting(lab) {
  const counted = { prepares: 0 };
  counted.lab = new Proxy(lab, {
    get(target, key) {
      const value = Reflect.get(target, key);
      if (key === 'prepare')
        return (config) => {
          counted.prepares++;
          return target.prepare(config);
        };
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return counted;
}

const base = {
  texts: ['the cat sat on the mat', 'a dog sat'],
  dModel: 8,
  numHeads: 2,
  mask: 'causal+padding',
  dropout: { p: 0.1 },
};
const withCells = (weights, embedding) => ({
  ...base,
  weights: { edits: weights },
  ...(embedding ? { embedding: { edits: embedding } } : {}),
});

describe('PreparedRuns', () => {
  test('edits run through one prepared handle, each result lab.run’s', () => {
    const counted = counting(lab);
    const runs = new PreparedRuns(counted.lab);
    const sequence = [
      base,
      withCells({ W_Q: [[0, 5, 0.5]] }),
      withCells({ W_Q: [[0, 5, -1]] }), // the same cell, another value
      withCells({ W_Q: [[0, 5, -1]], W_O: [[7, 1, -2]], b_O: [[3, 1.25]] }),
      withCells({ W_Q: [[0, 5, -1]], W_O: [[7, 1, -2]], b_O: [[3, 1.25]] }, [['cat', 2, 3.5]]),
      withCells({ W_Q: [[0, 5, -1]], W_O: [[7, 1, -2]], b_O: [[3, 1.25]] }, [['cat', 2, 3.5]]), // unchanged: runs again
    ];
    for (const config of sequence) expectSameResult(runs.run(config), lab.run(config));
    expect(counted.prepares).toBe(1);
    // An undone edit, a new token and a setting prepare anew; the results stay lab.run's.
    const undone = withCells({ W_Q: [[0, 5, -1]] }, [['cat', 2, 3.5]]);
    const retyped = { ...undone, texts: ['the cat sat on the mat', 'a dog sat down'] };
    const reset = { ...retyped, numHeads: 4 };
    for (const config of [undone, retyped, reset]) expectSameResult(runs.run(config), lab.run(config));
    expect(counted.prepares).toBe(4);
    // A cell changed in place by the caller between two runs is sent as changed.
    const inPlace = withCells({ W_V: [[2, 2, 1]] });
    expectSameResult(runs.run(inPlace), lab.run(inPlace));
    inPlace.weights.edits.W_V[0][2] = -3;
    expectSameResult(runs.run(inPlace), lab.run(inPlace));
    expect(counted.prepares).toBe(5);
    // Options as lab.run's: one sentence, one head, some tensors.
    const options = { tensors: ['weights', 'output'], batch: 1, head: 3, allHeads: ['weights'] };
    expectSameResult(runs.run(reset, options), lab.run(reset, options));
    expect(counted.prepares).toBe(6);
    runs.release();
  });

  test('the steppers run on the same prepared state, with lab.decode’s and lab.flash’s numbers', () => {
    const counted = counting(lab);
    const runs = new PreparedRuns(counted.lab);
    const causal = { text: 'the cat sat on the mat', dModel: 8, numHeads: 2, mask: 'causal' };
    const edited = { ...causal, weights: { edits: { W_K: [[1, 3, 2.5]] } }, embedding: { edits: [['mat', 0, -1]] } };
    runs.run(causal);
    expect(runs.decode(edited)).toEqual(lab.decode(edited));
    const flashOptions = { head: 1, tileQueries: 2, tileKeys: 3 };
    expect(runs.flash(edited, flashOptions)).toEqual(lab.flash(edited, flashOptions));
    expect(runs.decode(edited).identicalRows).toBe(12);
    expect(counted.prepares).toBe(1);
    runs.release();
  });

  test('errors are lab.run’s, named by field; the handle is unchanged by a bad edit', () => {
    const runs = new PreparedRuns(lab);
    const good = withCells({ W_Q: [[0, 5, 0.5]] });
    runs.run(good);
    const badEdit = withCells({ W_Q: [[0, 5, 0.5]], W_K: [[9, 0, 1]] });
    const errorOf = (call) => {
      try {
        call();
      } catch (error) {
        return { field: error.field, code: error.code, message: error.message };
      }
      return null;
    };
    expect(errorOf(() => runs.run(badEdit))).toEqual(errorOf(() => lab.run(badEdit)));
    expect(errorOf(() => runs.run(badEdit))?.field).toBe('weights.edits.W_K[0]');
    expectSameResult(runs.run(good), lab.run(good));
    const badSetting = { ...base, numHeads: 3 };
    expect(errorOf(() => runs.run(badSetting))).toEqual(errorOf(() => lab.run(badSetting)));
    expect(errorOf(() => runs.decode(base))).toEqual(errorOf(() => lab.decode(base)));
    runs.release();
  });

  test('config text, and large typed arrays, run as lab.run runs them (small typed arrays are compared)', () => {
    const counted = counting(lab);
    const runs = new PreparedRuns(counted.lab);
    const text = JSON.stringify({ text: 'a b c', dModel: 4, numHeads: 2 });
    expectSameResult(runs.run(text), lab.run(text));
    const identity = (D) => Float32Array.from({ length: D * D }, (_, k) => (k % (D + 1) === 0 ? 1 : 0));
    const given = (D) => ({ text: 'a b c', dModel: D, numHeads: 2, weights: { values: { W_Q: identity(D) } } });
    expectSameResult(runs.run(given(96)), lab.run(given(96))); // 9,216 numbers: not compared, not prepared
    expect(counted.prepares).toBe(0);
    const small = given(8);
    expectSameResult(runs.run(small), lab.run(small));
    small.weights.values.W_Q[1] = 0.5; // changed in place: compared by its numbers, so prepared again
    expectSameResult(runs.run(small), lab.run(small));
    expect(counted.prepares).toBe(2);
    runs.release();
  });

  test('release frees the engine state: memory stays flat over many edits and releases', () => {
    const runs = new PreparedRuns(lab);
    const large = { text: Array.from({ length: 64 }, (_, i) => `w${i}`).join(' '), dModel: 128, numHeads: 4 };
    const edit = (k) => ({ ...large, weights: { edits: { W_V: [[k % 128, (k * 7) % 128, k / 10]] } } });
    const around = () => {
      for (let k = 0; k < 50; k++) runs.run(k % 10 === 0 ? large : edit(k), { tensors: ['output'] });
      runs.release();
      return lab.memoryBytes;
    };
    around();
    const first = around();
    for (let round = 0; round < 5; round++) around();
    expect(lab.memoryBytes).toBeLessThanOrEqual(first);
  });
});
