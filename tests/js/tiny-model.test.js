// The tiny trained model through the JS API on the real wasm build: its weights
// loaded (lab.loadTinyModel), its forward against PyTorch
// (tests/reference/fixtures/tiny: every intermediate within 1e-5 abs + 1e-4 rel,
// the worst difference printed), its errors named by field, and its weights kept
// when the engine restarts.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  AttentionConfigError,
  AttentionEngineError,
  SCHEMA,
  TINY_MODEL,
  loadAttentionLab,
} from '../../web/api/index.js';
import { compareTensors, fixtureDir, reportWorst } from './fixtures.js';

const report = JSON.parse(
  readFileSync(fileURLToPath(new URL('../reference/tiny/report.json', import.meta.url)), 'utf8'),
);
const tinyNames = JSON.parse(readFileSync(`${fixtureDir}tiny/index.json`, 'utf8'));
/** The size of every checkpoint's file (they hold the same tensors), as the report records it. */
const FILE_BYTES = report.checkpoints[0].bytes;
const readTiny = (name) => JSON.parse(readFileSync(`${fixtureDir}tiny/${name}.json`, 'utf8'));

/** The error `call` throws (or the rejection of the promise it returns). */
async function errorOf(call) {
  try {
    await call();
  } catch (error) {
    return error;
  }
  return undefined;
}

/**
 * The scores q·k of a head are sums of 16 products; in float32 their rounding is relative to the size
 * of those products, |q_i| |k_j| (Cauchy–Schwarz), not to the sum, which cancels to near 0 at some of
 * 256 × 256 cells. For "layers[l].scores" (÷ 4 for scaled): per cell (nh, T, T), |q_i| |k_j| of its
 * head from PyTorch's Q and K (T, d); else null.
 */
function dotScale(layers, key) {
  const match = /^layers\[(\d)\]\.(scores|scaled)$/.exec(key);
  if (!match) return null;
  const { Q, K } = layers[Number(match[1])];
  const [T, d] = Q.shape;
  const [nh, hs] = [4, d / 4];
  const norms = (x) =>
    Array.from({ length: nh * T }, (_, k) => {
      const [h, i] = [Math.floor(k / T), k % T];
      return Math.hypot(...x.data.slice(i * d + h * hs, i * d + (h + 1) * hs));
    });
  const [nq, nk] = [norms(Q), norms(K)];
  const divisor = match[2] === 'scaled' ? 4 : 1;
  const scale = new Float64Array(nh * T * T);
  for (let h = 0; h < nh; h++)
    for (let i = 0; i < T; i++)
      for (let j = 0; j < T; j++) scale[(h * T + i) * T + j] = (nq[h * T + i] * nk[h * T + j]) / divisor;
  return scale;
}

let lab;
const recordWorst = reportWorst('tiny model, JS API vs PyTorch');
beforeAll(async () => {
  lab = await loadAttentionLab();
});

describe('TINY_MODEL', () => {
  test("its checkpoints are the engine's and the training report's", () => {
    expect(TINY_MODEL.checkpoints).toEqual(SCHEMA.tinyModel.checkpoints);
    expect(TINY_MODEL.checkpoints).toEqual(report.checkpoints.map((c) => c.step));
    expect(TINY_MODEL).toMatchObject({ context: 256, layers: 2, heads: 4, dModel: 64, headDim: 16, vocab: 256 });
  });

  test('weightsUrl names the shipped file of a checkpoint', () => {
    const url = TINY_MODEL.weightsUrl(500);
    expect(url.pathname.endsWith('/web/api/tiny/step-0500.safetensors')).toBe(true);
    expect(readFileSync(url).length).toBe(report.checkpoints.find((c) => c.step === 500).bytes);
  });
});

