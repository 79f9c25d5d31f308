// The one attention config, as a struct. Its JSON form, the defaults, the
// ranges and the help of every field are the schema table in schema.cpp:
// the JS API, the CLI, the page, the element and the docs all derive from
// that table. The native tests and the benchmark build this struct directly.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "status.h"

namespace attention_lab {

// A dense float32 tensor, row-major.
struct Tensor {
  std::vector<int64_t> shape;
  std::vector<float> data;
};

// One edited number: row `row` (or the embedding row of `token`), column
// `col`. A bias has one row. Applied over the drawn values, so every random
// draw stays where PyTorch makes it.
struct CellEdit {
  int64_t row = 0;
  int64_t col = 0;
  float value = 0;
  std::string token;  // embedding edits may name the token instead of its id
  std::string field;  // "weights.edits.W_Q[3]": for errors found once sizes are known
};

// Explicit values for a tensor the engine would otherwise draw. A null in
// the JSON (given[i] == false) keeps the drawn number there.
struct GivenValues {
  std::vector<int64_t> shape;
  std::vector<float> data;
  std::vector<bool> given;  // empty: every entry is given

  bool complete() const {
    for (bool g : given)
      if (!g) return false;
    return true;
  }
  // t = these values where given, t's own (drawn) values elsewhere.
  void applyTo(Tensor& t) const {
    for (size_t i = 0; i < data.size() && i < t.data.size(); ++i)
      if (given.empty() || given[i]) t.data[i] = data[i];
  }
};

// A random input instead of tokens: {"randn": [B, S, D]} or {"rand": [B, S, D]}.
enum class RandomDraw {
  Normal,   // torch.randn(B, S, D)
  Uniform,  // torch.rand(B, S, D)
};
inline constexpr std::array<const char*, 2> kRandomDrawKeys = {"randn", "rand"};
struct RandomInput {
  RandomDraw draw = RandomDraw::Normal;
  std::array<int64_t, 3> shape{};  // [B, S, dModel]
  const char* key() const { return kRandomDrawKeys[static_cast<size_t>(draw)]; }
};

// Where one side's vectors come from: sentences or pre-split tokens to embed, or a random draw.
struct SequenceSource {
  std::vector<std::string> texts;                // one sentence per batch row, split by the tokenizer
  bool textsGivenAsList = false;                 // from texts/contextTexts (errors then name texts[b])
  std::vector<std::vector<std::string>> tokens;  // from tokens/contextTokens: one token list per batch row
  std::optional<RandomInput> random;             // from input/contextInput
  bool hasTokens() const { return !texts.empty() || !tokens.empty(); }
  bool present() const { return hasTokens() || random.has_value(); }
  int64_t batch() const {
    return random ? random->shape[0] : static_cast<int64_t>(tokens.empty() ? texts.size() : tokens.size());
  }
};

// How text/texts/contextText/contextTexts are split into tokens (tokens.h).
enum class Tokenizer {
  Auto,        // str.split(), then every Han, Kana and Hangul character and CJK punctuation mark alone   (default)
  Whitespace,  // str.split()
  Chars,       // every non-whitespace code point
};
inline constexpr std::array<const char*, 3> kTokenizerNames = {"auto", "whitespace", "chars"};

// Each enum's JSON names sit next to it, in the enum's order; the schema
// table lists them once from here.
enum class WeightInit {
  TorchLinear,        // nn.Linear(dModel, dModel, bias=qkvBias) for Q, K, V, then W_O   (default)
  TorchLinearClones,  // one nn.Linear(dModel, dModel, bias=qkvBias) deep-copied for Q, K, V and O
                      // (the Annotated Transformer's clones(nn.Linear(d, d), 4)); fused layout only
  TorchRand,          // torch.rand(dModel, dModel) for W_Q, W_K, W_V, then W_O; no biases
  TorchMha,           // nn.MultiheadAttention(dModel, numHeads): out_proj, then xavier in_proj
  Identity,           // W = I, no draws
};
inline constexpr std::array<const char*, 5> kWeightInitNames = {"torch-linear", "torch-linear-clones", "torch-rand",
                                                                "torch-mha", "identity"};

enum class ProjectionLayout {
  Fused,    // one [dModel, dModel] projection viewed as heads   (default)
  PerHead,  // each head draws its own [dModel, headDim] projection
};
inline constexpr std::array<const char*, 2> kLayoutNames = {"fused", "per-head"};

// How a query row and a key row of one head make a score.
enum class ScoreKind {
  Dot,       // q_i · k_j   (default)
  Additive,  // Bahdanau: v_aᵀ tanh(q_i·W_a + k_j·U_a), W_a, U_a [headDim, additiveHidden], v_a [additiveHidden]
};
inline constexpr std::array<const char*, 2> kScoreNames = {"dot", "additive"};

enum class ScaleMode {
  HeadDim,  // 1/sqrt(headDim)   (default)
  DModel,   // 1/sqrt(dModel), as some tutorials write it
  None,     // 1
  Custom,   // customScale, like scaled_dot_product_attention(scale=...); a number in the JSON
};
inline constexpr std::array<const char*, 3> kScaleNames = {"head-dim", "d-model", "none"};

enum class MaskKind {
  None,
  Causal,         // torch.triu(ones(S, S_kv), diagonal=1): key j is blocked for query i when j > i
  Padding,        // key_padding_mask: <pad> keys are blocked
  CausalPadding,  // both
};
inline constexpr std::array<const char*, 4> kMaskNames = {"none", "causal", "padding", "causal+padding"};
inline bool blocksFuture(MaskKind m) { return m == MaskKind::Causal || m == MaskKind::CausalPadding; }
inline bool blocksPadding(MaskKind m) { return m == MaskKind::Padding || m == MaskKind::CausalPadding; }
// The masks of one kind that the others combine ("causal+padding" is causal and padding). The schema exports,
// for every mask, the ones it holds (its "kinds"), so no caller reads them out of a mask's name.
inline constexpr std::array<MaskKind, 2> kMaskParts = {MaskKind::Causal, MaskKind::Padding};
inline bool maskHolds(MaskKind m, MaskKind part) {
  return part == MaskKind::Causal ? blocksFuture(m) : part == MaskKind::Padding && blocksPadding(m);
}

// What the numbers of the mask tensor mean, and how it is applied to the scaled scores.
enum class MaskConvention {
  Blocked,   // 1 = blocked: scaled.masked_fill(mask.bool(), fill), as nn.MultiheadAttention's bool masks   (default)
  Keep,      // 1 = keep: scaled.masked_fill(mask == 0, fill), as torch.tril(ones) masks and SDPA's bool mask
  Additive,  // 0 or fill: scaled + mask, as a float attn_mask
};
inline constexpr std::array<const char*, 3> kMaskConventionNames = {"blocked", "keep", "additive"};

// Rotary position embedding of each head's q and k (after QK-norm), positions 0..S-1.
enum class RopeStyle {
  None,         // no rotation   (default)
  RotateHalf,   // Hugging Face / GPT-NeoX: q*cos(emb) + rotate_half(q)*sin(emb), emb = cat(angles, angles)
  Interleaved,  // Meta's original: pairs (2i, 2i+1) rotated by angle i
};
inline constexpr std::array<const char*, 3> kRopeStyleNames = {"none", "rotate-half", "interleaved"};

// Long-context RoPE: transformers' rope_scaling "rope_type" (modeling_rope_utils.py; rope_scaling.h).
enum class RopeScaling {
  None,     // the frequencies as trained   (default)
  Linear,   // position interpolation: inv_freq / factor
  Dynamic,  // dynamic NTK: the base grows once S exceeds originalMaxPositions
  Yarn,     // YaRN: low frequencies interpolated, high ones kept, cos and sin times 0.1·ln(factor) + 1
};
inline constexpr std::array<const char*, 4> kRopeScalingNames = {"none", "linear", "dynamic", "yarn"};

enum class Positional { None, Sinusoidal };
inline constexpr std::array<const char*, 2> kPositionalNames = {"none", "sinusoidal"};

// What a run computes: the one configurable attention layer of everything
// above, or the tiny trained model (tiny_model.h), which reads only text and
// checkpoint. "checkpoint" names a Hugging Face checkpoint the reader opens
// from its files (web/api/checkpoint/open.js): a config alone has no weights
// for it, so a run with it is the field error model-checkpoint-files.
enum class ModelKind {
  Attention,  // (default)
  Tiny,
  Checkpoint,
};
inline constexpr std::array<const char*, 3> kModelNames = {"attention", "tiny", "checkpoint"};
// The tiny model's default checkpoint: its last training step (tiny_model.h's kTinyCheckpoints ends with it).
inline constexpr int64_t kLastTinyCheckpoint = 11000;

// The weight tensors a config may give or edit, in pipeline order: the
// projections, the additive score's layers (score "additive"), the output projection, the output gate,
// differential attention's λ vectors and its head norm's weight (diff.depth).
// MLA's latent projections (mla.kvRank; with W_Q and W_O, in model.py's draw order).
inline constexpr std::array<const char*, 22> kWeightNames = {
    "W_Q", "W_K",       "W_V",       "b_Q",       "b_K",       "b_V",   "W_a",   "U_a",  "v_a",     "W_O",  "b_O",
    "W_G", "lambda_q1", "lambda_k1", "lambda_q2", "lambda_k2", "subln", "W_DKV", "W_KR", "kv_norm", "W_UK", "W_UV"};
inline bool isAdditiveWeight(const std::string& name) { return name == "W_a" || name == "U_a" || name == "v_a"; }
// lambda_q1, lambda_k1, lambda_q2, lambda_k2 [d] and subln [2d] (Diff Transformer's MultiheadDiffAttn).
inline bool isDiffWeight(const std::string& name) { return name.rfind("lambda_", 0) == 0 || name == "subln"; }
// W_DKV [D, kvRank], W_KR [D, ropeDim], kv_norm [kvRank], W_UK [kvRank, H·nopeDim], W_UV [kvRank, H·valueDim]
// (DeepSeek's MLA: the columns of its fused wkv_a and wkv_b, tests/reference/recent.py).
inline bool isMlaLatentWeight(const std::string& name) {
  return name == "W_DKV" || name == "W_KR" || name == "kv_norm" || name == "W_UK" || name == "W_UV";
}
// Biases, v_a, differential attention's weights and MLA's kv_norm are vectors; the others matrices.
inline bool isVectorWeight(const std::string& name) {
  return name[0] == 'b' || name == "v_a" || name == "kv_norm" || isDiffWeight(name);
}

struct AttentionConfig {
  SequenceSource input;                           // queries (and keys/values for self-attention)
  SequenceSource context;                         // keys/values for cross-attention; absent = self-attention
  std::optional<std::vector<std::string>> vocab;  // id = index; default built from the tokens
  Tokenizer tokenizer = Tokenizer::Auto;          // how sentences are split (not pre-split tokens)
  std::optional<int64_t> maxLen;                  // pad with <pad> or truncate every sequence

