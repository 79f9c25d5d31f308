// A GPT-2 checkpoint's config.json (Hugging Face's GPT2Config), the fields its
// forward reads. Every error names its field as "config.json.n_embd".
//
//   n_layer, n_head, n_embd     layers, heads per layer, the residual stream's width
//   n_positions (or n_ctx)      the learned positions: the most tokens a run reads
//   vocab_size                  rows of wte, the embedding and (tied) unembedding
//   n_inner                     the MLP's width; absent or null: 4 · n_embd
//   layer_norm_epsilon          every LayerNorm's eps (default 1e-5)
//   activation_function         "gelu_new" only (the default)
//   model_type                  "gpt2" when given
//   scale_attn_weights          true when given (scores / √hs)
//   scale_attn_by_inverse_layer_idx, reorder_and_upcast_attn    false when given
//
// Sizes are checked against size_limits.h before anything is allocated, and
// the weights together against kMaxModelWeightBytes.
#pragma once

#include <cstdint>
#include <string>

#include "status.h"

namespace attention_lab {

struct Gpt2Config {
  int64_t nLayer = 0, nHead = 0, nEmbd = 0, nPositions = 0, vocabSize = 0, nInner = 0;
  float layerNormEpsilon = 1e-5f;  // a Python float that the LayerNorm kernel rounds to float32
  int64_t headDim() const { return nEmbd / nHead; }
};

// The field of config.json's `key` as an error names it: "config.json.n_embd".
std::string gpt2ConfigField(const char* key);

// The number of float32 weights the config's checkpoint holds (wte, wpe, the
// layers, ln_f); the tied head adds none.
int64_t gpt2WeightCount(const Gpt2Config& config);

// config.json's text -> the config.
Status parseGpt2Config(const std::string& text, Gpt2Config& out);

}  // namespace attention_lab
