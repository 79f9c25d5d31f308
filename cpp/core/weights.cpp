#include "weights.h"

#include <algorithm>

namespace attention_lab {
namespace {

// Each projection's weight and bias, in the order Q, K, V are drawn.
constexpr const char* kProjections[3][2] = {{"W_Q", "b_Q"}, {"W_K", "b_K"}, {"W_V", "b_V"}};

Tensor zeros(std::vector<int64_t> shape) {
  int64_t count = 1;
  for (int64_t n : shape) count *= n;
  return Tensor{std::move(shape), std::vector<float>(static_cast<size_t>(count), 0.0f)};
}

Tensor identity(int64_t d) {
  Tensor t = zeros({d, d});
  for (int64_t i = 0; i < d; ++i) t.data[static_cast<size_t>(i * d + i)] = 1.0f;
  return t;
}

// PyTorch stores nn.Linear weights as [out, in] and computes x·Wᵀ; we show
// x·W, so W[in][out] = weight[out][in]. `columnOffset` places a per-head
// [in, headDim] block inside the full [in, D] matrix.
void placeTransposed(const std::vector<float>& weightOutIn, int64_t out, int64_t in, Tensor& w, int64_t columnOffset) {
  const int64_t d = w.shape[1];
  for (int64_t o = 0; o < out; ++o)
    for (int64_t i = 0; i < in; ++i)
      w.data[static_cast<size_t>(i * d + columnOffset + o)] = weightOutIn[static_cast<size_t>(o * in + i)];
}

// nn.Linear(in, out, bias): weight by kaiming_uniform_, then the bias.
void drawLinear(TorchGenerator& gen, int64_t in, int64_t out, bool bias, Tensor& w, Tensor* b, int64_t columnOffset) {
  std::vector<float> weight(static_cast<size_t>(out * in));
  gen.kaimingUniformLinearWeight(weight.data(), out * in, in);  // [out, in]
  placeTransposed(weight, out, in, w, columnOffset);
  if (!bias) return;
  std::vector<float> values(static_cast<size_t>(out));
  gen.linearBias(values.data(), out, in);
  if (b) std::copy(values.begin(), values.end(), b->data.begin() + columnOffset);
}

// torch.rand(in, out) used directly as x·W, placed at `columnOffset`.
void drawRand(TorchGenerator& gen, int64_t in, int64_t out, Tensor& w, int64_t columnOffset) {
  std::vector<float> values(static_cast<size_t>(in * out));
  gen.uniform(values.data(), in * out, 0.0, 1.0);
  const int64_t d = w.shape[1];
  for (int64_t i = 0; i < in; ++i)
    for (int64_t o = 0; o < out; ++o)
      w.data[static_cast<size_t>(i * d + columnOffset + o)] = values[static_cast<size_t>(i * out + o)];
}

void drawFused(const AttentionConfig& config, TorchGenerator& gen, WeightSet& w) {
  const int64_t d = config.dModel;
  const bool bias = config.hasQkvBias();
  switch (config.init) {
    case WeightInit::TorchLinear:
      // q = nn.Linear(D, D, bias=qkvBias); k = ...; v = ...; o = nn.Linear(D, D)
      for (const auto& p : kProjections) drawLinear(gen, d, d, bias, w[p[0]], bias ? &w[p[1]] : nullptr, 0);
      if (config.outProj) drawLinear(gen, d, d, true, w["W_O"], &w["b_O"], 0);
      break;
    case WeightInit::TorchRand:
      // W_Q = torch.rand(D, D); W_K = ...; W_V = ...; W_O = torch.rand(D, D)
      for (const auto& p : kProjections) drawRand(gen, d, d, w[p[0]], 0);
      if (config.outProj) drawRand(gen, d, d, w["W_O"], 0);
      break;
    case WeightInit::TorchMha: {
      // mha = nn.MultiheadAttention(D, H, bias=qkvBias):
      //   out_proj = Linear(D, D, bias)            -> drawn first
      //   xavier_uniform_(in_proj_weight [3D, D])  -> W_Q, W_K, W_V stacked
      //   in_proj_bias = 0, out_proj.bias = 0
      Tensor outWeight = zeros({d, d});
      drawLinear(gen, d, d, bias, outWeight, nullptr, 0);
      if (config.outProj) w["W_O"] = outWeight;
      std::vector<float> inProj(static_cast<size_t>(3 * d * d));
      gen.xavierUniform(inProj.data(), 3 * d * d, d, 3 * d);
      for (int p = 0; p < 3; ++p) {
        std::vector<float> block(inProj.begin() + p * d * d, inProj.begin() + (p + 1) * d * d);
        placeTransposed(block, d, d, w[kProjections[p][0]], 0);
      }
      break;
    }
    case WeightInit::Identity:
      for (const auto& p : kProjections) w[p[0]] = identity(d);
      if (config.outProj) w["W_O"] = identity(d);
      break;
  }
}

void drawPerHead(const AttentionConfig& config, TorchGenerator& gen, WeightSet& w) {
  const int64_t d = config.dModel, headDim = d / config.numHeads;
  const bool bias = config.hasQkvBias();
  if (config.init == WeightInit::Identity) return drawFused(config, gen, w);
  // heads = [Head(D, headDim) for h in range(H)], each with its own
  // query/key/value projection [D, headDim], drawn head by head.
  for (int64_t h = 0; h < config.numHeads; ++h)
    for (const auto& p : kProjections) {
      if (config.init == WeightInit::TorchRand)
        drawRand(gen, d, headDim, w[p[0]], h * headDim);
      else
        drawLinear(gen, d, headDim, bias, w[p[0]], bias ? &w[p[1]] : nullptr, h * headDim);
    }
  if (!config.outProj) return;
  if (config.init == WeightInit::TorchRand)
    drawRand(gen, d, d, w["W_O"], 0);
  else
    drawLinear(gen, d, d, true, w["W_O"], &w["b_O"], 0);
}

}  // namespace

std::vector<std::string> weightNames(const AttentionConfig& config) {
  std::vector<std::string> names = {"W_Q", "W_K", "W_V"};
  const bool qkvBias = config.hasQkvBias();
  if (qkvBias) names.insert(names.end(), {"b_Q", "b_K", "b_V"});
  if (config.outProj) {
    names.push_back("W_O");
    // nn.Linear output projections carry a bias; MHA's follows bias=qkvBias.
    const bool outBias = config.init == WeightInit::TorchLinear || (config.init == WeightInit::TorchMha && qkvBias);
    if (outBias) names.push_back("b_O");
  }
  // A given or edited tensor the init does not draw (b_Q without qkvBias) is added, drawn as zeros.
  auto add = [&](const std::string& name) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  };
  for (const auto& given : config.weightValues) add(given.first);
  for (const auto& edited : config.weightEdits) add(edited.first);
  return names;
}

WeightSet initWeights(const AttentionConfig& config, TorchGenerator& generator) {
  const int64_t d = config.dModel;
  WeightSet w;
  const std::vector<std::string> names = weightNames(config);
  for (const std::string& name : names) w[name] = name[0] == 'W' ? zeros({d, d}) : zeros({d});

  bool everyValueGiven = true;
  for (const std::string& name : names) {
    const auto given = config.weightValues.find(name);
    everyValueGiven = everyValueGiven && given != config.weightValues.end() && given->second.complete();
  }
  if (!everyValueGiven) {
    if (config.layout == ProjectionLayout::PerHead)
      drawPerHead(config, generator, w);
    else
      drawFused(config, generator, w);
  }
  for (const auto& given : config.weightValues) given.second.applyTo(w[given.first]);
  // Single edited numbers: W[row][col], or b[col] for a bias (checked by validateConfig).
  for (const auto& [name, edits] : config.weightEdits)
    for (const CellEdit& e : edits)
      w[name].data[static_cast<size_t>(name[0] == 'W' ? e.row * d + e.col : e.col)] = e.value;
  return w;
}

}  // namespace attention_lab
