// "Copy as PyTorch" for the modern variants (QK-norm, RoPE, GQA/MQA, softcap,
// ALiBi, sliding window and sinks, the sink logit): the torch 1.13 lines each
// adds to the script of pytorch-script.js, in the engine's pipeline order.
// `v` is the run's settings (runSettings, run-settings.js): qkNorm, rope, ropeBase, gqa, kvHeads,
// softcap, alibi, window, sinkTokens, sinkLogits. Every function returns lines of Python.

/** A number as the scripts write it: an integer as is, another as the float32 the engine uses. */
export const pyNumber = (x) => (Number.isInteger(x) ? String(x) : String(Math.fround(x)));

/** Functions the script calls, defined before the computation. */
export function variantHelpers(v) {
  const L = [];
  if (v.qkNorm)
    L.push(
      "def rms_norm(x):  # QK-norm: RMSNorm over each head's d_k features, eps 1e-6, weight ones",
      '    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)',
      '',
    );
  if (v.rope === 'rotate-half')
    L.push(
      'def rotate_half(x):  # Hugging Face / GPT-NeoX: (-second half, first half)',
      '    half = x.shape[-1] // 2',
      '    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)',
      '',
      'def apply_rope(x, angles, scale=1.0):  # x * cos + rotate_half(x) * sin, the frequencies over both halves',
      '    emb = torch.cat((angles, angles), dim=-1)  # (S, d_k)',
      '    return x * (emb.cos() * scale) + rotate_half(x) * (emb.sin() * scale)',
      '',
    );
  if (v.rope === 'interleaved')
    L.push(
      "def apply_rope(x, angles, scale=1.0):  # Meta's form: pairs (2i, 2i+1) rotated by angle i",
      '    even, odd = x[..., 0::2], x[..., 1::2]',
      '    cos, sin = angles.cos() * scale, angles.sin() * scale',
      '    return torch.stack((even * cos - odd * sin, even * sin + odd * cos), dim=-1).flatten(-2)',
      '',
    );
  if (v.alibi)
    L.push(
      'def alibi_slopes(n):  # the ALiBi paper: 2^(-8h/n) for a power of two, else its interleaving rule',
      '    def power_of_2(m):',
      '        start = 2 ** (-(2 ** -(math.log2(m) - 3)))',
      '        return [start * start ** i for i in range(m)]',
      '    if math.log2(n).is_integer():',
      '        return torch.tensor(power_of_2(n))',
      '    closest = 2 ** math.floor(math.log2(n))',
      '    return torch.tensor(power_of_2(closest) + power_of_2(2 * closest)[0::2][: n - closest])',
      '',
    );
  return L;
}

/**
 * rope.scaling on inv_freq, as transformers' modeling_rope_utils.py computes it (a scaling number written as
 * the engine holds it, a double: "4" stays a Python int, as in a config.json).
 */
function ropeScalingLines(v) {
  const s = v.ropeScaling;
  if (!s) return [];
  const base = pyNumber(v.ropeBase);
  const before = 'ropeInvFreqBase = inv_freq  # the trained frequencies';
  const after = ['ropeInvFreq = inv_freq  # what the angles use'];
  const unscaledFactor = 'ropeAttentionFactor = torch.tensor(1.0)  # cos and sin as they are';
  if (s.type === 'linear')
    return [
      before,
      `inv_freq = inv_freq / ${s.factor}  # rope.scaling linear: position p turns as p / factor did`,
      ...after,
      unscaledFactor,
    ];
  if (s.type === 'dynamic')
    return [
      before,
      `ropeNtkBase = torch.tensor(float(${base}))`,
      `if S > ${s.originalMaxPositions}:  # dynamic NTK: the base grows once S passes originalMaxPositions`,
      `    ropeNtkBase = ${base} * ((${s.factor} * torch.tensor(S) / ${s.originalMaxPositions}) - (${s.factor} - 1)) ** (d_k / (d_k - 2))`,
      '    inv_freq = 1.0 / (ropeNtkBase ** (torch.arange(0, d_k, 2).float() / d_k))',
      ...after,
      unscaledFactor,
    ];
  return [
    before,
    '# YaRN: pairs that turn fewer than beta_slow times over the original length are interpolated (/ factor),',
    '# pairs that turn more than beta_fast times are kept, a linear ramp blends those between',
    `pos_freqs = ${base} ** (torch.arange(0, d_k, 2).float() / d_k)`,
    `def correction_dim(rotations):`,
    `    return (d_k * math.log(${s.originalMaxPositions} / (rotations * 2 * math.pi))) / (2 * math.log(${base}))`,
    s.truncate
      ? `low, high = max(math.floor(correction_dim(${s.betaFast})), 0), min(math.ceil(correction_dim(${s.betaSlow})), d_k - 1)`
      : `low, high = max(correction_dim(${s.betaFast}), 0), min(correction_dim(${s.betaSlow}), d_k - 1)  # truncate=False, as gpt-oss`,
    'if low == high:',
    '    high += 0.001',
    'ramp = torch.clamp((torch.arange(d_k // 2, dtype=torch.float32) - low) / (high - low), 0, 1)',
    'ropeExtrapolationFactor = 1 - ramp  # 1: kept, 0: interpolated',
    `inv_freq = 1.0 / (${s.factor} * pos_freqs) * (1 - ropeExtrapolationFactor) + 1.0 / pos_freqs * ropeExtrapolationFactor`,
    `attention_factor = 0.1 * math.log(${s.factor}) + 1.0  # cos and sin are multiplied by it`,
    ...after,
    'ropeAttentionFactor = torch.tensor(attention_factor)',
  ];
}

