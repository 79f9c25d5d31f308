// lab.prepare(config): a prepared run equals lab.run on the same config bit
// for bit, a new X gives PyTorch's numbers on that X (fixtures written by
// tests/reference/prepared.py), update(edits) equals lab.run on the edited
// config, and bad input is an error that names its field.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { AttentionConfigError, AttentionEngineError, loadAttentionLab } from '../../web/api/index.js';
import { editsFromJson, withEdits } from '../../web/model/edits.js';
import { compareTensors, fixtureNames, readFixture, reportWorst } from './fixtures.js';
import { expectSameResult } from './same-result.js';

const preparedDir = fileURLToPath(new URL('../reference/fixtures/prepared/', import.meta.url));
const preparedNames = JSON.parse(readFileSync(`${preparedDir}index.json`, 'utf8'));
const readPrepared = (name) => JSON.parse(readFileSync(`${preparedDir}${name}.json`, 'utf8'));
const numberOf = (v) => (typeof v === 'string' ? Number(v) : v);

let lab;
beforeAll(async () => {
  lab = await loadAttentionLab();
});

describe('handle.run() equals lab.run(config)', () => {
  test.each(fixtureNames)('%s', (name) => {
    const { config } = readFixture(name);
    const prepared = lab.prepare(config);
    try {
      expectSameResult(prepared.run(), lab.run(config));
      // again: the dropout draws start from the same generator state each time
      expectSameResult(prepared.run(), lab.run(config));
    } finally {
      prepared.dispose();
    }
  });

  test('with lab.run options: tensors, one sentence, one head, allHeads', () => {
    const { config } = readFixture('cross-attention-batch');
    const prepared = lab.prepare(config);
    const optionsList = [
      { tensors: ['output'] },
      { tensors: ['X', 'W_Q', 'weights', 'output'], batch: 1 },
      { batch: 0, head: 1, allHeads: ['weights'] },
      { tensors: ['masked', 'scaled', 'dropped', 'weights'] },
    ];
    for (const options of optionsList) expectSameResult(prepared.run(options), lab.run(config, options));
    prepared.dispose();
  });
});

describe('handle.run({x}) reproduces PyTorch 1.13 on that X', () => {
  const recordWorst = reportWorst('prepared runs with a new X vs PyTorch');
  test('there are fixtures', () => {
    expect(preparedNames.length).toBeGreaterThanOrEqual(3);
  });

  test.each(preparedNames)('%s', (name) => {
    const { config, x, expected } = readPrepared(name);
    const prepared = lab.prepare(config);
    expect(prepared.xShape).toEqual(x.shape);
    const xData = Float32Array.from(x.data, numberOf);
    const result = prepared.run({ x: xData });
    expect(result.tokens).toEqual(expected.tokens);
    expect(result.vocab).toEqual(expected.vocab);
    const comparison = compareTensors(expected.tensors, result.tensors);
    recordWorst(name, comparison);
    expect(comparison.problems).toEqual([]);
    // X is the caller's, exactly
    expect(Array.from(result.tensors.X.data)).toEqual(Array.from(xData));
    // the new X is for that call only: without it the run is the config's again
    expectSameResult(prepared.run(), lab.run(config));
    prepared.dispose();
  });

  test('another X gives other numbers, and the same X the same ones', () => {
    const { config, x } = readPrepared('causal-dropout');
    const prepared = lab.prepare(config);
    const first = Float32Array.from(x.data, numberOf);
    const second = first.map((v) => v * 0.5 + 0.25);
    const a = prepared.run({ x: first, tensors: ['output'] }).tensors.output.data;
    const b = prepared.run({ x: second, tensors: ['output'] }).tensors.output.data;
    const c = prepared.run({ x: first, tensors: ['output'] }).tensors.output.data;
    expect(Array.from(c)).toEqual(Array.from(a));
    expect(b.some((v, i) => v !== a[i])).toBe(true);
    prepared.dispose();
  });
});

