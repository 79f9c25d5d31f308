#include "weights.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <utility>

#include "draw_cache.h"
#include "validate.h"

namespace attention_lab {
namespace {

// Differential attention's weights, in the order unilm's MultiheadDiffAttn draws them (kWeightNames lists
// them so): those of kWeightNames that isDiffWeight names.
std::vector<const char*> diffWeightNames() {
  std::vector<const char*> names;
  for (const char* name : kWeightNames)
    if (isDiffWeight(name)) names.push_back(name);
  return names;
}

// The floats of the named weights at their shapes (below).
int64_t floatsOf(const AttentionConfig& config, const std::vector<std::string>& names);

// Each projection's weight and bias, in the order Q, K, V are drawn.
constexpr const char* kProjections[3][2] = {{"W_Q", "b_Q"}, {"W_K", "b_K"}, {"W_V", "b_V"}};

Tensor zeros(std::vector<int64_t> shape) {
  int64_t count = 1;
  for (int64_t n : shape) count *= n;
  return Tensor{std::move(shape), std::vector<float>(static_cast<size_t>(count), 0.0f)};
}

// torch.eye(d)[:, :cols]
Tensor identity(int64_t d, int64_t cols) {
  Tensor t = zeros({d, cols});
  for (int64_t i = 0; i < std::min(d, cols); ++i) t.data[static_cast<size_t>(i * cols + i)] = 1.0f;
  return t;
}
Tensor identity(int64_t d) { return identity(d, d); }

// Each projection's output width: D for Q, KVH·dk for K and V (grouped-query attention).
int64_t projectionWidth(const AttentionConfig& config, int projection) {
  return projection == 0 ? config.dModel : config.kvHeads() * (config.dModel / config.numHeads);
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

// nn.Linear(in, out, bias) copied whole into the [in, out] weight `w`.
void drawLinear(TorchGenerator& gen, int64_t in, int64_t out, bool bias, Tensor& w, Tensor* b) {
  drawLinear(gen, in, out, bias, w, b, 0);
}

// W_Q, W_K, W_V and their biases, fused: one [D, D] projection each (for
// torch-mha also W_O and b_O, which nn.MultiheadAttention draws first; for
// torch-linear-clones also W_O and b_O, the same copied Linear).
void drawFusedProjections(const AttentionConfig& config, TorchGenerator& gen, WeightSet& w) {
  const int64_t d = config.dModel;
  const bool bias = config.hasQkvBias();
  switch (config.init) {
    case WeightInit::TorchLinear:
      // q = nn.Linear(D, D, bias=qkvBias); k = nn.Linear(D, KVH·dk, bias=qkvBias); v = ... (KVH·dk = D without GQA)
      for (int p = 0; p < 3; ++p)
        drawLinear(gen, d, projectionWidth(config, p), bias, w[kProjections[p][0]],
                   bias ? &w[kProjections[p][1]] : nullptr);
      break;
    case WeightInit::TorchLinearClones: {
      // linears = clones(nn.Linear(D, D, bias=qkvBias), 4): one draw, four deep copies for Q, K, V, O
      Tensor weight = zeros({d, d}), biasValues = zeros({d});
      drawLinear(gen, d, d, bias, weight, &biasValues);
      for (const auto& p : kProjections) {
        w[p[0]] = weight;
        if (bias) w[p[1]] = biasValues;
      }
      if (config.outProj) w["W_O"] = weight;
      if (config.outProj && bias) w["b_O"] = biasValues;
      break;
    }
    case WeightInit::TorchRand:
      // W_Q = torch.rand(D, D); W_K = torch.rand(D, KVH·dk); W_V = ...
      for (int p = 0; p < 3; ++p) drawRand(gen, d, projectionWidth(config, p), w[kProjections[p][0]], 0);
      break;
    case WeightInit::TorchMha: {
      // mha = nn.MultiheadAttention(D, H, bias=qkvBias):
      //   out_proj = Linear(D, D, bias)            -> drawn first
      //   xavier_uniform_(in_proj_weight [3D, D])  -> W_Q, W_K, W_V stacked
      //   in_proj_bias = 0, out_proj.bias = 0
      Tensor outWeight = zeros({d, d});
      drawLinear(gen, d, d, bias, outWeight, nullptr);
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
      // W_Q = torch.eye(D); W_K = W_V = torch.eye(D)[:, :KVH·dk]
      for (int p = 0; p < 3; ++p) w[kProjections[p][0]] = identity(d, projectionWidth(config, p));
      if (config.outProj) w["W_O"] = identity(d);
      break;
  }
}

// W_Q, W_K, W_V and their biases as per-head blocks: each head draws its own
// [dModel, headDim] projections, head by head.
void drawPerHeadProjections(const AttentionConfig& config, TorchGenerator& gen, WeightSet& w) {
  const int64_t d = config.dModel, headDim = d / config.numHeads;
  const bool bias = config.hasQkvBias();
  if (config.init == WeightInit::Identity) return drawFusedProjections(config, gen, w);
  // heads = [Head(D, headDim) for h in range(H)], each with its own query/key/value projection
  for (int64_t h = 0; h < config.numHeads; ++h)
    for (const auto& p : kProjections) {
      if (config.init == WeightInit::TorchRand)
        drawRand(gen, d, headDim, w[p[0]], h * headDim);
      else
        drawLinear(gen, d, headDim, bias, w[p[0]], bias ? &w[p[1]] : nullptr, h * headDim);
    }
}

// The additive score's layers, shared by the heads, in the x·W convention:
//   W_a = nn.Linear(headDim, hidden, bias=False); U_a = nn.Linear(headDim, hidden, bias=False)
//   v_a = nn.Linear(hidden, 1, bias=False)
void drawAdditive(const AttentionConfig& config, TorchGenerator& gen, WeightSet& w) {
  const int64_t headDim = config.dModel / config.numHeads, hidden = config.additiveHidden;
  drawLinear(gen, headDim, hidden, false, w["W_a"], nullptr);
  drawLinear(gen, headDim, hidden, false, w["U_a"], nullptr);
  Tensor va = zeros({hidden, 1});  // nn.Linear(hidden, 1) in the x·W convention: [hidden, 1]
  drawLinear(gen, hidden, 1, false, va, nullptr);
  w["v_a"].data = va.data;
}

// The output gate's W_G, given in full or not (then drawn, last of the weights).
bool drawsGate(const AttentionConfig& config) {
  if (!config.outputGate) return false;
  const auto given = config.weightValues.find("W_G");
  return given == config.weightValues.end() || !given->second.complete();
}

//   g = nn.Linear(D, D, bias=False)   # W_G = g.weight.T; torch.rand(D, D) for torch-rand, torch.eye(D) for identity
void drawGate(const AttentionConfig& config, TorchGenerator& gen, WeightSet& w) {
  const int64_t d = config.dModel;
  if (config.init == WeightInit::Identity)
    w["W_G"] = identity(d);
  else if (config.init == WeightInit::TorchRand)
    drawRand(gen, d, d, w["W_G"], 0);
  else
    drawLinear(gen, d, d, false, w["W_G"], nullptr);
}

// W_O and b_O for the inits that draw them after the other layers, then the output gate's W_G after
// everything else (tests/reference/recent.py):
//   o = nn.Linear(D, D)   # or W_O = torch.rand(D, D)
void drawOutput(const AttentionConfig& config, TorchGenerator& gen, WeightSet& w) {
  const int64_t d = config.dModel;
  if (config.outProj && config.init == WeightInit::TorchLinear) drawLinear(gen, d, d, true, w["W_O"], &w["b_O"]);
  if (config.outProj && config.init == WeightInit::TorchRand) drawRand(gen, d, d, w["W_O"], 0);
  if (drawsGate(config)) drawGate(config, gen, w);
}

// MLA's seven weights instead of the layer's (tests/reference/recent.py), in model.py's MLA.__init__ order,
// wkv_a and wkv_b drawn whole and then split by columns (x·W convention, no biases):
//   wq = Linear(D, H·(n + r)); wkv_a = Linear(D, c + r); kv_norm = RMSNorm(c); wkv_b = Linear(c, H·(n + vd))
//   wo = Linear(H·vd, D)
//   W_DKV, W_KR = wkv_a.weight.T[:, :c], wkv_a.weight.T[:, c:]
//   W_UK, W_UV = per head h, columns h·(n + vd) + [0, n) and h·(n + vd) + [n, n + vd) of wkv_b.weight.T
void drawMla(const AttentionConfig& config, TorchGenerator& gen, WeightSet& w) {
  const int64_t D = config.dModel, H = config.numHeads, c = *config.mlaKvRank, n = *config.mlaNopeDim;
  const int64_t r = *config.mlaRopeDim, vd = *config.mlaValueDim;
  float* dkv = w["W_DKV"].data.data();
  float* kr = w["W_KR"].data.data();
  float* uk = w["W_UK"].data.data();
  float* uv = w["W_UV"].data.data();
  drawLinear(gen, D, H * (n + r), false, w["W_Q"], nullptr);
  Tensor a = zeros({D, c + r});
  drawLinear(gen, D, c + r, false, a, nullptr);
  for (int64_t i = 0; i < D; ++i) {
    const float* row = a.data.data() + i * (c + r);
    std::copy(row, row + c, dkv + i * c);
    std::copy(row + c, row + c + r, kr + i * r);
  }
  std::vector<float>& norm = w["kv_norm"].data;
  std::fill(norm.begin(), norm.end(), 1.0f);
  Tensor b = zeros({c, H * (n + vd)});
  drawLinear(gen, c, H * (n + vd), false, b, nullptr);
  for (int64_t i = 0; i < c; ++i)
    for (int64_t h = 0; h < H; ++h) {
      const float* head = b.data.data() + i * H * (n + vd) + h * (n + vd);
      std::copy(head, head + n, uk + i * H * n + h * n);
      std::copy(head + n, head + n + vd, uv + i * H * vd + h * vd);
    }
  drawLinear(gen, H * vd, D, false, w["W_O"], nullptr);
}

// The tensors the init itself makes, in draw order.
std::vector<std::string> drawnWeightNames(const AttentionConfig& config) {
  if (config.isMla()) return {"W_Q", "W_DKV", "W_KR", "kv_norm", "W_UK", "W_UV", "W_O"};
  std::vector<std::string> names = {"W_Q", "W_K", "W_V"};
  const bool qkvBias = config.hasQkvBias();
  if (qkvBias) names.insert(names.end(), {"b_Q", "b_K", "b_V"});
  if (config.score == ScoreKind::Additive) names.insert(names.end(), {"W_a", "U_a", "v_a"});
  if (config.outProj) {
    names.push_back("W_O");
    // nn.Linear output projections carry a bias; MHA's and the cloned Linear's follow bias=qkvBias.
    const bool outBias =
        config.init == WeightInit::TorchLinear ||
        ((config.init == WeightInit::TorchMha || config.init == WeightInit::TorchLinearClones) && qkvBias);
    if (outBias) names.push_back("b_O");
  }
  if (drawsGate(config)) names.push_back("W_G");
  return names;
}

// Differential attention's weights, after every other weight of the layer (unilm's MultiheadDiffAttn.__init__
// order), drawn unless all five are given in full (tests/reference/recent.py), d = headDim / 2:
//   lambda_q1 = nn.Parameter(torch.zeros(d).normal_(mean=0, std=0.1)); lambda_k1, lambda_q2, lambda_k2 likewise
//   subln = RMSNorm(2 * d): weight torch.ones(2d), no draw
bool drawsDiff(const AttentionConfig& config) {
  if (!config.isDiff()) return false;
  for (const char* name : diffWeightNames()) {
    const auto given = config.weightValues.find(name);
    if (given == config.weightValues.end() || !given->second.complete()) return true;
  }
  return false;
}

void drawDiff(const AttentionConfig& config, TorchGenerator& gen, WeightSet& w) {
  for (const char* name : diffWeightNames()) {
    Tensor& t = w[name] = zeros(weightShape(config, name));
    if (std::string_view(name) == "subln")
      std::fill(t.data.begin(), t.data.end(), 1.0f);
    else
      gen.normal(t.data.data(), static_cast<int64_t>(t.data.size()), 0.0, 0.1);
  }
}

// What a draw of the weights depends on besides the generator's state: every
// config field drawWeights() reads (directly, through hasQkvBias() or
// weightShape()). A field missing here would let a changed config reuse the
// old draw; tests/cpp/draw_cache_test.cpp changes each and expects a miss.
struct WeightDrawParams {
  WeightInit init;
  ProjectionLayout layout;
  int64_t dModel, numHeads, additiveHidden;
  bool qkvBias, outProj;
  ScoreKind score;
  int64_t kvHeads;
  bool drawsGate;
  int64_t mlaKvRank, mlaNopeDim, mlaRopeDim, mlaValueDim;  // 0: no MLA
  bool operator==(const WeightDrawParams& o) const {
    return init == o.init && layout == o.layout && dModel == o.dModel && numHeads == o.numHeads &&
           additiveHidden == o.additiveHidden && qkvBias == o.qkvBias && outProj == o.outProj && score == o.score &&
           kvHeads == o.kvHeads && drawsGate == o.drawsGate && mlaKvRank == o.mlaKvRank && mlaNopeDim == o.mlaNopeDim &&
           mlaRopeDim == o.mlaRopeDim && mlaValueDim == o.mlaValueDim;
  }
};

// The init's tensors as it draws them, before explicit values and edits.
WeightSet drawWeights(const AttentionConfig& config, TorchGenerator& generator) {
  WeightSet w;
  for (const std::string& name : drawnWeightNames(config)) w[name] = zeros(weightShape(config, name));
  if (config.isMla()) {
    drawMla(config, generator, w);
    return w;
  }
  // Q, K, V, then the additive score's layers, then W_O.
  if (config.layout == ProjectionLayout::PerHead)
    drawPerHeadProjections(config, generator, w);
  else
    drawFusedProjections(config, generator, w);
  if (config.score == ScoreKind::Additive) drawAdditive(config, generator, w);
  drawOutput(config, generator, w);
  return w;
}

WeightDrawParams drawParamsOf(const AttentionConfig& config) {
  return {config.init,
          config.layout,
          config.dModel,
          config.numHeads,
          config.additiveHidden,
          config.hasQkvBias(),
          config.outProj,
          config.score,
          config.kvHeads(),
          drawsGate(config),
          config.mlaKvRank.value_or(0),
          config.mlaNopeDim.value_or(0),
          config.mlaRopeDim.value_or(0),
          config.mlaValueDim.value_or(0)};
}

// drawWeights, or the same tensors and generator state from the last runs.
WeightSet drawWeightsCached(const AttentionConfig& config, TorchGenerator& generator) {
  thread_local RecentDraws<WeightDrawParams, WeightSet> recent;
  const WeightDrawParams params = drawParamsOf(config);
  const int64_t d = config.dModel, headDim = d / config.numHeads;
  const size_t floats =
      config.isMla()
          ? static_cast<size_t>(floatsOf(config, drawnWeightNames(config)))
          : static_cast<size_t>(5 * d * (d + 1) + 2 * headDim * config.additiveHidden + config.additiveHidden);
  return recent.draw(params, generator, floats, [&] { return drawWeights(config, generator); });
}

}  // namespace

std::vector<std::string> weightNames(const AttentionConfig& config) {
  std::vector<std::string> names = drawnWeightNames(config);
  if (config.isDiff())
    for (const char* name : diffWeightNames()) names.push_back(name);
  // A given or edited tensor the init does not draw (b_Q without qkvBias) is added, drawn as zeros.
  auto add = [&](const std::string& name) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  };
  for (const auto& given : config.weightValues) add(given.first);
  for (const auto& edited : config.weightEdits) add(edited.first);
  return names;
}

namespace {

// Whether the explicit values give every number of the weights stage (then nothing is drawn).
bool everyValueGiven(const AttentionConfig& config, const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    const auto given = config.weightValues.find(name);
    if (given == config.weightValues.end() || !given->second.complete()) return false;
  }
  return true;
}

int64_t floatsOf(const AttentionConfig& config, const std::vector<std::string>& names) {
  int64_t floats = 0;
  for (const std::string& name : names) {
    int64_t count = 1;
    for (int64_t n : weightShape(config, name)) count *= n;
    floats += count;
  }
  return floats;
}

}  // namespace

namespace {

int64_t countWeightFloats(const AttentionConfig& config) {
  const std::vector<std::string> names = weightNames(config);
  const int64_t set = floatsOf(config, names);
  if (everyValueGiven(config, names)) return set;
  const int64_t drawn = floatsOf(config, drawnWeightNames(config));
  // The draw's largest temporary besides the set: a Linear's [out, in] weight (and bias) before it is
  // transposed into place; the cloned Linear kept beside its draw; nn.MultiheadAttention's out_proj
  // kept beside its [3D, D] in_proj and one [D, D] block of it; the additive score's [hidden, headDim].
  const int64_t d = config.dModel, headDim = d / config.numHeads, hidden = config.additiveHidden;
  // MLA: wkv_a and wkv_b whole beside their [out, in] draws (tests/reference/recent.py's split).
  const auto [wkvA, wkvB] = config.isMla() ? std::pair<int64_t, int64_t>{d * (*config.mlaKvRank + *config.mlaRopeDim),
                                                                         *config.mlaKvRank * config.numHeads *
                                                                             (*config.mlaNopeDim + *config.mlaValueDim)}
                                           : std::pair<int64_t, int64_t>{0, 0};
  if (config.isMla()) {
    const int64_t cached = static_cast<size_t>(drawn) <= kMaxCachedFloats ? drawn : 0;
    return set + std::max({2 * wkvA, 2 * wkvB, floatsOf(config, {"W_Q"}), floatsOf(config, {"W_O"}), cached});
  }
  const int64_t scratch = std::max(config.init == WeightInit::TorchMha            ? 5 * d * d
                                   : config.init == WeightInit::TorchLinearClones ? 2 * d * d + 2 * d
                                                                                  : d * d + d,
                                   config.score == ScoreKind::Additive ? headDim * hidden + 2 * hidden : 0);
  // The cache copies the drawn set once the draw's temporaries are freed.
  const int64_t cached = static_cast<size_t>(drawn) <= kMaxCachedFloats ? drawn : 0;
  return set + std::max(scratch, cached);
}

}  // namespace

int64_t weightFloats(const AttentionConfig& config) {
  // Without given values or edits the count depends on the draw's parameters alone, and the last one is
  // kept: counting builds the weights' names and shapes, about 3 µs of a 30 µs run at S 5, D 4 in wasm.
  // Differential attention's five weights are no part of the draw's parameters: the count is kept per both.
  thread_local std::optional<std::pair<WeightDrawParams, int64_t>> last;
  thread_local bool lastDiff = false;
  if (!config.weightValues.empty() || !config.weightEdits.empty()) return countWeightFloats(config);
  const WeightDrawParams params = drawParamsOf(config);
  if (!last || !(last->first == params) || lastDiff != config.isDiff()) {
    last.emplace(params, countWeightFloats(config));
    lastDiff = config.isDiff();
  }
  return last->second;
}

WeightSet initWeights(const AttentionConfig& config, TorchGenerator& generator) {
  const std::vector<std::string> names = weightNames(config);
  // The layer's weights and the gate's are each drawn unless given in full, as tests/reference/recent.py
  // draws them: every layer weight given, W_G alone is drawn (the first draw after the inputs).
  // Differential attention's five are drawn after them the same way.
  std::vector<std::string> layer = names;
  layer.erase(std::remove_if(layer.begin(), layer.end(),
                             [](const std::string& name) { return name == "W_G" || isDiffWeight(name); }),
              layer.end());
  WeightSet w;
  if (!everyValueGiven(config, layer)) {
    w = drawWeightsCached(config, generator);
  } else if (drawsGate(config)) {
    w["W_G"] = zeros(weightShape(config, "W_G"));
    drawGate(config, generator, w);
  }
  if (drawsDiff(config)) drawDiff(config, generator, w);
  // Given or edited tensors the init does not make, and every tensor when nothing is drawn, start at 0.
  for (const std::string& name : names)
    if (!w.count(name)) w[name] = zeros(weightShape(config, name));
  for (const auto& given : config.weightValues) given.second.applyTo(w[given.first]);
  applyWeightEdits(config, config.weightEdits, w);
  return w;
}

void applyWeightEdits(const AttentionConfig& config, const std::map<std::string, std::vector<CellEdit>>& edits,
                      WeightSet& w) {
  for (const auto& [name, cells] : edits) {
    // An edited tensor the set lacks (b_Q without qkvBias) starts at 0, as initWeights starts it.
    if (!w.count(name)) w[name] = zeros(weightShape(config, name));
    const int64_t cols = w[name].shape.back();
    for (const CellEdit& e : cells)
      w[name].data[static_cast<size_t>(isVectorWeight(name) ? e.col : e.row * cols + e.col)] = e.value;
  }
}

}  // namespace attention_lab
