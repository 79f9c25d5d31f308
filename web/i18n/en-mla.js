// English strings of multi-head latent attention's steps (view/steps/mla-*.js): registered by
// steps/mla-steps.js, loaded with the first MLA run, so they travel with the steps' code.
export default {
  'step.mlalatent.title': 'Multi-head latent attention: one latent per token',
  'step.mlalatent.meaning':
    'DeepSeek’s multi-head latent attention (MLA) squeezes each token into one short latent vector c: the keys and values of every head are expanded from it, so a model generating text caches c instead of every head’s K and V. The query is projected as usual, each head’s part split into numbers that meet the latent’s keys and numbers that carry the position.',
  'step.mlalatent.short': 'MLA: latent',
  'step.mlalatent.narration':
    '“{token}” is squeezed into one latent of {kv} numbers, X·W_DKV, then normalized: RMSNorm divides the row by its root mean square {rms} and multiplies by kv_norm, so its first number goes {a} → {c} (kv_norm {w}). Every head’s keys and values will be made from these {kv} numbers. The key part that carries the position, K_pe ({r} numbers), comes straight from X and is shared by all the heads.',
  'mla.off':
    'This run has no multi-head latent attention: set “MLA: latent size kvRank” and the three sizes after it in the settings, with a RoPE style, to see it.',
  'step.mlarope.title': 'Multi-head latent attention: decoupled RoPE',
  'step.mlarope.meaning':
    'A rotation that depends on the position cannot be folded into the matrix that expands the latent, so MLA keeps the position apart: only the last ropeDim numbers of each head’s query are rotated, and the keys get one rotated part, X·W_KR, that every head shares.',
  'step.mlarope.short': 'MLA: RoPE',
  'step.mlarope.narration':
    'Only the last {r} of each head’s {dk} query numbers turn with the position. For “{token}”, head {head}’s rotated part starts at {q}, turned by an angle of {angle} in its first pair. On the key side there is one rotated part for all heads: {k} for “{token}”. The latent itself carries no position.',
  'step.mlapaths.title': 'Multi-head latent attention: naive and absorbed, the same scores',
  'step.mlapaths.meaning':
    'There are two ways to the same scores. Naive: expand every key from the latent, k = [c·W_UK | k_pe], and take q·k. Absorbed, as DeepSeek decodes: since q·(c·W_UK) = (q·W_UKᵀ)·c, move W_UK to the query side once and score the cached latents directly; V = c·W_UV is applied after the weighted sum. The keys and values are never formed.',
  'step.mlapaths.short': 'MLA: two paths',
  'step.mlapaths.narration':
    'Head {head}, naive: each key is [c·W_UK | k_pe], {dk} numbers, and “{token}” scores {naive} against itself. Absorbed: the query becomes Q_absorbed, {kv} numbers that meet the cached latent itself, and the same score comes out as {absorbed}. The two paths differ by at most {scoresApart} on head {head}’s scores and {outputApart} on the output: rounding error, as they add the same products in another order.',
  'mla.path.naive': 'Naive: keys and values expanded from the latent',
  'mla.path.absorbed': 'Absorbed: W_UK moved to the query side',
  'mla.path.naiveScores': 'Naive path: scores q·k',
  'mla.path.absorbedScores': 'Absorbed path: scores Q_absorbed·c + q_pe·k_pe',
  'step.mlacache.title': 'Multi-head latent attention: the cache per token',
  'step.mlacache.meaning':
    'When a model generates text it keeps, for every token so far, what later queries need. Multi-head attention keeps each head’s key and value; MLA keeps the latent c and the one rotated key part, and rebuilds everything else from them.',
  'step.mlacache.short': 'MLA: cache',
  'step.mlacache.narration':
    'MLA caches {perToken} numbers per token: the latent c ({kv}) and the rotated key part ({r}). Multi-head attention at the same width caches K and V for {H} heads of {dk} numbers: 2 × {H} × {dk} = {mha}. Up to “{token}” ({n} tokens) that is {mlaTotal} numbers against {mhaTotal}. At DeepSeek-V3’s size it is {v3kv} + {v3r} = {v3mla} numbers per token and layer, against 2 × {v3H} × {v3dk} = {v3mha}.',
  'mla.cache.latentNorm': 'Cached: the latent c',
  'mla.cache.K_pe_rope': 'Cached: the rotated key part',
  'step.mlapaths.apart':
    'Naive and absorbed, the same attention: their largest difference is {scoresApart} on head {head}’s scores and {outputApart} on the output (rounding error).',
  'step.mlacache.counts':
    'Cached per token: MLA {perToken} numbers (c {kv} + k_pe {r}), multi-head attention 2 × {H} × {dk} = {mha}. At DeepSeek-V3’s size: {v3kv} + {v3r} = {v3mla} against 2 × {v3H} × {v3dk} = {v3mha}.',
};
