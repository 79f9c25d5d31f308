// Step "mlapaths": MLA's two ways to the same scores, side by side (DeepSeek's attn_impl "naive" and "absorb").
//   naive:    K = cat([c @ W_UK (per head), k_pe]); V = c @ W_UV; scores = einsum("bshd,bthd->bsht", q, K)
//   absorbed: Q_absorbed = einsum("bshd,chd->bshc", q_nope, W_UK)       # W_UK moved to the query side
//             scores = einsum("bshc,btc->bsht", Q_absorbed, c) + einsum("bshr,btr->bsht", q_pe, k_pe)
// The engine runs both (mla_attention.h): `scores` is the path mla.absorb chose, otherPathScores the other's,
// otherPathOutput the other's output.
import { say } from '../../model/words.js';
import { headStart, sentenceStart } from '../../model/selection.js';
import { axis, cell, derived, headNumber, size } from './quotes.js';
import { mlaRow } from './mla-latent.js';
import { pathScores } from '../../model/variant-math.js';

/** The largest |a − b| over two equal-sized arrays (sentence b, head h of a per-head tensor, or the sentence). */
export function largestApart(a, b) {
  let worst = 0;
  for (let k = 0; k < a.length; k++) {
    const apart = Math.abs(a[k] - b[k]);
    if (apart > worst) worst = apart;
  }
  return worst;
}

/** Head h's S × S_kv block of a per-head tensor, and sentence b of a [B, S, D] tensor. */
const headBlock = (run, name) => {
  const start = headStart(run.T[name], run.b, run.h);
  return run.T[name].data.subarray(start, start + run.S * run.Skv);
};
const sentenceBlock = (run, name) => {
  const tensor = run.T[name];
  const size = tensor.shape[1] * tensor.shape[2];
  const start = sentenceStart(tensor, run.b);
  return tensor.data.subarray(start, start + size);
};

/** The two paths' largest differences: head h's scores and sentence b's output. */
export const pathsApart = (run) => ({
  scores: largestApart(headBlock(run, 'scores'), headBlock(run, 'otherPathScores')),
  output: largestApart(sentenceBlock(run, 'output'), sentenceBlock(run, 'otherPathOutput')),
});

/** The two paths' largest difference on head h's scores and on the output, quoted. */
const apartQuotes = (run) => {
  const apart = pathsApart(run);
  return {
    head: headNumber(run),
    scoresApart: derived(apart.scores, 'mlaScoresApart', { b: run.b, h: run.h }),
    outputApart: derived(apart.output, 'mlaOutputApart', { b: run.b }),
  };
};

const apartNote = (run, t) => say(t, 'step.mlapaths.apart', apartQuotes(run));

function narrationOf(run, t) {
  if (!run.mla) return say(t, 'mla.off');
  const { b, h } = run;
  const i = mlaRow(run);
  const names = pathScores(run);
  const at = (name) => run.T[name].data[headStart(run.T[name], b, h) + i * run.Skv + i];
  return say(t, 'step.mlapaths.narration', {
    ...apartQuotes(run),
    dk: size(run, 'd_k'),
    token: run.queryLabels[i],
    naive: cell(run, names.naive, [b, h, i, i], at(names.naive)),
    kv: axis(run, 'latentNorm', 2),
    absorbed: cell(run, names.absorbed, [b, h, i, i], at(names.absorbed)),
  });
}

// The step's key, name, chapter and when it applies are its stub's (registry.js), which loads this code.
export default {
  shapes: [{ axes: ['B', 'H', 'S', 'S_kv'] }],
  figures: (run) => [
    { name: 'K_h', rows: run.Skv, cols: run.dk },
    { name: 'V_h', rows: run.Skv, cols: run.dv },
    { name: 'Q_absorbed_h', rows: run.S, cols: run.T.latentNorm.shape[2] },
    { name: 'scores', rows: run.S, cols: run.Skv },
    { name: 'otherPathScores', rows: run.S, cols: run.Skv },
  ],
  formula: () => 'q_{h}·[c W_{UK,h} | k_{pe}]^{⊤} = (q_{nope,h} W_{UK,h}^{⊤})·c^{⊤} + q_{pe,h}·k_{pe}^{⊤}',
  words: (run, t) => ({
    meaning: [say(t, 'step.mlapaths.meaning')],
    // Under the step's title as it scrolls by: the two paths' largest difference.
    notes: run.mla ? [apartNote(run, t)] : [],
    narration: [narrationOf(run, t)],
  }),
  render(run, kit) {
    const names = pathScores(run);
    const kv = run.T.latentNorm.shape[2];
    const path = (key, content) => kit.group(kit.t(`mla.path.${key}`), content);
    return () => [
      kit.row(
        path(
          'naive',
          kit.row(
            kit.headView('K', run.T.K, run.Skv, run.keyLabels),
            kit.headView('V', run.T.V, run.Skv, run.keyLabels, 'V_h', run.dv),
          ),
        ),
        path('absorbed', kit.headView('Q_absorbed', run.T.Q_absorbed, run.S, run.queryLabels, 'Q_absorbed_h', kv)),
      ),
      // The two paths' scores side by side: the same numbers.
      kit.row(path('naiveScores', kit.headMatrix(names.naive)), path('absorbedScores', kit.headMatrix(names.absorbed))),
    ];
  },
};
