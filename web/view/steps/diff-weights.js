// Step "diffweights": differential attention's weights, map 1 minus λ times map 2.   (B, H, S, S_kv)
//   lambda_full = exp(sum(lambda_q1 * lambda_k1)) - exp(sum(lambda_q2 * lambda_k2)) + lambda_init
//   weights = halfWeights[:, 2h] - lambda_full * halfWeights[:, 2h + 1]
import { say } from '../../model/words.js';
import { halfHeadStart, headStart } from '../../model/selection.js';
import { lambdaInitOf } from '../../model/variant-math.js';
import { headColor } from '../common/colors.js';
import { halfRowTop } from './diff-maps.js';
import { PER_HEAD } from './scores.js';
import { cell, count, derived, headNumber, setting } from './quotes.js';
import { weightFigures } from './shapes.js';
import { figureLook } from './figure-looks.js';

const LAMBDAS = ['lambda_q1', 'lambda_k1', 'lambda_q2', 'lambda_k2'];

/** Σ a·b of two λ vectors, in float64 (the words quote it to 4 decimals). */
const dot = (a, b) => a.data.reduce((sum, x, k) => sum + x * b.data[k], 0);

/** What the words say of λ: its two exponentials, λ_init and λ itself (the engine's float32). */
export function lambdaParts(run) {
  const { T } = run;
  const dot1 = dot(T.lambda_q1, T.lambda_k1);
  const dot2 = dot(T.lambda_q2, T.lambda_k2);
  return {
    dot1,
    dot2,
    exp1: Math.exp(dot1),
    exp2: Math.exp(dot2),
    init: lambdaInitOf(run.rs.diffDepth),
    lambda: T.lambdaFull.data[0],
  };
}

/** λ·A₂ of head h [S, S_kv] in float32: what the subtraction takes off map 1. */
export function removedNoise(run) {
  const second = run.T.halfWeights;
  const start = halfHeadStart(second, run.b, run.h, 1);
  const lambda = run.T.lambdaFull.data[0];
  return Float32Array.from(second.data.subarray(start, start + run.S * run.Skv), (x) => Math.fround(lambda * x));
}

function narrationOf(run, t) {
  // A run without differential attention (the step does not apply; a teaching mode may still ask for its words).
  if (!run.T.contextScaled) return say(t, 'diff.off');
  const { b, h, T } = run;
  const i = run.focus ?? 0;
  const parts = lambdaParts(run);
  const where = { b, h };
  // The key map 2 weighs most for this query: where the subtraction removes the most.
  const { top: j } = halfRowTop(run, 'halfWeights', 1, i);
  const at = (name, s) => T[name].data[halfHeadStart(T[name], b, h, s) + i * run.Skv + j];
  const start = headStart(T.weights, b, h);
  const weights = T.weights.data.subarray(start, start + run.S * run.Skv);
  const negatives = weights.filter((w) => w < 0).length;
  return say(
    t,
    'step.diffweights.narration',
    {
      dot1: derived(parts.dot1, 'lambdaDot1'),
      dot2: derived(parts.dot2, 'lambdaDot2'),
      // The sum's terms one digit finer than λ, so that they add up to λ as written (a guard digit).
      exp1: derived(parts.exp1, 'lambdaExp1', {}, run.decimals + 1),
      exp2: derived(parts.exp2, 'lambdaExp2', {}, run.decimals + 1),
      init: derived(parts.init, 'lambdaInit', {}, run.decimals + 1),
      depth: setting(run.rs.diffDepth, 'diff.depth'),
      lambda: derived(parts.lambda, 'lambda', {}, run.decimals),
      token: run.queryLabels[i],
      key: run.keyLabels[j],
      w1: cell(run, 'halfWeights', [b, 2 * h, i, j], at('halfWeights', 0)),
      w2: cell(run, 'halfWeights', [b, 2 * h + 1, i, j], at('halfWeights', 1)),
      a: cell(run, 'weights', [b, h, i, j], weights[i * run.Skv + j]),
      rest: derived(1 - parts.lambda, 'oneMinusLambda'),
      head: headNumber(run),
      negatives: count(negatives, 'negativeWeights', where),
      cells: count(run.S * run.Skv, 'pairs', { b }),
    },
    { claims: [{ rowsSumToOneMinusLambda: true, ...where, states: ['1'] }] },
  );
}

// The step's key, name, chapter and when it applies are its stub's (registry.js), which loads this code.
export default {
  shapes: [PER_HEAD],
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: (run) => [
    ...weightFigures(run, LAMBDAS),
    { name: 'diffNoise', rows: run.S, cols: run.Skv },
    { name: 'weights', rows: run.S, cols: run.Skv },
  ],
  formula: () =>
    'λ = e^{λ_{q1}·λ_{k1}} − e^{λ_{q2}·λ_{k2}} + λ_{init},  λ_{init} = 0.8 − 0.6·e^{−0.3·depth},  A_{h} = A_{h,1} − λ · A_{h,2}',
  words: (run, t) => ({
    meaning: [say(t, 'step.diffweights.meaning')],
    notes: [],
    narration: [narrationOf(run, t)],
  }),
  render: (run, kit) => () => [
    kit.row(...LAMBDAS.map((name) => kit.weightMatrix(name))),
    ...kit.headMultiples('weights', run.T.weights, figureLook(run, 'weights').kind),
    kit.row(
      kit.group(
        kit.t('diff.noise', { head: kit.headLabel }),
        kit.matrix('diffNoise', { data: removedNoise(run) }, 0, run.S, run.Skv, run.queryLabels, run.keyLabels, {
          caption: kit.t('diff.noise', { head: kit.headLabel }),
          ...figureLook(run, 'diffNoise'),
        }),
        headColor(run.h),
      ),
      kit.headMatrix('weights', figureLook(run, 'weights')),
    ),
  ],
};
