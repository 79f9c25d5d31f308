// The two steppers: the KV cache's decode rows against the full causal run
// (bit for bit), and FlashAttention-2's online softmax against the plain
// softmax's context (within float32 rounding, worst difference printed).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "attention.h"
#include "kv_cache.h"
#include "online_softmax.h"
#include "schema.h"
#include "test_support.h"

namespace attention_lab {
namespace {

using testing::parsedConfig;
using testing::succeeded;

// Sentences and sizes that take the products through their small and their blocked paths.
const char* const kDecodeConfigs[] = {
    R"({"text": "the cat sat on the mat", "dModel": 8, "numHeads": 2, "mask": "causal"})",
    R"({"text": "a b c d e f g h i j k l m n o p q r s t u v w x y z a b c d e f g h i j k l m n",
        "dModel": 64, "numHeads": 4, "mask": "causal", "seed": 3})",
    R"({"texts": ["the cat sat", "a dog ran far away"], "dModel": 12, "numHeads": 3, "mask": "causal+padding"})",
    R"({"text": "one two three four five", "dModel": 6, "numHeads": 3, "mask": "causal",
        "maskConvention": "additive", "maskFill": -1e9, "scale": "d-model"})",
    R"({"text": "x y z w", "dModel": 4, "numHeads": 1, "mask": "causal", "maskConvention": "keep",
        "dropout": {"p": 0.5, "seed": 1}, "weights": {"init": "torch-rand", "qkvBias": true}})",
    // The modern variants: GQA and RoPE (Llama), QK-norm, window and sinks, a sink logit, ALiBi, softcap.
    R"({"text": "the llama reads one token at a time", "dModel": 16, "numHeads": 8, "numKVHeads": 2,
        "rope": {"style": "rotate-half"}, "mask": "causal"})",
    R"({"text": "a b c d e f g h i j", "dModel": 8, "numHeads": 2, "numKVHeads": 1, "qkNorm": true,
        "rope": {"style": "interleaved", "base": 100}, "mask": "causal", "window": 3, "sinkTokens": 1,
        "sinkLogit": 0.5})",
    R"({"texts": ["every variant in a cached decode", "the second one"], "dModel": 12, "numHeads": 6,
        "numKVHeads": 3, "alibi": true, "softcap": 2, "mask": "causal+padding", "sinkLogit": -1})",
    // gpt-oss: one learned sink logit per head, with GQA, RoPE and a window.
    R"({"text": "each head has its own sink", "dModel": 16, "numHeads": 4, "numKVHeads": 2,
        "rope": {"style": "rotate-half"}, "mask": "causal", "window": 3, "sinkLogit": [0.1, -0.3, 0.7, 1.2]})",
};

TEST(KvCache, EveryDecodeRowIsTheFullCausalRunsRowBitForBit) {
  for (const char* json : kDecodeConfigs) {
    const AttentionConfig c = parsedConfig(json);
    const int64_t batches = c.input.batch();
    for (int64_t b = 0; b < batches; ++b) {
      DecodeResult d;
      ASSERT_TRUE(succeeded(decodeWithKvCache(c, b, d))) << json;
      EXPECT_EQ(d.rows, d.S * d.H);
      EXPECT_EQ(d.identicalRows, d.rows) << json << " sentence " << b;
      // Past the cache: NaN; the full run's row there: exact zeros (the causal mask).
      for (int64_t t = 0; t < d.S; ++t)
        for (int64_t h = 0; h < d.H; ++h)
          for (int64_t j = t + 1; j < d.S; ++j) {
            const size_t at = static_cast<size_t>((t * d.H + h) * d.S + j);
            EXPECT_TRUE(std::isnan(d.weights[at]) && std::isnan(d.scores[at]));
            EXPECT_EQ(d.fullWeights[at], 0.0f);
          }
    }
  }
}

