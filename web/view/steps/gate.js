// Step "gate": the output gate (Qwen3-Next's gated attention), before W_O.   (B, S, D)
//   gate_logits = X @ W_G;  gate = torch.sigmoid(gate_logits);  gated = concat * gate
import { say } from '../../model/words.js';
import { sentenceStart } from '../../model/selection.js';
import { weightFigures } from './shapes.js';
import { cell } from './quotes.js';

/** The example the narration follows: the followed token (or the first), its first number. */
function exampleOf(run) {
  const { T, b, D } = run;
  const i = run.focus ?? 0;
  const at = (name) => T[name].data[sentenceStart(T[name], b) + i * D];
  return { i, concat: at('concat'), gate: at('gate'), gated: at('gated') };
}

function narrationOf(run, t) {
  // A run without the gate (the step does not apply; a teaching mode may still ask for its words).
  if (!run.T.gate) return say(t, 'step.gate.narration.off');
  const { b } = run;
  const { i, concat, gate, gated } = exampleOf(run);
  return say(t, 'step.gate.narration', {
    token: run.queryLabels[i],
    concat: cell(run, 'concat', [b, i, 0], concat),
    gate: cell(run, 'gate', [b, i, 0], gate),
    gated: cell(run, 'gated', [b, i, 0], gated),
  });
}

// The step's key, name, chapter and when it applies are its stub's (registry.js), which loads this code.
export default {
  shapes: [{ axes: ['B', 'S', 'D'] }],
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: (run) => [
    ...weightFigures(run, ['W_G']),
    { name: 'gate', rows: run.S, cols: run.D },
    { name: 'gated', rows: run.S, cols: run.D },
  ],
  formula: () => 'gate = σ(X · W_{G}),  gated = concat ⊙ gate',
  words: (run, t) => ({
    meaning: [
      run.T.gate
        ? say(t, 'step.gate.meaning', {}, { claims: [{ unitInterval: 'gate', b: run.b, states: ['0', '1'] }] })
        : say(t, 'step.gate.narration.off'),
    ],
    notes: [],
    narration: [narrationOf(run, t)],
  }),
  render: (run, kit) => () => [
    kit.row(kit.weightMatrix('W_G')),
    kit.row(
      // The gate is between 0 and 1: drawn on the weights' scale, as probabilities are.
      ...[
        ['gate', { kind: 'prob' }],
        ['gated', {}],
      ].map(([name, look]) => kit.group(kit.heading(name), kit.sentenceMatrix(name, run.queryLabels, look))),
    ),
  ],
};
