// The runs the explanation claims test explains: every preset and a grid of
// configs that reaches each variant the explanations speak of, and the cells
// of every matrix the page shows for a run (a deterministic sample of a large one).
import { PRESETS, presetSettings } from '../../../web/model/presets.js';
import { configFromSettings } from '../../../web/model/settings.js';

const BASE = { texts: ['the cat sat on the mat', 'a dog ran'], dModel: 8, numHeads: 2, seed: 7 };
const MASKS = ['none', 'causal', 'padding', 'causal+padding'];
const CONVENTIONS = ['blocked', 'keep', 'additive'];
const FILLS = ['-inf', -1e9];
// A "<pad>" typed in the text is a token like any other: only the <pad>s appended to a shorter sentence are padding.
const TYPED_PAD = {
  texts: undefined,
  tokens: [
    ['<pad>', 'a', '<pad>', 'b'],
    ['a', 'b'],
  ],
  vocab: ['<pad>', 'a', 'b'],
};
// An embedding so large that the scores overflow float32 to ∞ (softmax then gives NaN, as PyTorch does).
const OVERFLOW = {
  texts: undefined,
  tokens: [['a', 'b']],
  vocab: ['a', 'b'],
  'embedding.values': [
    [1e20, 1e20, 1e20, 1e20],
    [1, 2, 3, 4],
  ],
  dModel: 4,
  numHeads: 1,
  'weights.init': 'identity',
  scale: 'none',
};