TEST(KvCache, StepsAppendTheRunsKeysAndValuesAndScoreThemLikeTheRun) {
  const AttentionConfig c = parsedConfig(kDecodeConfigs[0]);
  DecodeResult d;
  ASSERT_TRUE(succeeded(decodeWithKvCache(c, 0, d)));
  AttentionResult r;
  ASSERT_TRUE(succeeded(runAttention(c, r)));
  EXPECT_EQ(d.newKeys, r.find("K")->data);
  EXPECT_EQ(d.newValues, r.find("V")->data);
  EXPECT_EQ(d.tokens, r.tokens[0]);
  // scores: q_t · k_j, the run's scores for j <= t.
  const Tensor& scores = *r.find("scores");
  for (int64_t t = 0; t < d.S; ++t)
    for (int64_t h = 0; h < d.H; ++h)
      for (int64_t j = 0; j <= t; ++j)
        EXPECT_EQ(d.scores[static_cast<size_t>((t * d.H + h) * d.S + j)],
                  scores.data[static_cast<size_t>((h * d.S + t) * d.S + j)]);
}

TEST(KvCache, IsCausalOnOneQuerySeesOnlyTheFirstKey) {
  const AttentionConfig c = parsedConfig(kDecodeConfigs[0]);
  DecodeResult d;
  ASSERT_TRUE(succeeded(decodeWithKvCache(c, 0, d)));
  for (int64_t t = 0; t < d.S; ++t)
    for (int64_t j = 0; j < d.S; ++j) {
      const float w = d.isCausalOneQuery[static_cast<size_t>(t * d.S + j)];
      if (j > t)
        EXPECT_TRUE(std::isnan(w));
      else
        EXPECT_EQ(w, j == 0 ? 1.0f : 0.0f) << "step " << t << " key " << j;
    }
}

TEST(KvCache, CacheBytesCountKeysAndValuesOfEveryKvHead) {
  const AttentionConfig c = parsedConfig(kDecodeConfigs[0]);  // H = 2, dk = 4
  DecodeResult d;
  ASSERT_TRUE(succeeded(decodeWithKvCache(c, 0, d)));
  ASSERT_EQ(d.cacheBytesMha.size(), 6u);
  for (int64_t t = 0; t < d.S; ++t) {
    EXPECT_EQ(d.cacheBytesMha[static_cast<size_t>(t)], 2.0 * (t + 1) * 2 * 4 * 4);
    EXPECT_EQ(d.cacheBytesGqa[static_cast<size_t>(t)], 2.0 * (t + 1) * d.Hkv * 4 * 4);
    EXPECT_EQ(d.cacheBytesMqa[static_cast<size_t>(t)], 2.0 * (t + 1) * 1 * 4 * 4);
  }
}

TEST(KvCache, ErrorsNameTheField) {
  const auto error = [](const std::string& json, int64_t batch = 0) {
    DecodeResult d;
    const Status s = decodeWithKvCache(parsedConfig(json), batch, d);
    return s ? s->field + " " + s->code : std::string("ok");
  };
  EXPECT_EQ(error(R"({"text": "a b", "contextText": "c d", "mask": "causal"})"),
            "contextText decode-needs-self-attention");
  EXPECT_EQ(error(R"({"text": "a b"})"), "mask decode-needs-causal");
  EXPECT_EQ(error(R"({"text": "a b", "model": "tiny"})"), "model stepper-needs-attention-model");
  EXPECT_EQ(error(R"({"text": "a b", "mask": "padding"})"), "mask decode-needs-causal");
  EXPECT_EQ(error(R"({"text": "a b", "mask": "causal", "score": "additive"})"), "score decode-needs-dot-score");
  EXPECT_EQ(error(R"({"text": "a b", "mask": "causal"})", 1), "options.batch out-of-range");
  EXPECT_EQ(error(R"({"text": "a b", "mask": "causal", "dModel": 3, "numHeads": 2})"), "numHeads not-divisible");
}

// ---- online softmax -------------------------------------------------------

