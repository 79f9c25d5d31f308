// "Copy as PyTorch": the generated script, run with Debian's PyTorch 1.13,
// prints the same tensors as the engine (1e-5 abs + 1e-4 rel).
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadAttentionLab } from '../../web/api/index.js';
import { formToConfig, presetForm } from '../../web/page/controls.js';
import { applyEdits } from '../../web/page/edits.js';
import { PRESETS } from '../../web/page/presets.js';
import { pytorchScript } from '../../web/page/pytorch-script.js';
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
  for (const t of Object.values(tensors)) t.data = t.data.map((x) => (typeof x === 'string' ? Number(x.replace('inf', 'Infinity')) : x));
  return { tensors, printed: out.stdout };
}

const cases = [
  ...PRESETS.map((preset) => [preset.key, formToConfig(presetForm(preset)), null]),
  ['causal + dropout + positional', formToConfig({ ...presetForm(PRESETS[1]), mask: 'causal', dropoutP: 0.2, dropoutSeed: 7, positional: 'sinusoidal', weightsSeed: 3 }), null],
  ['per-head torch-rand, -1e9 fill, padding', formToConfig({ ...presetForm(PRESETS[3]), init: 'torch-rand', layout: 'per-head', maskFill: '-1e9', numHeads: 4 }), null],
  ['per-head nn.Linear with bias, custom scale, maxLen', formToConfig({ ...presetForm(PRESETS[2]), layout: 'per-head', qkvBias: true, scale: 'custom', scaleValue: 0.3, maxLen: 6 }), null],
  ['edited weights and embeddings', formToConfig(presetForm(PRESETS[0])), { weights: { W_Q: { 0: 1.5, 5: -2 }, b_O: {} }, embedding: { upon: { 1: 3 } } }],
];

let lab;
const worst = [];
beforeAll(async () => {
  lab = await loadAttentionLab();
});
afterAll(() => console.log(`PyTorch scripts vs engine: ${worst.map(([n, w]) => `${n} ${w.toExponential(2)}`).join('; ')}`));

describe('Copy as PyTorch', () => {
  test.each(cases)('%s', (name, baseConfig, edits) => {
    let config = baseConfig;
    if (edits) {
      const first = lab.run(config);
      config = applyEdits(config, { weights: edits.weights, embedding: edits.embedding }, first.vocab);
    }
    const result = lab.run(config);
    const script = pytorchScript(config, result);
    expect(script).toContain('torch.manual_seed(');
    const { tensors, printed } = runPython(script);
    expect(printed).toContain('weights (');
    const { worst: w, problems } = compareTensors(
      Object.fromEntries(Object.entries(tensors)),
      result.tensors,
    );
    worst.push([name, w]);
    expect(problems).toEqual([]);
  });
});
