// Head scores on hand-worked cases: the induction targets of texts typed twice,
// with a separator, three times and with repeats inside, the lengths of their
// runs and the repeats they make; the scores as the means of the weights the
// targets point at.
#include "head_scores.h"

#include <gtest/gtest.h>

namespace attention_lab {
namespace {

using Targets = std::vector<int64_t>;

TEST(HeadScores, InductionTargetsFollowTheEarlierCopy) {
  // s + s, s = 5 6 7: position i of the second copy looks at i − 3 + 1.
  EXPECT_EQ(inductionTargets({5, 6, 7, 5, 6, 7}), (Targets{-1, -1, -1, 1, 2, 3}));
  // A separator between the copies (". "): the copy is found all the same.
  EXPECT_EQ(inductionTargets({5, 6, 7, 9, 5, 6, 7}), (Targets{-1, -1, -1, -1, 1, 2, 3}));
  // A third copy: its tokens match runs in both earlier copies; the longest run (through the second) wins.
  EXPECT_EQ(inductionTargets({5, 6, 5, 6, 5, 6}), (Targets{-1, -1, 1, 2, 3, 4}));
  // Nothing repeated: no target.
  EXPECT_EQ(inductionTargets({1, 2, 3, 4}), (Targets{-1, -1, -1, -1}));
  // A token repeated at once: never its own position (j + 1 < i).
  EXPECT_EQ(inductionTargets({1, 1}), (Targets{-1, -1}));
  EXPECT_EQ(inductionTargets({1, 1, 1}), (Targets{-1, -1, 1}));
  // "A B C A B D A": at the last A, the run "A" alone matches at 0 and 3; the latest (3) wins -> 4.
  EXPECT_EQ(inductionTargets({1, 2, 3, 1, 2, 4, 1}), (Targets{-1, -1, -1, 1, 2, -1, 4}));
  EXPECT_TRUE(inductionTargets({}).empty());
}

std::vector<int64_t> runsOf(const std::vector<int64_t>& ids) {
  std::vector<int64_t> runs;
  for (const InductionMatch& m : inductionMatches(ids)) runs.push_back(m.run);
  return runs;
}

std::vector<int> repeatOf(const std::vector<int64_t>& ids, int64_t minRun) {
  std::vector<int> inside;
  for (bool x : repeatedPositions(inductionMatches(ids), minRun)) inside.push_back(x ? 1 : 0);
  return inside;
}

TEST(HeadScores, MatchesCarryTheLengthOfTheirRun) {
  // s + s, s = 5 6 7: the runs grow 1, 2, 3 along the second copy.
  EXPECT_EQ(runsOf({5, 6, 7, 5, 6, 7}), (Targets{0, 0, 0, 1, 2, 3}));
  // A third copy matches through the second copy and the first: the run keeps growing.
  EXPECT_EQ(runsOf({5, 6, 5, 6, 5, 6}), (Targets{0, 0, 1, 2, 3, 4}));
  // Each match's target is the one inductionTargets gives.
  const std::vector<int64_t> ids = {1, 2, 3, 1, 2, 4, 1};
  std::vector<int64_t> targets;
  for (const InductionMatch& m : inductionMatches(ids)) targets.push_back(m.target);
  EXPECT_EQ(targets, inductionTargets(ids));
}

TEST(HeadScores, RepeatIsTheLaterCopyOfALongEnoughRun) {
  // s + s with |s| = 4 and a minimum of 4: the whole second copy, from its first token.
  EXPECT_EQ(repeatOf({1, 2, 3, 4, 1, 2, 3, 4}, 4), (std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1}));
  // |s| = 3 is too short for 4; enough for 3.
  EXPECT_EQ(repeatOf({1, 2, 3, 1, 2, 3}, 4), (std::vector<int>{0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(repeatOf({1, 2, 3, 1, 2, 3}, 3), (std::vector<int>{0, 0, 0, 1, 1, 1}));
  // With a separator (9), and inside other tokens (8 … 7): the copy, not the separator nor what follows.
  EXPECT_EQ(repeatOf({1, 2, 3, 4, 9, 1, 2, 3, 4, 7}, 4), (std::vector<int>{0, 0, 0, 0, 0, 1, 1, 1, 1, 0}));
  EXPECT_EQ(repeatOf({8, 1, 2, 3, 4, 7, 1, 2, 3, 4}, 4), (std::vector<int>{0, 0, 0, 0, 0, 0, 1, 1, 1, 1}));
  // A third copy: the second and the third, with the separator between them (the run goes through it).
  EXPECT_EQ(repeatOf({1, 2, 3, 4, 9, 1, 2, 3, 4, 9, 1, 2, 3, 4}, 4),
            (std::vector<int>{0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1}));
  // Short repeats inside (1 2 and 3 1) are no repeat.
  EXPECT_EQ(repeatOf({1, 2, 3, 1, 2, 4, 3, 1}, 4), (std::vector<int>{0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_TRUE(repeatOf({}, 4).empty());
}

TEST(HeadScores, MeansOfTheWeightsTheyPointAt) {
  // 2 heads, T = 4, ids 1 2 1 2: targets −1 −1 1 2; rows of weights (causal, each summing to 1).
  Tensor w;
  w.shape = {2, 4, 4};
  w.data = {1,   0,   0,   0,     //
            0.5, 0.5, 0,   0,     //
            0.1, 0.6, 0.3, 0,     // head 0, row 2: to the target 1: 0.6; to the previous token: 0.6
            0.2, 0.1, 0.4, 0.3,   // row 3: target 2: 0.4; previous token 0.4
            1,   0,   0,   0,     //
            0.9, 0.1, 0,   0,     //
            0.2, 0.2, 0.6, 0,     // head 1, row 2: target 0.2, previous 0.2
            0.7, 0.1, 0.1, 0.1};  // row 3: target 0.1, previous 0.1
  const HeadScores s = measureHeadScores(w, {1, 2, 1, 2});
  ASSERT_EQ(s.previousToken.size(), 2u);
  EXPECT_NEAR(s.previousToken[0], (0.5 + 0.6 + 0.4) / 3, 1e-7);
  EXPECT_NEAR(s.previousToken[1], (0.9 + 0.2 + 0.1) / 3, 1e-7);
  ASSERT_EQ(s.induction.size(), 2u);
  EXPECT_NEAR(s.induction[0], (0.6 + 0.4) / 2, 1e-7);
  EXPECT_NEAR(s.induction[1], (0.2 + 0.1) / 2, 1e-7);
  // One token: no previous token, no target.
  Tensor one;
  one.shape = {1, 1, 1};
  one.data = {1};
  const HeadScores single = measureHeadScores(one, {7});
  EXPECT_TRUE(single.previousToken.empty());
  EXPECT_TRUE(single.induction.empty());
}

}  // namespace
}  // namespace attention_lab
