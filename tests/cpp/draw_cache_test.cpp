// The draw caches (draw_cache.h): a run with the caches warm gives exactly the
// tensors of a cold run, for configs that differ in every way the draws
// depend on; a repeated run draws nothing; changing anything the weights
// depend on misses.
#include "draw_cache.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "attention.h"
#include "schema.h"
#include "test_support.h"

namespace attention_lab {
namespace {

AttentionResult run(const std::string& json) {
  const AttentionConfig config = testing::parsedConfig(json);
  AttentionResult result;
  EXPECT_TRUE(testing::succeeded(runAttention(config, result))) << json;
  return result;
}

AttentionResult runCold(const std::string& json) {
  clearDrawCaches();
  return run(json);
}

// Every tensor with the same name, shape and bits.
void expectBitIdentical(const AttentionResult& want, const AttentionResult& got, const std::string& what) {
  ASSERT_EQ(want.tensors.size(), got.tensors.size()) << what;
  for (size_t i = 0; i < want.tensors.size(); ++i) {
    const auto& [name, a] = want.tensors[i];
    const Tensor& b = got.tensors[i].second;
    EXPECT_EQ(name, got.tensors[i].first) << what;
    EXPECT_EQ(a.shape, b.shape) << what << " " << name;
    ASSERT_EQ(a.data.size(), b.data.size()) << what << " " << name;
    EXPECT_EQ(std::memcmp(a.data.data(), b.data.data(), a.data.size() * sizeof(float)), 0) << what << " " << name;
  }
}

// Configs that differ in what the draws depend on: seeds, inits, layouts,
// sizes, vocab, weight seeds, random inputs, dropout after the weights.
const std::vector<std::string> kConfigs = {
    R"({"text": "the cat sat on the mat", "dModel": 8, "numHeads": 2})",
    R"({"text": "the cat sat on the mat", "dModel": 8, "numHeads": 2, "seed": 7})",
    R"({"text": "the cat sat on the mat today", "dModel": 8, "numHeads": 2})",
    R"({"text": "the mat sat on the cat", "dModel": 8, "numHeads": 2})",
    R"({"text": "the cat sat on the mat", "dModel": 16, "numHeads": 2})",
    R"({"text": "the cat sat on the mat", "dModel": 16, "numHeads": 4})",
    R"({"text": "the cat sat on the mat", "dModel": 8, "numHeads": 2, "weights": {"init": "torch-rand"}})",
    R"({"text": "the cat sat on the mat", "dModel": 8, "numHeads": 2, "weights": {"init": "torch-mha"}})",
    R"({"text": "the cat sat on the mat", "dModel": 8, "numHeads": 2, "weights": {"init": "torch-linear-clones"}})",
    R"({"text": "the cat sat on the mat", "dModel": 8, "numHeads": 2, "weights": {"init": "identity"}})",
    R"({"text": "the cat sat on the mat", "dModel": 8, "numHeads": 4, "numKVHeads": 2})",
    R"({"text": "the cat sat on the mat", "dModel": 8, "numHeads": 4, "numKVHeads": 1})",
    R"({"text": "the cat sat on the mat", "dModel": 8, "numHeads": 2, "weights": {"layout": "per-head"}})",
    R"({"text": "the cat sat on the mat", "dModel": 8, "numHeads": 2, "weights": {"qkvBias": true}})",
    R"({"text": "the cat sat on the mat", "dModel": 8, "numHeads": 2, "weights": {"outProj": false}})",
    R"({"text": "the cat sat on the mat", "dModel": 8, "numHeads": 2, "weights": {"seed": 3}})",
    R"({"text": "the cat sat on a mat", "dModel": 8, "numHeads": 2, "weights": {"seed": 3}})",
    R"({"text": "the cat sat on the mat", "dModel": 8, "numHeads": 2, "score": "additive"})",
    R"({"text": "the cat sat on the mat", "dModel": 8, "numHeads": 2, "score": "additive", "additiveHidden": 5})",
    R"({"text": "the cat sat on the mat", "dModel": 8, "numHeads": 2, "dropout": {"p": 0.3}})",
    R"({"text": "the cat sat on the mat", "dModel": 8, "numHeads": 2, "dropout": {"p": 0.3}, "weights": {"seed": 3}})",
    R"({"text": "the cat sat on the mat", "dModel": 8, "numHeads": 2, "embedding": {"edits": [["cat", 0, 5]]}})",
    R"({"text": "the cat sat on the mat", "dModel": 8, "numHeads": 2, "weights": {"edits": {"W_Q": [[0, 1, 3]]}}})",
    R"({"text": "the cat", "contextText": "a dog ran", "dModel": 8, "numHeads": 2})",
    R"({"input": {"randn": [2, 20, 8]}, "dModel": 8, "numHeads": 2})",
    R"({"input": {"randn": [2, 21, 8]}, "dModel": 8, "numHeads": 2})",
    R"({"input": {"rand": [1, 5, 8]}, "contextInput": {"randn": [1, 7, 8]}, "dModel": 8, "numHeads": 2})",
    R"({"texts": ["a b c", "b c d e"], "dModel": 12, "numHeads": 3, "mask": "causal+padding", "dropout": {"p": 0.5, "seed": 1}})",
};

TEST(DrawCache, WarmRunsEqualColdRunsBitForBit) {
  std::vector<AttentionResult> cold;
  for (const std::string& json : kConfigs) cold.push_back(runCold(json));
  // Warm: each config right after the one before it (the cache holds
  // neighbours' draws), then again (a hit), then after a config far away.
  clearDrawCaches();
  for (size_t i = 0; i < kConfigs.size(); ++i) {
    expectBitIdentical(cold[i], run(kConfigs[i]), "after the previous config: " + kConfigs[i]);
    const DrawCacheCounts before = drawCacheCounts();
    expectBitIdentical(cold[i], run(kConfigs[i]), "repeated: " + kConfigs[i]);
    EXPECT_EQ(drawCacheCounts().misses, before.misses) << "a repeated run drew again: " << kConfigs[i];
    const size_t far = (i + kConfigs.size() / 2) % kConfigs.size();
    run(kConfigs[far]);
    expectBitIdentical(cold[i], run(kConfigs[i]), "after another config: " + kConfigs[i]);
  }
}

TEST(DrawCache, AKeystrokeThatKeepsTheVocabSizeDrawsNothing) {
  clearDrawCaches();
  run(R"({"text": "w0 w1 w2 w3", "dModel": 16, "numHeads": 2})");
  const DrawCacheCounts before = drawCacheCounts();
  // Same vocab size, other words: the table and the weights are the same draws.
  run(R"({"text": "w0 w1 w2 w9", "dModel": 16, "numHeads": 2, "mask": "causal"})");
  EXPECT_EQ(drawCacheCounts().misses, before.misses);
  EXPECT_EQ(drawCacheCounts().hits, before.hits + 2);
}

// Each change of something the weights depend on draws the weights again
// (after a run of the config before it, whose draws the cache holds).
TEST(DrawCache, ChangingAnythingTheWeightsDependOnMisses) {
  const std::string base = R"({"text": "a b c", "dModel": 8, "numHeads": 2})";
  auto with = [&](const std::string& fields) { return R"({"text": "a b c", "dModel": 8, )" + fields + "}"; };
  const std::string additive = with(R"("numHeads": 2, "score": "additive")");
  const std::vector<std::pair<std::string, std::string>> changes = {
      {base, with(R"("numHeads": 2, "weights": {"init": "torch-rand"})")},
      {base, with(R"("numHeads": 2, "weights": {"init": "torch-mha"})")},
      {base, with(R"("numHeads": 2, "weights": {"init": "torch-linear-clones"})")},
      {base, with(R"("numHeads": 2, "weights": {"init": "identity"})")},
      {base, with(R"("numHeads": 2, "weights": {"layout": "per-head"})")},
      {base, with(R"("numHeads": 2, "weights": {"qkvBias": true})")},
      {base, with(R"("numHeads": 2, "weights": {"outProj": false})")},
      {base, with(R"("numHeads": 2, "weights": {"seed": 1})")},
      {base, with(R"("numHeads": 2, "score": "additive")")},
      {base, with(R"("numHeads": 2, "seed": 1)")},
      {base, with(R"("numHeads": 4)")},
      {base, with(R"("numHeads": 2, "vocab": ["a", "b", "c", "d"])")},  // one more table row before the weights
      // (randn [1, 3, 8] would hit: 24 normals from seed 0, as the [3, 8] table draws.)
      {base, R"({"input": {"randn": [1, 4, 8]}, "dModel": 8, "numHeads": 2})"},
      {additive, with(R"("numHeads": 2, "score": "additive", "additiveHidden": 3)")},
      {base, with(R"("numHeads": 2, "dropout": {"p": 0.5})")},  // drawn after the weights: a hit
  };
  for (const auto& [before, json] : changes) {
    clearDrawCaches();
    run(before);
    const DrawCacheCounts counts = drawCacheCounts();
    const AttentionResult warm = run(json);
    const int64_t misses = drawCacheCounts().misses - counts.misses;
    if (json.find("dropout") != std::string::npos)
      EXPECT_EQ(misses, 0) << json;
    else
      EXPECT_GE(misses, 1) << json;
    expectBitIdentical(runCold(json), warm, json);
  }
}

TEST(DrawCache, KeepsAtMostTwoDraws) {
  clearDrawCaches();
  const std::string a = R"({"text": "a", "dModel": 8, "numHeads": 2, "seed": 1})";
  const std::string b = R"({"text": "a", "dModel": 8, "numHeads": 2, "seed": 2})";
  const std::string c = R"({"text": "a", "dModel": 8, "numHeads": 2, "seed": 3})";
  run(a);
  run(b);
  DrawCacheCounts before = drawCacheCounts();
  run(a);  // still there
  EXPECT_EQ(drawCacheCounts().misses, before.misses);
  run(c);  // drops b, the least recent
  before = drawCacheCounts();
  run(b);
  EXPECT_EQ(drawCacheCounts().misses, before.misses + 2);  // table and weights
}

}  // namespace
}  // namespace attention_lab
