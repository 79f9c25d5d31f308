// One-click examples, each a set of settings (config paths; see settings.js).
// The page, the element and the embed start from DEFAULT_SETTINGS.

export const DEFAULT_SETTINGS = Object.freeze({ text: 'He sat by the bank of the river' });

export const PRESETS = [
  {
    key: 'tutorial',
    settings: {
      text: 'Once upon a time there',
      dModel: 4,
      numHeads: 1,
      seed: 123,
      'weights.init': 'torch-rand',
      'weights.seed': 123,
      scale: 'd-model',
    },
  },
  { key: 'bank', settings: { text: 'He sat by the bank of the river' } },
  { key: 'cat', settings: { text: 'The cat that the dog chased was black', numHeads: 4 } },
  { key: 'padded', settings: { text: 'the cat sat on the mat\na dog ran', mask: 'padding' } },
  { key: 'cross', settings: { text: 'je suis étudiant', contextText: 'I am a student', numHeads: 2 } },
  {
    key: 'xxt',
    settings: {
      text: 'I love my cat',
      dModel: 4,
      numHeads: 1,
      'weights.init': 'identity',
      'weights.outProj': false,
      scale: 'none',
    },
  },
  { key: 'mha', settings: { text: 'attention is all you need', 'weights.init': 'torch-mha' } },
];
