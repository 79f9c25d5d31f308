// Step "mlarope": MLA's decoupled RoPE: only the rope part of each head's query, and one key part for every head.
//   ropeAngles = torch.outer(torch.arange(S).float(), inv_freq)   # [S, rope/2], inv_freq over rope numbers
//   Q_pe_rope = apply_rotary_emb(q_pe, freqs_cis)                 # [B, S, H·rope]
//   K_pe_rope = apply_rotary_emb(K_pe.unsqueeze(2), freqs_cis)    # [B, S, rope]: shared by the heads
import { say } from '../../model/words.js';
import { features } from './run-context.js';
import { axis, cell, headNumber, size } from './quotes.js';
import { mlaRow, tokenRow } from './mla-latent.js';

function narrationOf(run, t) {
  if (!run.mla) return say(t, 'mla.off');
  const { b, h } = run;
  const i = mlaRow(run);
  const r = run.T.K_pe_rope.shape[2];
  return say(t, 'step.mlarope.narration', {
    r: axis(run, 'K_pe_rope', 2),
    dk: size(run, 'd_k'),
    token: run.queryLabels[i],
    head: headNumber(run),
    q: cell(run, 'Q_pe_rope', [b, i, h * r], tokenRow(run, 'Q_pe_rope', i)[h * r]),
    angle: cell(run, 'ropeAngles', [i, 0], run.T.ropeAngles.data[i * (r / 2)]),
    k: cell(run, 'K_pe_rope', [b, i, 0], tokenRow(run, 'K_pe_rope', i)[0]),
  });
}

// The step's key, name, chapter and when it applies are its stub's (registry.js), which loads this code.
export default {
  shapes: [
    { of: 'q_pe', axes: ['B', 'S', 'H·ropeDim'] },
    { of: 'k_pe', axes: ['B', 'S', 'ropeDim'] },
  ],
  figures: (run) => [
    { name: 'ropeAngles', rows: run.S, cols: run.T.ropeAngles.shape[1] },
    { name: 'Q_pe_rope_h', rows: run.S, cols: run.T.K_pe_rope.shape[2] },
    { name: 'K_pe_before_rope', rows: run.S, cols: run.T.K_pe.shape[2] },
    { name: 'K_pe_rope', rows: run.S, cols: run.T.K_pe_rope.shape[2] },
  ],
  formula: () => 'q_{pe,h} = RoPE(q_{h}[d_{nope}:]),  k_{pe} = RoPE(X·W_{KR})',
  words: (run, t) => ({
    meaning: [say(t, 'step.mlarope.meaning')],
    notes: [],
    narration: [narrationOf(run, t)],
  }),
  render(run, kit) {
    const r = run.T.K_pe_rope.shape[2];
    const angles = run.T.ropeAngles;
    return () => [
      kit.row(
        kit.group(
          kit.heading('ropeAngles'),
          kit.matrix('ropeAngles', angles, 0, run.S, angles.shape[1], run.queryLabels, features(angles.shape[1], 'f')),
        ),
        kit.headView('Q_pe_rope', run.T.Q_pe_rope, run.S, run.queryLabels, 'Q_pe_rope_h', r),
      ),
      kit.row(
        // K_pe again, before its rotation (the latent's step showed it): a figure name of its own on the page.
        kit.group(kit.heading('K_pe'), kit.sentenceMatrix('K_pe', run.queryLabels, { figureName: 'K_pe_before_rope' })),
        kit.group(kit.heading('K_pe_rope'), kit.sentenceMatrix('K_pe_rope', run.queryLabels)),
      ),
    ];
  },
};
