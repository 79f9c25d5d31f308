// runAttention with a set of wanted tensors: only those come back, each equal
// bit for bit to the same tensor of an all-tensors run; equal stages kept once
// (aliases); a result reused from call to call (its buffers lent to the next
// run) gives what a fresh one gives.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "attention.h"
#include "schema.h"
#include "test_support.h"

namespace attention_lab {
namespace {

AttentionResult run(const AttentionConfig& c, TensorSet wanted = TensorSet::all()) {
  AttentionResult r;
  EXPECT_TRUE(testing::succeeded(runAttention(c, r, wanted)));
  return r;
}

TensorSet setOf(const std::vector<std::string>& names) {
  TensorSet set;
  for (const std::string& name : names) EXPECT_TRUE(set.add(name)) << name;
  return set;
}

// Same shape and the same bits (NaN included).
::testing::AssertionResult sameTensor(const Tensor* got, const Tensor* want) {
  if (!got || !want) return ::testing::AssertionFailure() << (got ? "unexpected" : "missing") << " tensor";
  if (got->shape != want->shape) return ::testing::AssertionFailure() << "shapes differ";
  if (got->data.size() != want->data.size() ||
      std::memcmp(got->data.data(), want->data.data(), 4 * want->data.size()) != 0)
    return ::testing::AssertionFailure() << "values differ";
  return ::testing::AssertionSuccess();
}

// Configs that take every path: self and cross, each mask kind and convention,
// dropout 0, between and 1, the additive score, no output projection, a batch.
const std::vector<std::string>& configs() {
  static const std::vector<std::string> list = {
      R"({"text": "the cat sat on the mat", "dModel": 8, "numHeads": 2})",
      R"({"texts": ["the cat sat on the mat", "a dog"], "dModel": 12, "numHeads": 3, "mask": "causal+padding",
          "dropout": {"p": 0.25, "seed": 5}})",
      R"({"text": "one two three four five", "dModel": 8, "numHeads": 2, "mask": "causal",
          "maskConvention": "keep", "maskFill": -1e9, "dropout": {"p": 1}})",
      R"({"text": "one two three", "dModel": 4, "numHeads": 1, "maskConvention": "additive"})",
      R"({"text": "one two three", "dModel": 4, "numHeads": 2, "mask": "causal", "maskConvention": "additive",
          "scale": "d-model", "weights": {"outProj": false}})",
      R"({"text": "he sat by the river bank", "contextText": "the bank of the river was steep", "dModel": 8,
          "numHeads": 2, "score": "additive", "scale": 0.5, "weights": {"init": "torch-mha"}})",
      R"({"input": {"randn": [2, 5, 16]}, "contextInput": {"rand": [2, 7, 16]}, "dModel": 16, "numHeads": 4,
          "dropout": {"p": 0.1}, "weights": {"values": {"b_K": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]}}})",
  };
  return list;
}

TEST(RunOptions, OnlyTheAskedTensorsComeBackEqualToAnAllTensorsRun) {
  const std::vector<std::vector<std::string>> asks = {{"output"},
                                                      {"weights"},
                                                      {"dropped"},
                                                      {"masked"},
                                                      {"scaled", "masked"},
                                                      {"weights", "dropped", "averagedWeights"},
                                                      {"context"},
                                                      {"concat"},
                                                      {"concat", "output"},
                                                      {"Q", "K", "V"},
                                                      {"X", "W_Q", "mask"},
                                                      {"scores", "weights", "context", "output"},
                                                      {}};
  for (const std::string& json : configs()) {
    const AttentionConfig c = testing::parsedConfig(json);
    const AttentionResult all = run(c);
    std::vector<std::vector<std::string>> every = asks;
    for (const char* name : kTensorNames) every.push_back({name});
    for (const auto& names : every) {
      const AttentionResult some = run(c, setOf(names));
      size_t present = 0;
      for (const std::string& name : names) {
        if (!all.find(name)) {
          EXPECT_EQ(some.find(name), nullptr) << name << " in " << json;
          continue;
        }
        ++present;
        EXPECT_TRUE(sameTensor(some.find(name), all.find(name))) << name << " in " << json;
      }
      EXPECT_EQ(some.count(), present) << json;
      EXPECT_EQ(some.vocab, all.vocab);
      EXPECT_EQ(some.tokens, all.tokens);
    }
  }
}

