#include "validate.h"

#include <string>

#include "size_limits.h"
#include "text_format.h"

namespace attention_lab {
namespace {

Status checkRandnShape(const SequenceSource& source, const char* field, int64_t dModel) {
  if (!source.randn) return {};
  const int64_t d = (*source.randn)[2];
  const std::string f = std::string(field) + ".randn[2]";
  if (d != dModel)
    return fieldError(f, f + " (" + std::to_string(d) + ") must equal dModel (" + std::to_string(dModel) + ")");
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

int64_t batchOf(const SequenceSource& source) {
  return source.randn ? (*source.randn)[0] : static_cast<int64_t>(source.texts.size());
}

// Every edit of a [rows, cols] tensor (a vector when rows == 0) within bounds.
Status checkEdits(const std::vector<CellEdit>& edits, int64_t rows, int64_t cols) {
  for (const CellEdit& e : edits) {
    if (rows > 0 && e.token.empty() && e.row >= rows)
      return fieldError(
          e.field, e.field + ": row " + std::to_string(e.row) + " is outside [0, " + std::to_string(rows - 1) + "]");
    if (e.col >= cols)
      return fieldError(
          e.field, e.field + ": column " + std::to_string(e.col) + " is outside [0, " + std::to_string(cols - 1) + "]");
  }
  return {};
}

}  // namespace

Status validateConfig(const AttentionConfig& c) {
  if (c.dModel % c.numHeads != 0)
    return fieldError("numHeads", "dModel (" + std::to_string(c.dModel) + ") must be divisible by numHeads (" +
                                      std::to_string(c.numHeads) + ")");
  if (!c.input.present()) return fieldError("text", "text is required: type a sentence (or give texts or input)");
  if (Status s = checkRandnShape(c.input, "input", c.dModel)) return s;
  if (Status s = checkRandnShape(c.context, "contextInput", c.dModel)) return s;
  if (c.context.present() && batchOf(c.input) != batchOf(c.context)) {
    const std::string field = c.context.randn ? "contextInput" : "contextTexts";
    return fieldError(field, field + " gives " + std::to_string(batchOf(c.context)) +
                                 " sequences but the queries have " + std::to_string(batchOf(c.input)) +
                                 "; give one context per query sentence");
  }
  const bool anyTokens = !c.input.texts.empty() || !c.context.texts.empty();
  if (c.maxLen && !anyTokens)
    return fieldError("maxLen", "maxLen applies to sentences; a randn input has no tokens to pad");
  if ((c.embeddingValues || !c.embeddingEdits.empty()) && !anyTokens)
    return fieldError(c.embeddingValues ? "embedding.values" : "embedding.edits",
                      "the embedding table needs tokens, but the input is randn");
  if (c.init == WeightInit::TorchMha && c.layout == ProjectionLayout::PerHead)
    return fieldError("weights.layout",
                      "weights.layout \"per-head\" is not available with weights.init \"torch-mha\": "
                      "nn.MultiheadAttention uses one fused in_proj");

  // Explicit weights and edits: of the right shape, and only for W_O/b_O with an output projection.
  auto checkOutProj = [&](const std::string& name, const std::string& field) -> Status {
    if ((name == "W_O" || name == "b_O") && !c.outProj)
      return fieldError(field, field + " is given but weights.outProj is false");
    return {};
  };
  for (const auto& [name, given] : c.weightValues) {
    const std::string field = "weights.values." + name;
    const std::vector<int64_t> expected =
        name[0] == 'W' ? std::vector<int64_t>{c.dModel, c.dModel} : std::vector<int64_t>{c.dModel};
    if (!fitsShape(given, expected))
      return fieldError(field, field + " must be " + shapeText(expected) + " (dModel = " + std::to_string(c.dModel) +
                                   "), got " + shapeText(given.shape));
    if (Status s = checkOutProj(name, field)) return s;
  }
  for (const auto& [name, edits] : c.weightEdits) {
    if (Status s = checkOutProj(name, "weights.edits." + name)) return s;
    if (Status s = checkEdits(edits, name[0] == 'W' ? c.dModel : 0, c.dModel)) return s;
  }
  return checkEdits(c.embeddingEdits, kMaxVocab, c.dModel);
}

int64_t intermediateBytes(const AttentionConfig& c, const RunSizes& s) {
  const int64_t d = c.dModel, h = c.numHeads;
  const int64_t sequences = s.batch * (s.queryLen + (c.isCrossAttention() ? s.keyLen : 0)) * d;  // X, X_context
  const int64_t table = s.vocabSize * d;
  const int64_t weights = 4 * d * d + 4 * d;
  const int64_t projections = s.batch * (s.queryLen + 2 * s.keyLen) * d;  // Q, K, V
  const int64_t scoreTensors = 5 * s.batch * h * s.queryLen * s.keyLen;   // scores ... dropped
  const int64_t mask = s.batch * s.queryLen * s.keyLen;
  const int64_t outputs = 3 * s.batch * s.queryLen * d;  // context, concat, output
  return 4 * (sequences + table + weights + projections + scoreTensors + mask + outputs);
}

Status validateSizes(const AttentionConfig& c, const RunSizes& s) {
  if (s.batch > kMaxBatch)
    return fieldError(c.input.randn ? "input.randn[0]" : "texts",
                      "the batch (" + std::to_string(s.batch) + ") exceeds the limit of " + std::to_string(kMaxBatch));
  if (s.queryLen > kMaxTokensPerSequence)
    return fieldError(c.input.randn ? "input.randn[1]" : "text", "the query length (" + std::to_string(s.queryLen) +
                                                                     ") exceeds the limit of " +
                                                                     std::to_string(kMaxTokensPerSequence) + " tokens");
  if (s.keyLen > kMaxTokensPerSequence)
    return fieldError(c.context.randn ? "contextInput.randn[1]" : "contextText",
                      "the key length (" + std::to_string(s.keyLen) + ") exceeds the limit of " +
                          std::to_string(kMaxTokensPerSequence) + " tokens");
  if (s.vocabSize > kMaxVocab)
    return fieldError(
        "vocab", "the vocab has " + std::to_string(s.vocabSize) + " tokens; the limit is " + std::to_string(kMaxVocab));
  if (c.embeddingValues) {
    const std::vector<int64_t> expected = {s.vocabSize, c.dModel};
    if (!fitsShape(*c.embeddingValues, expected))
      return fieldError("embedding.values", "embedding.values must be " + shapeText(expected) +
                                                " ([len(vocab), dModel]), got " + shapeText(c.embeddingValues->shape));
  }
  if (Status e = checkEdits(c.embeddingEdits, s.vocabSize, c.dModel)) return e;
  const int64_t bytes = intermediateBytes(c, s);
  if (bytes > kMaxIntermediateBytes)
    return fieldError(
        "dModel", "this run needs " + std::to_string(bytes >> 20) + " MiB of intermediates; the memory limit is " +
                      std::to_string(kMaxIntermediateBytes >> 20) + " MiB (fewer tokens, heads or a smaller dModel)");
  return {};
}

}  // namespace attention_lab
