// Step "diffmaps": differential attention's two maps per head (Diff Transformer).   (B, 2H, S, S_kv)
//   q = q.view(B, S, 2H, d).transpose(1, 2); k likewise        # head h: half-heads 2h, 2h + 1, d = d_k / 2
//   q *= d ** -0.5
//   halfMasked = mask(torch.nan_to_num(q @ k.transpose(-1, -2)));  halfWeights = F.softmax(halfMasked, dim=-1)
import { say } from '../../model/words.js';
import { halfHeadStart } from '../../model/selection.js';
import { headColor } from '../common/colors.js';
import { axis, cell, headNumber, size } from './quotes.js';
import { figureLook } from './figure-looks.js';
import { mapFigureName } from '../figures/figure-names.js';

/** Key j with the largest value of row i of half-head s of head h, and that value. */
export function halfRowTop(run, name, s, i) {
  const tensor = run.T[name];
  const row = halfHeadStart(tensor, run.b, run.h, s) + i * run.Skv;
  let top = 0;
  for (let j = 1; j < run.Skv; j++) if (tensor.data[row + j] > tensor.data[row + top]) top = j;
  return { top, value: tensor.data[row + top] };
}

/** Map s (0 or 1) of head h of `name` [B, 2H, S, S_kv], under its heading. */
export function mapMatrix(run, kit, name, s) {
  const label = kit.t('diff.map', { head: kit.headLabel, s: s + 1 });
  const tensor = run.T[name];
  return kit.group(
    { template: kit.tensorLabel('label.heading.head', name, label), name },
    kit.matrix(
      mapFigureName(name, s),
      tensor,
      halfHeadStart(tensor, run.b, run.h, s),
      run.S,
      run.Skv,
      run.queryLabels,
      run.keyLabels,
      { caption: kit.tensorLabel('label.caption.head', name, label), captionName: name, ...figureLook(run, name) },
    ),
    headColor(run.h),
  );
}

function narrationOf(run, t) {
  // A run without differential attention (the step does not apply; a teaching mode may still ask for its words).
  if (!run.T.contextScaled) return say(t, 'diff.off');
  const { b, h } = run;
  const i = run.focus ?? 0;
  const first = halfRowTop(run, 'halfWeights', 0, i);
  const second = halfRowTop(run, 'halfWeights', 1, i);
  return say(t, 'step.diffmaps.narration', {
    head: headNumber(run),
    dk: size(run, 'd_k'),
    d: axis(run, 'lambda_q1', 0),
    token: run.queryLabels[i],
    top1: run.keyLabels[first.top],
    w1: cell(run, 'halfWeights', [b, 2 * h, i, first.top], first.value, { rowMax: true }),
    top2: run.keyLabels[second.top],
    w2: cell(run, 'halfWeights', [b, 2 * h + 1, i, second.top], second.value, { rowMax: true }),
  });
}

// The step's key, name, chapter and when it applies are its stub's (registry.js), which loads this code.
export default {
  shapes: [{ axes: ['B', '2H', 'S', 'S_kv'] }],
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: (run) =>
    ['halfMasked', 'halfWeights'].flatMap((name) =>
      [0, 1].map((s) => ({ name: mapFigureName(name, s), rows: run.S, cols: run.Skv })),
    ),
  formula: () => 'A_{h,s} = softmax(mask((Q_{h,s} · d^{−1/2}) K_{h,s}^{⊤})),  s = 1, 2,  d = d_{k}/2',
  words: (run, t) => ({
    meaning: [say(t, 'step.diffmaps.meaning')],
    notes: [],
    narration: [narrationOf(run, t)],
  }),
  render: (run, kit) => () => [
    kit.row(...[0, 1].map((s) => mapMatrix(run, kit, 'halfMasked', s))),
    kit.row(...[0, 1].map((s) => mapMatrix(run, kit, 'halfWeights', s))),
  ],
};
