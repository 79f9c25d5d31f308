// Scaled dot-product and multi-head attention, keeping every intermediate.
//
//   tokens -> ids -> X -> Q, K, V = X·W + b -> split heads
//     -> scores = Q_h K_hᵀ (or the additive v_aᵀ tanh(q·W_a + k·U_a))
//     -> scaled -> masked -> weights = softmax
//     -> dropped = dropout(weights) -> context = dropped · V_h
//     -> concat -> output = concat·W_O + b_O
//   averagedWeights = dropped averaged over the heads (nn.MultiheadAttention's
//   default average_attn_weights=True)
//
// Shapes: B batch, S query length, S_kv key length, H heads, D dModel,
// dk = D / H (headDim).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "config.h"
#include "errors.h"

namespace attention_lab {

// Every tensor a run can return, in pipeline order.
inline constexpr std::array<const char*, 26> kTensorNames = {"X",
                                                             "X_context",
                                                             "W_Q",
                                                             "W_K",
                                                             "W_V",
                                                             "b_Q",
                                                             "b_K",
                                                             "b_V",
                                                             "W_a",
                                                             "U_a",
                                                             "v_a",
                                                             "W_O",
                                                             "b_O",
                                                             "Q",
                                                             "K",
                                                             "V",
                                                             "scores",
                                                             "scaled",
                                                             "mask",
                                                             "masked",
                                                             "weights",
                                                             "dropped",
                                                             "averagedWeights",
                                                             "context",
                                                             "concat",
                                                             "output"};

struct AttentionResult {
  std::vector<std::vector<std::string>> tokens;         // [B][S], "<pad>" where padded
  std::vector<std::vector<int64_t>> ids;                // [B][S]
  std::vector<std::vector<std::string>> contextTokens;  // [B][S_kv], cross-attention only
  std::vector<std::vector<int64_t>> contextIds;         // [B][S_kv], cross-attention only
  std::vector<std::string> vocab;
  std::vector<std::string> unknownTokens;
  int64_t headDim = 0;
  double scaleFactor = 1.0;       // the multiplier applied to the scores
  std::vector<Warning> warnings;  // e.g. rows that are NaN because every key is masked
  // In the order of kTensorNames; only those the run has (no b_Q without qkvBias,
  // no W_a without the additive score, no X_context without cross-attention).
  std::vector<std::pair<std::string, Tensor>> tensors;

  const Tensor* find(const std::string& name) const;
};

// Validates, draws and computes. Never aborts on bad input: every problem is
// returned as a ConfigError naming the field.
Status runAttention(const AttentionConfig& config, AttentionResult& result);

}  // namespace attention_lab
