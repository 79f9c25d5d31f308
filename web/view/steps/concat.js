// Step "concat": the heads side by side again. torch: context.transpose(1, 2).contiguous().view(B, S, D)
// [B, H, S, d_k] → [B, S, H, d_k] → [B, S, D]
import { say } from '../../model/words.js';
import { axis, size } from './quotes.js';
import { carriedNanNote } from './nan-rows.js';

export default {
  key: 'concat',
  chapter: 'heads',
  name: 'concat',
  // The header names where it comes from; the overview shows the result's shape.
  shapes: (run) =>
    run.mla
      ? [{ of: '[B, H, S, d_v] →', axes: ['B', 'S', 'H·d_v'] }]
      : [{ of: '[B, H, S, d_k] →', axes: ['B', 'S', 'D'] }],
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: (run) => [{ name: 'concat', rows: run.S, cols: run.Dv }],
  formula: () => 'concat = Concat(head_{1}, …, head_{H})',
  words: (run, t) => ({
    meaning: [say(t, 'step.concat.meaning')],
    notes: [],
    narration: [
      run.multiHead
        ? say(t, 'step.concat.narration', {
            H: size(run, 'H', { min: 2 }),
            dk: axis(run, 'context', 3),
            D: axis(run, 'concat', 2),
          })
        : say(t, 'step.concat.narration.one', { dk: axis(run, 'context', 3), D: axis(run, 'concat', 2) }),
    ],
  }),
  render: (run, kit) => () => [
    kit.sentenceMatrix('concat', run.queryLabels, { ...kit.headBandsOf(run.dv), nanNote: carriedNanNote(run, kit.t) }),
  ],
};
