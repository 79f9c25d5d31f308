// Every PyTorch fixture through the native engine: each tensor within
// 1e-5 abs + 1e-4 rel of PyTorch 1.13, NaN and ±inf in the same places.
// Prints the worst absolute difference per fixture.
#include <gtest/gtest.h>

#include <cstdio>

#include "attention.h"
#include "schema.h"
#include "test_support.h"

namespace attention_lab {
namespace {

std::vector<std::string> fixtureNames() {
  const JsonValue index = testing::readJsonFile(testing::fixturePath("index.json"));
  std::vector<std::string> names;
  for (const auto& v : index.array()) names.push_back(v.string());
  return names;
}

std::vector<std::string> strings(const JsonValue& v) {
  std::vector<std::string> out;
  for (const auto& s : v.array()) out.push_back(s.string());
  return out;
}

class FixtureTest : public ::testing::TestWithParam<std::string> {};

TEST_P(FixtureTest, MatchesPyTorch) {
  const JsonValue fixture = testing::readJsonFile(testing::fixturePath(GetParam() + ".json"));
  AttentionConfig config;
  ASSERT_TRUE(testing::succeeded(parseConfig(*fixture.find("config"), config)));
  AttentionResult r;
  ASSERT_TRUE(testing::succeeded(runAttention(config, r)));
  const JsonValue& expected = *fixture.find("expected");

  EXPECT_EQ(r.vocab, strings(*expected.find("vocab")));
  EXPECT_EQ(r.unknownTokens, strings(*expected.find("unknownTokens")));
  EXPECT_EQ(r.headDim, static_cast<int64_t>(expected.find("headDim")->number()));
  EXPECT_NEAR(r.scaleFactor, expected.find("scaleFactor")->number(), 1e-12);
  std::vector<std::vector<std::string>> tokens;
  for (const auto& row : expected.find("tokens")->array()) tokens.push_back(strings(row));
  EXPECT_EQ(r.tokens, tokens);

  const auto& tensors = expected.find("tensors")->members();
  EXPECT_EQ(r.count(), tensors.size()) << "number of tensors";
  double worst = 0;
  std::string worstName;
  for (const auto& [name, want] : tensors) {
    const Tensor* got = r.find(name);
    ASSERT_NE(got, nullptr) << "missing tensor " << name;
    std::vector<int64_t> shape;
    for (const auto& n : want.find("shape")->array()) shape.push_back(static_cast<int64_t>(n.number()));
    ASSERT_EQ(got->shape, shape) << name;
    const auto& data = want.find("data")->array();
    int reported = 0;
    for (size_t i = 0; i < data.size(); ++i) {
      const float e = testing::fixtureNumber(data[i]), g = got->data[i];
      if (!std::isfinite(e)) {
        EXPECT_TRUE(std::isnan(e) ? std::isnan(g) : e == g) << name << "[" << i << "]: torch " << e << ", ours " << g;
        continue;
      }
      const double diff = std::fabs(static_cast<double>(e) - g);
      if (diff > worst) worst = diff, worstName = name;
      if (!(diff <= 1e-5 + 1e-4 * std::fabs(e)) && reported++ < 3)
        ADD_FAILURE() << name << "[" << i << "]: torch " << e << ", ours " << g;
    }
  }
  std::printf("[ fixture  ] %-28s worst |ours - torch| = %.3g (%s)\n", GetParam().c_str(), worst, worstName.c_str());
}

INSTANTIATE_TEST_SUITE_P(PyTorch, FixtureTest, ::testing::ValuesIn(fixtureNames()), [](const auto& info) {
  std::string name = info.param;
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
});

}  // namespace
}  // namespace attention_lab
