#include "llama_config.h"

#include <vector>

#include "config_json_fields.h"
#include "size_limits.h"
#include "text_format.h"

namespace attention_lab {
namespace {

// "1, 2, 4": the choices an error lists.
std::string listed(const std::vector<int64_t>& values) {
  std::string text;
  for (int64_t v : values) text += (text.empty() ? "" : ", ") + std::to_string(v);
  return text;
}

// not-one-of on `key`: `got` is not among `choices`.
Status notOneOf(const char* key, const std::string& choices, const std::string& got) {
  const std::string field = llamaConfigField(key);
  return fieldError(field, "not-one-of", {{"field", field}, {"choices", choices}, {"got", got}});
}

// model_type: "llama" or "qwen2".
Status readFamily(const JsonValue& json, LlamaFamily& out) {
  const JsonValue* v = json.find("model_type");
  const std::string field = llamaConfigField("model_type");
  if (!v) return fieldError(field, "model-config-missing", {{"field", field}});
  for (LlamaFamily family : {LlamaFamily::Llama, LlamaFamily::Qwen2})
    if (v->isString() && v->string() == llamaFamilyName(family)) {
      out = family;
      return {};
    }
  return notOneOf("model_type", "\"llama\", \"qwen2\"",
                  v->isString() ? "\"" + v->string() + "\"" : JsonValue::typeName(v->type()));
}

// num_attention_heads: divides hidden_size into heads of an even head_dim (RoPE rotates pairs of
// coordinates: HF's cat((freqs, freqs)) is one wider than an odd head_dim). The error lists the head
// counts that would.
Status checkHeads(const LlamaConfig& c) {
  if (c.hiddenSize % c.nHead == 0 && c.headDim() % 2 == 0) return {};
  std::vector<int64_t> fit;
  for (int64_t h = 1; h <= kMaxHeads && h <= c.hiddenSize; ++h)
    if (c.hiddenSize % h == 0 && (c.hiddenSize / h) % 2 == 0) fit.push_back(h);
  // An odd hidden_size has no even head_dim: the field at fault is hidden_size, and its neighbours would do.
  if (fit.empty()) {
    std::vector<int64_t> even = {c.hiddenSize + 1};
    if (c.hiddenSize > 2) even.insert(even.begin(), c.hiddenSize - 1);
    return notOneOf("hidden_size", listed(even), std::to_string(c.hiddenSize));
  }
  return notOneOf("num_attention_heads", listed(fit), std::to_string(c.nHead));
}

// num_key_value_heads: absent (llama) or null = num_attention_heads; otherwise a divisor of it.
Status readKvHeads(const JsonValue& json, LlamaConfig& c) {
  const JsonValue* v = json.find("num_key_value_heads");
  c.nKvHead = c.nHead;
  if ((!v && c.family == LlamaFamily::Llama) || (v && v->isNull())) return {};
  if (Status s = readConfigSize(json, "num_key_value_heads", 1, kMaxHeads, c.nKvHead)) return s;
  if (c.nHead % c.nKvHead == 0) return {};
  std::vector<int64_t> divisors;
  for (int64_t k = 1; k <= c.nHead; ++k)
    if (c.nHead % k == 0) divisors.push_back(k);
  return notOneOf("num_key_value_heads", listed(divisors), std::to_string(c.nKvHead));
}

// head_dim: absent, null, or the one the forward computes (hidden_size / num_attention_heads).
Status checkHeadDim(const JsonValue& json, const LlamaConfig& c) {
  const JsonValue* v = json.find("head_dim");
  if (!v || v->isNull() || (v->isNumber() && v->number() == static_cast<double>(c.headDim()))) return {};
  return notOneOf("head_dim", "null, " + std::to_string(c.headDim()),
                  v->isNumber() ? formatNumber(v->number()) : JsonValue::typeName(v->type()));
}

}  // namespace

const char* llamaFamilyName(LlamaFamily family) { return family == LlamaFamily::Qwen2 ? "qwen2" : "llama"; }

std::string llamaConfigField(const char* key) { return configJsonField(key); }

int64_t llamaWeightCount(const LlamaConfig& c) {
  const int64_t d = c.hiddenSize, q = c.nHead * c.headDim(), kv = c.nKvHead * c.headDim(), inner = c.intermediateSize;
  const int64_t perLayer = d                                 // input_layernorm
                           + d * (q + 2 * kv)                // q_proj, k_proj, v_proj
                           + (c.qkvBias() ? q + 2 * kv : 0)  // their biases
                           + q * d + (c.oBias() ? d : 0)     // o_proj
                           + d                               // post_attention_layernorm
                           + 3 * d * inner;                  // gate_proj, up_proj, down_proj
  return c.vocabSize * d * (c.tieWordEmbeddings ? 1 : 2) + c.nLayer * perLayer + d;
}

Status parseLlamaConfig(const std::string& text, LlamaConfig& out) {
  JsonParseResult parsed;
  if (Status s = parseConfigJsonObject(text, parsed)) return s;
  const JsonValue& json = parsed.value;
  LlamaConfig c;
  if (Status s = readFamily(json, c.family)) return s;
  if (Status s = readConfigSize(json, "num_hidden_layers", 1, kMaxModelLayers, c.nLayer)) return s;
  if (Status s = readConfigSize(json, "hidden_size", 1, kMaxDModel, c.hiddenSize)) return s;
  if (Status s = readConfigSize(json, "num_attention_heads", 1, kMaxHeads, c.nHead)) return s;
  if (Status s = checkHeads(c)) return s;
  if (Status s = readKvHeads(json, c)) return s;
  if (Status s = checkHeadDim(json, c)) return s;
  if (Status s = readConfigSize(json, "intermediate_size", 1, kMaxModelInner, c.intermediateSize)) return s;
  if (Status s = readConfigSize(json, "vocab_size", 1, kMaxModelVocab, c.vocabSize)) return s;
  // No table is allocated for the positions (RoPE computes them): Qwen2's 32768 or 131072 are read as given.
  if (Status s = readConfigSize(json, "max_position_embeddings", 1, int64_t{1} << 30, c.maxPositions)) return s;
  // Positive, and small enough that an RMSNorm still normalizes.
  if (Status s = readConfigFloat(json, "rms_norm_eps", 1e-12, 1.0, "1e-12", "1", c.rmsNormEps)) return s;
  if (Status s = readConfigFloat(json, "rope_theta", 1.0, 1e12, "1", "1e12", c.ropeTheta)) return s;
  if (Status s = readConfigBool(json, "tie_word_embeddings", c.tieWordEmbeddings)) return s;
  if (Status s = readConfigFixed(json, "hidden_act", JsonValue::makeString("silu"), "\"silu\"")) return s;
  if (Status s = readConfigFixed(json, "rope_scaling", JsonValue::makeNull(), "null")) return s;
  if (c.family == LlamaFamily::Llama) {
    if (Status s = readConfigBool(json, "attention_bias", c.attentionBias)) return s;
    if (Status s = readConfigFixed(json, "mlp_bias", JsonValue::makeBool(false), "false")) return s;
  } else {
    if (Status s = readConfigFixed(json, "use_sliding_window", JsonValue::makeBool(false), "false")) return s;
  }
  if (Status s = checkModelWeightCount(llamaWeightCount(c))) return s;
  out = c;
  return {};
}

}  // namespace attention_lab
