// The two Embind glues' JSON writing (bindings.cpp, the engine's;
// tiny_bindings.cpp, the tiny model's): JSON text for a result's metadata,
// since one string parsed once by JSON.parse costs far less than building the
// object one Embind call at a time. Arrays stay in wasm memory and travel as
// {"$array": {offset, length}}; web/api/index.js copies each out at once.
#pragma once

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "errors.h"
#include "text_format.h"

namespace attention_lab::glue {

inline std::string quoted(const std::string& s) { return jsonQuote(s); }
inline std::string quoted(int64_t n) { return std::to_string(n); }

template <typename T>
std::string jsonArray(const std::vector<T>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? "," : "") + quoted(items[i]);
  return out + "]";
}

// {"name": "value", ...}
inline std::string paramsJson(const ErrorParams& params) {
  std::string out = "{";
  for (const auto& [name, value] : params) out += (out.size() > 1 ? "," : "") + quoted(name) + ":" + quoted(value);
  return out + "}";
}

// {field, code, params, message}
inline std::string configErrorJson(const ConfigError& error) {
  return "{\"field\":" + quoted(error.field) + ",\"code\":" + quoted(error.code) +
         ",\"params\":" + paramsJson(error.params) + ",\"message\":" + quoted(error.message) + "}";
}

// {"ok": false, "error": {field, code, params, message}}
inline std::string failedJson(const ConfigError& error) {
  return "{\"ok\":false,\"error\":" + configErrorJson(error) + "}";
}

// [{code, params, message}, ...]
inline std::string warningsJson(const std::vector<Warning>& warnings) {
  std::string out = "[";
  for (size_t i = 0; i < warnings.size(); ++i)
    out += std::string(i ? "," : "") + "{\"code\":" + quoted(warnings[i].code) +
           ",\"params\":" + paramsJson(warnings[i].params) + ",\"message\":" + quoted(warnings[i].message) + "}";
  return out + "]";
}

// A float array left in wasm memory until the next call of the same kind
// (a stepper's, a tiny run's): {"$array": {offset, length}}.
inline std::string arrayJson(const std::vector<float>& data) {
  return "{\"$array\":{\"offset\":" + std::to_string(reinterpret_cast<uintptr_t>(data.data())) +
         ",\"length\":" + std::to_string(data.size()) + "}}";
}

// {"name": {"shape": [...], "data": {"$array": {offset, length}}}, ...} from
// (name, tensor pointer) pairs: a model's kept tensors (each family's namedTensors).
template <typename NamedTensors>
std::string tensorsJson(const NamedTensors& tensors) {
  std::string out = "{";
  for (const auto& [name, t] : tensors)
    (((out += out.size() > 1 ? ",\"" : "\"") += name) += "\":{\"shape\":") +=
        jsonArray(t->shape) + ",\"data\":" + arrayJson(t->data) + "}";
  return out + "}";
}

// A number, or {"$number": "NaN"} (JSON has no NaN).
inline std::string numberJson(double x) {
  if (std::isnan(x)) return "{\"$number\":\"NaN\"}";
  if (std::isinf(x)) return x > 0 ? "{\"$number\":\"Infinity\"}" : "{\"$number\":\"-Infinity\"}";
  return formatNumber(x);
}

// A JS Uint8Array (or any array-like of bytes) copied into wasm memory.
inline std::vector<uint8_t> bytesOf(const emscripten::val& array) {
  std::vector<uint8_t> data(array["length"].as<size_t>());
  emscripten::val(emscripten::typed_memory_view(data.size(), data.data())).call<void>("set", array);
  return data;
}

// The names of a list JS joined by "," ("a,b" -> {"a", "b"}; "" -> {}): the tensors wanted, the all-heads ones.
inline std::vector<std::string> commaSeparated(std::string_view joined) {
  std::vector<std::string> names;
  for (size_t start = 0, end = 0; start < joined.size(); start = end + 1) {
    end = std::min(joined.find(',', start), joined.size());
    names.emplace_back(joined.substr(start, end - start));
  }
  return names;
}

}  // namespace attention_lab::glue
