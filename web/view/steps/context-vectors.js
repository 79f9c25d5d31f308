// Step "context": each head's weighted sum of the value rows. torch: context = weights @ v   (B, H, S, d_k)
import { say } from '../../model/words.js';
import { headStart } from '../../model/selection.js';
import { headColor } from '../common/colors.js';
import { exampleToken } from './example-token.js';
import { features } from './run-context.js';
import { axis, size } from './quotes.js';
import { headTerm } from './formulas.js';
import { carriedNanNote } from './nan-rows.js';

function narrationOf(run, t) {
  // The weights the sum uses: after dropout when it is on.
  const used = run.rs.p > 0 ? 'dropped' : 'weights';
  const { i, top, weight } = exampleToken(run, run.T[used]);
  const { b, h } = run;
  // A weighted average only while each row's weights add up to 1: not after dropout, nor beside a sink, nor in
  // differential attention (its rows sum to 1 − λ).
  const average = run.rs.p === 0 && !run.T.sinkWeights && !run.diff;
  // A head's value width: d_k, or MLA's valueDim.
  const params = { Skv: size(run, 'S_kv'), S: size(run, 'S'), dk: axis(run, 'context', 3), token: run.queryLabels[i] };
  // Dropout may zero a whole row: its new row is then all 0, and no key is what it carries most.
  if (!(weight > 0))
    return say(t, 'step.context.narration.zeroed', params, { claims: [{ rowAllZero: used, b, h, i, states: ['0'] }] });
  return say(
    t,
    average ? 'step.context.narration' : 'step.context.narration.sum',
    { ...params, top: run.keyLabels[top] },
    {
      claims: [...(average ? [{ rowsSumTo: 1, tensor: 'weights', b, h }] : []), { rowTop: used, b, h, i, j: top }],
    },
  );
}

export default {
  key: 'context',
  chapter: 'basics',
  name: 'context',
  shapes: (run) => [{ axes: ['B', 'H', 'S', run.mla ? 'd_v' : 'd_k'] }],
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: (run) => [{ name: 'context', rows: run.S, cols: run.dv }],
  formula: (f) => `context_{h} = ${f.rs.p > 0 ? 'dropout(A_{h})' : 'A_{h}'} · ${headTerm(f, 'V')}`,
  words: (run, t) => ({
    meaning: [say(t, 'step.context.meaning')],
    notes: [],
    narration: [narrationOf(run, t)],
  }),
  render: (run, kit) => () => [
    kit.group(
      { template: kit.tensorLabel('label.heading.head', 'context', kit.headLabel), name: 'context' },
      kit.matrix(
        'context',
        run.T.context,
        headStart(run.T.context, run.b, run.h),
        run.S,
        run.dv,
        run.queryLabels,
        features(run.dv),
        {
          caption: kit.tensorLabel('label.caption.head', 'context', kit.headLabel),
          nanNote: carriedNanNote(run, kit.t),
        },
      ),
      headColor(run.h),
    ),
  ],
};
