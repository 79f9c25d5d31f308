// "Copy as PyTorch" for multi-head latent attention (DeepSeek-V2/V3 inference/model.py class MLA, q_lora_rank 0):
// its seven weights drawn as model.py's constructor draws them, the latent and the decoupled RoPE parts, the naive
// or the absorbed path, and the heads through W_O. pytorch-script.js calls these in the engine's order; the RoPE
// helper apply_rope is pytorch-variants.js's.
import { pyNumber } from './pytorch-variants.js';

/** The sizes, after the script's own. */
export const mlaSizeLines = (mla) => [
  `kv_rank, nope, rope_dim, v_dim = ${mla.kvRank}, ${mla.nopeDim}, ${mla.ropeDim}, ${mla.valueDim}  # mla`,
];

/** wq, wkv_a, kv_norm, wkv_b, wo in model.py's order, wkv_a and wkv_b split into the named columns. */
export const mlaWeightLines = () => [
  "# MLA: DeepSeek's seven weights instead of Q, K, V, O, in model.py's order (no biases)",
  'wq = nn.Linear(D, H * (nope + rope_dim), bias=False)',
  'wkv_a = nn.Linear(D, kv_rank + rope_dim, bias=False)',
  'wkv_b = nn.Linear(kv_rank, H * (nope + v_dim), bias=False)',
  'wo = nn.Linear(H * v_dim, D, bias=False)',
  'W_Q = wq.weight.detach().T.clone()  # (D, H·(nope + rope_dim))',
  'W_DKV, W_KR = (w.clone() for w in wkv_a.weight.detach().T.split([kv_rank, rope_dim], dim=1))',
  'kv_norm = torch.ones(kv_rank)  # RMSNorm(kv_rank).weight',
  'per_head = wkv_b.weight.detach().T.reshape(kv_rank, H, nope + v_dim)  # each head: [k_nope | v] columns',
  'W_UK = per_head[..., :nope].reshape(kv_rank, H * nope).clone()',
  'W_UV = per_head[..., nope:].reshape(kv_rank, H * v_dim).clone()',
  'W_O = wo.weight.detach().T.clone()  # (H·v_dim, D)',
];

/** From X to the scaled scores [B, H, S, S_kv]: the latent, the rope parts, and both paths' scores. */
export function mlaScoreLines(rs) {
  const base = pyNumber(rs.ropeBase);
  const [chosen, other] = rs.mla.absorb ? ['absorbedScores', 'naiveScores'] : ['naiveScores', 'absorbedScores'];
  return [
    'Q = X @ W_Q  # (B, S, H·(nope + rope_dim))',
    'q_nope, q_pe = Q.view(B, S, H, nope + rope_dim).split([nope, rope_dim], dim=-1)',
    'latent = X @ W_DKV  # (B, S, kv_rank)',
    'K_pe = X @ W_KR  # (B, S, rope_dim): one key part for every head',
    `inv_freq = 1.0 / (${base} ** (torch.arange(0, rope_dim, 2).float() / rope_dim))`,
    'ropeAngles = torch.outer(torch.arange(S).float(), inv_freq)  # (S, rope_dim/2)',
    `q_pe = apply_rope(q_pe, ropeAngles[:, None])  # (B, S, H, rope_dim), RoPE ${rs.rope}`,
    'Q_pe_rope = q_pe.reshape(B, S, H * rope_dim)',
    'K_pe_rope = apply_rope(K_pe[:, :, None], ropeAngles[:, None])[:, :, 0]  # (B, S, rope_dim)',
    'latentNorm = latent * torch.rsqrt(latent.pow(2).mean(-1, keepdim=True) + 1e-6) * kv_norm  # c, what is cached',
    "# naive path: each head's k = [c @ W_UK | the shared k_pe], v = c @ W_UV",
    'k_nope = (latentNorm @ W_UK).view(B, S, H, nope)',
    'K = torch.cat([k_nope, K_pe_rope[:, :, None].expand(-1, -1, H, -1)], dim=-1).reshape(B, S, H * (nope + rope_dim))',
    'V = latentNorm @ W_UV  # (B, S, H·v_dim)',
    'q = torch.cat([q_nope, q_pe], dim=-1).transpose(1, 2)  # (B, H, S, nope + rope_dim)',
    'naiveScores = q @ K.view(B, S, H, nope + rope_dim).transpose(1, 2).transpose(-2, -1)  # (B, H, S, S_kv)',
    '# absorbed path: q_nope @ W_UK^T per head, scored against the cached c; K and V are never needed',
    'Q_absorbed = torch.einsum("bshd,chd->bshc", q_nope, W_UK.view(kv_rank, H, nope)).reshape(B, S, H * kv_rank)',
    'absorbedScores = torch.einsum("bshc,btc->bhst", Q_absorbed.view(B, S, H, kv_rank), latentNorm) + torch.einsum(',
    '    "bshr,btr->bhst", q_pe, K_pe_rope)',
    `scores, otherPathScores = ${chosen}, ${other}  # mla.absorb ${rs.mla.absorb ? 'True' : 'False'}`,
    'scaled = scores * (nope + rope_dim) ** -0.5  # self.softmax_scale multiplies',
  ];
}

/** A path's weighted sum from its masked scores: (latentContext, context); naive paths have no latentContext. */
const contextLines = (weights, absorb, latentContext, context) =>
  absorb
    ? [
        `${latentContext} = torch.einsum("bhst,btc->bshc", ${weights}, latentNorm).reshape(B, S, H * kv_rank)`,
        `${context} = torch.einsum("bshc,chd->bhsd", ${latentContext}.view(B, S, H, kv_rank), W_UV.view(kv_rank, H, v_dim))`,
      ]
    : [`${context} = ${weights} @ V.view(B, S, H, v_dim).transpose(1, 2)  # (B, H, S, v_dim)`];

/** From the masked scores to the output, then the other path the same way (`otherMasked`: its masking, as Python). */
export const mlaOutputLines = (rs, otherMasked) => [
  'weights = torch.softmax(masked, dim=-1)  # (B, H, S, S_kv)',
  "dropped = weights  # DeepSeek's MLA has no attention dropout",
  'averagedWeights = weights.sum(dim=1) / H  # (B, S, S_kv)',
  ...contextLines('weights', rs.mla.absorb, 'latentContext', 'context'),
  'concat = context.transpose(1, 2).reshape(B, S, H * v_dim)',
  'output = concat @ W_O  # (B, S, D)',
  `# the other path (${rs.mla.absorb ? 'naive' : 'absorbed'}): the same attention, summed in another order`,
  'otherPathScaled = otherPathScores * (nope + rope_dim) ** -0.5',
  `otherPathWeights = torch.softmax(${otherMasked}, dim=-1)`,
  ...contextLines('otherPathWeights', !rs.mla.absorb, 'latentContext', 'otherPathContext'),
  'otherPathOutput = otherPathContext.transpose(1, 2).reshape(B, S, H * v_dim) @ W_O',
];

/** The tensors printed, in the engine's order. */
export const MLA_PRINTED = [
  'Q',
  'K',
  'V',
  'ropeAngles',
  'latent',
  'latentNorm',
  'K_pe',
  'Q_pe_rope',
  'K_pe_rope',
  'Q_absorbed',
  'scores',
  'otherPathScores',
  'scaled',
  'mask',
  'masked',
  'weights',
  'dropped',
  'averagedWeights',
  'latentContext',
  'context',
];
