// Step "split": [B, S, D] → [B, S, H, d_k] → [B, H, S, d_k] (K, V: [B, H_kv, S_kv, d_k] with GQA): a view.
// torch: q.view(B, S, H, d_k).transpose(1, 2)
import { say } from '../../model/words.js';
import { axis, headNumber, size } from './quotes.js';

export default {
  key: 'split',
  chapter: 'heads',
  name: 'split',
  // MLA's heads come out of the latent already apart (mla-paths.js).
  applies: (run) => !run.mla,
  shapes: (run) => [
    { axes: ['B', 'H', 'S', 'd_k'] },
    ...(run.gqa ? [{ of: 'K/V', axes: ['B', 'H_kv', 'S_kv', 'd_k'] }] : []),
  ],
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: (run) => [
    { name: 'Q_h', rows: run.S, cols: run.dk },
    { name: 'K_h', rows: run.Skv, cols: run.dk },
    { name: 'V_h', rows: run.Skv, cols: run.dk },
  ],
  formula: ({ H, Hkv }) =>
    Hkv && Hkv < H
      ? 'Q: [B, S, D] → [B, H, S, d_{k}];  K, V: [B, S_{kv}, H_{kv}·d_{k}] → [B, H_{kv}, S_{kv}, d_{k}]'
      : '[B, S, D] → [B, S, H, d_{k}] → [B, H, S, d_{k}]',
  words: (run, t) => ({
    meaning: [say(t, 'step.split.meaning')],
    notes: [],
    narration: [
      say(t, 'step.split.narration', {
        D: axis(run, 'Q', 2),
        H: size(run, 'H'),
        dk: size(run, 'd_k'),
        head: headNumber(run),
      }),
    ],
  }),
  render: (run, kit) => () => [
    kit.row(
      kit.headView('Q', run.T.Q, run.S, run.queryLabels),
      kit.headView('K', run.T.K, run.Skv, run.keyLabels),
      kit.headView('V', run.T.V, run.Skv, run.keyLabels),
    ),
  ],
};
