// Step "wo": the output projection W_O [D, D] (and b_O), x·W convention: W_O = out_proj.weight.T.
import { weightFigures } from './shapes.js';
import { say } from '../../model/words.js';
import { initMeaning } from './projections.js';
import { axis, size } from './quotes.js';

const SOURCE = {
  identity: 'W_{O} = I',
  'torch-rand': 'W_{O} = torch.rand(D, D)',
  'torch-mha': 'W_{O} = mha.out_proj.weight^{⊤}',
  'torch-linear-clones': 'W_{O} = linear.weight^{⊤}',
};

export default {
  key: 'wo',
  chapter: 'heads',
  name: 'W_O',
  shapes: (run) => [{ axes: [run.mla ? 'H·d_v' : 'D', 'D'] }],
  applies: (run) => run.hasWO,
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: (run) => weightFigures(run, ['W_O', 'b_O']),
  formula: ({ rs, bias, hasWO }) =>
    !hasWO
      ? null
      : rs.mla
        ? 'W_{O} = wo.weight^{⊤}; W_{O} ∈ ℝ^{H·d_{v}×d_{model}}'
        : `${SOURCE[rs.init] ?? 'W_{O} = o_proj.weight^{⊤}'}; W_{O} ∈ ℝ^{d_{model}×d_{model}}${bias.O ? ', b_{O} ∈ ℝ^{d_{model}}' : ''}`,
  words: (run, t) => ({
    meaning: [say(t, 'step.wo.meaning'), initMeaning(run, t, ['W_O'])],
    notes: [],
    narration: [
      run.mla
        ? say(t, 'step.wo.narration.mla', { rows: axis(run, 'W_O', 0), D: axis(run, 'W_O', 1) })
        : run.multiHead
          ? say(t, 'step.wo.narration', { D: axis(run, 'W_O', 0), H: size(run, 'H', { min: 2 }) })
          : say(t, 'step.wo.narration.one', { D: axis(run, 'W_O', 0) }),
    ],
  }),
  render: (run, kit) => () => [kit.row(kit.weightMatrix('W_O'), ...(run.T.b_O ? [kit.weightMatrix('b_O')] : []))],
};
