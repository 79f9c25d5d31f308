// A Llama or Qwen2 checkpoint's weights (model.safetensors; a sharded
// checkpoint's files each fill the slots its model.safetensors.index.json maps
// to them, through readWeightSlots), float32 in memory; the file may hold F32, F16 or BF16 (converted on
// read, exactly as torch's .float()). Keys as LlamaForCausalLM's and
// Qwen2ForCausalLM's state dicts spell them (model.embed_tokens.weight,
// model.layers.0.self_attn.q_proj.weight, ..., model.norm.weight,
// lm_head.weight when the head is not tied). Other tensors are ignored. A
// missing key, a wrong shape or dtype, bytes outside the file or a weight that
// is not finite is an error on "weights file" naming the key as the file
// spells it.
#pragma once

#include <cstdint>
#include <vector>

#include "config.h"
#include "llama_config.h"
#include "status.h"
#include "weight_slots.h"

namespace attention_lab {

// nn.Linear weights are [out, in] (y = x @ W.T + b); q = nh · hd, kv = nkv · hd.
struct LlamaWeights {
  Tensor embedTokens;  // [V, d] the token embedding and, tied, the unembedding
  struct Layer {
    Tensor inputLayernorm;          // [d]
    Tensor qWeight, qBias;          // [q, d], [q] (the bias: qkvBias() only)
    Tensor kWeight, kBias;          // [kv, d], [kv]
    Tensor vWeight, vBias;          // [kv, d], [kv]
    Tensor oWeight, oBias;          // [d, q], [d] (the bias: oBias() only)
    Tensor postAttentionLayernorm;  // [d]
    Tensor gateWeight, upWeight;    // [inner, d]
    Tensor downWeight;              // [d, inner]
  };
  std::vector<Layer> layers;
  Tensor norm;    // [d] the final RMSNorm
  Tensor lmHead;  // [V, d]; empty when tied (the head is embedTokens)
};

// The checkpoint's tensors, layer by layer in the order the forward reads them; sizes w.layers
// for the config. Biases only where the family has them, lm_head.weight only when untied.
std::vector<WeightSlot> llamaWeightSlots(const LlamaConfig& config, LlamaWeights& w);

// The safetensors file's `size` bytes at `bytes` -> the weights of `config`.
Status readLlamaWeights(const LlamaConfig& config, const uint8_t* bytes, size_t size, LlamaWeights& out);

}  // namespace attention_lab
