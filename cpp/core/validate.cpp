#include "validate.h"

#include <string>

#include "size_limits.h"
#include "text_format.h"

namespace attention_lab {
namespace {

std::string str(int64_t n) { return std::to_string(n); }

Status checkRandomShape(const SequenceSource& source, const char* field, int64_t dModel) {
  if (!source.random) return {};
  const int64_t d = source.random->shape[2];
  const std::string f = std::string(field) + "." + source.random->key() + "[2]";
  if (d != dModel)
    return fieldError(f, "random-input-d-model", {{"field", f}, {"got", str(d)}, {"dModel", str(dModel)}});
  return {};
}

// Explicit values fit `expected` when they have its shape, or are a flat
// row-major vector of its size (a Float32Array from JS).
bool fitsShape(const GivenValues& given, const std::vector<int64_t>& expected) {
  if (given.shape == expected) return true;
  int64_t count = 1;
  for (int64_t n : expected) count *= n;
  return given.shape.size() == 1 && given.shape[0] == count;
}

// Every edit of a [rows, cols] tensor (a vector when rows == 0) within bounds.
Status checkEdits(const std::vector<CellEdit>& edits, int64_t rows, int64_t cols) {
  for (const CellEdit& e : edits) {
    if (rows > 0 && e.token.empty() && e.row >= rows)
      return fieldError(e.field, "edit-row-outside", {{"field", e.field}, {"row", str(e.row)}, {"max", str(rows - 1)}});
    if (e.col >= cols)
      return fieldError(e.field, "edit-column-outside",
                        {{"field", e.field}, {"column", str(e.col)}, {"max", str(cols - 1)}});
  }
  return {};
}

// A given or edited weight that this config has no place for: W_O/b_O
// without an output projection, W_a/U_a/v_a without the additive score, W_G without the output gate.
Status checkWeightExists(const AttentionConfig& c, const std::string& name, const std::string& field) {
  if ((name == "W_O" || name == "b_O") && !c.outProj)
    return fieldError(field, "given-without-out-proj", {{"field", field}});
  if (name == "W_G" && !c.outputGate) return fieldError(field, "given-without-output-gate", {{"field", field}});
  if (isDiffWeight(name) && !c.isDiff()) return fieldError(field, "given-without-diff", {{"field", field}});
  if (isMlaLatentWeight(name) && !c.isMla()) return fieldError(field, "given-without-mla", {{"field", field}});
  if (c.isMla() && name != "W_Q" && name != "W_O" && !isMlaLatentWeight(name))
    return fieldError(field, "mla-not-its-weight", {{"field", field}});
  if (isAdditiveWeight(name) && c.score != ScoreKind::Additive)
    return fieldError(field, "given-without-additive", {{"field", field}});
  return {};
}

// Weight edits for weights `c` has, within their shapes.
Status checkWeightEdits(const AttentionConfig& c, const std::map<std::string, std::vector<CellEdit>>& weightEdits) {
  for (const auto& [name, edits] : weightEdits) {
    if (Status s = checkWeightExists(c, name, "weights.edits." + name)) return s;
    const std::vector<int64_t> shape = weightShape(c, name);
    if (Status s = checkEdits(edits, shape.size() == 2 ? shape[0] : 0, shape.back())) return s;
  }
  return {};
}

// Explicit values of the shape weightShape() gives; the error explains the sizes.
Status checkWeightShape(const AttentionConfig& c, const std::string& name, const GivenValues& given) {
  const std::string field = "weights.values." + name;
  const std::vector<int64_t> expected = weightShape(c, name);
  if (fitsShape(given, expected)) return {};
  if (isAdditiveWeight(name))
    return fieldError(field, "additive-weight-shape",
                      {{"field", field},
                       {"expected", shapeText(expected)},
                       {"headDim", str(c.dModel / c.numHeads)},
                       {"hidden", str(c.additiveHidden)},
                       {"got", shapeText(given.shape)}});
  if (c.isMla())
    return fieldError(field, "mla-weight-shape",
                      {{"field", field}, {"expected", shapeText(expected)}, {"got", shapeText(given.shape)}});
  return fieldError(field, "weight-shape",
                    {{"field", field},
                     {"expected", shapeText(expected)},
                     {"dModel", str(c.dModel)},
                     {"got", shapeText(given.shape)}});
}

// The config field that gives a context (keys and values of their own: cross-attention), or null.
const char* contextField(const AttentionConfig& c) {
  return c.context.random             ? "contextInput"
         : !c.context.tokens.empty()  ? "contextTokens"
         : c.context.textsGivenAsList ? "contextTexts"
         : c.context.present()        ? "contextText"
                                      : nullptr;
}

// Differential attention as multihead_diffattn.py defines it (tests/reference/recent.py): two half-heads per
// head, self-attention with one K/V head per query head, the dot score scaled by 1/√d, no dropout, and none of
// the other variants on its scores or its output; the first setting that leaves that reference is named.
Status checkDifferential(const AttentionConfig& c) {
  if (!c.isDiff()) return {};
  if (c.dModel % (2 * c.numHeads) != 0)
    return fieldError("diff.depth", "diff-half-heads", {{"dModel", str(c.dModel)}, {"numHeads", str(c.numHeads)}});
  const char* other = contextField(c);
  if (!other)
    other = c.dropoutP > 0                   ? "dropout.p"
            : c.kvHeads() != c.numHeads      ? "numKVHeads"
            : c.score != ScoreKind::Dot      ? "score"
            : c.scale != ScaleMode::HeadDim  ? "scale"
            : c.ropeStyle != RopeStyle::None ? "rope.style"
            : c.qkNorm                       ? "qkNorm"
            : c.softcap                      ? "softcap"
            : c.alibi                        ? "alibi"
            : c.hasSink()                    ? "sinkLogit"
            : c.outputGate                   ? "outputGate"
                                             : nullptr;
  if (other) return fieldError("diff.depth", "diff-excludes", {{"other", other}});
  return {};
}

// MLA as DeepSeek's inference/model.py defines it (tests/reference/recent.py): its four sizes, the RoPE it
// rotates the rope parts with (rope.style, unscaled; DeepSeek's is interleaved), nn.Linear weights without
// biases and W_O, self-attention without dropout, and none of the variants that change the scores or the
// output; the first setting that leaves that reference is named.
Status checkMla(const AttentionConfig& c) {
  if (!c.isMla()) {
    const char* stray = c.mlaNopeDim    ? "mla.nopeDim"
                        : c.mlaRopeDim  ? "mla.ropeDim"
                        : c.mlaValueDim ? "mla.valueDim"
                        : c.mlaAbsorb   ? "mla.absorb"
                                        : nullptr;
    if (stray) return fieldError(stray, "mla-without-kv-rank", {{"field", stray}});
    return {};
  }
  const char* missing = !c.mlaNopeDim    ? "mla.nopeDim"
                        : !c.mlaRopeDim  ? "mla.ropeDim"
                        : !c.mlaValueDim ? "mla.valueDim"
                                         : nullptr;
  if (missing) return fieldError(missing, "mla-size-required", {{"field", missing}});
  if (*c.mlaRopeDim % 2 != 0) return fieldError("mla.ropeDim", "mla-rope-dim-odd", {{"got", str(*c.mlaRopeDim)}});
  if (c.ropeStyle == RopeStyle::None) return fieldError("rope.style", "mla-needs-rope");
  const char* other = contextField(c);
  if (!other)
    other = c.dropoutP > 0                        ? "dropout.p"
            : c.init != WeightInit::TorchLinear   ? "weights.init"
            : c.layout != ProjectionLayout::Fused ? "weights.layout"
            : c.hasQkvBias()                      ? "weights.qkvBias"
            : !c.outProj                          ? "weights.outProj"
            : c.kvHeads() != c.numHeads           ? "numKVHeads"
            : c.score != ScoreKind::Dot           ? "score"
            : c.scale != ScaleMode::HeadDim       ? "scale"
            : c.ropeScaling != RopeScaling::None  ? "rope.scaling.type"
            : c.qkNorm                            ? "qkNorm"
            : c.softcap                           ? "softcap"
            : c.alibi                             ? "alibi"
            : c.hasSink()                         ? "sinkLogit"
            : c.isDiff()                          ? "diff.depth"
            : c.outputGate                        ? "outputGate"
                                                  : nullptr;
  if (other) return fieldError("mla.kvRank", "mla-excludes", {{"other", other}});
  return {};
}

// The variants' combinations: RoPE pairs features, GQA shares K/V heads evenly and
// only with the inits that have a [D, KVH·dk] form, positions i − j need one sequence.
Status checkModernVariants(const AttentionConfig& c) {
  const int64_t headDim = c.dModel / c.numHeads, kvHeads = c.kvHeads();
  if (c.ropeStyle != RopeStyle::None && headDim % 2 != 0 && !c.isMla())  // MLA rotates its ropeDim (checkMla)
    return fieldError("rope.style", "rope-odd-head-dim", {{"headDim", str(headDim)}});
  if (c.numHeads % kvHeads != 0)
    return fieldError("numKVHeads", "kv-heads-not-divisor",
                      {{"numHeads", str(c.numHeads)}, {"numKVHeads", str(kvHeads)}});
  const bool gqaInit =
      c.init == WeightInit::TorchLinear || c.init == WeightInit::TorchRand || c.init == WeightInit::Identity;
  if (kvHeads < c.numHeads && (!gqaInit || c.layout != ProjectionLayout::Fused))
    return fieldError("numKVHeads", "kv-heads-init", {{"numKVHeads", str(kvHeads)}, {"numHeads", str(c.numHeads)}});
  if (c.window && !blocksFuture(c.mask)) return fieldError("window", "window-needs-causal");
  if (c.ropeScaling != RopeScaling::None && c.ropeStyle == RopeStyle::None)
    return fieldError("rope.scaling.type", "rope-scaling-needs-rope",
                      {{"got", std::string("\"") + kRopeScalingNames[static_cast<size_t>(c.ropeScaling)] + "\""}});
  if (c.ropeScaling == RopeScaling::Yarn && c.ropeScalingFactor < 1)
    return fieldError("rope.scaling.factor", "yarn-factor-below-one", {{"got", formatNumber(c.ropeScalingFactor)}});
  if (c.ropeScaling == RopeScaling::Dynamic && c.ropeStyle != RopeStyle::None && headDim <= 2)
    return fieldError("rope.scaling.type", "dynamic-head-dim", {{"headDim", str(headDim)}});
  if (c.sinkLogitPerHead && static_cast<int64_t>(c.sinkLogit.size()) != c.numHeads)
    return fieldError("sinkLogit", "sink-logit-heads",
                      {{"field", "sinkLogit"},
                       {"count", str(static_cast<int64_t>(c.sinkLogit.size()))},
                       {"numHeads", str(c.numHeads)}});
  if (c.isCrossAttention()) {
    const char* positional = c.ropeStyle != RopeStyle::None ? "rope.style"
                             : c.alibi                      ? "alibi"
                             : c.window                     ? "window"
                                                            : nullptr;
    if (positional) return fieldError(positional, "needs-self-attention", {{"field", positional}});
  }
  return {};
}

}  // namespace

std::vector<int64_t> weightShape(const AttentionConfig& c, const std::string& name) {
  const int64_t headDim = c.dModel / c.numHeads;
  if (name == "W_a" || name == "U_a") return {headDim, c.additiveHidden};
  if (name == "v_a") return {c.additiveHidden};
  // Differential attention: the λ vectors have a half-head's d = headDim / 2 numbers, subln a head's 2d.
  if (isDiffWeight(name)) return {name == "subln" ? headDim : headDim / 2};
  if (c.isMla()) {  // model.py's MLA in the x·W convention (tests/reference/recent.py)
    const int64_t D = c.dModel, H = c.numHeads, kvRank = c.mlaKvRank.value_or(1);
    const int64_t nope = c.mlaNopeDim.value_or(1), rope = c.mlaRopeDim.value_or(2), value = c.mlaValueDim.value_or(1);
    if (name == "W_Q") return {D, H * (nope + rope)};
    if (name == "W_DKV") return {D, kvRank};
    if (name == "W_KR") return {D, rope};
    if (name == "kv_norm") return {kvRank};
    if (name == "W_UK") return {kvRank, H * nope};
    if (name == "W_UV") return {kvRank, H * value};
    if (name == "W_O") return {H * value, D};
  }
  // K and V have numKVHeads heads of headDim (grouped-query attention).
  const int64_t columns =
      name == "W_K" || name == "W_V" || name == "b_K" || name == "b_V" ? c.kvHeads() * headDim : c.dModel;
  if (isVectorWeight(name)) return {columns};
  return {c.dModel, columns};
}

Status validateConfig(const AttentionConfig& c) {
  // Its weights are in files the reader opens (openCheckpoint), never in a config: said before anything else.
  if (c.model == ModelKind::Checkpoint) return fieldError("model", "model-checkpoint-files");
  if (c.dModel % c.numHeads != 0)
    return fieldError("numHeads", "not-divisible", {{"dModel", str(c.dModel)}, {"numHeads", str(c.numHeads)}});
  if (!c.input.present()) return fieldError("text", "input-required");
  if (Status s = checkRandomShape(c.input, "input", c.dModel)) return s;
  if (Status s = checkRandomShape(c.context, "contextInput", c.dModel)) return s;
  if (c.context.present() && c.input.batch() != c.context.batch()) {
    const std::string field = c.context.random            ? "contextInput"
                              : !c.context.tokens.empty() ? "contextTokens"
                                                          : "contextTexts";
    return fieldError(field, "context-batch-mismatch",
                      {{"field", field}, {"context", str(c.context.batch())}, {"queries", str(c.input.batch())}});
  }
  const bool anyTokens = c.input.hasTokens() || c.context.hasTokens();
  if (c.maxLen && !anyTokens) return fieldError("maxLen", "max-len-without-tokens");
  if ((c.embeddingValues || !c.embeddingEdits.empty()) && !anyTokens)
    return fieldError(c.embeddingValues ? "embedding.values" : "embedding.edits", "embedding-without-tokens");
  if (c.layout == ProjectionLayout::PerHead && c.init == WeightInit::TorchMha)
    return fieldError("weights.layout", "per-head-with-mha");
  if (c.layout == ProjectionLayout::PerHead && c.init == WeightInit::TorchLinearClones)
    return fieldError("weights.layout", "per-head-with-clones");

  if (Status s = checkModernVariants(c)) return s;
  if (Status s = checkDifferential(c)) return s;
  if (Status s = checkMla(c)) return s;

  // Explicit weights and edits: of the right shape, and only for weights this config has.
  for (const auto& [name, given] : c.weightValues) {
    if (Status s = checkWeightExists(c, name, "weights.values." + name)) return s;
    if (Status s = checkWeightShape(c, name, given)) return s;
  }
  if (Status s = checkWeightEdits(c, c.weightEdits)) return s;
  return checkEdits(c.embeddingEdits, kMaxVocab, c.dModel);
}

Status validateEdits(const AttentionConfig& c, const AttentionConfig& edits, const RunSizes& sizes) {
  if (!edits.embeddingEdits.empty() && !c.input.hasTokens() && !c.context.hasTokens())
    return fieldError("embedding.edits", "embedding-without-tokens");
  if (Status s = checkWeightEdits(c, edits.weightEdits)) return s;
  return checkEdits(edits.embeddingEdits, sizes.vocabSize, c.dModel);
}

int64_t additiveTerms(const AttentionConfig& c, const RunSizes& s) {
  if (c.score != ScoreKind::Additive) return 0;
  return s.batch * c.numHeads * s.queryLen * s.keyLen * c.additiveHidden;
}

Status validateSizes(const AttentionConfig& c, const RunSizes& s) {
  const std::string randomInput = c.input.random ? std::string("input.") + c.input.random->key() : "";
  if (s.batch > kMaxBatch)
    return fieldError(c.input.random            ? randomInput + "[0]"
                      : !c.input.tokens.empty() ? "tokens"
                                                : "texts",
                      "batch-too-large", {{"batch", str(s.batch)}, {"limit", str(kMaxBatch)}});
  if (s.queryLen > kMaxTokensPerSequence)
    return fieldError(c.input.random            ? randomInput + "[1]"
                      : !c.input.tokens.empty() ? "tokens"
                                                : "text",
                      "query-too-long", {{"length", str(s.queryLen)}, {"limit", str(kMaxTokensPerSequence)}});
  if (s.keyLen > kMaxTokensPerSequence)
    return fieldError(c.context.random            ? std::string("contextInput.") + c.context.random->key() + "[1]"
                      : !c.context.tokens.empty() ? "contextTokens"
                                                  : "contextText",
                      "keys-too-long", {{"length", str(s.keyLen)}, {"limit", str(kMaxTokensPerSequence)}});
  if (s.vocabSize > kMaxVocab)
    return fieldError("vocab", "vocab-too-large", {{"count", str(s.vocabSize)}, {"limit", str(kMaxVocab)}});
  if (c.embeddingValues) {
    const std::vector<int64_t> expected = {s.vocabSize, c.dModel};
    if (!fitsShape(*c.embeddingValues, expected))
      return fieldError("embedding.values", "embedding-shape",
                        {{"expected", shapeText(expected)}, {"got", shapeText(c.embeddingValues->shape)}});
  }
  if (Status e = checkEdits(c.embeddingEdits, s.vocabSize, c.dModel)) return e;
  const int64_t terms = additiveTerms(c, s);
  if (terms > kMaxAdditiveTerms)
    return fieldError("additiveHidden", "additive-too-large",
                      {{"terms", str(terms)}, {"limit", str(kMaxAdditiveTerms)}});
  return {};
}

Status checkIntermediateBytes(int64_t bytes) {
  if (bytes <= kMaxIntermediateBytes) return {};
  return fieldError("dModel", "memory-limit",
                    {{"need", str(bytes >> 20)}, {"limit", str(kMaxIntermediateBytes >> 20)}});
}

}  // namespace attention_lab
