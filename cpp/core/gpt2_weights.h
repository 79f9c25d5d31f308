// A GPT-2 checkpoint's weights (model.safetensors), float32 in memory; the file
// may hold F32, F16 or BF16 (converted on read, exactly as torch's .float()).
// Keys as in the gpt2 repository (wte.weight, h.0.attn.c_attn.weight, ...) or
// the same under "transformer." (a GPT2LMHeadModel's own state dict); the
// prefix is the one wte.weight has. Other tensors (h.N.attn.bias, the causal
// mask buffers; lm_head.weight, tied to wte) are ignored. A missing key, a
// wrong shape or dtype, bytes outside the file or a weight that is not finite
// is an error on "weights file" naming the key as the file spells it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "config.h"
#include "gpt2_config.h"
#include "status.h"
#include "weight_slots.h"

namespace attention_lab {

struct Gpt2Weights {
  std::string prefix;  // "" or "transformer."
  Tensor wte;          // [V, d] the token embedding and, transposed, the unembedding (tied head)
  Tensor wpe;          // [n_positions, d] the learned positions
  struct Layer {
    Tensor ln1Weight, ln1Bias;  // [d]
    Tensor attnWeight;          // [d, 3d] c_attn, Conv1D: [in, out], y = x @ W + b
    Tensor attnBias;            // [3d]
    Tensor projWeight;          // [d, d] attn.c_proj
    Tensor projBias;            // [d]
    Tensor ln2Weight, ln2Bias;  // [d]
    Tensor fcWeight;            // [d, inner] mlp.c_fc
    Tensor fcBias;              // [inner]
    Tensor fcProjWeight;        // [inner, d] mlp.c_proj
    Tensor fcProjBias;          // [d]
  };
  std::vector<Layer> layers;
  Tensor lnFWeight, lnFBias;  // [d]
};

// GPT2Model's keys (""), or GPT2LMHeadModel's under its base_model_prefix
// ("transformer."): the prefix that the checkpoint's wte.weight has.
std::string gpt2KeyPrefix(const std::function<bool(const std::string&)>& has);

// The checkpoint's tensors in the order of GPT2LMHeadModel's state dict, keys
// under w.prefix (set it first); sizes w.layers for the config.
std::vector<WeightSlot> gpt2WeightSlots(const Gpt2Config& config, Gpt2Weights& w);

// The safetensors file's `size` bytes at `bytes` -> the weights of `config`.
Status readGpt2Weights(const Gpt2Config& config, const uint8_t* bytes, size_t size, Gpt2Weights& out);

}  // namespace attention_lab
