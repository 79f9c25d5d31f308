// How numbers, shapes and JSON values are written in error messages and in
// the exported schema.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "json.h"

namespace attention_lab {

// 8 -> "8", 0.5 -> "0.5", 9007199254740992 -> "9007199254740992" (never 9.0072e+15).
std::string formatNumber(double x);
// [4, 8] -> "[4, 8]"
std::string shapeText(const std::vector<int64_t>& shape);
// A value as an error shows it: 7.5, "abc" (cut at 40 characters, never
// inside a UTF-8 sequence), a number beyond a double as written (1e400, cut
// at 40 characters too), "an array", null.
std::string describeJson(const JsonValue& value);
// s as a JSON string literal, quotes included.
std::string jsonQuote(const std::string& s);

}  // namespace attention_lab
