// Helpers of the checkpoint families' tests (gpt2_test.cpp, llama_test.cpp):
// reading a checkpoint's files, comparing a tensor with PyTorch's, checking an
// error against the catalog, editing config.json.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "config.h"
#include "errors.h"
#include "json.h"
#include "status.h"

namespace attention_lab::testing {

inline std::string readText(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

inline std::vector<uint8_t> readBytes(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(file), {});
}

// The error's code is in the catalog and its parameters are exactly its template's.
inline void expectCatalogued(const ConfigError& error) {
  const ErrorKind* kind = findErrorKind(error.code);
  ASSERT_NE(kind, nullptr) << error.code;
  std::vector<std::string> names;
  for (const auto& param : error.params) names.push_back(param.first);
  EXPECT_EQ(names, templateParams(kind->english)) << error.code;
  EXPECT_EQ(error.message.find('{'), std::string::npos) << error.message;
}

// The worst difference of one tensor: absolute, and over the tensor's largest |value|.
struct Worst {
  double diff = 0, relative = 0;
};

// Each tensor must be within 1e-5 of the largest magnitude in PyTorch's tensor (a fixture's
// {"shape", "data"}); the first few misses are reported by `name`.
inline Worst compareWithTorch(const std::string& name, const Tensor& got, const JsonValue& want) {
  std::vector<int64_t> shape;
  for (const auto& n : want.find("shape")->array()) shape.push_back(static_cast<int64_t>(n.number()));
  EXPECT_EQ(got.shape, shape) << name;
  const auto& data = want.find("data")->array();
  if (got.shape != shape || got.data.size() != data.size()) return {INFINITY, INFINITY};
  double scale = 0;
  for (const auto& v : data) scale = std::max(scale, std::fabs(static_cast<double>(static_cast<float>(v.number()))));
  Worst worst;
  int reported = 0;
  for (size_t i = 0; i < data.size(); ++i) {
    const double e = static_cast<float>(data[i].number()), diff = std::fabs(e - got.data[i]);
    worst.diff = std::max(worst.diff, diff);
    if (!(diff <= 1e-5 * scale) && reported++ < 3)
      ADD_FAILURE() << name << "[" << i << "]: torch " << e << ", ours " << got.data[i] << " (largest " << scale << ")";
  }
  worst.relative = scale > 0 ? worst.diff / scale : worst.diff;
  return worst;
}

// The worst difference of each tensor over every run and layer, by name.
struct WorstByName {
  std::map<std::string, Worst> byName;
  void note(const std::string& tensor, const Worst& w) {
    Worst& k = byName[tensor];
    k.diff = std::max(k.diff, w.diff);
    k.relative = std::max(k.relative, w.relative);
  }
};

// config.json's `text` with `member` ("\"n_head\": 3") in place of its own line.
inline std::string withMember(const std::string& text, const std::string& member) {
  const std::string key = member.substr(0, member.find(':'));
  std::string out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.find(key) != std::string::npos) {
      const bool comma = !line.empty() && line.back() == ',';
      line = "  " + member + (comma ? "," : "");
    }
    out += line + "\n";
  }
  return out;
}

// A parameterized test's name from a case name: "n-head-zero" -> n_head_zero.
inline std::string testName(std::string name) {
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

}  // namespace attention_lab::testing
