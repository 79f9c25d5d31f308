// The pieces of a checkpoint family's forward that GPT-2 and Llama / Qwen2
// compute alike (gpt2_model.cpp, llama_model.cpp): float32 tensors, the
// causal attention of every query head over its key head, and the mixing of
// the values. Shapes: T tokens, nh query heads of hs, nkv key-value heads
// (nh a multiple of nkv; GPT-2: nkv = nh).
#pragma once

#include <cstdint>
#include <vector>

#include "config.h"
#include "softmax.h"
#include "status.h"

namespace attention_lab {

// The checks before a forward allocates anything: 1..maxTokens ids (the field "ids"), each
// in [0, vocabSize) ("ids[i]"), and `keptBytes`, what the run keeps, within kMaxIntermediateBytes.
Status checkModelRun(const std::vector<int64_t>& ids, int64_t maxTokens, int64_t vocabSize, int64_t keptBytes);

// A zero tensor of `shape`.
Tensor zeros(std::vector<int64_t> shape);

// a + b, element by element (same shapes).
Tensor added(const Tensor& a, const Tensor& b);

// x (T, in), W [out, in] (nn.Linear's weight), b [out] or null -> (T, out)
//   F.linear(x, W, b) = x @ W.T + b
// gemm's A · Bᵀ: every element summed over `in` in order, the bias added after the sum.
Tensor linear(const Tensor& x, const Tensor& weight, const Tensor* bias);

// Q (nh, T, hs), K (nkv, T, hs) -> scores, scaled, weights (nh, T, T)
//   scores = Q @ repeat_kv(K).transpose(-1, -2)   # query head h reads key head h / (nh / nkv)
//   scaled = scores / divisor, or * factor         # steps.divide, steps.divisor, steps.factor
//   masked: the causal mask, key j > query i blocked, with float32's lowest (torch.finfo(float32).min)
//     steps.mask Fill: torch.where(causal_mask, scaled, finfo.min)   (GPT-2)
//     steps.mask Add:  scaled + (0 where allowed, finfo.min where blocked)   (Llama, Qwen2)
//   weights = softmax(masked, dim=-1)
// A blocked key's weight is exp(≈ lowest − max) = 0 exactly either way, as with −inf (the
// diagonal is never blocked, so max is a finite score).
void causalAttention(const Tensor& Q, const Tensor& K, ScoreRowSteps steps, Tensor& scores, Tensor& scaled,
                     Tensor& weights);

// weights (nh, T, T), V (nkv, T, hs) -> headOutputs (nh, T, hs), concat (T, nh · hs)
//   attn_output = torch.matmul(attn_weights, repeat_kv(value))
//   attn_output.transpose(1, 2).reshape(T, nh * hs)   # the heads side by side
// Each key head's values are copied out transposed, (hs, T), so that the product is an
// A · Bᵀ, which gemm sums in key order in the native build too.
void mixValues(const Tensor& weights, const Tensor& V, Tensor& headOutputs, Tensor& concat);

}  // namespace attention_lab
