// Step "context": each head's weighted sum of the value rows. torch: context = weights @ v   (B, H, S, d_k)
import { say } from '../../model/words.js';
import { headStart } from '../../model/selection.js';
import { headColor } from '../common/colors.js';
import { exampleToken } from './example-token.js';
import { features } from './run-context.js';
import { size } from './quotes.js';
import { headTerm } from './formulas.js';
import { carriedNanNote } from './nan-rows.js';

function narrationOf(run, t) {
  const { i, top } = exampleToken(run);
  // A weighted average only while each row's weights add up to 1: not after dropout, nor beside a sink.
  const average = run.rs.p === 0 && !run.T.sinkWeights;
  return say(
    t,
    average ? 'step.context.narration' : 'step.context.narration.sum',
    {
      Skv: size(run, 'S_kv'),
      S: size(run, 'S'),
      dk: size(run, 'd_k'),
      token: run.queryLabels[i],
      top: run.keyLabels[top],
    },
    { claims: average ? [{ rowsSumTo: 1, tensor: 'weights', b: run.b, h: run.h }] : [] },
  );
}

export default {
  key: 'context',
  chapter: 'basics',
  name: 'context',
  shapes: [{ axes: ['B', 'H', 'S', 'd_k'] }],
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: (run) => [{ name: 'context', rows: run.S, cols: run.dk }],
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
        run.dk,
        run.queryLabels,
        features(run.dk),
        {
          caption: kit.tensorLabel('label.caption.head', 'context', kit.headLabel),
          nanNote: carriedNanNote(run, kit.t),
        },
      ),
      headColor(run.h),
    ),
  ],
};
