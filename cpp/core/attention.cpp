#include "attention.h"

#include <Eigen/Dense>
#include <cmath>
#include <limits>

#include "embedding.h"
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

// y = x·W + b   x [B, S, D], W [D, D], b [D] or none -> y [B, S, D]
Tensor project(const Tensor& x, const Tensor& w, const Tensor* b) {
  const int64_t rows = x.shape[0] * x.shape[1], d = x.shape[2];
  Tensor y = emptyTensor(x.shape);
  ConstView xm(x.data.data(), rows, d, Strided(d));
  ConstView wm(w.data.data(), d, d, Strided(d));
  View ym(y.data.data(), rows, d, Strided(d));
  ym.noalias() = xm * wm;
  if (b) ym.rowwise() += Eigen::Map<const Eigen::RowVectorXf>(b->data.data(), d);
  return y;
}

// Head h of batch row b of a [B, S, D] tensor viewed as [B, S, H, dk]
// and transposed to [B, H, S, dk]: a [S, dk] block with row stride D.
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

// The tokens of both sides, their ids and the embedding table's vocab.
struct PreparedTokens {
  TokenizedSide query, context;
  Vocabulary vocab;
};

}  // namespace

const Tensor* AttentionResult::find(const std::string& name) const {
  for (const auto& entry : tensors)
    if (entry.first == name) return &entry.second;
  return nullptr;
}

