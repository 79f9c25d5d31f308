// PreparedAttention: a prepared run equals runAttention on its config bit for
// bit (every path: masks, dropout, cross-attention, the variants, random
// inputs), again and again; on a caller's X equal to the config's X, the
// same; after update(edits), runAttention on the config with those edits.
#include "prepared.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "attention.h"
#include "attention_stages.h"
#include "kv_cache.h"
#include "online_softmax.h"
#include "schema.h"
#include "test_support.h"

namespace attention_lab {
namespace {

using testing::parsedConfig;
using testing::succeeded;

// Every tensor and alias of `want` in `got`, same shape, same bits (NaN included); the same warnings.
void expectSame(const AttentionResult& got, const AttentionResult& want, const std::string& what) {
  ASSERT_EQ(got.tensors.size(), want.tensors.size()) << what;
  for (size_t i = 0; i < want.tensors.size(); ++i) {
    const auto& [name, tensor] = want.tensors[i];
    EXPECT_EQ(got.tensors[i].first, name) << what;
    const Tensor& other = got.tensors[i].second;
    EXPECT_EQ(other.shape, tensor.shape) << what << ": " << name;
    EXPECT_TRUE(other.data.size() == tensor.data.size() &&
                std::memcmp(other.data.data(), tensor.data.data(), 4 * tensor.data.size()) == 0)
        << what << ": " << name << " differs";
  }
  EXPECT_EQ(got.aliases, want.aliases) << what;
  ASSERT_EQ(got.warnings.size(), want.warnings.size()) << what;
  for (size_t i = 0; i < want.warnings.size(); ++i) EXPECT_EQ(got.warnings[i].message, want.warnings[i].message);
  EXPECT_EQ(got.sizes.S, want.sizes.S);
  EXPECT_EQ(got.scaleFactor, want.scaleFactor);
}

AttentionResult plainRun(const AttentionConfig& c, TensorSet wanted = TensorSet::all(), Selection selection = {}) {
  AttentionResult r;
  EXPECT_TRUE(succeeded(runAttention(c, r, wanted, selection)));
  return r;
}

const std::vector<std::string> kConfigs = {
    R"({"text": "the cat sat on the mat", "dModel": 8, "numHeads": 2})",
    R"({"texts": ["the cat sat on the mat", "a dog"], "dModel": 12, "numHeads": 3, "mask": "causal+padding",
        "dropout": {"p": 0.25}})",
    R"({"text": "the cat sat four five", "dModel": 8, "numHeads": 2, "mask": "causal", "dropout": {"p": 0.5,
        "seed": 3}, "embedding": {"positional": "sinusoidal"}})",
    R"({"text": "he sat by the river bank", "contextText": "the bank of the river was steep", "dModel": 8,
        "numHeads": 2, "score": "additive", "weights": {"init": "torch-mha"}})",
    R"({"input": {"randn": [2, 5, 16]}, "contextInput": {"rand": [2, 7, 16]}, "dModel": 16, "numHeads": 4,
        "dropout": {"p": 0.1}})",
    R"({"texts": ["every modern variant at once", "and a batch"], "dModel": 16, "numHeads": 4, "numKVHeads": 2,
        "qkNorm": true, "rope": {"style": "rotate-half"}, "softcap": 2, "alibi": true, "window": 2,
        "mask": "causal", "sinkLogit": 0.5, "dropout": {"p": 0.2}})",
    R"({"text": "a b a b", "dModel": 4, "numHeads": 1, "mask": "causal", "maskFill": "-inf",
        "weights": {"values": {"W_Q": [[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]}}})",
};

