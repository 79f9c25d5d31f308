#include "online_softmax.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>

#include "gemm.h"
#include "head_inputs.h"
#include "prepared.h"
#include "softmax.h"

namespace attention_lab {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

Status checkTileSize(const char* field, int64_t got) {
  if (got >= 1) return {};
  return fieldError(field, "tile-size", {{"field", field}, {"got", std::to_string(got)}});
}

int64_t tilesOf(int64_t length, int64_t tile) { return (length + tile - 1) / tile; }

// The running state of one query tile's rows: m, ℓ and O.
struct RowState {
  std::vector<float> max, sum, output;  // (tq,), (tq,), (tq, dk)
};

// One key tile for the query rows [qs, qe) of the tile (logits rows `stride`
// apart, values rows `vStride` apart), recorded in tile slot `t` of out.
// `sink`: the sink logit, a last column of the last key tile (else null).
void stepTile(const FlashTile& tile, const float* logits, int64_t stride, const float* values, int64_t vStride,
              const float* sink, int64_t t, RowState& state, FlashResult& out) {
  const int64_t tq = out.tileQueries, dk = out.dk;
  for (int64_t r = 0; r < tile.queryEnd - tile.queryStart; ++r) {
    const float* x = logits + (tile.queryStart + r) * stride;
    float& m = state.max[static_cast<size_t>(r)];
    float& l = state.sum[static_cast<size_t>(r)];
    float* o = state.output.data() + r * dk;
    float* alphaOut = out.rescale.data() + t * tq + r;
    if (tile.skipped) {
      *alphaOut = 1.0f;  // nothing is rescaled
    } else {
      // m_new = max(m, rowmax(x)); alpha = exp(m - m_new), 0 while nothing was seen
      float tileMax = sink ? *sink : -kInf;
      for (int64_t j = tile.keyStart; j < tile.keyEnd; ++j) tileMax = std::max(tileMax, x[j]);
      const float mNew = std::max(m, tileMax);
      const float alpha = m == -kInf ? 0.0f : softmaxExp(m - mNew);
      l *= alpha;
      for (int64_t d = 0; d < dk; ++d) o[d] *= alpha;
      // p = exp(x - m_new) (0 for a masked logit, and for a row that has seen only masked ones);
      // l += p.sum(); O += p @ V_j
      for (int64_t j = tile.keyStart; j < tile.keyEnd; ++j) {
        const float p = mNew == -kInf ? 0.0f : softmaxExp(x[j] - mNew);
        l += p;
        const float* v = values + j * vStride;
        for (int64_t d = 0; d < dk; ++d) o[d] += p * v[d];
      }
      if (sink) l += softmaxExp(*sink - mNew);  // the sink column: weight, no value
      m = mNew;
      *alphaOut = alpha;
    }
    out.runningMax[static_cast<size_t>(t * tq + r)] = m;
    out.runningSum[static_cast<size_t>(t * tq + r)] = l;
    std::copy(o, o + dk, out.partialOutput.data() + (t * tq + r) * dk);
  }
}

bool allMasked(const FlashTile& tile, const float* logits, int64_t stride) {
  for (int64_t i = tile.queryStart; i < tile.queryEnd; ++i)
    for (int64_t j = tile.keyStart; j < tile.keyEnd; ++j)
      if (logits[i * stride + j] != -kInf) return false;
  return true;
}

// output against plain: bit-identical entries and the largest difference.
void compare(FlashResult& out) {
  out.total = static_cast<int64_t>(out.output.size());
  for (size_t e = 0; e < out.output.size(); ++e) {
    const float a = out.output[e], b = out.plain[e];
    out.identical += std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b));
    if (!std::isnan(a) && !std::isnan(b))
      out.maxAbsDifference = std::max(out.maxAbsDifference, std::fabs(static_cast<double>(a) - b));
  }
}

