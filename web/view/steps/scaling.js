// Step "scaling": what the scale does to each row's softmax: its largest weight and entropy, with and
// without s, worked out from head h's scores a block of rows at a time; the charts and the table.
import { say } from '../../model/words.js';
import { derived } from './quotes.js';
import { headStart } from '../../model/selection.js';
import { scaleFactorText } from './formulas.js';
import { renderScalingCharts, renderScalingTable, scalingRows } from './scaling-figures.js';

// The scaling statistics are worked out this many query rows per slice.
const SCALING_ROWS = 64;

function buildScaling(run, kit, el) {
  const { T, b, h, S, Skv, rs } = run;
  const rows = [];
  for (let from = 0; from < S; from += SCALING_ROWS)
    kit.later(() =>
      rows.push(
        ...scalingRows({
          scores: T.scores.data,
          offset: headStart(T.scores, b, h),
          S,
          Skv,
          scaleFactor: run.factor,
          blocked: run.blocked,
          fill: rs.fill,
          labels: run.queryLabels,
          from,
          to: Math.min(S, from + SCALING_ROWS),
        }),
      ),
    );
  kit.later(() =>
    el.append(
      renderScalingCharts({
        rows,
        focus: run.focus,
        dk: run.dk,
        D: run.D,
        scale: rs.scale,
        factor: run.factor,
        scaleText: scaleFactorText({ scale: rs.scale, factor: run.factor, dk: run.dk, D: run.D }, kit.t),
        t: kit.t,
      }),
      renderScalingTable(rows, Skv, run.decimals, kit.t, kit.later),
    ),
  );
  return [];
}

/**
 * The table compares softmax of the scaled and the unscaled scores under the mask alone: a softcap, ALiBi
 * or a sink logit that the weights step includes changes the weights, so the note names what it leaves out.
 */
function leftOut(run, t) {
  const names = [
    ...(run.T.capped ? [t('step.softcap.short')] : []),
    ...(run.T.alibiBias ? [t('step.alibi.short')] : []),
    ...(run.T.sinkWeights ? [t('scaling.sinkLogit')] : []),
  ];
  return names.length ? [say(t, 'scaling.leftOut', { names: names.join(t('chapter.list')) })] : [];
}

export default {
  key: 'scaling',
  // Differential attention's two maps per head stand in its place (diff-maps.js, diff-weights.js).
  applies: (run) => !run.diff,
  chapter: 'basics',
  name: 'scaling',
  shapes: [],
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: () => [],
  formula: (run, t) => t('formula.scaling'),
  words(run, t) {
    const where = { b: run.b, h: run.h };
    const notes = leftOut(run, t);
    // Scaling flattens each row's softmax only when the factor is below 1; otherwise the table shows no change.
    if (run.factor < 1) {
      const claims = [{ scalingSharpens: true, ...where, states: ['1', '0'] }];
      return {
        meaning: [say(t, 'step.scaling.meaning', {}, { claims })],
        notes,
        narration: [say(t, 'step.scaling.narration', {}, { claims })],
      };
    }
    const factor = derived(run.factor, 'scaleFactor', where);
    return {
      meaning: [say(t, 'step.scaling.meaning.unscaled', { factor })],
      notes,
      narration: [say(t, 'step.scaling.narration.unscaled', { factor })],
    };
  },
  render: (run, kit) => (el) => buildScaling(run, kit, el),
};
