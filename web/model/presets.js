// One-click examples. Each preset mirrors one classic PyTorch program,
// tests/reference/programs/<key>.py, and reproduces the numbers it prints
// (tests/js/presets.test.js checks every tensor it saves, in each language).
// Settings are keyed by config path (see settings.js); a value given per
// language ({en, zh}) is resolved with presetSettings(preset, lang). The
// Chinese sentences are chosen so that their tokens repeat in the same
// pattern as the English ones: token ids, and so every number, are the same
// (each of the modern presets' sentences has distinct words, and its Chinese
// one as many distinct characters, each a token of its own).

/** A value per UI language: {en: ..., zh: ...}. */
const isPerLanguage = (value) =>
  Boolean(value) && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, 'en');

/** The value of a setting in `lang` (English when that language has none). */
export const localized = (value, lang) => (isPerLanguage(value) ? (value[lang] ?? value.en) : value);

/** The page's and the element's first example. */
export const DEFAULT_PRESET = {
  key: 'default',
  settings: { text: { en: 'He sat by the bank of the river', zh: '他坐在河岸边' } },
};

// The Chinese tutorial's later modules (CausalAttention, the two stacked heads, MultiHeadAttention): a causal
// torch.randn batch after torch.manual_seed(123), no weights seed, every head divided by √d_out (dModel).
const TUTORIAL_MODULE = { seed: 123, mask: 'causal', scale: 'd-model' };
// The single-head torch.rand walk-through; its causal + dropout version is the same program with two more lines.
// A tutorial's own tokens in every UI language: a reader compares the rows with the tutorial's.
const TUTORIAL_TEXT = 'Once upon a time there';
const TUTORIAL = {
  text: TUTORIAL_TEXT,
  dModel: 4,
  numHeads: 1,
  seed: 123,
  'weights.init': 'torch-rand',
  'weights.seed': 123,
  'weights.outProj': false,
  scale: 'd-model',
};

// The Chinese self-attention notes' one-head example: batch 1, seq_len 4, d_model 6 (so d_k = 6). They give it as
// figures without numbers: torch.manual_seed(0), then X = torch.randn(1, 4, 6), then W^Q, W^K, W^V = torch.rand(6, 6)
// continuing the generator; no W^O (one head). Its dot, scaled and additive scores and its mask differ only in that.
const NOTES_SCORES = {
  input: { randn: [1, 4, 6] },
  dModel: 6,
  numHeads: 1,
  seed: 0,
  'weights.init': 'torch-rand',
  'weights.outProj': false,
};
// The Annotated Transformer's MultiHeadedAttention on torch.rand(6, 3, 8); the self-attention notes run this same
// module as their own program (preset notes-clones), so both keys share these settings.
const ANNOTATED = {
  input: { rand: [6, 3, 8] },
  dModel: 8,
  numHeads: 2,
  seed: 0,
  'weights.init': 'torch-linear-clones',
  mask: 'causal',
  maskConvention: 'keep',
  maskFill: -1e10,
  'dropout.p': 0.1,
};
// The hand-written multi-head attention tutorial's input: its five-word vocab (id 0 = unknown words and the padding),
// its sentence padded with 0 to max_len 10 and no padding mask, nn.Embedding(6, 512) after torch.manual_seed(0) and
// the module's parameters continuing the generator. The sentence is the tutorial's own, in every UI language.
const HANDWRITTEN = {
  text: 'this is an example sentence',
  vocab: ['<pad>', 'this', 'is', 'an', 'example', 'sentence'],
  maxLen: 10,
  dModel: 512,
  numHeads: 8,
  seed: 0,
};

