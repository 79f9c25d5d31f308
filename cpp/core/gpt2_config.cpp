#include "gpt2_config.h"

#include "config_json_fields.h"
#include "size_limits.h"

namespace attention_lab {

std::string gpt2ConfigField(const char* key) { return configJsonField(key); }

int64_t gpt2WeightCount(const Gpt2Config& c) {
  const int64_t d = c.nEmbd, inner = c.nInner;
  const int64_t perLayer = 2 * d                // ln_1
                           + d * 3 * d + 3 * d  // attn.c_attn
                           + d * d + d          // attn.c_proj
                           + 2 * d              // ln_2
                           + d * inner + inner  // mlp.c_fc
                           + inner * d + d;     // mlp.c_proj
  return (c.vocabSize + c.nPositions) * d + c.nLayer * perLayer + 2 * d;
}

Status parseGpt2Config(const std::string& text, Gpt2Config& out) {
  JsonParseResult parsed;
  if (Status s = parseConfigJsonObject(text, parsed)) return s;
  const JsonValue& json = parsed.value;
  Gpt2Config c;
  if (Status s = readConfigFixed(json, "model_type", JsonValue::makeString("gpt2"), "\"gpt2\"")) return s;
  if (Status s = readConfigSize(json, "n_layer", 1, kMaxModelLayers, c.nLayer)) return s;
  if (Status s = readConfigSize(json, "n_head", 1, kMaxHeads, c.nHead)) return s;
  if (Status s = readConfigSize(json, "n_embd", 1, kMaxDModel, c.nEmbd)) return s;
  if (c.nEmbd % c.nHead != 0)
    return fieldError(gpt2ConfigField("n_embd"), "model-config-not-divisible",
                      {{"n_embd", std::to_string(c.nEmbd)}, {"n_head", std::to_string(c.nHead)}});
  if (Status s = readConfigSize(json, "n_positions", 1, kMaxModelPositions, c.nPositions, "n_ctx")) return s;
  if (Status s = readConfigSize(json, "vocab_size", 1, kMaxModelVocab, c.vocabSize)) return s;
  const JsonValue* inner = json.find("n_inner");
  c.nInner = 4 * c.nEmbd;
  if (inner && !inner->isNull())
    if (Status s = readConfigSize(json, "n_inner", 1, kMaxModelInner, c.nInner)) return s;
  // Positive, and small enough that a LayerNorm still normalizes.
  if (Status s = readConfigFloat(json, "layer_norm_epsilon", 1e-12, 1.0, "1e-12", "1", c.layerNormEpsilon)) return s;
  if (Status s = readConfigFixed(json, "activation_function", JsonValue::makeString("gelu_new"), "\"gelu_new\""))
    return s;
  if (Status s = readConfigFixed(json, "scale_attn_weights", JsonValue::makeBool(true), "true")) return s;
  for (const char* key : {"scale_attn_by_inverse_layer_idx", "reorder_and_upcast_attn"})
    if (Status s = readConfigFixed(json, key, JsonValue::makeBool(false), "false")) return s;
  if (Status s = checkModelWeightCount(gpt2WeightCount(c))) return s;
  out = c;
  return {};
}

}  // namespace attention_lab
