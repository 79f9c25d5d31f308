// Scaled dot-product and multi-head attention, keeping every intermediate.
//
//   tokens -> ids -> X -> Q, K, V = X·W + b -> [Q_norm, K_norm] -> [Q_rope, K_rope] -> split heads
//     -> scores = Q_h K_gᵀ (or the additive v_aᵀ tanh(q·W_a + k·U_a)), g = h // (H / H_kv)
//     -> scaled -> [capped] -> [biased = capped + alibiBias] -> masked
//     -> weights = softmax (with [the sink column], whose share is sinkWeights)
//     -> dropped = dropout(weights) -> context = dropped · V_g
//     -> concat -> output = concat·W_O + b_O
//   Differential attention (diff.depth) instead of scores .. dropped: half-heads 2h, 2h + 1 of q and k,
//     halfScores = q_s k_sᵀ, halfScaled = (q_s·d^-0.5) k_sᵀ, halfMasked, halfWeights = softmax  [B, 2H, S, S_kv]
//     -> weights = halfWeights[2h] − lambdaFull·halfWeights[2h+1]  [B, H, S, S_kv]
//     -> context = weights · V_h -> contextNorm = RMSNorm(context)·subln -> contextScaled = ·(1 − λ_init) -> concat
//   averagedWeights = dropped averaged over the heads (nn.MultiheadAttention's
//   default average_attn_weights=True). The stages in [] run only with their
//   variant on (config.h: qkNorm, rope, softcap, alibi, sinkLogit, one per head or one for all).
//
// Shapes: B batch, S query length, S_kv key length, H heads, D dModel,
// dk = D / H (headDim), H_kv key/value heads (numKVHeads; H without GQA).
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config.h"
#include "errors.h"
#include "validate.h"

namespace attention_lab {

// Every tensor a run can return, in pipeline order.
inline constexpr std::array<const char*, 70> kTensorNames = {"X",
                                                             "X_context",
                                                             "W_Q",
                                                             "W_K",
                                                             "W_V",
                                                             "b_Q",
                                                             "b_K",
                                                             "b_V",
                                                             "W_a",
                                                             "U_a",
                                                             "v_a",
                                                             "W_O",
                                                             "b_O",
                                                             "W_G",
                                                             "lambda_q1",
                                                             "lambda_k1",
                                                             "lambda_q2",
                                                             "lambda_k2",
                                                             "subln",
                                                             "W_DKV",
                                                             "W_KR",
                                                             "kv_norm",
                                                             "W_UK",
                                                             "W_UV",
                                                             "Q",
                                                             "K",
                                                             "V",
                                                             "Q_norm",
                                                             "K_norm",
                                                             "ropeInvFreqBase",
                                                             "ropeInvFreq",
                                                             "ropeAttentionFactor",
                                                             "ropeExtrapolationFactor",
                                                             "ropeNtkBase",
                                                             "ropeAngles",
                                                             "Q_rope",
                                                             "K_rope",
                                                             "latent",
                                                             "latentNorm",
                                                             "K_pe",
                                                             "Q_pe_rope",
                                                             "K_pe_rope",
                                                             "Q_absorbed",
                                                             "scores",
                                                             "otherPathScores",
                                                             "scaled",
                                                             "capped",
                                                             "alibiBias",
                                                             "biased",
                                                             "mask",
                                                             "masked",
                                                             "halfScores",
                                                             "halfScaled",
                                                             "halfMasked",
                                                             "halfWeights",
                                                             "lambdaFull",
                                                             "weights",
                                                             "sinkWeights",
                                                             "dropped",
                                                             "averagedWeights",
                                                             "latentContext",
                                                             "context",
                                                             "contextNorm",
                                                             "contextScaled",
                                                             "concat",
                                                             "gateLogits",
                                                             "gate",
                                                             "gated",
                                                             "otherPathOutput",
                                                             "output"};

// kTensorNames with their lengths, so a lookup compares without strlen.
inline constexpr auto kTensorNameViews = [] {
  std::array<std::string_view, kTensorNames.size()> views{};
  for (size_t i = 0; i < kTensorNames.size(); ++i) views[i] = kTensorNames[i];
  return views;
}();

// A set of kTensorNames: the tensors a caller asks runAttention for.
class TensorSet {
 public:
  TensorSet() = default;  // none
  static TensorSet all() {
    TensorSet every;
    every.bits_.set();
    return every;
  }
  // The name's index in kTensorNames, or -1.
  static constexpr int indexOf(std::string_view name) {
    for (size_t i = 0; i < kTensorNameViews.size(); ++i)
      if (name == kTensorNameViews[i]) return static_cast<int>(i);
    return -1;
  }
  // indexOf for a name known only at run time: one loop, where the compiler would unroll indexOf's
  // comparisons with every name into each caller (attention.cpp).
  static int find(std::string_view name);
  // false (and no change) for a name that is not in kTensorNames.
  bool add(std::string_view name) {
    const int i = find(name);
    if (i >= 0) bits_[static_cast<size_t>(i)] = true;  // [] and not set(): no out_of_range path in the wasm
    return i >= 0;
  }
  bool has(std::string_view name) const { return has(find(name)); }
  bool has(int index) const { return index >= 0 && bits_[static_cast<size_t>(index)]; }
  bool operator==(const TensorSet& other) const { return bits_ == other.bits_; }