/** After q, k, v are split into heads: QK-norm, RoPE, then the GQA repeat. Indented by the caller. */
export function qkLines(v) {
  const L = [];
  const merge = (t, heads, len) => `${t}.transpose(1, 2).reshape(B, ${len}, ${heads} * d_k)`;
  const kvHeads = v.gqa ? 'H_kv' : 'H';
  if (v.qkNorm)
    L.push(
      'q, k = rms_norm(q), rms_norm(k)',
      `Q_norm, K_norm = ${merge('q', 'H', 'S')}, ${merge('k', kvHeads, 'S_kv')}`,
    );
  if (v.rope)
    L.push(
      `inv_freq = 1.0 / (${pyNumber(v.ropeBase)} ** (torch.arange(0, d_k, 2).float() / d_k))  # (d_k/2,)`,
      ...ropeScalingLines(v),
      'ropeAngles = torch.outer(torch.arange(S).float(), inv_freq)  # (S, d_k/2): position x frequency',
      v.ropeScaling?.type === 'yarn'
        ? `q, k = apply_rope(q, ropeAngles, attention_factor), apply_rope(k, ropeAngles, attention_factor)  # RoPE ${v.rope}`
        : `q, k = apply_rope(q, ropeAngles), apply_rope(k, ropeAngles)  # RoPE ${v.rope}`,
      `Q_rope, K_rope = ${merge('q', 'H', 'S')}, ${merge('k', kvHeads, 'S_kv')}`,
    );
  if (v.gqa)
    L.push(
      '# grouped-query attention: query head h reads KV head h // (H // H_kv): repeat_interleave, not .repeat',
      'k = k.repeat_interleave(H // H_kv, dim=1)  # (B, H, S_kv, d_k)',
      'v = v.repeat_interleave(H // H_kv, dim=1)',
    );
  return L;
}

/** After `scaled`: softcap and the ALiBi bias. Returns the lines and the name the mask applies to. */
export function scoreLines(v) {
  const L = [];
  let last = 'scaled';
  if (v.softcap !== null) {
    L.push(`capped = ${pyNumber(v.softcap)} * torch.tanh(scaled / ${pyNumber(v.softcap)})  # logit soft-capping`);
    last = 'capped';
  }
  if (v.alibi) {
    L.push(
      'distance = (torch.arange(S)[:, None] - torch.arange(S_kv)[None, :]).float()  # i - j',
      'alibiBias = -alibi_slopes(H)[:, None, None] * distance  # (H, S, S_kv)',
      `biased = ${last} + alibiBias`,
    );
    last = 'biased';
  }
  return { lines: L, last };
}

/** The sliding window (and its sinks) in the `mask` of 1 = blocked. */
export function windowLines(v) {
  if (v.window === null) return [];
  const sinks = v.sinkTokens > 0 ? ` & (j >= ${v.sinkTokens})` : '';
  return [
    `i, j = torch.arange(S)[:, None], torch.arange(S_kv)[None, :]`,
    `outside = ((i - j >= ${v.window})${sinks}).float()  # window ${v.window}${v.sinkTokens > 0 ? `, the first ${v.sinkTokens} keys are sinks` : ''}`,
    'mask = torch.maximum(mask, outside)',
  ];
}

/** The softmax, with the sink column when there is one, and the dropout after it. */
export function softmaxLines(v) {
  if (v.sinkLogits === null)
    return {
      softmax: ['weights = torch.softmax(masked, dim=-1)'],
      dropout: 'dropped = dropout(weights)',
    };
  return {
    softmax: [
      ...(v.sinkPerHead
        ? [
            `sinks = torch.tensor([${v.sinkLogits.map(pyNumber).join(', ')}])  # one learned logit per head (gpt-oss)`,
            'sink = sinks.reshape(1, H, 1, 1).expand(B, H, S, 1)  # one extra logit per row, no value',
          ]
        : [`sink = torch.full((B, H, S, 1), ${pyNumber(v.sinkLogits[0])})  # one extra logit per row, no value`]),
      'probs = torch.softmax(torch.cat([masked, sink], dim=-1), dim=-1)  # (B, H, S, S_kv + 1)',
      'weights, sinkWeights = probs[..., :S_kv], probs[..., S_kv]  # a row of weights sums to 1 - its sink weight',
    ],
    dropout: v.sinkPerHead
      ? 'dropped = dropout(weights)  # gpt-oss drops the sink column first: dropout draws over S_kv columns'
      : 'dropped = dropout(probs)[..., :S_kv]  # dropout draws over S_kv + 1 columns, as add_zero_attn does',
  };
}

/** The variants' tensor names, each placed after the engine tensor it follows. */
export function variantTensors(v) {
  return {
    V: [
      ...(v.qkNorm ? ['Q_norm', 'K_norm'] : []),
      ...(v.ropeScaling
        ? [
            'ropeInvFreqBase',
            'ropeInvFreq',
            'ropeAttentionFactor',
            ...(v.ropeScaling.type === 'yarn' ? ['ropeExtrapolationFactor'] : []),
            ...(v.ropeScaling.type === 'dynamic' ? ['ropeNtkBase'] : []),
          ]
        : []),
      ...(v.rope ? ['ropeAngles', 'Q_rope', 'K_rope'] : []),
    ],
    scaled: [...(v.softcap !== null ? ['capped'] : []), ...(v.alibi ? ['alibiBias', 'biased'] : [])],
    weights: v.sinkLogits !== null ? ['sinkWeights'] : [],
    concat: v.outputGate ? ['gateLogits', 'gate', 'gated'] : [],
  };
}
