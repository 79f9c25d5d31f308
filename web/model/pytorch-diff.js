// "Copy as PyTorch" for differential attention (Diff Transformer, microsoft/unilm multihead_diffattn.py, with
// num_kv_heads = num_heads and no rotary step): its weights' draw, its two maps per head, A = A₁ − λ·A₂, and
// the head output RMSNorm(A·V)·subln·(1 − λ_init). pytorch-script.js calls these in the engine's order.

/** The λ vectors drawn after every other weight (unilm's order), subln ones; λ_init from the layer's depth. */
export function diffWeightLines(rs, allGiven) {
  return [
    '# Differential attention (diff.depth): lambda_q1, lambda_k1, lambda_q2, lambda_k2 ~ N(0, 0.1) after the other',
    '# weights (multihead_diffattn.py), subln = RMSNorm(2d).weight = ones; d = d_k // 2',
    'd = d_k // 2',
    ...(allGiven
      ? []
      : [
          'lambda_q1 = torch.zeros(d).normal_(mean=0, std=0.1)',
          'lambda_k1 = torch.zeros(d).normal_(mean=0, std=0.1)',
          'lambda_q2 = torch.zeros(d).normal_(mean=0, std=0.1)',
          'lambda_k2 = torch.zeros(d).normal_(mean=0, std=0.1)',
          'subln = torch.ones(2 * d)',
        ]),
    `lambda_init = 0.8 - 0.6 * math.exp(-0.3 * ${rs.diffDepth})  # depth ${rs.diffDepth}`,
  ];
}

/** Head h's two half-heads 2h, 2h + 1 of q and k, its value the whole 2d, the two maps' scaled scores. */
export const diffScoreLines = () => [
  'q = Q.view(B, S, 2 * H, d).transpose(1, 2)  # (B, 2H, S, d): head h is half-heads 2h, 2h + 1',
  'k = K.view(B, S_kv, 2 * H, d).transpose(1, 2)  # (B, 2H, S_kv, d)',
  'v = V.view(B, S_kv, H, 2 * d).transpose(1, 2)  # (B, H, S_kv, 2d)',
  'halfScores = q @ k.transpose(-1, -2)  # (B, 2H, S, S_kv), before the scaling',
  'halfScaled = torch.nan_to_num((q * d**-0.5) @ k.transpose(-1, -2))  # q *= self.scaling first',
];

/** From the two maps' weights to the output: A = A₁ − λ·A₂, A·V, RMSNorm, 1 − λ_init, concat, W_O. */
export const diffOutputLines = (output) => [
  'halfWeights = torch.softmax(halfMasked, dim=-1)  # (B, 2H, S, S_kv)',
  'lambdaFull = torch.exp(torch.sum(lambda_q1 * lambda_k1)) - torch.exp(torch.sum(lambda_q2 * lambda_k2)) + lambda_init',
  'maps = halfWeights.view(B, H, 2, S, S_kv)',
  'weights = maps[:, :, 0] - lambdaFull * maps[:, :, 1]  # (B, H, S, S_kv): rows sum to 1 - lambda',
  'dropped = weights  # the Diff Transformer has no attention dropout',
  'averagedWeights = weights.sum(dim=1) / H  # (B, S, S_kv)',
  'context = weights @ v  # (B, H, S, 2d)',
  'contextNorm = context * torch.rsqrt(context.pow(2).mean(-1, keepdim=True) + 1e-5) * subln  # RMSNorm(2d)',
  'contextScaled = contextNorm * (1 - lambda_init)',
  'concat = contextScaled.transpose(1, 2).contiguous().view(B, S, D)',
  output,
];

/** The tensors printed, in the page's order. */
export const DIFF_PRINTED = [
  'Q',
  'K',
  'V',
  'halfScores',
  'halfScaled',
  'mask',
  'halfMasked',
  'halfWeights',
  'lambdaFull',
  'weights',
  'dropped',
  'averagedWeights',
  'context',
  'contextNorm',
  'contextScaled',
];