describe('lab.loadTinyModel', () => {
  test('loads the shipped file of a checkpoint; again, it does nothing', async () => {
    await expect(lab.loadTinyModel(11000)).resolves.toEqual({ step: 11000, bytes: FILE_BYTES });
    await expect(lab.loadTinyModel()).resolves.toEqual({ step: 11000, bytes: FILE_BYTES });
    const [a, b] = await Promise.all([lab.loadTinyModel(750), lab.loadTinyModel(750)]);
    expect(a).toEqual({ step: 750, bytes: FILE_BYTES });
    expect(b).toEqual(a);
  });

  test('takes the bytes of a file', async () => {
    const bytes = new Uint8Array(readFileSync(TINY_MODEL.weightsUrl(1500)));
    await expect(lab.loadTinyModel(1500, bytes)).resolves.toEqual({ step: 1500, bytes: FILE_BYTES });
    expect(lab.run({ model: 'tiny', checkpoint: 1500, text: 'ab' }).checkpoint).toBe(1500);
  });

  test('a checkpoint that was not shipped is an error on "checkpoint"', async () => {
    const error = await errorOf(() => lab.loadTinyModel(501));
    expect(error).toBeInstanceOf(AttentionConfigError);
    expect(error).toMatchObject({ field: 'checkpoint', code: 'checkpoint-unknown' });
    expect(error.params).toEqual({ got: '501', steps: '0, 500, 750, 1000, 1250, 1500, 3000, 11000' });
    expect((await errorOf(() => lab.loadTinyModel('11000'))).field).toBe('checkpoint');
  });

  test('bytes that are no weights file are an error on "weights file", bytes of another type on "bytes"', async () => {
    const short = await errorOf(() => lab.loadTinyModel(3000, new Uint8Array([1, 2, 3])));
    expect(short).toMatchObject({ field: 'weights file', code: 'weights-file-too-short' });
    const good = new Uint8Array(readFileSync(TINY_MODEL.weightsUrl(3000)));
    const header = Number(new DataView(good.buffer, good.byteOffset).getBigUint64(0, true));
    const cut = await errorOf(() => lab.loadTinyModel(3000, good.subarray(0, 8 + header + 1000)));
    expect(cut).toMatchObject({ field: 'weights file', code: 'weights-file-bounds' });
    expect(cut.message).toContain('tok_emb.weight');
    // Every weight NaN (float16 0x7E00), +inf (0x7C00) or -inf (0xFC00): refused, naming the first tensor and index.
    for (const [bits, got] of [
      [0x7e00, 'NaN'],
      [0x7c00, 'inf'],
      [0xfc00, '-inf'],
    ]) {
      const poisoned = good.slice();
      const view = new DataView(poisoned.buffer);
      for (let at = 8 + header; at + 1 < poisoned.length; at += 2) view.setUint16(at, bits, true);
      const error = await errorOf(() => lab.loadTinyModel(3000, poisoned));
      expect(error).toMatchObject({
        field: 'weights file',
        code: 'weights-file-not-finite',
        params: { got, index: '0' },
      });
      expect(error.message).toContain('a weight must be a finite number');
    }
    // One NaN among good weights: its tensor and place.
    const one = good.slice();
    new DataView(one.buffer).setUint16(8 + header + 2 * 5, 0x7e00, true);
    const single = await errorOf(() => lab.loadTinyModel(3000, one));
    expect(single.code).toBe('weights-file-not-finite');
    expect(single.params.index).not.toBe(undefined);
    const notBytes = await errorOf(() => lab.loadTinyModel(3000, [1, 2, 3]));
    expect(notBytes).toMatchObject({ field: 'bytes', code: 'weights-not-bytes' });
    // Still not loaded: a run says how to load it.
    const notLoaded = await errorOf(() => lab.run({ model: 'tiny', checkpoint: 3000, text: 'ab' }));
    expect(notLoaded).toMatchObject({ field: 'checkpoint', code: 'checkpoint-not-loaded', params: { step: '3000' } });
    expect(notLoaded.message).toContain('lab.loadTinyModel(3000)');
  });
});

describe('lab.run with model "tiny" reproduces PyTorch 1.13', () => {
  test('there are fixtures at two checkpoints, with a text typed twice, Chinese, one byte and 256 bytes', () => {
    const fixtures = tinyNames.map(readTiny);
    expect(new Set(fixtures.map((f) => f.checkpoint)).size).toBeGreaterThanOrEqual(2);
    expect(fixtures.some((f) => f.expected.secondCopy)).toBe(true);
    expect(fixtures.some((f) => /[\u4e00-\u9fff]/.test(f.text))).toBe(true);
    expect(fixtures.map((f) => f.expected.ids.length)).toEqual(expect.arrayContaining([1, 256]));
    // A repeat after a separator, not only s + s.
    expect(fixtures.some((f) => f.text.includes('. ') && f.expected.secondCopy)).toBe(true);
  });

  test.each(tinyNames)('%s', async (name) => {
    const { checkpoint, text, expected } = readTiny(name);
    await lab.loadTinyModel(checkpoint);
    const result = lab.run({ model: 'tiny', checkpoint, text });
    expect(result).toMatchObject({ model: 'tiny', checkpoint, text, ids: expected.ids, warnings: [] });
    expect(result.sizes).toEqual({ T: expected.ids.length, layers: 2, heads: 4, dModel: 64, headDim: 16, vocab: 256 });
    const got = { ...result.tensors };
    const want = { ...expected.tensors };
    expect(result.layers).toHaveLength(expected.layers.length);
    expected.layers.forEach((layer, l) => {
      for (const [tensor, value] of Object.entries(layer)) {
        want[`layers[${l}].${tensor}`] = value;
        got[`layers[${l}].${tensor}`] = result.layers[l][tensor];
        expect(result.layers[l][tensor].data).toBeInstanceOf(Float32Array);
      }
    });
    const comparison = compareTensors(want, got, { scaleOf: (key) => dotScale(expected.layers, key) });
    recordWorst(name, comparison);
    expect(comparison.problems).toEqual([]);
    for (const score of ['previousToken', 'induction']) {
      const e = expected.headScores[score];
      if (e === null) expect(result.headScores[score]).toBeNull();
      else e.forEach((row, l) => row.forEach((v, h) => expect(result.headScores[score][l][h]).toBeCloseTo(v, 6)));
    }
    expect(result.headScores.repeatTargets).toEqual(expected.headScores.repeatTargets);
    if (expected.secondCopy === null) expect(result.secondCopy).toBeNull();
    else {
      expect(result.secondCopy).toMatchObject({
        correct: expected.secondCopy.correct,
        total: expected.secondCopy.total,
      });
      expect(result.secondCopy.loss).toBeCloseTo(expected.secondCopy.loss, 5);
    }
  });

  test('the sentences of the report, typed twice, spaced or three times: the second copies it reports', () => {
    for (const { text, correct, total } of Object.values(report.final.sentences)) {
      expect(lab.run({ model: 'tiny', text }).secondCopy).toMatchObject({ correct, total });
    }
  });
});

