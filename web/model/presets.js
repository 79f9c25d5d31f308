// One-click examples. Each is a form state (see controls.js), not a raw config.
export const PRESETS = [
  { key: 'tutorial', form: { text: 'Once upon a time there', dModel: 4, numHeads: 1, seed: 123,
    init: 'torch-rand', weightsSeed: 123, scale: 'd-model' } },
  { key: 'bank', form: { text: 'He sat by the bank of the river' } },
  { key: 'cat', form: { text: 'The cat that the dog chased was black', numHeads: 4 } },
  { key: 'padded', form: { text: 'the cat sat on the mat\na dog ran', mask: 'padding' } },
  { key: 'cross', form: { text: 'je suis étudiant', contextText: 'I am a student', numHeads: 2 } },
  { key: 'xxt', form: { text: 'I love my cat', dModel: 4, numHeads: 1, init: 'identity', outProj: false,
    scale: 'none' } },
  { key: 'mha', form: { text: 'attention is all you need', init: 'torch-mha' } },
];
