// The pure parts of the teaching frame: the overview's shapes, the scroll
// spy's choice of step, which tables follow a token, the step keys, and the
// numbers the narrations quote (against the engine's own tensors).
import { formatNumber } from '../../web/model/format.js';
import { beforeAll, describe, expect, test } from 'vitest';
import { loadAttentionLab } from '../../web/api/index.js';
import { loadLanguage, translator } from '../../web/i18n/index.js';
import { configFromSettings } from '../../web/model/settings.js';
import { followAxes } from '../../web/view/teach/follow.js';
import { currentIndex, shapeText, stepShapes } from '../../web/view/teach/overview.js';
import { loadAllSteps, STEP_NAMES } from '../../web/view/steps/registry.js';
import { stepMove, stopCounter } from '../../web/view/teach/step-by-step.js';
import { stepByKey } from '../../web/view/steps/registry.js';
import { runContext } from '../../web/view/steps/run-context.js';

// MLA's steps: their code is loaded with the first MLA run (registry.js); these tests word every step.
await loadAllSteps();

await loadLanguage('zh');

const dims = { B: 2, H: 4, S: 5, Skv: 5, D: 8, dk: 2 };

describe('overview shapes', () => {
  test('each step has its PyTorch shape with the real sizes', () => {
    const shown = (key) => stepShapes(key, dims).map((s) => shapeText(s));
    expect(shown('X')).toEqual(['[2, 5, 8]']);
    expect(shown('qkv')).toEqual(['[2, 5, 8]']); // self-attention: K and V have Q's shape
    expect(shown('split')).toEqual(['[2, 4, 5, 2]']);
    expect(shown('scores')).toEqual(['[2, 4, 5, 5]']);
    expect(shown('mask')).toEqual(['[2, 5, 5]']);
    expect(shown('attnweights')).toEqual(['[2, 4, 5, 5]']);
    expect(shown('context')).toEqual(['[2, 4, 5, 2]']);
    expect(shown('concat')).toEqual(['[2, 5, 8]']);
    expect(shown('wo')).toEqual(['[8, 8]']);
    expect(shown('output')).toEqual(['[2, 5, 8]']);
    expect(shown('links')).toEqual([]);
    expect(shown('a-step-added-later')).toEqual([]);
  });

  test('the letters name the axes; cross-attention shows K/V with S_kv', () => {
    const [scores] = stepShapes('scores', dims);
    expect(shapeText(scores, 'letters')).toBe('[B, H, S, S_kv]');
    expect(shapeText(scores, 'both')).toBe('[B=2, H=4, S=5, S_kv=5]');
    const cross = stepShapes('qkv', { ...dims, Skv: 7 });
    expect(cross.map((s) => shapeText(s, 'both'))).toEqual(['[B=2, S=5, D=8]', '[B=2, S_kv=7, D=8]']);
    const grouped = stepShapes('qkv', { ...dims, Hkv: 2 });
    expect(grouped.map((s) => shapeText(s, 'both'))).toEqual(['[B=2, S=5, D=8]', '[B=2, S_kv=5, H_kv·d_k=4]']);
  });

  test('every step the pipeline renders that holds a tensor has a shape', () => {
    const withoutTensor = ['scaling', 'links'];
    for (const key of Object.keys(STEP_NAMES))
      expect(stepShapes(key, dims).length > 0, key).toBe(!withoutTensor.includes(key));
  });
});

describe('the step being read', () => {
  test('is the last one whose top has passed the line', () => {
    expect(currentIndex([120, 700, 1500], 100)).toBe(0); // nothing has reached the line yet: the first
    expect(currentIndex([-300, 90, 800], 100)).toBe(1);
    expect(currentIndex([-900, -200, 100], 100)).toBe(2);
  });

  test('at the end of the page, short last steps count once in the upper half below the line', () => {
    const tops = [-900, 300, 500, 700];
    expect(currentIndex(tops, 100)).toBe(0);
    expect(currentIndex(tops, 100, { atEnd: true, viewportHeight: 900 })).toBe(2);
  });
});

describe('which tables follow a token', () => {
  const tokens = ['the', 'cat', 'sat'];
  const self = { queryLabels: tokens, keyLabels: tokens, cross: false };
  const features = ['d0', 'd1', 'd2', 'd3'];

  test('rows of query tokens, columns of key tokens (self-attention)', () => {
    expect(followAxes(tokens, features, self)).toEqual({ rows: true, columns: false }); // X, Q, K, context
    expect(followAxes(tokens, tokens, self)).toEqual({ rows: true, columns: true }); // scores, weights, mask
    expect(followAxes(features, features, self)).toEqual({ rows: false, columns: false }); // W_Q
    expect(followAxes(['W_Q'], features, self)).toEqual({ rows: false, columns: false }); // a bias
  });

  test('in cross-attention a query token has no key column, and context rows are not its', () => {
    const cross = { queryLabels: tokens, keyLabels: ['I', 'am', 'here', 'now'], cross: true };
    expect(followAxes(tokens, cross.keyLabels, cross)).toEqual({ rows: true, columns: false });
    expect(followAxes(cross.keyLabels, features, cross)).toEqual({ rows: false, columns: false }); // K, V
  });

  test('a corner table of a canvas heatmap shows the first rows only', () => {
    const many = Array.from({ length: 100 }, (_, k) => `w${k}`);
    const ctx = { queryLabels: many, keyLabels: many, cross: false };
    expect(followAxes(many.slice(0, 16), many.slice(0, 16), ctx, true)).toEqual({ rows: true, columns: true });
    expect(followAxes(many.slice(0, 16), many.slice(0, 16), ctx, false)).toEqual({ rows: false, columns: false });
    expect(followAxes(many.slice(1, 17), features, ctx, true).rows).toBe(false);
  });
});

