#include "validate.h"

#include <string>

#include "size_limits.h"
#include "weights.h"

namespace attention_lab {
namespace {

std::string shapeText(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

std::optional<ConfigError> checkRandnShape(const SequenceSource& source, const char* field, int64_t dModel) {
  if (!source.randn) return std::nullopt;
  const auto& shape = *source.randn;
  const std::string f = std::string(field) + ".randn";
  if (shape[2] != dModel)
    return ConfigError{f + "[2]", f + "[2] (" + std::to_string(shape[2]) + ") must equal dModel (" +
                                      std::to_string(dModel) + ")"};
  return std::nullopt;
}

}  // namespace

std::optional<ConfigError> validateConfig(const AttentionConfig& c) {
  if (c.dModel < 1 || c.dModel > kMaxDModel)
    return ConfigError{"dModel", "dModel (" + std::to_string(c.dModel) + ") must be between 1 and " +
                                     std::to_string(kMaxDModel)};
  if (c.numHeads < 1 || c.numHeads > kMaxHeads)
    return ConfigError{"numHeads", "numHeads (" + std::to_string(c.numHeads) + ") must be between 1 and " +
                                       std::to_string(kMaxHeads)};
  if (c.dModel % c.numHeads != 0)
    return ConfigError{"numHeads", "dModel (" + std::to_string(c.dModel) + ") must be divisible by numHeads (" +
                                       std::to_string(c.numHeads) + ")"};
  if (c.maxLen && (*c.maxLen < 1 || *c.maxLen > kMaxTokensPerSequence))
    return ConfigError{"maxLen", "maxLen (" + std::to_string(*c.maxLen) + ") must be between 1 and " +
                                     std::to_string(kMaxTokensPerSequence)};
  if (!c.input.present()) return ConfigError{"text", "text is required: type a sentence"};
  if (auto e = checkRandnShape(c.input, "input", c.dModel)) return e;
  if (auto e = checkRandnShape(c.context, "contextInput", c.dModel)) return e;
  if (c.context.present()) {
    const int64_t queryBatch = c.input.randn ? (*c.input.randn)[0] : static_cast<int64_t>(c.input.texts.size());
    const int64_t contextBatch =
        c.context.randn ? (*c.context.randn)[0] : static_cast<int64_t>(c.context.texts.size());
    if (queryBatch != contextBatch) {
      const char* field = c.context.randn ? "contextInput" : "contextTexts";
      return ConfigError{field, "the context has " + std::to_string(contextBatch) +
                                    " sentences but the queries have " + std::to_string(queryBatch) +
                                    "; give one context per query sentence"};
    }
  }
  if ((c.input.randn || c.context.randn) && c.maxLen && !(c.input.texts.size() || c.context.texts.size()))
    return ConfigError{"maxLen", "maxLen applies to sentences; a randn input has no tokens to pad"};
  if (c.embeddingValues && c.input.randn && !c.context.texts.size())
    return ConfigError{"embedding.values", "embedding.values needs tokens, but the input is randn"};
  if (c.vocab && c.vocab->empty()) return ConfigError{"vocab", "vocab is empty: give at least one token"};
  if (c.dropoutP < 0 || c.dropoutP > 1)
    return ConfigError{"dropout.p", "dropout.p must be between 0 and 1"};
  if (c.init == WeightInit::TorchMha && c.layout == ProjectionLayout::PerHead)
    return ConfigError{"weights.layout",
                       "weights.layout \"per-head\" is not available with weights.init \"torch-mha\": "
                       "nn.MultiheadAttention uses one fused in_proj"};

  // Explicit weights: known to the config, and of the right shape.
  const std::vector<std::string> names = weightNames(c);
  for (const auto& given : c.weightValues) {
    const std::string field = "weights.values." + given.first;
    const bool isMatrix = given.first[0] == 'W';
    const std::vector<int64_t> expected =
        isMatrix ? std::vector<int64_t>{c.dModel, c.dModel} : std::vector<int64_t>{c.dModel};
    if (given.second.shape != expected)
      return ConfigError{field, field + " must be " + shapeText(expected) + " (dModel = " +
                                    std::to_string(c.dModel) + "), got " + shapeText(given.second.shape)};
    if ((given.first == "W_O" || given.first == "b_O") && !c.outProj)
      return ConfigError{field, field + " is given but weights.outProj is false"};
  }
  return std::nullopt;
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

std::optional<ConfigError> validateSizes(const AttentionConfig& c, const RunSizes& s) {
  if (s.batch > kMaxBatch)
    return ConfigError{c.input.randn ? "input.randn[0]" : "texts",
                       "the batch (" + std::to_string(s.batch) + ") exceeds the limit of " +
                           std::to_string(kMaxBatch)};
  if (s.queryLen > kMaxTokensPerSequence)
    return ConfigError{c.input.randn ? "input.randn[1]" : "text",
                       "the query length (" + std::to_string(s.queryLen) + ") exceeds the limit of " +
                           std::to_string(kMaxTokensPerSequence) + " tokens"};
  if (s.keyLen > kMaxTokensPerSequence)
    return ConfigError{c.context.randn ? "contextInput.randn[1]" : "contextText",
                       "the key length (" + std::to_string(s.keyLen) + ") exceeds the limit of " +
                           std::to_string(kMaxTokensPerSequence) + " tokens"};
  if (s.vocabSize > kMaxVocab)
    return ConfigError{"vocab", "the vocab has " + std::to_string(s.vocabSize) + " tokens; the limit is " +
                                    std::to_string(kMaxVocab)};
  if (c.embeddingValues) {
    const std::vector<int64_t> expected = {s.vocabSize, c.dModel};
    if (c.embeddingValues->shape != expected)
      return ConfigError{"embedding.values", "embedding.values must be " + shapeText(expected) +
                                                 " ([len(vocab), dModel]), got " +
                                                 shapeText(c.embeddingValues->shape)};
  }
  const int64_t bytes = intermediateBytes(c, s);
  if (bytes > kMaxIntermediateBytes)
    return ConfigError{"dModel", "this run needs " + std::to_string(bytes >> 20) +
                                     " MiB of intermediates; the memory limit is " +
                                     std::to_string(kMaxIntermediateBytes >> 20) +
                                     " MiB (fewer tokens, heads or a smaller dModel)"};
  return std::nullopt;
}

}  // namespace attention_lab
