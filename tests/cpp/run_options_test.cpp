// runAttention with a set of wanted tensors: only those come back, each equal
// bit for bit to the same tensor of an all-tensors run; equal stages kept once
// (aliases); a result reused from call to call (its buffers lent to the next
// run) gives what a fresh one gives.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <tuple>
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
      // The modern variants: every one at once with and without dropout (the sink column's wider rows), a cap
      // or a bias without a mask (masked is then not scaled), GQA with cross-attention.
      R"({"texts": ["every modern variant at once", "and a batch"], "dModel": 16, "numHeads": 4, "numKVHeads": 2,
          "qkNorm": true, "rope": {"style": "rotate-half"}, "softcap": 2, "alibi": true, "window": 2,
          "sinkTokens": 1, "sinkLogit": 0.5, "mask": "causal+padding"})",
      R"({"text": "the sink column with dropout", "dModel": 8, "numHeads": 4, "numKVHeads": 1, "qkNorm": true,
          "rope": {"style": "interleaved", "base": 100}, "sinkLogit": 0, "mask": "causal", "window": 3,
          "dropout": {"p": 0.3, "seed": 2}})",
      R"({"text": "a cap and a bias without a mask", "dModel": 8, "numHeads": 2, "softcap": 1, "alibi": true})",
      R"({"text": "grouped keys", "contextText": "from another sentence", "dModel": 8, "numHeads": 4,
          "numKVHeads": 2, "sinkLogit": -1, "softcap": 5})",
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

// Sentence b (when `batch`) and head h (when `head`) of a whole tensor [B, ...] or [B, H, ...].
Tensor sliceOf(const Tensor& whole, bool batch, int64_t b, bool head, int64_t h) {
  std::vector<int64_t> shape = whole.shape;
  const int64_t B = shape[0], H = head ? shape[1] : 1;
  const size_t size = whole.data.size() / static_cast<size_t>(B * H);  // one sentence's (or one head's) floats
  Tensor out{shape, {}};
  if (batch) out.shape[0] = 1;
  if (head) out.shape[1] = 1;
  for (int64_t bb = 0; bb < B; ++bb)
    for (int64_t hh = 0; hh < H; ++hh) {
      if ((batch && bb != b) || (head && hh != h)) continue;
      const auto first = whole.data.begin() + static_cast<std::ptrdiff_t>((bb * H + hh) * size);
      out.data.insert(out.data.end(), first, first + static_cast<std::ptrdiff_t>(size));
    }
  return out;
}

TEST(RunOptions, ASelectionKeepsOneSentenceAndOneHeadOfEachTensor) {
  const std::vector<std::vector<std::string>> allHeadsAsks = {{}, {"weights"}, {"scores", "dropped"}, {"scaled"}};
  for (const std::string& json : configs()) {
    const AttentionConfig c = testing::parsedConfig(json);
    const AttentionResult all = run(c);
    const int64_t B = all.find("output")->shape[0], H = all.find("scores")->shape[1];
    for (int64_t b = -1; b < B; ++b)
      for (int64_t h = -1; h < H; ++h)
        for (const auto& allHeads : allHeadsAsks) {
          Selection sel;
          sel.batch = b;
          sel.head = h;
          sel.allHeads = setOf(allHeads);
          AttentionResult some;
          ASSERT_TRUE(testing::succeeded(runAttention(c, some, TensorSet::all(), sel))) << json;
          EXPECT_EQ(some.aliases, all.aliases) << json;
          EXPECT_EQ(some.warnings.size(), all.warnings.size()) << "every head still runs";
          for (const char* name : kTensorNames) {
            const Tensor* whole = all.find(name);
            if (!whole) continue;
            const int64_t oneBatch = some.selection.batchOf(name), oneHead = some.selection.headOf(name);
            EXPECT_EQ(oneBatch, Selection::hasBatch(name) ? b : -1) << name;
            const bool headKept = h < 0 || !Selection::isPerHead(name) || some.selection.allHeads.has(name);
            EXPECT_EQ(oneHead, headKept ? -1 : h) << name;
            const Tensor want = sliceOf(*whole, oneBatch >= 0, b, oneHead >= 0, h);
            EXPECT_TRUE(sameTensor(some.find(name), &want)) << name << " b " << b << " h " << h << " in " << json;
          }
        }
  }
}

TEST(RunOptions, AnAliasPairSharesOneSelection) {
  // No mask, p = 0: dropped is weights, so asking every head of one asks it of both.
  const AttentionConfig c = testing::parsedConfig(R"({"text": "the cat sat", "dModel": 4, "numHeads": 2})");
  Selection sel;
  sel.head = 1;
  sel.allHeads = setOf({"dropped"});
  AttentionResult r;
  ASSERT_TRUE(testing::succeeded(runAttention(c, r, TensorSet::all(), sel)));
  EXPECT_EQ(r.find("weights"), r.find("dropped"));
  EXPECT_EQ(r.find("weights")->shape, (std::vector<int64_t>{1, 2, 3, 3}));
  EXPECT_EQ(r.selection.headOf("weights"), -1);
  EXPECT_EQ(r.find("scores")->shape, (std::vector<int64_t>{1, 1, 3, 3}));
}

TEST(RunOptions, ASelectionOutOfRangeNamesItsOption) {
  const AttentionConfig c = testing::parsedConfig(R"({"texts": ["a b", "c d"], "dModel": 4, "numHeads": 2})");
  for (const auto& [batch, head, field] : std::vector<std::tuple<int64_t, int64_t, std::string>>{
           {2, 0, "options.batch"}, {-2, 0, "options.batch"}, {0, 2, "options.head"}, {1, -5, "options.head"}}) {
    Selection sel;
    sel.batch = batch;
    sel.head = head;
    AttentionResult r;
    const Status s = runAttention(c, r, TensorSet::all(), sel);
    ASSERT_TRUE(s) << field;
    EXPECT_EQ(s->field, field);
    EXPECT_EQ(s->code, "out-of-range");
  }
}

}  // namespace
}  // namespace attention_lab
