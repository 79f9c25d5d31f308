// The differential attention stage (diff_attention.h), one head at a time through a small scratch.
#include "diff_attention.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>
#include <vector>

#include "gemm.h"

namespace attention_lab {

double lambdaInitOf(int64_t depth) { return 0.8 - 0.6 * std::exp(-0.3 * static_cast<double>(depth)); }

namespace {

// The stage's scratch, kept from run to run (one per thread): grown when a run is larger than any before.
struct Scratch {
  std::vector<float> halfQuery;    // [S, d] a half-head's scaled queries
  std::vector<float> halfMaps;     // [2, S, S_kv] a head's two scaled maps, then their weights
  std::vector<float> headContext;  // [2, S, dk] one head's context and its norm when not kept
};

Scratch& scratch() {
  thread_local Scratch s;
  return s;
}

constexpr int kHalfScores = TensorSet::indexOf("halfScores"), kHalfScaled = TensorSet::indexOf("halfScaled"),
              kHalfMasked = TensorSet::indexOf("halfMasked"), kHalfWeights = TensorSet::indexOf("halfWeights"),
              kWeights = TensorSet::indexOf("weights"), kContext = TensorSet::indexOf("context"),
              kContextNorm = TensorSet::indexOf("contextNorm"), kContextScaled = TensorSet::indexOf("contextScaled");
static_assert(kHalfScores >= 0 && kHalfScaled >= 0 && kHalfMasked >= 0 && kHalfWeights >= 0 && kWeights >= 0 &&
              kContext >= 0 && kContextNorm >= 0 && kContextScaled >= 0);

// torch.exp(torch.sum(a * b)) in float32: the products, their sum left to right, exp rounded once.
float expOfDot(const Tensor& a, const Tensor& b) {
  float sum = 0.0f;
  for (size_t i = 0; i < a.data.size(); ++i) sum += a.data[i] * b.data[i];
  return static_cast<float>(std::exp(static_cast<double>(sum)));
}

// A kept per-head tensor [B, H·perHead, S, cols], or the part of it the selection keeps: where head h's
// part s (a half-head: perHead 2) of sentence b lies, or nullptr when it is not kept or not held.
struct Kept {
  float* data = nullptr;
  int64_t oneBatch = -1, oneHead = -1, heads = 0, perHead = 1, size = 0;
  float* at(int64_t b, int64_t h, int64_t s = 0) const {
    if (!data || (oneBatch >= 0 && b != oneBatch) || (oneHead >= 0 && h != oneHead)) return nullptr;
    return data + (((oneBatch >= 0 ? 0 : b) * heads + (oneHead >= 0 ? 0 : h)) * perHead + s) * size;
  }
};

// Tensor `index` taken from the pool when kept, [B or 1, (H or 1)·perHead, S, cols] as the selection slices it.
Kept take(bool keep, int index, const stages::Dims& d, int64_t perHead, int64_t cols, const Selection& sel,
          BufferPool& pool, Tensor& out) {
  Kept kept;
  if (!keep) return kept;
  const std::string_view name = kTensorNameViews[static_cast<size_t>(index)];
  kept.oneBatch = sel.batchOf(name);
  kept.oneHead = sel.headOf(name);
  kept.heads = kept.oneHead >= 0 ? 1 : d.H;
  kept.perHead = perHead;
  kept.size = d.S * cols;
  out = pool.take({kept.oneBatch >= 0 ? 1 : d.B, kept.heads * perHead, d.S, cols});
  kept.data = out.data.data();
  return kept;
}

// A weight of the set by name (validate.cpp and weights.cpp make sure differential attention's are there).
const Tensor& weight(const stages::Intermediates& m, const char* name) { return m.w.find(name)->second; }

}  // namespace

int64_t diffAttendHeads(const AttentionConfig& c, const stages::Dims& d, const DiffPlan& p, const ScoreRowSteps& steps,
                        const QkvRows& qkv, BufferPool& pool, stages::Intermediates& m, float* concat) {
  const int64_t B = d.B, H = d.H, S = d.S, Skv = d.Skv, D = d.D, dk = d.dk, half = dk / 2, cells = S * Skv;
  const Selection& sel = p.selection;
  const Kept halfScores = take(p.halfScores, kHalfScores, d, 2, Skv, sel, pool, m.halfScores),
             halfScaled = take(p.halfScaled, kHalfScaled, d, 2, Skv, sel, pool, m.halfScaled),
             halfMasked = take(p.halfMasked, kHalfMasked, d, 2, Skv, sel, pool, m.halfMasked),
             halfWeights = take(p.halfWeights, kHalfWeights, d, 2, Skv, sel, pool, m.halfWeights),
             keptWeights = take(p.weights, kWeights, d, 1, Skv, sel, pool, m.weights),
             keptContext = take(p.context, kContext, d, 1, dk, sel, pool, m.context),
             keptNorm = take(p.contextNorm, kContextNorm, d, 1, dk, sel, pool, m.contextNorm),
             keptScaled = take(p.contextScaled, kContextScaled, d, 1, dk, sel, pool, m.contextScaled);
  if (p.averaged) m.averagedWeights = pool.take({sel.batch >= 0 ? 1 : B, S, Skv});

  // λ: one number for every head of the layer.
  const double lambdaInit = lambdaInitOf(*c.diffDepth);
  const float lambda = (expOfDot(weight(m, "lambda_q1"), weight(m, "lambda_k1")) -
                        expOfDot(weight(m, "lambda_q2"), weight(m, "lambda_k2"))) +
                       static_cast<float>(lambdaInit);
  if (p.lambda) m.lambdaFull = Tensor{{}, {lambda}};
  const float queryScale = static_cast<float>(std::pow(static_cast<double>(half), -0.5));  // d ** -0.5
  const float normScale = static_cast<float>(1.0 - lambdaInit), eps = 1e-5f;
  const float* subln = weight(m, "subln").data.data();
  // The maps' rows: the scaled scores as they are (no division), then the mask and the softmax.
  ScoreRowSteps rowSteps = steps;
  rowSteps.divide = false;
  rowSteps.factor = 1.0f;

  Scratch& ws = scratch();
  float* query = grownTo(ws.halfQuery, S * half);
  float* maps = grownTo(ws.halfMaps, 2 * cells);
  float* headContext = grownTo(ws.headContext, 2 * S * dk);
  int64_t nanRows = 0;
  for (int64_t b = 0; b < B; ++b) {
    const bool averageThis = p.averaged && (sel.batch < 0 || b == sel.batch);
    float* averaged = averageThis ? m.averagedWeights.data.data() + (sel.batch >= 0 ? 0 : b * cells) : nullptr;
    if (averaged) std::fill(averaged, averaged + cells, 0.0f);
    for (int64_t h = 0; h < H; ++h) {
      for (int64_t s = 0; s < 2; ++s) {  // half-head 2h + s: columns [s·d, (s+1)·d) of head h
        const float* q = qkv.q + b * S * qkv.qStride + h * dk + s * half;     // [S, d], rows qStride apart
        const float* k = qkv.k + b * Skv * qkv.kvStride + h * dk + s * half;  // [S_kv, d], rows kvStride apart
        float* map = maps + s * cells;
        if (float* kept = halfScores.at(b, h, s))
          gemm(S, Skv, half, q, qkv.qStride, k, qkv.kvStride, true, nullptr, kept, Skv);
        for (int64_t i = 0; i < S; ++i)
          for (int64_t j = 0; j < half; ++j) query[i * half + j] = q[i * qkv.qStride + j] * queryScale;
        gemm(S, Skv, half, query, half, k, qkv.kvStride, true, nullptr, map, Skv);
        for (int64_t k2 = 0; k2 < cells; ++k2)  // torch.nan_to_num: NaN -> 0, ±inf -> ±float max
          if (!std::isfinite(map[k2]))
            map[k2] = std::isnan(map[k2]) ? 0.0f
                      : map[k2] > 0       ? std::numeric_limits<float>::max()
                                          : std::numeric_limits<float>::lowest();
        if (float* kept = halfScaled.at(b, h, s)) std::copy(map, map + cells, kept);
        float* masked = halfMasked.at(b, h, s);
        for (int64_t i = 0; i < S; ++i) {
          const float* maskRow = p.mask ? m.mask.data.data() + (b * S + i) * Skv : nullptr;
          scaleMaskSoftmaxRow(rowSteps, map + i * Skv, maskRow, Skv, nullptr, masked ? masked + i * Skv : nullptr,
                              map + i * Skv);
        }
        if (float* kept = halfWeights.at(b, h, s)) std::copy(map, map + cells, kept);
      }
      // A = softmax₁ − λ·softmax₂, in the first map's place.
      float* weights = maps;
      const float* second = maps + cells;
      for (int64_t k2 = 0; k2 < cells; ++k2) weights[k2] = weights[k2] - lambda * second[k2];
      for (int64_t i = 0; i < S; ++i) nanRows += std::isnan(weights[i * Skv]);
      if (float* kept = keptWeights.at(b, h)) std::copy(weights, weights + cells, kept);
      if (averaged)
        for (int64_t k2 = 0; k2 < cells; ++k2) averaged[k2] += weights[k2];
      if (!p.merge) continue;
      // [S, S_kv]·[S_kv, dk] -> [S, dk], then RMSNorm over each row's dk numbers, subln and 1 − λ_init.
      const float* v = qkv.v + b * Skv * qkv.kvStride + h * dk;  // head h's [S_kv, dk] value rows
      float* context = keptContext.at(b, h);
      if (!context) context = headContext;
      gemm(S, dk, Skv, weights, Skv, v, qkv.kvStride, false, nullptr, context, dk);
      float* normed = keptNorm.at(b, h);
      if (!normed) normed = headContext + S * dk;
      float* scaledOut = keptScaled.at(b, h);
      float* concatHead = concat ? concat + b * S * D + h * dk : nullptr;
      for (int64_t i = 0; i < S; ++i) {
        const float* x = context + i * dk;
        float sumOfSquares = 0.0f;
        for (int64_t j = 0; j < dk; ++j) sumOfSquares += x[j] * x[j];
        const float inverseRms = 1.0f / std::sqrt(sumOfSquares / static_cast<float>(dk) + eps);  // torch.rsqrt
        for (int64_t j = 0; j < dk; ++j) {
          const float y = (x[j] * inverseRms) * subln[j];
          normed[i * dk + j] = y;
          const float out = y * normScale;
          if (scaledOut) scaledOut[i * dk + j] = out;
          if (concatHead) concatHead[i * D + j] = out;
        }
      }
    }
    if (averaged)
      for (int64_t k2 = 0; k2 < cells; ++k2) averaged[k2] /= static_cast<float>(H);
  }
  return nanRows;
}

}  // namespace attention_lab
