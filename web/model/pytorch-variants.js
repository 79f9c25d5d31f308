// "Copy as PyTorch" for the modern variants (QK-norm, RoPE, GQA/MQA, softcap,
// ALiBi, sliding window and sinks, the sink logit): the torch 1.13 lines each
// adds to the script of pytorch-script.js, in the engine's pipeline order.
// `v` is the run's settings (runSettings, run-settings.js): qkNorm, rope, ropeBase, gqa, kvHeads,
// softcap, alibi, window, sinkTokens, sinkLogits. Every function returns lines of Python.

const pyNumber = (x) => (Number.isInteger(x) ? String(x) : String(Math.fround(x)));

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
      'def apply_rope(x, angles):  # x * cos + rotate_half(x) * sin, the frequencies repeated over both halves',
      '    emb = torch.cat((angles, angles), dim=-1)  # (S, d_k)',
      '    return x * emb.cos() + rotate_half(x) * emb.sin()',
      '',
    );
  if (v.rope === 'interleaved')
    L.push(
      "def apply_rope(x, angles):  # Meta's form: pairs (2i, 2i+1) rotated by angle i",
      '    even, odd = x[..., 0::2], x[..., 1::2]',
      '    cos, sin = angles.cos(), angles.sin()',
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
      'ropeAngles = torch.outer(torch.arange(S).float(), inv_freq)  # (S, d_k/2): position x frequency',
      `q, k = apply_rope(q, ropeAngles), apply_rope(k, ropeAngles)  # RoPE ${v.rope}`,
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
    V: [...(v.qkNorm ? ['Q_norm', 'K_norm'] : []), ...(v.rope ? ['ropeAngles', 'Q_rope', 'K_rope'] : [])],
    scaled: [...(v.softcap !== null ? ['capped'] : []), ...(v.alibi ? ['alibiBias', 'biased'] : [])],
    weights: v.sinkLogits !== null ? ['sinkWeights'] : [],
    concat: v.outputGate ? ['gateLogits', 'gate', 'gated'] : [],
  };
}
