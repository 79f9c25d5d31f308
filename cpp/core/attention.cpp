// runAttention as a sequence of stages, each mirroring a few lines of the
// PyTorch reference (tests/reference/generate.py). Shapes: B batch, S query
// length, S_kv key length, D dModel, H heads, dk = D / H.
//
//   tokens -> inputs -> weights -> projections -> heads -> dropout -> merge -> output
//
// The arithmetic follows PyTorch's (float32 throughout, the same operation
// order, scores divided by the float square root rather than multiplied by its
// reciprocal), and the random draws come in PyTorch's order: embedding table,
// random input, random context, weights (with the additive score's layers), dropout.
#include "attention.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <string>

#include "attention_stages.h"
#include "buffers.h"
#include "diff_attention.h"
#include "draw_cache.h"
#include "embedding.h"
#include "gemm.h"
#include "mla_attention.h"
#include "rope_scaling.h"
#include "softmax.h"
#include "tokens.h"
#include "torch_random.h"
#include "validate.h"
#include "weights.h"

namespace attention_lab {

using stages::Dims;
using stages::Intermediates;
using stages::Tokens;

namespace {

using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Strided = Eigen::OuterStride<>;
// A [rows, cols] row-major view into a tensor, rows `stride` floats apart.
using ConstView = Eigen::Map<const RowMatrix, 0, Strided>;
using View = Eigen::Map<RowMatrix, 0, Strided>;

Tensor emptyTensor(std::vector<int64_t> shape) {
  int64_t count = 1;
  for (int64_t n : shape) count *= n;
  return Tensor{std::move(shape), std::vector<float>(static_cast<size_t>(count), 0.0f)};
}

void drawNormal(TorchGenerator& gen, Tensor& t) {
  gen.normal(t.data.data(), static_cast<int64_t>(t.data.size()), 0.0, 1.0);
}

// ---- tokens ---------------------------------------------------------------
// sentences (or pre-split tokens) -> tokens [B][S] (context [B][S_kv]) -> ids, and the vocab:
//   side = tokenize_side(texts, mode, max_len)   # tokenize(text, mode), padded with "<pad>" to the longest or max_len
//   vocab = config["vocab"] or build_vocab(sides)
//   ids = token_ids(side, vocab, unknown)
// `names`: the config fields of the side's sentence, batch and token forms.
Status tokenizeSource(const AttentionConfig& c, const SequenceSource& source, const char* const names[3],
                      TokenizedSide& out) {
  if (!source.tokens.empty()) return tokenizeSide(source.tokens, names[2], c.maxLen, out);
  const bool list = source.textsGivenAsList;
  return tokenizeSide(source.texts, c.tokenizer, list ? names[1] : names[0], list, c.maxLen, out);
}

Status tokenize(const AttentionConfig& c, Tokens& t, AttentionResult& r) {
  static const char* const kQueryFields[3] = {"text", "texts", "tokens"};
  static const char* const kContextFields[3] = {"contextText", "contextTexts", "contextTokens"};
  t.hasQuery = c.input.hasTokens();
  t.hasContext = c.context.hasTokens();
  if (t.hasQuery)
    if (Status s = tokenizeSource(c, c.input, kQueryFields, t.query)) return s;
  if (t.hasContext)
    if (Status s = tokenizeSource(c, c.context, kContextFields, t.context)) return s;
  std::vector<const TokenizedSide*> sides;
  if (t.hasQuery) sides.push_back(&t.query);
  if (t.hasContext) sides.push_back(&t.context);
  if (!sides.empty()) t.vocab = buildVocabulary(c.vocab, sides);
  if (t.hasQuery) {
    r.tokens = t.query.tokens;
    r.ids = tokenIds(t.query, t.vocab, &r.unknownTokens);
  }
  if (t.hasContext) {
    r.contextTokens = t.context.tokens;
    r.contextIds = tokenIds(t.context, t.vocab, &r.unknownTokens);
  }
  r.vocab = t.vocab.tokens;
  return {};
}

Dims dimsOf(const AttentionConfig& c, const RunSizes& sizes) {
  Dims d;
  d.B = sizes.batch;
  d.S = sizes.queryLen;
  d.Skv = sizes.keyLen;
  d.D = c.dModel;
  d.H = c.numHeads;
  d.dk = d.D / d.H;
  d.Hkv = c.kvHeads();
  d.Dkv = d.Hkv * d.dk;
  return d;
}

// B, S, S_kv from the tokens or the random inputs' shapes, then the limits on them.
//   B, S, _ = x.shape; S_kv = x_kv.shape[1]
Status measure(const AttentionConfig& c, const AttentionResult& r, RunSizes& sizes, Dims& d) {
  sizes.batch = c.input.random ? c.input.random->shape[0] : static_cast<int64_t>(r.tokens.size());
  sizes.queryLen = c.input.random ? c.input.random->shape[1] : static_cast<int64_t>(r.tokens[0].size());
  sizes.keyLen = !c.isCrossAttention() ? sizes.queryLen
                 : c.context.random    ? c.context.random->shape[1]
                                       : static_cast<int64_t>(r.contextTokens[0].size());
  sizes.vocabSize = static_cast<int64_t>(r.vocab.size());
  if (Status s = validateSizes(c, sizes)) return s;
  d = dimsOf(c, sizes);
  return {};
}

// A random input: torch.randn(B, L, D) or torch.rand(B, L, D).
Tensor drawRandomInput(const RandomInput& input, TorchGenerator& gen) {
  Tensor x = emptyTensor({input.shape[0], input.shape[1], input.shape[2]});
  if (input.draw == RandomDraw::Uniform)
    gen.uniform(x.data.data(), static_cast<int64_t>(x.data.size()), 0.0, 1.0);
  else
    drawNormal(gen, x);
  return x;
}

// ---- inputs ---------------------------------------------------------------
// ids [B, S] -> x [B, S, D]; context ids [B, S_kv] -> x_context [B, S_kv, D]; or random.
//   emb = nn.Embedding(len(vocab), D)   # table [V, D] ~ N(0, 1); explicit values and edits over it
//   x = emb(ids); x_context = emb(context_ids)
//   x = torch.randn(B, S, D); x_context = torch.randn(B, S_kv, D)   # or torch.rand
//   x = x + pe[:S]; x_context = x_context + pe[:S_kv]   # positional "sinusoidal"
// The sides given as tokens: x = emb(ids) (+ pe[:S]), x_context = emb(context_ids) (+ pe[:S_kv]).
void embedSides(const AttentionConfig& c, const Tokens& t, const AttentionResult& r, const Tensor& table,
                Intermediates& m) {
  const bool sinusoidal = c.positional == Positional::Sinusoidal;
  if (t.hasQuery) {
    m.x = embed(table, r.ids);
    if (sinusoidal) addSinusoidalPositions(m.x);
  }
  if (t.hasContext) {
    m.xContext = embed(table, r.contextIds);
    if (sinusoidal) addSinusoidalPositions(m.xContext);
  }
}

// `table` [V, D] is kept for the caller (a prepared run edits it); empty without tokens.
Status embedInputs(const AttentionConfig& c, const Tokens& t, const AttentionResult& r, const Dims& d,
                   TorchGenerator& gen, Intermediates& m, Tensor& table) {
  if (t.any()) {
    // Complete explicit values draw nothing; nulls in them keep the drawn numbers.
    const int64_t vocabSize = static_cast<int64_t>(r.vocab.size());
    const bool drawn = !c.embeddingValues || !c.embeddingValues->complete();
    table = drawn ? drawEmbeddingTable(vocabSize, d.D, gen) : emptyTensor({vocabSize, d.D});
    if (c.embeddingValues) c.embeddingValues->applyTo(table);
    if (Status s = applyEmbeddingEdits(c.embeddingEdits, r.vocab, table)) return s;
  }
  const bool sinusoidal = c.positional == Positional::Sinusoidal;
  if (c.input.random) {
    m.x = drawRandomInput(*c.input.random, gen);
    if (sinusoidal) addSinusoidalPositions(m.x);
  }
  if (c.context.random) {
    m.xContext = drawRandomInput(*c.context.random, gen);
    if (sinusoidal) addSinusoidalPositions(m.xContext);
  }
  embedSides(c, t, r, table, m);
  return {};
}

// ---- weights --------------------------------------------------------------
// W_Q, W_K, W_V, W_O [D, D]; b_Q, b_K, b_V, b_O [D] (those that exist), in the x·W convention.
//   torch.manual_seed(weights.seed)   # when given
//   q_proj = nn.Linear(D, D, bias=qkvBias); ...   # or torch.rand, nn.MultiheadAttention, torch.eye
void initializeWeights(const AttentionConfig& c, TorchGenerator& gen, Intermediates& m) {
  if (c.weightsSeed) gen.manualSeed(*c.weightsSeed);
  m.w = initWeights(c, gen);
}

// ---- what to keep -------------------------------------------------------
// Indices into kTensorNames, found by the compiler.
constexpr int kX = TensorSet::indexOf("X"), kXContext = TensorSet::indexOf("X_context"), kQ = TensorSet::indexOf("Q"),
              kK = TensorSet::indexOf("K"), kV = TensorSet::indexOf("V"), kQNorm = TensorSet::indexOf("Q_norm"),
              kKNorm = TensorSet::indexOf("K_norm"), kRopeAngles = TensorSet::indexOf("ropeAngles"),
              kRopeInvFreqBase = TensorSet::indexOf("ropeInvFreqBase"),
              kRopeInvFreq = TensorSet::indexOf("ropeInvFreq"),
              kRopeAttentionFactor = TensorSet::indexOf("ropeAttentionFactor"),
              kRopeExtrapolationFactor = TensorSet::indexOf("ropeExtrapolationFactor"),
              kRopeNtkBase = TensorSet::indexOf("ropeNtkBase"), kQRope = TensorSet::indexOf("Q_rope"),
              kKRope = TensorSet::indexOf("K_rope"), kScores = TensorSet::indexOf("scores"),
              kScaled = TensorSet::indexOf("scaled"), kCapped = TensorSet::indexOf("capped"),
              kAlibiBias = TensorSet::indexOf("alibiBias"), kBiased = TensorSet::indexOf("biased"),
              kMask = TensorSet::indexOf("mask"), kMasked = TensorSet::indexOf("masked"),
              kWeights = TensorSet::indexOf("weights"), kSinkWeights = TensorSet::indexOf("sinkWeights"),
              kDropped = TensorSet::indexOf("dropped"), kAveragedWeights = TensorSet::indexOf("averagedWeights"),
              kContext = TensorSet::indexOf("context"), kConcat = TensorSet::indexOf("concat"),
              kGateLogits = TensorSet::indexOf("gateLogits"), kGate = TensorSet::indexOf("gate"),
              kGated = TensorSet::indexOf("gated"), kOutput = TensorSet::indexOf("output");
constexpr int kHalfScores = TensorSet::indexOf("halfScores"), kHalfScaled = TensorSet::indexOf("halfScaled"),
              kHalfMasked = TensorSet::indexOf("halfMasked"), kHalfWeights = TensorSet::indexOf("halfWeights"),
              kLambdaFull = TensorSet::indexOf("lambdaFull"), kContextNorm = TensorSet::indexOf("contextNorm"),
              kContextScaled = TensorSet::indexOf("contextScaled");
constexpr int kLatent = TensorSet::indexOf("latent"), kLatentNorm = TensorSet::indexOf("latentNorm"),
              kKPe = TensorSet::indexOf("K_pe"), kQPeRope = TensorSet::indexOf("Q_pe_rope"),
              kKPeRope = TensorSet::indexOf("K_pe_rope"), kQAbsorbed = TensorSet::indexOf("Q_absorbed"),
              kLatentContext = TensorSet::indexOf("latentContext"),
              kOtherPathScores = TensorSet::indexOf("otherPathScores"),
              kOtherPathOutput = TensorSet::indexOf("otherPathOutput");
static_assert(kLatent >= 0 && kLatentNorm >= 0 && kKPe >= 0 && kQPeRope >= 0 && kKPeRope >= 0 && kQAbsorbed >= 0 &&
              kLatentContext >= 0 && kOtherPathScores >= 0 && kOtherPathOutput >= 0);
static_assert(kHalfScores >= 0 && kHalfScaled >= 0 && kHalfMasked >= 0 && kHalfWeights >= 0 && kLambdaFull >= 0 &&
              kContextNorm >= 0 && kContextScaled >= 0);
static_assert(kRopeInvFreqBase >= 0 && kRopeInvFreq >= 0 && kRopeAttentionFactor >= 0 &&
              kRopeExtrapolationFactor >= 0 && kRopeNtkBase >= 0);
static_assert(kX >= 0 && kXContext >= 0 && kQ >= 0 && kK >= 0 && kV >= 0 && kQNorm >= 0 && kKNorm >= 0 &&
              kRopeAngles >= 0 && kQRope >= 0 && kKRope >= 0 && kScores >= 0 && kScaled >= 0 && kCapped >= 0 &&
              kAlibiBias >= 0 && kBiased >= 0 && kMask >= 0 && kMasked >= 0 && kWeights >= 0 && kSinkWeights >= 0 &&
              kDropped >= 0 && kAveragedWeights >= 0 && kContext >= 0 && kConcat >= 0 && kGateLogits >= 0 &&
              kGate >= 0 && kGated >= 0 && kOutput >= 0);

// Which tensors this run computes and keeps. A [B, H, S, S_kv] stage equal to
// the one before it element for element is kept once: `masked` is `scaled`
// without a mask (not with the additive convention: scaled + 0 turns -0 into
// +0), `dropped` is `weights` when p = 0 (nn.Dropout(0) copies).
struct Plan {
  TensorSet wanted;
  Selection selection;  // an alias pair shares one slicing (both in allHeads, or neither)
  bool maskedIsScaled = false, droppedIsWeights = false;
  bool keepScores = false, keepScaled = false, keepMasked = false, keepWeights = false, keepDropped = false;
  bool keepContext = false, keepConcat = false, keepAveraged = false;
  bool keepCapped = false, keepBiased = false, keepSinkWeights = false;  // softcap, ALiBi, sink only
  bool variantRows = false;  // softcap, ALiBi or the sink: the rows go through variantRow
  bool alibi = false;        // the ALiBi bias: asked for, or the heads add it
  bool ropeAngles = false;   // the angles: asked for, or the projections rotate
  bool project = false;      // Q, K, V: asked for, or the heads need them
  bool attend = false;       // the heads: anything from the scores on is asked for
  bool drop = false;         // dropout: dropped, averagedWeights or the context need it
  bool merge = false;        // context = dropped @ v, and the concat: context, concat, the gate or output
  bool gate = false;         // the output gate's stage: outputGate, and any of its tensors or the output
  bool mask = false;         // the mask tensor: asked for, or the mask step reads it
  // Differential attention (diff.depth): what its stage keeps and computes (diff_attention.h), filled at the
  // end of planRun from the flags above.
  bool diff = false;
  DiffPlan diffPlan;

