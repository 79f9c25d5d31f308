// Step "averaged": Ā = (1/H) Σ_h A_h, what nn.MultiheadAttention returns as its weights
// (average_attn_weights=True; PyTorch 1.13 averages them after dropout).   (B, S, S_kv)
import { say } from '../../model/words.js';
import { nanNote } from './nan-rows.js';
import { figureLook } from './figure-looks.js';

export default {
  key: 'averaged',
  chapter: 'heads',
  name: 'averaged',
  shapes: [{ axes: ['B', 'S', 'S_kv'] }],
  // nn.MultiheadAttention's averaged weights: not differential attention's, whose rows sum to 1 − λ.
  applies: (run) => run.multiHead && !run.diff,
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: (run) => [{ name: 'averagedWeights', rows: run.S, cols: run.Skv }],
  formula: ({ rs }) => `Ā = (1/H) Σ_{h} ${rs.p > 0 ? 'dropout(A_{h})' : 'A_{h}'}`,
  words: (run, t) => ({
    meaning: [say(t, 'step.averaged.meaning')],
    notes: [],
    narration: [say(t, 'step.averaged.narration')],
  }),
  render: (run, kit) => () => [
    kit.figureOf({
      name: 'averagedWeights',
      caption: kit.tensorLabel('label.caption', 'averagedWeights'),
      data: run.averaged,
      offset: 0,
      rows: run.S,
      cols: run.Skv,
      rowLabels: run.queryLabels,
      colLabels: run.keyLabels,
      ...figureLook(run, 'averagedWeights'),
      nanNote: nanNote(run, kit.t),
      ...kit.common,
    }),
  ],
};
