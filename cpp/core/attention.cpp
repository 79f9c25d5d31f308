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
#include <cmath>
#include <string>

#include "embedding.h"
#include "gemm.h"
#include "softmax.h"
#include "tokens.h"
#include "torch_random.h"
#include "validate.h"
#include "weights.h"

namespace attention_lab {
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

// The sizes of one run.
struct Dims {
  int64_t B = 0, S = 0, Skv = 0, D = 0, H = 0, dk = 0;
};

// The tokens of both sides and the embedding table's vocab. A side given as
// a random input (or an absent context) has no tokens.
struct Tokens {
  bool hasQuery = false, hasContext = false;
  TokenizedSide query, context;
  Vocabulary vocab;
  bool any() const { return hasQuery || hasContext; }
};

// Every intermediate, named as in kTensorNames.
struct Intermediates {
  Tensor x, xContext;                               // [B, S, D], [B, S_kv, D] (cross-attention only)
  WeightSet w;                                      // W_* [D, D], b_* [D]; W_a, U_a [dk, hidden], v_a [hidden]
  Tensor q, k, v;                                   // [B, S, D], [B, S_kv, D], [B, S_kv, D]
  Tensor mask;                                      // [B, S, S_kv]
  Tensor scores, scaled, masked, weights, dropped;  // [B, H, S, S_kv]
  Tensor averagedWeights;                           // [B, S, S_kv]
  Tensor context;                                   // [B, H, S, dk]
  Tensor concat;                                    // [B, S, D]
  Tensor output;                                    // [B, S, D]

