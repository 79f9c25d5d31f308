// The runs the claims test words: every preset, and a grid of settings that
// reaches every branch of the steps' words (each mask kind × convention × fill,
// dropout, GQA and MQA, window and sinks, a sink logit, ALiBi, softcap, QK-norm
// and RoPE, cross-attention, padding with batch > 1, additive scores, one head,
// every scale and weight init, random inputs).
import { PRESETS, presetSettings } from '../../../web/model/presets.js';

const TWO_SENTENCES = { en: 'the cat sat on the mat\na dog ran', zh: '小猫坐在垫子上\n小狗跑了' };

function* maskGrid() {
  for (const mask of ['none', 'causal', 'padding', 'causal+padding'])
    for (const maskConvention of ['blocked', 'keep', 'additive'])
      // −1: a fill not negative enough, so blocked cells keep some weight and the words must say so.
      for (const maskFill of ['-inf', -1e9, -1]) yield { text: TWO_SENTENCES, mask, maskConvention, maskFill };
}

const VARIANTS = [
  { text: 'He sat by the bank', 'dropout.p': 0.2 },
  // One token under a causal mask: the mask blocks nothing.
  { text: 'cat', mask: 'causal' },
  // Dropout zeroes every weight: the context narration must not name a key the row carries.
  { text: 'the cat sat on', mask: 'causal', 'dropout.p': 1 },
  // No mask, yet weights of 0: scale 50 makes exp underflow; dropout's words must not blame a mask.
  { text: 'the cat sat on the mat', scale: 50, 'dropout.p': 0.1 },
  { text: 'He sat by the bank', mask: 'causal', 'dropout.p': 0.5, numHeads: 1 },
  { text: 'the cat sat on the warm mat', dModel: 16, numHeads: 4, numKVHeads: 2, mask: 'causal' },
  { text: 'the cat sat on the warm mat', dModel: 16, numHeads: 4, numKVHeads: 1, 'rope.style': 'rotate-half' },
  { text: 'one two three four five six seven', mask: 'causal', window: 3, sinkTokens: 1 },
  { text: 'one two three four five six seven', mask: 'causal', window: 2 },
  // More sink tokens than keys: every key is a sink.
  { text: 'the cat sat', mask: 'causal', window: 2, sinkTokens: 5 },
  { text: 'He sat by the bank', sinkLogit: 0.5 },
  { text: 'He sat by the bank', mask: 'causal', numHeads: 2, sinkLogit: '3, -1', 'dropout.p': 0.3 },
  { text: 'He sat by the bank', mask: 'causal', alibi: true, numHeads: 4, dModel: 16 },
  { text: 'He sat by the bank', mask: 'causal', alibi: true, numHeads: 1 },
  { text: 'He sat by the bank', softcap: 5, scale: 'none' },
  { text: 'He sat by the bank', outputGate: true, mask: 'causal' },
  // Differential attention: depth 0 and a deeper layer, over padding, with a fill that leaves blocked keys weight.
  { text: 'He sat by the bank', 'diff.depth': 0 },
  { text: TWO_SENTENCES, 'diff.depth': 3, mask: 'causal+padding', dModel: 16, numHeads: 4 },
  { text: 'He sat by the bank', 'diff.depth': 1, mask: 'causal', maskFill: -1, 'weights.outProj': false },
  { text: TWO_SENTENCES, outputGate: true, numHeads: 1, 'weights.outProj': false, mask: 'padding' },
  { text: 'He sat by the bank', qkNorm: true, 'rope.style': 'interleaved', mask: 'causal' },
  // Long-context RoPE: each scaling, and dynamic NTK both past and within its original length.
  {
    text: 'He sat by the bank',
    'rope.style': 'rotate-half',
    'rope.scaling.type': 'linear',
    'rope.scaling.factor': 2.5,
  },
  {
    text: 'one two three four five six seven',
    dModel: 32,
    numHeads: 2,
    mask: 'causal',
    'rope.style': 'rotate-half',
    'rope.scaling.type': 'yarn',
    'rope.scaling.factor': 8,
    'rope.scaling.originalMaxPositions': 128,
  },
  {
    text: 'He sat by the bank',
    'rope.style': 'interleaved',
    'rope.scaling.type': 'dynamic',
    'rope.scaling.originalMaxPositions': 3,
  },
  { text: 'He sat by the bank', 'rope.style': 'interleaved', 'rope.scaling.type': 'dynamic' },
  // YaRN as gpt-oss configures it: the ramp's ends not rounded to whole pairs.
  {
    text: 'He sat by the bank',
    dModel: 64,
    numHeads: 2,
    'rope.style': 'rotate-half',
    'rope.base': 150000,
    'rope.scaling.type': 'yarn',
    'rope.scaling.factor': 32,
    'rope.scaling.originalMaxPositions': 4096,
    'rope.scaling.truncate': false,
  },
  // Multi-head latent attention: each path, over padding with rotate-half RoPE, and with one head.
  {
    text: 'every token keeps one latent vector',
    dModel: 16,
    numHeads: 4,
    mask: 'causal',
    'rope.style': 'interleaved',
    'mla.kvRank': 8,
    'mla.nopeDim': 4,
    'mla.ropeDim': 2,
    'mla.valueDim': 4,
  },
  {
    text: TWO_SENTENCES,
    mask: 'causal+padding',
    'rope.style': 'rotate-half',
    'rope.base': 100,
    'mla.kvRank': 6,
    'mla.nopeDim': 4,
    'mla.ropeDim': 4,
    'mla.valueDim': 6,
    'mla.absorb': true,
  },
  {
    text: 'He sat by the bank',
    numHeads: 1,
    'rope.style': 'interleaved',
    'mla.kvRank': 4,
    'mla.nopeDim': 2,
    'mla.ropeDim': 2,
    'mla.valueDim': 3,
    'mla.absorb': true,
  },
  { text: 'He sat by the bank', contextText: 'Er saß am Ufer des Flusses' },
  { text: 'He sat by the bank', score: 'additive', scale: 'none' },
  { text: 'He sat by the bank', numHeads: 1, 'weights.outProj': false },
  { text: 'He sat by the bank', scale: 'd-model', 'weights.init': 'torch-rand' },
  { text: 'He sat by the bank', scale: 0.3, 'weights.init': 'torch-mha', 'weights.qkvBias': true },
  { text: 'He sat by the bank', 'weights.init': 'identity', 'embedding.positional': 'sinusoidal' },
  { text: 'He sat by the bank', 'weights.init': 'torch-linear-clones' },
  { text: 'He sat by the bank', 'weights.layout': 'per-head' },
  { input: { randn: [2, 5, 8] } },
  { input: { rand: [1, 4, 8] }, mask: 'causal' },
];

/** [{name, settings (flat, per language), lang}] for every run the test words. */
export function claimRuns() {
  const runs = [];
  for (const lang of ['en', 'zh']) {
    for (const preset of PRESETS)
      runs.push({ name: `preset ${preset.key}`, settings: presetSettings(preset, lang), lang });
    let k = 0;
    for (const settings of [...maskGrid(), ...VARIANTS]) {
      const text = settings.text && typeof settings.text === 'object' ? settings.text[lang] : settings.text;
      runs.push({
        name: `grid ${k++} ${JSON.stringify(settings)}`,
        settings: { ...settings, ...(text ? { text } : {}) },
        lang,
      });
    }
  }
  return runs;
}
