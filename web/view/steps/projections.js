// Step "weights": the projections W_Q, W_K, W_V [D, D] (W_K, W_V [D, H_kv·d_k] with GQA) and their biases,
// in the x·W convention: W = linear.weight.T. torch: q_proj = nn.Linear(D, D) … (or in_proj_weight of
// nn.MultiheadAttention, torch.rand, the identity, clones of one Linear).
import { weightFigures } from './shapes.js';
import { say } from '../../model/words.js';
import { sharedAxis } from './quotes.js';

const INIT_MEANING = {
  'torch-linear': 'meaning.init.torch-linear',
  'torch-rand': 'meaning.init.torch-rand',
  'torch-mha': 'meaning.init.torch-mha',
  identity: 'meaning.init.identity',
  'torch-linear-clones': 'meaning.init.torch-linear-clones',
};

const PROJECTIONS = ['W_Q', 'W_K', 'W_V'];

/** The sentence on how the weights were drawn (or given), with what it claims of them. */
export function initMeaning(run, t, names = PROJECTIONS) {
  const { rs } = run;
  if (run.weightsGiven) return say(t, 'meaning.init.given');
  if (rs.init === 'torch-linear' && rs.layout === 'per-head') return say(t, 'meaning.init.torch-linear.perHead');
  if (rs.init === 'torch-rand')
    return say(
      t,
      INIT_MEANING[rs.init],
      {},
      { claims: names.map((name) => ({ inRange: name, from: 0, below: 1, states: ['0', '1'] })) },
    );
  if (rs.init === 'torch-linear-clones')
    return say(
      t,
      INIT_MEANING[rs.init],
      {},
      { claims: [{ equalWeights: ['W_Q', 'W_K', 'W_V', 'W_O'], states: ['4'] }] },
    );
  if (rs.init === 'torch-mha')
    return say(t, INIT_MEANING[rs.init], {}, { claims: [{ allZero: ['b_Q', 'b_K', 'b_V'], states: ['0'] }] });
  return say(t, INIT_MEANING[rs.init] ?? INIT_MEANING['torch-linear']);
}

/** W_Q … = how they were drawn; their sizes; the biases the run has. */
function projectionFormula({ rs, bias, hasWO, H, Hkv }, t) {
  const biases = ['Q', 'K', 'V'].filter((n) => bias[n]);
  const w = 'W_{Q}, W_{K}, W_{V}';
  const drawn = {
    identity: 'W_{Q} = W_{K} = W_{V} = I',
    'torch-rand': rs.layout === 'per-head' ? `${w} = [torch.rand(D, d_{k}) per head]` : `${w} = torch.rand(D, D)`,
    'torch-mha': '[W_{Q} W_{K} W_{V}] = mha.in_proj_weight^{⊤}',
    'torch-linear-clones': `W_{Q} = W_{K} = W_{V}${hasWO ? ' = W_{O}' : ''} = linear.weight^{⊤}, ${t('formula.clones')}`,
  };
  const text =
    drawn[rs.init] ??
    (rs.layout === 'per-head'
      ? 'W_{Q} = [heads[h].query.weight^{⊤}]_{h}, …'
      : 'W_{Q} = q_proj.weight^{⊤}, W_{K} = k_proj.weight^{⊤}, W_{V} = v_proj.weight^{⊤}');
  const biasText = biases.length ? `, ${biases.map((n) => `b_{${n}}`).join(', ')} ∈ ℝ^{d_{model}}` : '';
  const sizes =
    Hkv && Hkv < H
      ? 'W_{Q} ∈ ℝ^{d_{model}×d_{model}}, W_{K}, W_{V} ∈ ℝ^{d_{model}×H_{kv}d_{k}}'
      : `${w} ∈ ℝ^{d_{model}×d_{model}}`;
  return `${text}; ${sizes}${biasText}`;
}

export default {
  key: 'weights',
  chapter: 'basics',
  name: 'projections',
  shapes: (run) =>
    run.gqa
      ? [
          { of: 'W_Q:', axes: ['D', 'D'] },
          { of: 'W_K/W_V:', axes: ['D', 'H_kv·d_k'] },
        ]
      : [{ of: 'W:', axes: ['D', 'D'] }],
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: (run) => weightFigures(run, ['W_Q', 'W_K', 'W_V', 'b_Q', 'b_K', 'b_V']),
  formula: projectionFormula,
  words(run, t) {
    const { D } = run;
    const rows = PROJECTIONS.map((name) => [name, 0]);
    const narration = run.gqa
      ? say(t, 'step.weights.narration.gqa', {
          D: sharedAxis(run, D, [...rows, ['W_Q', 1]]),
          kvWidth: sharedAxis(run, run.T.W_K.shape[1], [
            ['W_K', 1],
            ['W_V', 1],
          ]),
        })
      : say(t, 'step.weights.narration', { D: sharedAxis(run, D, [...rows, ...PROJECTIONS.map((name) => [name, 1])]) });
    return { meaning: [say(t, 'step.weights.meaning'), initMeaning(run, t)], notes: [], narration: [narration] };
  },
  render: (run, kit) => () => [
    kit.row(...PROJECTIONS.map(kit.weightMatrix).filter(Boolean)),
    kit.row(...['b_Q', 'b_K', 'b_V'].map(kit.weightMatrix).filter(Boolean)),
  ],
};