  int64_t dModel = 8;
  int64_t numHeads = 2;
  uint64_t seed = 0;  // torch.manual_seed(seed) before the first draw

  // Embedding table [len(vocab), dModel]; default nn.Embedding(len(vocab), dModel).weight.
  std::optional<GivenValues> embeddingValues;
  std::vector<CellEdit> embeddingEdits;
  Positional positional = Positional::None;

  WeightInit init = WeightInit::TorchLinear;
  ProjectionLayout layout = ProjectionLayout::Fused;
  std::optional<bool> qkvBias;  // unset: the engine decides (true for torch-mha and torch-linear-clones)
  bool outProj = true;
  std::optional<uint64_t> weightsSeed;                       // torch.manual_seed before the weights
  std::map<std::string, GivenValues> weightValues;           // explicit W_Q ... b_O, x·W convention
  std::map<std::string, std::vector<CellEdit>> weightEdits;  // single edited numbers of W_Q ... b_O

  // Additive scores: three nn.Linear(…, bias=False) layers shared by all heads,
  // drawn with the weights right after W_Q, W_K, W_V and their biases (after
  // the whole module for torch-mha, which draws out_proj first), before W_O:
  //   W_a = nn.Linear(headDim, additiveHidden), U_a = nn.Linear(headDim, additiveHidden),
  //   v_a = nn.Linear(additiveHidden, 1)
  ScoreKind score = ScoreKind::Dot;
  int64_t additiveHidden = 8;

