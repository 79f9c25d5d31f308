// The narration defects issue 22 listed, each written as the page used to
// say it (its words, and its numbers quoted for what they said): the claims
// checker must reject every one, and pass what the step says now.
import { beforeAll, describe, expect, test } from 'vitest';
import { loadAttentionLab } from '../../web/api/index.js';
import { loadLanguage, translator } from '../../web/i18n/index.js';
import { PRESETS, presetSettings } from '../../web/model/presets.js';
import { configFromSettings } from '../../web/model/settings.js';
import { decodeStep } from '../../web/model/stepper-runs.js';
import { quote, whole } from '../../web/model/words.js';
import { kvCacheWords } from '../../web/view/steps/kv-cache-words.js';
import { loadAllSteps, stepByKey } from '../../web/view/steps/registry.js';
import { runContext } from '../../web/view/steps/run-context.js';
import { checkSentence } from './claims/narration-check.js';

// MLA's steps: their code is loaded with the first MLA run (registry.js); these tests word every step.
await loadAllSteps();

let lab;
beforeAll(async () => {
  lab = await loadAttentionLab();
  await loadLanguage('zh');
});

const preset = (key) => configFromSettings(presetSettings(PRESETS.find((p) => p.key === key)));
const sentence = (text, quotes, claims = []) => ({ kind: 'text', text, quotes, claims });
/** The problems of a sentence on a run, and those of what step `key` says now (meaning, notes, narration). */
const check = (result, old, key, lang = 'en') => {
  const run = { result, b: 0, h: 0, decimals: 4 };
  const words = stepByKey(key).words(runContext(result), translator(lang));
  const now = [...words.meaning, ...words.notes, ...words.narration].flatMap((s) => checkSentence(s, run));
  return { old: checkSentence(old, run), now };
};

describe('the defects the claims test was written for fail it; the steps now pass', () => {
  test('the Annotated Transformer (1 = keep): the mask narration counted the 1s and called them blocked', () => {
    const result = lab.run(preset('annotated'));
    const [, S, Skv] = result.tensors.mask.shape;
    const ones = Array.from(result.tensors.mask.data.subarray(0, S * Skv)).filter((v) => v !== 0).length;
    const old = sentence(
      `${ones} of the ${S * Skv} query–key pairs of this sentence are blocked (1): they will get weight 0. Pairs marked 0 pass unchanged.`,
      [whole(ones, { count: 'blocked', b: 0 }), whole(S * Skv, { count: 'pairs' })],
      [
        { maskMarks: 'blocked', b: 0, states: ['1'] },
        { maskMarks: 'kept', b: 0, states: ['0'] },
      ],
    );
    const { old: before, now } = check(result, old, 'mask');
    expect(before.join('\n')).toMatch(/quotes \d+ as \{"count":"blocked".*the run has \d+/);
    expect(before.join('\n')).toMatch(/maskMarks.*of a blocked cell is 0, not 1/);
    expect(now).toEqual([]);
  });

  test('Llama-style (GQA 8 → 2): "three learned 32×32 matrices", K and V "32 numbers wide"', () => {
    const result = lab.run(preset('llama'));
    const D = result.tensors.X.shape[2];
    const all = (names, axes) => whole(D, { shapes: names.flatMap((n) => axes.map((a) => [n, a])) });
    const weights = sentence(`Three learned ${D}×${D} matrices.`, [all(['W_Q', 'W_K', 'W_V'], [0, 1])]);
    const qkv = sentence(`Q, K and V are each ${D} numbers wide.`, [all(['Q', 'K', 'V'], [2])]);
    expect(check(result, weights, 'weights').old.join('\n')).toMatch(/W_K is 8 on axis 1/);
    expect(check(result, qkv, 'qkv').old.join('\n')).toMatch(/K is 8 on axis 2/);
    expect(check(result, weights, 'weights').now).toEqual([]);
    expect(check(result, qkv, 'qkv').now).toEqual([]);
  });

  test('dropout p = 0.2: each row of the context "a weighted average" of the value rows', () => {
    const result = lab.run(configFromSettings({ text: 'He sat by the bank', 'dropout.p': 0.2 }));
    const old = sentence(
      'Each query’s new row is a weighted average of the value rows.',
      [],
      [{ rowsSumTo: 1, tensor: 'dropped', b: 0, h: 0 }],
    );
    const { old: before, now } = check(result, old, 'context');
    expect(before.join('\n')).toMatch(/a row of dropped sums to (?!1\b)/);
    expect(now).toEqual([]);
  });

  test('the KV cache with RoPE: keys shown as "K_cache" with no word of RoPE; "d_k = 4 · 4 bytes"', () => {
    const config = preset('llama');
    const result = lab.run(config);
    const decoded = lab.decode(config);
    const step = 2;
    const at = decodeStep(decoded, step, 0);
    const run = { result, b: 0, h: 0, decimals: 4, decoded };
    const dk = decoded.sizes.headDim;
    const keys = sentence('Key cache K_cache', [], [{ kvCacheHolds: 'K', step }]);
    const bytes = sentence(
      `bytes = 2 (k and v) · ${step + 1} tokens · K/V heads · d_k = ${dk} · 4 bytes.`,
      [whole(step + 1, { count: 'kvLength', step }), whole(dk, { size: 'd_k' })],
      [{ kvCacheBytes: true, step, states: ['2', '4'] }],
    );
    expect(checkSentence(keys, run).join('\n')).toMatch(/cache row \d+ holds .*K has/);
    expect(checkSentence(bytes, run).join('\n')).toMatch(new RegExp(`equation whose sides differ: ${dk} ≠ ${dk * 4}`));
    const words = kvCacheWords(decoded, at, step, 'x', translator('en'), result.tensors);
    expect(words.keysTitle.text).toMatch(/after RoPE/);
    expect([words.keysTitle, words.bytes].flatMap((s) => checkSentence(s, run))).toEqual([]);
  });

  test('template Chinese: "1 个头各得到一个 5×5 的表", "dropout 以概率 0 把每个权重置为 0"', () => {
    const result = lab.run(preset('tutorial'));
    const [, H, S, Skv] = result.tensors.scores.shape;
    const scores = sentence(`${H} 个头各得到一个 ${S}×${Skv} 的表。`, [
      whole(H, { size: 'H', min: 2 }),
      whole(S, { size: 'S' }),
      whole(Skv, { size: 'S_kv' }),
    ]);
    const dropout = sentence('dropout 以概率 0 把每个权重置为 0。', [
      quote(0, { setting: 'dropout.p', above: 0 }, '0'),
    ]);
    expect(check(result, scores, 'scores', 'zh').old.join('\n')).toMatch(/the wording needs 2 or more, the run has 1/);
    expect(check(result, dropout, 'dropped', 'zh').old.join('\n')).toMatch(
      /the wording needs more than 0, the run has 0/,
    );
    expect(check(result, scores, 'scores', 'zh').now).toEqual([]);
    expect(check(result, dropout, 'dropped', 'zh').now).toEqual([]);
  });
});