  bool wants(int tensor) const { return wanted.has(tensor); }
};

// How one row of scores becomes weights (softmax.h), from the config:
//   scaled = scores / math.sqrt(dk)   # head-dim; / math.sqrt(D) for d-model; * scale otherwise
//   masked = scaled.masked_fill(mask[:, None].bool(), fill)   # "blocked"; (mask == 0) for "keep";
//                                                             # scaled + mask[:, None] for "additive"
ScoreRowSteps scoreRowSteps(const AttentionConfig& c, const Dims& d, double scaleFactor) {
  ScoreRowSteps steps;
  // Dividing by the float square root, as PyTorch's `scores / math.sqrt(dk)`
  // does, rounds differently from multiplying by its reciprocal.
  steps.divide = c.scale == ScaleMode::HeadDim || c.scale == ScaleMode::DModel;
  steps.divisor = static_cast<float>(std::sqrt(static_cast<double>(c.scale == ScaleMode::DModel ? d.D : d.dk)));
  steps.factor = static_cast<float>(scaleFactor);
  if (c.maskConvention == MaskConvention::Additive)
    steps.mask = MaskStep::Add;
  else if (c.mask != MaskKind::None)
    steps.mask = MaskStep::Fill;
  steps.blockedValue = c.maskConvention == MaskConvention::Keep ? 0.0f : 1.0f;
  steps.fill = c.maskFill;
  steps.cap = c.softcap.has_value();
  steps.softcap = static_cast<float>(c.softcap.value_or(1.0));
  steps.sink = c.hasSink();
  steps.sinkLogit = steps.sink ? static_cast<float>(c.sinkLogitOf(0)) : 0.0f;  // withHeadSink sets each head's
  return steps;
}

Plan planRun(const AttentionConfig& c, const ScoreRowSteps& steps, TensorSet wanted, Selection selection) {
  Plan p;
  p.wanted = wanted;
  // With a cap or a bias, the unmasked logits are the capped or biased ones, not the scaled.
  p.maskedIsScaled = steps.mask == MaskStep::None && !steps.cap && !c.alibi;
  p.droppedIsWeights = c.dropoutP <= 0;
  const auto sharePair = [&](bool same, int first, int second) {
    if (same && (selection.allHeads.has(first) || selection.allHeads.has(second))) {
      selection.allHeads.add(kTensorNames[static_cast<size_t>(first)]);
      selection.allHeads.add(kTensorNames[static_cast<size_t>(second)]);
    }
  };
  sharePair(p.maskedIsScaled, kScaled, kMasked);
  sharePair(p.droppedIsWeights, kWeights, kDropped);
  p.selection = selection;
  p.keepScores = p.wants(kScores);
  p.keepScaled = p.wants(kScaled) || (p.maskedIsScaled && p.wants(kMasked));
  p.keepMasked = p.wants(kMasked) && !p.maskedIsScaled;
  p.keepWeights = p.wants(kWeights) || (p.droppedIsWeights && p.wants(kDropped));
  p.keepDropped = p.wants(kDropped) && !p.droppedIsWeights;
  p.keepAveraged = p.wants(kAveragedWeights);
  p.keepCapped = steps.cap && p.wants(kCapped);
  p.keepBiased = c.alibi && p.wants(kBiased);
  p.keepSinkWeights = steps.sink && p.wants(kSinkWeights);
  p.variantRows = needsVariantRow(steps, c.alibi);
  p.keepContext = p.wants(kContext);
  p.keepConcat = p.wants(kConcat);
  p.diff = c.isDiff();
  if (p.diff) {  // its half-head maps stand where scores .. masked would (validate.cpp: no variant rows)
    p.keepScores = p.keepScaled = p.keepMasked = false;
    p.diffPlan.halfScores = p.wants(kHalfScores);
    p.diffPlan.halfScaled = p.wants(kHalfScaled);
    p.diffPlan.halfMasked = p.wants(kHalfMasked);
    p.diffPlan.halfWeights = p.wants(kHalfWeights);
    p.diffPlan.lambda = p.wants(kLambdaFull);
    p.diffPlan.contextNorm = p.wants(kContextNorm);
    p.diffPlan.contextScaled = p.wants(kContextScaled);
  }
  const DiffPlan& dp = p.diffPlan;
  p.gate = c.outputGate && (p.wants(kGateLogits) || p.wants(kGate) || p.wants(kGated) || p.wants(kOutput));
  p.merge = p.keepContext || p.keepConcat || p.gate || p.wants(kOutput) || dp.contextNorm || dp.contextScaled;
  p.drop = p.wants(kDropped) || p.keepAveraged || p.merge;
  p.attend = p.drop || p.keepScores || p.wants(kScaled) || p.wants(kMasked) || p.wants(kWeights) || p.keepCapped ||
             p.keepBiased || p.keepSinkWeights || dp.halfScores || dp.halfScaled || dp.halfMasked || dp.halfWeights ||
             dp.lambda;
  const bool norm = c.qkNorm && (p.wants(kQNorm) || p.wants(kKNorm));
  const bool rope = c.ropeStyle != RopeStyle::None && (p.wants(kQRope) || p.wants(kKRope));
  p.project = p.attend || p.wants(kQ) || p.wants(kK) || p.wants(kV) || norm || rope;
  const bool wantsFrequencies = p.wants(kRopeInvFreqBase) || p.wants(kRopeInvFreq) || p.wants(kRopeAttentionFactor) ||
                                p.wants(kRopeExtrapolationFactor) || p.wants(kRopeNtkBase);
  p.ropeAngles = c.ropeStyle != RopeStyle::None && (p.wants(kRopeAngles) || wantsFrequencies || p.project);
  p.alibi = c.alibi && (p.wants(kAlibiBias) || p.attend);
  p.mask = p.wants(kMask) || (p.attend && steps.mask != MaskStep::None);
  if (p.diff) {  // what its stage shares with the one-map heads
    p.diffPlan.selection = p.selection;
    p.diffPlan.weights = p.keepWeights;
    p.diffPlan.averaged = p.keepAveraged;
    p.diffPlan.context = p.keepContext;
    p.diffPlan.merge = p.merge;
    p.diffPlan.mask = p.mask;
  }
  return p;
}

// ---- the memory budget ----------------------------------------------------

// The tokens' bookkeeping: per token slot (B·S, B·S_kv) the side's string,
// the result's copy and its id, and the string the split held while its list
// grew; per vocab entry the vocab's string and the result's copy, and a node
// and a bucket of each of the two lookups that find ids; and every
// character of the sentences, tokens and given vocab five times over, for the
// tokens too long to sit inside a string object.
int64_t tokenBytes(const AttentionConfig& c, const Dims& d, int64_t vocabSize) {
  constexpr int64_t kString = sizeof(std::string), kBucket = sizeof(void*), kNode = kString + 3 * sizeof(void*);
  constexpr int64_t kPerSlot = 3 * kString + sizeof(int64_t), kPerEntry = 2 * kString + 2 * (kNode + kBucket);
  int64_t characters = 0;
  for (const SequenceSource* side : {&c.input, &c.context}) {
    for (const std::string& text : side->texts) characters += static_cast<int64_t>(text.size());
    for (const auto& row : side->tokens)
      for (const std::string& token : row) characters += static_cast<int64_t>(token.size());
  }
  if (c.vocab)
    for (const std::string& token : *c.vocab) characters += static_cast<int64_t>(token.size());
  const int64_t slots = (c.input.hasTokens() ? d.B * d.S : 0) + (c.context.hasTokens() ? d.B * d.Skv : 0);
  return slots * kPerSlot + vocabSize * kPerEntry + 5 * characters;
}

// The run's small objects: the weights' map nodes (twice, with the draw cache's copy), the result's lists.
constexpr int64_t kSmallObjectBytes = int64_t{16} << 10;

// The floats a run of plan `p` allocates, stage by stage as the stages below
// allocate them. A buffer freed early (the embedding table) counts as if it
// lived through the run, and the scratch kept from run to run (the
// workspace, the products' packing) as if this run grew it. A [B, H, S,
// S_kv] stage counts only when it is kept.
int64_t planFloats(const AttentionConfig& c, const Dims& d, int64_t vocabSize, const Plan& p) {
  const int64_t B = d.B, H = d.H, S = d.S, Skv = d.Skv, D = d.D, dk = d.dk, Dkv = d.Dkv, cells = S * Skv;
  const bool self = !c.isCrossAttention(), sink = c.hasSink();
  const Selection& sel = p.selection;
  const auto name = [](int tensor) { return kTensorNameViews[static_cast<size_t>(tensor)]; };
  // A projection [B, L, width] kept when asked for (one sentence of it, selected).
  const auto projection = [&](int tensor, int64_t L, int64_t width) -> int64_t {
    return p.wants(tensor) ? (sel.batchOf(name(tensor)) >= 0 ? 1 : B) * L * width : 0;
  };
  // A per-head stage [B, H, S, cols] kept (one sentence and/or head of it, selected).
  const auto perHead = [&](bool keep, int tensor, int64_t cols) -> int64_t {
    if (!keep) return 0;
    return (sel.batchOf(name(tensor)) >= 0 ? 1 : B) * (sel.headOf(name(tensor)) >= 0 ? 1 : H) * S * cols;
  };
  const auto cached = [](int64_t floats) { return static_cast<size_t>(floats) <= kMaxCachedFloats ? floats : 0; };

  // X (and X_context), the embedding table and the draw cache's copy of it, the sinusoid's two rows; the weights.
  const int64_t table = vocabSize * D;
  const bool drawnTable = !c.embeddingValues || !c.embeddingValues->complete();
  int64_t floats = B * S * D + (self ? 0 : B * Skv * D) + table + (drawnTable ? cached(table) : 0) +
                   (c.positional == Positional::Sinusoidal ? 2 * D : 0) + weightFloats(c);
  if (p.mask) floats += B * cells;
  if (c.isMla()) return floats + mlaFloats(c, d);  // its stage computes every tensor
  if (p.ropeAngles) floats += S * (dk / 2);
  if (p.alibi) floats += H * cells;
  if (!p.project) return floats;

  // Q | K | V side by side (Q and K | V apart with a context), the copies kept, the rotation's cos and sin.
  floats += self ? B * S * (D + 2 * Dkv) : B * S * D + B * Skv * 2 * Dkv;
  floats += projection(kQ, S, D) + projection(kK, Skv, Dkv) + projection(kV, Skv, Dkv);
  if (c.qkNorm) floats += projection(kQNorm, S, D) + projection(kKNorm, Skv, Dkv);
  if (c.ropeStyle != RopeStyle::None) floats += projection(kQRope, S, D) + projection(kKRope, Skv, Dkv) + S * dk;
  // The concat (kept, the output itself, or the output projection's input), and the output.
  if (p.keepConcat || p.wants(kOutput) || p.gate) floats += B * S * D;
  if (p.wants(kOutput) && (c.outProj || p.keepConcat)) floats += B * S * D;
  if (p.gate) floats += 3 * B * S * D;  // gateLogits, gate, gated (kept or scratch)
  // The products' packing scratch, the largest of them.
  int64_t packing = self ? gemmScratchFloats(D + 2 * Dkv, D, false)
                         : std::max(gemmScratchFloats(D, D, false), gemmScratchFloats(2 * Dkv, D, false));
  if (p.attend && c.score == ScoreKind::Dot) packing = std::max(packing, gemmScratchFloats(Skv, dk, true));
  if (p.merge) packing = std::max(packing, gemmScratchFloats(dk, Skv, false));
  if (p.wants(kOutput) && c.outProj) packing = std::max(packing, gemmScratchFloats(D, D, false));
  if (p.gate) packing = std::max(packing, gemmScratchFloats(D, D, false));
  floats += packing;
  if (!p.attend) return floats;

  // The per-head stages kept, then the heads' scratch: one head's scores and weights [S, S_kv], its dropped
  // weights, its probabilities and their dropout with the sink column [S, S_kv + 1], its q·W_a and k·U_a.
  floats += perHead(p.keepScores, kScores, Skv) + perHead(p.keepScaled, kScaled, Skv) +
            perHead(p.keepCapped, kCapped, Skv) + perHead(p.keepBiased, kBiased, Skv) +
            perHead(p.keepMasked, kMasked, Skv) + perHead(p.keepWeights, kWeights, Skv) +
            perHead(p.keepDropped, kDropped, Skv) + perHead(p.keepSinkWeights, kSinkWeights, 1) +
            perHead(p.keepContext, kContext, dk);
  if (p.keepAveraged) floats += (sel.batch >= 0 ? 1 : B) * cells;
  if (p.diff) {
    // The half-head maps kept (a selected head keeps its two), the head norm's stages, and the scratch: a
    // half-head's scaled q [S, d], a head's two maps, then their weights [2, S, S_kv], its context and norm [2, S, dk].
    const auto halves = [&](bool keep, int tensor) -> int64_t {
      if (!keep) return 0;
      return (sel.batchOf(name(tensor)) >= 0 ? 1 : B) * (sel.headOf(name(tensor)) >= 0 ? 2 : 2 * H) * cells;
    };
    const DiffPlan& dp = p.diffPlan;
    floats += halves(dp.halfScores, kHalfScores) + halves(dp.halfScaled, kHalfScaled) +
              halves(dp.halfMasked, kHalfMasked) + halves(dp.halfWeights, kHalfWeights) + 1 +
              perHead(dp.contextNorm, kContextNorm, dk) + perHead(dp.contextScaled, kContextScaled, dk);
    floats += S * dk / 2 + 2 * cells + 2 * S * dk;
    return floats;  // none of the one-map scratch below
  }
  const bool dropScratch = p.drop && !p.droppedIsWeights;
  floats += cells + (dropScratch ? cells : 0) + (sink ? S * (Skv + 1) * (dropScratch ? 2 : 1) : 0);
  if (c.score == ScoreKind::Additive) floats += (S + Skv) * c.additiveHidden;
  return floats;
}

// What the budget (kMaxIntermediateBytes) counts for a run of plan `p`,
// checked before any of it is allocated: its floats, its tokens' bookkeeping
// and its small objects.
int64_t planBytes(const AttentionConfig& c, const Dims& d, int64_t vocabSize, const Plan& p) {
  return 4 * planFloats(c, d, vocabSize, p) + tokenBytes(c, d, vocabSize) + kSmallObjectBytes;
}

// The scratch of a run, kept from call to call (one per thread): grown when a
// run is larger than any before, never zero-filled again.
struct Workspace {
  std::vector<float> projected;         // [B·S, D + 2·Dkv] Q | K | V (self-attention), or Q [B·S, D]
  std::vector<float> keysValues;        // [B·S_kv, 2·Dkv] K | V (cross-attention)
  std::vector<float> headWeights;       // [S, S_kv] one head's scores and weights when not kept
  std::vector<float> headDropped;       // [S, S_kv] one head's dropped weights when not kept
  std::vector<float> headProbs;         // [S, S_kv + 1] one head's probabilities with the sink column
  std::vector<float> headProbsDropped;  // [S, S_kv + 1] the same after dropout
  std::vector<float> ropeTable;         // [S, dk/2] cos, then [S, dk/2] sin
  std::vector<float> concat;            // [B, S, D] when neither kept nor the output itself
};

Workspace& workspace() {
  thread_local Workspace w;
  return w;
}

// ---- projections ----------------------------------------------------------
// Q, K, V as rows of the fused products: row r of Q at q + r·qStride, of K and
// V at k, v + r·kvStride.
struct Projections {
  float* q = nullptr;  // the workspace's rows: qkNorm and RoPE rewrite q and k in place
  float* k = nullptr;
  float* v = nullptr;
  int64_t qStride = 0, kvStride = 0;
};

// y [B·L, n_1 + ... + n_k] = x [B, L, D] · [W_1 | ... | W_k] (+ [b_1 | ... | b_k]), W_i [D, n_i]: one
// product when the widths are equal, or one per weight when they differ (GQA) or only some of the biases exist.
void projectSideBySide(const Tensor& x, const Intermediates& m, std::initializer_list<const char*> weightNames,
                       std::initializer_list<const char*> biasNames, float* y) {
  const int64_t rows = x.shape[0] * x.shape[1], d = x.shape[2], count = static_cast<int64_t>(weightNames.size());
  std::vector<const float*> weights, biases;
  std::vector<int64_t> widths;
  weights.reserve(weightNames.size());
  biases.reserve(biasNames.size());
  widths.reserve(weightNames.size());
  bool sameWidth = true;
  for (const char* name : weightNames) {
    const Tensor& w = m.w.at(name);
    weights.push_back(w.data.data());
    widths.push_back(w.shape[1]);
    sameWidth = sameWidth && w.shape[1] == widths[0];
  }
  size_t given = 0;
  for (const char* name : biasNames) {
    const Tensor* b = m.bias(name);
    biases.push_back(b ? b->data.data() : nullptr);
    given += b != nullptr;
  }
  const int64_t n = widths[0];
  if (sameWidth && (given == 0 || given == biases.size())) {
    gemmSideBySide(rows, n, d, x.data.data(), d, weights.data(), count, n, given ? biases.data() : nullptr, y,
                   count * n);
    return;
  }
  int64_t total = 0, offset = 0;
  for (int64_t width : widths) total += width;
  for (size_t i = 0; i < widths.size(); ++i) {
    gemm(rows, widths[i], d, x.data.data(), d, weights[i], widths[i], false, biases[i], y + offset, total);
    offset += widths[i];
  }
}

// x [B, S, D], x_kv [B, S_kv, D] -> Q [B, S, D], K, V [B, S_kv, Dkv] (Dkv = Hkv·dk, D without GQA)
//   Q, K, V = x @ [W_Q | W_K | W_V] + [b_Q | b_K | b_V]     # self-attention: one [B·S, D + 2·Dkv] product
//   Q = x @ W_Q + b_Q; K, V = x_kv @ [W_K | W_V] + [b_K | b_V]   # cross-attention
// (nn.Linear's q_proj(x), k_proj(x), v_proj(x), each element the same sum.)
Projections projectQkv(const AttentionConfig& c, const Dims& d, const Intermediates& m, Workspace& ws) {
  Projections p;
  if (!c.isCrossAttention()) {
    const int64_t width = d.D + 2 * d.Dkv;
    float* qkv = grownTo(ws.projected, d.B * d.S * width);
    projectSideBySide(m.x, m, {"W_Q", "W_K", "W_V"}, {"b_Q", "b_K", "b_V"}, qkv);
    p = {qkv, qkv + d.D, qkv + d.D + d.Dkv, width, width};
  } else {
    float* q = grownTo(ws.projected, d.B * d.S * d.D);
    float* kv = grownTo(ws.keysValues, d.B * d.Skv * 2 * d.Dkv);
    projectSideBySide(m.x, m, {"W_Q"}, {"b_Q"}, q);
    projectSideBySide(m.xContext, m, {"W_K", "W_V"}, {"b_K", "b_V"}, kv);
    p = {q, kv, kv + d.Dkv, d.D, 2 * d.Dkv};
  }
  return p;
}

// The projections through `cache`: its rows copied into the workspace, each
// stale one of Q, K, V projected again into its columns (gemm gives each
// element the sum the fused product gives it), then the rows kept again.
// Nothing held: the fused product, as projectQkv.
Projections projectWithCache(const AttentionConfig& c, const Dims& d, const Intermediates& m, Workspace& ws,
                             stages::ProjectionCache& cache) {
  const bool cross = c.isCrossAttention();
  const int64_t qFloats = d.B * d.S * (cross ? d.D : d.D + 2 * d.Dkv), kvFloats = cross ? d.B * d.Skv * 2 * d.Dkv : 0;
  if (!cache.q && !cache.k && !cache.v) {
    const Projections p = projectQkv(c, d, m, ws);
    stages::projectedWithCache() += 3;
    cache.rows.assign(ws.projected.begin(), ws.projected.begin() + qFloats);
    cache.kvRows.assign(ws.keysValues.begin(), ws.keysValues.begin() + kvFloats);
    cache.q = cache.k = cache.v = true;
    return p;
  }
  Projections p;
  float* q = grownTo(ws.projected, qFloats);
  std::copy(cache.rows.begin(), cache.rows.end(), q);
  if (cross) {
    float* kv = grownTo(ws.keysValues, kvFloats);
    std::copy(cache.kvRows.begin(), cache.kvRows.end(), kv);
    p = {q, kv, kv + d.Dkv, d.D, 2 * d.Dkv};
  } else {
    p = {q, q + d.D, q + d.D + d.Dkv, d.D + 2 * d.Dkv, d.D + 2 * d.Dkv};
  }
  // One weight's columns: out [rows, n] (rows `stride` apart) = x · W (+ b).
  const auto project = [&](const Tensor& x, const char* weight, const char* bias, float* out, int64_t stride) {
    const Tensor& w = m.w.at(weight);
    const Tensor* b = m.bias(bias);
    gemm(x.shape[0] * x.shape[1], w.shape[1], x.shape[2], x.data.data(), x.shape[2], w.data.data(), w.shape[1], false,
         b ? b->data.data() : nullptr, out, stride);
    ++stages::projectedWithCache();
  };
  const Tensor& keysX = cross ? m.xContext : m.x;
  if (cache.q && cache.k && cache.v) return p;
  if (!cache.q) project(m.x, "W_Q", "b_Q", p.q, p.qStride);
  if (!cache.k) project(keysX, "W_K", "b_K", p.k, p.kvStride);
  if (!cache.v) project(keysX, "W_V", "b_V", p.v, p.kvStride);
  std::copy(q, q + qFloats, cache.rows.begin());
  if (cross) std::copy(p.k, p.k + kvFloats, cache.kvRows.begin());
  cache.q = cache.k = cache.v = true;
  return p;
}

// A [rows, D] tensor of the projections' rows (rows `stride` apart) -> [B, L, D]
// (or the selected sentence's [1, L, D]), when asked for. D is the width (Dkv for K, V).
void keepProjection(const Plan& p, int tensor, const float* rows, int64_t stride, int64_t B, int64_t L, int64_t D,
                    BufferPool& pool, Tensor& out) {
  if (!p.wants(tensor)) return;
  const int64_t first = std::max<int64_t>(p.selection.batch, 0), count = p.selection.batch >= 0 ? 1 : B;
  out = pool.take({count, L, D});
  for (int64_t r = 0; r < count * L; ++r) {
    const float* row = rows + (first * L + r) * stride;
    std::copy(row, row + D, out.data.data() + r * D);
  }
}

// ---- the modern variants on q and k ----------------------------------------
// q [B, L, heads·dk] (rows `stride` apart), in place, each head over its dk features:
//   Q_norm = q * torch.rsqrt(q.pow(2).mean(-1, keepdim=True) + 1e-6)   # RMSNorm, weight ones
void rmsNormHeads(float* rows, int64_t stride, int64_t count, int64_t heads, int64_t dk) {
  const float eps = 1e-6f;
  for (int64_t r = 0; r < count; ++r)
    for (int64_t h = 0; h < heads; ++h) {
      float* x = rows + r * stride + h * dk;
      float sumOfSquares = 0.0f;
      for (int64_t c = 0; c < dk; ++c) sumOfSquares += x[c] * x[c];
      const float meanSquare = sumOfSquares / static_cast<float>(dk);
      const float inverseRms = 1.0f / std::sqrt(meanSquare + eps);  // torch.rsqrt
      for (int64_t c = 0; c < dk; ++c) x[c] = x[c] * inverseRms;
    }
}

// QK-norm, then RoPE, on the projections' q and k in place, keeping Q_norm,
// K_norm, Q_rope, K_rope when asked for (the scores then read the last of them).
void transformQueriesKeys(const AttentionConfig& c, const Dims& d, const Plan& p, const Projections& qkv,
                          BufferPool& pool, Workspace& ws, Intermediates& m) {
  if (c.qkNorm) {
    rmsNormHeads(qkv.q, qkv.qStride, d.B * d.S, d.H, d.dk);
    rmsNormHeads(qkv.k, qkv.kvStride, d.B * d.Skv, d.Hkv, d.dk);
    keepProjection(p, kQNorm, qkv.q, qkv.qStride, d.B, d.S, d.D, pool, m.qNorm);
    keepProjection(p, kKNorm, qkv.k, qkv.kvStride, d.B, d.Skv, d.Dkv, pool, m.kNorm);
  }
  if (c.ropeStyle == RopeStyle::None) return;
  // cos and sin of the angles, [S, dk/2] each (self-attention: S_kv = S).
  const int64_t half = d.dk / 2, cells = d.S * half;
  float* cosines = grownTo(ws.ropeTable, 2 * cells);
  float* sines = cosines + cells;
  const float* angles = m.ropeAngles.data.data();
  // cos = emb.cos() * attention_scaling, sin likewise (YaRN's factor; 1 leaves them as they are)
  const float scale = m.ropeScale;
  for (int64_t i = 0; i < cells; ++i) {
    cosines[i] = static_cast<float>(std::cos(static_cast<double>(angles[i])));
    sines[i] = static_cast<float>(std::sin(static_cast<double>(angles[i])));
    if (scale != 1.0f) {
      cosines[i] = cosines[i] * scale;
      sines[i] = sines[i] * scale;
    }
  }
  rotateHeads(c.ropeStyle, cosines, sines, qkv.q, qkv.qStride, d.B, d.S, d.H, d.dk);
  rotateHeads(c.ropeStyle, cosines, sines, qkv.k, qkv.kvStride, d.B, d.Skv, d.Hkv, d.dk);
  keepProjection(p, kQRope, qkv.q, qkv.qStride, d.B, d.S, d.D, pool, m.qRope);
  keepProjection(p, kKRope, qkv.k, qkv.kvStride, d.B, d.Skv, d.Dkv, pool, m.kRope);
}

// ALiBi's slopes, one per head: H a power of two: 2^(-8h/H), h = 1..H;
// otherwise the paper's rule (n = 2^floor(log2 H)):
//   get_slopes(n) + get_slopes(2n)[0::2][:H - n]
// each as its Python code computes it in double (start * ratio**i), then float32.
std::vector<double> alibiSlopesOfPowerOfTwo(int64_t n) {
  const double start = std::pow(2.0, -std::pow(2.0, -(std::log2(static_cast<double>(n)) - 3)));
  std::vector<double> slopes;
  for (int64_t i = 0; i < n; ++i) slopes.push_back(start * std::pow(start, static_cast<double>(i)));
  return slopes;
}

}  // namespace

std::vector<float> alibiSlopes(int64_t heads) {
  int64_t n = 1;
  while (n * 2 <= heads) n *= 2;
  std::vector<double> slopes = alibiSlopesOfPowerOfTwo(n);
  if (n < heads) {
    const std::vector<double> doubled = alibiSlopesOfPowerOfTwo(2 * n);
    for (int64_t i = 0; static_cast<int64_t>(slopes.size()) < heads; i += 2)
      slopes.push_back(doubled[static_cast<size_t>(i)]);
  }
  return std::vector<float>(slopes.begin(), slopes.end());
}

namespace {

// alibiBias [H, S, S_kv]:
//   alibiBias = -slopes[:, None, None] * (i - j)   # slopes float32 [H], (i - j) float32 [S, S_kv]
void computeAlibiBias(int64_t H, int64_t S, int64_t Skv, float* bias) {
  const std::vector<float> slopes = alibiSlopes(H);
  for (int64_t h = 0; h < H; ++h)
    for (int64_t i = 0; i < S; ++i)
      for (int64_t j = 0; j < Skv; ++j)
        bias[(h * S + i) * Skv + j] = -slopes[static_cast<size_t>(h)] * static_cast<float>(i - j);
}

// ropeAngles [S, dk/2], kept in a pool buffer (the projections read it); with rope.scaling, the
// frequencies before and after it and its factors as well (rope_scaling.h).
void ropeAngles(const AttentionConfig& c, const Dims& d, BufferPool& pool, Intermediates& m) {
  const RopeFrequencies f = ropeFrequencies(c, d.S, d.dk);
  m.ropeAngles = pool.take({d.S, d.dk / 2});
  computeRopeAngles(f.scaled, d.S, m.ropeAngles.data.data());
  m.ropeScale = f.attentionFactor;
  if (c.ropeScaling == RopeScaling::None) return;
  const int64_t half = d.dk / 2;
  m.ropeInvFreqBase = Tensor{{half}, f.unscaled};
  m.ropeInvFreq = Tensor{{half}, f.scaled};
  m.ropeAttentionFactor = Tensor{{}, {f.attentionFactor}};
  if (c.ropeScaling == RopeScaling::Yarn) m.ropeExtrapolationFactor = Tensor{{half}, f.extrapolation};
  if (c.ropeScaling == RopeScaling::Dynamic) m.ropeNtkBase = Tensor{{}, {f.ntkBase}};
}

// alibiBias [H, S, S_kv], kept in a pool buffer (the heads read it).
Tensor alibiBias(const Dims& d, BufferPool& pool) {
  Tensor bias = pool.take({d.H, d.S, d.Skv});
  computeAlibiBias(d.H, d.S, d.Skv, bias.data.data());
  return bias;
}

// ---- heads ----------------------------------------------------------------
// Head h of batch row b of a projection viewed as [B, L, H, dk] and transposed
// to [B, H, L, dk]: a [L, dk] block of rows `stride` apart.
//   q = Q.view(B, S, H, dk).transpose(1, 2)
ConstView headView(const float* rows, int64_t stride, int64_t b, int64_t h, int64_t length, int64_t headDim) {
  return ConstView(rows + b * length * stride + h * headDim, length, headDim, Strided(stride));
}

double scaleFactorFor(const AttentionConfig& c, int64_t headDim) {
  switch (c.scale) {
    case ScaleMode::HeadDim: return 1.0 / std::sqrt(static_cast<double>(headDim));
    case ScaleMode::DModel: return 1.0 / std::sqrt(static_cast<double>(c.dModel));
    case ScaleMode::None: return 1.0;
    case ScaleMode::Custom: return c.customScale;
  }
  return 1.0;
}

// The keys' tokens: the context's, or the queries' own in self-attention;
// none when the keys are randn.
const TokenizedSide* keyTokens(const AttentionConfig& c, const Tokens& t) {
  if (t.hasContext) return &t.context;
  if (!c.isCrossAttention() && t.hasQuery) return &t.query;
  return nullptr;
}

// mask [B, S, S_kv] in the chosen convention: 1 = blocked ("blocked"), 1 = kept ("keep"),
// or fill where blocked and 0 elsewhere ("additive").
//   blocked = torch.triu(torch.ones(S, S_kv), diagonal=1)   # causal
//   blocked |= (i - j >= window) & (j >= sinkTokens)         # sliding window, the first sinkTokens keys kept
//   blocked = max(blocked, key_padding_mask[:, None, :])     # padding: the keys' <pad> tokens
//   mask = blocked | 1 - blocked | torch.zeros(B, S, S_kv).masked_fill(blocked.bool(), fill)
Tensor buildMask(const AttentionConfig& c, const TokenizedSide* keys, const Dims& d, BufferPool& pool) {
  Tensor mask = pool.take({d.B, d.S, d.Skv});
  const bool future = blocksFuture(c.mask), padding = blocksPadding(c.mask);
  const int64_t window = c.window.value_or(0);
  float blockedValue = 1.0f, keptValue = 0.0f;
  if (c.maskConvention == MaskConvention::Keep) std::swap(blockedValue, keptValue);
  if (c.maskConvention == MaskConvention::Additive) blockedValue = c.maskFill;
  for (int64_t b = 0; b < d.B; ++b)
    for (int64_t i = 0; i < d.S; ++i)
      for (int64_t j = 0; j < d.Skv; ++j) {
        const bool keyIsPadding = keys && keys->isPadding[b][j];
        const bool outsideWindow = window > 0 && i - j >= window && j >= c.sinkTokens;
        const bool blocked = (future && j > i) || outsideWindow || (padding && keyIsPadding);
        mask.data[static_cast<size_t>((b * d.S + i) * d.Skv + j)] = blocked ? blockedValue : keptValue;
      }
  return mask;
}

// scores [S, S_kv] of one head, dot-product:
//   scores = q @ k.transpose(-2, -1)
void dotScores(ConstView q, ConstView k, View scores) {
  gemm(q.rows(), k.rows(), q.cols(), q.data(), q.outerStride(), k.data(), k.outerStride(), true, nullptr, scores.data(),
       scores.outerStride());
}

// scores [S, S_kv] of one head, additive (Bahdanau), q [S, dk], k [S_kv, dk]:
//   scores = v_a(torch.tanh(W_a(q).unsqueeze(-2) + U_a(k).unsqueeze(-3))).squeeze(-1)
void additiveScores(ConstView q, ConstView k, const WeightSet& w, View scores) {
  const Tensor &wa = w.at("W_a"), &ua = w.at("U_a"), &va = w.at("v_a");
  const int64_t dk = wa.shape[0], hidden = wa.shape[1];
  const RowMatrix qa = q * ConstView(wa.data.data(), dk, hidden, Strided(hidden));  // [S, hidden]
  const RowMatrix ku = k * ConstView(ua.data.data(), dk, hidden, Strided(hidden));  // [S_kv, hidden]
  for (int64_t i = 0; i < scores.rows(); ++i)
    for (int64_t j = 0; j < scores.cols(); ++j) {
      float sum = 0.0f;
      for (int64_t m = 0; m < hidden; ++m) sum += std::tanh(qa(i, m) + ku(j, m)) * va.data[static_cast<size_t>(m)];
      scores(i, j) = sum;
    }
}

// The [B, H, S, S_kv] stages and the context, one head at a time. Per head:
//   scores = q @ k.transpose(-2, -1)        # or the additive score; k, v of KV head h // (H // Hkv) (GQA)
//   scaled, masked, weights: one pass per row (ScoreRowSteps); with softcap, ALiBi or the sink:
//     capped = softcap * torch.tanh(scaled / softcap); biased = capped + alibiBias[h]
//     probs = torch.softmax(cat([masked, sinkLogit column], -1), -1)   # weights = probs[..., :S_kv]
//   dropped = nn.Dropout(p).train()(probs)     # torch.manual_seed(dropout.seed) first, when given and 0 < p < 1;
//                                              # over the S_kv + 1 columns with the sink
//   averaged += dropped                        # then / H: dropped.sum(dim=1) / H (average_attn_weights=True)
//   context = dropped[..., :S_kv] @ v          # straight into concat[:, :, h·dk : (h+1)·dk]
// A stage nobody keeps lives in a [S, S_kv] scratch for the length of its
// head. The draws come in [B, H, S, S_kv (+1)] order, as one dropout call makes them.
// Returns the number of weight rows that are NaN.
int64_t attendHeads(const AttentionConfig& c, const Dims& d, const Plan& p, const ScoreRowSteps& steps,
                    const Projections& qkv, TorchGenerator& gen, BufferPool& pool, Workspace& ws, Intermediates& m,
                    float* concat) {
  const int64_t B = d.B, H = d.H, S = d.S, Skv = d.Skv, D = d.D, dk = d.dk, cells = S * Skv;
  const int64_t group = d.H / d.Hkv;  // query heads per KV head: repeat_interleave(group, dim=1)
  // The probabilities' row: the S_kv weights, then the sink's (when on).
  const int64_t width = Skv + (steps.sink ? 1 : 0);
  // Dropout's row: the scalar sink keeps its column (add_zero_attn: S_kv + 1 draws a row); gpt-oss's
  // per-head sinks drop it first (scores = probs[..., :-1]; dropout(scores): S_kv draws a row).
  const bool dropSinkFirst = steps.sink && c.sinkLogitPerHead;
  const int64_t dropWidth = dropSinkFirst ? Skv : width;
  const Selection& sel = p.selection;
  // A kept per-head tensor holds [B, H, S, cols] or, selected, one sentence and/or one head of it.
  const auto take = [&](bool keep, int tensor, int64_t cols) {
    const std::string_view name = kTensorNameViews[static_cast<size_t>(tensor)];
    return keep ? pool.take({sel.batchOf(name) >= 0 ? 1 : B, sel.headOf(name) >= 0 ? 1 : H, S, cols}) : Tensor{};
  };
  m.scores = take(p.keepScores, kScores, Skv);
  m.scaled = take(p.keepScaled, kScaled, Skv);
  m.capped = take(p.keepCapped, kCapped, Skv);
  m.biased = take(p.keepBiased, kBiased, Skv);
  m.masked = take(p.keepMasked, kMasked, Skv);
  m.weights = take(p.keepWeights, kWeights, Skv);
  m.dropped = take(p.keepDropped, kDropped, Skv);
  m.context = take(p.keepContext, kContext, dk);
  if (p.keepSinkWeights) {  // [B, H, S]
    m.sinkWeights = take(true, kSinkWeights, 1);
    m.sinkWeights.shape.pop_back();
  }
  if (p.keepAveraged) m.averagedWeights = pool.take({sel.batch >= 0 ? 1 : B, S, Skv});
  // Where head h of sentence b lies in a kept tensor, or nullptr when it is not kept (or not held).
  const auto slot = [&](Tensor& t, int tensor, int64_t b, int64_t h, int64_t size) -> float* {
    if (t.data.empty()) return nullptr;
    const std::string_view name = kTensorNameViews[static_cast<size_t>(tensor)];
    const int64_t oneBatch = sel.batchOf(name), oneHead = sel.headOf(name);
    if ((oneBatch >= 0 && b != oneBatch) || (oneHead >= 0 && h != oneHead)) return nullptr;
    const int64_t heads = oneHead >= 0 ? 1 : H;
    return t.data.data() + ((oneBatch >= 0 ? 0 : b) * heads + (oneHead >= 0 ? 0 : h)) * size;
  };
  float* scratch = grownTo(ws.headWeights, cells);
  float* droppedScratch = p.drop && !p.droppedIsWeights ? grownTo(ws.headDropped, cells) : nullptr;
  // With the sink, the probabilities (and their dropout) need a row of S_kv + 1.
  float* probsScratch = steps.sink ? grownTo(ws.headProbs, S * width) : nullptr;
  float* probsDroppedScratch =
      steps.sink && !dropSinkFirst && p.drop && !p.droppedIsWeights ? grownTo(ws.headProbsDropped, S * width) : nullptr;
  if (p.drop && c.dropoutSeed && c.dropoutP > 0 && c.dropoutP < 1) gen.manualSeed(*c.dropoutSeed);

  int64_t nanRows = 0;
  for (int64_t b = 0; b < B; ++b) {
    const bool averageThis = p.keepAveraged && (sel.batch < 0 || b == sel.batch);
    float* averaged = averageThis ? m.averagedWeights.data.data() + (sel.batch >= 0 ? 0 : b * cells) : nullptr;
    if (averaged) std::fill(averaged, averaged + cells, 0.0f);
    for (int64_t h = 0; h < H; ++h) {
      const int64_t kvHead = h / group;
      const ScoreRowSteps headSteps = withHeadSink(steps, c, h);
      // [S, dk]·[dk, S_kv] -> [S, S_kv]
      float* kept = slot(m.scores, kScores, b, h, cells);
      float* scores = kept ? kept : scratch;
      const ConstView q = headView(qkv.q, qkv.qStride, b, h, S, dk),
                      k = headView(qkv.k, qkv.kvStride, b, kvHead, Skv, dk);
      if (c.score == ScoreKind::Additive)
        additiveScores(q, k, m.w, View(scores, S, Skv, Strided(Skv)));
      else
        dotScores(q, k, View(scores, S, Skv, Strided(Skv)));
      kept = slot(m.weights, kWeights, b, h, cells);
      float* weights = kept ? kept : scratch;  // may be the scores' scratch
      // probs [S, width]: the weights themselves without the sink
      float* probs = steps.sink ? probsScratch : weights;
      float *scaled = slot(m.scaled, kScaled, b, h, cells), *masked = slot(m.masked, kMasked, b, h, cells);
      if (!p.variantRows) {
        for (int64_t i = 0; i < S; ++i) {
          const float* maskRow = p.mask ? m.mask.data.data() + (b * S + i) * Skv : nullptr;
          const int64_t row = i * Skv;
          scaleMaskSoftmaxRow(steps, scores + row, maskRow, Skv, scaled ? scaled + row : nullptr,
                              masked ? masked + row : nullptr, weights + row);
          nanRows += std::isnan(weights[row]);
        }
      } else {
        float *capped = slot(m.capped, kCapped, b, h, cells), *biased = slot(m.biased, kBiased, b, h, cells);
        float* sinkWeights = slot(m.sinkWeights, kSinkWeights, b, h, S);
        const float* bias = p.alibi ? m.alibiBias.data.data() + h * cells : nullptr;
        for (int64_t i = 0; i < S; ++i) {
          const float* maskRow = p.mask ? m.mask.data.data() + (b * S + i) * Skv : nullptr;
          const int64_t row = i * Skv;
          RowStages out;
          out.scaled = scaled ? scaled + row : nullptr;
          out.capped = capped ? capped + row : nullptr;
          out.biased = biased ? biased + row : nullptr;
          out.masked = masked ? masked + row : nullptr;
          out.probs = probs + i * width;
          variantRow(headSteps, scores + row, bias ? bias + row : nullptr, maskRow, Skv, out);
          nanRows += std::isnan(out.probs[0]);
          // Row i of the scores is read by now: the weights may take its place in the scratch.
          if (steps.sink && (kept || dropSinkFirst)) std::copy(out.probs, out.probs + Skv, weights + row);
          if (sinkWeights) sinkWeights[i] = out.probs[Skv];
        }
      }
      if (!p.drop) continue;

      // dropped [S, dropWidth] (what dropout drew over), the kept [S, S_kv] copied out of it with the scalar sink
      kept = slot(m.dropped, kDropped, b, h, cells);
      float* source = dropSinkFirst ? weights : probs;
      float* dropped = p.droppedIsWeights             ? source
                       : steps.sink && !dropSinkFirst ? probsDroppedScratch
                       : kept                         ? kept
                                                      : droppedScratch;
      if (dropped != source) gen.dropout(source, dropped, S * dropWidth, c.dropoutP);
      if (steps.sink && !dropSinkFirst && kept && dropped != probs)
        for (int64_t i = 0; i < S; ++i) std::copy(dropped + i * width, dropped + i * width + Skv, kept + i * Skv);
      if (averaged)
        for (int64_t i = 0; i < S; ++i)
          for (int64_t j = 0; j < Skv; ++j) averaged[i * Skv + j] += dropped[i * dropWidth + j];
      if (!p.merge) continue;
      // [S, S_kv]·[S_kv, dk] -> [S, dk]
      const ConstView v = headView(qkv.v, qkv.kvStride, b, kvHead, Skv, dk);
      float* concatHead = concat ? concat + b * S * D + h * dk : nullptr;
      if (float* context = slot(m.context, kContext, b, h, S * dk)) {
        gemm(S, dk, Skv, dropped, dropWidth, v.data(), v.outerStride(), false, nullptr, context, dk);
        if (concatHead) View(concatHead, S, dk, Strided(D)) = ConstView(context, S, dk, Strided(dk));
      } else if (concatHead) {
        gemm(S, dk, Skv, dropped, dropWidth, v.data(), v.outerStride(), false, nullptr, concatHead, D);
      }
    }
    if (averaged)
      for (int64_t k2 = 0; k2 < cells; ++k2) averaged[k2] /= static_cast<float>(H);
  }
  return nanRows;
}

// ---- output gate -------------------------------------------------------------
// X [B, S, D], concat [B, S, D] -> gateLogits, gate, gated [B, S, D] (outputGate; Qwen3-Next's gated attention)
//   gate_logits = X @ W_G                  # W_G [D, D], no bias
//   gate = torch.sigmoid(gate_logits)      # PyTorch's CPU kernel: (1 + exp(-x)).reciprocal()
//   gated = concat * gate                  # then the output projection reads gated
// Returns gated, the output projection's input.
const float* gateConcat(const Dims& d, const float* concat, BufferPool& pool, Intermediates& m) {
  const int64_t n = d.B * d.S * d.D;
  m.gateLogits = pool.take({d.B, d.S, d.D});
  m.gate = pool.take({d.B, d.S, d.D});
  m.gated = pool.take({d.B, d.S, d.D});
  gemm(d.B * d.S, d.D, d.D, m.x.data.data(), d.D, m.w.at("W_G").data.data(), d.D, false, nullptr,
       m.gateLogits.data.data(), d.D);
  const float* logits = m.gateLogits.data.data();
  float* gate = m.gate.data.data();
  float* gated = m.gated.data.data();
  for (int64_t k = 0; k < n; ++k) {
    gate[k] = 1.0f / (1.0f + softmaxExp(-logits[k]));
    gated[k] = concat[k] * gate[k];
  }
  return gated;
}

// ---- output ---------------------------------------------------------------
// concat (or gated) [B, S, D] -> output [B, S, D]
//   output = concat @ W_O + b_O   # concat itself without an output projection
void outputProjection(const AttentionConfig& c, const Dims& d, const float* concat, BufferPool& pool,
                      Intermediates& m) {
  if (!c.outProj) {
    if (m.output.data.data() != concat) {  // the concat was kept too: a second copy
      m.output = pool.take({d.B, d.S, d.D});
      std::copy(concat, concat + d.B * d.S * d.D, m.output.data.data());
    }
    return;
  }
  const Tensor* b = m.bias("b_O");
  m.output = pool.take({d.B, d.S, d.D});
  gemm(d.B * d.S, d.D, d.D, concat, d.D, m.w.at("W_O").data.data(), d.D, false, b ? b->data.data() : nullptr,
       m.output.data.data(), d.D);
}

// A warning for rows of weights [B, H, S, S_kv] that softmax made NaN.
void warnAboutNaNRows(int64_t nanRows, AttentionResult& r) {
  if (nanRows > 0) r.warnings.push_back(makeWarning("nan-rows", {{"count", std::to_string(nanRows)}}));
}

// [B, ...] -> [1, ...], sentence b of it, in place (no new buffer).
void keepSentence(Tensor& t, int64_t b) {
  if (t.shape.empty() || t.shape[0] == 1) return;
  const size_t size = t.data.size() / static_cast<size_t>(t.shape[0]);
  std::copy(t.data.begin() + static_cast<std::ptrdiff_t>(b * size),
            t.data.begin() + static_cast<std::ptrdiff_t>((b + 1) * size), t.data.begin());
  t.data.resize(size);
  t.shape[0] = 1;
}

// A per-head tensor [B, H, S, cols] computed whole cut to what the selection keeps of it (sentence and head,
// each 1 when selected): MLA's stage, which computes every head of every sentence.
void keepSelected(const Selection& sel, int tensor, Tensor& t, BufferPool& pool) {
  const std::string_view name = kTensorNameViews[static_cast<size_t>(tensor)];
  const int64_t batch = sel.batchOf(name), head = sel.headOf(name);
  if (t.shape.size() != 4 || (batch < 0 && head < 0)) return;
  const int64_t B = t.shape[0], H = t.shape[1], rows = t.shape[2] * t.shape[3];
  const int64_t b0 = std::max<int64_t>(batch, 0), bN = batch >= 0 ? 1 : B;
  const int64_t h0 = std::max<int64_t>(head, 0), hN = head >= 0 ? 1 : H;
  Tensor out = pool.take({bN, hN, t.shape[2], t.shape[3]});
  for (int64_t b = 0; b < bN; ++b)
    for (int64_t h = 0; h < hN; ++h) {
      const float* from = t.data.data() + ((b0 + b) * H + h0 + h) * rows;
      std::copy(from, from + rows, out.data.data() + (b * hN + h) * rows);
    }
  pool.give(std::move(t.data));
  t = std::move(out);
}

// Moves the tensors asked for into r.tensors, in the order of kTensorNames; a
// stage kept once under two names becomes an alias.
// With `lendInputs`, X, X_context and the weights are copied (into pool buffers) and stay in m.
void collect(const AttentionConfig& c, const Plan& p, Intermediates& m, BufferPool& pool, bool lendInputs,
             AttentionResult& r) {
  auto& t = r.tensors;
  r.selection = p.selection;
  const auto keep = [&](int index, Tensor& tensor) {
    if (!p.wants(index)) return;
    const char* name = kTensorNames[static_cast<size_t>(index)];
    // The projections and per-head stages were kept for the selected sentence only; the rest is cut here.
    if (p.selection.batchOf(name) >= 0 && tensor.shape.size() == 3) keepSentence(tensor, p.selection.batch);
    t.emplace_back(name, std::move(tensor));
  };
  // An input kept by the caller: a copy of it (of the selected sentence only) instead.
  const auto lend = [&](int index, Tensor& input) {
    if (!p.wants(index)) return;
    if (!lendInputs) return keep(index, input);
    const int64_t b = p.selection.batchOf(kTensorNameViews[static_cast<size_t>(index)]);
    std::vector<int64_t> shape = input.shape;
    auto from = input.data.begin(), to = input.data.end();
    if (b >= 0 && shape.size() == 3) {
      const auto size = static_cast<std::ptrdiff_t>(input.data.size() / static_cast<size_t>(shape[0]));
      from += b * size;
      to = from + size;
      shape[0] = 1;
    }
    Tensor copy = pool.take(std::move(shape));
    std::copy(from, to, copy.data.begin());
    t.emplace_back(kTensorNames[static_cast<size_t>(index)], std::move(copy));
  };
  // `second` equal to `first`, kept in `first`'s tensor.
  const auto keepPair = [&](int first, int second, Tensor& shared) {
    if (p.wants(first) && p.wants(second))
      r.aliases.emplace_back(kTensorNames[static_cast<size_t>(second)], kTensorNames[static_cast<size_t>(first)]);
    t.emplace_back(kTensorNames[static_cast<size_t>(p.wants(first) ? first : second)], std::move(shared));
  };
  lend(kX, m.x);
  if (c.isCrossAttention()) lend(kXContext, m.xContext);
  for (const char* name : kWeightNames)
    if (m.w.count(name)) lend(TensorSet::find(name), m.w[name]);
  keep(kQ, m.q);
  keep(kK, m.k);  // with MLA, its naive path's
  keep(kV, m.v);
  if (c.qkNorm) {
    keep(kQNorm, m.qNorm);
    keep(kKNorm, m.kNorm);
  }
  if (c.ropeScaling != RopeScaling::None && !m.ropeInvFreq.data.empty()) {
    keep(kRopeInvFreqBase, m.ropeInvFreqBase);
    keep(kRopeInvFreq, m.ropeInvFreq);
    keep(kRopeAttentionFactor, m.ropeAttentionFactor);
    if (c.ropeScaling == RopeScaling::Yarn) keep(kRopeExtrapolationFactor, m.ropeExtrapolationFactor);
    if (c.ropeScaling == RopeScaling::Dynamic) keep(kRopeNtkBase, m.ropeNtkBase);
  }
  if (c.ropeStyle != RopeStyle::None && !c.isMla()) {
    keep(kRopeAngles, m.ropeAngles);
    keep(kQRope, m.qRope);
    keep(kKRope, m.kRope);
  }
  if (c.isMla()) {  // in kTensorNames' order, as every tensor: the angles before the latent
    keep(kRopeAngles, m.ropeAngles);
    keep(kLatent, m.latent);
    keep(kLatentNorm, m.latentNorm);
    keep(kKPe, m.kPe);
    keep(kQPeRope, m.qPeRope);
    keep(kKPeRope, m.kPeRope);
    keep(kQAbsorbed, m.qAbsorbed);
  }
  if (p.keepScores) keep(kScores, m.scores);  // not with differential attention: its maps are halfScores
  if (c.isMla()) keep(kOtherPathScores, m.otherPathScores);
  if (p.keepScaled) {
    if (p.maskedIsScaled)
      keepPair(kScaled, kMasked, m.scaled);
    else
      keep(kScaled, m.scaled);
  }
  if (p.keepCapped) keep(kCapped, m.capped);
  if (c.alibi) keep(kAlibiBias, m.alibiBias);
  if (p.keepBiased) keep(kBiased, m.biased);
  keep(kMask, m.mask);
  if (p.keepMasked) keep(kMasked, m.masked);
  if (p.diff) {
    keep(kHalfScores, m.halfScores);
    keep(kHalfScaled, m.halfScaled);
    keep(kHalfMasked, m.halfMasked);
    keep(kHalfWeights, m.halfWeights);
    keep(kLambdaFull, m.lambdaFull);
  }
  if (p.keepWeights) {
    if (p.droppedIsWeights)
      keepPair(kWeights, kDropped, m.weights);
    else
      keep(kWeights, m.weights);
  }
  if (p.keepSinkWeights) keep(kSinkWeights, m.sinkWeights);
  if (p.keepDropped) keep(kDropped, m.dropped);
  keep(kAveragedWeights, m.averagedWeights);
  if (c.isMla()) keep(kLatentContext, m.latentContext);
  keep(kContext, m.context);
  if (p.diff) {
    keep(kContextNorm, m.contextNorm);
    keep(kContextScaled, m.contextScaled);
  }
  keep(kConcat, m.concat);
  if (c.outputGate) {
    keep(kGateLogits, m.gateLogits);
    keep(kGate, m.gate);
    keep(kGated, m.gated);
  }
  if (c.isMla()) keep(kOtherPathOutput, m.otherPathOutput);
  keep(kOutput, m.output);
}

// The selection against the run's sizes: "options.batch" and "options.head" name the culprit.
Status checkSelection(const Selection& sel, const Dims& d) {
  const auto check = [](const char* field, int64_t got, int64_t count) -> Status {
    if (got >= -1 && got < count) return {};
    return fieldError(
        field, "out-of-range",
        {{"field", field}, {"got", std::to_string(got)}, {"min", "0"}, {"max", std::to_string(count - 1)}});
  };
  if (Status s = check("options.batch", sel.batch, d.B)) return s;
  return check("options.head", sel.head, d.H);
}

}  // namespace

[[gnu::noinline]] int TensorSet::find(std::string_view name) { return indexOf(name); }

const Tensor* AttentionResult::find(const std::string& name) const {
  std::string target = name;
  for (const auto& [alias, of] : aliases)
    if (alias == name) target = of;
  for (const auto& entry : tensors)
    if (entry.first == target) return &entry.second;
  return nullptr;
}

bool Selection::isPerHead(std::string_view name) {
  const int i = TensorSet::find(name);
  return i == kScores || i == kOtherPathScores || i == kScaled || i == kCapped || i == kBiased || i == kMasked ||
         i == kWeights || i == kSinkWeights || i == kDropped || i == kContext || i == kContextNorm ||
         i == kContextScaled || isHalfHead(name);
}

bool Selection::isHalfHead(std::string_view name) {
  const int i = TensorSet::find(name);
  return i == kHalfScores || i == kHalfScaled || i == kHalfMasked || i == kHalfWeights;
}

bool Selection::hasBatch(std::string_view name) {
  const int i = TensorSet::find(name);
  return i == kX || i == kXContext ||
         (i >= kQ && i <= kOutput && i != kRopeAngles && i != kAlibiBias && i != kLambdaFull);
}

namespace stages {

Status describe(const AttentionConfig& c, Tokens& t, AttentionResult& r, RunSizes& sizes, Dims& d) {
  if (Status s = validateConfig(c)) return s;
  if (Status s = tokenize(c, t, r)) return s;
  if (Status s = measure(c, r, sizes, d)) return s;
  r.sizes = {d.B, d.H, d.S, d.Skv, d.D, c.kvHeads()};
  r.headDim = d.dk;
  // Differential attention scales each half-head's q by d^-0.5, d = dk / 2 (multihead_diffattn.py's scaling).
  r.scaleFactor = scaleFactorFor(c, c.isDiff() ? d.dk / 2 : d.dk);
  if (c.isMla()) {  // q·k over nopeDim + ropeDim, multiplied by its ** -0.5
    r.headDim = mlaSizesOf(c).qkHeadDim();
    r.scaleFactor = mlaSoftmaxScale(c);
  }
  return {};
}

Status checkRun(const AttentionConfig& c, const Dims& d, const RunSizes& sizes, TensorSet wanted,
                const Selection& selection) {
  if (Status s = checkSelection(selection, d)) return s;
  const Plan p = planRun(c, scoreRowSteps(c, d, scaleFactorFor(c, d.dk)), wanted, selection);
  return checkIntermediateBytes(planBytes(c, d, sizes.vocabSize, p));
}

Status drawInputs(const AttentionConfig& c, const Tokens& t, const AttentionResult& r, const Dims& d,
                  TorchGenerator& gen, Intermediates& m, Tensor& table) {
  if (Status s = embedInputs(c, t, r, d, gen, m, table)) return s;
  initializeWeights(c, gen, m);
  return {};
}

void embedTokenSides(const AttentionConfig& c, const Tokens& t, const AttentionResult& r, const Tensor& table,
                     Intermediates& m) {
  embedSides(c, t, r, table, m);
}

void compute(const AttentionConfig& c, const Dims& d, const Tokens& tokens, TensorSet wanted,
             const Selection& selection, TorchGenerator& gen, BufferPool& pool, Intermediates& m, bool lendInputs,
             AttentionResult& r, ProjectionCache* cache) {
  const ScoreRowSteps steps = scoreRowSteps(c, d, r.scaleFactor);
  const Plan p = planRun(c, steps, wanted, selection);
  if (c.isMla()) {
    ScoreRowSteps mlaSteps = steps;  // scores * self.softmax_scale
    mlaSteps.divide = false;
    if (steps.mask != MaskStep::None || p.wants(kMask)) m.mask = buildMask(c, keyTokens(c, tokens), d, pool);
    warnAboutNaNRows(mlaAttend(c, d, mlaSteps, pool, m), r);
    const std::pair<int, Tensor*> perHead[] = {{kScores, &m.scores},   {kOtherPathScores, &m.otherPathScores},
                                               {kScaled, &m.scaled},   {kMasked, &m.masked},
                                               {kWeights, &m.weights}, {kContext, &m.context}};
    for (const auto& [tensor, t] : perHead) keepSelected(p.selection, tensor, *t, pool);
    collect(c, p, m, pool, lendInputs, r);
    return;
  }
  Workspace& ws = workspace();
  if (p.project) {
    const Projections qkv = cache ? projectWithCache(c, d, m, ws, *cache) : projectQkv(c, d, m, ws);
    keepProjection(p, kQ, qkv.q, qkv.qStride, d.B, d.S, d.D, pool, m.q);
    keepProjection(p, kK, qkv.k, qkv.kvStride, d.B, d.Skv, d.Dkv, pool, m.k);
    keepProjection(p, kV, qkv.v, qkv.kvStride, d.B, d.Skv, d.Dkv, pool, m.v);
    if (p.ropeAngles) ropeAngles(c, d, pool, m);
    transformQueriesKeys(c, d, p, qkv, pool, ws, m);
    if (p.mask) m.mask = buildMask(c, keyTokens(c, tokens), d, pool);
    if (p.alibi) m.alibiBias = alibiBias(d, pool);
    // concat [B, S, D]: kept, or the output itself (no output projection), or
    // scratch for the output projection; none when only the context is asked for.
    float* concat = nullptr;
    if (p.keepConcat) {
      m.concat = pool.take({d.B, d.S, d.D});
      concat = m.concat.data.data();
    } else if (p.wants(kOutput) && !c.outProj) {
      m.output = pool.take({d.B, d.S, d.D});
      concat = m.output.data.data();
    } else if (p.wants(kOutput) || p.gate) {
      concat = grownTo(ws.concat, d.B * d.S * d.D);
    }
    if (p.attend)
      warnAboutNaNRows(p.diff ? diffAttendHeads(c, d, p.diffPlan, steps,
                                                {qkv.q, qkv.k, qkv.v, qkv.qStride, qkv.kvStride}, pool, m, concat)
                              : attendHeads(c, d, p, steps, qkv, gen, pool, ws, m, concat),
                       r);
    if (p.gate) {
      // The heads wrote the concat into the output's buffer (no W_O, concat not kept): gated is the output.
      const bool concatIsOutput = !p.keepConcat && !c.outProj && p.wants(kOutput);
      const float* gated = gateConcat(d, concat, pool, m);
      if (concatIsOutput)
        std::copy(gated, gated + d.B * d.S * d.D, m.output.data.data());
      else if (p.wants(kOutput))
        outputProjection(c, d, gated, pool, m);
    } else if (p.wants(kOutput)) {
      outputProjection(c, d, concat, pool, m);
    }
  } else {
    if (p.mask) m.mask = buildMask(c, keyTokens(c, tokens), d, pool);
    if (p.ropeAngles) ropeAngles(c, d, pool, m);
    if (p.alibi) m.alibiBias = alibiBias(d, pool);
  }
  collect(c, p, m, pool, lendInputs, r);
}

int64_t& projectedWithCache() {
  thread_local int64_t count = 0;
  return count;
}

}  // namespace stages

Status runAttention(const AttentionConfig& c, AttentionResult& r, TensorSet wanted, Selection selection) {
  BufferPool pool;  // the previous result's buffers
  for (auto& entry : r.tensors) pool.give(std::move(entry.second.data));
  r = AttentionResult{};
  Tokens tokens;
  RunSizes sizes;
  Dims d;
  if (Status s = stages::describe(c, tokens, r, sizes, d)) return s;
  if (Status s = stages::checkRun(c, d, sizes, wanted, selection)) return s;
  Intermediates m;
  Tensor table;
  TorchGenerator gen(c.seed);  // torch.manual_seed(seed)
  if (Status s = stages::drawInputs(c, tokens, r, d, gen, m, table)) return s;
  stages::compute(c, d, tokens, wanted, selection, gen, pool, m, /*lendInputs=*/false, r);
  return {};
}

int64_t intermediateBytes(const AttentionConfig& c, const RunSizes& sizes, TensorSet wanted, Selection selection) {
  const Dims d = dimsOf(c, sizes);
  const Plan p = planRun(c, scoreRowSteps(c, d, scaleFactorFor(c, d.dk)), wanted, selection);
  return planBytes(c, d, sizes.vocabSize, p);
}

ScoreRowSteps scoreRowStepsOf(const AttentionConfig& c, const AttentionResult& r) {
  Dims d;
  d.B = r.sizes.B;
  d.S = r.sizes.S;
  d.Skv = r.sizes.Skv;
  d.D = r.sizes.D;
  d.H = r.sizes.H;
  d.dk = r.headDim;
  return scoreRowSteps(c, d, r.scaleFactor);
}

ScoreRowSteps withHeadSink(ScoreRowSteps steps, const AttentionConfig& c, int64_t head) {
  if (steps.sink) steps.sinkLogit = static_cast<float>(c.sinkLogitOf(head));
  return steps;
}

}  // namespace attention_lab