TEST(Prepared, RunsEqualRunAttentionAgainAndAgain) {
  for (const std::string& json : kConfigs) {
    const AttentionConfig config = parsedConfig(json);
    PreparedAttention prepared;
    ASSERT_TRUE(succeeded(prepared.prepare(config))) << json;
    const AttentionResult want = plainRun(config);
    AttentionResult got;  // reused: its buffers are lent to the next call
    for (int i = 0; i < 3; ++i) {
      ASSERT_TRUE(succeeded(prepared.run(got))) << json;
      expectSame(got, want, json);
    }
    // Only some tensors, one sentence, one head: runAttention's with the same options.
    TensorSet some;
    some.add("X");
    some.add("W_Q");
    some.add("weights");
    some.add("output");
    Selection one;
    one.batch = config.input.random || !config.input.texts.empty() ? want.sizes.B - 1 : 0;
    one.head = want.sizes.H - 1;
    ASSERT_TRUE(succeeded(prepared.run(got, some, one))) << json;
    expectSame(got, plainRun(config, some, one), json + " (some tensors, one sentence and head)");
    // A caller's X equal to the config's X: the same run.
    const Tensor* x = want.find("X");
    ASSERT_EQ(static_cast<int64_t>(x->data.size()), prepared.inputLength());
    std::memcpy(prepared.inputBuffer(), x->data.data(), 4 * x->data.size());
    ASSERT_TRUE(succeeded(prepared.run(got, TensorSet::all(), {}, /*useInput=*/true))) << json;
    expectSame(got, want, json + " (its own X given)");
  }
}

TEST(Prepared, ANewXChangesTheRunAndNotTheNext) {
  const AttentionConfig config = parsedConfig(kConfigs[1]);
  PreparedAttention prepared;
  ASSERT_TRUE(succeeded(prepared.prepare(config)));
  for (int64_t i = 0; i < prepared.inputLength(); ++i) prepared.inputBuffer()[i] = 0.01f * static_cast<float>(i % 17);
  AttentionResult got;
  ASSERT_TRUE(succeeded(prepared.run(got, TensorSet::all(), {}, true)));
  const AttentionResult want = plainRun(config);
  EXPECT_NE(std::memcmp(got.find("output")->data.data(), want.find("output")->data.data(),
                        4 * want.find("output")->data.size()),
            0);
  EXPECT_EQ(got.find("X")->data[17], 0.0f);
  ASSERT_TRUE(succeeded(prepared.run(got)));
  expectSame(got, want, "the config's X again");
}

TEST(Prepared, NonFiniteXIsAnErrorNamingItsIndex) {
  PreparedAttention prepared;
  ASSERT_TRUE(succeeded(prepared.prepare(parsedConfig(kConfigs[0]))));
  std::fill(prepared.inputBuffer(), prepared.inputBuffer() + prepared.inputLength(), 0.5f);
  // The largest and smallest floats are numbers like any other.
  prepared.inputBuffer()[1] = std::numeric_limits<float>::max();
  prepared.inputBuffer()[2] = -std::numeric_limits<float>::max();
  prepared.inputBuffer()[3] = std::numeric_limits<float>::denorm_min();
  AttentionResult got;
  EXPECT_TRUE(succeeded(prepared.run(got, TensorSet::all(), {}, true)));
  for (const float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                          -std::numeric_limits<float>::infinity()}) {
    prepared.inputBuffer()[9] = bad;
    const Status error = prepared.run(got, TensorSet::all(), {}, true);
    ASSERT_TRUE(error.has_value()) << bad;
    EXPECT_EQ(error->field, "x[9]");
    EXPECT_EQ(error->code, "not-a-number");
  }
}

TEST(Prepared, UpdateEqualsTheEditedConfig) {
  const std::string edits =
      R"({"weights": {"edits": {"W_Q": [[0, 5, 0.5]], "b_Q": [[1, 2]], "W_O": [[3, 1, -4]]}},
          "embedding": {"edits": [["cat", 2, 3.5], [0, 0, -1]]}})";
  for (const std::string& json : {kConfigs[1], kConfigs[2]}) {
    PreparedAttention prepared;
    ASSERT_TRUE(succeeded(prepared.prepare(parsedConfig(json))));
    const AttentionConfig edit = parsedConfig(edits);
    ASSERT_TRUE(succeeded(prepared.update(edit)));
    // The same edits written into the config: the JSON objects merged by hand.
    std::string edited = json;
    edited.pop_back();
    edited += R"(, "weights": {"edits": {"W_Q": [[0, 5, 0.5]], "b_Q": [[1, 2]], "W_O": [[3, 1, -4]]}})";
    const bool sinusoidal = json.find("sinusoidal") != std::string::npos;
    if (sinusoidal)
      edited.replace(edited.find(R"("embedding": {)"), 14, R"("embedding": {"edits": [["cat", 2, 3.5], [0, 0, -1]], )");
    else
      edited += R"(, "embedding": {"edits": [["cat", 2, 3.5], [0, 0, -1]]})";
    edited += "}";
    AttentionResult got;
    ASSERT_TRUE(succeeded(prepared.run(got)));
    expectSame(got, plainRun(parsedConfig(edited)), edited);
  }
}

