// Step "diffnorm": differential attention's head output, normalized.   (B, H, S, d_k)
//   contextNorm = context * torch.rsqrt(context.pow(2).mean(-1, keepdim=True) + 1e-5) * subln
//   contextScaled = contextNorm * (1 - lambda_init)          # the head's output: concat joins these
import { say } from '../../model/words.js';
import { headStart } from '../../model/selection.js';
import { lambdaInitOf } from '../../model/variant-math.js';
import { headColor } from '../common/colors.js';
import { features } from './run-context.js';
import { cell, derived, headNumber } from './quotes.js';
import { weightFigures } from './shapes.js';

const STAGES = ['contextNorm', 'contextScaled'];

/** Row i of head h of a [B, H, S, d_k] tensor. */
const headRow = (run, name, i) => {
  const start = headStart(run.T[name], run.b, run.h) + i * run.dk;
  return run.T[name].data.subarray(start, start + run.dk);
};

function narrationOf(run, t) {
  // A run without differential attention (the step does not apply; a teaching mode may still ask for its words).
  if (!run.T.contextScaled) return say(t, 'diff.off');
  const { b, h } = run;
  const i = run.focus ?? 0;
  const context = headRow(run, 'context', i);
  const rms = Math.sqrt(context.reduce((sum, x) => sum + x * x, 0) / run.dk);
  const where = { b, h, i };
  return say(t, 'step.diffnorm.narration', {
    token: run.queryLabels[i],
    head: headNumber(run),
    rms: derived(rms, 'contextRms', where),
    scale: derived(1 - lambdaInitOf(run.rs.diffDepth), 'oneMinusLambdaInit'),
    c: cell(run, 'context', [b, h, i, 0], context[0]),
    n: cell(run, 'contextNorm', [b, h, i, 0], headRow(run, 'contextNorm', i)[0]),
    o: cell(run, 'contextScaled', [b, h, i, 0], headRow(run, 'contextScaled', i)[0]),
  });
}

// The step's key, name, chapter and when it applies are its stub's (registry.js), which loads this code.
export default {
  shapes: [{ axes: ['B', 'H', 'S', 'd_k'] }],
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: (run) => [...weightFigures(run, ['subln']), ...STAGES.map((name) => ({ name, rows: run.S, cols: run.dk }))],
  formula: () => 'head_{h} = context_{h} / √(mean(context_{h}^{2}) + 10^{−5}) ⊙ subln · (1 − λ_{init})',
  words: (run, t) => ({
    meaning: [say(t, 'step.diffnorm.meaning')],
    notes: [],
    narration: [narrationOf(run, t)],
  }),
  render: (run, kit) => () => [
    kit.row(kit.weightMatrix('subln')),
    kit.row(
      ...STAGES.map((name) =>
        kit.group(
          { template: kit.tensorLabel('label.heading.head', name, kit.headLabel), name },
          kit.matrix(
            name,
            run.T[name],
            headStart(run.T[name], run.b, run.h),
            run.S,
            run.dk,
            run.queryLabels,
            features(run.dk),
            {
              caption: kit.tensorLabel('label.caption.head', name, kit.headLabel),
              captionName: name,
            },
          ),
          headColor(run.h),
        ),
      ),
    ),
  ],
};