const char* const kFlashConfigs[] = {
    R"({"text": "the cat sat on the mat today", "dModel": 8, "numHeads": 2, "mask": "causal"})",
    R"({"text": "the cat sat on the mat today", "dModel": 8, "numHeads": 2})",
    R"({"texts": ["the cat sat", "a dog ran far away"], "dModel": 12, "numHeads": 3, "mask": "causal+padding"})",
    R"({"text": "one two three four five", "contextText": "six seven eight", "dModel": 6, "numHeads": 2})",
    R"({"text": "a b c d e f g h i j k l m n o p q r s", "dModel": 32, "numHeads": 2, "mask": "causal",
        "maskConvention": "additive", "maskFill": -1e9, "seed": 5})",
    R"({"text": "a b c d e f g h i j", "dModel": 8, "numHeads": 4, "numKVHeads": 2, "rope": {"style": "rotate-half"},
        "mask": "causal", "window": 3, "sinkTokens": 1, "sinkLogit": 0.5})",
    R"({"text": "a b c d e f g", "dModel": 8, "numHeads": 2, "alibi": true, "softcap": 3, "sinkLogit": 0,
        "mask": "causal"})",
    R"({"text": "a b c d e f g h", "dModel": 8, "numHeads": 2, "mask": "causal", "sinkLogit": [-2, 3]})",
};

struct Tiles {
  int64_t queries, keys;
};
const Tiles kTiles[] = {{1, 1}, {2, 2}, {2, 3}, {3, 1}, {4, 4}, {64, 64}, {1, 64}};

TEST(OnlineSoftmax, EqualsThePlainSoftmaxWithinFloat32Rounding) {
  double worst = 0, worstRelative = 0;
  int64_t identical = 0, total = 0;
  for (const char* json : kFlashConfigs) {
    const AttentionConfig c = parsedConfig(json);
    for (const Tiles& tiles : kTiles)
      for (int64_t head = 0; head < c.numHeads; ++head) {
        FlashOptions o;
        o.batch = c.input.batch() - 1;
        o.head = head;
        o.tileQueries = tiles.queries;
        o.tileKeys = tiles.keys;
        FlashResult f;
        ASSERT_TRUE(succeeded(onlineSoftmax(c, o, f))) << json;
        ASSERT_EQ(f.output.size(), static_cast<size_t>(f.S * f.dk));
        for (size_t e = 0; e < f.output.size(); ++e) {
          if (std::isnan(f.plain[e])) {
            EXPECT_TRUE(std::isnan(f.output[e]));
            continue;
          }
          const double difference = std::fabs(static_cast<double>(f.output[e]) - f.plain[e]);
          const double relative = difference / std::max(1.0, std::fabs(static_cast<double>(f.plain[e])));
          EXPECT_LE(relative, 1e-5) << json << " tiles " << tiles.queries << "x" << tiles.keys;
          worst = std::max(worst, difference);
          worstRelative = std::max(worstRelative, relative);
        }
        EXPECT_LE(f.maxAbsDifference, worst);
        identical += f.identical;
        total += f.total;
      }
  }
  std::printf("online softmax vs plain: worst |difference| %.3g (relative %.3g), %lld of %lld entries bit-identical\n",
              worst, worstRelative, static_cast<long long>(identical), static_cast<long long>(total));
  EXPECT_GT(worst, 0.0);  // the page says why: another order of float operations
  EXPECT_GT(identical, 0);
}

