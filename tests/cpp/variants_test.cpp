// The modern variants' semantics, checked from what they mean rather than
// from numbers of our own engine (tests/reference has the PyTorch values):
// RoPE is a rotation that makes q·k depend only on i − j, GQA shares K/V heads
// by repeat_interleave, the window and the sinks block exactly their cells, a
// sink of −1e4 is no sink, a large cap is no cap, ALiBi's slopes follow the paper.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "attention.h"
#include "schema.h"
#include "test_support.h"

namespace attention_lab {
namespace {

AttentionResult run(const std::string& json) {
  AttentionResult r;
  EXPECT_TRUE(testing::succeeded(runAttention(testing::parsedConfig(json), r))) << json;
  return r;
}

const Tensor& tensor(const AttentionResult& r, const std::string& name) {
  const Tensor* t = r.find(name);
  EXPECT_NE(t, nullptr) << name;
  static const Tensor empty;
  return t ? *t : empty;
}

bool sameBits(const Tensor& a, const Tensor& b) {
  return a.shape == b.shape && std::memcmp(a.data.data(), b.data.data(), 4 * a.data.size()) == 0;
}

// Element [b, h, i, j] of a [B, H, S, S_kv] tensor.
float at4(const Tensor& t, int64_t b, int64_t h, int64_t i, int64_t j) {
  return t.data[static_cast<size_t>(((b * t.shape[1] + h) * t.shape[2] + i) * t.shape[3] + j)];
}

// q_h · k_g in double, from Q [1, S, H·dk] and K [1, S_kv, Hkv·dk].
double dot(const Tensor& q, int64_t i, int64_t h, const Tensor& k, int64_t j, int64_t g, int64_t dk) {
  double sum = 0;
  for (int64_t c = 0; c < dk; ++c)
    sum += static_cast<double>(q.data[static_cast<size_t>(i * q.shape[2] + h * dk + c)]) *
           k.data[static_cast<size_t>(j * k.shape[2] + g * dk + c)];
  return sum;
}

TEST(Variants, NoVariantNoNewTensorsAndHkvIsH) {
  const AttentionResult r = run(R"({"text": "the cat sat", "dModel": 8, "numHeads": 2})");
  for (const char* name :
       {"Q_norm", "K_norm", "ropeAngles", "Q_rope", "K_rope", "capped", "alibiBias", "biased", "sinkWeights"})
    EXPECT_EQ(r.find(name), nullptr) << name;
  EXPECT_EQ(r.sizes.Hkv, 2);
}

TEST(Variants, QkNormGivesEachHeadRowAMeanSquareOfOne) {
  const AttentionResult r =
      run(R"({"text": "norms of every head row", "dModel": 12, "numHeads": 3, "numKVHeads": 1, "qkNorm": true})");
  for (const char* name : {"Q_norm", "K_norm"}) {
    const Tensor& t = tensor(r, name);
    const int64_t dk = 4, rows = t.shape[1], width = t.shape[2];
    EXPECT_EQ(width, std::string(name) == "Q_norm" ? 12 : 4);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t h = 0; h < width / dk; ++h) {
        double meanSquare = 0;
        for (int64_t c = 0; c < dk; ++c) meanSquare += std::pow(t.data[static_cast<size_t>(i * width + h * dk + c)], 2);
        EXPECT_NEAR(meanSquare / dk, 1.0, 1e-4) << name << " row " << i << " head " << h;
      }
  }
}

// Pairs RoPE rotates together: (c, c + dk/2) rotate-half, (2c, 2c + 1) interleaved.
TEST(Variants, RopeRotatesEachPairKeepingItsNormAndLeavesPositionZero) {
  for (const char* style : {"rotate-half", "interleaved"}) {
    const AttentionResult r = run(std::string(R"({"text": "a rotary position embedding test", "dModel": 12,
        "numHeads": 2, "rope": {"style": ")") +
                                  style + R"("}})");
    const bool half = std::string(style) == "rotate-half";
    const Tensor &q = tensor(r, "Q"), &rotated = tensor(r, "Q_rope"), &angles = tensor(r, "ropeAngles");
    const int64_t S = q.shape[1], D = 12, dk = 6;
    EXPECT_EQ(angles.shape, (std::vector<int64_t>{S, 3}));
    for (int64_t i = 0; i < S; ++i)
      for (int64_t h = 0; h < 2; ++h)
        for (int64_t c = 0; c < dk / 2; ++c) {
          const size_t a = static_cast<size_t>(i * D + h * dk + (half ? c : 2 * c));
          const size_t b = a + (half ? dk / 2 : 1);
          const double before = std::hypot(q.data[a], q.data[b]), after = std::hypot(rotated.data[a], rotated.data[b]);
          EXPECT_NEAR(after, before, 1e-6 + 1e-6 * before) << style << " row " << i;
          // The angle between them is the position times the pair's frequency 10000^(-2c/dk).
          const double expectedAngle = i * std::pow(10000.0, -2.0 * c / dk);
          EXPECT_NEAR(angles.data[static_cast<size_t>(i * 3 + c)], expectedAngle, 1e-6 * (1 + expectedAngle));
          const double turned = std::atan2(rotated.data[b], rotated.data[a]) - std::atan2(q.data[b], q.data[a]);
          EXPECT_NEAR(std::remainder(turned - expectedAngle, 2 * M_PI), 0.0, 1e-4) << style << " row " << i;
          if (i == 0) EXPECT_EQ(rotated.data[a], q.data[a]) << "position 0 is not rotated";
        }
  }
}

