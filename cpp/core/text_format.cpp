#include "text_format.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace attention_lab {

std::string formatNumber(double x) {
  if (x == std::floor(x) && std::fabs(x) <= 9007199254740992.0) return std::to_string(static_cast<long long>(x));
  // The shortest text that reads back as x: 1.0000000000000002 must not print as 1.
  char buffer[32];
  for (int digits = 9; digits <= 17; ++digits) {
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, x);
    if (std::strtod(buffer, nullptr) == x) break;
  }
  return buffer;
}

std::string shapeText(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

namespace {

// s cut at 40 characters ("..." after it), never inside a UTF-8 sequence.
std::string cut(std::string s) {
  if (s.size() <= 40) return s;
  size_t end = 40;
  // Back up to the start of a UTF-8 sequence: continuation bytes are 10xxxxxx.
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return s.substr(0, end) + "...";
}

}  // namespace

std::string describeJson(const JsonValue& value) {
  switch (value.type()) {
    case JsonValue::Type::Number:
      return value.isBeyondDouble() ? cut(value.numberText()) : formatNumber(value.number());
    case JsonValue::Type::String: return "\"" + cut(value.string()) + "\"";
    default: return JsonValue::typeName(value.type());
  }
}

std::string jsonQuote(const std::string& s) {
  std::string out = "\"";
  out.reserve(s.size() + 2);
  for (size_t i = 0; i < s.size(); ++i) {
    // A run that needs no escape is appended at once.
    size_t end = i;
    while (end < s.size() && s[end] != '"' && s[end] != '\\' && static_cast<unsigned char>(s[end]) >= 0x20) ++end;
    out.append(s, i, end - i);
    if (end == s.size()) break;
    i = end;
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
      out += buffer;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

}  // namespace attention_lab
