// English strings of the variants' steps (view/steps/qk-norm.js, rope.js, softcap.js, alibi.js, gate.js, and
// their figures): registered by steps/variant-steps.js, loaded with the first run that has one of them.
export default {
  'step.qkNorm.title': 'QK-norm: RMSNorm of q and k',
  'step.qkNorm.meaning':
    'Each head’s q and k rows are divided by their root mean square over d_k (eps 1e-6, weight ones): every row then has RMS 1, so the scores stay bounded however large the projections grow.',
  'step.qkNorm.narration':
    'Each row of q and of k is divided by the root mean square of its {dk} numbers in its head, so every row now has RMS 1.',
  'step.rope.title': 'RoPE: rotary position embedding',
  'step.rope.meaning':
    'Each pair of q’s and k’s features is turned by an angle that grows with the token’s position: position m turns pair i by m·θ_i. The score of q at m with k at n then depends only on the distance m − n, not on where the pair sits.',
  'step.rope.narration':
    'Every q and k of head {head} is rotated pair by pair, by its position times each pair’s frequency. Nothing is added to X: the position lives in the angle between q and k.',
  'step.gate.title': 'Output gate: concat ⊙ σ(X·W_G)',
  'step.gate.meaning':
    'Before W_O mixes the heads, each of their numbers is multiplied by a gate between 0 and 1 that the token’s own input sets: σ(X·W_G). Qwen3-Next gates its attention output this way, so a head can shut off what it would add.',
  'step.gate.narration.off':
    'This run has no output gate: turn on “Output gate” in the settings to multiply the joined heads by σ(X·W_G).',
  'step.gate.narration':
    'For “{token}”, the first number of the joined heads becomes {concat} × {gate} = {gated}: a gate almost closed shuts a number out of W_O’s mix, one almost open lets it through.',
  'step.softcap.title': 'Softcap: c·tanh(scaled / c)',
  'step.softcap.meaning':
    'The scaled scores pass through c·tanh(x / c): almost unchanged when small, squeezed towards ±c when large, so no single score can take over the softmax.',
  'step.softcap.narration':
    'Each scaled score x of head {head} becomes c·tanh(x / c): small scores pass almost unchanged, large ones are squeezed below c.',
  'step.alibi.title': 'ALiBi: a linear bias by distance',
  'step.alibi.meaning':
    'No position embedding: each head adds −m_h·(i − j) to its scores, a penalty that grows with the distance between query and key, steep in the first heads and gentle in the last.',
  'step.alibi.narration':
    'Head {head} subtracts its slope times the distance i − j from every score, so far keys lose more. Each of the {H} heads has its own slope.',
  'step.alibi.narration.one':
    'Head {head} subtracts its slope times the distance i − j from every score, so far keys lose more.',
  'rope.angles': 'Angles θ[m, i] = m · base^(−2i/d_k), base {base}',
  'rope.angles.scaled': 'Angles θ[m, i] = m · θ′_i, the frequencies after {type} scaling',
  'rope.scaling.caption': 'The frequencies before and after {type} scaling, and their wavelengths 2π/θ (in positions)',
  'rope.scaling.column.pair': 'pair',
  'rope.scaling.column.before': 'θ_i before',
  'rope.scaling.column.after': 'θ′_i after',
  'rope.scaling.column.ratio': 'θ′_i / θ_i',
  'rope.scaling.column.wavelengthBefore': 'wavelength before',
  'rope.scaling.column.wavelengthAfter': 'wavelength after',
  'rope.scaling.column.kind': 'what scaling did',
  'rope.scaling.name.linear': 'linear',
  'rope.scaling.name.dynamic': 'dynamic NTK',
  'rope.scaling.name.yarn': 'YaRN',
  'rope.scaling.kind.kept': 'kept',
  'rope.scaling.kind.interpolated': 'interpolated',
  'rope.scaling.kind.blended': 'blended',
  'rope.scaling.kind.slowed': 'slowed',
  'rope.scaling.linear':
    'Linear scaling divides every frequency by {factor}: position m turns each pair as far as position m / {factor} did before.',
  'rope.scaling.dynamic':
    'Dynamic NTK: S = {S} is more than the original {original} positions, so the base grows from {base} to {ntkBase}; the first pair keeps its frequency, the others slow down.',
  'rope.scaling.dynamicShort':
    'Dynamic NTK: S = {S} is within the original {original} positions, so the base stays {ntkBase} and the frequencies are the trained ones.',
  'rope.scaling.yarn':
    'YaRN keeps the fast pairs as trained (over β_fast = {betaFast} turns in {original} positions: {kept} here), interpolates the slow ones by 1/{factor} (under β_slow = {betaSlow}: {interpolated}) and blends those in between ({blended}); cos and sin are multiplied by {attentionFactor}.',
  'rope.scaling.wavelengths':
    'The scaling changes {changed} of the {half} frequencies; the longest wavelength goes from {longestBefore} to {longestAfter} positions.',
  'rope.pairs.rotate-half': 'Pairs (i, i + d_k/2): x·cos θ + rotate_half(x)·sin θ (Hugging Face, GPT-NeoX)',
  'rope.pairs.interleaved': 'Pairs (2i, 2i + 1), Meta’s original form',
  'rope.same.title': 'Same distance, same score',
  'rope.same':
    'The same q (of “{q}”) and k (of “{k}”), placed at positions ({m1}, {n1}) and at ({m2}, {n2}): the distance is {d} both times.',
  'rope.same.engine': 'The engine’s score at ({m1}, {n1}): {engine}.',
  'rope.same.none':
    'With {S} position(s) there is no second pair at the distance of ({m}, {n}): it is the only one, so there is nothing to compare its score with.',
  'alibi.slopes': 'Each head’s slope m_h',
  'alibi.slope': 'head {h}: m = {m}',
  'alibi.heads': 'The bias of every head (−m_h·(i − j))',
};
