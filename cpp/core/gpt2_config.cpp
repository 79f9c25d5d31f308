#include "gpt2_config.h"

#include <cmath>

#include "json.h"
#include "size_limits.h"
#include "text_format.h"

namespace attention_lab {
namespace {

// A config.json is a few dozen values; this bounds the parse of a hostile one.
constexpr size_t kMaxConfigValues = 1 << 16;

Status wrongType(const std::string& field, const char* expected, const JsonValue& v) {
  return fieldError(field, "wrong-type",
                    {{"field", field}, {"expected", expected}, {"got", JsonValue::typeName(v.type())}});
}

// config.json's whole number `key` in [min, max]; `fallback` (config.json's other name
// for it, n_ctx for n_positions) is read when `key` is absent.
Status readSize(const JsonValue& json, const char* key, int64_t min, int64_t max, int64_t& out,
                const char* fallback = nullptr) {
  const JsonValue* v = json.find(key);
  if (!v && fallback) {
    v = json.find(fallback);
    key = v ? fallback : key;
  }
  const std::string field = gpt2ConfigField(key);
  if (!v) return fieldError(field, "model-config-missing", {{"field", field}});
  if (!v->isNumber()) return wrongType(field, "a whole number", *v);
  const double x = v->number();
  if (x != std::floor(x)) return fieldError(field, "not-whole", {{"field", field}, {"got", formatNumber(x)}});
  if (!(x >= static_cast<double>(min) && x <= static_cast<double>(max)))
    return fieldError(
        field, "out-of-range",
        {{"field", field}, {"got", formatNumber(x)}, {"min", std::to_string(min)}, {"max", std::to_string(max)}});
  out = static_cast<int64_t>(x);
  return {};
}

// A field the forward computes one way only: absent, or the one value (`choice`, as JSON writes it).
Status readFixed(const JsonValue& json, const char* key, const JsonValue& choice, const char* choiceText) {
  const JsonValue* v = json.find(key);
  if (!v) return {};
  const bool same = v->type() == choice.type() &&
                    (v->isString() ? v->string() == choice.string() : v->isBool() && v->boolean() == choice.boolean());
  if (same) return {};
  const std::string field = gpt2ConfigField(key);
  const std::string got = v->isString() ? "\"" + v->string() + "\""
                          : v->isBool() ? (v->boolean() ? "true" : "false")
                                        : JsonValue::typeName(v->type());
  return fieldError(field, "not-one-of", {{"field", field}, {"choices", choiceText}, {"got", got}});
}

}  // namespace

std::string gpt2ConfigField(const char* key) { return std::string("config.json.") + key; }

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
  const JsonParseResult parsed = parseJson(text, kMaxConfigValues);
  if (!parsed.ok) return fieldError("config.json", "model-config-not-json", {{"reason", parsed.error}});
  if (!parsed.value.isObject())
    return fieldError("config.json", "model-config-not-json",
                      {{"reason", std::string("it is ") + JsonValue::typeName(parsed.value.type())}});
  const JsonValue& json = parsed.value;
  Gpt2Config c;
  if (Status s = readFixed(json, "model_type", JsonValue::makeString("gpt2"), "\"gpt2\"")) return s;
  if (Status s = readSize(json, "n_layer", 1, kMaxModelLayers, c.nLayer)) return s;
  if (Status s = readSize(json, "n_head", 1, kMaxHeads, c.nHead)) return s;
  if (Status s = readSize(json, "n_embd", 1, kMaxDModel, c.nEmbd)) return s;
  if (c.nEmbd % c.nHead != 0)
    return fieldError(gpt2ConfigField("n_embd"), "model-config-not-divisible",
                      {{"n_embd", std::to_string(c.nEmbd)}, {"n_head", std::to_string(c.nHead)}});
  if (Status s = readSize(json, "n_positions", 1, kMaxModelPositions, c.nPositions, "n_ctx")) return s;
  if (Status s = readSize(json, "vocab_size", 1, kMaxModelVocab, c.vocabSize)) return s;
  const JsonValue* inner = json.find("n_inner");
  c.nInner = 4 * c.nEmbd;
  if (inner && !inner->isNull())
    if (Status s = readSize(json, "n_inner", 1, kMaxModelInner, c.nInner)) return s;
  if (const JsonValue* eps = json.find("layer_norm_epsilon")) {
    const std::string field = gpt2ConfigField("layer_norm_epsilon");
    if (!eps->isNumber()) return wrongType(field, "a number", *eps);
    // Positive, and small enough that a LayerNorm still normalizes.
    if (!(eps->number() >= 1e-12 && eps->number() <= 1.0))
      return fieldError(field, "out-of-range",
                        {{"field", field}, {"got", formatNumber(eps->number())}, {"min", "1e-12"}, {"max", "1"}});
    c.layerNormEpsilon = static_cast<float>(eps->number());
  }
  if (Status s = readFixed(json, "activation_function", JsonValue::makeString("gelu_new"), "\"gelu_new\"")) return s;
  if (Status s = readFixed(json, "scale_attn_weights", JsonValue::makeBool(true), "true")) return s;
  for (const char* key : {"scale_attn_by_inverse_layer_idx", "reorder_and_upcast_attn"})
    if (Status s = readFixed(json, key, JsonValue::makeBool(false), "false")) return s;
  const int64_t count = gpt2WeightCount(c);
  if (count * 4 > kMaxModelWeightBytes)
    return fieldError("config.json", "model-too-large",
                      {{"count", std::to_string(count)},
                       {"need", formatNumber(std::ceil(static_cast<double>(count) * 4 / (1 << 20)))},
                       {"limit", std::to_string(kMaxModelWeightBytes >> 20)}});
  out = c;
  return {};
}

}  // namespace attention_lab
