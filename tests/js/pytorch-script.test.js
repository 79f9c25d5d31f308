// "Copy as PyTorch": the generated script, run with Debian's PyTorch 1.13,
// prints the same tensors as the engine (1e-5 abs + 1e-4 rel).
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadAttentionLab } from '../../web/api/index.js';
import { editsFromJson, withEdits } from '../../web/model/edits.js';
import { DEFAULT_SETTINGS, PRESETS, presetByKey, presetSettings } from '../../web/model/presets.js';
import { pytorchScript } from '../../web/model/pytorch-script.js';
import { configFromSettings } from '../../web/model/settings.js';
import { compareTensors } from './fixtures.js';

// Appended to the generated script: every tensor it built, as JSON.
const DUMP = `
import json as _json
print("ATTENTION_LAB_JSON " + _json.dumps({name: {"shape": list(t.shape), "data": [x if math.isfinite(x) else str(x) for x in t.flatten().tolist()]} for name, t in tensors.items()}))
`;

function runPython(script) {
  const out = spawnSync('/usr/bin/python3', ['-'], { input: script + DUMP, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (out.status !== 0) throw new Error(`python3 failed:\n${out.stderr}\n--- script ---\n${script}`);
  const line = out.stdout.split('\n').find((l) => l.startsWith('ATTENTION_LAB_JSON '));
  const tensors = JSON.parse(line.slice('ATTENTION_LAB_JSON '.length));
  for (const t of Object.values(tensors))
    t.data = t.data.map((x) => (typeof x === 'string' ? Number(x.replace('inf', 'Infinity')) : x));
  return { tensors, printed: out.stdout };
}

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
];

let lab;
const worst = [];
beforeAll(async () => {
  lab = await loadAttentionLab();
});
afterAll(() =>
  console.log(`PyTorch scripts vs engine: ${worst.map(([n, w]) => `${n} ${w.toExponential(2)}`).join('; ')}`),
);

describe('Copy as PyTorch', () => {
  test.each(cases)('%s', (name, config) => {
    const result = lab.run(config);
    const script = pytorchScript(config, result);
    expect(script).toContain('torch.manual_seed(');
    const { tensors, printed } = runPython(script);
    expect(printed).toContain('weights (');
    const { worst: w, problems } = compareTensors(Object.fromEntries(Object.entries(tensors)), result.tensors);
    worst.push([name, w]);
    expect(problems).toEqual([]);
  });
});
