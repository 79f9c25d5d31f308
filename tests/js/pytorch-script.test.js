// "Copy as PyTorch": the generated script, run with Debian's PyTorch 1.13,
// prints the same tensors as the engine (1e-5 abs + 1e-4 rel).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadAttentionLab } from '../../web/api/index.js';
import { editsFromJson, withEdits } from '../../web/model/edits.js';
import { DEFAULT_SETTINGS, PRESETS, presetByKey, presetSettings } from '../../web/model/presets.js';
import { pytorchScript } from '../../web/model/pytorch-script.js';
import { configFromSettings } from '../../web/model/settings.js';
import { compareTensors, readFixture } from './fixtures.js';
import { runPythonScripts } from './python-batch.js';

const config = (settings) => configFromSettings(settings);
const tutorial = presetSettings(presetByKey.get('tutorial'), 'en');
const cases = [
  ...PRESETS.map((preset) => [preset.key, config(presetSettings(preset, 'en'))]),
  ['tutorial in Chinese', config(presetSettings(presetByKey.get('tutorial'), 'zh'))],
  [
    'causal + dropout + positional',
    config({
      ...DEFAULT_SETTINGS,
      mask: 'causal',
      'dropout.p': 0.2,
      'dropout.seed': 7,
      'embedding.positional': 'sinusoidal',
      'weights.seed': 3,
    }),
  ],
  [
    'per-head torch-rand, -1e9 fill, padding',
    config({
      text: 'the cat sat on the mat\na dog ran',
      mask: 'padding',
      'weights.init': 'torch-rand',
      'weights.layout': 'per-head',
      maskFill: '-1e9',
      numHeads: 4,
    }),
  ],
  [
    'per-head nn.Linear with bias, custom scale, maxLen',
    config({
      text: 'The cat that the dog chased was black',
      numHeads: 4,
      'weights.layout': 'per-head',
      'weights.qkvBias': true,
      scale: 0.3,
      maxLen: 6,
    }),
  ],
  [
    'edited weights and embeddings',
    withEdits(
      config(tutorial),
      editsFromJson({
        weights: {
          W_Q: [
            [0, 0, 1.5],
            [1, 1, -2],
          ],
          b_O: [],
        },
        embedding: [['upon', 1, 3]],
      }),
    ),
  ],
  [
    'torch-mha with its bias turned off',
    config({ text: 'attention is all you need', 'weights.init': 'torch-mha', 'weights.qkvBias': false }),
  ],
  // The tokenizers and pre-split tokens (the script takes the engine's tokens).
  ['tokenizer auto, Chinese and English', { text: '我爱NLP和AI，你呢？', seed: 3 }],
  ['tokenizer whitespace', { text: '我爱 NLP 和 AI', tokenizer: 'whitespace' }],
  ['tokenizer chars, Japanese', { text: 'コーヒーが好き', tokenizer: 'chars', numHeads: 1 }],
  [
    'pre-split tokens and context tokens with padding',
    { tokens: [['自然', '语言', '处理'], ['你好']], contextTokens: [['a'], ['b', 'c']], mask: 'padding', seed: 4 },
  ],
  // torch.rand inputs, below and above 16 numbers.
  ['torch.rand input of 12 numbers', { input: { rand: [1, 3, 4] }, dModel: 4, numHeads: 1, seed: 5 }],
  [
    'torch.rand queries, torch.randn context',
    { input: { rand: [2, 5, 8] }, contextInput: { randn: [2, 3, 8] }, mask: 'causal', seed: 6 },
  ],
  // The Annotated Transformer's cloned Linear.
  ['torch-linear-clones', { text: 'clones of one linear layer', weights: { init: 'torch-linear-clones' }, seed: 7 }],
  [
    'torch-linear-clones without bias, no output projection',
    { text: 'no bias', numHeads: 4, weights: { init: 'torch-linear-clones', qkvBias: false, outProj: false } },
  ],
  // Additive scores, after every init.
  [
    'additive, one head, no scale',
    { text: 'additive attention', dModel: 6, numHeads: 1, score: 'additive', additiveHidden: 5, scale: 'none' },
  ],
  [
    'additive, two heads, causal + padding, dropout',
    {
      texts: ['the decoder attends', 'to it'],
      score: 'additive',
      mask: 'causal+padding',
      dropout: { p: 0.2, seed: 3 },
      seed: 8,
    },
  ],
  ['additive after torch-mha', { text: 'a b c', score: 'additive', additiveHidden: 3, weights: { init: 'torch-mha' } }],
  [
    'additive after per-head torch-rand, with an edited v_a',
    {
      text: 'a b c d',
      score: 'additive',
      weights: { init: 'torch-rand', layout: 'per-head', edits: { v_a: [[1, 0.5]], W_a: [[0, 2, -1]] } },
    },
  ],
  ['additive with identity weights', { text: 'a b', dModel: 4, score: 'additive', weights: { init: 'identity' } }],
  [
    'additive after clones, every weight given',
    {
      text: 'x y',
      dModel: 2,
      numHeads: 1,
      score: 'additive',
      additiveHidden: 2,
      weights: {
        init: 'torch-linear-clones',
        qkvBias: false,
        values: {
          W_Q: [
            [1, 0],
            [0, 1],
          ],
          W_K: [
            [0, 1],
            [1, 0],
          ],
          W_V: [
            [1, 1],
            [0, 1],
          ],
          W_a: [
            [0.5, -0.5],
            [0.25, 1],
          ],
          U_a: [
            [1, 0],
            [0, -1],
          ],
          v_a: [1, -2],
          W_O: [
            [1, 0],
            [0, 1],
          ],
        },
      },
    },
  ],
  // Mask conventions.
  ['mask convention keep, -inf', { text: 'keep these keys', mask: 'causal', maskConvention: 'keep' }],
  [
    'mask convention keep, padding, -1e9',
    { texts: ['a b c', 'd'], mask: 'padding', maskConvention: 'keep', maskFill: -1e9 },
  ],
  ['mask convention additive, -inf', { text: 'add the mask', mask: 'causal', maskConvention: 'additive' }],
  [
    'mask convention additive, causal + padding, -1e10',
    { texts: ['a b c', 'd'], mask: 'causal+padding', maskConvention: 'additive', maskFill: -1e10, numHeads: 4 },
  ],
  // The modern variants: the configs of their PyTorch fixtures, each alone and together.
  ...[
    'qk-norm',
    'rope-rotate-half',
    'rope-interleaved-base-100',
    'gqa-4-to-2-rand',
    'gqa-4-to-2-bias-dropout',
    'gqa-identity',
    'mqa-cross',
    'window-padding-keep',
    'window-sinks-additive',
    'sink-logit-zero-mha-dropout',
    'sink-logit-nonzero',
    'alibi-6-heads',
    'softcap-alibi',
    'qknorm-rope-gqa-softcap-alibi',
    'all-variants-dropout',
  ].map((name) => [`fixture ${name}`, readFixture(name).config]),
  // The output gate (tests/reference/recent.py's configs): every init that draws W_G its own way.
  ...[
    'gate-plain',
    'gate-causal-qwen-like',
    'gate-padded',
    'gate-dropout',
    'gate-mha',
    'gate-rand',
    // gpt-oss's learned per-head sinks, with GQA, RoPE, a window and dropout over S_kv columns.
    'sinks-per-head-dropout',
    'sinks-gpt-oss-like',
    'sinks-per-head-padded',
    // Long-context RoPE: every scaling, above and below originalMaxPositions, with padding and dropout.
    'rope-linear',
    'rope-linear-padded-dropout',
    'rope-dynamic',
    'rope-dynamic-short',
    'rope-dynamic-padded',
    'rope-yarn',
    'rope-yarn-causal',
    'rope-yarn-padded-dropout',
    'rope-yarn-no-truncate',
    'sinks-yarn-gate',
    // Differential attention: its λ vectors drawn after the layer, given in part, over padding.
    'diff-plain',
    'diff-causal',
    'diff-padded',
    'diff-given-lambdas',
    // MLA: both paths, DeepSeek's interleaved RoPE and rotate-half, over padding with a keep mask.
    'mla-naive',
    'mla-absorbed',
    'mla-absorbed-causal',
    'mla-padded',
    'mla-naive-padded-keep',
  ].map((name) => [`recent fixture ${name}`, readFixture(`recent/${name}`).config]),
  [
    'differential attention, every weight given (nothing drawn), torch-rand init, an additive mask',
    {
      text: 'a b c',
      dModel: 4,
      numHeads: 1,
      diff: { depth: 4 },
      mask: 'causal',
      maskConvention: 'additive',
      weights: {
        init: 'torch-rand',
        values: {
          lambda_q1: [0.3, -0.2],
          lambda_k1: [0.1, 0.4],
          lambda_q2: [-0.5, 0.25],
          lambda_k2: [0.2, 0.2],
          subln: [1, 2, 0.5, 1],
        },
      },
    },
  ],
  [
    'MLA, every weight given (nothing drawn), W_UK edited, an additive mask',
    {
      text: 'a b c',
      dModel: 4,
      numHeads: 2,
      rope: { style: 'interleaved' },
      mla: { kvRank: 2, nopeDim: 1, ropeDim: 2, valueDim: 1, absorb: true },
      mask: 'causal',
      maskConvention: 'additive',
      weights: {
        values: {
          W_Q: [
            [0.1, -0.2, 0.3, 0.4, 0.5, -0.6],
            [0.2, 0.1, -0.3, 0.2, 0.1, 0.3],
            [-0.1, 0.4, 0.2, -0.2, 0.3, 0.1],
            [0.3, 0.2, 0.1, 0.5, -0.4, 0.2],
          ],
          W_DKV: [
            [0.5, -0.1],
            [0.2, 0.3],
            [-0.4, 0.1],
            [0.1, 0.6],
          ],
          W_KR: [
            [0.2, 0.1],
            [-0.3, 0.4],
            [0.5, -0.2],
            [0.1, 0.1],
          ],
          kv_norm: [1.5, 0.5],
          W_UK: [
            [0.3, -0.2],
            [0.1, 0.4],
          ],
          W_UV: [
            [0.2, 0.5],
            [-0.3, 0.1],
          ],
          W_O: [
            [0.1, 0.2, 0.3, 0.4],
            [-0.4, 0.3, -0.2, 0.1],
          ],
        },
        edits: { W_UK: [[1, 0, -0.7]] },
      },
    },
  ],
  [
    'output gate, identity weights, no output projection',
    { text: 'a b c', outputGate: true, weights: { init: 'identity', outProj: false } },
  ],
];

let lab;
const ran = new Map();
const worst = [];
beforeAll(async () => {
  lab = await loadAttentionLab();
  const runs = cases.map(([name, config]) => {
    const result = lab.run(config);
    return { name, result, script: pytorchScript(config, result) };
  });
  const outputs = runPythonScripts(runs.map((r) => r.script));
  runs.forEach((r, i) => ran.set(r.name, { ...r, ...outputs[i] }));
}, 300_000);
afterAll(() =>
  console.log(`PyTorch scripts vs engine: ${worst.map(([n, w]) => `${n} ${w.toExponential(2)}`).join('; ')}`),
);

describe('Copy as PyTorch', () => {
  test.each(cases)('%s', (name) => {
    const { result, script, tensors, printed } = ran.get(name);
    expect(script).toContain('torch.manual_seed(');
    expect(printed).toContain('weights (');
    const { worst: w, problems } = compareTensors(tensors, result.tensors);
    worst.push([name, w]);
    expect(problems).toEqual([]);
  });
});
