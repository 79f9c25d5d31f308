// The projection weights W_Q, W_K, W_V, W_O and their biases, drawn the way
// the PyTorch modules named in config.h draw them.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "config.h"
#include "torch_random.h"

namespace attention_lab {

// name ("W_Q", ..., "b_O") -> tensor, in the x·W convention: W is [D, D]
// with Q = X·W_Q + b_Q, biases are [D]. Only the tensors that exist are
// present (no b_Q without qkvBias, no W_O without outProj).
using WeightSet = std::map<std::string, Tensor>;

// The names a config's weights stage holds, in draw order.
std::vector<std::string> weightNames(const AttentionConfig& config);

// Draws (unless config.weightValues gives every value of the stage), then
// applies the explicit values, then config.weightEdits. Shapes and edit
// indices were checked by validateConfig.
WeightSet initWeights(const AttentionConfig& config, TorchGenerator& generator);

// Single edited numbers written over `w`: W[row][col], or b[col] for a vector
// (indices checked by validateConfig). A tensor `w` lacks starts at zeros.
void applyWeightEdits(const AttentionConfig& config, const std::map<std::string, std::vector<CellEdit>>& edits,
                      WeightSet& w);

// The floats initWeights allocates at most at once, for the memory budget:
// every tensor of the set, and the larger of the draw's temporaries and the
// copy of the drawn set the draw cache keeps (draw_cache.h).
int64_t weightFloats(const AttentionConfig& config);

}  // namespace attention_lab
