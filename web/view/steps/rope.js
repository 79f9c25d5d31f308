// Step "rope": rotary position embedding of each head's q and k (after QK-norm, if any).
// torch (rotate-half): q_rope = q * cos + rotate_half(q) * sin, θ_i = base^(−2i/d_k)   (B, H, S, d_k)
import { compactNumber } from '../../model/format.js';
import { say } from '../../model/words.js';
import { headStart, sentenceStart } from '../../model/selection.js';
import { element } from '../common/dom.js';
import { QK_SHAPES } from './qk-norm.js';
import { headNumber } from './quotes.js';
import { features } from './run-context.js';
import { renderRopeSameDistance } from './variant-figures.js';
import { renderRopeFrequencies, ropeScalingWords, scalingName } from './rope-scaling.js';

const ROPE_FORMULA = {
  'rotate-half': 'q′ = q·cos(mθ) + rotate_half(q)·sin(mθ), rotate_half(q) = [−q_{d_k/2:}, q_{:d_k/2}]',
  interleaved: 'q′_{2i} = q_{2i}cos(mθ_{i}) − q_{2i+1}sin(mθ_{i}), q′_{2i+1} = q_{2i}sin(mθ_{i}) + q_{2i+1}cos(mθ_{i})',
};

// What rope.scaling does to θ_i (transformers' modeling_rope_utils.py), after the trained θ_i.
const SCALING_FORMULA = {
  linear: (s) => `,  θ′_{i} = θ_{i} / ${compactNumber(s.factor)}`,
  dynamic: (s) =>
    `,  θ′_{i} = base′^{−2i/d_{k}}, base′ = base·(${compactNumber(s.factor)}·S/${s.originalMaxPositions} − ${compactNumber(s.factor - 1)})^{d_{k}/(d_{k}−2)} when S > ${s.originalMaxPositions}`,
  yarn: (s) =>
    `,  θ′_{i} = (1 − γ_{i})·θ_{i}/${compactNumber(s.factor)} + γ_{i}·θ_{i},  cos, sin × (0.1·ln ${compactNumber(s.factor)} + 1)`,
};

/** RoPE: the angles, q before and after, k after, and the same q·k at two position pairs of one distance. */
function renderRope(run, kit) {
  const { T, b, h, g, S, Skv, dk, rs, queryLabels, keyLabels } = run;
  const half = dk / 2;
  const qIn = T.Q_norm ?? T.Q; // what RoPE rotates: q after QK-norm, if any
  const kIn = T.K_norm ?? T.K;
  const i = run.focus ?? S - 1;
  const j = Math.floor(i / 2);
  const vector = (tensor, row, head) => {
    const start = sentenceStart(tensor, b) + row * tensor.shape[2] + head * dk;
    return tensor.data.subarray(start, start + dk);
  };
  return [
    element('p', 'notice', kit.t(`rope.pairs.${rs.rope}`)),
    ...(T.ropeInvFreq ? [renderRopeFrequencies(run, kit)] : []),
    kit.group(
      rs.ropeScaling
        ? kit.t('rope.angles.scaled', { type: scalingName(kit.t, rs.ropeScaling) })
        : kit.t('rope.angles', { base: compactNumber(rs.ropeBase) }),
      kit.matrix('ropeAngles', T.ropeAngles, 0, S, half, features(S, ''), features(half, 'θ')),
    ),
    kit.row(
      kit.headView(qIn === T.Q ? 'Q' : 'Q_norm', qIn, S, queryLabels, 'Q_before_rope'),
      kit.headView('Q_rope', T.Q_rope, S, queryLabels),
      kit.headView('K_rope', T.K_rope, Skv, keyLabels),
    ),
    renderRopeSameDistance({
      t: kit.t,
      q: vector(qIn, i, h),
      k: vector(kIn, j, g),
      i,
      j,
      S,
      angles: T.ropeAngles.data,
      style: rs.rope,
      scale: T.ropeAttentionFactor?.data[0] ?? 1,
      engineScore: T.scores.data[headStart(T.scores, b, h) + i * Skv + j],
      queryLabels,
      keyLabels,
      decimals: run.decimals,
    }),
  ];
}

// The step's key, name, chapter and when it applies are its stub's (registry.js), which loads this code.
export default {
  shapes: [{ of: 'ropeAngles', axes: ['S', 'd_k/2'] }, ...QK_SHAPES],
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: (run) => [
    { name: 'ropeAngles', rows: run.S, cols: run.dk / 2 },
    { name: 'Q_before_rope', rows: run.S, cols: run.dk },
    { name: 'Q_rope_h', rows: run.S, cols: run.dk },
    { name: 'K_rope_h', rows: run.Skv, cols: run.dk },
  ],
  formula: ({ rs }) =>
    `${ROPE_FORMULA[rs.rope] ?? ROPE_FORMULA['rotate-half']}, θ_{i} = ${compactNumber(rs.ropeBase ?? 10000)}^{−2i/d_{k}}` +
    (rs.ropeScaling ? SCALING_FORMULA[rs.ropeScaling.type](rs.ropeScaling) : ''),
  words: (run, t) => ({
    meaning: [say(t, 'step.rope.meaning')],
    notes: ropeScalingWords(run, t),
    narration: [say(t, 'step.rope.narration', { head: headNumber(run) })],
  }),
  render: (run, kit) => () => renderRope(run, kit),
};
