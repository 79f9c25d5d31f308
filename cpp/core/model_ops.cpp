#include "model_ops.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "gemm.h"
#include "size_limits.h"
#include "text_format.h"

namespace attention_lab {

Status checkModelRun(const std::vector<int64_t>& ids, int64_t maxTokens, int64_t vocabSize, int64_t keptBytes) {
  const int64_t T = static_cast<int64_t>(ids.size());
  const std::string max = std::to_string(maxTokens);
  if (T == 0) return fieldError("ids", "model-tokens-empty", {{"field", "ids"}, {"max", max}});
  if (T > maxTokens)
    return fieldError("ids", "model-too-many-tokens", {{"field", "ids"}, {"count", std::to_string(T)}, {"max", max}});
  for (int64_t t = 0; t < T; ++t) {
    const int64_t id = ids[static_cast<size_t>(t)];
    if (id < 0 || id >= vocabSize) {
      const std::string field = "ids[" + std::to_string(t) + "]";
      return fieldError(
          field, "out-of-range",
          {{"field", field}, {"got", std::to_string(id)}, {"min", "0"}, {"max", std::to_string(vocabSize - 1)}});
    }
  }
  if (keptBytes > kMaxIntermediateBytes)
    return fieldError("ids", "memory-limit",
                      {{"need", formatNumber(std::ceil(static_cast<double>(keptBytes) / (1 << 20)))},
                       {"limit", std::to_string(kMaxIntermediateBytes >> 20)}});
  return {};
}

Tensor zeros(std::vector<int64_t> shape) {
  Tensor t;
  int64_t count = 1;
  for (int64_t n : shape) count *= n;
  t.shape = std::move(shape);
  t.data.assign(static_cast<size_t>(count), 0.0f);
  return t;
}

Tensor added(const Tensor& a, const Tensor& b) {
  Tensor y = zeros(a.shape);
  for (size_t k = 0; k < y.data.size(); ++k) y.data[k] = a.data[k] + b.data[k];
  return y;
}

Tensor linear(const Tensor& x, const Tensor& weight, const Tensor* bias) {
  const int64_t T = x.shape[0], in = weight.shape[1], out = weight.shape[0];
  Tensor y = zeros({T, out});
  gemm(T, out, in, x.data.data(), in, weight.data.data(), in, /*bTransposed=*/true, bias ? bias->data.data() : nullptr,
       y.data.data(), out);
  return y;
}

void causalAttention(const Tensor& Q, const Tensor& K, ScoreRowSteps steps, Tensor& scores, Tensor& scaled,
                     Tensor& weights) {
  const int64_t nh = Q.shape[0], T = Q.shape[1], hs = Q.shape[2], group = nh / K.shape[0];
  scores = zeros({nh, T, T});
  scaled = zeros({nh, T, T});
  weights = zeros({nh, T, T});
  const float lowest = std::numeric_limits<float>::lowest();
  // Row i of the mask: key j > i blocked. Fill: 1 marks it (blockedValue), and it is filled with lowest;
  // Add: lowest is added to it, 0 to the others.
  const float blocked = steps.mask == MaskStep::Add ? lowest : 1.0f;
  steps.blockedValue = 1.0f;
  steps.fill = lowest;
  std::vector<float> mask(static_cast<size_t>(T * T), 0.0f);
  for (int64_t i = 0; i < T; ++i)
    for (int64_t j = i + 1; j < T; ++j) mask[static_cast<size_t>(i * T + j)] = blocked;
  for (int64_t h = 0; h < nh; ++h) {
    float* s = scores.data.data() + h * T * T;
    gemm(T, T, hs, Q.data.data() + h * T * hs, hs, K.data.data() + (h / group) * T * hs, hs, /*bTransposed=*/true,
         nullptr, s, T);
    for (int64_t i = 0; i < T; ++i)
      scaleMaskSoftmaxRow(steps, s + i * T, mask.data() + i * T, T, scaled.data.data() + (h * T + i) * T, nullptr,
                          weights.data.data() + (h * T + i) * T);
  }
}

void mixValues(const Tensor& weights, const Tensor& V, Tensor& headOutputs, Tensor& concat) {
  const int64_t nh = weights.shape[0], nkv = V.shape[0], T = V.shape[1], hs = V.shape[2], width = nh * hs;
  const int64_t group = nh / nkv;
  headOutputs = zeros({nh, T, hs});
  concat = zeros({T, width});
  std::vector<float> valuesT(static_cast<size_t>(hs * T));
  for (int64_t kv = 0; kv < nkv; ++kv) {
    const float* values = V.data.data() + kv * T * hs;
    for (int64_t j = 0; j < T; ++j)
      for (int64_t c = 0; c < hs; ++c) valuesT[static_cast<size_t>(c * T + j)] = values[j * hs + c];
    for (int64_t h = kv * group; h < (kv + 1) * group; ++h) {
      float* out = headOutputs.data.data() + h * T * hs;
      gemm(T, hs, T, weights.data.data() + h * T * T, T, valuesT.data(), T, /*bTransposed=*/true, nullptr, out, hs);
      for (int64_t i = 0; i < T; ++i)
        std::copy(out + i * hs, out + (i + 1) * hs, concat.data.data() + i * width + h * hs);
    }
  }
}

}  // namespace attention_lab