TEST(OnlineSoftmax, TilesRunQueryTilesOuterAndSkipFullyMaskedOnes) {
  const AttentionConfig c = parsedConfig(kFlashConfigs[0]);  // S = 7, causal
  FlashOptions o;
  o.tileQueries = 2;
  o.tileKeys = 3;
  FlashResult f;
  ASSERT_TRUE(succeeded(onlineSoftmax(c, o, f)));
  ASSERT_EQ(f.tiles.size(), 4u * 3u);
  AttentionResult r;
  ASSERT_TRUE(succeeded(runAttention(c, r)));
  const float* masked = r.find("masked")->data.data();  // head 0 first
  for (size_t t = 0; t < f.tiles.size(); ++t) {
    const FlashTile& tile = f.tiles[t];
    EXPECT_EQ(tile.queryStart, static_cast<int64_t>(t / 3) * 2);
    EXPECT_EQ(tile.keyStart, static_cast<int64_t>(t % 3) * 3);
    EXPECT_EQ(tile.queryEnd, std::min<int64_t>(tile.queryStart + 2, 7));
    EXPECT_EQ(tile.keyEnd, std::min<int64_t>(tile.keyStart + 3, 7));
    // Causal: a tile is fully masked when its first key comes after its last query.
    EXPECT_EQ(tile.skipped, tile.keyStart > tile.queryEnd - 1);
    for (int64_t r2 = 0; r2 < 2; ++r2) {
      const size_t at = t * 2 + static_cast<size_t>(r2);
      const int64_t i = tile.queryStart + r2;
      if (i >= 7) {
        EXPECT_TRUE(std::isnan(f.runningMax[at]) && std::isnan(f.runningSum[at]) && std::isnan(f.rescale[at]));
        continue;
      }
      // m after this tile: the max of the row's logits up to its last key.
      float m = -INFINITY;
      for (int64_t j = 0; j < tile.keyEnd; ++j) m = std::max(m, masked[i * 7 + j]);
      EXPECT_EQ(f.runningMax[at], m);
      if (tile.skipped) EXPECT_EQ(f.rescale[at], 1.0f);
      // The first key tile: nothing seen before, alpha = exp(-inf - m) is taken as 0.
      if (tile.keyStart == 0) EXPECT_EQ(f.rescale[at], 0.0f);
    }
  }
  // The last tile of every row: l = sum(exp(x - m)) over the row (float rounding aside).
  for (int64_t i = 0; i < 7; ++i) {
    const size_t lastTile = static_cast<size_t>(i / 2) * 3 + 2;
    const size_t at = lastTile * 2 + static_cast<size_t>(i % 2);
    double sum = 0;
    for (int64_t j = 0; j <= i; ++j) sum += std::exp(static_cast<double>(masked[i * 7 + j]) - f.runningMax[at]);
    EXPECT_NEAR(f.runningSum[at], sum, 1e-5 * sum);
  }
}

// ---- against PyTorch (fixtures/steppers, written by tests/reference/generate.py) ----

// A fixture array {shape, data} as floats.
std::vector<float> fixtureArray(const JsonValue& v) {
  std::vector<float> out;
  for (const JsonValue& x : v.find("data")->array()) out.push_back(testing::fixtureNumber(x));
  return out;
}

// The largest |got - want| over the entries that are numbers in `want`; NaN in want must be NaN in got.
double worstDifference(const std::vector<float>& got, const std::vector<float>& want, const std::string& what) {
  EXPECT_EQ(got.size(), want.size()) << what;
  double worst = 0;
  for (size_t e = 0; e < std::min(got.size(), want.size()); ++e) {
    if (std::isnan(want[e])) {
      EXPECT_TRUE(std::isnan(got[e])) << what << "[" << e << "]";
    } else if (std::isinf(want[e])) {
      EXPECT_EQ(got[e], want[e]) << what << "[" << e << "]";
    } else {
      worst = std::max(worst, std::fabs(static_cast<double>(got[e]) - want[e]));
    }
  }
  return worst;
}

std::vector<std::string> stepperFixtures() {
  const JsonValue index = testing::readJsonFile(testing::fixturePath("steppers/index.json"));
  std::vector<std::string> names;
  for (const JsonValue& name : index.array()) names.push_back(name.string());
  return names;
}