const VARIANTS = {
  dropout: { mask: 'causal', 'dropout.p': 0.3, 'dropout.seed': 3 },
  'dropout-padding': { mask: 'padding', maskConvention: 'keep', 'dropout.p': 0.5 },
  gqa: { dModel: 16, numHeads: 4, numKVHeads: 2, mask: 'causal' },
  mqa: { dModel: 16, numHeads: 4, numKVHeads: 1 },
  'window-sinks': { mask: 'causal', window: 2, sinkTokens: 1 },
  'window-only': { mask: 'causal', window: 3 },
  'sink-logit': { mask: 'causal', sinkLogit: 0.5 },
  // gpt-oss's learned sinks, one per head (typed as the form takes them), under dropout over S_kv columns.
  'sink-logits-per-head': { dModel: 12, numHeads: 3, mask: 'causal', sinkLogit: '1.5, -2, 0', 'dropout.p': 0.2 },
  alibi: { dModel: 12, numHeads: 4, alibi: true, mask: 'causal' },
  'alibi-three-heads': { dModel: 12, numHeads: 3, alibi: true },
  softcap: { softcap: 2, mask: 'causal' },
  'softcap-alibi': { softcap: 1.5, alibi: true, numHeads: 4, dModel: 8 },
  'qk-norm': { qkNorm: true },
  'rope-half': { 'rope.style': 'rotate-half', mask: 'causal' },
  'rope-interleaved': { 'rope.style': 'interleaved', 'rope.base': 500, qkNorm: true },
  // Long-context RoPE: YaRN's attention factor on every rotated number, dynamic NTK past its length.
  'rope-yarn': {
    dModel: 32,
    numHeads: 2,
    'rope.style': 'interleaved',
    'rope.scaling.type': 'yarn',
    'rope.scaling.originalMaxPositions': 64,
  },
  'rope-dynamic': {
    'rope.style': 'rotate-half',
    'rope.scaling.type': 'dynamic',
    'rope.scaling.originalMaxPositions': 2,
  },
  'rope-gqa': { dModel: 16, numHeads: 4, numKVHeads: 2, 'rope.style': 'rotate-half', qkNorm: true },
  cross: { texts: ['the cat sat'], contextTexts: ['le chat est assis ici'] },
  'cross-padding': { contextTexts: ['le chat est assis', 'un chien'], mask: 'padding' },
  additive: { score: 'additive', additiveHidden: 5, numHeads: 1, dModel: 4 },
  'additive-cross': { score: 'additive', texts: ['I love you'], contextTexts: ['ich liebe dich sehr'] },
  sinusoidal: { 'embedding.positional': 'sinusoidal' },
  randn: { texts: undefined, input: { randn: [2, 3, 8] }, mask: 'causal' },
  rand: { texts: undefined, input: { rand: [1, 4, 8] }, contextInput: { rand: [1, 3, 8] } },
  'torch-rand-per-head': { 'weights.init': 'torch-rand', 'weights.layout': 'per-head', 'weights.seed': 4 },
  identity: { 'weights.init': 'identity', scale: 'none' },
  mha: { 'weights.init': 'torch-mha', mask: 'padding', 'dropout.p': 0.2 },
  clones: { 'weights.init': 'torch-linear-clones', scale: 'd-model' },
  'per-head': { 'weights.layout': 'per-head', 'weights.qkvBias': true, 'weights.outProj': false },
  'custom-scale': { scale: 0.3, 'weights.qkvBias': true },
  'typed-pad': { ...TYPED_PAD, mask: 'causal+padding' },
  'typed-pad-sink': { ...TYPED_PAD, mask: 'padding', maskConvention: 'additive', maskFill: -1e9, sinkLogit: 0 },
  overflow: OVERFLOW,
  // Weights of 0 with no mask (exp underflows at scale 50), under dropout; a fill too small to block.
  'underflow-dropout': { scale: 50, 'dropout.p': 0.1 },
  'output-gate': { outputGate: true, mask: 'causal', 'dropout.p': 0.1 },
  // Differential attention: its maps, A = A₁ − λ·A₂, the head norm and the concat of the normed heads.
  'diff-causal-padding': { dModel: 16, numHeads: 2, 'diff.depth': 2, mask: 'causal+padding' },
  'diff-additive-mask': { 'diff.depth': 0, mask: 'causal', maskConvention: 'additive', maskFill: -1e9 },
  'fill-minus-one': { mask: 'causal', maskFill: -1, 'dropout.p': 0.2 },
  // Multi-head latent attention: the naive path with DeepSeek's interleaved RoPE, the absorbed one with rotate-half.
  'mla-naive': {
    dModel: 16,
    numHeads: 2,
    mask: 'causal+padding',
    'rope.style': 'interleaved',
    'mla.kvRank': 6,
    'mla.nopeDim': 4,
    'mla.ropeDim': 2,
    'mla.valueDim': 3,
  },
  'mla-absorbed': {
    'rope.style': 'rotate-half',
    mask: 'causal',
    'mla.kvRank': 5,
    'mla.nopeDim': 2,
    'mla.ropeDim': 4,
    'mla.valueDim': 4,
    'mla.absorb': true,
  },
};

const clean = (settings) => Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined));

/** [{name, config}] of every preset in `lang` and of the grid. */
export function explainRuns(lang) {
  const runs = PRESETS.map((p) => ({ name: p.key, config: configFromSettings(presetSettings(p, lang)) }));
  for (const mask of MASKS)
    for (const maskConvention of CONVENTIONS)
      for (const maskFill of FILLS) {
        if (mask === 'none' && (maskConvention !== 'blocked' || maskFill !== '-inf')) continue;
        const settings = { ...BASE, mask, maskConvention, maskFill };
        runs.push({ name: `mask ${mask} ${maskConvention} ${maskFill}`, config: configFromSettings(settings) });
      }
  for (const [name, settings] of Object.entries(VARIANTS))
    runs.push({ name: `grid ${name}`, config: configFromSettings(clean({ ...BASE, ...settings })) });
  return runs;
}

/** The cells of a rows × cols matrix to explain: all of a small one, an even spread of `most` of a large one. */
export function cellsOf(rows, cols, most = 48) {
  const n = rows * cols;
  const step = n <= most ? 1 : n / most;
  const cells = [];
  for (let k = 0; k < Math.min(n, most); k++) {
    const at = Math.floor(k * step);
    cells.push([Math.floor(at / cols), at % cols]);
  }
  if (n > most) cells.push([rows - 1, cols - 1]);
  return cells;
}
