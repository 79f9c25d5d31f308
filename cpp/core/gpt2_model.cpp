// runGpt2Forward as a sequence of stages, each mirroring the lines of
// tests/reference/gpt2/model.py (Hugging Face's modeling_gpt2.py in plain
// PyTorch) that it computes. Shapes: T tokens, d = n_embd, nh heads of hs,
// inner = n_inner, V = vocab_size.
//
// The arithmetic is float32. Products are the engine's gemm (gemm.h: summed in
// the order of the inner dimension, a Conv1D's bias added after the sum, where
// torch.addmm's BLAS may start from it), the softmax the engine's
// (softmax.h), LayerNorm and gelu_new as PyTorch's CPU kernels write them. The
// results match PyTorch within a few float32 roundings (the test's tolerance).
#include "gpt2_model.h"

#include <algorithm>
#include <cmath>

#include "gemm.h"
#include "model_ops.h"
#include "softmax.h"

namespace attention_lab {
namespace {

// ---- embeddings -------------------------------------------------------------
// ids (T,) -> tokenEmbeddings, positionEmbeddings, residual0 (T, d)
//   inputs_embeds = self.wte(input_ids); position_embeds = self.wpe(position_ids)
//   hidden_states = inputs_embeds + position_embeds
void embed(const Gpt2Weights& w, const std::vector<int64_t>& ids, int64_t d, Gpt2Result& r) {
  const int64_t T = static_cast<int64_t>(ids.size());
  r.tokenEmbeddings = zeros({T, d});
  r.positionEmbeddings = zeros({T, d});
  for (int64_t t = 0; t < T; ++t) {
    const float* token = w.wte.data.data() + ids[static_cast<size_t>(t)] * d;
    std::copy(token, token + d, r.tokenEmbeddings.data.data() + t * d);
    std::copy(w.wpe.data.data() + t * d, w.wpe.data.data() + (t + 1) * d, r.positionEmbeddings.data.data() + t * d);
  }
  r.residual0 = added(r.tokenEmbeddings, r.positionEmbeddings);
}

// ---- LayerNorm ----------------------------------------------------------------
// x (T, d) -> (T, d), each row normalized over d
//   nn.LayerNorm(hidden_size, eps=config.layer_norm_epsilon)(x)
// As PyTorch's CPU kernel (layer_norm_kernel.cpp): the row's mean and biased
// variance (here summed in double, then rounded), rstd = 1 / sqrt(var + eps),
// y = (x · rstd + (−rstd · mean)) · γ + β, in float32.
Tensor layerNorm(const Tensor& x, const Tensor& gamma, const Tensor& beta, float eps) {
  const int64_t T = x.shape[0], d = x.shape[1];
  Tensor y = zeros(x.shape);
  for (int64_t t = 0; t < T; ++t) {
    const float* row = x.data.data() + t * d;
    double sum = 0;
    for (int64_t c = 0; c < d; ++c) sum += row[c];
    const double mean = sum / static_cast<double>(d);
    double squares = 0;
    for (int64_t c = 0; c < d; ++c) squares += (row[c] - mean) * (row[c] - mean);
    const float meanF = static_cast<float>(mean), var = static_cast<float>(squares / static_cast<double>(d));
    const float rstd = 1.0f / std::sqrt(var + eps);
    const float shift = -rstd * meanF;
    float* out = y.data.data() + t * d;
    for (int64_t c = 0; c < d; ++c)
      out[c] = (row[c] * rstd + shift) * gamma.data[static_cast<size_t>(c)] + beta.data[static_cast<size_t>(c)];
  }
  return y;
}

// ---- Conv1D --------------------------------------------------------------------
// x (T, in), W [in, out], b [out] -> (T, out)
//   x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)   # Conv1D: y = x @ W + b
Tensor conv1d(const Tensor& x, const Tensor& weight, const Tensor& bias) {
  const int64_t T = x.shape[0], in = weight.shape[0], out = weight.shape[1];
  Tensor y = zeros({T, out});
  gemm(T, out, in, x.data.data(), in, weight.data.data(), out, /*bTransposed=*/false, bias.data.data(), y.data.data(),
       out);
  return y;
}

// ---- attention ----------------------------------------------------------------
// h (T, d) -> Q, K, V (nh, T, hs)
//   query, key, value = self.c_attn(hidden_states).split(self.split_size, dim=2)
//   query = self._split_heads(query, self.num_heads, self.head_dim)   # view (T, nh, hs), permute -> (nh, T, hs)
void projectHeads(const Gpt2Weights::Layer& w, const Tensor& h, int64_t nh, Gpt2Layer& l) {
  const Tensor qkv = conv1d(h, w.attnWeight, w.attnBias);  // (T, 3d)
  const int64_t T = h.shape[0], d = h.shape[1], hs = d / nh;
  Tensor* parts[] = {&l.Q, &l.K, &l.V};
  for (int64_t p = 0; p < 3; ++p) {
    Tensor& part = *parts[p];
    part = zeros({nh, T, hs});
    for (int64_t head = 0; head < nh; ++head)
      for (int64_t t = 0; t < T; ++t) {
        const float* from = qkv.data.data() + t * 3 * d + p * d + head * hs;
        std::copy(from, from + hs, part.data.data() + (head * T + t) * hs);
      }
  }
}

// Q, K (nh, T, hs) -> scores, scaled, weights (nh, T, T)
//   attn_weights = torch.matmul(query, key.transpose(-1, -2))                     # scores
//   attn_weights = attn_weights / torch.full([], value.size(-1) ** 0.5, dtype=...)  # scaled
//   mask_value = torch.finfo(attn_weights.dtype).min
//   attn_weights = torch.where(causal_mask, attn_weights, mask_value)             # causal_mask: tril of ones
//   attn_weights = nn.functional.softmax(attn_weights, dim=-1)                    # weights
// The mask fills with float32's lowest, −3.4028235e38, as Hugging Face does
// (not −inf): key j > i is then exp(lowest − max) = 0 exactly, as −inf gives
// (the diagonal is never masked, so max is a finite score), and the weights
// equal a −inf mask's bit for bit (model_ops.h's causalAttention).
void attend(Gpt2Layer& l) {
  ScoreRowSteps steps;
  steps.divide = true;
  steps.divisor = static_cast<float>(std::sqrt(static_cast<double>(l.Q.shape[2])));  // hs ** 0.5 as a float32 tensor
  steps.mask = MaskStep::Fill;
  causalAttention(l.Q, l.K, steps, l.scores, l.scaled, l.weights);
}

// weights (nh, T, T), V (nh, T, hs) -> headOutputs (nh, T, hs), concat (T, d)
//   attn_output = torch.matmul(attn_weights, value)
//   attn_output = self._merge_heads(attn_output, ...)   # permute (T, nh, hs), view (T, d)
// (model_ops.h's mixValues, every head its own values)

// concat (T, d), x (T, d) -> attnOut, residual (T, d)
//   attn_output = self.c_proj(attn_output)
//   hidden_states = attn_output + residual
void addAttention(const Gpt2Weights::Layer& w, const Tensor& x, Gpt2Layer& l) {
  l.attnOut = conv1d(l.concat, w.projWeight, w.projBias);
  l.residual = added(l.attnOut, x);
}

// ---- MLP ------------------------------------------------------------------------
// residual (T, d) -> ln2 (T, d), mlpAct (T, inner), mlpOut, output (T, d)
//   hidden_states = self.ln_2(hidden_states)
//   hidden_states = self.act(self.c_fc(hidden_states))   # gelu_new
//   hidden_states = self.c_proj(hidden_states)
//   hidden_states = residual + feed_forward_hidden_states
// gelu_new (NewGELUActivation), in float32 step by step as PyTorch evaluates it
// (torch.pow(x, 3.0) is x · x · x; the Python constants become float32):
//   0.5 * input * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (input + 0.044715 * torch.pow(input, 3.0))))
void feedForward(const Gpt2Weights::Layer& w, float eps, Gpt2Layer& l) {
  l.ln2 = layerNorm(l.residual, w.ln2Weight, w.ln2Bias, eps);
  l.mlpAct = conv1d(l.ln2, w.fcWeight, w.fcBias);
  const float k = static_cast<float>(0.7978845608028654), c = 0.044715f;  // math.sqrt(2.0 / math.pi)
  for (float& x : l.mlpAct.data) {
    const float inner = k * (x + c * (x * x * x));
    x = 0.5f * x * (1.0f + std::tanh(inner));
  }
  l.mlpOut = conv1d(l.mlpAct, w.fcProjWeight, w.fcProjBias);
  l.output = added(l.residual, l.mlpOut);
}

// ---- the head -------------------------------------------------------------------
// x (T, d) -> lnF (T, d), logits (T, V) (or the last row's (1, V)), probs (V)
//   hidden_states = self.ln_f(hidden_states)
//   lm_logits = self.lm_head(hidden_states)   # nn.Linear(n_embd, vocab_size, bias=False), weight tied to wte
//   probs = torch.softmax(lm_logits[0, -1], dim=-1)
// A product with Bᵀ gives a row alone as the whole product's row, bit for bit (gemm.h).
void unembed(const Gpt2Weights& w, const Tensor& x, float eps, bool allLogits, Gpt2Result& r) {
  const int64_t T = x.shape[0], d = x.shape[1], V = w.wte.shape[0], rows = allLogits ? T : 1;
  r.lnF = layerNorm(x, w.lnFWeight, w.lnFBias, eps);
  r.logits = zeros({rows, V});
  gemm(rows, V, d, r.lnF.data.data() + (T - rows) * d, d, w.wte.data.data(), d, /*bTransposed=*/true, nullptr,
       r.logits.data.data(), V);
  r.probs = zeros({V});
  softmaxRows(r.logits.data.data() + (rows - 1) * V, r.probs.data.data(), 1, V);
}

}  // namespace

std::array<Gpt2NamedTensor, 15> namedTensors(const Gpt2Layer& l) {
  return {{{"ln1", &l.ln1},
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
           {"ln2", &l.ln2},
           {"mlpAct", &l.mlpAct},
           {"mlpOut", &l.mlpOut},
           {"output", &l.output}}};
}

std::array<Gpt2NamedTensor, 6> namedTensors(const Gpt2Result& r) {
  return {{{"tokenEmbeddings", &r.tokenEmbeddings},
           {"positionEmbeddings", &r.positionEmbeddings},
           {"residual0", &r.residual0},
           {"lnF", &r.lnF},
           {"logits", &r.logits},
           {"probs", &r.probs}}};
}

int64_t gpt2KeptBytes(const Gpt2Config& c, int64_t T) {
  const int64_t d = c.nEmbd;
  // Per layer: ln1, Q, K, V, headOutputs, concat, attnOut, residual, ln2, mlpOut, output: 11 (T, d);
  // scores, scaled, weights: 3 (nh, T, T); mlpAct (T, inner).
  const int64_t perLayer = 11 * T * d + 3 * c.nHead * T * T + T * c.nInner;
  // Embeddings (3) and lnF: 4 (T, d); logits (T, V), probs (V); the scratch: qkv (T, 3d), the mask (T, T).
  const int64_t floats = c.nLayer * perLayer + 4 * T * d + (T + 1) * c.vocabSize + 3 * T * d + T * T;
  return 4 * floats;
}

Status runGpt2Forward(const Gpt2Config& c, const Gpt2Weights& w, const std::vector<int64_t>& ids, Gpt2Result& r,
                      bool allLogits) {
  r = Gpt2Result{};
  const int64_t T = static_cast<int64_t>(ids.size());
  if (Status s = checkModelRun(ids, c.nPositions, c.vocabSize, gpt2KeptBytes(c, T))) return s;
  r.ids = ids;
  embed(w, ids, c.nEmbd, r);
  r.layers.resize(static_cast<size_t>(c.nLayer));
  const Tensor* x = &r.residual0;
  for (size_t i = 0; i < r.layers.size(); ++i) {
    const Gpt2Weights::Layer& lw = w.layers[i];
    Gpt2Layer& l = r.layers[i];
    l.ln1 = layerNorm(*x, lw.ln1Weight, lw.ln1Bias, c.layerNormEpsilon);
    projectHeads(lw, l.ln1, c.nHead, l);
    attend(l);
    mixValues(l.weights, l.V, l.headOutputs, l.concat);
    addAttention(lw, *x, l);
    feedForward(lw, c.layerNormEpsilon, l);
    x = &l.output;
  }
  unembed(w, *x, c.layerNormEpsilon, allLogits, r);
  return {};
}

}  // namespace attention_lab