  // Applied after the score, whatever its kind ("none" for the usual additive attention).
  ScaleMode scale = ScaleMode::HeadDim;
  double customScale = 1.0;

  MaskKind mask = MaskKind::None;
  MaskConvention maskConvention = MaskConvention::Blocked;
  float maskFill = -std::numeric_limits<float>::infinity();  // the value of a blocked score

  double dropoutP = 0.0;                // nn.Dropout(p) in train mode on the weights
  std::optional<uint64_t> dropoutSeed;  // torch.manual_seed before the dropout mask

  // Modern variants (all off by default), in pipeline order:
  // qkNorm: q * torch.rsqrt(q.pow(2).mean(-1, keepdim=True) + 1e-6) on each head's q and k (RMSNorm, weight ones).
  bool qkNorm = false;
  // RoPE: inv_freq = 1.0 / (ropeBase ** (torch.arange(0, dk, 2).float() / dk)); angles = outer(arange(S), inv_freq).
  RopeStyle ropeStyle = RopeStyle::None;
  double ropeBase = 10000.0;
  // rope.scaling (rope_scaling.h): {type, factor, originalMaxPositions, betaFast, betaSlow, truncate}, as
  // rope_scaling's {rope_type, factor, original_max_position_embeddings, beta_fast, beta_slow, truncate}.
  RopeScaling ropeScaling = RopeScaling::None;
  double ropeScalingFactor = 4.0;
  int64_t ropeOriginalMaxPositions = 4096;  // dynamic: the length up to which nothing changes; YaRN's range
  double ropeBetaFast = 32.0;               // YaRN: rotations over the original length above which a pair is kept
  double ropeBetaSlow = 1.0;                // ... and below which it is interpolated
  bool ropeTruncate = true;                 // YaRN: the ramp's ends floored and ceiled (gpt-oss: false)
  // Grouped-query attention: K and V have numKVHeads heads (W_K, W_V [D, numKVHeads·dk]); query head h reads
  // KV head h // (numHeads // numKVHeads), as k.repeat_interleave(numHeads // numKVHeads, dim=1). Unset = numHeads.
  std::optional<int64_t> numKVHeads;
  // Sliding window (Mistral): query i sees key j only when 0 <= i - j < window (with the causal mask). Unset: none.
  std::optional<int64_t> window;
  // StreamingLLM: keys j < sinkTokens stay visible whatever the window (causality still holds).
  int64_t sinkTokens = 0;
  // One extra logit per row, the softmax's last column, carrying no value (0: add_zero_attn=True). Empty: none.
  // One number is every head's; a list of numHeads numbers (sinkLogitPerHead) is gpt-oss's learned sinks,
  // head h's the h-th: torch.cat([logits, sinks.reshape(1, -1, 1, 1).expand(B, -1, S, -1)], dim=-1).
  std::vector<double> sinkLogit;
  bool sinkLogitPerHead = false;
  bool hasSink() const { return !sinkLogit.empty(); }
  double sinkLogitOf(int64_t head) const { return sinkLogit[sinkLogitPerHead ? static_cast<size_t>(head) : 0]; }
  // ALiBi: biased = capped + (-slope_h * (i - j)), before the mask.
  bool alibi = false;
  // Logit soft-capping: capped = softcap * torch.tanh(scaled / softcap) (Gemma 2: 50). Unset: none.
  std::optional<double> softcap;
  // Gated output (Qwen3-Next): gated = concat * torch.sigmoid(X @ W_G) before W_O; W_G [D, D], no bias.
  bool outputGate = false;
  // Differential attention (Diff Transformer, multihead_diffattn.py) at layer index diffDepth: each head's q and
  // k split into two half-heads of d = dk / 2, A = softmax(q₁k₁ᵀ/√d) − λ·softmax(q₂k₂ᵀ/√d) with
  // λ = exp(λ_q1·λ_k1) − exp(λ_q2·λ_k2) + λ_init, λ_init = 0.8 − 0.6·exp(−0.3·depth), and the head output
  // RMSNorm(A·V)·subln·(1 − λ_init). Unset: off.
  std::optional<int64_t> diffDepth;
  bool isDiff() const { return diffDepth.has_value(); }
  // Multi-head latent attention (DeepSeek-V2/V3 inference/model.py class MLA, q_lora_rank 0): keys and values
  // from one latent c = RMSNorm(X·W_DKV) [kvRank] per token, each head's query and key a nopeDim part and a
  // ropeDim part (the rope part of the key one X·W_KR shared by the heads), values of valueDim; mlaAbsorb takes
  // the absorbed path (q_nope·W_UKᵀ against the cached c). On when mlaKvRank is set; the other three are
  // required with it.
  std::optional<int64_t> mlaKvRank, mlaNopeDim, mlaRopeDim, mlaValueDim;
  bool mlaAbsorb = false;
  bool isMla() const { return mlaKvRank.has_value(); }

  // The trained model instead of the layer above (model "tiny"), and the training step of its weights.
  ModelKind model = ModelKind::Attention;
  int64_t checkpoint = kLastTinyCheckpoint;

  // The paths of the fields parseConfig read (given and not null), in schema order:
  // with model "tiny", those set away from their default are named in a warning.
  std::vector<std::string> givenFields;

  // K and V heads: numKVHeads, or numHeads without grouped-query attention.
  int64_t kvHeads() const { return numKVHeads.value_or(numHeads); }

  // The one place the qkvBias rule lives: on by default for the modules that have it on by
  // default (nn.MultiheadAttention, and the cloned nn.Linear(d, d) of the Annotated Transformer).
  bool hasQkvBias() const {
    return qkvBias.value_or(init == WeightInit::TorchMha || init == WeightInit::TorchLinearClones);
  }
  // Fills in what the engine decides for settings left unset, so a config can
  // report the settings a run used (result.settings in JS).
  void resolveDefaults() { qkvBias = hasQkvBias(); }
  bool isCrossAttention() const { return context.present(); }
};

}  // namespace attention_lab