TEST(Variants, RopeMakesTheScoreDependOnlyOnTheDistance) {
  // One token repeated: every q row and every k row is the same before RoPE,
  // so after it q_i · k_j is a function of i − j alone.
  for (const char* style : {"rotate-half", "interleaved"}) {
    const AttentionResult r = run(std::string(R"({"text": "x x x x x x x", "dModel": 8, "numHeads": 2,
        "rope": {"style": ")") + style +
                                  R"(", "base": 100}})");
    const Tensor& scores = tensor(r, "scores");
    const int64_t S = scores.shape[2];
    for (int64_t h = 0; h < 2; ++h)
      for (int64_t i = 0; i + 1 < S; ++i)
        for (int64_t j = 0; j + 1 < S; ++j)
          EXPECT_NEAR(at4(scores, 0, h, i + 1, j + 1), at4(scores, 0, h, i, j), 1e-5) << style << " " << i << "," << j;
    // ... and does depend on it.
    EXPECT_GT(std::fabs(at4(scores, 0, 0, 3, 0) - at4(scores, 0, 0, 0, 0)), 1e-4) << style;
  }
}

TEST(Variants, GqaWithAsManyKVHeadsAsHeadsIsPlainMultiHeadBitForBit) {
  for (const char* extra : {R"("mask": "causal")", R"("weights": {"init": "torch-rand"}, "dropout": {"p": 0.3})",
                            R"("weights": {"init": "identity", "qkvBias": true})"}) {
    const std::string base = std::string(R"({"texts": ["grouped query attention", "as plain heads"], "dModel": 8,
        "numHeads": 4, )") + extra;
    const AttentionResult plain = run(base + "}"), grouped = run(base + R"(, "numKVHeads": 4})");
    ASSERT_EQ(plain.tensors.size(), grouped.tensors.size());
    for (size_t i = 0; i < plain.tensors.size(); ++i) {
      EXPECT_EQ(plain.tensors[i].first, grouped.tensors[i].first);
      EXPECT_TRUE(sameBits(plain.tensors[i].second, grouped.tensors[i].second)) << plain.tensors[i].first;
    }
  }
}

TEST(Variants, GqaQueryHeadsReadTheirKVHeadByRepeatInterleave) {
  // H = 4, Hkv = 2: heads 0, 1 read KV head 0; heads 2, 3 read KV head 1 (not .repeat's 0, 1, 0, 1).
  const AttentionResult r = run(R"({"text": "four query heads share two", "dModel": 16, "numHeads": 4,
      "numKVHeads": 2, "scale": "none"})");
  const Tensor &q = tensor(r, "Q"), &k = tensor(r, "K"), &scores = tensor(r, "scores");
  EXPECT_EQ(k.shape, (std::vector<int64_t>{1, 5, 8}));
  EXPECT_EQ(tensor(r, "W_K").shape, (std::vector<int64_t>{16, 8}));
  EXPECT_EQ(r.sizes.Hkv, 2);
  const int64_t S = 5, dk = 4;
  for (int64_t h = 0; h < 4; ++h)
    for (int64_t i = 0; i < S; ++i)
      for (int64_t j = 0; j < S; ++j) {
        EXPECT_NEAR(at4(scores, 0, h, i, j), dot(q, i, h, k, j, h / 2, dk), 1e-5) << h;
        if (h == 1 && i == 0 && j == 0) EXPECT_GT(std::fabs(dot(q, i, h, k, j, 1, dk) - at4(scores, 0, h, i, j)), 1e-6);
      }
  // Multi-query: one KV head, every query head reads it.
  const AttentionResult mqa = run(R"({"text": "one key head for all", "dModel": 16, "numHeads": 4, "numKVHeads": 1})");
  EXPECT_EQ(tensor(mqa, "V").shape, (std::vector<int64_t>{1, 5, 4}));
  const Tensor &mq = tensor(mqa, "Q"), &mk = tensor(mqa, "K"), &ms = tensor(mqa, "scores");
  for (int64_t h = 0; h < 4; ++h)
    for (int64_t i = 0; i < S; ++i)
      for (int64_t j = 0; j < S; ++j) EXPECT_NEAR(at4(ms, 0, h, i, j), dot(mq, i, h, mk, j, 0, dk), 1e-5);
}

