#include "head_scores.h"

#include <algorithm>

namespace attention_lab {

std::vector<InductionMatch> inductionMatches(const std::vector<int64_t>& ids) {
  const int64_t T = static_cast<int64_t>(ids.size());
  std::vector<InductionMatch> matches(static_cast<size_t>(T));
  // run[j]: the length of the match of the tokens ending at j with those ending at i (i's row of the
  // classic longest-common-suffix table, rolled from i − 1's: O(T) memory).
  std::vector<int64_t> run(static_cast<size_t>(T), 0), previous(static_cast<size_t>(T), 0);
  for (int64_t i = 0; i < T; ++i) {
    int64_t best = 0;
    for (int64_t j = 0; j < i; ++j) {
      run[static_cast<size_t>(j)] = ids[static_cast<size_t>(j)] == ids[static_cast<size_t>(i)]
                                        ? (j > 0 ? previous[static_cast<size_t>(j - 1)] : 0) + 1
                                        : 0;
      // j + 1 < i: the target is an earlier token, never i itself; ≥ keeps the latest of equal runs.
      if (j + 1 < i && run[static_cast<size_t>(j)] > 0 && run[static_cast<size_t>(j)] >= best) {
        best = run[static_cast<size_t>(j)];
        matches[static_cast<size_t>(i)] = {j + 1, best};
      }
    }
    std::swap(run, previous);
  }
  return matches;
}

std::vector<int64_t> inductionTargets(const std::vector<int64_t>& ids) {
  std::vector<int64_t> targets;
  for (const InductionMatch& m : inductionMatches(ids)) targets.push_back(m.target);
  return targets;
}

std::vector<bool> repeatedPositions(const std::vector<InductionMatch>& matches, int64_t minRun) {
  const int64_t T = static_cast<int64_t>(matches.size());
  std::vector<bool> inside(static_cast<size_t>(T), false);
  // From the end: `reach` is the first position the runs seen so far cover (each run ends at its p).
  int64_t reach = T;
  for (int64_t p = T - 1; p >= 0; --p) {
    const int64_t run = matches[static_cast<size_t>(p)].run;
    if (run >= minRun) reach = std::min(reach, p - run + 1);
    if (reach <= p) inside[static_cast<size_t>(p)] = true;
  }
  return inside;
}

HeadScores measureHeadScores(const Tensor& weights, const std::vector<int64_t>& ids) {
  const int64_t nh = weights.shape[0], T = weights.shape[1];
  HeadScores s;
  s.inductionTargets = inductionTargets(ids);
  int64_t withTarget = 0;
  for (int64_t t : s.inductionTargets) withTarget += t >= 0;
  for (int64_t h = 0; h < nh; ++h) {
    const float* w = weights.data.data() + h * T * T;
    if (T >= 2) {
      double sum = 0;
      for (int64_t i = 1; i < T; ++i) sum += w[i * T + i - 1];
      s.previousToken.push_back(sum / static_cast<double>(T - 1));
    }
    if (withTarget > 0) {
      double sum = 0;
      for (int64_t i = 0; i < T; ++i)
        if (const int64_t t = s.inductionTargets[static_cast<size_t>(i)]; t >= 0) sum += w[i * T + t];
      s.induction.push_back(sum / static_cast<double>(withTarget));
    }
  }
  return s;
}

}  // namespace attention_lab
