// Embind glue, and the only file that includes Emscripten headers.
// JSON text (plus the typed arrays it refers to) in, a plain JS object with
// fresh Float32Arrays out: nothing Embind-owned reaches JS, so callers never
// delete anything.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "attention.h"
#include "errors.h"
#include "json.h"
#include "schema.h"
#include "size_limits.h"

using attention_lab::AttentionConfig;
using attention_lab::AttentionResult;
using attention_lab::ConfigError;
using attention_lab::Status;
using attention_lab::Tensor;
using emscripten::val;

namespace {

val item(const std::string& s) { return val(s); }
val item(int64_t n) { return val(static_cast<double>(n)); }

template <typename T>
val toArray(const std::vector<T>& items) {
  val array = val::array();
  for (size_t i = 0; i < items.size(); ++i) array.set(i, item(items[i]));
  return array;
}

template <typename T>
val toArray2(const std::vector<std::vector<T>>& rows) {
  val array = val::array();
  for (size_t i = 0; i < rows.size(); ++i) array.set(i, toArray(rows[i]));
  return array;
}

val toJs(const Tensor& t) {
  val tensor = val::object();
  tensor.set("shape", toArray(t.shape));
  // A view on wasm memory, copied by slice() into JS-owned memory.
  tensor.set("data", val(emscripten::typed_memory_view(t.data.size(), t.data.data())).call<val>("slice"));
  return tensor;
}

// {name: value, ...}
val paramsToJs(const attention_lab::ErrorParams& params) {
  val out = val::object();
  for (const auto& [name, value] : params) out.set(name, value);
  return out;
}

// {field, code, params, message}
val configErrorToJs(const ConfigError& error) {
  val e = val::object();
  e.set("field", error.field);
  e.set("code", error.code);
  e.set("params", paramsToJs(error.params));
  e.set("message", error.message);
  return e;
}

// A failed run: {ok: false, error}.
val errorToJs(const ConfigError& error) {
  val out = val::object();
  out.set("ok", false);
  out.set("error", configErrorToJs(error));
  return out;
}

val warningsToJs(const std::vector<attention_lab::Warning>& warnings) {
  val array = val::array();
  for (size_t i = 0; i < warnings.size(); ++i) {
    val w = val::object();
    w.set("code", warnings[i].code);
    w.set("params", paramsToJs(warnings[i].params));
    w.set("message", warnings[i].message);
    array.set(i, w);
  }
  return array;
}

val parseJsonText(const std::string& text) { return val::global("JSON").call<val>("parse", val(text)); }

// The typed arrays of one call, read from JS a slice at a time.
class JsTypedArrays : public attention_lab::TypedArrays {
 public:
  explicit JsTypedArrays(val arrays) : arrays_(std::move(arrays)) {
    count_ = arrays_.isArray() ? arrays_["length"].as<unsigned>() : 0;
  }
  size_t count() const override { return count_; }
  int64_t length(size_t k) const override { return static_cast<int64_t>(arrays_[k]["length"].as<double>()); }
  void read(size_t k, int64_t offset, int64_t n, double* out) const override {
    val slice = arrays_[k].call<val>("subarray", static_cast<double>(offset), static_cast<double>(offset + n));
    val(emscripten::typed_memory_view(static_cast<size_t>(n), out)).call<void>("set", slice);
  }

 private:
  val arrays_;
  size_t count_ = 0;
};

// configJson: the config as JSON text, where {"$tensor": k, "shape": [...]}
// stands for typedArrays[k]. wantedTensors: a JS array of names, or null for all.
val run(const std::string& configJson, val typedArrays, val wantedTensors) {
  AttentionConfig config;
  if (Status error = attention_lab::parseConfigText(configJson, JsTypedArrays(typedArrays), config))
    return errorToJs(*error);
  AttentionResult r;
  if (Status error = attention_lab::runAttention(config, r)) return errorToJs(*error);

  val out = val::object();
  out.set("ok", true);
  out.set("tokens", toArray2(r.tokens));
  out.set("ids", toArray2(r.ids));
  if (!r.contextTokens.empty()) {
    out.set("contextTokens", toArray2(r.contextTokens));
    out.set("contextIds", toArray2(r.contextIds));
  }
  out.set("vocab", toArray(r.vocab));
  out.set("unknownTokens", toArray(r.unknownTokens));
  out.set("headDim", static_cast<double>(r.headDim));
  out.set("scaleFactor", r.scaleFactor);
  out.set("warnings", warningsToJs(r.warnings));
  config.resolveDefaults();
  out.set("settings", parseJsonText(attention_lab::settingsJson(config)));
  val tensorsOut = val::object();
  const bool all = wantedTensors.isNull() || wantedTensors.isUndefined();
  for (const auto& entry : r.tensors)
    if (all || wantedTensors.call<bool>("includes", val(entry.first))) tensorsOut.set(entry.first, toJs(entry.second));
  out.set("tensors", tensorsOut);
  return out;
}

val schema() { return parseJsonText(attention_lab::schemaJson()); }

// The engine's verdict on config text as JSON: {field, code, params, message}, or null when it is valid.
val jsonError(const std::string& text) {
  attention_lab::JsonValue json = attention_lab::JsonValue::makeNull();
  if (Status error = attention_lab::parseConfigJson(text, json)) return configErrorToJs(*error);
  return val::null();
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab) {
  emscripten::function("run", &run);
  emscripten::function("schema", &schema);
  emscripten::function("jsonError", &jsonError);
}
