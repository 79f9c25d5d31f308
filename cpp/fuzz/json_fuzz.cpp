// libFuzzer target: any bytes -> parseJson. Built and run by web/scripts/fuzz.sh
// (clang, ASan, UBSan); reproduce a finding with build/fuzz/json_fuzz <file>.
//
// Besides "no crash, no sanitizer report", every accepted document must:
//   - nest at most 64 levels deep and hold no duplicate keys,
//   - parse again with maxValues = its number of values, and fail with
//     tooManyValues with one fewer,
//   - round-trip: written back as JSON (strings by jsonQuote, numbers with 17
//     digits, or as written when beyond a double), it parses to the same tree,
//     bit for bit.
// A rejected document must have an error "line L, column C: ...", and a
// duplicateKeyPath only for a duplicate key.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>

#include "fuzz_check.h"
#include "json.h"
#include "text_format.h"

namespace attention_lab {
namespace {

// Values (as parseJson counts them: keys are not values) and the depth of
// arrays and objects around the deepest one.
void measure(const JsonValue& v, int depth, size_t& values, int& maxDepth) {
  ++values;
  if (v.isArray() || v.isObject()) maxDepth = std::max(maxDepth, depth + 1);
  for (const JsonValue& item : v.array()) measure(item, depth + 1, values, maxDepth);
  for (const auto& member : v.members()) measure(member.second, depth + 1, values, maxDepth);
}

bool noDuplicateKeys(const JsonValue& v) {
  std::set<std::string> keys;
  for (const auto& member : v.members())
    if (!keys.insert(member.first).second || !noDuplicateKeys(member.second)) return false;
  for (const JsonValue& item : v.array())
    if (!noDuplicateKeys(item)) return false;
  return true;
}

std::string write(const JsonValue& v) {
  switch (v.type()) {
    case JsonValue::Type::Null: return "null";
    case JsonValue::Type::Bool: return v.boolean() ? "true" : "false";
    case JsonValue::Type::Number: {
      if (v.isBeyondDouble()) return v.numberText();
      char buffer[32];
      std::snprintf(buffer, sizeof buffer, "%.17g", v.number());
      return buffer;
    }
    case JsonValue::Type::String: return jsonQuote(v.string());
    case JsonValue::Type::Array: {
      std::string out = "[";
      for (size_t i = 0; i < v.array().size(); ++i) out += (i ? "," : "") + write(v.array()[i]);
      return out + "]";
    }
    case JsonValue::Type::Object: {
      std::string out = "{";
      for (size_t i = 0; i < v.members().size(); ++i)
        out += (i ? "," : "") + jsonQuote(v.members()[i].first) + ":" + write(v.members()[i].second);
      return out + "}";
    }
  }
  return "?";
}

// The same tree; numbers compared bit for bit (so -0 is not 0).
bool same(const JsonValue& a, const JsonValue& b) {
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case JsonValue::Type::Null: return true;
    case JsonValue::Type::Bool: return a.boolean() == b.boolean();
    case JsonValue::Type::Number: {
      const double x = a.number(), y = b.number();
      return std::memcmp(&x, &y, sizeof x) == 0 && a.numberText() == b.numberText();
    }
    case JsonValue::Type::String: return a.string() == b.string();
    case JsonValue::Type::Array:
      if (a.array().size() != b.array().size()) return false;
      for (size_t i = 0; i < a.array().size(); ++i)
        if (!same(a.array()[i], b.array()[i])) return false;
      return true;
    case JsonValue::Type::Object:
      if (a.members().size() != b.members().size()) return false;
      for (size_t i = 0; i < a.members().size(); ++i)
        if (a.members()[i].first != b.members()[i].first || !same(a.members()[i].second, b.members()[i].second))
          return false;
      return true;
  }
  return false;
}

void check(const std::string& text) {
  const JsonParseResult result = parseJson(text);
  if (!result.ok) {
    FUZZ_CHECK(result.error.compare(0, 5, "line ") == 0);
    FUZZ_CHECK(result.error.find(", column ") != std::string::npos);
    FUZZ_CHECK(!result.tooManyValues);
    FUZZ_CHECK(result.duplicateKeyPath.empty() || result.error.find(": duplicate key \"") != std::string::npos);
    return;
  }
  FUZZ_CHECK(result.error.empty() && result.duplicateKeyPath.empty());
  size_t values = 0;
  int depth = 0;
  measure(result.value, 0, values, depth);
  FUZZ_CHECK(depth <= 64);
  FUZZ_CHECK(noDuplicateKeys(result.value));

  const JsonParseResult enough = parseJson(text, values);
  FUZZ_CHECK(enough.ok && !enough.tooManyValues && same(enough.value, result.value));
  const JsonParseResult tooFew = parseJson(text, values - 1);
  FUZZ_CHECK(!tooFew.ok && tooFew.tooManyValues);

  const JsonParseResult again = parseJson(write(result.value));
  FUZZ_CHECK(again.ok);
  FUZZ_CHECK(same(again.value, result.value));
}

}  // namespace
}  // namespace attention_lab

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  attention_lab::check(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