 private:
  std::bitset<kTensorNames.size()> bits_;  // bit i: kTensorNames[i]
};

// The part of the batch and of the heads a caller shows (the page: one
// sentence, one head). The run still computes everything (the dropout draws
// and the averaged weights need every head), but keeps and returns only that.
struct Selection {
  int64_t batch = -1;  // -1: every sentence; else tensors with a batch dimension hold only this one (B = 1)
  int64_t head = -1;   // -1: every head; else the per-head tensors hold only this one (H = 1) ...
  TensorSet allHeads;  // ... except these, kept with every head (the page's small multiples of all heads)

  // Per-head tensors: [B, H, S, S_kv] scores, scaled, masked, weights, dropped, and context [B, H, S, dk]
  // (contextNorm, contextScaled too); differential attention's half-head maps [B, 2H, S, S_kv], of which a
  // selected head keeps its two half-heads 2h, 2h + 1 ([B, 2, S, S_kv]).
  static bool isHalfHead(std::string_view name);
  static bool isPerHead(std::string_view name);
  // Tensors with a leading batch dimension: all but the weights (W_*, b_*, W_a, U_a, v_a).
  static bool hasBatch(std::string_view name);
  // The sentence `name` holds alone, or -1 when it holds the whole batch (or has no batch dimension).
  int64_t batchOf(std::string_view name) const { return batch >= 0 && hasBatch(name) ? batch : -1; }
  // The head `name` holds alone, or -1 when it holds every head (or is not per head).
  int64_t headOf(std::string_view name) const {
    return head >= 0 && isPerHead(name) && !allHeads.has(name) ? head : -1;
  }
};

struct AttentionResult {
  std::vector<std::vector<std::string>> tokens;         // [B][S], "<pad>" where padded
  std::vector<std::vector<int64_t>> ids;                // [B][S]
  std::vector<std::vector<std::string>> contextTokens;  // [B][S_kv], cross-attention only
  std::vector<std::vector<int64_t>> contextIds;         // [B][S_kv], cross-attention only
  std::vector<std::string> vocab;
  std::vector<std::string> unknownTokens;
  // The run's sizes, whatever part of them the tensors hold (Selection):
  // B sentences, H heads, S queries, S_kv keys, D = dModel, H_kv key/value heads (H without GQA).
  struct Sizes {
    int64_t B = 0, H = 0, S = 0, Skv = 0, D = 0, Hkv = 0;
  } sizes;
  int64_t headDim = 0;
  double scaleFactor = 1.0;       // the multiplier applied to the scores
  std::vector<Warning> warnings;  // e.g. rows that are NaN because every key is masked
  // In the order of kTensorNames; only those asked for that the run has (no
  // b_Q without qkvBias, no W_a without the additive score, no X_context
  // without cross-attention), less the aliases.
  std::vector<std::pair<std::string, Tensor>> tensors;
  // {name, earlier name}: a tensor asked for that equals an earlier one in
  // `tensors` element for element, so it is kept once: {"masked", "scaled"}
  // without a mask (mask "none" and a convention other than "additive"),
  // {"dropped", "weights"} when dropout.p is 0. Only when both are asked
  // for; one of them alone is an ordinary entry of `tensors`.
  std::vector<std::pair<std::string, std::string>> aliases;
  // What the tensors hold of the batch and heads: a tensor that holds one
  // sentence (batchOf) has B = 1 in its shape, one head (headOf) H = 1. An
  // alias holds what its tensor holds.
  Selection selection;