TEST(StepperFixtures, MatchPyTorchsDecodeAndTiledLoops) {
  double worstDecode = 0, worstFlash = 0;
  int64_t checked = 0;
  for (const std::string& name : stepperFixtures()) {
    const JsonValue fixture = testing::readJsonFile(testing::fixturePath("steppers/" + name + ".json"));
    AttentionConfig c;
    ASSERT_TRUE(succeeded(parseConfig(*fixture.find("config"), c))) << name;
    const JsonValue& options = *fixture.find("options");
    const JsonValue& want = *fixture.find("expected");
    const auto option = [&](const char* key) { return static_cast<int64_t>(options.find(key)->number()); };
    double worst = 0;
    if (fixture.find("kind")->string() == "decode") {
      DecodeResult d;
      ASSERT_TRUE(succeeded(decodeWithKvCache(c, option("batch"), d))) << name;
      worst = std::max({worstDifference(d.newKeys, fixtureArray(*want.find("newKeys")), name + " newKeys"),
                        worstDifference(d.newValues, fixtureArray(*want.find("newValues")), name + " newValues"),
                        worstDifference(d.scores, fixtureArray(*want.find("scores")), name + " scores"),
                        worstDifference(d.weights, fixtureArray(*want.find("weights")), name + " weights"),
                        worstDifference(d.fullWeights, fixtureArray(*want.find("fullWeights")), name + " fullWeights"),
                        worstDifference(d.isCausalOneQuery, fixtureArray(*want.find("isCausalOneQuery")),
                                        name + " isCausalOneQuery")});
      EXPECT_EQ(d.identicalRows, d.rows) << name;  // ours: every row, bit for bit
      EXPECT_EQ(d.rows, static_cast<int64_t>(want.find("rows")->number()));
      std::vector<std::string> tokens;
      for (const JsonValue& token : want.find("tokens")->array()) tokens.push_back(token.string());
      EXPECT_EQ(d.tokens, tokens) << name;
      const JsonValue& bytes = *want.find("cacheBytes");
      for (const auto& [key, ours] : {std::pair<const char*, const std::vector<double>*>{"mha", &d.cacheBytesMha},
                                      {"gqa", &d.cacheBytesGqa},
                                      {"mqa", &d.cacheBytesMqa}}) {
        std::vector<double> theirs;
        for (const JsonValue& x : bytes.find(key)->array()) theirs.push_back(x.number());
        EXPECT_EQ(*ours, theirs) << name << " cacheBytes." << key;
      }
      worstDecode = std::max(worstDecode, worst);
    } else {
      FlashOptions o{option("batch"), option("head"), option("tileQueries"), option("tileKeys")};
      FlashResult f;
      ASSERT_TRUE(succeeded(onlineSoftmax(c, o, f))) << name;
      const auto& tiles = want.find("tiles")->array();
      ASSERT_EQ(f.tiles.size(), tiles.size()) << name;
      for (size_t t = 0; t < tiles.size(); ++t) {
        EXPECT_EQ(f.tiles[t].queryStart, static_cast<int64_t>(tiles[t].find("queryStart")->number()));
        EXPECT_EQ(f.tiles[t].keyEnd, static_cast<int64_t>(tiles[t].find("keyEnd")->number()));
        EXPECT_EQ(f.tiles[t].skipped, tiles[t].find("skipped")->boolean()) << name << " tile " << t;
      }
      worst = std::max(
          {worstDifference(f.runningMax, fixtureArray(*want.find("runningMax")), name + " runningMax"),
           worstDifference(f.runningSum, fixtureArray(*want.find("runningSum")), name + " runningSum"),
           worstDifference(f.rescale, fixtureArray(*want.find("rescale")), name + " rescale"),
           worstDifference(f.partialOutput, fixtureArray(*want.find("partialOutput")), name + " partialOutput"),
           worstDifference(f.output, fixtureArray(*want.find("output")), name + " output"),
           worstDifference(f.plain, fixtureArray(*want.find("plain")), name + " plain")});
      worstFlash = std::max(worstFlash, worst);
    }
    EXPECT_LE(worst, 1e-5) << name;
    std::printf("%-32s worst difference from PyTorch %.3g\n", name.c_str(), worst);
    ++checked;
  }
  std::printf("steppers vs PyTorch: decode worst %.3g, flash worst %.3g (%lld fixtures)\n", worstDecode, worstFlash,
              static_cast<long long>(checked));
  EXPECT_GE(checked, 2);
}

TEST(OnlineSoftmax, ErrorsNameTheOption) {
  const auto error = [](int64_t head, int64_t tq, int64_t tk, int64_t batch = 0) {
    FlashOptions o{batch, head, tq, tk};
    FlashResult f;
    const Status s = onlineSoftmax(parsedConfig(R"({"text": "a b c", "numHeads": 2})"), o, f);
    return s ? s->field + " " + s->code : std::string("ok");
  };
  EXPECT_EQ(error(0, 1, 1), "ok");
  EXPECT_EQ(error(0, 0, 1), "options.tileQueries tile-size");
  EXPECT_EQ(error(0, 1, -2), "options.tileKeys tile-size");
  EXPECT_EQ(error(2, 1, 1), "options.head out-of-range");
  EXPECT_EQ(error(0, 1, 1, 1), "options.batch out-of-range");
}

}  // namespace
}  // namespace attention_lab
