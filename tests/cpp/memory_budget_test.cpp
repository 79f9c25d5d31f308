// The memory budget (kMaxIntermediateBytes): it counts what a run allocates
// for the tensors asked for and the scratch its kernels need, so output alone
// at 2,048 tokens and 8 heads runs, while a run that really needs more is
// still refused. The estimate (intermediateBytes) is checked against the peak
// of the bytes each run of budget_cases.h allocates (allocation_counter.h).
#include <gtest/gtest.h>

#include <cstdio>
#include <thread>

#include "allocation_counter.h"
#include "attention.h"
#include "budget_cases.h"
#include "kv_cache.h"
#include "test_support.h"
#include "weights.h"

namespace attention_lab {
namespace {

using budget_checks::BudgetCase;
using budget_checks::words;
using testing::parsedConfig;
using testing::succeeded;

TensorSet outputOnly() {
  TensorSet set;
  set.add("output");
  return set;
}

// The issue's case keeps no [B, H, S, S_kv] tensor: it needs one head's [S, S_kv] scratch (16 MiB), not
// the 672 MiB of five score tensors kept.
TEST(MemoryBudget, OutputAloneAt2048TokensAnd8HeadsRuns) {
  const AttentionConfig config = parsedConfig(R"({"text": ")" + words(2048) + R"(", "dModel": 8, "numHeads": 8})");
  AttentionResult result;
  ASSERT_TRUE(succeeded(runAttention(config, result, outputOnly())));
  ASSERT_EQ(result.tensors.size(), 1u);
  EXPECT_EQ(result.tensors[0].second.shape, (std::vector<int64_t>{1, 2048, 8}));
  // One head's scores (4 Mi floats), and under 2 MiB of the rest: X, the table, Q | K | V, the output, the
  // tokens' strings...
  const int64_t estimate = intermediateBytes(config, budget_checks::sizesOf(result), outputOnly());
  EXPECT_GT(estimate, int64_t{16} << 20);
  EXPECT_LT(estimate, int64_t{18} << 20);
}

// The weights' count is kept from one run to the next when nothing is given or edited, keyed by the draw's
// parameters. Each config below differs from the first in one of them; in any order, the kept count equals
// the one counted afresh (an edit of W_Q, which the init draws anyway, takes the path that counts).
TEST(MemoryBudget, TheKeptWeightCountFollowsEveryDrawParameter) {
  const std::vector<std::string> configs = {
      R"({"text": "a b", "dModel": 8, "numHeads": 2})",
      R"({"text": "a b", "dModel": 16, "numHeads": 2})",
      R"({"text": "a b", "dModel": 8, "numHeads": 4})",
      R"({"text": "a b", "dModel": 8, "numHeads": 4, "numKVHeads": 2})",
      R"({"text": "a b", "dModel": 8, "numHeads": 2, "weights": {"init": "torch-mha"}})",
      R"({"text": "a b", "dModel": 8, "numHeads": 2, "weights": {"layout": "per-head"}})",
      R"({"text": "a b", "dModel": 8, "numHeads": 2, "weights": {"qkvBias": true}})",
      R"({"text": "a b", "dModel": 8, "numHeads": 2, "weights": {"outProj": false}})",
      R"({"text": "a b", "dModel": 8, "numHeads": 2, "score": "additive"})",
      R"({"text": "a b", "dModel": 8, "numHeads": 2, "score": "additive", "additiveHidden": 3})",
  };
  const auto counted = [](AttentionConfig config) {
    CellEdit edit;
    edit.value = 1;
    config.weightEdits["W_Q"].push_back(edit);
    return weightFloats(config);
  };
  std::vector<int64_t> first;
  for (const std::string& json : configs) {
    const AttentionConfig config = parsedConfig(json);
    first.push_back(weightFloats(config));
    EXPECT_EQ(first.back(), counted(config)) << json;
  }
  for (size_t k = configs.size(); k-- > 0;) EXPECT_EQ(weightFloats(parsedConfig(configs[k])), first[k]) << configs[k];
}

// With a causal mask and dropout, every tensor keeps five distinct [1, 8, 2048, 2048] stages (128 MiB
// each): refused, as before, with the same code. Output alone keeps none of them.
TEST(MemoryBudget, EveryTensorOfTheSameRunWithMaskAndDropoutIsStillRefused) {
  const std::string json =
      R"({"text": ")" + words(2048) + R"(", "dModel": 8, "numHeads": 8, "mask": "causal", "dropout": {"p": 0.1}})";
  AttentionResult result;
  const Status error = runAttention(parsedConfig(json), result);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code, "memory-limit");
  EXPECT_EQ(error->field, "dModel");
  EXPECT_GT(std::stoll(error->params.at(0).second), 640);  // need (MiB): the five stages alone are 640
  EXPECT_TRUE(succeeded(runAttention(parsedConfig(json), result, outputOnly())));
}

// The KV cache's own [S, H, S] arrays (the steps' scores and weights, the full run's rows) count beside
// the run's: at 2,048 tokens and 8 heads they are 384 MiB more than the run's 161 MiB, so the decode is
// refused; at 1,024 tokens it runs.
TEST(MemoryBudget, TheKvCacheCountsItsOwnArrays) {
  DecodeResult decoded;
  const auto config = [](int tokens) {
    return parsedConfig(R"({"text": ")" + words(tokens) + R"(", "dModel": 8, "numHeads": 8, "mask": "causal"})");
  };
  const Status error = decodeWithKvCache(config(2048), 0, decoded);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code, "memory-limit");
  EXPECT_TRUE(succeeded(decodeWithKvCache(config(1024), 0, decoded)));
  EXPECT_EQ(decoded.S, 1024);
}

class MemoryBudgetTest : public ::testing::TestWithParam<BudgetCase> {};

void PrintTo(const BudgetCase& c, std::ostream* os) { *os << c.name; }

// Each run in a thread of its own, so that it allocates as a first run does: the workspace, the
// products' packing and the draw caches are per thread. Its peak is at most the estimate, and not far
// below it: the estimate counts what the run allocates (a buffer freed early as if it lived on).
TEST_P(MemoryBudgetTest, TheRunAllocatesAtMostItsEstimate) {
  const BudgetCase& c = GetParam();
  const AttentionConfig config = parsedConfig(c.json);
  AttentionResult result;
  int64_t peak = 0;
  std::thread([&] {
    peak = allocation_counter::peakOf(
        [&] { EXPECT_TRUE(succeeded(runAttention(config, result, c.wanted(), c.selection()))); });
  }).join();
  const int64_t estimate = intermediateBytes(config, budget_checks::sizesOf(result), c.wanted(), c.selection());
  std::printf("%s: estimate %lld bytes, peak %lld bytes allocated\n", c.name, static_cast<long long>(estimate),
              static_cast<long long>(peak));
  EXPECT_LE(peak, estimate);
  EXPECT_GE(peak, estimate - estimate / 5);
}

INSTANTIATE_TEST_SUITE_P(Runs, MemoryBudgetTest, ::testing::ValuesIn(budget_checks::budgetCases()),
                         [](const ::testing::TestParamInfo<BudgetCase>& info) { return info.param.name; });

}  // namespace
}  // namespace attention_lab
