// runTinyModel as a sequence of stages, each mirroring a line or two of
// tests/reference/tiny/model.py (the PyTorch forward) or scores.py (the head
// scores). Shapes: T bytes (1..256), d = 64, nh = 4 heads of hs = 16, V = 256.
//
// The arithmetic is PyTorch's in float32: every product is summed in the
// order of its inner dimension (gemm.h; the reference BLAS that Debian's
// PyTorch calls does the same), the scores are divided by 4.0 = math.sqrt(16),
// and softmax is the engine's (softmax.h), which gives PyTorch's numbers.
#include "tiny_model.h"

#include <algorithm>
#include <cmath>

#include "gemm.h"
#include "head_scores.h"
#include "safetensors.h"
#include "softmax.h"

namespace attention_lab {
namespace {

constexpr int64_t d = kTinyDModel, nh = kTinyHeads, hs = kTinyHeadDim, V = kTinyVocab;

static_assert(nh * hs == d, "the heads split the residual stream");
static_assert(kTinyCheckpoints.back() == kLastTinyCheckpoint, "config.h's default checkpoint is the last one");

// A zero tensor [rows, cols] or, with depth, [depth, rows, cols].
Tensor tensorOf(int64_t rows, int64_t cols, int64_t depth = 0) {
  Tensor t;
  t.shape = depth ? std::vector<int64_t>{depth, rows, cols} : std::vector<int64_t>{rows, cols};
  t.data.assign(static_cast<size_t>((depth ? depth : 1) * rows * cols), 0.0f);
  return t;
}

// ---- embeddings -------------------------------------------------------------
// ids (T,) -> tokenEmbeddings, positionEmbeddings, residual0 (T, d)
//   tokens = self.tok_emb(ids); positions = self.pos_emb(torch.arange(T))
//   x = tokens + positions
void embedBytes(const TinyWeights& w, const std::vector<int64_t>& ids, TinyResult& r) {
  const int64_t T = static_cast<int64_t>(ids.size());
  r.tokenEmbeddings = tensorOf(T, d);
  r.positionEmbeddings = tensorOf(T, d);
  r.residual0 = tensorOf(T, d);
  for (int64_t i = 0; i < T; ++i)
    for (int64_t c = 0; c < d; ++c) {
      const float token = w.tokEmb.data[static_cast<size_t>(ids[static_cast<size_t>(i)] * d + c)];
      const float position = w.posEmb.data[static_cast<size_t>(i * d + c)];
      r.tokenEmbeddings.data[static_cast<size_t>(i * d + c)] = token;
      r.positionEmbeddings.data[static_cast<size_t>(i * d + c)] = position;
      r.residual0.data[static_cast<size_t>(i * d + c)] = token + position;
    }
}

// y (T, d) = x (T, d) Wᵀ, W [d, d] as nn.Linear stores it ([out, in]):
//   y = linear(x)   # x @ W.T, no bias
Tensor linear(const Tensor& x, const Tensor& w) {
  const int64_t T = x.shape[0];
  Tensor y = tensorOf(T, d);
  gemm(T, d, d, x.data.data(), d, w.data.data(), d, /*bTransposed=*/true, nullptr, y.data.data(), d);
  return y;
}

// ---- projections --------------------------------------------------------------
// x (T, d) -> Q, K, V (T, d)
//   q = self.W_Q(x); k = self.W_K(x); v = self.W_V(x)
void project(const TinyWeights::Layer& w, const Tensor& x, TinyLayer& l) {
  l.Q = linear(x, w.wQ);
  l.K = linear(x, w.wK);
  l.V = linear(x, w.wV);
}

// ---- heads --------------------------------------------------------------------
// Q, K (T, d), each viewed as heads (nh, T, hs) -> scores, scaled, weights (nh, T, T)
//   heads = lambda t: t.view(T, nh, hs).transpose(0, 1)
//   scores = heads(q) @ heads(k).transpose(-2, -1)
//   scaled = scores / math.sqrt(hs)
//   masked = scaled.masked_fill(~causal, float("-inf"))   # causal = torch.ones(T, T).tril()
//   weights = F.softmax(masked, dim=-1)
void attend(TinyLayer& l) {
  const int64_t T = l.Q.shape[0];
  l.scores = tensorOf(T, T, nh);
  l.scaled = tensorOf(T, T, nh);
  l.weights = tensorOf(T, T, nh);
  ScoreRowSteps steps;
  steps.divide = true;
  steps.divisor = 4.0f;  // math.sqrt(16), exactly
  steps.mask = MaskStep::Fill;
  steps.blockedValue = 1.0f;
  // Row i of the causal mask: key j > i is blocked (1).
  std::vector<float> blocked(static_cast<size_t>(T * T), 0.0f);
  for (int64_t i = 0; i < T; ++i)
    for (int64_t j = i + 1; j < T; ++j) blocked[static_cast<size_t>(i * T + j)] = 1.0f;
  for (int64_t h = 0; h < nh; ++h) {
    float* scores = l.scores.data.data() + h * T * T;
    // (T, hs) · (T, hs)ᵀ: head h is columns [h·hs, (h+1)·hs) of Q and K
    gemm(T, T, hs, l.Q.data.data() + h * hs, d, l.K.data.data() + h * hs, d, /*bTransposed=*/true, nullptr, scores, T);
    for (int64_t i = 0; i < T; ++i)
      scaleMaskSoftmaxRow(steps, scores + i * T, blocked.data() + i * T, T, l.scaled.data.data() + (h * T + i) * T,
                          nullptr, l.weights.data.data() + (h * T + i) * T);
  }
}

// weights (nh, T, T), V (T, d) -> headOutputs (nh, T, hs), concat (T, d)
//   head_out = weights @ heads(v)
//   concat = head_out.transpose(0, 1).reshape(T, d)
// Each head's values are copied out transposed, (hs, T), so that the product
// is an A · Bᵀ, which gemm sums in key order in the native build too.
void mixValues(TinyLayer& l) {
  const int64_t T = l.V.shape[0];
  l.headOutputs = tensorOf(T, hs, nh);
  l.concat = tensorOf(T, d);
  std::vector<float> valuesT(static_cast<size_t>(hs * T));
  for (int64_t h = 0; h < nh; ++h) {
    for (int64_t j = 0; j < T; ++j)
      for (int64_t c = 0; c < hs; ++c)
        valuesT[static_cast<size_t>(c * T + j)] = l.V.data[static_cast<size_t>(j * d + h * hs + c)];
    float* out = l.headOutputs.data.data() + h * T * hs;
    gemm(T, hs, T, l.weights.data.data() + h * T * T, T, valuesT.data(), T, /*bTransposed=*/true, nullptr, out, hs);
    for (int64_t i = 0; i < T; ++i) std::copy(out + i * hs, out + (i + 1) * hs, l.concat.data.data() + i * d + h * hs);
  }
}

// concat (T, d), x (T, d) -> attnOut, residual (T, d)
//   out = self.W_O(concat)
//   x = x + out
void addToStream(const TinyWeights::Layer& w, const Tensor& x, TinyLayer& l) {
  l.attnOut = linear(l.concat, w.wO);
  l.residual = tensorOf(x.shape[0], d);
  for (size_t k = 0; k < x.data.size(); ++k) l.residual.data[k] = x.data[k] + l.attnOut.data[k];
}

// ---- unembedding --------------------------------------------------------------
// x (T, d) -> logits, probs (T, V)
//   logits = x @ self.tok_emb.weight.T   # tied unembedding
//   probs = F.softmax(logits, dim=-1)
void unembed(const TinyWeights& w, const Tensor& x, TinyResult& r) {
  const int64_t T = x.shape[0];
  r.logits = tensorOf(T, V);
  r.probs = tensorOf(T, V);
  gemm(T, V, d, x.data.data(), d, w.tokEmb.data.data(), d, /*bTransposed=*/true, nullptr, r.logits.data.data(), V);
  softmaxRows(r.logits.data.data(), r.probs.data.data(), T, V);
}

// ---- head scores (scores.py) ----------------------------------------------------
// Per layer and head: the mean over the query rows i of `rows` of weights[h, i, key(i)].
//   previous_token_score: weights[:, i, i - 1].mean(-1), i = 1 … T−1
//   induction_score:      weights[:, i, t(i)].mean(-1), i in the repeat
template <typename Key>
TinyHeadScores::PerHead meanWeights(const TinyResult& r, const std::vector<int64_t>& rows, Key key) {
  TinyHeadScores::PerHead means{};
  const int64_t T = static_cast<int64_t>(r.ids.size());
  for (int64_t l = 0; l < kTinyLayers; ++l)
    for (int64_t h = 0; h < nh; ++h) {
      double sum = 0;
      for (int64_t i : rows)
        sum += r.layers[static_cast<size_t>(l)].weights.data[static_cast<size_t>((h * T + i) * T + key(i))];
      means[static_cast<size_t>(l)][static_cast<size_t>(h)] = sum / static_cast<double>(rows.size());
    }
  return means;
}

// The second copy: the repeat's positions i < T − 1 predict byte i + 1.
//   predicted = logits[i].argmax(dim=-1); correct = (predicted == ids[i + 1]).sum()
//   loss = F.cross_entropy(logits[i], ids[i + 1])   # log_softmax in float32, then the mean
TinySecondCopy secondCopyOf(const TinyResult& r, const std::vector<int64_t>& rows) {
  TinySecondCopy s;
  for (int64_t i : rows) {
    const float* row = r.logits.data.data() + i * V;
    const int64_t target = r.ids[static_cast<size_t>(i + 1)];
    const int64_t best = std::max_element(row, row + V) - row;  // the first of equal maxima, as argmax
    s.correct += best == target;
    float sum = 0.0f;  // Σ exp(logit − max), as log_softmax sums it
    for (int64_t c = 0; c < V; ++c) sum += softmaxExp(row[c] - row[best]);
    s.loss += static_cast<double>(row[best] - row[target] + std::log(sum));
    ++s.total;
  }
  s.loss /= static_cast<double>(s.total);
  return s;
}

void measureHeads(TinyResult& r) {
  const int64_t T = static_cast<int64_t>(r.ids.size());
  r.headScores = {};
  r.secondCopy.reset();
  std::vector<int64_t> previousRows;
  for (int64_t i = 1; i < T; ++i) previousRows.push_back(i);
  if (T >= 2) r.headScores.previousToken = meanWeights(r, previousRows, [](int64_t i) { return i - 1; });
  const std::vector<InductionMatch> matches = inductionMatches(r.ids);
  const std::vector<bool> inside = repeatedPositions(matches, kTinyMinRepeat);
  std::vector<int64_t>& targets = r.headScores.repeatTargets;
  std::vector<int64_t> repeat, predicting;  // the repeat's positions; those before the last byte
  for (int64_t i = 0; i < T; ++i) {
    targets.push_back(inside[static_cast<size_t>(i)] ? matches[static_cast<size_t>(i)].target : -1);
    if (targets.back() < 0) continue;
    repeat.push_back(i);
    if (i + 1 < T) predicting.push_back(i);
  }
  if (repeat.empty()) return;
  r.headScores.induction = meanWeights(r, repeat, [&](int64_t i) { return targets[static_cast<size_t>(i)]; });
  if (!predicting.empty()) r.secondCopy = secondCopyOf(r, predicting);
}

}  // namespace

Status readTinyWeights(const uint8_t* bytes, size_t size, TinyWeights& out) {
  std::vector<WantedTensor> wanted = {{"tok_emb.weight", {V, d}}, {"pos_emb.weight", {kTinyContext, d}}};
  for (int64_t l = 0; l < kTinyLayers; ++l)
    for (const char* name : {"W_Q", "W_K", "W_V", "W_O"})
      wanted.push_back({"layers." + std::to_string(l) + "." + name + ".weight", {d, d}});
  std::vector<Tensor> tensors;
  if (Status s = readSafetensorsF16(bytes, size, wanted, tensors)) return s;
  // A NaN or an infinity (float16 0x7E00, 0x7C00) is refused.
  for (size_t k = 0; k < tensors.size(); ++k)
    if (Status s = requireFinite(wanted[k].name, tensors[k].data)) return s;
  out.tokEmb = std::move(tensors[0]);
  out.posEmb = std::move(tensors[1]);
  for (size_t l = 0; l < out.layers.size(); ++l) {
    Tensor* layer = &tensors[2 + 4 * l];
    out.layers[l] = {std::move(layer[0]), std::move(layer[1]), std::move(layer[2]), std::move(layer[3])};
  }
  return {};
}

Status TinyWeightStore::load(int64_t step, const uint8_t* bytes, size_t size) {
  const int64_t index = tinyCheckpointIndex(step);
  if (index < 0)
    return fieldError("checkpoint", "checkpoint-unknown",
                      {{"got", std::to_string(step)}, {"steps", tinyCheckpointList()}});
  TinyWeights weights;
  if (Status s = readTinyWeights(bytes, size, weights)) return s;
  weights_[static_cast<size_t>(index)] = std::move(weights);
  return {};
}

const TinyWeights* TinyWeightStore::find(int64_t step) const {
  const int64_t index = tinyCheckpointIndex(step);
  return index < 0 || !weights_[static_cast<size_t>(index)] ? nullptr : &*weights_[static_cast<size_t>(index)];
}

std::array<NamedTensor, 10> namedTensors(const TinyLayer& l) {
  return {{{"Q", &l.Q},
           {"K", &l.K},
           {"V", &l.V},
           {"scores", &l.scores},
           {"scaled", &l.scaled},
           {"weights", &l.weights},
           {"headOutputs", &l.headOutputs},
           {"concat", &l.concat},
           {"attnOut", &l.attnOut},
           {"residual", &l.residual}}};
}

std::array<NamedTensor, 5> namedTensors(const TinyResult& r) {
  return {{{"tokenEmbeddings", &r.tokenEmbeddings},
           {"positionEmbeddings", &r.positionEmbeddings},
           {"residual0", &r.residual0},
           {"logits", &r.logits},
           {"probs", &r.probs}}};
}

void runTinyForward(const TinyWeights& w, const std::vector<int64_t>& ids, TinyResult& r) {
  r.ids = ids;
  embedBytes(w, ids, r);
  const Tensor* x = &r.residual0;
  for (size_t l = 0; l < r.layers.size(); ++l) {
    TinyLayer& layer = r.layers[l];
    project(w.layers[l], *x, layer);
    attend(layer);
    mixValues(layer);
    addToStream(w.layers[l], *x, layer);
    x = &layer.residual;
  }
  unembed(w, *x, r);
  measureHeads(r);
}

Status runTinyModel(const TinyRunInput& input, const TinyWeightStore& store, TinyResult& r) {
  r = TinyResult{};
  const int64_t T = static_cast<int64_t>(input.ids.size());
  const std::string max = std::to_string(kTinyContext);
  if (T == 0) return fieldError("text", "text-required-for-model", {{"max", max}});
  if (T > kTinyContext)
    return fieldError("text", "text-too-long-for-model", {{"bytes", std::to_string(T)}, {"max", max}});
  const TinyWeights* weights = store.find(input.checkpoint);
  if (!weights) return fieldError("checkpoint", "checkpoint-not-loaded", {{"step", std::to_string(input.checkpoint)}});
  r.checkpoint = input.checkpoint;
  r.text = input.text;
  runTinyForward(*weights, input.ids, r);
  r.warnings = input.warnings;
  return {};
}

Status runTinyModel(const AttentionConfig& config, const TinyWeightStore& store, TinyResult& r) {
  TinyRunInput input;
  if (Status s = readTinyRun(config, input)) return s;
  return runTinyModel(input, store, r);
}

}  // namespace attention_lab