describe('step keys', () => {
  test('←/→, PageUp/PageDown, Home/End move within the steps; other keys do not', () => {
    expect(stepMove('ArrowRight', 2, 14)).toBe(3);
    expect(stepMove('PageDown', 13, 14)).toBe(13);
    expect(stepMove('ArrowLeft', 0, 14)).toBe(0);
    expect(stepMove('PageUp', 5, 14)).toBe(4);
    expect(stepMove('Home', 9, 14)).toBe(0);
    expect(stepMove('End', 0, 14)).toBe(13);
    expect(stepMove('ArrowDown', 3, 14)).toBe(null);
    expect(stepMove('a', 3, 14)).toBe(null);
  });

  // The plain path of the default example: 13 steps and 4 stops that are chapter bars (multi-head after step 3,
  // the modern variants after 8, inference after 12, the next chapters after 13). The counter numbers the steps
  // as their headings do (the links step is headed 10: it said "Step 12 of 17"), and a bar is no step.
  const step = { chapter: null };
  const plain = [step, step, step, { chapter: 2 }, ...Array(5).fill(step), { chapter: 3 }, ...Array(4).fill(step)];
  plain.push({ chapter: 4 }, step, { chapter: 0 });
  test.each([
    ['en', 'Step 1 of 13', 'Chapter 2, after step 3 of 13', 'Step 10 of 13', 'Next chapters, after step 13 of 13'],
    [
      'zh',
      '第 1 步，共 13 步',
      '第 2 章，在第 3 步之后（共 13 步）',
      '第 10 步，共 13 步',
      '后续章节，在第 13 步之后（共 13 步）',
    ],
  ])('%s: the counter counts the steps; on a chapter bar it names the chapter and the step before', (lang, ...said) => {
    const t = translator(lang);
    expect(plain).toHaveLength(17);
    expect([0, 3, 11, 16].map((index) => stopCounter(t, plain, index))).toEqual(said);
  });
});

describe('narration numbers', () => {
  let lab;
  beforeAll(async () => {
    lab = await loadAttentionLab();
  });

  /** The narration sentences of step `key` for a run of these settings, sentence b, head h, followed token focus. */
  const narrationOf = (result, key, { b = 0, h = 0, focus = null, lang = 'en' } = {}) =>
    stepByKey(key).words(runContext(result, { b, h, focus }), translator(lang)).narration;

  test('quote the shown sentence and head: sizes, the example token’s strongest key, mask and dropout', () => {
    const result = lab.run(
      configFromSettings({
        text: 'the cat sat on the mat\na dog ran',
        mask: 'causal+padding',
        numHeads: 2,
        'dropout.p': 0.2,
      }),
    );
    const quoted = (key, where) =>
      Object.fromEntries(
        narrationOf(result, key, where).flatMap((s) =>
          s.quotes.map((q) => [Object.keys(q.fact)[0] + ':' + Object.values(q.fact)[0], q.text]),
        ),
      );
    const where = { b: 1, h: 1, focus: 2 };
    expect(quoted('split', where)).toMatchObject({ 'size:H': '2', 'size:d_k': '4', 'headNumber:1': '2' });
    expect(quoted('dropped', where)).toMatchObject({ 'setting:dropout.p': '0.2', 'value:keepFactor': '1.25' });
    expect(quoted('scaled', where)['value:scaleFactor']).toBe('0.5');
    // The strongest key of "ran" in head 2, from the engine's weights row (b=1, h=1, i=2).
    const [, H, S, Skv] = result.tensors.weights.shape;
    const row = Array.from(
      result.tensors.weights.data.subarray(((1 * H + 1) * S + 2) * Skv, ((1 * H + 1) * S + 3) * Skv),
    );
    const best = row.indexOf(Math.max(...row));
    const [softmax] = narrationOf(result, 'attnweights', where);
    expect(softmax.text).toContain(`“ran”`);
    expect(softmax.text).toContain(`“${result.tokens[1][best]}”`);
    expect(softmax.text).toContain(formatNumber(row[best], 4));
    // Without a followed token, the first token is the example.
    expect(narrationOf(result, 'attnweights', { b: 1, h: 1 })[0].text).toContain('“a”');
  });

  test('every narration fills all its placeholders in both languages', () => {
    const result = lab.run(configFromSettings({ text: 'He sat by the bank' }));
    for (const lang of ['en', 'zh'])
      for (const key of Object.keys(STEP_NAMES))
        for (const sentence of narrationOf(result, key, { lang }))
          expect(sentence.text, `${lang} ${key}`).not.toMatch(/\{\w+\}/);
    expect(narrationOf(result, 'X')[0].text).toContain('Each of the 5 tokens');
    expect(narrationOf(result, 'X', { lang: 'zh' })[0].text).toContain('5 个词元');
  });
});

describe('presentation keys and touch wording', () => {
  test('Space is the next step, as in a slide show', () => {
    expect(stepMove(' ', 2, 14)).toBe(3);
    expect(stepMove(' ', 13, 14)).toBe(13);
  });

  test('on a touch screen a key with a touch wording says tap, in English and Chinese', async () => {
    const { touchWording } = await import('../../web/view/common/touch.js');
    const { loadLanguage } = await import('../../web/i18n/index.js');
    for (const lang of ['en', 'zh']) {
      const t = await loadLanguage(lang);
      const touch = touchWording(t, true);
      expect(touch('explain.hint')).toBe(t('touch.explain.hint'));
      expect(touch('explain.hint')).not.toMatch(/hover|悬停/i);
      expect(touch('step.scores.title')).toBe(t('step.scores.title'));
      expect(touch.lang).toBe(lang);
      expect(touchWording(t, false)).toBe(t);
    }
  });
});