TEST(RunOptions, NaNRowsAreReportedWheneverTheHeadsRun) {
  // Scores overflow to inf: NaN weights (config_test's ReusingAResultStartsAfresh).
  const AttentionConfig c = testing::parsedConfig(R"({"text": "a zz", "vocab": ["a"], "scale": "none",
      "embedding": {"values": [[1e20, 1e20]]}, "dModel": 2, "numHeads": 1, "weights": {"init": "identity"}})");
  EXPECT_EQ(run(c).warnings.size(), 1u);
  EXPECT_EQ(run(c, setOf({"output"})).warnings, run(c).warnings);
  EXPECT_TRUE(run(c, setOf({"X"})).warnings.empty()) << "no heads, no weights to find NaN in";
}

TEST(RunOptions, EqualStagesAreKeptOnceUnderBothNames) {
  // No mask, p = 0: masked is scaled, dropped is weights.
  const AttentionResult plain = run(testing::parsedConfig(R"({"text": "the cat sat", "dModel": 4, "numHeads": 2})"));
  EXPECT_EQ(plain.aliases,
            (std::vector<std::pair<std::string, std::string>>{{"masked", "scaled"}, {"dropped", "weights"}}));
  EXPECT_EQ(plain.find("masked"), plain.find("scaled"));
  EXPECT_EQ(plain.find("dropped"), plain.find("weights"));
  EXPECT_EQ(plain.count(), plain.tensors.size() + 2);
  // One of the pair alone is an ordinary tensor under its own name.
  const AttentionConfig c = testing::parsedConfig(R"({"text": "the cat sat", "dModel": 4, "numHeads": 2})");
  const AttentionResult maskedOnly = run(c, setOf({"masked", "dropped"}));
  EXPECT_TRUE(maskedOnly.aliases.empty());
  ASSERT_EQ(maskedOnly.tensors.size(), 2u);
  EXPECT_EQ(maskedOnly.tensors[0].first, "masked");
  EXPECT_EQ(maskedOnly.tensors[1].first, "dropped");
  EXPECT_TRUE(sameTensor(maskedOnly.find("masked"), plain.find("scaled")));
  EXPECT_TRUE(sameTensor(maskedOnly.find("dropped"), plain.find("weights")));

  // A mask, the additive convention (scaled + 0 makes -0 into +0), or p > 0: separate tensors.
  for (const char* json : {R"({"text": "the cat sat", "dModel": 4, "numHeads": 2, "mask": "causal"})",
                           R"({"text": "the cat sat", "dModel": 4, "numHeads": 2, "maskConvention": "additive"})"}) {
    const AttentionResult r = run(testing::parsedConfig(json));
    EXPECT_NE(r.find("masked"), r.find("scaled")) << json;
    EXPECT_EQ(r.aliases, (std::vector<std::pair<std::string, std::string>>{{"dropped", "weights"}})) << json;
  }
  const AttentionResult dropped = run(testing::parsedConfig(R"({"text": "the cat sat", "dModel": 4, "numHeads": 2,
      "dropout": {"p": 0.5}})"));
  EXPECT_NE(dropped.find("dropped"), dropped.find("weights"));
  EXPECT_FALSE(sameTensor(dropped.find("dropped"), dropped.find("weights")));
}

TEST(RunOptions, AReusedResultGivesWhatAFreshOneGives) {
  // One result through runs of other sizes and other asks: its buffers are
  // lent to each next run, the workspace grows and shrinks back in use.
  AttentionResult reused;
  for (int round = 0; round < 2; ++round)
    for (const std::string& json : configs())
      for (const TensorSet& wanted : {TensorSet::all(), setOf({"output"}), setOf({"weights", "context"})}) {
        const AttentionConfig c = testing::parsedConfig(json);
        ASSERT_TRUE(testing::succeeded(runAttention(c, reused, wanted)));
        const AttentionResult fresh = run(c, wanted);
        ASSERT_EQ(reused.count(), fresh.count()) << json;
        EXPECT_EQ(reused.aliases, fresh.aliases);
        for (size_t i = 0; i < fresh.tensors.size(); ++i) {
          EXPECT_EQ(reused.tensors[i].first, fresh.tensors[i].first);
          EXPECT_TRUE(sameTensor(&reused.tensors[i].second, &fresh.tensors[i].second))
              << fresh.tensors[i].first << " in " << json;
        }
      }
}

}  // namespace
}  // namespace attention_lab
