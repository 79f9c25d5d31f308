// Step "dropped": dropout(A) = A ⊙ m / (1 − p), m ~ Bernoulli(1 − p) (training mode).
// torch: F.dropout(weights, p)   (B, H, S, S_kv); the keep mask m of head h read off the result.
import { formatNumber } from '../../model/format.js';
import { UNKNOWN, droppedByDropout } from '../../model/dropout.js';
import { joined, say } from '../../model/words.js';
import { headColor } from '../common/colors.js';
import { element } from '../common/dom.js';
import { PER_HEAD } from './scores.js';
import { count, derived, setting } from './quotes.js';
import { nanNote } from './nan-rows.js';
import { figureLook } from './figure-looks.js';

/** The summary of what dropout did to head h: how many weights it zeroed, of how many, and the factor. */
function summaryOf(run, t) {
  const { dropout, b, h } = run;
  const where = { b, h };
  const total = count(dropout.nonZero, 'nonZeroWeights', where);
  // None kept (p = 1, or a draw that zeroed every one): no survivors to scale, and 1/(1 − p) may be ∞.
  const sentences = [
    dropout.zeroed === dropout.nonZero && dropout.nonZero > 0
      ? say(t, 'dropout.summary.all', { total })
      : say(t, 'dropout.summary', {
          zeroed: count(dropout.zeroed, 'droppedZeroed', where),
          total,
          kept: count(dropout.nonZero - dropout.zeroed, 'droppedKept', where),
          factor: derived(dropout.factor, 'keepFactor', where),
        }),
  ];
  if (dropout.zeroWeights) {
    const cause = dropout.zeroCause; // masked keys, softmax's underflow, or NaN (model/dropout.js)
    sentences.push(
      say(
        t,
        `dropout.zeroWeights.${cause}`,
        { n: count(dropout.zeroWeights, 'zeroWeights', where) },
        {
          claims: [
            { zeroWeights: dropout.zeroWeights, ...where, states: ['0'] },
            { zeroWeightsAre: cause, ...where },
          ],
        },
      ),
    );
  }
  return sentences;
}

function renderDropout(run, kit) {
  const { t } = kit;
  const { S, Skv, queryLabels, keyLabels, dropout } = run;
  const zeroLabel = t('dropout.zeroLabel');
  const caption = `${t('dropout.keepCaption')} (${kit.headLabel})`;
  const keep = kit.matrix('keep', { data: dropout.keep }, 0, S, Skv, queryLabels, keyLabels, {
    kind: 'mask',
    caption,
    blocked: (i, j) => droppedByDropout(dropout, i * Skv + j),
    maskText: (v) => (v === UNKNOWN ? '–' : String(v)),
    cellClass: (i, j, v) => (v === UNKNOWN ? ['keep-unknown'] : []),
    exportable: false,
  });
  const dropped = kit.headMatrix('dropped', {
    ...figureLook(run, 'dropped'),
    nanNote: nanNote(run, t),
    cellClass: (i, j) => (droppedByDropout(dropout, i * Skv + j) ? ['dropped-zero'] : []),
    cellLabel: (i, j, v) => (droppedByDropout(dropout, i * Skv + j) ? `${formatNumber(v, 0)} · ${zeroLabel}` : null),
  });
  const summary = element('p', 'dropout-summary', joined(summaryOf(run, t)).text);
  return [summary, kit.row(kit.group(caption, keep, headColor(run.h)), dropped)];
}

export default {
  key: 'dropped',
  // Differential attention's two maps per head stand in its place (diff-maps.js, diff-weights.js).
  applies: (run) => !run.diff,
  chapter: 'basics',
  name: 'dropped',
  shapes: [PER_HEAD],
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: (run) =>
    run.rs.p > 0
      ? [
          { name: 'keep', rows: run.S, cols: run.Skv },
          { name: 'dropped', rows: run.S, cols: run.Skv },
        ]
      : [],
  formula: ({ rs }) =>
    rs.p > 0
      ? `dropout(A) = A ⊙ m / (1 − p), m ~ Bernoulli(1 − p), 1/(1 − p) = ${derived(1 / (1 - rs.p), 'keepFactor').text}`
      : 'dropout(A) = A (p = 0)',
  words(run, t) {
    const { rs, b, h } = run;
    const p = setting(rs.p, 'dropout.p');
    if (rs.p === 0)
      return {
        meaning: [say(t, 'meaning.dropped.off', { p })],
        notes: [],
        content: [],
        narration: [say(t, 'step.dropped.narration.off', { p })],
      };
    const keep = derived(1 / (1 - rs.p), 'keepFactor', { b, h });
    return {
      meaning: [say(t, 'step.dropped.meaning')],
      notes: [],
      // Said in the step's content, above its matrices.
      content: summaryOf(run, t),
      narration: [
        say(t, 'step.dropped.narration', { p, keep }, { claims: [{ droppedAreZero: true, b, h, states: ['0'] }] }),
      ],
    };
  },
  render: (run, kit) => (run.rs.p > 0 ? () => renderDropout(run, kit) : []),
};
