// The q, k and v one attention head reads, taken from a run of one sentence:
// what the two steppers (kv_cache.h, online_softmax.h) start from.
#pragma once

#include <cstdint>

#include "attention.h"

namespace attention_lab {

// The q and k a head's scores use are the last of Q / Q_norm / Q_rope (K /
// K_norm / K_rope) the run has; query head h reads KV head h // (H // H_kv)
// (repeat_interleave, not repeat). Each tensor holds one sentence:
//   q = Q_rope[b]                      # (S, H·dk)
//   k = K_rope[b]; v = V[b]            # (S_kv, H_kv·dk)
struct HeadInputs {
  const Tensor* q = nullptr;
  const Tensor* k = nullptr;
  const Tensor* v = nullptr;
  int64_t S = 0, Skv = 0, H = 0, Hkv = 0, dk = 0;

  int64_t kvHeadOf(int64_t h) const { return h / (H / Hkv); }
  // Query i of head h: dk floats.
  const float* query(int64_t i, int64_t h) const { return q->data.data() + (i * H + h) * dk; }
  // The keys (values) of KV head g: S_kv rows of dk floats, kvStride() apart.
  const float* keys(int64_t g) const { return k->data.data() + g * dk; }
  const float* values(int64_t g) const { return v->data.data() + g * dk; }
  int64_t kvStride() const { return Hkv * dk; }
};

// Q, K, V and their qkNorm and RoPE forms: what a stepper asks runAttention
// for (besides its own tensors).
TensorSet headInputTensors();

// The head inputs of `r`, a run of one sentence that kept headInputTensors().
HeadInputs headInputsOf(const AttentionResult& r);

// Both steppers walk the one attention layer the config describes: model "tiny" has none to walk.
Status checkStepperModel(const AttentionConfig& c);

}  // namespace attention_lab
