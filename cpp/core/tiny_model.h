// The tiny trained model (model "tiny"): a 2-layer attention-only transformer
// over UTF-8 bytes, trained by tests/reference/tiny/train.py, whose forward
// is tests/reference/tiny/model.py. Shapes: T bytes (1..64), d = 64 the
// residual stream, nh = 4 heads of hs = 16, V = 256 byte values.
//
//   x0 = tok_emb[ids] + pos_emb[:T]                        (T, d)
//   per layer: Q, K, V = x W_Qᵀ, x W_Kᵀ, x W_Vᵀ            (T, d) -> heads (nh, T, hs)
//              weights = softmax(causal(Q Kᵀ / 4))          (nh, T, T)
//              x = x + concat(weights V) W_Oᵀ               (T, d)
//   logits = x tok_embᵀ (tied unembedding), probs = softmax(logits)   (T, V)
//
// Every stage is kept, and the heads are measured on the spot as
// tests/reference/tiny/scores.py measures them (previous-token and
// induction scores, the second copy of a text typed twice).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config.h"
#include "errors.h"

namespace attention_lab {

// The training steps whose weights ship (web/api/tiny/step-NNNN.safetensors);
// a test checks this list against tests/reference/tiny/report.json.
inline constexpr std::array<int64_t, 8> kTinyCheckpoints = {0, 500, 750, 1000, 1250, 1500, 2000, 3000};

// The model's fixed sizes (model.py's TinyConfig).
inline constexpr int64_t kTinyLayers = 2, kTinyHeads = 4, kTinyDModel = 64, kTinyHeadDim = 16, kTinyVocab = 256,
                         kTinyContext = 64;

// The place of `step` in kTinyCheckpoints, or -1.
int64_t tinyCheckpointIndex(int64_t step);
inline bool isTinyCheckpoint(int64_t step) { return tinyCheckpointIndex(step) >= 0; }
// "0, 500, 750, …, 3000": the steps as an error lists them.
std::string tinyCheckpointList();

// The weights of one checkpoint, float32 (the file's float16 exactly).
struct TinyWeights {
  Tensor tokEmb;  // [V, d] tok_emb.weight: the embedding and, transposed, the unembedding
  Tensor posEmb;  // [64, d] pos_emb.weight
  struct Layer {
    Tensor wQ, wK, wV, wO;  // [d, d] each, nn.Linear's [out, in]: y = x Wᵀ
  };
  std::array<Layer, kTinyLayers> layers;
};

// A safetensors file's bytes -> the weights; errors on the field "weights file".
Status readTinyWeights(const uint8_t* bytes, size_t size, TinyWeights& out);

// The weights loaded so far, by checkpoint.
class TinyWeightStore {
 public:
  // Reads and keeps the file of checkpoint `step` (replacing one kept before):
  // an unknown step is an error on "checkpoint", bad bytes on "weights file".
  Status load(int64_t step, const uint8_t* bytes, size_t size);
  const TinyWeights* find(int64_t step) const;

 private:
  std::array<std::optional<TinyWeights>, kTinyCheckpoints.size()> weights_;  // by place in kTinyCheckpoints
};

// One layer's intermediates, named as model.py's Attention keeps them.
struct TinyLayer {
  Tensor Q, K, V;                  // (T, d)
  Tensor scores, scaled, weights;  // (nh, T, T)
  Tensor headOutputs;              // (nh, T, hs)
  Tensor concat, attnOut;          // (T, d)
  Tensor residual;                 // (T, d): x after the layer
};

// A kept tensor with the name the JS result and the PyTorch fixtures give it.
using NamedTensor = std::pair<const char*, const Tensor*>;
// A layer's tensors, in pipeline order: Q, K, V, scores, scaled, weights, headOutputs, concat, attnOut, residual.
std::array<NamedTensor, 10> namedTensors(const TinyLayer& layer);

// The heads measured on this text (scores.py); a score is null where it is undefined.
struct TinyHeadScores {
  using PerHead = std::array<std::array<double, kTinyHeads>, kTinyLayers>;
  std::optional<PerHead> previousToken;  // T ≥ 2: mean over i ≥ 1 of weights[h, i, i−1]
  std::optional<PerHead> induction;      // bytes s + s: mean over i ∈ [n, 2n) of weights[h, i, i−n+1]
  std::optional<int64_t> repeatLength;   // n = |s| when the bytes are s + s
};

// The second copy of a text typed twice (n ≥ 2): positions i ∈ [n, 2n−1).
struct TinySecondCopy {
  int64_t correct = 0;  // argmax(logits[i]) == ids[i + 1]
  int64_t total = 0;
  double loss = 0;  // mean cross-entropy, in nats
};

struct TinyResult {
  int64_t checkpoint = 0;
  std::string text;
  std::vector<int64_t> ids;                    // the text's UTF-8 bytes
  Tensor tokenEmbeddings, positionEmbeddings;  // (T, d)
  Tensor residual0;                            // (T, d)
  std::array<TinyLayer, kTinyLayers> layers;
  Tensor logits, probs;  // (T, V)
  TinyHeadScores headScores;
  std::optional<TinySecondCopy> secondCopy;  // only for a text typed twice
  std::vector<Warning> warnings;             // model-ignores-fields
};

// The whole model's: tokenEmbeddings, positionEmbeddings, residual0, logits, probs.
std::array<NamedTensor, 5> namedTensors(const TinyResult& result);

// The forward of `ids` (1..64 byte values) with every intermediate, and the head scores.
void runTinyForward(const TinyWeights& weights, const std::vector<int64_t>& ids, TinyResult& result);

// What a run with model "tiny" reads from its config (tiny_input.cpp): the
// text (1..64 UTF-8 bytes) as ids, a shipped checkpoint, and a warning naming
// every other field set away from its default. The engine's wasm reads a
// config this far; the forward is in the model's own wasm, which the page
// loads with the mode (cpp/wasm/tiny_bindings.cpp), so it weighs nothing before.
struct TinyRunInput {
  int64_t checkpoint = 0;
  std::string text;
  std::vector<int64_t> ids;
  std::vector<Warning> warnings;  // model-ignores-fields
};
Status readTinyRun(const AttentionConfig& config, TinyRunInput& input);

// The forward of `input` through the weights of its checkpoint, which must be loaded in `store`.
Status runTinyModel(const TinyRunInput& input, const TinyWeightStore& store, TinyResult& result);

// Both: a run of `config` with model "tiny".
Status runTinyModel(const AttentionConfig& config, const TinyWeightStore& store, TinyResult& result);

}  // namespace attention_lab
