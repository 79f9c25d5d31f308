// The one attention config, as a struct. Its JSON form, the defaults, the
// ranges and the help of every field are the schema table in schema.cpp:
// the JS API, the CLI, the page, the element and the docs all derive from
// that table. The native tests and the benchmark build this struct directly.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "status.h"

namespace attention_lab {

// A dense float32 tensor, row-major.
struct Tensor {
  std::vector<int64_t> shape;
  std::vector<float> data;
};

// One edited number: row `row` (or the embedding row of `token`), column
// `col`. A bias has one row. Applied over the drawn values, so every random
// draw stays where PyTorch makes it.
struct CellEdit {
  int64_t row = 0;
  int64_t col = 0;
  float value = 0;
  std::string token;  // embedding edits may name the token instead of its id
  std::string field;  // "weights.edits.W_Q[3]": for errors found once sizes are known
};

// Explicit values for a tensor the engine would otherwise draw. A null in
// the JSON (given[i] == false) keeps the drawn number there.
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
  bool textsGivenAsList = false;                // from texts/contextTexts (errors then name texts[b])
  std::optional<std::array<int64_t, 3>> randn;  // [B, S, dModel]: torch.randn(B, S, dModel)
  bool present() const { return !texts.empty() || randn.has_value(); }
};

// Each enum's JSON names sit next to it, in the enum's order; the schema
// table lists them once from here.
enum class WeightInit {
  TorchLinear,  // nn.Linear(dModel, dModel, bias=qkvBias) for Q, K, V, then W_O   (default)
  TorchRand,    // torch.rand(dModel, dModel) for W_Q, W_K, W_V, then W_O; no biases
  TorchMha,     // nn.MultiheadAttention(dModel, numHeads): out_proj, then xavier in_proj
  Identity,     // W = I, no draws
};
inline constexpr std::array<const char*, 4> kWeightInitNames = {"torch-linear", "torch-rand", "torch-mha", "identity"};

enum class ProjectionLayout {
  Fused,    // one [dModel, dModel] projection viewed as heads   (default)
  PerHead,  // each head draws its own [dModel, headDim] projection
};
inline constexpr std::array<const char*, 2> kLayoutNames = {"fused", "per-head"};

enum class ScaleMode {
  HeadDim,  // 1/sqrt(headDim)   (default)
  DModel,   // 1/sqrt(dModel), as some tutorials write it
  None,     // 1
  Custom,   // customScale, like scaled_dot_product_attention(scale=...); a number in the JSON
};
inline constexpr std::array<const char*, 3> kScaleNames = {"head-dim", "d-model", "none"};

enum class MaskKind {
  None,
  Causal,         // torch.triu(ones(S, S_kv), diagonal=1): key j is blocked for query i when j > i
  Padding,        // key_padding_mask: <pad> keys are blocked
  CausalPadding,  // both
};
inline constexpr std::array<const char*, 4> kMaskNames = {"none", "causal", "padding", "causal+padding"};
inline bool blocksFuture(MaskKind m) { return m == MaskKind::Causal || m == MaskKind::CausalPadding; }
inline bool blocksPadding(MaskKind m) { return m == MaskKind::Padding || m == MaskKind::CausalPadding; }

enum class Positional { None, Sinusoidal };
inline constexpr std::array<const char*, 2> kPositionalNames = {"none", "sinusoidal"};

// The projection tensors a config may give or edit, in pipeline order.
inline constexpr std::array<const char*, 8> kWeightNames = {"W_Q", "W_K", "W_V", "b_Q", "b_K", "b_V", "W_O", "b_O"};

struct AttentionConfig {
  SequenceSource input;                           // queries (and keys/values for self-attention)
  SequenceSource context;                         // keys/values for cross-attention; absent = self-attention
  std::optional<std::vector<std::string>> vocab;  // id = index; default built from the tokens
  std::optional<int64_t> maxLen;                  // pad with <pad> or truncate every sequence

  int64_t dModel = 8;
  int64_t numHeads = 2;
  uint64_t seed = 0;  // torch.manual_seed(seed) before the first draw

  // Embedding table [len(vocab), dModel]; default nn.Embedding(len(vocab), dModel).weight.
  std::optional<GivenValues> embeddingValues;
  std::vector<CellEdit> embeddingEdits;
  Positional positional = Positional::None;

  WeightInit init = WeightInit::TorchLinear;
  ProjectionLayout layout = ProjectionLayout::Fused;
  std::optional<bool> qkvBias;  // unset: the engine decides (true for torch-mha, false otherwise)
  bool outProj = true;
  std::optional<uint64_t> weightsSeed;                       // torch.manual_seed before the weights
  std::map<std::string, GivenValues> weightValues;           // explicit W_Q ... b_O, x·W convention
  std::map<std::string, std::vector<CellEdit>> weightEdits;  // single edited numbers of W_Q ... b_O

  ScaleMode scale = ScaleMode::HeadDim;
  double customScale = 1.0;

  MaskKind mask = MaskKind::None;
  float maskFill = -std::numeric_limits<float>::infinity();  // masked_fill value

  double dropoutP = 0.0;                // nn.Dropout(p) in train mode on the weights
  std::optional<uint64_t> dropoutSeed;  // torch.manual_seed before the dropout mask

  // The one place the qkvBias rule lives.
  bool hasQkvBias() const { return qkvBias.value_or(init == WeightInit::TorchMha); }
  // Fills in what the engine decides for settings left unset, so a config can
  // report the settings a run used (result.settings in JS).
  void resolveDefaults() { qkvBias = hasQkvBias(); }
  bool isCrossAttention() const { return context.present(); }
};

}  // namespace attention_lab
