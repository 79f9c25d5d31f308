// The Llama and Qwen2 forward (Hugging Face's LlamaForCausalLM and
// Qwen2ForCausalLM in eval mode, one sequence, no cache, eager attention) in
// float32, every intermediate the attention steps show kept per layer.
// Shapes: T tokens (1..max_position_embeddings), d = hidden_size, nh query heads
// and nkv key-value heads of hd = d / nh, inner = intermediate_size, V = vocab_size.
//
//   x = embed_tokens[ids]                                               (T, d)
//   cos, sin = RoPE of positions 0..T-1 with base rope_theta            (T, hd)
//   per layer: h = rms_norm(x) · input_layernorm                        (T, d)
//              Q = h @ q_projᵀ (+ b), K, V = h @ k_projᵀ, v_projᵀ (+ b)   (nh | nkv, T, hd)
//              Q, K = Q · cos + rotate_half(Q) · sin, the same for K
//              weights = softmax(causal(Q repeat_kv(K)ᵀ · hd^-0.5))     (nh, T, T)
//              x = x + concat(weights repeat_kv(V)) @ o_projᵀ (+ b)      (T, d)
//              x = x + down_proj(silu(gate_proj(h2)) · up_proj(h2)),
//                  h2 = rms_norm(x) · post_attention_layernorm          (T, d)
//   logits = rms_norm(x) · norm @ lm_headᵀ (or embed_tokensᵀ, tied)     (T, V)
//   probs = softmax(logits[T − 1])                                      (V)
//
// The reference is tests/reference/llama/model.py (plain PyTorch 1.13 written
// after Hugging Face's modeling_llama.py and modeling_qwen2.py);
// tests/cpp/llama_test.cpp compares.
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "config.h"
#include "llama_config.h"
#include "llama_weights.h"
#include "status.h"

namespace attention_lab {

// One layer's intermediates, named as model.py's trace names them.
struct LlamaLayer {
  Tensor norm1;                             // (T, d) input_layernorm(x)
  Tensor qBeforeRope, kBeforeRope;          // (nh, T, hd), (nkv, T, hd) the projections
  Tensor Q, K, V;                           // (nh, T, hd), (nkv, T, hd), (nkv, T, hd); Q and K after RoPE
  Tensor scores, scaled, weights;           // (nh, T, T) Q Kᵀ; · hd^-0.5 (before the mask); the softmax
  Tensor headOutputs;                       // (nh, T, hd) weights V
  Tensor concat;                            // (T, nh · hd) the heads side by side
  Tensor attnOut, residual, norm2;          // (T, d) after o_proj; x + attnOut; post_attention_layernorm
  Tensor mlpGate, mlpUp, mlpAct, mlpGated;  // (T, inner) gate_proj, up_proj, silu(gate), silu(gate) · up
  Tensor mlpOut, output;                    // (T, d) down_proj(mlpGated); residual + mlpOut: the next x
};

struct LlamaResult {
  std::vector<int64_t> ids;
  Tensor tokenEmbeddings;   // (T, d)
  Tensor ropeCos, ropeSin;  // (T, hd) every layer's rotation
  std::vector<LlamaLayer> layers;
  Tensor normF;   // (T, d) the final norm
  Tensor logits;  // (T, V)
  Tensor probs;   // (V) the next token's, after the last position
};

// A kept tensor with the name the fixtures give it.
using LlamaNamedTensor = std::pair<const char*, const Tensor*>;
std::array<LlamaNamedTensor, 20> namedTensors(const LlamaLayer& layer);
std::array<LlamaNamedTensor, 6> namedTensors(const LlamaResult& result);

// The bytes a run of T tokens keeps (every tensor above, and the scratch),
// checked against kMaxIntermediateBytes before anything is allocated.
int64_t llamaKeptBytes(const LlamaConfig& config, int64_t T);

// The forward of `ids` (each in [0, V), 1..max_position_embeddings of them)
// through `weights`, read for `config`. Errors name the field "ids" (or "ids[i]").
// Without `allLogits`, logits holds the last position's row alone (1, V), as probs needs.
Status runLlamaForward(const LlamaConfig& config, const LlamaWeights& weights, const std::vector<int64_t>& ids,
                       LlamaResult& result, bool allLogits = true);

}  // namespace attention_lab
