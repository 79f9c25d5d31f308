// GPT-2's forward (Hugging Face's GPT2LMHeadModel in eval mode, one sequence,
// no cache) in float32, every intermediate the attention steps show kept per
// layer. Shapes: T tokens (1..n_positions), d = n_embd, nh = n_head heads of
// hs = d / nh, inner = n_inner, V = vocab_size.
//
//   x = wte[ids] + wpe[0..T)                                          (T, d)
//   per layer: h = ln_1(x)                                            (T, d)
//              Q | K | V = h @ c_attn.weight + c_attn.bias            (T, 3d) -> heads (nh, T, hs) each
//              weights = softmax(causal(Q Kᵀ / √hs))                  (nh, T, T)
//              x = x + concat(weights V) @ c_proj.weight + c_proj.bias (T, d)
//              x = x + mlp(ln_2(x)), mlp = c_proj(gelu_new(c_fc(·)))  (T, d)
//   logits = ln_f(x) @ wteᵀ (tied head)                               (T, V)
//   probs = softmax(logits[T − 1])                                    (V)
//
// The reference is tests/reference/gpt2/model.py (plain PyTorch 1.13 written
// after Hugging Face's modeling_gpt2.py); tests/cpp/gpt2_test.cpp compares.
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "config.h"
#include "gpt2_config.h"
#include "gpt2_weights.h"
#include "status.h"

namespace attention_lab {

// One layer's intermediates, named as model.py's trace names them.
struct Gpt2Layer {
  Tensor ln1;                      // (T, d) ln_1(x)
  Tensor Q, K, V;                  // (nh, T, hs)
  Tensor scores, scaled, weights;  // (nh, T, T) Q Kᵀ; / √hs (before the mask); the softmax of the masked
  Tensor headOutputs;              // (nh, T, hs) weights V
  Tensor concat, attnOut;          // (T, d) the heads side by side; after c_proj
  Tensor residual;                 // (T, d) x + attnOut
  Tensor ln2;                      // (T, d) ln_2(residual)
  Tensor mlpAct;                   // (T, inner) gelu_new(c_fc(ln2))
  Tensor mlpOut;                   // (T, d) c_proj(mlpAct)
  Tensor output;                   // (T, d) residual + mlpOut: the next layer's x
};

struct Gpt2Result {
  std::vector<int64_t> ids;
  Tensor tokenEmbeddings, positionEmbeddings, residual0;  // (T, d)
  std::vector<Gpt2Layer> layers;
  Tensor lnF;     // (T, d)
  Tensor logits;  // (T, V)
  Tensor probs;   // (V) the next token's, after the last position
};

// A kept tensor with the name the fixtures give it.
using Gpt2NamedTensor = std::pair<const char*, const Tensor*>;
std::array<Gpt2NamedTensor, 15> namedTensors(const Gpt2Layer& layer);
std::array<Gpt2NamedTensor, 6> namedTensors(const Gpt2Result& result);

// The bytes a run of T tokens keeps (every tensor above), checked against
// kMaxIntermediateBytes before anything is allocated.
int64_t gpt2KeptBytes(const Gpt2Config& config, int64_t T);

// The forward of `ids` (each in [0, V), 1..n_positions of them) through
// `weights`, read for `config`. Errors name the field "ids" (or "ids[i]").
// Without `allLogits`, logits holds the last position's row alone (1, V): the
// one probs needs: about 30% of a 124M GPT-2's forward saved, whatever the length (lm_head is 38.6M of its
// 125M multiply-adds per token).
Status runGpt2Forward(const Gpt2Config& config, const Gpt2Weights& weights, const std::vector<int64_t>& ids,
                      Gpt2Result& result, bool allLogits = true);

}  // namespace attention_lab
