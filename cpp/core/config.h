// The one attention config. The JS API, the CLI and the page's URL state all
// speak the JSON form of this struct (parsed in config_json.cpp); the native
// tests and benchmark build it directly. Defaults are the documented ones.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace attention_lab {

// A dense float32 tensor, row-major.
struct Tensor {
  std::vector<int64_t> shape;
  std::vector<float> data;
};

// Explicit values for a tensor the engine would otherwise draw. A null in
// the JSON (given[i] == false) keeps the drawn number there, the way a
// PyTorch script edits single entries of a freshly built module.
struct GivenValues {
  std::vector<int64_t> shape;
  std::vector<float> data;
  std::vector<bool> given;  // empty: every entry is given

  bool complete() const {
    for (bool g : given)
      if (!g) return false;
    return true;
  }
  // t = these values where given, t's own (drawn) values elsewhere.
  void applyTo(Tensor& t) const {
    for (size_t i = 0; i < data.size() && i < t.data.size(); ++i)
      if (given.empty() || given[i]) t.data[i] = data[i];
  }
};

// Where one side's vectors come from: tokens to embed, or torch.randn.
struct SequenceSource {
  std::vector<std::string> texts;               // one sentence per batch row, split on whitespace
  std::optional<std::array<int64_t, 3>> randn;  // [B, S, dModel]: torch.randn(B, S, dModel)
  bool present() const { return !texts.empty() || randn.has_value(); }
};

enum class WeightInit {
  TorchLinear,  // nn.Linear(dModel, dModel, bias=qkvBias) for Q, K, V, then W_O   (default)
  TorchRand,    // torch.rand(dModel, dModel) for W_Q, W_K, W_V, then W_O; no biases
  TorchMha,     // nn.MultiheadAttention(dModel, numHeads): out_proj, then xavier in_proj
  Identity,     // W = I, no draws
};

enum class ProjectionLayout {
  Fused,    // one [dModel, dModel] projection viewed as heads   (default)
  PerHead,  // each head draws its own [dModel, headDim] projection
};

enum class ScaleMode {
  HeadDim,  // 1/sqrt(headDim)   (default)
  DModel,   // 1/sqrt(dModel), as some tutorials write it
  None,     // 1
  Custom,   // customScale, like scaled_dot_product_attention(scale=...)
};

enum class Positional { None, Sinusoidal };

// The explicit weights a config may give, keyed by name.
constexpr std::array<const char*, 8> kWeightNames = {"W_Q", "W_K", "W_V", "W_O",
                                                     "b_Q", "b_K", "b_V", "b_O"};

struct AttentionConfig {
  SequenceSource input;            // queries (and keys/values for self-attention)
  SequenceSource context;          // keys/values for cross-attention; absent = self-attention
  std::optional<std::vector<std::string>> vocab;  // id = index; default built from the tokens
  std::optional<int64_t> maxLen;   // pad with <pad> or truncate every sequence

  int64_t dModel = 8;
  int64_t numHeads = 2;
  uint64_t seed = 0;               // torch.manual_seed(seed) before the first draw

  // Embedding table [len(vocab), dModel]; default nn.Embedding(len(vocab), dModel).weight.
  std::optional<GivenValues> embeddingValues;
  Positional positional = Positional::None;

  WeightInit init = WeightInit::TorchLinear;
  ProjectionLayout layout = ProjectionLayout::Fused;
  std::optional<bool> qkvBias;     // default: true for torch-mha, false otherwise
  bool outProj = true;
  std::optional<uint64_t> weightsSeed;    // torch.manual_seed before the weights
  std::map<std::string, GivenValues> weightValues;  // explicit W_Q ... b_O, x·W convention

  ScaleMode scale = ScaleMode::HeadDim;
  double customScale = 1.0;

  bool causalMask = false;
  bool paddingMask = false;
  float maskFill = -std::numeric_limits<float>::infinity();  // masked_fill value

  double dropoutP = 0.0;                  // nn.Dropout(p) in train mode on the weights
  std::optional<uint64_t> dropoutSeed;    // torch.manual_seed before the dropout mask

  bool hasQkvBias() const { return qkvBias.value_or(init == WeightInit::TorchMha); }
  bool isCrossAttention() const { return context.present(); }
};

// What went wrong, and in which field ("dModel", "weights.values.W_Q[2][0]").
struct ConfigError {
  std::string field;
  std::string message;
};

}  // namespace attention_lab
