// The tokenizer "words": Intl.Segmenter (ICU) on the JS side, sent to the
// engine as pre-split tokens.
import { describe, expect, test } from 'vitest';
import { WORDS, resolveWordTokenizer, segmentWords } from '../../web/model/segment.js';
import { fieldByPath } from '../../web/model/schema.js';
import { configFromSettings } from '../../web/model/settings.js';

describe('word segmentation', () => {
  test('Chinese words, English words and punctuation; no whitespace tokens', () => {
    expect(segmentWords('我爱自然语言处理。')).toEqual(['我', '爱', '自然', '语言', '处理', '。']);
    expect(segmentWords('  I love NLP 和 机器学习 ')).toEqual(['I', 'love', 'NLP', '和', '机器', '学习']);
  });

  test('text and texts become tokens, context sentences contextTokens; the tokenizer field is not sent', () => {
    expect(resolveWordTokenizer({ tokenizer: WORDS, text: '自然语言处理', dModel: 4 })).toEqual({
      tokens: [['自然', '语言', '处理']],
      dModel: 4,
    });
    expect(
      configFromSettings({ tokenizer: WORDS, text: '我爱自然语言处理\n机器学习', contextText: '自然语言' }),
    ).toEqual({
      tokens: [
        ['我', '爱', '自然', '语言', '处理'],
        ['机器', '学习'],
      ],
      contextTokens: [['自然', '语言']],
    });
  });

  test('other tokenizers, and values that are not sentences, are left for the engine', () => {
    const auto = { tokenizer: 'auto', text: '自然语言' };
    expect(resolveWordTokenizer(auto)).toBe(auto);
    const wrong = { tokenizer: WORDS, texts: [1, 2] };
    expect(resolveWordTokenizer(wrong)).toBe(wrong);
  });

  test('"words" is offered beside the engine’s tokenizers', () => {
    expect(fieldByPath.get('tokenizer').choices).toContain(WORDS);
  });
});
