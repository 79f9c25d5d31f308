// Step X_context (cross-attention): the sequence keys and values come from, [B, S_kv, D].
import { say } from '../../model/words.js';
import { embeddingEdit } from './embedding.js';
import { size } from './quotes.js';

export default {
  key: 'X_context',
  chapter: 'basics',
  name: 'X_context',
  shapes: [{ axes: ['B', 'S_kv', 'D'] }],
  applies: (run) => run.cross,
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: (run) => [{ name: 'X_context', rows: run.Skv, cols: run.D }],
  formula: ({ rs }) =>
    rs.contextDraw
      ? `X_{ctx} = torch.${rs.contextDraw}(B, S_{kv}, D)`
      : `X_{ctx} = Embedding(ids_{ctx})${rs.positional === 'sinusoidal' ? ' + PE' : ''}`,
  words: (run, t) => ({
    meaning: [say(t, 'step.X_context.meaning')],
    notes: [],
    narration: [say(t, 'step.X_context.narration', { Skv: size(run, 'S_kv'), D: size(run, 'D') })],
  }),
  render: (run, kit) => () => [
    kit.sentenceMatrix(
      'X_context',
      run.keyLabels,
      run.result.contextTokens ? embeddingEdit(run, kit, run.keyLabels) : {},
    ),
  ],
};
