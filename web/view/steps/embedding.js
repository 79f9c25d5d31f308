// Step X: the input, [B, S, D]. torch: x = embedding(ids) (+ PE), or torch.randn(B, S, D) / torch.rand(B, S, D).
import { say } from '../../model/words.js';
import { size } from './quotes.js';

/** An embedding edit of the token of row i, column j (applies to that token everywhere). */
export const embeddingEdit = (run, kit, labels) =>
  run.randomInput || !kit.editable
    ? {}
    : {
        editable: true,
        edited: (i, j) => kit.edits.isEmbeddingEdited(labels[i], j),
        onEdit: (i, j, value) => kit.on.editEmbedding(labels[i], j, value),
      };

export default {
  key: 'X',
  chapter: 'basics',
  name: 'X',
  shapes: [{ axes: ['B', 'S', 'D'] }],
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: (run) => [{ name: 'X', rows: run.S, cols: run.D }],
  formula: ({ rs }) =>
    rs.inputDraw
      ? `X = torch.${rs.inputDraw}(B, S, D)`
      : `X = Embedding(ids)${rs.positional === 'sinusoidal' ? ' + PE' : ''}`,
  words(run, t) {
    const { rs } = run;
    const meaning = run.randomInput
      ? [
          rs.inputDraw === 'rand'
            ? say(t, 'meaning.X.rand', {}, { claims: [{ inRange: 'X', from: 0, below: 1, states: ['0', '1'] }] })
            : say(t, 'meaning.X.randn'),
        ]
      : [say(t, 'step.X.meaning'), ...(rs.positional === 'sinusoidal' ? [say(t, 'meaning.X.positional')] : [])];
    const narration = [say(t, 'step.X.narration', { S: size(run, 'S'), D: size(run, 'D') })];
    return { meaning, notes: [], narration };
  },
  render: (run, kit) => () => [kit.sentenceMatrix('X', run.queryLabels, embeddingEdit(run, kit, run.queryLabels))],
};
