// A Llama or Qwen2 checkpoint's config.json (Hugging Face's LlamaConfig and
// Qwen2Config), the fields their forward reads. Every error names its field as
// "config.json.hidden_size".
//
//   model_type                    "llama" or "qwen2": the family
//   num_hidden_layers             layers
//   hidden_size                   the residual stream's width d
//   num_attention_heads           query heads nh, of head_dim hd = d / nh (hd even: RoPE rotates pairs)
//   num_key_value_heads           key-value heads nkv, dividing nh (grouped-query attention);
//                                 llama: absent or null = nh; qwen2: required (Qwen2Config's default, 32,
//                                 is no checkpoint's), null = nh
//   head_dim                      absent, null or d / nh (a head_dim of its own is not computed)
//   intermediate_size             the MLP's width
//   vocab_size                    rows of embed_tokens (and of lm_head)
//   max_position_embeddings       the most tokens a run reads (RoPE has no table: nothing is allocated
//                                 for it)
//   rms_norm_eps                  every RMSNorm's eps (default 1e-6)
//   rope_theta                    RoPE's base (default 10000)
//   tie_word_embeddings           lm_head is embed_tokens (default false): no lm_head.weight in the file
//   attention_bias                llama: q/k/v/o_proj have biases (default false); qwen2: q/k/v always do,
//                                 o_proj never (the field is not read)
//   hidden_act                    "silu" only (the default)
//   rope_scaling                  absent or null only (linear, dynamic, yarn, llama3 ... are not computed)
//   mlp_bias                      llama: absent or false only
//   use_sliding_window            qwen2: absent or false only
//
// Sizes are checked against size_limits.h before anything is allocated, and
// the weights together against kMaxModelWeightBytes.
#pragma once

#include <cstdint>
#include <string>

#include "status.h"

namespace attention_lab {

enum class LlamaFamily { Llama, Qwen2 };

struct LlamaConfig {
  LlamaFamily family = LlamaFamily::Llama;
  int64_t nLayer = 0, nHead = 0, nKvHead = 0, hiddenSize = 0, intermediateSize = 0, vocabSize = 0, maxPositions = 0;
  float rmsNormEps = 1e-6f;    // a Python float that meets a float32 tensor: rounded to float32
  float ropeTheta = 10000.0f;  // torch.tensor(rope_theta) ** exponents: a float32 base
  bool tieWordEmbeddings = false;
  bool attentionBias = false;  // llama's attention_bias
  int64_t headDim() const { return hiddenSize / nHead; }
  // Which linear layers of the attention have a bias.
  bool qkvBias() const { return family == LlamaFamily::Qwen2 || attentionBias; }
  bool oBias() const { return family == LlamaFamily::Llama && attentionBias; }
};

// "llama" or "qwen2", as config.json's model_type spells it.
const char* llamaFamilyName(LlamaFamily family);

// The field of config.json's `key` as an error names it: "config.json.hidden_size".
std::string llamaConfigField(const char* key);

// The number of float32 weights the config's checkpoint holds (an untied lm_head included).
int64_t llamaWeightCount(const LlamaConfig& config);

// config.json's text -> the config.
Status parseLlamaConfig(const std::string& text, LlamaConfig& out);

}  // namespace attention_lab
