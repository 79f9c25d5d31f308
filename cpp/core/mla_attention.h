// Multi-head latent attention (DeepSeek-V2/V3 inference/model.py class MLA with q_lora_rank 0, start_pos 0,
// the caches being this forward's keys; validate.cpp's checkMla refuses the rest): the stage that stands where
// attention.cpp's projections and heads stand when config.mlaKvRank is set. Shapes: B batch, S tokens (self-
// attention), D dModel, H heads; c = kvRank, n = nopeDim, r = ropeDim, vd = valueDim.
#pragma once

#include <cstdint>

#include "attention_stages.h"
#include "buffers.h"
#include "softmax.h"

namespace attention_lab {

struct MlaSizes {
  int64_t kvRank = 0, nope = 0, rope = 0, value = 0;
  int64_t qkHeadDim() const { return nope + rope; }  // self.qk_head_dim
};
MlaSizes mlaSizesOf(const AttentionConfig& c);

// self.softmax_scale = self.qk_head_dim ** -0.5 (Python's double power; the scores are multiplied by it).
double mlaSoftmaxScale(const AttentionConfig& c);

// Every tensor of the layer into m, from m.x [B, S, D], m.w and the mask [B, S, S_kv] (m.mask, empty without one):
//   Q = X @ W_Q                                              # [B, S, H·(n + r)]   self.wq(x)
//   q_nope, q_pe = Q.view(B, S, H, n + r).split([n, r], -1)
//   latent = X @ W_DKV; K_pe = X @ W_KR                      # [B, S, c], [B, S, r]  split(self.wkv_a(x), [c, r])
//   ropeAngles [S, r/2]; Q_pe_rope = RoPE(q_pe) [B, S, H·r]; K_pe_rope = RoPE(K_pe) [B, S, r]
//   latentNorm = latent * torch.rsqrt(latent.pow(2).mean(-1, keepdim=True) + 1e-6) * kv_norm   # self.kv_norm
//   naive:    K = cat(latentNorm @ W_UK (per head), K_pe_rope.expand(H))   # [B, S, H·(n + r)]
//             V = latentNorm @ W_UV                                         # [B, S, H·vd]
//             scores = einsum("bshd,bthd->bsht", cat(q_nope, q_pe_rope), K)
//   absorbed: Q_absorbed = einsum("bshd,hdc->bshc", q_nope, W_UKᵀ per head)  # [B, S, H·c]
//             scores = einsum("bshc,btc->bsht", Q_absorbed, latentNorm) + einsum("bshr,btr->bsht", q_pe, K_pe_rope)
//   scaled = scores * softmax_scale; masked = the mask on it; weights = softmax   # [B, H, S, S_kv] (heads first)
//   naive:    context = einsum("bsht,bthd->bshd", weights, V)
//   absorbed: latentContext = einsum("bsht,btc->bshc", weights, latentNorm)       # [B, S, H·c]
//             context = einsum("bshc,hdc->bshd", latentContext, W_UV per head)
//   context [B, H, S, vd]; concat [B, S, H·vd]; output = concat @ W_O               # [B, S, D]
//   averagedWeights = weights.sum(dim=1) / H
// Every tensor is computed (the layer is for teaching sizes); collect() keeps those asked for. Returns the
// number of weight rows that are NaN.
int64_t mlaAttend(const AttentionConfig& c, const stages::Dims& d, const ScoreRowSteps& steps, BufferPool& pool,
                  stages::Intermediates& m);

// The floats mlaAttend allocates besides X, the weights and the mask (the memory budget).
int64_t mlaFloats(const AttentionConfig& c, const stages::Dims& d);

}  // namespace attention_lab