// One edit as update() takes it.
AttentionConfig weightEdit(const std::string& name, int64_t row, int64_t col, float value) {
  AttentionConfig edit;
  CellEdit cell;
  cell.row = row;
  cell.col = col;
  cell.value = value;
  edit.weightEdits[name].push_back(cell);
  return edit;
}

AttentionConfig embeddingEdit(const std::string& token, int64_t col, float value) {
  AttentionConfig edit;
  CellEdit cell;
  cell.token = token;
  cell.col = col;
  cell.value = value;
  edit.embeddingEdits.push_back(cell);
  return edit;
}

TEST(Prepared, UpdatesProjectAgainOnlyWhatTheyMadeStale) {
  const std::vector<std::string> configs = {
      kConfigs[1],
      R"({"text": "he sat by the river bank", "contextText": "the bank of the river was steep", "dModel": 16,
          "numHeads": 4, "numKVHeads": 2, "qkNorm": true, "dropout": {"p": 0.3}})",
      R"({"texts": ["the cat sat", "a dog sat down"], "dModel": 16, "numHeads": 4, "numKVHeads": 1, "qkNorm": true,
          "rope": {"style": "rotate-half"}, "mask": "causal+padding", "weights": {"qkvBias": true}})",
  };
  for (const std::string& json : configs) {
    const AttentionConfig config = parsedConfig(json);
    PreparedAttention prepared;
    ASSERT_TRUE(succeeded(prepared.prepare(config)));
    AttentionResult got;
    ASSERT_TRUE(succeeded(prepared.run(got)));  // the first run projects all three
    const int64_t dkv = config.kvHeads() * (config.dModel / config.numHeads);
    // {edit, the weights it projects again}
    const std::vector<std::pair<AttentionConfig, int64_t>> steps = {
        {weightEdit("W_O", 3, 1, -4.0f), 0},      {weightEdit("W_Q", 0, 5, 0.5f), 1},
        {weightEdit("W_K", 2, dkv - 1, 9.0f), 1}, {weightEdit("b_V", 0, 1, 2.0f), 1},
        {weightEdit("W_Q", 1, 1, -1.0f), 1},      {embeddingEdit("bank", 0, 1.5f), 3},
        {weightEdit("b_O", 0, 0, 0.25f), 0},
    };
    AttentionConfig sofar = config;  // the config with the edits so far
    for (size_t i = 0; i < steps.size(); ++i) {
      const AttentionConfig& edit = steps[i].first;
      if (!edit.embeddingEdits.empty() && json.find("bank") == std::string::npos) continue;  // no such token
      for (const auto& [name, cells] : edit.weightEdits)
        sofar.weightEdits[name].insert(sofar.weightEdits[name].end(), cells.begin(), cells.end());
      sofar.embeddingEdits.insert(sofar.embeddingEdits.end(), edit.embeddingEdits.begin(), edit.embeddingEdits.end());
      ASSERT_TRUE(succeeded(prepared.update(edit))) << json << " step " << i;
      const int64_t before = stages::projectedWithCache();
      ASSERT_TRUE(succeeded(prepared.run(got)));
      EXPECT_EQ(stages::projectedWithCache() - before, steps[i].second) << json << " step " << i;
      expectSame(got, plainRun(sofar), json + " step " + std::to_string(i));
      // A new X in between neither reads nor changes what is kept.
      std::fill(prepared.inputBuffer(), prepared.inputBuffer() + prepared.inputLength(), 0.125f);
      ASSERT_TRUE(succeeded(prepared.run(got, TensorSet::all(), {}, true)));
      ASSERT_TRUE(succeeded(prepared.run(got)));
      expectSame(got, plainRun(sofar), json + " after a new X, step " + std::to_string(i));
    }
  }
}

