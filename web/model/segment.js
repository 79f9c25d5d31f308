// Word segmentation with the JS runtime's Intl.Segmenter (ICU's dictionary
// for Chinese and Japanese: 我|爱|自然|语言|处理). The engine's own tokenizers
// (auto, whitespace, chars) are exact and the same everywhere; this one
// depends on the browser's ICU data, so it runs here and the engine gets the
// result as pre-split tokens (the `tokens` field), which the API and the CLI
// accept as well.

/** The tokenizer choice resolved here rather than in the engine. */
export const WORDS = 'words';

let segmenter;

/** "我爱自然语言处理。" -> ["我", "爱", "自然", "语言", "处理", "。"]: every segment that is not whitespace. */
export function segmentWords(sentence) {
  segmenter ??= new Intl.Segmenter('zh', { granularity: 'word' });
  const tokens = [];
  for (const { segment } of segmenter.segment(sentence)) if (segment.trim() !== '') tokens.push(segment.trim());
  return tokens;
}

/**
 * A config with tokenizer "words" as the engine takes it: each sentence
 * (text, texts, contextText, contextTexts) segmented here and sent as
 * tokens / contextTokens, the tokenizer field dropped. Other configs are
 * returned as they are.
 */
export function resolveWordTokenizer(config) {
  if (config.tokenizer !== WORDS) return config;
  const rest = { ...config };
  for (const path of ['tokenizer', 'text', 'texts', 'contextText', 'contextTexts']) delete rest[path];
  const { text, texts, contextText, contextTexts } = config;
  const sides = [
    ['tokens', text, texts],
    ['contextTokens', contextText, contextTexts],
  ];
  for (const [tokensPath, one, many] of sides) {
    const sentences = many ?? (one === undefined ? undefined : [one]);
    if (sentences === undefined) continue;
    // Not strings: left for the engine, whose error names the field.
    if (!Array.isArray(sentences) || !sentences.every((s) => typeof s === 'string')) return config;
    rest[tokensPath] = sentences.map(segmentWords);
  }
  return rest;
}