export const PRESETS = [
  { key: 'tutorial', settings: TUTORIAL },
  {
    key: 'tutorial-causal',
    settings: {
      ...TUTORIAL,
      mask: 'causal',
      'dropout.p': 0.2,
      'dropout.seed': 123,
    },
  },
  // The same tutorial's modules. SelfAttention re-seeds with 123 before its three nn.Linear layers; the later ones
  // are built right after their torch.randn batch with no torch.manual_seed in between (no weights seed: the
  // weights continue the generator where the input left it), and divide every head by the script's √d_out (dModel).
  {
    key: 'tutorial-self-attention',
    settings: {
      text: TUTORIAL_TEXT,
      dModel: 4,
      numHeads: 1,
      seed: 123,
      'weights.seed': 123,
      'weights.outProj': false,
    },
  },
  {
    key: 'tutorial-causal-attention',
    settings: { ...TUTORIAL_MODULE, input: { randn: [2, 5, 4] }, dModel: 4, numHeads: 1, 'weights.outProj': false },
  },
  {
    key: 'tutorial-two-heads',
    settings: {
      ...TUTORIAL_MODULE,
      input: { randn: [2, 5, 6] },
      dModel: 6,
      numHeads: 2,
      'weights.layout': 'per-head',
      'weights.outProj': false,
    },
  },
  {
    key: 'tutorial-multi-head',
    settings: { ...TUTORIAL_MODULE, input: { randn: [2, 5, 6] }, dModel: 6, numHeads: 2 },
  },
  // The self-attention notes: the three scores of their one-head example, its mask (1 = blocked, filled with -1e9),
  // the per-head score maps of their module on the sentence they visualise, and their own program.
  { key: 'notes-dot', settings: { ...NOTES_SCORES, scale: 'none' } },
  { key: 'notes-scaled', settings: NOTES_SCORES },
  { key: 'notes-additive', settings: { ...NOTES_SCORES, score: 'additive', additiveHidden: 6, scale: 'none' } },
  { key: 'notes-mask', settings: { ...NOTES_SCORES, mask: 'causal', maskConvention: 'blocked', maskFill: -1e9 } },
  {
    key: 'notes-heads',
    settings: {
      text: "The animal didn't cross the street because it was too tired",
      dModel: 8,
      numHeads: 2,
      seed: 0,
      'weights.init': 'torch-linear-clones',
    },
  },
  { key: 'notes-clones', settings: ANNOTATED },
  // The hand-written multi-head attention tutorial: its own module (four nn.Linear(512, 512) with biases: query, key,
  // value, out), then PyTorch's nn.MultiheadAttention on the same embedded sentence.
  { key: 'handwritten-mha', settings: { ...HANDWRITTEN, 'weights.qkvBias': true } },
  { key: 'handwritten-torch-mha', settings: { ...HANDWRITTEN, 'weights.init': 'torch-mha' } },
  // A d_model 512, 8-head module with biases whose forward takes a mask (mask == 0 -> -1e9); its test draws
  // torch.randn(2, 5, 512) after building the module, sets no seed and passes no mask.
  {
    key: 'mha-512',
    settings: {
      input: { randn: [2, 5, 512] },
      dModel: 512,
      numHeads: 8,
      seed: 0,
      'weights.seed': 0,
      'weights.qkvBias': true,
      maskConvention: 'keep',
      maskFill: -1e9,
    },
  },
  {
    key: 'simple-self-attention',
    settings: {
      text: { en: 'Your journey starts with one step', zh: '路从脚下开始' },
      dModel: 4,
      numHeads: 1,
      seed: 123,
      'weights.seed': 789,
      'weights.outProj': false,
    },
  },
  {
    key: 'causal-head',
    settings: {
      input: { randn: [2, 5, 4] },
      dModel: 4,
      numHeads: 1,
      seed: 123,
      'weights.seed': 123,
      'weights.outProj': false,
      mask: 'causal',
    },
  },
  {
    key: 'two-heads',
    settings: {
      input: { randn: [2, 5, 6] },
      dModel: 6,
      numHeads: 2,
      seed: 123,
      'weights.layout': 'per-head',
      'weights.seed': 123,
      'weights.outProj': false,
      mask: 'causal',
    },
  },
  {
    key: 'multi-head',
    settings: {
      input: { randn: [2, 5, 6] },
      dModel: 6,
      numHeads: 2,
      seed: 123,
      'weights.seed': 123,
      mask: 'causal',
    },
  },
  {
    key: 'mha',
    settings: {
      text: { en: 'I love cats and dogs\ndogs love you', zh: '我爱猫和狗\n狗爱你' },
      vocab: {
        en: ['<pad>', 'I', 'love', 'cats', 'and', 'dogs', 'you'],
        zh: ['<pad>', '我', '爱', '猫', '和', '狗', '你'],
      },
      maxLen: 10,
      dModel: 512,
      numHeads: 8,
      seed: 0,
      'weights.init': 'torch-mha',
      mask: 'padding',
    },
  },
  { key: 'annotated', settings: ANNOTATED },
  {
    key: 'xxt',
    settings: {
      text: { en: 'I love my cat', zh: '我爱小猫' },
      dModel: 4,
      numHeads: 1,
      seed: 5,
      'weights.init': 'identity',
      'weights.outProj': false,
      scale: 'none',
    },
  },
  {
    key: 'cross',
    settings: {
      text: { en: 'I am a student', zh: '我是学生' },
      contextText: 'je suis étudiant',
      dModel: 4,
      numHeads: 1,
      seed: 123,
      'weights.init': 'torch-rand',
      'weights.seed': 123,
      'weights.outProj': false,
    },
  },
  {
    key: 'additive',
    settings: {
      text: { en: 'I love you', zh: '我爱你' },
      contextText: 'ich liebe dich',
      dModel: 4,
      numHeads: 1,
      seed: 0,
      'weights.init': 'identity',
      'weights.outProj': false,
      score: 'additive',
      additiveHidden: 8,
      scale: 'none',
    },
  },
  // Modern attention: Hugging Face-style modules written out in torch 1.13 (nn.Linear q/k/v without bias,
  // an output projection with nn.Linear's bias, nn.Embedding first after torch.manual_seed(0)).
  {
    key: 'llama',
    settings: {
      text: { en: 'the llama reads one token at a time', zh: '羊驼每次读一个字' },
      dModel: 32,
      numHeads: 8,
      numKVHeads: 2,
      'rope.style': 'rotate-half',
      seed: 0,
      mask: 'causal',
    },
  },
  {
    key: 'mistral',
    settings: {
      text: {
        en: 'a sliding window lets each word see only its few recent neighbours',
        zh: '滑动窗口让每个词只看近邻',
      },
      dModel: 16,
      numHeads: 4,
      numKVHeads: 2,
      'rope.style': 'rotate-half',
      window: 3,
      seed: 0,
      mask: 'causal',
    },
  },
  {
    key: 'streaming-llm',
    settings: {
      text: {
        en: 'four sink tokens keep attention steady while a short window slides along',
        zh: '四个汇聚词元让注意力稳定',
      },
      dModel: 16,
      numHeads: 2,
      window: 4,
      sinkTokens: 4,
      seed: 0,
      mask: 'causal',
    },
  },
  {
    key: 'alibi-bloom',
    settings: {
      text: { en: 'linear biases let the model read much longer texts than it saw', zh: '线性偏置让模型读更长文本' },
      dModel: 32,
      numHeads: 8,
      'weights.qkvBias': true,
      alibi: true,
      seed: 0,
      mask: 'causal',
    },
  },
  {
    key: 'multi-query',
    settings: {
      text: { en: 'every query head shares one small key and value cache', zh: '各查询头共用键值缓存' },
      dModel: 16,
      numHeads: 4,
      numKVHeads: 1,
      seed: 0,
      mask: 'causal',
    },
  },
  {
    key: 'gemma2-softcap',
    settings: {
      text: { en: 'soft capping keeps every attention logit safely below fifty', zh: '上限让分数小于五十' },
      dModel: 16,
      numHeads: 4,
      numKVHeads: 2,
      'rope.style': 'rotate-half',
      softcap: 50,
      seed: 0,
      mask: 'causal',
    },
  },
];

