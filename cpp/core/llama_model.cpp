// runLlamaForward as a sequence of stages, each mirroring the lines of
// tests/reference/llama/model.py (Hugging Face's modeling_llama.py and
// modeling_qwen2.py in plain PyTorch) that it computes. Shapes: T tokens,
// d = hidden_size, nh query heads and nkv key-value heads of hd,
// inner = intermediate_size, V = vocab_size.
//
// The arithmetic is float32. Products are the engine's gemm (gemm.h: nn.Linear
// as x · Wᵀ, summed in the order of the inner dimension, the bias added after
// the sum), the softmax the engine's (softmax.h), RMSNorm, RoPE and SiLU as
// PyTorch's CPU kernels evaluate them, step by step. The results match PyTorch
// within a few float32 roundings (the test's tolerance).
#include "llama_model.h"

#include <algorithm>
#include <cmath>

#include "model_ops.h"
#include "rope_scaling.h"
#include "softmax.h"

namespace attention_lab {
namespace {

// ---- embeddings ------------------------------------------------------------------
// ids (T,) -> tokenEmbeddings (T, d)
//   inputs_embeds = self.embed_tokens(input_ids); hidden_states = inputs_embeds
void embed(const LlamaWeights& w, const std::vector<int64_t>& ids, int64_t d, LlamaResult& r) {
  const int64_t T = static_cast<int64_t>(ids.size());
  r.tokenEmbeddings = zeros({T, d});
  for (int64_t t = 0; t < T; ++t) {
    const float* token = w.embedTokens.data.data() + ids[static_cast<size_t>(t)] * d;
    std::copy(token, token + d, r.tokenEmbeddings.data.data() + t * d);
  }
}

// ---- rotary position embedding -----------------------------------------------------
// T, hd, rope_theta -> ropeCos, ropeSin (T, hd)
//   inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).to(dtype=torch.float) / dim))
//   freqs = (inv_freq_expanded.float() @ position_ids_expanded.float()).transpose(1, 2)
//   emb = torch.cat((freqs, freqs), dim=-1)
//   cos = emb.cos(); sin = emb.sin()
// Every step in float32 as torch rounds it: base is torch.tensor(rope_theta), a float32; the
// exponent 2i / hd a float32 quotient; the power, its reciprocal, position · inv_freq (a product
// of one term) and the cosine and sine each rounded once to float32 (torch's vectorized powf,
// cosf and sinf are within an ulp of that: the test counts the entries that differ).
void rotary(float theta, int64_t hd, int64_t T, LlamaResult& r) {
  const int64_t half = hd / 2;
  const std::vector<float> invFreq = inverseFrequencies(static_cast<double>(theta), hd);
  r.ropeCos = zeros({T, hd});
  r.ropeSin = zeros({T, hd});
  for (int64_t t = 0; t < T; ++t)
    for (int64_t c = 0; c < hd; ++c) {
      const float angle = static_cast<float>(t) * invFreq[static_cast<size_t>(c % half)];
      r.ropeCos.data[static_cast<size_t>(t * hd + c)] = static_cast<float>(std::cos(static_cast<double>(angle)));
      r.ropeSin.data[static_cast<size_t>(t * hd + c)] = static_cast<float>(std::sin(static_cast<double>(angle)));
    }
}

// ---- RMSNorm -----------------------------------------------------------------------
// x (T, d), weight [d] -> (T, d), each row over its root mean square
//   hidden_states = hidden_states.to(torch.float32)
//   variance = hidden_states.pow(2).mean(-1, keepdim=True)
//   hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
//   return self.weight * hidden_states.to(input_dtype)
// The squares are float32 (pow(2)); their sum is taken in double and rounded, then divided
// by d in float32 (torch's CPU mean is a sum, then div_); rsqrt is 1 / sqrt in float32.
Tensor rmsNorm(const Tensor& x, const Tensor& weight, float eps) {
  const int64_t T = x.shape[0], d = x.shape[1];
  Tensor y = zeros(x.shape);
  for (int64_t t = 0; t < T; ++t) {
    const float* row = x.data.data() + t * d;
    double sum = 0;
    for (int64_t c = 0; c < d; ++c) sum += static_cast<float>(row[c] * row[c]);
    const float variance = static_cast<float>(sum) / static_cast<float>(d);
    const float rstd = 1.0f / std::sqrt(variance + eps);
    float* out = y.data.data() + t * d;
    for (int64_t c = 0; c < d; ++c) out[c] = weight.data[static_cast<size_t>(c)] * (row[c] * rstd);
  }
  return y;
}

// ---- attention -----------------------------------------------------------------------
// (T, heads · hd) -> (heads, T, hd)
//   .view(hidden_shape).transpose(1, 2)   # hidden_shape = (*input_shape, -1, self.head_dim)
Tensor splitHeads(const Tensor& y, int64_t hd) {
  const int64_t T = y.shape[0], heads = y.shape[1] / hd;
  Tensor out = zeros({heads, T, hd});
  for (int64_t h = 0; h < heads; ++h)
    for (int64_t t = 0; t < T; ++t) {
      const float* from = y.data.data() + t * heads * hd + h * hd;
      std::copy(from, from + hd, out.data.data() + (h * T + t) * hd);
    }
  return out;
}

// h (T, d) -> qBeforeRope (nh, T, hd), kBeforeRope, V (nkv, T, hd)
//   query_states = self.q_proj(hidden_states).view(hidden_shape).transpose(1, 2)
//   key_states = self.k_proj(hidden_states).view(hidden_shape).transpose(1, 2)
//   value_states = self.v_proj(hidden_states).view(hidden_shape).transpose(1, 2)
// (q/k/v_proj have biases in Qwen2, and in Llama with attention_bias)
void projectHeads(const LlamaConfig& c, const LlamaWeights::Layer& w, LlamaLayer& l) {
  const bool bias = c.qkvBias();
  l.qBeforeRope = splitHeads(linear(l.norm1, w.qWeight, bias ? &w.qBias : nullptr), c.headDim());
  l.kBeforeRope = splitHeads(linear(l.norm1, w.kWeight, bias ? &w.kBias : nullptr), c.headDim());
  l.V = splitHeads(linear(l.norm1, w.vWeight, bias ? &w.vBias : nullptr), c.headDim());
}

// x (heads, T, hd), cos, sin (T, hd) -> (heads, T, hd)
//   q_embed = (q * cos) + (rotate_half(q) * sin)
//   rotate_half(x) = torch.cat((-x2, x1), dim=-1)   # x1, x2 the first and second halves of hd
Tensor rotated(const Tensor& x, const Tensor& cos, const Tensor& sin) {
  const int64_t heads = x.shape[0], T = x.shape[1], hd = x.shape[2], half = hd / 2;
  Tensor y = zeros(x.shape);
  for (int64_t h = 0; h < heads; ++h)
    for (int64_t t = 0; t < T; ++t) {
      const float* in = x.data.data() + (h * T + t) * hd;
      const float* co = cos.data.data() + t * hd;
      const float* si = sin.data.data() + t * hd;
      float* out = y.data.data() + (h * T + t) * hd;
      for (int64_t c = 0; c < hd; ++c) {
        const float turned = c < half ? -in[c + half] : in[c - half];
        out[c] = in[c] * co[c] + turned * si[c];
      }
    }
  return y;
}

// Q (nh, T, hd), K (nkv, T, hd) -> scores, scaled, weights (nh, T, T)
//   key_states = repeat_kv(key, module.num_key_value_groups)
//   attn_weights = torch.matmul(query, key_states.transpose(2, 3)) * scaling   # self.scaling = self.head_dim**-0.5
//   attn_weights = attn_weights + causal_mask    # 0, or torch.finfo(float32).min above the diagonal
//   attn_weights = nn.functional.softmax(attn_weights, dim=-1, dtype=torch.float32)
// scaling is a Python float (head_dim ** -0.5 in double) that the product rounds to float32.
void attend(LlamaLayer& l) {
  ScoreRowSteps steps;
  steps.factor = static_cast<float>(std::pow(static_cast<double>(l.Q.shape[2]), -0.5));
  steps.mask = MaskStep::Add;
  causalAttention(l.Q, l.K, steps, l.scores, l.scaled, l.weights);
}

// concat (T, nh · hd), x (T, d) -> attnOut, residual (T, d)
//   attn_output = self.o_proj(attn_output)   # a bias only in Llama with attention_bias
//   hidden_states = residual + hidden_states
void addAttention(const LlamaConfig& c, const LlamaWeights::Layer& w, const Tensor& x, LlamaLayer& l) {
  l.attnOut = linear(l.concat, w.oWeight, c.oBias() ? &w.oBias : nullptr);
  l.residual = added(x, l.attnOut);
}

// ---- MLP -------------------------------------------------------------------------------
// residual (T, d) -> norm2 (T, d), mlpGate, mlpUp, mlpAct, mlpGated (T, inner), mlpOut, output (T, d)
//   hidden_states = self.post_attention_layernorm(hidden_states)
//   down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))   # act_fn: nn.SiLU
//   hidden_states = residual + hidden_states
// SiLU as PyTorch's CPU kernel: x / (1 + exp(-x)) in float32 (exp: the engine's softmaxExp,
// within an ulp of torch's, and the same bits in the native and wasm builds).
void feedForward(const LlamaWeights::Layer& w, float eps, LlamaLayer& l) {
  l.norm2 = rmsNorm(l.residual, w.postAttentionLayernorm, eps);
  l.mlpGate = linear(l.norm2, w.gateWeight, nullptr);
  l.mlpUp = linear(l.norm2, w.upWeight, nullptr);
  l.mlpAct = zeros(l.mlpGate.shape);
  l.mlpGated = zeros(l.mlpGate.shape);
  for (size_t k = 0; k < l.mlpGate.data.size(); ++k) {
    const float x = l.mlpGate.data[k];
    l.mlpAct.data[k] = x / (1.0f + softmaxExp(-x));
    l.mlpGated.data[k] = l.mlpAct.data[k] * l.mlpUp.data[k];
  }
  l.mlpOut = linear(l.mlpGated, w.downWeight, nullptr);
  l.output = added(l.residual, l.mlpOut);
}

// ---- the head ----------------------------------------------------------------------------
// x (T, d) -> normF (T, d), logits (T, V) (or the last row's (1, V)), probs (V)
//   hidden_states = self.norm(hidden_states)
//   logits = self.lm_head(hidden_states)   # nn.Linear(hidden_size, vocab_size, bias=False); tied: embed_tokens
//   probs = torch.softmax(logits[0, -1], dim=-1)
// A product with Bᵀ (linear's) gives a row alone as the whole product's row, bit for bit (gemm.h).
void unembed(const LlamaConfig& c, const LlamaWeights& w, const Tensor& x, bool allLogits, LlamaResult& r) {
  const int64_t d = x.shape[1], V = c.vocabSize;
  r.normF = rmsNorm(x, w.norm, c.rmsNormEps);
  const Tensor& head = c.tieWordEmbeddings ? w.embedTokens : w.lmHead;
  if (allLogits) {
    r.logits = linear(r.normF, head, nullptr);
  } else {
    const Tensor last{{1, d}, std::vector<float>(r.normF.data.end() - d, r.normF.data.end())};
    r.logits = linear(last, head, nullptr);
  }
  r.probs = zeros({V});
  softmaxRows(r.logits.data.data() + (r.logits.shape[0] - 1) * V, r.probs.data.data(), 1, V);
}

}  // namespace

std::array<LlamaNamedTensor, 20> namedTensors(const LlamaLayer& l) {
  return {{{"norm1", &l.norm1},
           {"qBeforeRope", &l.qBeforeRope},
           {"kBeforeRope", &l.kBeforeRope},
           {"Q", &l.Q},
           {"K", &l.K},
           {"V", &l.V},
           {"scores", &l.scores},
           {"scaled", &l.scaled},
           {"weights", &l.weights},
           {"headOutputs", &l.headOutputs},
           {"concat", &l.concat},
           {"attnOut", &l.attnOut},
           {"residual", &l.residual},
           {"norm2", &l.norm2},
           {"mlpGate", &l.mlpGate},
           {"mlpUp", &l.mlpUp},
           {"mlpAct", &l.mlpAct},
           {"mlpGated", &l.mlpGated},
           {"mlpOut", &l.mlpOut},
           {"output", &l.output}}};
}

std::array<LlamaNamedTensor, 6> namedTensors(const LlamaResult& r) {
  return {{{"tokenEmbeddings", &r.tokenEmbeddings},
           {"ropeCos", &r.ropeCos},
           {"ropeSin", &r.ropeSin},
           {"normF", &r.normF},
           {"logits", &r.logits},
           {"probs", &r.probs}}};
}

int64_t llamaKeptBytes(const LlamaConfig& c, int64_t T) {
  const int64_t d = c.hiddenSize, hd = c.headDim(), q = c.nHead * hd, kv = c.nKvHead * hd;
  // Per layer: norm1, attnOut, residual, norm2, mlpOut, output: 6 (T, d); qBeforeRope, Q, headOutputs,
  // concat: 4 (T, q); kBeforeRope, K, V: 3 (T, kv); scores, scaled, weights: 3 (nh, T, T);
  // mlpGate, mlpUp, mlpAct, mlpGated: 4 (T, inner).
  const int64_t perLayer = 6 * T * d + 4 * T * q + 3 * T * kv + 3 * c.nHead * T * T + 4 * T * c.intermediateSize;
  // tokenEmbeddings, normF: 2 (T, d); ropeCos, ropeSin: 2 (T, hd); logits (T, V), probs (V); the scratch:
  // a projection before its heads are split (T, q), the mask (T, T), one head's values transposed (hd, T).
  const int64_t floats = c.nLayer * perLayer + 2 * T * d + 2 * T * hd + (T + 1) * c.vocabSize + T * q + T * T + hd * T;
  return 4 * floats;
}

Status runLlamaForward(const LlamaConfig& c, const LlamaWeights& w, const std::vector<int64_t>& ids, LlamaResult& r,
                       bool allLogits) {
  r = LlamaResult{};
  const int64_t T = static_cast<int64_t>(ids.size());
  if (Status s = checkModelRun(ids, c.maxPositions, c.vocabSize, llamaKeptBytes(c, T))) return s;
  r.ids = ids;
  embed(w, ids, c.hiddenSize, r);
  rotary(c.ropeTheta, c.headDim(), T, r);
  r.layers.resize(static_cast<size_t>(c.nLayer));
  const Tensor* x = &r.tokenEmbeddings;
  for (size_t i = 0; i < r.layers.size(); ++i) {
    const LlamaWeights::Layer& lw = w.layers[i];
    LlamaLayer& l = r.layers[i];
    l.norm1 = rmsNorm(*x, lw.inputLayernorm, c.rmsNormEps);
    projectHeads(c, lw, l);
    l.Q = rotated(l.qBeforeRope, r.ropeCos, r.ropeSin);
    l.K = rotated(l.kBeforeRope, r.ropeCos, r.ropeSin);
    attend(l);
    mixValues(l.weights, l.V, l.headOutputs, l.concat);
    addAttention(c, lw, *x, l);
    feedForward(lw, c.rmsNormEps, l);
    x = &l.output;
  }
  unembed(c, w, *x, allLogits, r);
  return {};
}

}  // namespace attention_lab
