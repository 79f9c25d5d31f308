// Step "mlacache": what MLA's KV cache keeps per token (DeepSeek's absorbed decoding: kv_cache and pe_cache).
//   kv_cache[:, t] = latentNorm[:, t]   # [kv_rank]
//   pe_cache[:, t] = K_pe_rope[:, t]    # [rope]: kv_rank + rope numbers per token, against 2·H·d_k for K and V
// The steppers of this chapter (kv-cache.js, flash.js) step one K and V per head: with MLA this step stands in.
import { say, whole } from '../../model/words.js';
import { DEEPSEEK_V3, mhaCachePerToken, mlaCachePerToken } from '../../model/variant-math.js';
import { axis, derived, size } from './quotes.js';
import { mlaRow } from './mla-latent.js';

/** A DeepSeek-V3 size or count, as the claims test reads it from the reference's fixture. */
const v3 = (value, key) => whole(value, { deepseekV3: key });

/** The cache's counts per token as quotes: MLA's, multi-head attention's at this width, DeepSeek-V3's. */
function cacheQuotes(run) {
  const perToken = mlaCachePerToken(run.rs.mla);
  const headDim = run.D / run.H; // the heads of multi-head attention at this dModel
  const real = { mla: mlaCachePerToken(DEEPSEEK_V3), mha: mhaCachePerToken(DEEPSEEK_V3.numHeads, DEEPSEEK_V3.nopeDim) };
  return {
    perToken: derived(perToken, 'mlaCachePerToken'),
    kv: axis(run, 'latentNorm', 2),
    r: axis(run, 'K_pe_rope', 2),
    H: size(run, 'H'),
    dk: derived(headDim, 'mhaHeadDim'),
    mha: derived(mhaCachePerToken(run.H, headDim), 'mhaCachePerToken'),
    v3kv: v3(DEEPSEEK_V3.kvRank, 'kvRank'),
    v3r: v3(DEEPSEEK_V3.ropeDim, 'ropeDim'),
    v3mla: v3(real.mla, 'mla'),
    v3H: v3(DEEPSEEK_V3.numHeads, 'numHeads'),
    v3dk: v3(DEEPSEEK_V3.nopeDim, 'nopeDim'),
    v3mha: v3(real.mha, 'mha'),
  };
}

function narrationOf(run, t) {
  if (!run.mla) return say(t, 'mla.off');
  const i = mlaRow(run);
  const tokens = i + 1;
  const quotes = cacheQuotes(run);
  return say(t, 'step.mlacache.narration', {
    ...quotes,
    token: run.queryLabels[i],
    n: derived(tokens, 'tokensSoFar', { i }),
    mlaTotal: derived(tokens * quotes.perToken.value, 'mlaCacheAfter', { i }),
    mhaTotal: derived(tokens * quotes.mha.value, 'mhaCacheAfter', { i }),
  });
}

// The step's key, name, chapter and when it applies are its stub's (registry.js), which loads this code.
export default {
  shapes: [{ axes: ['S', 'kvRank + ropeDim'] }],
  figures: (run) =>
    ['latentNorm_cache', 'K_pe_rope_cache'].map((name, k) => ({
      name,
      rows: run.S,
      cols: run.T[k ? 'K_pe_rope' : 'latentNorm'].shape[2],
    })),
  formula: () => 'cache_{t} = [c_{t} | k_{pe,t}] ∈ ℝ^{kv_{rank} + d_{rope}},  [k_{t} | v_{t}]_{MHA} ∈ ℝ^{2·d_{model}}',
  words: (run, t) => ({
    meaning: [say(t, 'step.mlacache.meaning')],
    // Under the step's title as it scrolls by: the numbers per token, here and at DeepSeek-V3's size.
    notes: run.mla ? [say(t, 'step.mlacache.counts', cacheQuotes(run))] : [],
    narration: [narrationOf(run, t)],
  }),
  render: (run, kit) => () => [
    kit.row(
      ...['latentNorm', 'K_pe_rope'].map((name) =>
        kit.group(
          kit.t(`mla.cache.${name}`),
          kit.sentenceMatrix(name, run.queryLabels, { figureName: `${name}_cache` }),
        ),
      ),
    ),
  ],
};
