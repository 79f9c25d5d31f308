// Step "scores": each head's raw scores, [B, H, S, S_kv]. torch: scores = q @ k.transpose(-2, -1)
// (additive: v_a(tanh(W_a(q_i) + U_a(k_j)))).
import { weightFigures } from './shapes.js';
import { say } from '../../model/words.js';
import { features } from './run-context.js';
import { size } from './quotes.js';
import { variantScoresFormula } from './formulas.js';

/** The per-head [B, H, S, S_kv] shape of the steps from scores to dropout. */
export const PER_HEAD = { axes: ['B', 'H', 'S', 'S_kv'] };

/** The additive score's own parameters: W_a, U_a [d_k, hidden], v_a [hidden]. */
function additiveParameters(run, kit) {
  const matrices = ['W_a', 'U_a', 'v_a']
    .filter((name) => run.T[name])
    .map((name) => {
      const tensor = run.T[name];
      const isVector = tensor.shape.length === 1;
      const [rows, cols] = isVector ? [1, tensor.shape[0]] : tensor.shape;
      return kit.group(
        kit.heading(name),
        kit.matrix(name, tensor, 0, rows, cols, isVector ? [name] : features(rows), features(cols)),
      );
    });
  return matrices.length ? [kit.row(...matrices)] : [];
}

export default {
  key: 'scores',
  // Differential attention's two maps per head stand in its place (diff-maps.js, diff-weights.js).
  applies: (run) => !run.diff && !run.mla,
  chapter: 'basics',
  name: 'scores',
  shapes: [PER_HEAD],
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: (run) => [
    ...(run.rs.score === 'additive' ? weightFigures(run, ['W_a', 'U_a', 'v_a']) : []),
    { name: 'scores', rows: run.S, cols: run.Skv },
  ],
  formula: (run) =>
    run.rs.score === 'additive'
      ? 'score_{ij} = v_{a}^{⊤} tanh(q_{i}W_{a} + k_{j}U_{a})'
      : variantScoresFormula(run.rs, run),
  words: (run, t) => ({
    meaning: [say(t, run.rs.score === 'additive' ? 'meaning.scores.additive' : 'step.scores.meaning')],
    notes: [],
    narration: [
      run.multiHead
        ? say(t, 'step.scores.narration', {
            dk: size(run, 'd_k'),
            S: size(run, 'S'),
            Skv: size(run, 'S_kv'),
            H: size(run, 'H', { min: 2 }),
          })
        : say(t, 'step.scores.narration.one', { dk: size(run, 'd_k'), S: size(run, 'S'), Skv: size(run, 'S_kv') }),
    ],
  }),
  render: (run, kit) => () => [
    ...(run.rs.score === 'additive' ? additiveParameters(run, kit) : []),
    ...kit.headMultiples('scores', run.T.scores, 'signed'),
    kit.headMatrix('scores'),
  ],
};