export const presetByKey = new Map([DEFAULT_PRESET, ...PRESETS].map((preset) => [preset.key, preset]));

/** A preset's settings in `lang`: every per-language value resolved. */
export function presetSettings(preset, lang = 'en') {
  return Object.fromEntries(Object.entries(preset.settings).map(([path, value]) => [path, localized(value, lang)]));
}

/** The first example in `lang`. */
export const defaultSettings = (lang = 'en') => presetSettings(DEFAULT_PRESET, lang);

/** The default settings in English (the CLI, the tests and share links start from these). */
export const DEFAULT_SETTINGS = Object.freeze(defaultSettings('en'));

/**
 * `settings` after the UI language changes from `from` to `to` while `preset`
 * is shown: each per-language setting that still holds the `from` value takes
 * the `to` value; what the user changed stays. Returns the changed paths too.
 */
export function relocalize(settings, preset, from, to) {
  const next = { ...settings };
  const changed = [];
  for (const [path, value] of Object.entries(preset.settings)) {
    if (!isPerLanguage(value)) continue;
    const before = localized(value, from);
    const after = localized(value, to);
    if (before !== after && JSON.stringify(settings[path]) === JSON.stringify(before)) {
      next[path] = after;
      changed.push(path);
    }
  }
  return { settings: next, changed };
}
