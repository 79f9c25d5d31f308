// Differential attention's heads (Diff Transformer, microsoft/unilm Diff-Transformer/multihead_diffattn.py with
// num_kv_heads = num_heads and no rotary step; validate.cpp refuses the rest): the stage that stands where
// attention.cpp's attendHeads stands when config.diffDepth is set. Shapes: B batch, S queries, S_kv keys,
// H heads of dk = D / H, each split into two half-heads of d = dk / 2 (2H in all).
#pragma once

#include <cstdint>

#include "attention.h"
#include "attention_stages.h"
#include "buffers.h"
#include "softmax.h"

namespace attention_lab {

// What the stage keeps (each flag: the tensor of that name, Selection's slicing) and computes.
struct DiffPlan {
  Selection selection;
  bool halfScores = false, halfScaled = false, halfMasked = false, halfWeights = false, lambda = false;
  bool weights = false, averaged = false, context = false, contextNorm = false, contextScaled = false;
  bool merge = false;  // the context and what follows it: context, the norm, the concat or the output
  bool mask = false;   // m.mask holds the mask
};

// The projections' rows: Q [B·S, D] at q, K and V [B·S_kv, D] at k and v, rows qStride and kvStride apart.
struct QkvRows {
  const float *q, *k, *v;
  int64_t qStride, kvStride;
};

// λ_init = 0.8 - 0.6 * math.exp(-0.3 * depth)   (lambda_init_fn, in double)
double lambdaInitOf(int64_t depth);

// One head at a time, d = dk / 2, per head h of sentence b:
//   q = Q.view(B, S, 2H, d).transpose(1, 2); k likewise      # half-heads 2h, 2h + 1 are head h's columns
//   v = V.view(B, S_kv, H, 2d).transpose(1, 2)               # [0, d) and [d, 2d); its value is the whole head
//   halfScores = q @ k.transpose(-1, -2)                     # shown only: the forward scales q first
//   q *= d ** -0.5
//   halfScaled = torch.nan_to_num(q @ k.transpose(-1, -2))   # [B, 2H, S, S_kv]
//   halfMasked = the mask on it; halfWeights = F.softmax(halfMasked, dim=-1)
//   lambdaFull = exp(sum(λ_q1 * λ_k1)) - exp(sum(λ_q2 * λ_k2)) + λ_init
//   weights = halfWeights[:, 2h] - lambdaFull * halfWeights[:, 2h + 1]   # [B, H, S, S_kv], rows sum to 1 - λ
//   context = weights @ v                                    # [B, H, S, 2d]
//   contextNorm = context * torch.rsqrt(context.pow(2).mean(-1, keepdim=True) + 1e-5) * subln
//   contextScaled = contextNorm * (1 - λ_init)               # into concat[:, :, h·dk : (h+1)·dk]
//   averagedWeights = weights.sum(dim=1) / H
// `steps` carries the mask's convention and fill (softmax.h); the tensors kept go into m, the concat (when
// not null) is [B, S, D]. Returns the number of weight rows that are NaN (a row whose keys are all masked with -inf).
int64_t diffAttendHeads(const AttentionConfig& c, const stages::Dims& d, const DiffPlan& p, const ScoreRowSteps& steps,
                        const QkvRows& qkv, BufferPool& pool, stages::Intermediates& m, float* concat);

}  // namespace attention_lab