TEST(Prepared, ARefusedUpdateChangesNothing) {
  const AttentionConfig config = parsedConfig(kConfigs[0]);
  PreparedAttention prepared;
  ASSERT_TRUE(succeeded(prepared.prepare(config)));
  for (const std::string& bad : {std::string(R"({"weights": {"edits": {"W_Q": [[0, 1, 1], [8, 0, 1]]}}})"),
                                 std::string(R"({"embedding": {"edits": [["cat", 0, 1], ["zebra", 0, 1]]}})")}) {
    const Status error = prepared.update(parsedConfig(bad));
    ASSERT_TRUE(error.has_value()) << bad;
  }
  AttentionResult got;
  ASSERT_TRUE(succeeded(prepared.run(got)));
  expectSame(got, plainRun(config), "after refused edits");
}

// The KV-cache and flash steppers on a prepared run (after an edit) equal them on the edited config.
TEST(Prepared, SteppersEqualThemOnTheEditedConfig) {
  const std::string json = R"({"texts": ["the cat sat on the mat", "a dog"], "dModel": 8, "numHeads": 2,
      "numKVHeads": 1, "mask": "causal+padding", "rope": {"style": "rotate-half"}, "alibi": true})";
  std::string edited = json;
  edited.pop_back();
  edited += R"(, "weights": {"edits": {"W_K": [[1, 3, 2.5]]}}, "embedding": {"edits": [["mat", 0, -1]]}})";
  PreparedAttention prepared;
  ASSERT_TRUE(succeeded(prepared.prepare(parsedConfig(json))));
  ASSERT_TRUE(succeeded(prepared.update(weightEdit("W_K", 1, 3, 2.5f))));
  ASSERT_TRUE(succeeded(prepared.update(embeddingEdit("mat", 0, -1.0f))));
  const AttentionConfig config = parsedConfig(edited);
  const auto sameFloats = [](const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), 4 * a.size()) == 0;
  };
  for (int64_t batch : {0, 1}) {
    DecodeResult got, want;
    ASSERT_TRUE(succeeded(decodeWithKvCache(prepared, batch, got)));
    ASSERT_TRUE(succeeded(decodeWithKvCache(config, batch, want)));
    EXPECT_EQ(got.tokens, want.tokens);
    EXPECT_TRUE(sameFloats(got.scores, want.scores)) << batch;
    EXPECT_TRUE(sameFloats(got.weights, want.weights)) << batch;
    EXPECT_TRUE(sameFloats(got.newKeys, want.newKeys)) << batch;
    EXPECT_EQ(got.identicalRows, want.identicalRows);
    EXPECT_EQ(got.identicalRows, got.rows);
  }
  FlashOptions options;
  options.batch = 1;
  options.head = 1;
  options.tileQueries = 2;
  options.tileKeys = 3;
  FlashResult got, want;
  ASSERT_TRUE(succeeded(onlineSoftmax(prepared, options, got)));
  ASSERT_TRUE(succeeded(onlineSoftmax(config, options, want)));
  EXPECT_TRUE(sameFloats(got.output, want.output));
  EXPECT_TRUE(sameFloats(got.runningMax, want.runningMax));
  EXPECT_EQ(got.identical, want.identical);
  // A stepper's error is the config's: a decode needs a causal mask.
  PreparedAttention open;
  ASSERT_TRUE(succeeded(open.prepare(parsedConfig(R"({"text": "a b c", "dModel": 4, "numHeads": 2})"))));
  DecodeResult refused;
  const Status error = decodeWithKvCache(open, 0, refused);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->field, "mask");
}

TEST(Prepared, PrepareReportsRunAttentionsErrors) {
  PreparedAttention prepared;
  const Status error = prepared.prepare(parsedConfig(R"({"text": "a b", "dModel": 6, "numHeads": 4})"));
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->field, "numHeads");
  EXPECT_FALSE(prepared.prepared());
}

}  // namespace
}  // namespace attention_lab