TEST(Variants, GqaIdentityWeightsAreTheFirstColumnsOfTheIdentity) {
  const AttentionResult r =
      run(R"({"text": "a b", "dModel": 4, "numHeads": 2, "numKVHeads": 1, "weights": {"init": "identity"}})");
  EXPECT_EQ(tensor(r, "W_V").data, (std::vector<float>{1, 0, 0, 1, 0, 0, 0, 0}));
}

TEST(Variants, TheWindowAndTheSinksBlockExactlyTheirCells) {
  // Causal, window 2, one sink token: query i sees j = i, i − 1 and key 0.
  const AttentionResult r =
      run(R"({"text": "a b c d e", "dModel": 4, "numHeads": 1, "mask": "causal", "window": 2, "sinkTokens": 1})");
  const std::vector<float> blocked = {0, 1, 1, 1, 1,  //
                                      0, 0, 1, 1, 1,  //
                                      0, 0, 0, 1, 1,  //
                                      0, 1, 0, 0, 1,  //
                                      0, 1, 1, 0, 0};
  EXPECT_EQ(tensor(r, "mask").data, blocked);
  const Tensor& weights = tensor(r, "weights");
  for (size_t c = 0; c < blocked.size(); ++c) EXPECT_EQ(weights.data[c] == 0.0f, blocked[c] == 1.0f) << c;
  // Without sinks, window 1: each query sees only itself.
  const AttentionResult self = run(R"({"text": "a b c", "dModel": 4, "numHeads": 1, "mask": "causal", "window": 1})");
  EXPECT_EQ(tensor(self, "weights").data, (std::vector<float>{1, 0, 0, 0, 1, 0, 0, 0, 1}));
}

TEST(Variants, ASinkOfMinus1e4IsNoSinkAndASinkTakesWeight) {
  const std::string base = R"({"texts": ["the sink column", "soaks up weight"], "dModel": 8, "numHeads": 2,
      "mask": "causal")";
  const AttentionResult plain = run(base + "}"), none = run(base + R"(, "sinkLogit": -1e4})");
  EXPECT_TRUE(sameBits(tensor(plain, "weights"), tensor(none, "weights")));
  EXPECT_TRUE(sameBits(tensor(plain, "output"), tensor(none, "output")));
  for (float w : tensor(none, "sinkWeights").data) EXPECT_EQ(w, 0.0f);

  const AttentionResult sink = run(base + R"(, "sinkLogit": 0})");
  const Tensor &weights = tensor(sink, "weights"), &sinkWeights = tensor(sink, "sinkWeights");
  EXPECT_EQ(sinkWeights.shape, (std::vector<int64_t>{2, 2, 3}));
  for (int64_t row = 0; row < 2 * 2 * 3; ++row) {
    double sum = 0;
    for (int64_t j = 0; j < 3; ++j) sum += weights.data[static_cast<size_t>(row * 3 + j)];
    EXPECT_LT(sum, 1.0);
    EXPECT_GT(sinkWeights.data[static_cast<size_t>(row)], 0.0f);
    EXPECT_NEAR(sum + sinkWeights.data[static_cast<size_t>(row)], 1.0, 1e-6);
  }
  // Query 0 sees key 0 and the sink: weights e^s / (e^s + e^0), sink 1 / (e^s + 1).
  const float s = at4(tensor(sink, "scaled"), 0, 0, 0, 0);
  EXPECT_NEAR(sinkWeights.data[0], 1.0 / (std::exp(static_cast<double>(s)) + 1.0), 1e-6);
}

