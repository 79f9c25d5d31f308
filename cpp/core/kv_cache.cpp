#include "kv_cache.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "gemm.h"
#include "head_inputs.h"
#include "prepared.h"
#include "softmax.h"

namespace attention_lab {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// The config fields that make a decode impossible, named.
Status checkDecodable(const AttentionConfig& c) {
  if (c.isCrossAttention()) {
    const std::string field = c.context.random             ? "contextInput"
                              : !c.context.tokens.empty()  ? "contextTokens"
                              : c.context.textsGivenAsList ? "contextTexts"
                                                           : "contextText";
    return fieldError(field, "decode-needs-self-attention", {{"field", field}});
  }
  if (!blocksFuture(c.mask))
    return fieldError("mask", "decode-needs-causal", {{"got", kMaskNames[static_cast<size_t>(c.mask)]}});
  if (c.score != ScoreKind::Dot)
    return fieldError("score", "decode-needs-dot-score", {{"got", kScoreNames[static_cast<size_t>(c.score)]}});
  return {};
}

bool sameBits(const float* a, const float* b, int64_t n) {
  return std::memcmp(a, b, static_cast<size_t>(n) * sizeof(float)) == 0;
}

// The cache's bytes for `heads` KV heads at every length 1..S.
std::vector<double> cacheBytes(int64_t S, int64_t heads, int64_t dk) {
  std::vector<double> bytes(static_cast<size_t>(S));
  for (int64_t t = 0; t < S; ++t) bytes[static_cast<size_t>(t)] = 2.0 * static_cast<double>((t + 1) * heads * dk) * 4;
  return bytes;
}

// The run's memory and the decode's own arrays beside it within the budget: the steps' scores and
// weights and the full run's rows [S, H, S], the one-query mask's rows [S, S], the new keys and values.
Status checkBudget(const AttentionConfig& c, const AttentionResult& run, TensorSet wanted, Selection selection,
                   const HeadInputs& in) {
  const RunSizes sizes{run.sizes.B, run.sizes.S, run.sizes.Skv, static_cast<int64_t>(run.vocab.size())};
  const int64_t own = 3 * in.S * in.H * in.S + in.S * in.S + static_cast<int64_t>(in.k->data.size()) +
                      static_cast<int64_t>(in.v->data.size()) + in.S + 1;
  return checkIntermediateBytes(intermediateBytes(c, sizes, wanted, selection) + 4 * own);
}

// The decode of sentence `batch` from the run `runIt` gives of config `c`.
Status decodeFrom(const AttentionConfig& c, int64_t batch, DecodeResult& out, const AttentionRun& runIt) {
  out = DecodeResult{};
  if (Status s = checkStepperModel(c)) return s;
  if (Status s = checkDecodable(c)) return s;
  TensorSet wanted = headInputTensors();
  wanted.add("mask");
  wanted.add("alibiBias");
  wanted.add("weights");
  Selection selection;
  selection.batch = batch;
  AttentionResult run;
  if (Status s = runIt(run, wanted, selection)) return s;
  const HeadInputs in = headInputsOf(run);
  const ScoreRowSteps steps = scoreRowStepsOf(c, run);
  const int64_t S = in.S, H = in.H, dk = in.dk, cells = S * H * S;
  if (Status s = checkBudget(c, run, wanted, selection, in)) return s;
  const float* mask = run.find("mask")->data.data();  // [1, S, S]
  const Tensor& full = *run.find("weights");          // [1, H, S, S]
  const Tensor* alibi = run.find("alibiBias");        // [H, S, S] with ALiBi

  out.tokens = run.tokens.empty() ? std::vector<std::string>{} : run.tokens[static_cast<size_t>(batch)];
  out.S = S;
  out.H = H;
  out.Hkv = in.Hkv;
  out.dk = dk;
  out.D = run.sizes.D;
  out.newKeys = in.k->data;
  out.newValues = in.v->data;
  out.scores.assign(static_cast<size_t>(cells), kNaN);
  out.weights.assign(static_cast<size_t>(cells), kNaN);
  out.fullWeights.resize(static_cast<size_t>(cells));
  out.isCausalOneQuery.assign(static_cast<size_t>(S * S), kNaN);
  out.rows = S * H;

  // is_causal=True on one query: torch.ones(1, t+1).tril() keeps key 0 only.
  ScoreRowSteps oneQuery = steps;
  oneQuery.mask = MaskStep::Fill;
  oneQuery.blockedValue = 1.0f;
  oneQuery.fill = -std::numeric_limits<float>::infinity();
  std::vector<float> topLeftMask(static_cast<size_t>(S), 1.0f);
  topLeftMask[0] = 0.0f;
  // One row of probabilities: t + 1 weights, and the sink's; the run's own row pass (attentionRow) writes them.
  std::vector<float> probs(static_cast<size_t>(S + 1));
  RowStages toProbs;
  toProbs.probs = probs.data();

  for (int64_t t = 0; t < S; ++t) {
    const int64_t length = t + 1;  // the cache after appending k_t, v_t
    for (int64_t h = 0; h < H; ++h) {
      const int64_t row = (t * H + h) * S;
      // (1, dk)·(dk, t+1) -> (1, t+1)
      float* scores = out.scores.data() + row;
      gemm(1, length, dk, in.query(t, h), dk, in.keys(in.kvHeadOf(h)), in.kvStride(), true, nullptr, scores, S);
      float* weights = out.weights.data() + row;
      const float* biasRow = alibi ? alibi->data.data() + (h * S + t) * S : nullptr;
      attentionRow(withHeadSink(steps, c, h), scores, biasRow, mask + t * S, length, toProbs);
      std::copy(probs.data(), probs.data() + length, weights);
      // The full run's row t of head h: the first t + 1 entries the same bits, the rest exact zeros.
      const float* fullRow = full.data.data() + (h * S + t) * S;
      std::copy(fullRow, fullRow + S, out.fullWeights.data() + row);
      bool identical = sameBits(weights, fullRow, length);
      for (int64_t j = length; j < S; ++j) identical = identical && fullRow[j] == 0.0f;
      out.identicalRows += identical;
      if (h == 0) {
        attentionRow(withHeadSink(oneQuery, c, h), scores, biasRow, topLeftMask.data(), length, toProbs);
        std::copy(probs.data(), probs.data() + length, out.isCausalOneQuery.data() + t * S);
      }
    }
  }
  out.cacheBytesMha = cacheBytes(S, H, dk);
  out.cacheBytesGqa = cacheBytes(S, in.Hkv, dk);
  out.cacheBytesMqa = cacheBytes(S, 1, dk);
  return {};
}

}  // namespace

Status decodeWithKvCache(const AttentionConfig& config, int64_t batch, DecodeResult& out) {
  return decodeFrom(config, batch, out, [&](AttentionResult& r, TensorSet wanted, Selection selection) {
    return runAttention(config, r, wanted, selection);
  });
}

Status decodeWithKvCache(PreparedAttention& prepared, int64_t batch, DecodeResult& out) {
  return decodeFrom(prepared.config(), batch, out, prepared.stepperRun());
}

}  // namespace attention_lab