describe('errors and warnings of model "tiny"', () => {
  test('a text over 256 bytes is an error on "text" that gives its bytes', async () => {
    const error = await errorOf(() => lab.run({ model: 'tiny', text: '注意力'.repeat(28) + 'abcde' }));
    expect(error).toBeInstanceOf(AttentionConfigError);
    expect(error).toMatchObject({
      field: 'text',
      code: 'text-too-long-for-model',
      params: { bytes: '257', max: '256' },
    });
  });

  test('no text, an empty one, or texts/tokens/input instead are errors naming the field', async () => {
    expect(await errorOf(() => lab.run({ model: 'tiny' }))).toMatchObject({ field: 'text' });
    expect(await errorOf(() => lab.run({ model: 'tiny', text: '' }))).toMatchObject({ field: 'text' });
    for (const [field, value] of [
      ['texts', ['a', 'b']],
      ['tokens', [['a']]],
      ['input', { randn: [1, 2, 8] }],
    ])
      expect(await errorOf(() => lab.run({ model: 'tiny', [field]: value }))).toMatchObject({
        field,
        code: 'model-needs-text',
      });
  });

  test('an unknown checkpoint is an error on "checkpoint" listing the steps', async () => {
    const error = await errorOf(() => lab.run({ model: 'tiny', checkpoint: 600, text: 'ab' }));
    expect(error).toMatchObject({ field: 'checkpoint', code: 'checkpoint-unknown' });
    expect(error.message).toContain('0, 500, 750, 1000, 1250, 1500, 3000, 11000');
    expect(await errorOf(() => lab.run({ model: 'tiny', checkpoint: 11500, text: 'ab' }))).toMatchObject({
      field: 'checkpoint',
      code: 'out-of-range',
    });
  });

  test("the attention layer's settings are ignored with a warning naming them; defaults are no warning", () => {
    const quiet = lab.run({ model: 'tiny', text: 'ab', dModel: 8, numHeads: 2, mask: 'none' });
    expect(quiet.warnings).toEqual([]);
    const result = lab.run({ model: 'tiny', text: 'ab', dModel: 16, mask: 'causal', dropout: { p: 0.5 } });
    expect(result.warnings).toEqual([
      expect.objectContaining({ code: 'model-ignores-fields', params: { fields: 'dModel, mask, dropout.p' } }),
    ]);
    expect(result.layers[0].weights.shape).toEqual([4, 2, 2]);
  });

  test('the run options are ignored: every tensor of every head comes back', () => {
    const result = lab.run({ model: 'tiny', text: 'abc' }, { tensors: ['weights'], head: 1, batch: 0 });
    expect(result.layers[1].scores.shape).toEqual([4, 3, 3]);
    expect(Object.keys(result.tensors)).toEqual([
      'tokenEmbeddings',
      'positionEmbeddings',
      'residual0',
      'logits',
      'probs',
    ]);
  });
});

describe('a restart of the engine', () => {
  // Last in the file: the engine is restarted here.
  test('keeps the loaded weights', async () => {
    const before = lab.run({ model: 'tiny', checkpoint: 750, text: 'The cat sat.The cat sat.' });
    class Throwing extends Float32Array {
      subarray() {
        throw new Error('subarray refused');
      }
    }
    const crash = await errorOf(() => lab.run({ text: 'a b', embedding: { values: new Throwing(16) } }));
    expect(crash).toBeInstanceOf(AttentionEngineError);
    const fresh = await loadAttentionLab();
    expect(fresh).toBe(lab);
    const after = fresh.run({ model: 'tiny', checkpoint: 750, text: 'The cat sat.The cat sat.' });
    expect(after.layers[1].weights.data).toEqual(before.layers[1].weights.data);
    expect(after.headScores).toEqual(before.headScores);
  });
});