TEST(Variants, ALargeCapIsNoCapAndASmallOneBoundsTheLogitsInOrder) {
  const std::string base = R"({"text": "soft capping of the scaled scores", "dModel": 8, "numHeads": 2)";
  const AttentionResult wide = run(base + R"(, "softcap": 1e6})");
  const Tensor &scaled = tensor(wide, "scaled"), &capped = tensor(wide, "capped");
  for (size_t c = 0; c < scaled.data.size(); ++c) EXPECT_NEAR(capped.data[c], scaled.data[c], 1e-6);
  const AttentionResult narrow = run(base + R"(, "softcap": 0.5})");
  const Tensor &s = tensor(narrow, "scaled"), &t = tensor(narrow, "capped");
  for (size_t c = 0; c < s.data.size(); ++c) {
    EXPECT_LT(std::fabs(t.data[c]), 0.5f);
    EXPECT_NEAR(t.data[c], 0.5 * std::tanh(s.data[c] / 0.5), 1e-6);
    if (c > 0 && s.data[c] > s.data[c - 1]) EXPECT_GE(t.data[c], t.data[c - 1]);
  }
  // The masked logits are the capped ones (no mask: the same values, not the scaled).
  EXPECT_EQ(tensor(narrow, "masked").data, t.data);
}

TEST(Variants, AlibiSlopesFollowThePaper) {
  EXPECT_EQ(alibiSlopes(8),
            (std::vector<float>{0.5f, 0.25f, 0.125f, 0.0625f, 0.03125f, 0.015625f, 0.0078125f, 0.00390625f}));
  // 6 heads: the 4-head slopes 2^-2, 2^-4, 2^-6, 2^-8, then every other 8-head slope: 2^-1, 2^-3.
  EXPECT_EQ(alibiSlopes(6), (std::vector<float>{0.25f, 0.0625f, 0.015625f, 0.00390625f, 0.5f, 0.125f}));
  const std::vector<float> sixteen = alibiSlopes(16);
  for (int h = 1; h <= 16; ++h) EXPECT_NEAR(sixteen[static_cast<size_t>(h - 1)], std::pow(2.0, -8.0 * h / 16), 1e-7);
  EXPECT_EQ(alibiSlopes(1), std::vector<float>{0.00390625f});
}

TEST(Variants, AlibiAddsMinusSlopeTimesDistanceBeforeTheMask) {
  const AttentionResult r = run(R"({"text": "linear biases by distance", "dModel": 8, "numHeads": 2, "alibi": true,
      "mask": "causal"})");
  const Tensor &bias = tensor(r, "alibiBias"), &scaled = tensor(r, "scaled"), &biased = tensor(r, "biased");
  EXPECT_EQ(bias.shape, (std::vector<int64_t>{2, 4, 4}));
  const float slopes[2] = {0.0625f, 0.00390625f};  // 2^(-8h/2), h = 1, 2
  for (int64_t h = 0; h < 2; ++h)
    for (int64_t i = 0; i < 4; ++i)
      for (int64_t j = 0; j < 4; ++j) {
        const float b = bias.data[static_cast<size_t>((h * 4 + i) * 4 + j)];
        EXPECT_EQ(b, -slopes[h] * static_cast<float>(i - j));
        EXPECT_EQ(at4(biased, 0, h, i, j), at4(scaled, 0, h, i, j) + b);
        if (j > i) EXPECT_EQ(at4(tensor(r, "masked"), 0, h, i, j), -INFINITY);
      }
}

TEST(Variants, TheVariantsTensorsHaveTheContractsShapes) {
  const AttentionResult r = run(R"({"texts": ["all the variants", "at once here"], "dModel": 16, "numHeads": 4,
      "numKVHeads": 2, "qkNorm": true, "rope": {"style": "rotate-half"}, "softcap": 3, "alibi": true, "window": 2,
      "sinkTokens": 1, "sinkLogit": 0, "mask": "causal"})");
  const std::vector<std::pair<const char*, std::vector<int64_t>>> shapes = {
      {"K", {2, 3, 8}},         {"Q_norm", {2, 3, 16}},    {"K_norm", {2, 3, 8}},     {"ropeAngles", {3, 2}},
      {"Q_rope", {2, 3, 16}},   {"K_rope", {2, 3, 8}},     {"capped", {2, 4, 3, 3}},  {"alibiBias", {4, 3, 3}},
      {"biased", {2, 4, 3, 3}}, {"weights", {2, 4, 3, 3}}, {"sinkWeights", {2, 4, 3}}};
  for (const auto& [name, shape] : shapes) EXPECT_EQ(tensor(r, name).shape, shape) << name;
  std::vector<std::string> order;
  for (const auto& entry : r.tensors) order.push_back(entry.first);
  const std::vector<std::string> expected = {"X",       "W_Q",    "W_K",    "W_V",     "W_O",         "b_O",
                                             "Q",       "K",      "V",      "Q_norm",  "K_norm",      "ropeAngles",
                                             "Q_rope",  "K_rope", "scores", "scaled",  "capped",      "alibiBias",
                                             "biased",  "mask",   "masked", "weights", "sinkWeights", "averagedWeights",
                                             "context", "concat", "output"};
  EXPECT_EQ(order, expected);
}

}  // namespace
}  // namespace attention_lab
