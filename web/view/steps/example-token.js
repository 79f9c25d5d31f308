// The token a narration takes as its example: the followed one, else the first,
// and the key it gives its largest weight to in the shown head.
import { headStart } from '../../model/selection.js';

/** {i, top, weight}: query row i, its strongest key `top` in head h of `tensor` (weights), and that weight. */
export function exampleToken(run, tensor = run.T.weights) {
  const i = run.focus ?? 0;
  const row = headStart(tensor, run.b, run.h) + i * run.Skv;
  let top = 0;
  for (let j = 1; j < run.Skv; j++) if (tensor.data[row + j] > tensor.data[row + top]) top = j;
  return { i, top, weight: tensor.data[row + top] };
}