// The online softmax of config `c` from the run `runIt` gives.
Status onlineSoftmaxFrom(const AttentionConfig& c, const FlashOptions& o, FlashResult& out, const AttentionRun& runIt) {
  out = FlashResult{};
  if (Status s = checkStepperModel(c)) return s;
  if (Status s = checkTileSize("options.tileQueries", o.tileQueries)) return s;
  if (Status s = checkTileSize("options.tileKeys", o.tileKeys)) return s;
  TensorSet wanted = headInputTensors();
  wanted.add("masked");
  wanted.add("weights");
  Selection selection;
  selection.batch = o.batch;
  selection.head = o.head;
  AttentionResult run;
  if (Status s = runIt(run, wanted, selection)) return s;
  const HeadInputs in = headInputsOf(run);
  // A tile is at most the whole matrix: larger sizes are clamped to S and S_kv (one tile per axis).
  const int64_t S = in.S, Skv = in.Skv, dk = in.dk;
  const int64_t tq = std::min(o.tileQueries, S), tk = std::min(o.tileKeys, Skv);
  const int64_t T = tilesOf(S, tq) * tilesOf(Skv, tk);
  if (T * tq * (dk + 3) > kFlashStateLimit)
    return fieldError("options.tileQueries", "too-many-tiles",
                      {{"count", std::to_string(T)},
                       {"tileQueries", std::to_string(tq)},
                       {"tileKeys", std::to_string(tk)},
                       {"limit", std::to_string(kFlashStateLimit / (tq * (dk + 3)))}});
  // The run's memory and the stepper's own arrays beside it within the budget: the tiles' running
  // state, the output and the plain product, one query tile's state.
  const RunSizes sizes{run.sizes.B, run.sizes.S, run.sizes.Skv, static_cast<int64_t>(run.vocab.size())};
  const int64_t own = T * tq * (dk + 3) + 2 * S * dk + tq * (dk + 2);
  if (Status s = checkIntermediateBytes(intermediateBytes(c, sizes, wanted, selection) + 4 * own)) return s;
  const float* logits = run.find("masked")->data.data();  // [1, 1, S, S_kv]: the selected head
  const float* weights = run.find("weights")->data.data();
  const float* values = in.values(in.kvHeadOf(o.head));
  // The sink logit: softmax over cat([masked, sinkLogit]), the last column.
  const std::optional<float> sink =
      c.hasSink() ? std::optional<float>(static_cast<float>(c.sinkLogitOf(o.head))) : std::optional<float>();

  out.S = S;
  out.Skv = Skv;
  out.dk = dk;
  out.tileQueries = tq;
  out.tileKeys = tk;
  out.runningMax.assign(static_cast<size_t>(T * tq), kNaN);
  out.runningSum.assign(static_cast<size_t>(T * tq), kNaN);
  out.rescale.assign(static_cast<size_t>(T * tq), kNaN);
  out.partialOutput.assign(static_cast<size_t>(T * tq * dk), kNaN);
  out.output.resize(static_cast<size_t>(S * dk));
  RowState state;
  for (int64_t qs = 0; qs < S; qs += tq) {
    state.max.assign(static_cast<size_t>(tq), -kInf);
    state.sum.assign(static_cast<size_t>(tq), 0.0f);
    state.output.assign(static_cast<size_t>(tq * dk), 0.0f);
    for (int64_t ks = 0; ks < Skv; ks += tk) {
      FlashTile tile{qs, std::min(qs + tq, S), ks, std::min(ks + tk, Skv), false};
      const float* tileSink = sink && tile.keyEnd == Skv ? &*sink : nullptr;
      tile.skipped = !tileSink && allMasked(tile, logits, Skv);
      stepTile(tile, logits, Skv, values, in.kvStride(), tileSink, static_cast<int64_t>(out.tiles.size()), state, out);
      out.tiles.push_back(tile);
    }
    // out = O / l
    for (int64_t i = qs; i < std::min(qs + tq, S); ++i)
      for (int64_t d = 0; d < dk; ++d)
        out.output[static_cast<size_t>(i * dk + d)] =
            state.output[static_cast<size_t>((i - qs) * dk + d)] / state.sum[static_cast<size_t>(i - qs)];
  }
  // plain = weights @ v   (S, S_kv)·(S_kv, dk) -> (S, dk), as the run's context without dropout
  out.plain.resize(static_cast<size_t>(S * dk));
  gemm(S, dk, Skv, weights, Skv, values, in.kvStride(), false, nullptr, out.plain.data(), dk);
  compare(out);
  return {};
}

}  // namespace

Status onlineSoftmax(const AttentionConfig& config, const FlashOptions& options, FlashResult& out) {
  return onlineSoftmaxFrom(config, options, out, [&](AttentionResult& r, TensorSet wanted, Selection selection) {
    return runAttention(config, r, wanted, selection);
  });
}

Status onlineSoftmax(PreparedAttention& prepared, const FlashOptions& options, FlashResult& out) {
  return onlineSoftmaxFrom(prepared.config(), options, out, prepared.stepperRun());
}

}  // namespace attention_lab
