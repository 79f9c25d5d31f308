// Softmax and masking properties, on the ops and through whole runs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "attention.h"
#include "exp_cases.h"
#include "softmax.h"
#include "test_support.h"

namespace attention_lab {
namespace {

const float kInf = std::numeric_limits<float>::infinity();

AttentionResult run(const AttentionConfig& config) {
  AttentionResult result;
  EXPECT_TRUE(testing::succeeded(runAttention(config, result)));
  return result;
}

TEST(Softmax, RowsSumToOne) {
  const std::vector<float> x = {1, 2, 3, -1, 0.5f, 0, 0, 0, 10, -10, 3, 3};
  std::vector<float> y(x.size());
  softmaxRows(x.data(), y.data(), 3, 4);
  for (int r = 0; r < 3; ++r) {
    float sum = 0;
    for (int c = 0; c < 4; ++c) sum += y[r * 4 + c];
    EXPECT_NEAR(sum, 1.0f, 1e-6f) << "row " << r;
  }
  EXPECT_FLOAT_EQ(y[4 + 1], y[4 + 2]);  // equal scores, equal weights
}

TEST(Softmax, LargeScoresAreStable) {
  // exp(1e4) overflows float; subtracting the row max first keeps it finite.
  const std::vector<float> x = {1e4f, 1e4f - 1, 1e4f - 2, 3e38f, 3e38f, -3e38f};
  std::vector<float> y(x.size());
  softmaxRows(x.data(), y.data(), 2, 3);
  for (float v : y) EXPECT_TRUE(std::isfinite(v));
  EXPECT_NEAR(y[0], 1.0f / (1.0f + std::exp(-1.0f) + std::exp(-2.0f)), 1e-6f);
  EXPECT_FLOAT_EQ(y[3], 0.5f);
  EXPECT_EQ(y[5], 0.0f);
}

TEST(Softmax, MinusInfinityGivesExactZeroAndAllMaskedGivesNaN) {
  const std::vector<float> x = {0.3f, -kInf, 1.2f, -kInf, -kInf, -kInf};
  std::vector<float> y(x.size());
  softmaxRows(x.data(), y.data(), 2, 3);
  EXPECT_EQ(y[1], 0.0f);
  EXPECT_NEAR(y[0] + y[2], 1.0f, 1e-6f);
  for (int c = 3; c < 6; ++c) EXPECT_TRUE(std::isnan(y[c])) << "PyTorch gives NaN for an all -inf row";
}

TEST(SoftmaxExp, WithinTwoUlpOfStdExp) {
  const exp_checks::ExpCheck check = exp_checks::checkExp();
  exp_checks::printCheck(check);
  EXPECT_GT(check.values, 900000);
  EXPECT_LE(check.worstUlp, 2);
  EXPECT_LT(check.worstRelative, 3e-7);
  EXPECT_EQ(check.specialFailures, 0);
  EXPECT_EQ(check.rowMismatches, 0);
}

// The fused row pass against the steps one at a time (scale, then mask, then
// softmaxRows): the same bits, for every mask step, divisor and length.
TEST(ScaleMaskSoftmaxRow, EqualsTheStepsOneAtATime) {
  const std::vector<float> scores = {3.5f, -1.25f, 0.0f, -0.0f, 7.0f, 2.0f, -9.5f, 1e30f, 0.5f, -2.0f, 4.0f};
  const std::vector<float> blockedMask = {0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
  const std::vector<float> additiveMask = {0, -kInf, 0, 0, -1e9f, 0, 0, -kInf, 0, 0, -kInf};
  for (int64_t n : {1, 3, 4, 5, 8, 11})
    for (MaskStep step : {MaskStep::None, MaskStep::Fill, MaskStep::Add})
      for (bool divide : {true, false}) {
        ScoreRowSteps s;
        s.divide = divide;
        s.divisor = std::sqrt(8.0f);
        s.factor = 0.3f;
        s.mask = step;
        s.fill = step == MaskStep::Fill ? -1e9f : -kInf;
        const std::vector<float>& mask = step == MaskStep::Add ? additiveMask : blockedMask;
        std::vector<float> scaled(n), masked(n), weights(n), expectScaled(n), expectMasked(n), expectWeights(n);
        for (int64_t j = 0; j < n; ++j) {
          expectScaled[j] = divide ? scores[j] / s.divisor : scores[j] * s.factor;
          expectMasked[j] = step == MaskStep::None  ? expectScaled[j]
                            : step == MaskStep::Add ? expectScaled[j] + mask[j]
                                                    : (mask[j] == s.blockedValue ? s.fill : expectScaled[j]);
        }
        softmaxRows(expectMasked.data(), expectWeights.data(), 1, n);
        scaleMaskSoftmaxRow(s, scores.data(), mask.data(), n, scaled.data(), masked.data(), weights.data());
        for (int64_t j = 0; j < n; ++j) {
          EXPECT_EQ(std::memcmp(&scaled[j], &expectScaled[j], 4), 0) << "scaled n" << n << " j" << j;
          EXPECT_EQ(std::memcmp(&masked[j], &expectMasked[j], 4), 0) << "masked n" << n << " j" << j;
          EXPECT_EQ(std::memcmp(&weights[j], &expectWeights[j], 4), 0) << "weights n" << n << " j" << j;
        }
        // In place, without the stored steps: the same weights.
        std::vector<float> inPlace(scores.begin(), scores.begin() + n);
        scaleMaskSoftmaxRow(s, inPlace.data(), mask.data(), n, nullptr, nullptr, inPlace.data());
        EXPECT_EQ(std::memcmp(inPlace.data(), weights.data(), 4 * n), 0) << "in place, n" << n;
      }
}

AttentionConfig maskedBatch(MaskKind mask, float fill) {
  AttentionConfig c;
  c.input.texts = {"the cat sat on the mat", "a dog", "one two three"};
  c.numHeads = 4;
  c.dModel = 16;
  c.mask = mask;
  c.maskFill = fill;
  c.dropoutP = 0.25;
  return c;
}

TEST(Masking, MaskedWeightsAreExactlyZeroAndRowsSumToOne) {
  for (float fill : {-kInf, -1e9f}) {
    const AttentionResult r = run(maskedBatch(MaskKind::CausalPadding, fill));
    const Tensor& mask = *r.find("mask");
    const Tensor& weights = *r.find("weights");
    const int64_t B = weights.shape[0], H = weights.shape[1], S = weights.shape[2], Skv = weights.shape[3];
    int64_t blocked = 0;
    for (int64_t b = 0; b < B; ++b)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t i = 0; i < S; ++i) {
          float sum = 0;
          for (int64_t j = 0; j < Skv; ++j) {
            const float w = weights.data[((b * H + h) * S + i) * Skv + j];
            sum += w;
            if (mask.data[(b * S + i) * Skv + j] != 0) {
              EXPECT_EQ(w, 0.0f) << "b" << b << " h" << h << " i" << i << " j" << j;
              ++blocked;
            }
          }
          EXPECT_NEAR(sum, 1.0f, 1e-5f);
        }
    EXPECT_GT(blocked, 0);
  }
}

TEST(Masking, CausalMaskIsUpperTriangleAndPaddingBlocksPadKeys) {
  const AttentionResult r = run(maskedBatch(MaskKind::CausalPadding, -kInf));
  const Tensor& mask = *r.find("mask");
  const int64_t S = mask.shape[1];
  for (int64_t i = 0; i < S; ++i)
    for (int64_t j = 0; j < S; ++j) EXPECT_EQ(mask.data[i * S + j], j > i ? 1.0f : 0.0f);  // row 0: no padding
  // "a dog" is padded after 2 tokens: keys 2.. are blocked in every row.
  for (int64_t i = 0; i < S; ++i)
    for (int64_t j = 2; j < S; ++j) EXPECT_EQ(mask.data[(1 * S + i) * S + j], 1.0f);
}

TEST(Masking, EachMaskKindBlocksOnlyItsKeys) {
  // Row 1 ("a dog") is padded after 2 of its 6 tokens.
  for (MaskKind kind : {MaskKind::None, MaskKind::Causal, MaskKind::Padding, MaskKind::CausalPadding}) {
    const AttentionResult r = run(maskedBatch(kind, -kInf));
    const Tensor& mask = *r.find("mask");
    const int64_t B = mask.shape[0], S = mask.shape[1];
    for (int64_t b = 0; b < B; ++b)
      for (int64_t i = 0; i < S; ++i)
        for (int64_t j = 0; j < S; ++j) {
          const bool pad = (b == 1 && j >= 2) || (b == 2 && j >= 3);
          const bool want = (blocksFuture(kind) && j > i) || (blocksPadding(kind) && pad);
          EXPECT_EQ(mask.data[(b * S + i) * S + j], want ? 1.0f : 0.0f)
              << kMaskNames[static_cast<size_t>(kind)] << " b" << b << " i" << i << " j" << j;
        }
  }
}

TEST(Masking, DroppedKeepsZerosAndScalesTheRest) {
  const AttentionResult r = run(maskedBatch(MaskKind::Padding, -kInf));
  const Tensor& weights = *r.find("weights");
  const Tensor& dropped = *r.find("dropped");
  int64_t kept = 0, droppedCount = 0;
  for (size_t i = 0; i < weights.data.size(); ++i) {
    if (dropped.data[i] == 0.0f) {
      ++droppedCount;
    } else {
      EXPECT_FLOAT_EQ(dropped.data[i], weights.data[i] / 0.75f);
      ++kept;
    }
  }
  EXPECT_GT(kept, 0);
  EXPECT_GT(droppedCount, 0);
}

TEST(Stability, HugeEmbeddingsGiveFiniteWeights) {
  AttentionConfig c;
  c.input.texts = {"big big small"};
  c.dModel = 2;
  c.numHeads = 1;
  c.init = WeightInit::Identity;
  c.scale = ScaleMode::None;
  c.embeddingValues = GivenValues{{2, 2}, {1e4f, 1e4f, -1e4f, 1e4f}, {}};
  const AttentionResult r = run(c);
  for (float w : r.find("weights")->data) EXPECT_TRUE(std::isfinite(w));
  for (float s : r.find("scores")->data) EXPECT_TRUE(std::isfinite(s));
  EXPECT_TRUE(r.warnings.empty());
}

}  // namespace
}  // namespace attention_lab
