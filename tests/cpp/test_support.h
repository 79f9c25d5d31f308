// Helpers shared by the C++ tests: checking a Status, reading the PyTorch fixtures.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "config.h"
#include "json.h"
#include "schema.h"
#include "status.h"

namespace attention_lab::testing {

// ASSERT_TRUE(succeeded(parseConfigText(text, config))): on failure, prints the field and the message.
inline ::testing::AssertionResult succeeded(const Status& status) {
  if (!status) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << status->field << ": " << status->message;
}

// The config of JSON text, checked: a parse error fails the test, naming the text.
inline AttentionConfig parsedConfig(const std::string& json) {
  AttentionConfig config;
  EXPECT_TRUE(succeeded(parseConfigText(json, config))) << json;
  return config;
}

inline std::string fixturePath(const std::string& name) { return std::string(ATTENTION_LAB_FIXTURES) + "/" + name; }

inline JsonValue readJsonFile(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  JsonParseResult parsed = parseJson(text.str());
  if (!parsed.ok) throw std::runtime_error(path + ": " + parsed.error);
  return parsed.value;
}

// A fixture number: a JSON number, or "NaN" / "Infinity" / "-Infinity".
inline float fixtureNumber(const JsonValue& v) {
  if (v.isNumber()) return static_cast<float>(v.number());
  if (v.string() == "NaN") return NAN;
  return v.string() == "Infinity" ? INFINITY : -INFINITY;
}

}  // namespace attention_lab::testing
