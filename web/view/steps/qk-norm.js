// Step "qkNorm": RMSNorm of each head's q and k rows over d_k (eps 1e-6, weight ones).
// torch: q = q / torch.sqrt(q.pow(2).mean(-1, keepdim=True) + 1e-6)   (B, H, S, d_k)
import { say } from '../../model/words.js';
import { size } from './quotes.js';

/** Q [B, S, H·d_k] and K [B, S_kv, H_kv·d_k]: the shapes of the steps that work on q and k per row. */
export const QK_SHAPES = [
  { of: 'Q', axes: ['B', 'S', 'H·d_k'] },
  { of: 'K', axes: ['B', 'S_kv', 'H_kv·d_k'] },
];

const RMS_ONE = [
  { rmsOne: 'Q_norm', states: ['1'] },
  { rmsOne: 'K_norm', states: ['1'] },
];

// The step's key, name, chapter and when it applies are its stub's (registry.js), which loads this code.
export default {
  shapes: QK_SHAPES,
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: (run) => [
    { name: 'Q_norm_h', rows: run.S, cols: run.dk },
    { name: 'K_norm_h', rows: run.Skv, cols: run.dk },
  ],
  formula: () => 'q̂ = q / √(mean(q^{2}) + 10^{−6}),  k̂ = k / √(mean(k^{2}) + 10^{−6})',
  words: (run, t) => ({
    meaning: [say(t, 'step.qkNorm.meaning', {}, { claims: [...RMS_ONE, { qkNormEps: 1e-6, states: ['1e-6'] }] })],
    notes: [],
    narration: [say(t, 'step.qkNorm.narration', { dk: size(run, 'd_k') }, { claims: RMS_ONE })],
  }),
  render: (run, kit) => () => [
    kit.row(
      kit.headView('Q_norm', run.T.Q_norm, run.S, run.queryLabels),
      kit.headView('K_norm', run.T.K_norm, run.Skv, run.keyLabels),
    ),
  ],
};
