#include "checkpoint.h"

#include "json.h"
#include "size_limits.h"

namespace attention_lab {
namespace {

// A config.json is a few dozen values; this bounds the parse of a hostile one
// before the family's own parser reads it again.
constexpr size_t kMaxConfigValues = 1 << 16;

template <typename Named>
void append(std::vector<RunTensor>& out, const Named& named) {
  for (const auto& [name, tensor] : named) out.emplace_back(name, tensor);
}

}  // namespace

Status parseCheckpointConfig(const std::string& text, Checkpoint& out) {
  const JsonParseResult parsed = parseJson(text, kMaxConfigValues);
  const JsonValue* type = parsed.ok && parsed.value.isObject() ? parsed.value.find("model_type") : nullptr;
  // GPT-2's own config.json has a model_type; one without is read as GPT-2's, whose parser explains what is missing.
  if (!type || (type->isString() && type->string() == "gpt2")) {
    out.family = ModelFamily::Gpt2;
    return parseGpt2Config(text, out.gpt2);
  }
  if (type->isString() && (type->string() == "llama" || type->string() == "qwen2")) {
    out.family = ModelFamily::Llama;
    return parseLlamaConfig(text, out.llama);
  }
  const std::string field = gpt2ConfigField("model_type");
  const std::string got = type->isString() ? "\"" + type->string() + "\"" : JsonValue::typeName(type->type());
  return fieldError(field, "not-one-of",
                    {{"field", field}, {"choices", "\"gpt2\", \"llama\", \"qwen2\""}, {"got", got}});
}

namespace {

// The most tokens a run can read: the model's positions, or fewer when the tensors a run keeps
// would pass kMaxIntermediateBytes (GPT-2 small: 376 of its 1,024 positions).
int64_t fittingTokens(const Checkpoint& c, int64_t positions) {
  const auto kept = [&](int64_t T) {
    return c.family == ModelFamily::Llama ? llamaKeptBytes(c.llama, T) : gpt2KeptBytes(c.gpt2, T);
  };
  int64_t fits = 0, over = positions + 1;  // kept(fits) is within the limit (or fits is 0); kept(over) is not
  while (over - fits > 1) {
    const int64_t T = fits + (over - fits) / 2;
    (kept(T) <= kMaxIntermediateBytes ? fits : over) = T;
  }
  return fits;
}

}  // namespace

CheckpointSizes checkpointSizes(const Checkpoint& c) {
  if (c.family == ModelFamily::Llama) {
    const LlamaConfig& l = c.llama;
    return {llamaFamilyName(l.family),        l.nLayer,   l.nHead, l.nKvHead, l.hiddenSize, l.headDim(), l.vocabSize,
            fittingTokens(c, l.maxPositions), l.qkvBias()};
  }
  const Gpt2Config& g = c.gpt2;
  return {"gpt2", g.nLayer, g.nHead, g.nHead, g.nEmbd, g.headDim(), g.vocabSize, fittingTokens(c, g.nPositions), true};
}

int64_t checkpointWeightCount(const Checkpoint& c) {
  return c.family == ModelFamily::Llama ? llamaWeightCount(c.llama) : gpt2WeightCount(c.gpt2);
}

std::vector<WeightSlot> checkpointSlots(Checkpoint& c, const std::function<bool(const std::string&)>& has) {
  if (c.family == ModelFamily::Llama) return llamaWeightSlots(c.llama, c.llamaWeights);
  c.gpt2Weights.prefix = gpt2KeyPrefix(has);
  return gpt2WeightSlots(c.gpt2, c.gpt2Weights);
}

Status runCheckpoint(const Checkpoint& c, const std::vector<int64_t>& ids, CheckpointRun& out, bool allLogits) {
  out = CheckpointRun{};
  out.family = c.family;
  // Past the tokens that fit in memory: the limit the page and the CLI state, not the bytes it would take.
  if (const int64_t max = checkpointSizes(c).maxTokens; static_cast<int64_t>(ids.size()) > max)
    return fieldError("ids", "model-too-many-tokens",
                      {{"field", "ids"}, {"count", std::to_string(ids.size())}, {"max", std::to_string(max)}});
  const Status s = c.family == ModelFamily::Llama ? runLlamaForward(c.llama, c.llamaWeights, ids, out.llama, allLogits)
                                                  : runGpt2Forward(c.gpt2, c.gpt2Weights, ids, out.gpt2, allLogits);
  if (s) return s;
  for (const auto& layer : out.layers())
    for (const auto& [name, tensor] : layer)
      if (std::string(name) == "weights") out.headScores.push_back(measureHeadScores(*tensor, ids));
  return {};
}

std::vector<std::string> checkpointTensorNames(const Checkpoint& c) {
  CheckpointRun names;  // no numbers: one empty layer of the family, for its tensors' names
  names.family = c.family;
  names.gpt2.layers.resize(1);
  names.llama.layers.resize(1);
  std::vector<std::string> out;
  const auto layers = names.layers();  // kept: a range over layers()[0] of the temporary would dangle
  for (const auto& [name, tensor] : names.tensors()) out.emplace_back(name);
  for (const auto& [name, tensor] : layers[0]) out.emplace_back(name);
  return out;
}

std::vector<int64_t> CheckpointRun::ids() const { return family == ModelFamily::Llama ? llama.ids : gpt2.ids; }

std::vector<RunTensor> CheckpointRun::tensors() const {
  std::vector<RunTensor> out;
  if (family == ModelFamily::Llama)
    append(out, namedTensors(llama));
  else
    append(out, namedTensors(gpt2));
  return out;
}

std::vector<std::vector<RunTensor>> CheckpointRun::layers() const {
  std::vector<std::vector<RunTensor>> out;
  if (family == ModelFamily::Llama)
    for (const LlamaLayer& layer : llama.layers) append(out.emplace_back(), namedTensors(layer));
  else
    for (const Gpt2Layer& layer : gpt2.layers) append(out.emplace_back(), namedTensors(layer));
  return out;
}

}  // namespace attention_lab
