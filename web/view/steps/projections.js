// Step "weights": the projections W_Q, W_K, W_V [D, D] (W_K, W_V [D, H_kv·d_k] with GQA) and their biases,
// in the x·W convention: W = linear.weight.T. torch: q_proj = nn.Linear(D, D) … (or in_proj_weight of
// nn.MultiheadAttention, torch.rand, the identity, clones of one Linear).
import { weightFigures } from './shapes.js';
import { say } from '../../model/words.js';
import { axis, sharedAxis } from './quotes.js';

const INIT_MEANING = {
  'torch-linear': 'meaning.init.torch-linear',
  'torch-rand': 'meaning.init.torch-rand',
  'torch-mha': 'meaning.init.torch-mha',
  identity: 'meaning.init.identity',
  'torch-linear-clones': 'meaning.init.torch-linear-clones',
};

const PROJECTIONS = ['W_Q', 'W_K', 'W_V'];
// MLA's (DeepSeek's wq, wkv_a split into W_DKV | W_KR, kv_norm, wkv_b split per head into W_UK | W_UV); W_O is
// its own step's.
const MLA_WEIGHTS = ['W_Q', 'W_DKV', 'W_KR', 'W_UK', 'W_UV'];

/** MLA's weights in their model.py form, and their sizes. */
const MLA_FORMULA =
  'W_{Q} = wq.weight^{⊤}, [W_{DKV} | W_{KR}] = wkv_a.weight^{⊤}, [W_{UK,h} | W_{UV,h}]_{h} = wkv_b.weight^{⊤}; ' +
  'W_{Q} ∈ ℝ^{d_{model}×H(d_{nope}+d_{rope})}, W_{DKV} ∈ ℝ^{d_{model}×d_{c}}, W_{KR} ∈ ℝ^{d_{model}×d_{rope}}, ' +
  'W_{UK} ∈ ℝ^{d_{c}×H d_{nope}}, W_{UV} ∈ ℝ^{d_{c}×H d_{v}}, kv_{norm} ∈ ℝ^{d_{c}}';

/** MLA's weights step: what each of its matrices makes, with their sizes as the run has them. */
function mlaNarration(run, t) {
  return say(t, 'step.weights.narration.mla', {
    D: sharedAxis(
      run,
      run.D,
      MLA_WEIGHTS.slice(0, 3).map((name) => [name, 0]),
    ),
    q: axis(run, 'W_Q', 1),
    kv: sharedAxis(run, run.T.W_DKV.shape[1], [
      ['W_DKV', 1],
      ['W_UK', 0],
      ['W_UV', 0],
      ['kv_norm', 0],
    ]),
    r: axis(run, 'W_KR', 1),
    k: axis(run, 'W_UK', 1),
    v: axis(run, 'W_UV', 1),
  });
}

/** The sentence on how the weights were drawn (or given), with what it claims of them. */
export function initMeaning(run, t, names = PROJECTIONS) {
  const { rs } = run;
  if (run.weightsGiven) return say(t, 'meaning.init.given');
  if (rs.mla) return say(t, 'meaning.init.mla');
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
  if (rs.mla) return MLA_FORMULA;
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
  // MLA's weights are others: its title names them.
  titleKey: (run) => (run.mla ? 'step.weights.title.mla' : 'step.weights.title'),
  shapes: (run) =>
    run.mla
      ? [
          { of: 'W_Q:', axes: ['D', 'H·d_k'] },
          { of: 'W_DKV:', axes: ['D', 'kvRank'] },
        ]
      : run.gqa
        ? [
            { of: 'W_Q:', axes: ['D', 'D'] },
            { of: 'W_K/W_V:', axes: ['D', 'H_kv·d_k'] },
          ]
        : [{ of: 'W:', axes: ['D', 'D'] }],
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: (run) =>
    weightFigures(run, run.mla ? [...MLA_WEIGHTS, 'kv_norm'] : ['W_Q', 'W_K', 'W_V', 'b_Q', 'b_K', 'b_V']),
  formula: projectionFormula,
  words(run, t) {
    if (run.mla)
      return {
        meaning: [say(t, 'step.weights.meaning.mla'), initMeaning(run, t)],
        notes: [],
        narration: [mlaNarration(run, t)],
      };
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
  render: (run, kit) => () =>
    run.mla
      ? mlaWeights(run, kit)
      : [
          kit.row(...PROJECTIONS.map((name) => kit.weightMatrix(name)).filter(Boolean)),
          kit.row(...['b_Q', 'b_K', 'b_V'].map((name) => kit.weightMatrix(name)).filter(Boolean)),
        ],
};

/** MLA's weights: W_Q by head, the latent's and the rotated part's, then the per-head expansions and kv_norm. */
function mlaWeights(run, kit) {
  const { nopeDim, valueDim } = run.rs.mla;
  return [
    kit.row(kit.weightMatrix('W_Q')),
    kit.row(kit.weightMatrix('W_DKV', null), kit.weightMatrix('W_KR', null), kit.weightMatrix('kv_norm', null)),
    kit.row(kit.weightMatrix('W_UK', nopeDim), kit.weightMatrix('W_UV', valueDim)),
  ];
}
