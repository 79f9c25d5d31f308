#include "config_json_fields.h"

#include <cmath>

#include "size_limits.h"
#include "text_format.h"

namespace attention_lab {
namespace {

// A config.json is a few dozen values; this bounds the parse of a hostile one.
constexpr size_t kMaxConfigValues = 1 << 16;

// A value as an error quotes it: "\"gelu\"", true, or its type's name.
std::string quoted(const JsonValue& v) {
  if (v.isString()) return "\"" + v.string() + "\"";
  if (v.isBool()) return v.boolean() ? "true" : "false";
  if (v.isNumber()) return formatNumber(v.number());
  return JsonValue::typeName(v.type());
}

}  // namespace

std::string configJsonField(const char* key) { return std::string("config.json.") + key; }

Status parseConfigJsonObject(const std::string& text, JsonParseResult& out) {
  out = parseJson(text, kMaxConfigValues);
  if (!out.ok) return fieldError("config.json", "model-config-not-json", {{"reason", out.error}});
  if (!out.value.isObject())
    return fieldError("config.json", "model-config-not-json",
                      {{"reason", std::string("it is ") + JsonValue::typeName(out.value.type())}});
  return {};
}

Status configWrongType(const std::string& field, const char* expected, const JsonValue& v) {
  return fieldError(field, "wrong-type",
                    {{"field", field}, {"expected", expected}, {"got", JsonValue::typeName(v.type())}});
}

Status readConfigSize(const JsonValue& json, const char* key, int64_t min, int64_t max, int64_t& out,
                      const char* fallback) {
  const JsonValue* v = json.find(key);
  if (!v && fallback) {
    v = json.find(fallback);
    key = v ? fallback : key;
  }
  const std::string field = configJsonField(key);
  if (!v) return fieldError(field, "model-config-missing", {{"field", field}});
  if (!v->isNumber()) return configWrongType(field, "a whole number", *v);
  const double x = v->number();
  if (x != std::floor(x)) return fieldError(field, "not-whole", {{"field", field}, {"got", formatNumber(x)}});
  if (!(x >= static_cast<double>(min) && x <= static_cast<double>(max)))
    return fieldError(
        field, "out-of-range",
        {{"field", field}, {"got", formatNumber(x)}, {"min", std::to_string(min)}, {"max", std::to_string(max)}});
  out = static_cast<int64_t>(x);
  return {};
}

Status readConfigFloat(const JsonValue& json, const char* key, double min, double max, const char* minText,
                       const char* maxText, float& out) {
  const JsonValue* v = json.find(key);
  if (!v) return {};
  const std::string field = configJsonField(key);
  if (!v->isNumber()) return configWrongType(field, "a number", *v);
  if (!(v->number() >= min && v->number() <= max))
    return fieldError(field, "out-of-range",
                      {{"field", field}, {"got", formatNumber(v->number())}, {"min", minText}, {"max", maxText}});
  out = static_cast<float>(v->number());
  return {};
}

Status readConfigBool(const JsonValue& json, const char* key, bool& out) {
  const JsonValue* v = json.find(key);
  if (!v || v->isNull()) return {};
  if (!v->isBool()) return configWrongType(configJsonField(key), "true or false", *v);
  out = v->boolean();
  return {};
}

Status readConfigFixed(const JsonValue& json, const char* key, const JsonValue& choice, const char* choiceText) {
  const JsonValue* v = json.find(key);
  if (!v) return {};
  const bool same =
      v->type() == choice.type() && (v->isNull() || (v->isString() ? v->string() == choice.string()
                                                                   : v->isBool() && v->boolean() == choice.boolean()));
  if (same) return {};
  const std::string field = configJsonField(key);
  return fieldError(field, "not-one-of", {{"field", field}, {"choices", choiceText}, {"got", quoted(*v)}});
}

Status checkModelWeightCount(int64_t count) {
  if (count * 4 <= kMaxModelWeightBytes) return {};
  return fieldError("config.json", "model-too-large",
                    {{"count", std::to_string(count)},
                     {"need", formatNumber(std::ceil(static_cast<double>(count) * 4 / (1 << 20)))},
                     {"limit", std::to_string(kMaxModelWeightBytes >> 20)}});
}

}  // namespace attention_lab
