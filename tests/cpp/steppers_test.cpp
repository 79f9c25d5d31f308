// The two steppers: the KV cache's decode rows against the full causal run
// (bit for bit), and FlashAttention-2's online softmax against the plain
// softmax's context (within float32 rounding, worst difference printed).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "attention.h"
#include "kv_cache.h"
#include "online_softmax.h"
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
      if (tile.skipped) EXPECT_TRUE(std::isnan(f.rescale[at]));
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
