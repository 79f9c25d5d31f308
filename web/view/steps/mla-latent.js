// Step "mlalatent": multi-head latent attention's query and latent (DeepSeek-V2/V3 inference/model.py MLA).
//   Q = X @ W_Q                                                   # [B, S, H·(nope + rope)]   self.wq(x)
//   latent, K_pe = torch.split(X @ [W_DKV | W_KR], [kv_rank, rope])   # [B, S, kv_rank], [B, S, rope]   self.wkv_a(x)
//   latentNorm = latent * torch.rsqrt(latent.pow(2).mean(-1, keepdim=True) + 1e-6) * kv_norm   # c, what is cached
import { say } from '../../model/words.js';
import { sentenceStart } from '../../model/selection.js';
import { axis, cell, derived } from './quotes.js';

/** Row i of sentence b of a [B, S, width] tensor. */
export const tokenRow = (run, name, i) => {
  const tensor = run.T[name];
  const width = tensor.shape[2];
  const start = sentenceStart(tensor, run.b) + i * width;
  return tensor.data.subarray(start, start + width);
};

/** The query row the MLA steps follow: the followed token, else the last one. */
export const mlaRow = (run) => run.focus ?? run.S - 1;

function narrationOf(run, t) {
  // A run without MLA (the step does not apply; a teaching mode may still ask for its words).
  if (!run.mla) return say(t, 'mla.off');
  const { b } = run;
  const i = mlaRow(run);
  const latent = tokenRow(run, 'latent', i);
  const rms = Math.sqrt(latent.reduce((sum, x) => sum + x * x, 0) / latent.length);
  return say(t, 'step.mlalatent.narration', {
    token: run.queryLabels[i],
    kv: axis(run, 'latent', 2),
    rms: derived(rms, 'latentRms', { b, i }),
    a: cell(run, 'latent', [b, i, 0], latent[0]),
    c: cell(run, 'latentNorm', [b, i, 0], tokenRow(run, 'latentNorm', i)[0]),
    w: cell(run, 'kv_norm', [0], run.T.kv_norm.data[0]),
    r: axis(run, 'K_pe', 2),
  });
}

// The step's key, name, chapter and when it applies are its stub's (registry.js), which loads this code.
export default {
  shapes: [
    { of: 'Q', axes: ['B', 'S', 'H·d_k'] },
    { of: 'c', axes: ['B', 'S', 'kvRank'] },
  ],
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: (run) =>
    ['Q', 'latent', 'latentNorm', 'K_pe'].map((name) => ({ name, rows: run.S, cols: run.T[name].shape[2] })),
  formula: () => 'Q = X·W_{Q},  c = RMSNorm(X·W_{DKV}) ⊙ kv_{norm},  k_{pe} = X·W_{KR}',
  words: (run, t) => ({
    meaning: [say(t, 'step.mlalatent.meaning')],
    notes: [],
    narration: [narrationOf(run, t)],
  }),
  render: (run, kit) => () => [
    kit.row(kit.group(kit.heading('Q'), kit.sentenceMatrix('Q', run.queryLabels, kit.headBands))),
    kit.row(
      ...['latent', 'latentNorm', 'K_pe'].map((name) =>
        kit.group(kit.heading(name), kit.sentenceMatrix(name, run.queryLabels)),
      ),
    ),
  ],
};
