// The tiny trained model (model "tiny"): a 2-layer attention-only transformer
// over UTF-8 bytes, trained by tests/reference/tiny/train.py, whose forward
// is tests/reference/tiny/model.py. Shapes: T bytes (1..256), d = 64 the
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
// induction scores, the second copy of a run of bytes typed again).
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
inline constexpr std::array<int64_t, 8> kTinyCheckpoints = {0, 500, 750, 1000, 1250, 1500, 3000, 11000};

// The model's fixed sizes (model.py's TinyConfig).
inline constexpr int64_t kTinyLayers = 2, kTinyHeads = 4, kTinyDModel = 64, kTinyHeadDim = 16, kTinyVocab = 256,
                         kTinyContext = 256;
// A repeat is a run of at least this many bytes typed again (scores.py's MIN_REPEAT):
// "the " typed twice is one, two equal bytes are not.
inline constexpr int64_t kTinyMinRepeat = 4;

// The place of `step` in kTinyCheckpoints, or -1.
int64_t tinyCheckpointIndex(int64_t step);
inline bool isTinyCheckpoint(int64_t step) { return tinyCheckpointIndex(step) >= 0; }
// "0, 500, 750, …, 11000": the steps as an error lists them.
std::string tinyCheckpointList();

// The weights of one checkpoint, float32 (the file's float16 exactly).
struct TinyWeights {
  Tensor tokEmb;  // [V, d] tok_emb.weight: the embedding and, transposed, the unembedding
  Tensor posEmb;  // [kTinyContext, d] pos_emb.weight
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
// The repeat: the positions of the later copy of a run of ≥ kTinyMinRepeat bytes
// typed before (head_scores.h repeatedPositions), anywhere in the text: s + s,
// "s. s", a third copy, or a span repeated inside other text. Each has an
// induction target t(i) (head_scores.h), the byte after its earlier copy.
struct TinyHeadScores {
  using PerHead = std::array<std::array<double, kTinyHeads>, kTinyLayers>;
  std::optional<PerHead> previousToken;  // T ≥ 2: mean over i ≥ 1 of weights[h, i, i−1]
  std::optional<PerHead> induction;      // a repeat: mean over its positions i of weights[h, i, t(i)]
  std::vector<int64_t> repeatTargets;    // per position: t(i) in the repeat, −1 outside it
};

// The second copy: the repeat's positions i before the last byte (T − 1), each predicting byte i + 1.
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
  std::optional<TinySecondCopy> secondCopy;  // only when the repeat has a position before the last byte
  std::vector<Warning> warnings;             // model-ignores-fields
};

// The whole model's: tokenEmbeddings, positionEmbeddings, residual0, logits, probs.
std::array<NamedTensor, 5> namedTensors(const TinyResult& result);

// The forward of `ids` (1..kTinyContext byte values) with every intermediate, and the head scores.
void runTinyForward(const TinyWeights& weights, const std::vector<int64_t>& ids, TinyResult& result);

// What a run with model "tiny" reads from its config (tiny_input.cpp): the
// text (1..kTinyContext UTF-8 bytes) as ids, a shipped checkpoint, and a warning naming
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