describe('handle.update(edits) equals lab.run on the edited config', () => {
  const base = { texts: ['the cat sat on the mat', 'a dog sat'], dModel: 8, numHeads: 2, mask: 'causal+padding' };
  const edits = {
    weights: { W_Q: [[0, 5, 0.5]], W_O: [[7, 1, -2]], b_O: [[3, 1.25]] },
    embedding: [['cat', 2, 3.5]],
  };

  test('weights and embedding edits', () => {
    const prepared = lab.prepare(base);
    prepared.update(edits);
    expectSameResult(prepared.run(), lab.run(withEdits(base, editsFromJson(edits))));
    prepared.dispose();
  });

  test('edits accumulate, later ones win on the same number', () => {
    const prepared = lab.prepare({ ...base, dropout: { p: 0.1 } });
    const second = { weights: { W_Q: [[0, 5, -1]], W_K: [[2, 2, 9]] }, embedding: [['dog', 0, 0]] };
    prepared.update(edits);
    prepared.update(second);
    const both = withEdits(withEdits({ ...base, dropout: { p: 0.1 } }, editsFromJson(edits)), editsFromJson(second));
    expectSameResult(prepared.run(), lab.run(both));
    prepared.dispose();
  });

  test('a bias the config does not draw (b_Q without qkvBias) starts at zeros', () => {
    const prepared = lab.prepare(base);
    const biasEdit = { weights: { b_Q: [[1, 0.75]] } };
    prepared.update(biasEdit);
    const result = prepared.run();
    expectSameResult(result, lab.run(withEdits(base, editsFromJson(biasEdit))));
    expect(Array.from(result.tensors.b_Q.data)).toEqual([0, 0.75, 0, 0, 0, 0, 0, 0]);
    prepared.dispose();
  });

  test('an edit the config refuses changes nothing', () => {
    const prepared = lab.prepare(base);
    const before = prepared.run();
    const bad = [
      [{ weights: { W_Q: [[0, 8, 1]] } }, 'weights.edits.W_Q[0]', 'edit-column-outside'],
      [{ weights: { W_Q: [[0, 1, 1]], W_K: [[9, 0, 1]] } }, 'weights.edits.W_K[0]', 'edit-row-outside'],
      [{ embedding: [['zebra', 0, 1]] }, 'embedding.edits[0]', 'edit-token-unknown'],
      [{ weights: { W_Q: [[0, 1, NaN]] } }, 'weights.edits.W_Q[0][2]', 'not-a-number'],
      [{ weights: { W_X: [[0, 1, 1]] } }, 'weights.edits.W_X', undefined],
      [[['cat', 0, 1]], 'edits', 'prepared-edits-not-object'],
      [{ weight: {} }, 'edits', 'prepared-edits-not-object'],
    ];
    for (const [edit, field, code] of bad) {
      let error;
      try {
        prepared.update(edit);
      } catch (e) {
        error = e;
      }
      expect(error, JSON.stringify(edit)).toBeInstanceOf(AttentionConfigError);
      expect(error.field).toBe(field);
      if (code) expect(error.code).toBe(code);
    }
    expectSameResult(prepared.run(), before);
    prepared.dispose();
  });
});

describe('errors name their field', () => {
  const config = { text: 'He sat by the bank', dModel: 8, numHeads: 2 };

  test('x of the wrong type or length, or not finite', () => {
    const prepared = lab.prepare(config);
    expect(prepared.xShape).toEqual([1, 5, 8]);
    const cases = [
      [new Float32Array(39), 'x', 'prepared-x-length', "x has 39 numbers, but the prepared run's X [1, 5, 8] needs 40"],
      [
        Array(40).fill(0),
        'x',
        'prepared-x-type',
        'x must be a Float32Array of B·S·dModel = 40 numbers ([1, 5, 8]), got an array',
      ],
      [
        new Float64Array(40),
        'x',
        'prepared-x-type',
        'x must be a Float32Array of B·S·dModel = 40 numbers ([1, 5, 8]), got Float64Array',
      ],
      [
        new Float32Array(40).fill(Infinity, 17, 18),
        'x[17]',
        'not-a-number',
        'x[17] must be a finite number, got Infinity',
      ],
    ];
    for (const [x, field, code, message] of cases) {
      let error;
      try {
        prepared.run({ x });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(AttentionConfigError);
      expect({ field: error.field, code: error.code, message: error.message }).toEqual({ field, code, message });
    }
    prepared.dispose();
  });

  test('lab.run option errors are the same', () => {
    const prepared = lab.prepare(config);
    expect(() => prepared.run({ tensors: ['nope'] })).toThrow(/unknown tensor "nope"/);
    expect(() => prepared.run({ head: 2 })).toThrow(expect.objectContaining({ field: 'options.head' }));
    prepared.dispose();
  });

  test("a config error is lab.run's; the tiny model is refused", () => {
    expect(() => lab.prepare({ ...config, numHeads: 3 })).toThrow(expect.objectContaining({ field: 'numHeads' }));
    expect(() => lab.prepare({ model: 'tiny', text: 'abc' })).toThrow(
      expect.objectContaining({ field: 'model', code: 'prepare-needs-attention-model' }),
    );
  });

  test('a disposed handle refuses to run', () => {
    const prepared = lab.prepare(config);
    prepared.dispose();
    prepared.dispose(); // twice is harmless
    expect(() => prepared.run()).toThrow(expect.objectContaining({ field: 'prepared', code: 'prepared-disposed' }));
    expect(() => prepared.update({})).toThrow(expect.objectContaining({ code: 'prepared-disposed' }));
  });
});

describe('a restart of the engine', () => {
  // Last in the file: the engine is restarted here.
  test('a handle prepares its config again on the fresh instance, with its edits', async () => {
    const config = { texts: ['the cat sat on the mat', 'a dog'], dModel: 8, numHeads: 2, dropout: { p: 0.2 } };
    const edits = [
      { weights: { W_Q: [[0, 1, 0.5]], b_O: [[2, -1]] }, embedding: [['cat', 0, 2]] },
      { weights: { W_Q: [[0, 1, -3]] }, embedding: [[1, 0, 7]] },
    ];
    const prepared = lab.prepare(config);
    for (const edit of edits) prepared.update(edit);
    const before = prepared.run();
    class Throwing extends Float32Array {
      subarray() {
        throw new Error('subarray refused');
      }
    }
    expect(() => lab.run({ text: 'a b', embedding: { values: new Throwing(16) } })).toThrow(AttentionEngineError);
    const fresh = await loadAttentionLab();
    expect(fresh).toBe(lab);
    const after = prepared.run();
    expectSameResult(after, before);
    const edited = edits.reduce((c, edit) => withEdits(c, editsFromJson(edit)), config);
    expectSameResult(after, lab.run(edited));
    prepared.dispose();
  });
});
