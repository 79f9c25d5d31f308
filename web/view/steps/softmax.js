// Step "attnweights": A = softmax(masked, dim=−1) (with a sink logit: softmax over [masked, sink], the sink
// column dropped). torch: weights = F.softmax(scores, dim=-1)   (B, H, S, S_kv); sinkWeights (B, H, S)
import { compactNumber } from '../../model/format.js';
import { say } from '../../model/words.js';
import { sinkLogitQuote } from '../../model/run-settings.js';
import { headStart, sentenceIndex } from '../../model/selection.js';
import { headColor } from '../common/colors.js';
import { exampleToken } from './example-token.js';
import { PER_HEAD } from './scores.js';
import { cell, derived, headNumber, size } from './quotes.js';
import { maskInput, maskedExpression, scaledScores, variantScores } from './formulas.js';
import { nanNote } from './nan-rows.js';
import { figureLook } from './figure-looks.js';
import { sinkColumns } from './variant-figures.js';

/** The sink's weight per row of head h beside the row's sum (1 minus it): [S, 2], or null without a sink. */
export function sinkTable(run) {
  const { T, b, h, S, Skv } = run;
  if (!T.sinkWeights) return null;
  const sinkHead = T.sinkWeights.head === undefined ? h : 0;
  const sinkStart = (sentenceIndex(T.sinkWeights, b) * T.sinkWeights.shape[1] + sinkHead) * S;
  return sinkColumns(T.weights.data, headStart(T.weights, b, h), T.sinkWeights.data, sinkStart, S, Skv);
}

function notesOf(run, t) {
  const notes = [];
  const sink = sinkTable(run);
  if (sink) {
    const sums = Array.from({ length: run.S }, (_, i) => sink[i * 2 + 1]);
    const where = { b: run.b, h: run.h };
    notes.push(
      say(
        t,
        run.rs.sinkPerHead ? 'sink.note.perHead' : 'sink.note',
        {
          head: headNumber(run),
          logit: sinkLogitQuote(run.rs, run.h),
          min: derived(Math.min(...sums), 'rowSumMin', where, run.decimals),
          max: derived(Math.max(...sums), 'rowSumMax', where, run.decimals),
        },
        { claims: [{ rowsWithSinkSumToOne: true, ...where, states: ['1'] }] },
      ),
    );
  }
  if (run.rs.init !== 'identity' && !run.weightsGiven) notes.push(say(t, 'notice.untrained', {}, { kind: 'notice' }));
  return notes;
}

/** What softmax's words claim of each row of weights: in [0, 1], and summing to 1 (with the sink's share, if any). */
function sumClaims(run) {
  const where = { b: run.b, h: run.h };
  const sum = run.T.sinkWeights
    ? { rowsWithSinkSumToOne: true, ...where }
    : { rowsSumTo: 1, tensor: 'weights', ...where };
  return [
    { inRange: 'weights', from: 0, upTo: 1, states: ['0', '1'] },
    { ...sum, states: ['1'] },
  ];
}

function narrationOf(run, t) {
  const { i, top, weight } = exampleToken(run);
  return say(
    t,
    run.T.sinkWeights ? 'step.attnweights.narration.sink' : 'step.attnweights.narration',
    {
      Skv: size(run, 'S_kv'),
      token: run.queryLabels[i],
      top: run.keyLabels[top],
      weight: cell(run, 'weights', [run.b, run.h, i, top], weight, { rowMax: true }),
    },
    { claims: sumClaims(run) },
  );
}

function renderWeights(run, kit) {
  const weights = () =>
    kit.headMatrix('weights', {
      ...figureLook(run, 'weights'),
      nanNote: nanNote(run, kit.t),
    });
  const sink = sinkTable(run);
  if (!sink) return [...kit.headMultiples('weights', run.T.weights, 'prob'), weights()];
  const table = kit.figureOf({
    name: 'sinkWeights',
    caption: kit.tensorLabel('label.caption.head', 'sinkWeights', kit.headLabel),
    data: sink,
    offset: 0,
    rows: run.S,
    cols: 2,
    rowLabels: run.queryLabels,
    colLabels: [kit.t('sink.column'), kit.t('sink.rowSum')],
    ...figureLook(run, 'sinkWeights'),
    ...kit.common,
  });
  return [
    ...kit.headMultiples('weights', run.T.weights, 'prob'),
    kit.row(weights(), kit.group(kit.t('sink.caption', { head: kit.headLabel }), table, headColor(run.h))),
  ];
}

export default {
  key: 'attnweights',
  // Differential attention's two maps per head stand in its place (diff-maps.js, diff-weights.js).
  applies: (run) => !run.diff,
  chapter: 'basics',
  name: 'weights',
  shapes: (run) => [PER_HEAD, ...(run.T?.sinkWeights ? [{ of: 'sinkWeights', axes: ['B', 'H', 'S'] }] : [])],
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: (run) => [
    { name: 'weights', rows: run.S, cols: run.Skv },
    ...(run.T.sinkWeights ? [{ name: 'sinkWeights', rows: run.S, cols: 2 }] : []),
  ],
  formula(f) {
    const { rs } = f;
    if (rs.sinkLogits !== null && rs.sinkLogits !== undefined) {
      // One learned logit per head (gpt-oss): this head's, named s_h.
      const logit = compactNumber(rs.sinkLogits[f.h ?? 0]);
      const sinkColumn = rs.sinkPerHead ? `s_{${(f.h ?? 0) + 1}} = ${logit}` : logit;
      return `p = softmax([masked, ${sinkColumn}], dim=−1),  A = p[…, :S_{kv}],  sink = p[…, S_{kv}]`;
    }
    return `A = softmax(${maskedExpression(rs, variantScores(rs) ? maskInput(rs) : scaledScores(f))}, dim=−1)`;
  },
  words: (run, t) => ({
    meaning: [
      say(
        t,
        run.T.sinkWeights ? 'step.attnweights.meaning.sink' : 'step.attnweights.meaning',
        {},
        { claims: sumClaims(run) },
      ),
    ],
    notes: notesOf(run, t),
    narration: [narrationOf(run, t)],
  }),
  render: (run, kit) => () => renderWeights(run, kit),
};