AttentionOutcome runAttention(const AttentionConfig& c) {
  AttentionOutcome outcome;
  AttentionResult& r = outcome.result;
  if (auto error = validateConfig(c)) {
    outcome.error = *error;
    return outcome;
  }

  // ---- tokens -> ids --------------------------------------------------------
  PreparedTokens prep;
  const bool queryTokens = !c.input.texts.empty();
  const bool contextTokens = !c.context.texts.empty();
  const char* queryField = c.input.texts.size() > 1 ? "texts" : "text";
  const char* contextField = c.context.texts.size() > 1 ? "contextTexts" : "contextText";
  if (queryTokens && !tokenizeSide(c.input.texts, queryField, c.maxLen, prep.query, outcome.error)) return outcome;
  if (contextTokens && !tokenizeSide(c.context.texts, contextField, c.maxLen, prep.context, outcome.error))
    return outcome;
  std::vector<const TokenizedSide*> sides;
  if (queryTokens) sides.push_back(&prep.query);
  if (contextTokens) sides.push_back(&prep.context);
  if (!sides.empty()) prep.vocab = buildVocabulary(c.vocab, sides);
  if (queryTokens) {
    r.tokens = prep.query.tokens;
    r.ids = tokenIds(prep.query, prep.vocab, &r.unknownTokens);
  }
  if (contextTokens) {
    r.contextTokens = prep.context.tokens;
    r.contextIds = tokenIds(prep.context, prep.vocab, &r.unknownTokens);
  }
  r.vocab = prep.vocab.tokens;

  RunSizes sizes;
  sizes.batch = c.input.randn ? (*c.input.randn)[0] : static_cast<int64_t>(r.tokens.size());
  sizes.queryLen = c.input.randn ? (*c.input.randn)[1] : static_cast<int64_t>(r.tokens[0].size());
  sizes.keyLen = !c.isCrossAttention() ? sizes.queryLen
                 : c.context.randn     ? (*c.context.randn)[1]
                                       : static_cast<int64_t>(r.contextTokens[0].size());
  sizes.vocabSize = static_cast<int64_t>(r.vocab.size());
  if (auto error = validateSizes(c, sizes)) {
    outcome.error = *error;
    return outcome;
  }

  const int64_t B = sizes.batch, S = sizes.queryLen, Skv = sizes.keyLen, D = c.dModel, H = c.numHeads;
  const int64_t dk = D / H;
  r.headDim = dk;
  r.scaleFactor = scaleFactorFor(c, dk);
  TorchGenerator gen(c.seed);  // torch.manual_seed(seed)

  // ---- 1. inputs: embedding table, randn input, randn context ---------------
  Tensor x, xContext;
  if (!sides.empty()) {
    // emb = nn.Embedding(len(vocab), D)   -> weight ~ N(0, 1), [V, D]
    // (complete explicit values draw nothing; nulls in them keep drawn values)
    Tensor table = emptyTensor({sizes.vocabSize, D});
    if (!c.embeddingValues || !c.embeddingValues->complete())
      gen.normal(table.data.data(), static_cast<int64_t>(table.data.size()), 0.0, 1.0);
    if (c.embeddingValues) c.embeddingValues->applyTo(table);
    // X = emb(ids)                        [B, S, D]
    if (queryTokens) x = embed(table, r.ids);
    if (contextTokens) xContext = embed(table, r.contextIds);
  }
  if (c.input.randn) {
    // X = torch.randn(B, S, D)
    x = emptyTensor({B, S, D});
    gen.normal(x.data.data(), static_cast<int64_t>(x.data.size()), 0.0, 1.0);
  }
  if (c.context.randn) {
    // X_context = torch.randn(B, S_kv, D)
    xContext = emptyTensor({B, Skv, D});
    gen.normal(xContext.data.data(), static_cast<int64_t>(xContext.data.size()), 0.0, 1.0);
  }
  if (c.positional == Positional::Sinusoidal) {
    addSinusoidalPositions(x);
    if (c.isCrossAttention()) addSinusoidalPositions(xContext);
  }
  const Tensor& keySource = c.isCrossAttention() ? xContext : x;

  // ---- 2. weights ----------------------------------------------------------
  if (c.weightsSeed) gen.manualSeed(*c.weightsSeed);
  WeightSet w = initWeights(c, gen);
  auto bias = [&](const char* name) -> const Tensor* {
    auto found = w.find(name);
    return found == w.end() ? nullptr : &found->second;
  };

  // q = x @ W_Q + b_Q; k = x_kv @ W_K + b_K; v = x_kv @ W_V + b_V
  Tensor q = project(x, w["W_Q"], bias("b_Q"));          // [B, S, D]
  Tensor k = project(keySource, w["W_K"], bias("b_K"));  // [B, S_kv, D]
  Tensor v = project(keySource, w["W_V"], bias("b_V"));  // [B, S_kv, D]

  // mask [B, S, S_kv], 1 = blocked:
  //   causal:  torch.triu(torch.ones(S, S_kv), diagonal=1)
  //   padding: key_padding_mask[b, None, :]
  // The keys' tokens: the context's, or the queries' own in self-attention (randn has none).
  const TokenizedSide* keyTokens = contextTokens ? &prep.context
                                   : (!c.isCrossAttention() && queryTokens) ? &prep.query
                                                                             : nullptr;
  Tensor mask = emptyTensor({B, S, Skv});
  for (int64_t b = 0; b < B; ++b)
    for (int64_t i = 0; i < S; ++i)
      for (int64_t j = 0; j < Skv; ++j) {
        const bool keyIsPadding = keyTokens && keyTokens->isPadding[b][j];
        const bool blocked = (c.causalMask && j > i) || (c.paddingMask && keyIsPadding);
        mask.data[static_cast<size_t>((b * S + i) * Skv + j)] = blocked ? 1.0f : 0.0f;
      }

  Tensor scores = emptyTensor({B, H, S, Skv});
  Tensor scaled = emptyTensor({B, H, S, Skv});
  Tensor masked = emptyTensor({B, H, S, Skv});
  Tensor weights = emptyTensor({B, H, S, Skv});
  Tensor dropped = emptyTensor({B, H, S, Skv});
  Tensor context = emptyTensor({B, H, S, dk});
  Tensor concat = emptyTensor({B, S, D});
  const float scaleFactor = static_cast<float>(r.scaleFactor);
  const bool divideBySqrt = c.scale == ScaleMode::HeadDim || c.scale == ScaleMode::DModel;
  const float sqrtDivisor =
      static_cast<float>(std::sqrt(static_cast<double>(c.scale == ScaleMode::DModel ? D : dk)));

  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h) {
      const int64_t offset = (b * H + h) * S * Skv;
      // scores = q @ k.transpose(-2, -1)       [S, dk]·[dk, S_kv] -> [S, S_kv]
      View sc(scores.data.data() + offset, S, Skv, Strided(Skv));
      sc.noalias() = headView(q, b, h, dk) * headView(k, b, h, dk).transpose();
      // scaled = scores / math.sqrt(d_k)      (or * scale)
      View sd(scaled.data.data() + offset, S, Skv, Strided(Skv));
      if (divideBySqrt)
        sd = sc / sqrtDivisor;
      else
        sd = sc * scaleFactor;
      // masked = scaled.masked_fill(mask == 1, fill)
      for (int64_t i = 0; i < S; ++i)
        for (int64_t j = 0; j < Skv; ++j) {
          const bool blocked = mask.data[static_cast<size_t>((b * S + i) * Skv + j)] != 0.0f;
          masked.data[static_cast<size_t>(offset + i * Skv + j)] = blocked ? c.maskFill : sd(i, j);
        }
      // weights = torch.softmax(masked, dim=-1)
      softmaxRows(masked.data.data() + offset, weights.data.data() + offset, S, Skv);
    }

  // ---- 3. dropout: nn.Dropout(p)(weights) in train mode ---------------------
  if (c.dropoutSeed && c.dropoutP > 0 && c.dropoutP < 1) gen.manualSeed(*c.dropoutSeed);
  gen.dropout(weights.data.data(), dropped.data.data(), static_cast<int64_t>(weights.data.size()), c.dropoutP);

  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h) {
      // context = dropped @ v                 [S, S_kv]·[S_kv, dk] -> [S, dk]
      ConstView p(dropped.data.data() + (b * H + h) * S * Skv, S, Skv, Strided(Skv));
      View ctx(context.data.data() + (b * H + h) * S * dk, S, dk, Strided(dk));
      ctx.noalias() = p * headView(v, b, h, dk);
      // concat = context.transpose(1, 2).contiguous().view(B, S, D)
      View(concat.data.data() + b * S * D + h * dk, S, dk, Strided(D)) = ctx;
    }

  // output = concat @ W_O + b_O   (concat itself without an output projection)
  Tensor output = c.outProj ? project(concat, w["W_O"], bias("b_O")) : concat;

  int64_t nanRows = 0;
  for (int64_t row = 0; row < B * H * S; ++row) nanRows += std::isnan(weights.data[static_cast<size_t>(row * Skv)]);
  if (nanRows > 0)
    r.warnings.push_back(std::to_string(nanRows) +
                         " row(s) of weights are NaN, as PyTorch gives them: softmax is undefined for a row whose "
                         "keys are all masked with -inf, or whose scores overflow to infinity. A finite maskFill "
                         "such as -1e9, or a smaller scale, avoids it.");

  auto& t = r.tensors;
  t.emplace_back("X", std::move(x));
  if (c.isCrossAttention()) t.emplace_back("X_context", std::move(xContext));
  for (const char* name : {"W_Q", "W_K", "W_V", "b_Q", "b_K", "b_V", "W_O", "b_O"})
    if (w.count(name)) t.emplace_back(name, std::move(w[name]));
  t.emplace_back("Q", std::move(q));
  t.emplace_back("K", std::move(k));
  t.emplace_back("V", std::move(v));
  t.emplace_back("scores", std::move(scores));
  t.emplace_back("scaled", std::move(scaled));
  t.emplace_back("mask", std::move(mask));
  t.emplace_back("masked", std::move(masked));
  t.emplace_back("weights", std::move(weights));
  t.emplace_back("dropped", std::move(dropped));
  t.emplace_back("context", std::move(context));
  t.emplace_back("concat", std::move(concat));
  t.emplace_back("output", std::move(output));
  outcome.ok = true;
  return outcome;
}

}  // namespace attention_lab