  // The tensor of that name (following aliases), or nullptr.
  const Tensor* find(const std::string& name) const;
  // How many names the result has: tensors plus aliases.
  size_t count() const { return tensors.size() + aliases.size(); }
};

// Validates, draws and computes. Never aborts on bad input: every problem is
// returned as a ConfigError naming the field.
//
// Only the `wanted` tensors are returned, and only what they need is computed:
// a [B, H, S, S_kv] stage nobody asked for is never stored (the heads go one
// at a time through a small scratch), and with nothing asked for past the
// projections the heads are skipped (and so is the "nan-rows" warning, which
// they find). The tensors `result` holds from a previous call lend their
// buffers to this one, so a caller that keeps one result allocates nothing
// new when the sizes repeat.
//
// `selection` keeps one sentence and/or one head of the tensors (an error on
// "options.batch" or "options.head" when it is out of range); a per-head
// stage outside it is never stored.
Status runAttention(const AttentionConfig& config, AttentionResult& result, TensorSet wanted = TensorSet::all(),
                    Selection selection = {});

// A run of the config at hand, as the steppers (kv_cache.h, online_softmax.h)
// take it: runAttention on the config, or a prepared run's (prepared.h), whose
// result then carries the header's tokens and vocab as runAttention's does.
using AttentionRun = std::function<Status(AttentionResult&, TensorSet, Selection)>;

// The bytes runAttention allocates for a run of these sizes that keeps
// `wanted` and `selection` (float32): X, the embedding table, the weights
// (with their draw's scratch and the draw caches' copies), Q | K | V, the
// tensors kept, and the scratch the kernels work in (one head's [S, S_kv]
// scores, the mask, the concat, the products' packing). The run refuses one
// over kMaxIntermediateBytes ("memory-limit") before it allocates any of it:
// asking for output alone counts no [B, H, S, S_kv] tensor, as it keeps none.
int64_t intermediateBytes(const AttentionConfig& config, const RunSizes& sizes, TensorSet wanted = TensorSet::all(),
                          Selection selection = {});

// How the run turns one row of scores into weights (softmax.h's
// scaleMaskSoftmaxRow): the steps a stepper gives its own rows so that they
// are the run's rows bit for bit. `result` is the run of `config`.
struct ScoreRowSteps;
ScoreRowSteps scoreRowStepsOf(const AttentionConfig& config, const AttentionResult& result);
// The steps of head `head`'s rows: its own sink logit when the sinks are per head (gpt-oss).
ScoreRowSteps withHeadSink(ScoreRowSteps steps, const AttentionConfig& config, int64_t head);

// ALiBi's slope per head (float32): 2^(-8h/H), h = 1..H, when H is a power of
// two; otherwise the paper's interleaving rule (get_slopes in the ALiBi code).
std::vector<float> alibiSlopes(int64_t heads);

}  // namespace attention_lab
