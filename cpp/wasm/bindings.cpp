// Embind glue, and the only file that includes Emscripten headers.
// JSON text in, a plain JS object with fresh Float32Arrays out: nothing
// Embind-owned reaches JS, so callers never delete anything.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "attention.h"
#include "config_json.h"

using attention_lab::AttentionOutcome;
using attention_lab::ConfigError;
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

val errorToJs(const ConfigError& error) {
  val out = val::object();
  out.set("ok", false);
  val e = val::object();
  e.set("field", error.field);
  e.set("message", error.message);
  out.set("error", e);
  return out;
}

// wantedTensors: a JS array of names, or null for every tensor.
val run(const std::string& configJson, val wantedTensors) {
  const auto parsed = attention_lab::parseConfigText(configJson);
  if (!parsed.ok) return errorToJs(parsed.error);
  const AttentionOutcome outcome = attention_lab::runAttention(parsed.config);
  if (!outcome.ok) return errorToJs(outcome.error);

  const auto& r = outcome.result;
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
  out.set("warnings", toArray(r.warnings));
  val tensors = val::object();
  const bool all = wantedTensors.isNull() || wantedTensors.isUndefined();
  for (const auto& entry : r.tensors)
    if (all || wantedTensors.call<bool>("includes", val(entry.first))) tensors.set(entry.first, toJs(entry.second));
  out.set("tensors", tensors);
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab) { emscripten::function("run", &run); }