  const Tensor* bias(const char* name) const {
    const auto found = w.find(name);
    return found == w.end() ? nullptr : &found->second;
  }
};

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

// B, S, S_kv from the tokens or the random inputs' shapes, then the limits on them.
//   B, S, _ = x.shape; S_kv = x_kv.shape[1]
Status measure(const AttentionConfig& c, const AttentionResult& r, Dims& d) {
  RunSizes sizes;
  sizes.batch = c.input.random ? c.input.random->shape[0] : static_cast<int64_t>(r.tokens.size());
  sizes.queryLen = c.input.random ? c.input.random->shape[1] : static_cast<int64_t>(r.tokens[0].size());
  sizes.keyLen = !c.isCrossAttention() ? sizes.queryLen
                 : c.context.random    ? c.context.random->shape[1]
                                       : static_cast<int64_t>(r.contextTokens[0].size());
  sizes.vocabSize = static_cast<int64_t>(r.vocab.size());
  if (Status s = validateSizes(c, sizes)) return s;
  d.B = sizes.batch;
  d.S = sizes.queryLen;
  d.Skv = sizes.keyLen;
  d.D = c.dModel;
  d.H = c.numHeads;
  d.dk = d.D / d.H;
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
Status embedInputs(const AttentionConfig& c, const Tokens& t, const AttentionResult& r, const Dims& d,
                   TorchGenerator& gen, Intermediates& m) {
  if (t.any()) {
    // Complete explicit values draw nothing; nulls in them keep the drawn numbers.
    const int64_t vocabSize = static_cast<int64_t>(r.vocab.size());
    const bool drawn = !c.embeddingValues || !c.embeddingValues->complete();
    Tensor table = drawn ? drawEmbeddingTable(vocabSize, d.D, gen) : emptyTensor({vocabSize, d.D});
    if (c.embeddingValues) c.embeddingValues->applyTo(table);
    if (Status s = applyEmbeddingEdits(c.embeddingEdits, r.vocab, table)) return s;
    if (t.hasQuery) m.x = embed(table, r.ids);
    if (t.hasContext) m.xContext = embed(table, r.contextIds);
  }
  if (c.input.random) m.x = drawRandomInput(*c.input.random, gen);
  if (c.context.random) m.xContext = drawRandomInput(*c.context.random, gen);
  if (c.positional == Positional::Sinusoidal) {
    addSinusoidalPositions(m.x);
    if (c.isCrossAttention()) addSinusoidalPositions(m.xContext);
  }
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

// ---- projections ----------------------------------------------------------
// y = x·W + b   x [B, L, D], W [D, D], b [D] or none -> y [B, L, D]
Tensor project(const Tensor& x, const Tensor& w, const Tensor* b) {
  const int64_t rows = x.shape[0] * x.shape[1], d = x.shape[2];
  Tensor y = emptyTensor(x.shape);
  gemm(rows, d, d, x.data.data(), d, w.data.data(), d, false, b ? b->data.data() : nullptr, y.data.data(), d);
  return y;
}

// x [B, S, D], x_kv [B, S_kv, D] (x itself in self-attention) -> Q [B, S, D], K, V [B, S_kv, D]
//   Q = x @ W_Q + b_Q
//   K = x_kv @ W_K + b_K
//   V = x_kv @ W_V + b_V
void projectQkv(const AttentionConfig& c, Intermediates& m) {
  const Tensor& keySource = c.isCrossAttention() ? m.xContext : m.x;
  m.q = project(m.x, m.w["W_Q"], m.bias("b_Q"));
  m.k = project(keySource, m.w["W_K"], m.bias("b_K"));
  m.v = project(keySource, m.w["W_V"], m.bias("b_V"));
}

// ---- heads ----------------------------------------------------------------
// Head h of batch row b of a [B, L, D] tensor viewed as [B, L, H, dk] and
// transposed to [B, H, L, dk]: a [L, dk] block with row stride D.
//   q = Q.view(B, S, H, dk).transpose(1, 2)
ConstView headView(const Tensor& t, int64_t b, int64_t h, int64_t headDim) {
  const int64_t length = t.shape[1], d = t.shape[2];
  return ConstView(t.data.data() + b * length * d + h * headDim, length, headDim, Strided(d));
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
//   blocked = max(blocked, key_padding_mask[:, None, :])     # padding: the keys' <pad> tokens
//   mask = blocked | 1 - blocked | torch.zeros(B, S, S_kv).masked_fill(blocked.bool(), fill)
Tensor buildMask(const AttentionConfig& c, const TokenizedSide* keys, const Dims& d) {
  Tensor mask = emptyTensor({d.B, d.S, d.Skv});
  const bool future = blocksFuture(c.mask), padding = blocksPadding(c.mask);
  float blockedValue = 1.0f, keptValue = 0.0f;
  if (c.maskConvention == MaskConvention::Keep) std::swap(blockedValue, keptValue);
  if (c.maskConvention == MaskConvention::Additive) blockedValue = c.maskFill;
  for (int64_t b = 0; b < d.B; ++b)
    for (int64_t i = 0; i < d.S; ++i)
      for (int64_t j = 0; j < d.Skv; ++j) {
        const bool keyIsPadding = keys && keys->isPadding[b][j];
        const bool blocked = (future && j > i) || (padding && keyIsPadding);
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

// q [B, H, S, dk], k [B, H, S_kv, dk], mask [B, S, S_kv] -> scores, scaled, masked, weights [B, H, S, S_kv]
//   scores = q @ k.transpose(-2, -1)        # or the additive score
//   scaled = scores / math.sqrt(dk)         # head-dim; / math.sqrt(D) for d-model; * scale otherwise
//   masked = scaled.masked_fill(mask[:, None].bool(), fill)   # "blocked"; (mask == 0) for "keep";
//                                                             # scaled + mask[:, None] for "additive"
//   weights = torch.softmax(masked, dim=-1)
void attendHeads(const AttentionConfig& c, const Dims& d, double scaleFactor, Intermediates& m) {
  const int64_t B = d.B, H = d.H, S = d.S, Skv = d.Skv;
  m.scores = emptyTensor({B, H, S, Skv});
  m.scaled = emptyTensor({B, H, S, Skv});
  m.masked = emptyTensor({B, H, S, Skv});
  m.weights = emptyTensor({B, H, S, Skv});
  // Dividing by the float square root, as PyTorch's `scores / math.sqrt(dk)`
  // does, rounds differently from multiplying by its reciprocal.
  const bool divideBySqrt = c.scale == ScaleMode::HeadDim || c.scale == ScaleMode::DModel;
  const float sqrtDivisor =
      static_cast<float>(std::sqrt(static_cast<double>(c.scale == ScaleMode::DModel ? d.D : d.dk)));
  const float factor = static_cast<float>(scaleFactor);
  const float blockedValue = c.maskConvention == MaskConvention::Keep ? 0.0f : 1.0f;
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h) {
      const int64_t offset = (b * H + h) * S * Skv;
      // [S, dk]·[dk, S_kv] -> [S, S_kv]
      View sc(m.scores.data.data() + offset, S, Skv, Strided(Skv));
      if (c.score == ScoreKind::Additive)
        additiveScores(headView(m.q, b, h, d.dk), headView(m.k, b, h, d.dk), m.w, sc);
      else
        dotScores(headView(m.q, b, h, d.dk), headView(m.k, b, h, d.dk), sc);
      View sd(m.scaled.data.data() + offset, S, Skv, Strided(Skv));
      if (divideBySqrt)
        sd = sc / sqrtDivisor;
      else
        sd = sc * factor;
      for (int64_t i = 0; i < S; ++i)
        for (int64_t j = 0; j < Skv; ++j) {
          const float maskValue = m.mask.data[static_cast<size_t>((b * S + i) * Skv + j)];
          float& out = m.masked.data[static_cast<size_t>(offset + i * Skv + j)];
          if (c.maskConvention == MaskConvention::Additive)
            out = sd(i, j) + maskValue;
          else
            out = maskValue == blockedValue ? c.maskFill : sd(i, j);
        }
      softmaxRows(m.masked.data.data() + offset, m.weights.data.data() + offset, S, Skv);
    }
}

// ---- dropout --------------------------------------------------------------
// weights [B, H, S, S_kv] -> dropped [B, H, S, S_kv]
//   torch.manual_seed(dropout.seed)   # when given and 0 < p < 1
//   dropped = nn.Dropout(p).train()(weights)
void dropout(const AttentionConfig& c, TorchGenerator& gen, Intermediates& m) {
  m.dropped = emptyTensor(m.weights.shape);
  if (c.dropoutSeed && c.dropoutP > 0 && c.dropoutP < 1) gen.manualSeed(*c.dropoutSeed);
  gen.dropout(m.weights.data.data(), m.dropped.data.data(), static_cast<int64_t>(m.weights.data.size()), c.dropoutP);
}

// dropped [B, H, S, S_kv] -> averagedWeights [B, S, S_kv]
//   averaged = dropped.sum(dim=1) / H   # nn.MultiheadAttention(..., average_attn_weights=True)
void averageHeads(const Dims& d, Intermediates& m) {
  const int64_t B = d.B, H = d.H, cells = d.S * d.Skv;
  m.averagedWeights = emptyTensor({B, d.S, d.Skv});
  for (int64_t b = 0; b < B; ++b)
    for (int64_t k = 0; k < cells; ++k) {
      float sum = 0.0f;
      for (int64_t h = 0; h < H; ++h) sum += m.dropped.data[static_cast<size_t>((b * H + h) * cells + k)];
      m.averagedWeights.data[static_cast<size_t>(b * cells + k)] = sum / static_cast<float>(H);
    }
}

// ---- merge ----------------------------------------------------------------
// dropped [B, H, S, S_kv], v [B, H, S_kv, dk] -> context [B, H, S, dk] -> concat [B, S, D]
//   context = dropped @ v
//   concat = context.transpose(1, 2).contiguous().view(B, S, D)
void mergeHeads(const Dims& d, Intermediates& m) {
  const int64_t B = d.B, H = d.H, S = d.S, Skv = d.Skv, D = d.D, dk = d.dk;
  m.context = emptyTensor({B, H, S, dk});
  m.concat = emptyTensor({B, S, D});
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h) {
      // [S, S_kv]·[S_kv, dk] -> [S, dk]
      const float* p = m.dropped.data.data() + (b * H + h) * S * Skv;
      View ctx(m.context.data.data() + (b * H + h) * S * dk, S, dk, Strided(dk));
      const ConstView v = headView(m.v, b, h, dk);
      gemm(S, dk, Skv, p, Skv, v.data(), v.outerStride(), false, nullptr, ctx.data(), dk);
      View(m.concat.data.data() + b * S * D + h * dk, S, dk, Strided(D)) = ctx;
    }
}

// ---- output ---------------------------------------------------------------
// concat [B, S, D] -> output [B, S, D]
//   output = concat @ W_O + b_O   # concat itself without an output projection
void outputProjection(const AttentionConfig& c, Intermediates& m) {
  m.output = c.outProj ? project(m.concat, m.w["W_O"], m.bias("b_O")) : m.concat;
}

// A warning for rows of weights [B, H, S, S_kv] that softmax made NaN.
void warnAboutNaNRows(const Dims& d, const Tensor& weights, AttentionResult& r) {
  int64_t nanRows = 0;
  for (int64_t row = 0; row < d.B * d.H * d.S; ++row)
    nanRows += std::isnan(weights.data[static_cast<size_t>(row * d.Skv)]);
  if (nanRows > 0) r.warnings.push_back(makeWarning("nan-rows", {{"count", std::to_string(nanRows)}}));
}

// Moves every intermediate into r.tensors, in the order of kTensorNames.
void collect(const AttentionConfig& c, Intermediates& m, AttentionResult& r) {
  auto& t = r.tensors;
  t.emplace_back("X", std::move(m.x));
  if (c.isCrossAttention()) t.emplace_back("X_context", std::move(m.xContext));
  for (const char* name : kWeightNames)
    if (m.w.count(name)) t.emplace_back(name, std::move(m.w[name]));
  t.emplace_back("Q", std::move(m.q));
  t.emplace_back("K", std::move(m.k));
  t.emplace_back("V", std::move(m.v));
  t.emplace_back("scores", std::move(m.scores));
  t.emplace_back("scaled", std::move(m.scaled));
  t.emplace_back("mask", std::move(m.mask));
  t.emplace_back("masked", std::move(m.masked));
  t.emplace_back("weights", std::move(m.weights));
  t.emplace_back("dropped", std::move(m.dropped));
  t.emplace_back("averagedWeights", std::move(m.averagedWeights));
  t.emplace_back("context", std::move(m.context));
  t.emplace_back("concat", std::move(m.concat));
  t.emplace_back("output", std::move(m.output));
}

}  // namespace

const Tensor* AttentionResult::find(const std::string& name) const {
  for (const auto& entry : tensors)
    if (entry.first == name) return &entry.second;
  return nullptr;
}

Status runAttention(const AttentionConfig& c, AttentionResult& r) {
  r = AttentionResult{};
  if (Status s = validateConfig(c)) return s;

  Tokens tokens;
  if (Status s = tokenize(c, tokens, r)) return s;
  Dims d;
  if (Status s = measure(c, r, d)) return s;
  r.headDim = d.dk;
  r.scaleFactor = scaleFactorFor(c, d.dk);

  Intermediates m;
  TorchGenerator gen(c.seed);  // torch.manual_seed(seed)
  if (Status s = embedInputs(c, tokens, r, d, gen, m)) return s;
  initializeWeights(c, gen, m);
  projectQkv(c, m);
  m.mask = buildMask(c, keyTokens(c, tokens), d);
  attendHeads(c, d, r.scaleFactor, m);
  dropout(c, gen, m);
  averageHeads(d, m);
  mergeHeads(d, m);
  outputProjection(c, m);

  warnAboutNaNRows(d, m.weights, r);
  collect(c, m, r);
  return {};
}

}  // namespace attention_lab
