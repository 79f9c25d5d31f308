// A Hugging Face checkpoint of one of the families the engine runs, behind one
// interface for the loader (checkpoint_loader.h) and the glue: its config.json
// read by model_type, its tensors as weight slots, and its forward, whose kept
// tensors are listed by name (each family's namedTensors), so a caller walks a
// run without knowing the family.
//
//   model_type "gpt2" (or absent)   gpt2_config.h, gpt2_weights.h, gpt2_model.h
//   model_type "llama", "qwen2"     llama_config.h, llama_weights.h, llama_model.h
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gpt2_config.h"
#include "gpt2_model.h"
#include "gpt2_weights.h"
#include "head_scores.h"
#include "llama_config.h"
#include "llama_model.h"
#include "llama_weights.h"
#include "status.h"
#include "weight_slots.h"

namespace attention_lab {

enum class ModelFamily { Gpt2, Llama };  // Llama: llama and qwen2 (LlamaConfig::family)

// The sizes every family has, as a run's caller reads them.
struct CheckpointSizes {
  const char* family;  // config.json's model_type: "gpt2", "llama", "qwen2"
  int64_t layers, heads, kvHeads, dModel, headDim, vocab;
  int64_t maxTokens;  // its positions, or fewer when a longer run's tensors would pass the memory limit
  bool qkvBias;       // q, k, v projections with a bias: GPT-2's c_attn, Qwen2's, Llama's attention_bias
};

struct Checkpoint {
  ModelFamily family = ModelFamily::Gpt2;
  Gpt2Config gpt2;
  Gpt2Weights gpt2Weights;
  LlamaConfig llama;
  LlamaWeights llamaWeights;
};

// A kept tensor and its name, as the fixtures and the JS API name it.
using RunTensor = std::pair<const char*, const Tensor*>;

// One forward's kept tensors: the run's own (embeddings, logits, probs) and each layer's.
struct CheckpointRun {
  ModelFamily family = ModelFamily::Gpt2;
  Gpt2Result gpt2;
  LlamaResult llama;
  std::vector<HeadScores> headScores;  // per layer, measured on the run's ids (head_scores.h)
  std::vector<int64_t> ids() const;
  std::vector<RunTensor> tensors() const;
  std::vector<std::vector<RunTensor>> layers() const;
};

// config.json's text -> the family and its config; errors name "config.json.<key>".
Status parseCheckpointConfig(const std::string& text, Checkpoint& out);
CheckpointSizes checkpointSizes(const Checkpoint& checkpoint);
// The float32 weights the config's checkpoint holds.
int64_t checkpointWeightCount(const Checkpoint& checkpoint);
// The tensors to read, keys as the file spells them; `has` answers whether the
// checkpoint's files hold a key (for a family whose keys may carry a prefix).
std::vector<WeightSlot> checkpointSlots(Checkpoint& checkpoint, const std::function<bool(const std::string&)>& has);
// The forward of `ids`, and each layer's head scores; errors name "ids" or "ids[i]".
// Without `allLogits`, the logits are the last position's alone (1, V).
Status runCheckpoint(const Checkpoint& checkpoint, const std::vector<int64_t>& ids, CheckpointRun& out,
                     bool allLogits = true);
// The names of a run's tensors, its own and then a layer's, as CheckpointRun lists them.
std::vector<std::string> checkpointTensorNames(const Checkpoint& checkpoint);

}  // namespace attention_lab
